#!/usr/bin/env python3
"""List the public functions of include/ibpart/*.h and include/ibpart/sys/*.h
that have no comment.

A function (a prototype or a static inline definition between
IBP_BEGIN_DECLS and IBP_END_DECLS, at file scope) counts as documented
when the line just above it ends a comment, or when it belongs to a run
of function declarations with no blank line or other code between them
and the run starts right under a comment (a group comment).  Types,
macros and struct members are not functions and are not looked at.
A comment trailing the declaration on its own lines does not count.

Usage: check-header-docs.py [--count] [--skip NAME.h ...] [HEADER ...]
With no HEADER, every include/ibpart/*.h, sys/*.h (and version.h.in) of the tree
the script is in.
Exit status 1 when some function is undocumented (0 with --count, which
only prints "header: undocumented/total" per header).
"""
import argparse
import glob
import os
import re
import sys


def blank_comments(text):
    """Return (code, kinds): the text with comments and string literals
    replaced by spaces (newlines kept) and, per line, whether the line
    holds code, a comment and nothing else, or nothing."""
    out = []
    i, n = 0, len(text)
    comment_lines = set()
    line = 0
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for ch in text[i:j]:
                if ch == "\n":
                    out.append("\n")
                    line += 1
                else:
                    comment_lines.add(line)
                    out.append(" ")
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comment_lines.add(line)
            out.append(" " * (j - i))
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + (c if j < n else ""))
            i = j + 1
            continue
        if c == "\n":
            line += 1
        out.append(c)
        i += 1
    code = "".join(out)
    kinds = []
    for ln, s in enumerate(code.split("\n")):
        if s.strip():
            kinds.append("code")
        elif ln in comment_lines:
            kinds.append("comment")
        else:
            kinds.append("blank")
    return code, kinds


FUNC_RE = re.compile(r"\b(ibp_\w+)\s*\(")


def declarations(code):
    """Yield (name, first_line, last_line, is_function) for each
    file-scope statement between IBP_BEGIN_DECLS and IBP_END_DECLS."""
    lines = code.split("\n")
    inside = False
    depth = 0
    stmt, start = [], None
    for ln, s in enumerate(lines):
        t = s.strip()
        if depth == 0 and not stmt:
            if t.startswith("IBP_BEGIN_DECLS"):
                inside = True
                continue
            if t.startswith("IBP_END_DECLS"):
                inside = False
                continue
        if not inside:
            continue
        if depth == 0 and not stmt and t.startswith("#"):
            # A directive, with its continuation lines.
            continue
        if prev_continues(lines, ln):
            continue
        if not t:
            continue
        if start is None:
            start = ln
        stmt.append(s)
        for ch in s:
            if ch in "{(":
                depth += 1
            elif ch in "})":
                depth -= 1
        ended = depth == 0 and (t.endswith(";") or t.endswith("}"))
        if ended:
            text = " ".join(stmt)
            yield classify(text) + (start, ln)
            stmt, start = [], None


def prev_continues(lines, ln):
    """A line continuing a preprocessor directive (backslash above)."""
    k = ln - 1
    while k >= 0 and lines[k].rstrip().endswith("\\"):
        if lines[k].lstrip().startswith("#"):
            return True
        k -= 1
    return False


def classify(text):
    t = text.strip()
    if re.match(r"(typedef|struct|enum|union)\b", t) and not re.match(
        r"(struct|enum|union)\s+\w+\s*\*?\s*\**\s*ibp_\w+\s*\(", t
    ):
        return (None, False)
    # The name of a function is the identifier right before the first
    # parameter list at depth 0, not one inside __attribute__(()).
    depth = 0
    for m in re.finditer(r"[()]|\b\w+\s*\(", t):
        tok = m.group(0)
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        else:
            name = tok.rstrip("( \t")
            if depth == 0 and name.startswith("ibp_"):
                return (name, True)
            depth += 1
    return (None, False)


def check(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    code, kinds = blank_comments(text)
    decls = list(declarations(code))
    result = []  # (name, line, documented)
    prev_end, prev_doc, prev_func = None, False, False
    for name, is_func, first, last in decls:
        if not is_func:
            prev_end, prev_doc, prev_func = last, False, False
            continue
        above = first - 1
        if above >= 0 and kinds[above] == "comment":
            doc = True
        elif prev_func and prev_end == above:
            doc = prev_doc  # in a run under a group comment
        else:
            doc = False
        result.append((name, first + 1, doc))
        prev_end, prev_doc, prev_func = last, doc, True
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", action="store_true")
    ap.add_argument("--skip", action="append", default=[])
    ap.add_argument("headers", nargs="*")
    a = ap.parse_args()
    headers = a.headers
    if not headers:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        inc = os.path.join(root, "include/ibpart")
        headers = sorted(glob.glob(os.path.join(inc, "*.h")))
        headers += sorted(glob.glob(os.path.join(inc, "sys", "*.h")))
        headers += sorted(glob.glob(os.path.join(inc, "*.h.in")))
    bad = 0
    for h in headers:
        if os.path.basename(h) in a.skip:
            continue
        res = check(h)
        undoc = [r for r in res if not r[2]]
        bad += len(undoc)
        rel = os.path.relpath(h)
        if a.count:
            print(f"{rel}: {len(undoc)}/{len(res)}")
            continue
        for name, line, _ in undoc:
            print(f"{rel}:{line}: {name}: no comment above it")
    if not a.count:
        print(f"check-header-docs: {bad} undocumented function(s)")
    return 1 if bad and not a.count else 0


if __name__ == "__main__":
    sys.exit(main())
