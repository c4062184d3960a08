#!/usr/bin/env python3
"""abi.py - libibpart's exported names: the headers, the linker map, the
Debian symbols file and the built library say the same thing.

The ABI is the functions declared (not static inline) between
IBP_BEGIN_DECLS and IBP_END_DECLS in the installed headers: the stable
tier include/ibpart/*.h and the unstable tier include/ibpart/sys/*.h.
libibpart.map (version node IBPART_0.7) lists exactly those names as
global and makes everything else local; debian/libibpart0.symbols is
made from the map (dpkg-gensymbols' format).

  abi.py map                 print libibpart.map as the headers make it
  abi.py symbols [VERSION]   print debian/libibpart0.symbols from the map
  abi.py check [LIBSO]       exit 1, saying what differs, unless the
                             headers, libibpart.map, the symbols file and
                             (when given) `nm -D --defined-only LIBSO`
                             name the same functions, and no stable
                             header includes a sys/ one

A new public function is added to its header and to libibpart.map (run
`abi.py map > libibpart.map` and `abi.py symbols > debian/libibpart0.symbols`,
then read the diff); the check fails until both say so.
"""
import glob
import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = "IBPART_0.7"
MAP = os.path.join(ROOT, "libibpart.map")
SYMBOLS = os.path.join(ROOT, "debian", "libibpart0.symbols")

_spec = importlib.util.spec_from_file_location(
    "header_docs", os.path.join(ROOT, "scripts", "check-header-docs.py"))
hd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hd)


def headers():
    """[(tier, path)] of the installed headers, in map order."""
    inc = os.path.join(ROOT, "include", "ibpart")
    out = [("stable", p) for p in sorted(glob.glob(os.path.join(inc, "*.h")))]
    out.append(("stable", os.path.join(inc, "version.h.in")))
    out += [("sys", p)
            for p in sorted(glob.glob(os.path.join(inc, "sys", "*.h")))]
    return out


def declared(path):
    """The exported functions a header declares, in its order."""
    with open(path, encoding="utf-8") as f:
        code, _ = hd.blank_comments(f.read())
    lines = code.split("\n")
    names = []
    for name, is_func, first, last in hd.declarations(code):
        text = " ".join(lines[first:last + 1])
        if is_func and not re.search(r"\bstatic\b", text):
            names.append(name)
    return names


def header_names():
    return [(tier, os.path.relpath(p, ROOT).replace(".h.in", ".h"),
             declared(p)) for tier, p in headers()]


def make_map():
    out = ["/*",
           " * libibpart.map - the names libibpart.so exports (ld --version-script).",
           " *",
           " * Exactly the functions the installed headers declare: the stable API",
           " * (include/ibpart/) and the unstable sys/ tier (include/ibpart/sys/:",
           " * wire/MAD, transports, SM, simulator; may change in any release).",
           " * Everything else is local.  Kept equal to the headers, to",
           " * debian/libibpart0.symbols and to `nm -D` by scripts/abi.py check",
           " * (test style.abi_exports).",
           " */",
           NODE + " {",
           "  global:"]
    tier_seen = None
    for tier, rel, names in header_names():
        if not names:
            continue
        if tier != tier_seen:
            out.append("    /* %s */" % ("stable: include/ibpart/" if tier == "stable"
                                         else "unstable: include/ibpart/sys/"))
            tier_seen = tier
        out.append("    /* %s */" % rel)
        out += ["    %s;" % n for n in names]
    out += ["  local:", "    *;", "};"]
    return "\n".join(out) + "\n"


def map_names(path=MAP):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    m = re.search(r"global:(.*?)local:", text, re.S)
    if not m:
        sys.exit("%s: no global: ... local: section" % path)
    return [s.strip() for s in m.group(1).split(";") if s.strip()]


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(ibpart VERSION ([0-9.]+)", f.read())
    return m.group(1)


def make_symbols(version):
    out = ["# libibpart0's symbols (dpkg-gensymbols): made from libibpart.map by",
           "# scripts/abi.py symbols; test style.abi_exports keeps them equal.",
           "libibpart.so.0 libibpart0 #MINVER#",
           " %s@%s %s" % (NODE, NODE, version)]
    out += [" %s@%s %s" % (n, NODE, version) for n in sorted(map_names())]
    return "\n".join(out) + "\n"


def symbols_names():
    names = []
    with open(SYMBOLS, encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                sym = line.split()[0]
                name, _, node = sym.partition("@")
                if node != NODE:
                    print("%s: %s is not in version node %s" % (SYMBOLS, sym, NODE))
                    names.append("?" + sym)
                elif name != NODE:
                    names.append(name)
    return names


def nm_names(libso):
    out = subprocess.run(["nm", "-D", "--defined-only", libso], check=True,
                         capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDBRVWi" and f[2] != NODE:
            names.append(f[2].split("@")[0])
    return names


def compare(what_a, a, what_b, b):
    sa, sb = set(a), set(b)
    bad = 0
    for n in sorted(sa - sb):
        print("%s has %s, %s does not" % (what_a, n, what_b))
        bad += 1
    for n in sorted(sb - sa):
        print("%s has %s, %s does not" % (what_b, n, what_a))
        bad += 1
    for n in sorted({n for n in b if b.count(n) > 1}):
        print("%s lists %s twice" % (what_b, n))
        bad += 1
    return bad


def stable_includes_sys():
    """The stable headers that include an unstable one: the stable tier
    cannot depend on sys/, which may change in any release."""
    bad = 0
    for tier, path in headers():
        if tier != "stable":
            continue
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if re.match(r'\s*#\s*include\s*[<"]ibpart/sys/', line):
                    print("%s:%d: a stable header includes %s" %
                          (os.path.relpath(path, ROOT), n, line.split()[-1]))
                    bad += 1
    return bad


def check(libso):
    hdr = [n for _, _, names in header_names() for n in names]
    mp = map_names()
    bad = stable_includes_sys()
    bad += compare("the headers", hdr, "libibpart.map", mp)
    bad += compare("libibpart.map", mp, "debian/libibpart0.symbols",
                   symbols_names())
    if libso:
        bad += compare("libibpart.map", mp, "nm -D " + os.path.basename(libso),
                       nm_names(libso))
    stable = sum(len(n) for t, _, n in header_names() if t == "stable")
    print("%d exported functions in %s: %d stable, %d sys/%s" %
          (len(mp), NODE, stable, len(mp) - stable,
           "; %d differences" % bad if bad else ""))
    return 1 if bad else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "map":
        sys.stdout.write(make_map())
    elif cmd == "symbols":
        sys.stdout.write(make_symbols(sys.argv[2] if len(sys.argv) > 2
                                      else project_version()))
    elif cmd == "check":
        return check(sys.argv[2] if len(sys.argv) > 2 else None)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
