#!/usr/bin/env python3
"""check-front-ends.py - the front ends hold argument handling and
printing only (docs/ARCHITECTURE.md, "Rules").

The front ends are tools/ (ibpart), daemon/ (ibpartd) and front/ (what
they share).  They may do anything with argv and with output, but the
work is the library's, reached as any third party reaches it:

  1. they include only system headers, the installed ones
     ("ibpart/x.h", "ibpart/sys/x.h"), front/'s, and their own folder's:
     never a private header of src/ (whose building blocks - the
     policy's placement, the matrix's classes, the SM's pushes - would
     let a front end redo the library's work);
  2. every ibp_ function they call is exported (libibpart.map), static
     inline in an installed header, or front/'s own;
  3. no function of tools/, daemon/ or front/ runs past 80 lines: what
     grows past that is logic a second front end would copy.  An option
     table (`const struct cli_opt opts[] = {...};`, one entry per option
     with its --help text) is declarative and not counted: ibpartd's
     parse() holds its forty options in one.  ibpartd's HTTP, TLS and
     Kerberos plumbing is its own (no library function serves HTTP), and
     holds to the rule as it is.

Exit 1 naming each breach, 0 otherwise.  Usage: check-front-ends.py [SRC]
"""
import glob
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
FRONTS = ("tools", "daemon", "front")
MAX_LINES = 80

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ANGLE = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)
OURS = ("src", "tools", "daemon", "front")
CALL = re.compile(r"\b(ibp_[a-z0-9_]+)\s*\(")


def strip(text):
    """Comments and string literals blanked, newlines kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                  text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def exported():
    with open(os.path.join(ROOT, "libibpart.map"), encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    m = re.search(r"global:(.*?)local:", text, re.S)
    return {s.strip() for s in m.group(1).split(";") if s.strip()}


def inline_in_headers():
    """ibp_ functions the installed headers define static inline (pkey.h's
    match rule): compiled into the caller, exported by nobody."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "include", "ibpart", "**", "*.h"),
                          recursive=True):
        with open(path, encoding="utf-8") as f:
            names |= set(re.findall(r"^static inline [^;(]*\b(ibp_\w+)\s*\(",
                                    f.read(), re.M))
    return names


def defined_in_front():
    """ibp_ functions front/ defines, and the macros the headers of the
    front ends define (IBP_ARG_* entries expand to no call)."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "front", "*.c")):
        with open(path, encoding="utf-8") as f:
            names |= set(re.findall(r"^[a-z][^;(]*\b(ibp_\w+)\s*\(",
                                    strip(f.read()), re.M))
    return names


OPT_TABLE = re.compile(r"^\s+(static )?const struct cli_opt \w+\[\] = \{")


def long_functions(path, text):
    """Functions past MAX_LINES, their option tables (rule 3) not counted."""
    out, start, name, table, skipped = [], None, None, False, 0
    for n, line in enumerate(text.split("\n"), 1):
        if re.match(r"[a-zA-Z].*\(", line) and not line.rstrip().endswith(";"):
            start, name, skipped = n, line.strip(), 0
        elif start and OPT_TABLE.match(line):
            table = True
        elif line.startswith("}") and start:
            lines = n - start + 1 - skipped
            if lines > MAX_LINES:
                out.append("%s:%d: %d lines: %s" % (path, start, lines, name))
            start = None
        if table:
            skipped += 1
            table = not re.match(r"^\s+\};", line)
    return out


def main():
    ok_calls = exported() | defined_in_front() | inline_in_headers()
    inc_dir = os.path.join(ROOT, "include", "ibpart")
    bad = []
    files = 0
    for d in FRONTS:
        for path in sorted(glob.glob(os.path.join(ROOT, d, "*.[ch]"))):
            files += 1
            rel = os.path.relpath(path, ROOT)
            with open(path, encoding="utf-8") as f:
                raw = f.read()
            for h in ANGLE.findall(raw):
                # <x.h>: a system header, unless it names ours (front/
                # has the source tree on its include path)
                parts = h.split("/")
                if parts[0] == "ibpart" or parts[0] in OURS or \
                        os.path.isdir(os.path.join(ROOT, "src", parts[0])):
                    raw = raw.replace("<%s>" % h, '"%s"' % h)
            for h in INC.findall(raw):
                parts = h.split("/")
                if parts[0] == "ibpart":
                    if not os.path.exists(os.path.join(inc_dir, *parts[1:])) \
                            and h != "ibpart/version.h":
                        bad.append("%s includes %s, not an installed header"
                                   % (rel, h))
                elif parts[0] == "front" and len(parts) == 2:
                    pass
                elif len(parts) == 1 and os.path.exists(
                        os.path.join(os.path.dirname(path), h)):
                    pass
                elif d == "daemon" and len(parts) == 1 and os.path.exists(
                        os.path.join(ROOT, "tools", h)):
                    pass  # the CLI's helpers, built into front's library
                else:
                    bad.append("%s includes %s: a front end sees the "
                               "installed headers and front/ only" % (rel, h))
            code = strip(raw)
            for name in sorted(set(CALL.findall(code)) - ok_calls):
                if re.search(r"#\s*define\s+%s\b" % name, raw):
                    continue
                bad.append("%s calls %s, which libibpart.so does not "
                           "export" % (rel, name))
            if path.endswith(".c"):
                bad += long_functions(rel, raw)
    for b in bad:
        print(b)
    print("front ends: %d files of %s; %d breaches" %
          (files, ", ".join(FRONTS), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
