#!/usr/bin/env python3
"""check-module-cycles.py - the library's modules form no cycle.

A module is a folder of src/ (docs/ARCHITECTURE.md).  Module A depends on
module B when a file of A (src/A/*.c, src/A/*.h, or a public header A owns)
includes a private header of B ("B/x.h") or a public header B owns
("ibpart/x.h").  Which module owns each public header is the table below:
a header missing from it fails the check, so a new header is placed on
purpose.  Each module's main header (MAIN) names every .c file of the module in its
first comment.  Exit 1 naming each cycle found or file unnamed, 0 when
there is none.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")

# public header (include/ibpart/, include/ibpart/sys/) -> owning module
OWNER = {
    "export.h": "util", "error.h": "util", "diag.h": "util",
    "escape.h": "util", "atomic_file.h": "util", "limits.h": "util",
    "progress.h": "util", "suggest.h": "util",
    "version.h": "util",
    "mad.h": "wire", "sa.h": "wire", "perfmgt.h": "wire",
    "transport.h": "wire", "transport_umad.h": "wire",
    "topo.h": "topo", "fabric_gen.h": "topo", 
    "alias_map.h": "topo",
    "conf.h": "conf", "plan.h": "conf",
    "pkey.h": "pkey", "tables.h": "pkey",
    "tables_json.h": "pkey", "state_file.h": "pkey",
    "policy.h": "policy", "opensm_conf.h": "policy",
    "tables_compute.h": "policy",
    "sm.h": "sm",
    "sim.h": "sim",
    "sim_session.h": "sim", "transport_sim.h": "sim",
    "analysis.h": "analysis", "analysis_input.h": "analysis",
    "matrix_view.h": "report",
    "live.h": "live", "live_connect.h": "live", "apply.h": "live",
    "verify.h": "live",
    "monitor.h": "monitor",
    "service.h": "service",
    "report.h": "report",
}

# "x.h" and <x.h> alike: the library is built with include/ and src/ on
# the include path, so <ibpart/analysis.h> or <topo/topo_lib.h> compiles
# as well as the quoted form.
# module -> its main header, whose first comment is the module's design:
# what it owns, its files, its dependencies (docs/ARCHITECTURE.md,
# "Modules").  Each .c of the module must be named there (or matched by a
# "prefix*.c" it gives), so the list cannot go stale unseen.
MAIN = {
    "util": "error.h", "topo": "topo.h", "pkey": "tables.h",
    "wire": "sys/mad.h", "conf": "conf.h", "policy": "policy.h",
    "sm": "sys/sm.h", "analysis": "analysis.h", "report": "report.h",
    "sim": "sys/sim.h", "live": "live.h", "service": "sys/service.h",
    "monitor": "monitor.h",
}


def unnamed_files(modules):
    """The files of src/ their module's main header does not name."""
    out = []
    for m in modules:
        if m not in MAIN:
            out.append("module %s has no main header (MAIN)" % m)
            continue
        path = os.path.join(ROOT, "include", "ibpart", MAIN[m])
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        top = re.sub(r"\s*\n\s*\*\s*", " ", text[:text.find("*/")])
        globs = re.findall(r"\b([a-z_0-9]+)\*\.c\b", top)
        for f in sorted(os.listdir(os.path.join(ROOT, "src", m))):
            if f.endswith(".c") and not re.search(
                    r"(?<![\w/])%s\b" % re.escape(f), top) and \
                    not any(f.startswith(g) for g in globs):
                out.append("src/%s/%s is not named in include/ibpart/%s's "
                           "module design (its first comment)" %
                           (m, f, MAIN[m]))
    return out


INC = re.compile(r'^\s*#\s*include\s+(["<])([^">]+)[">]', re.M)


def local_target(h, including):
    """What a quoted include names relative to the including file's folder
    (where the compiler looks first: "../topo/topo_lib.h" from src/util/,
    "analysis.h" from include/ibpart/): as "ibpart/x.h", "M/x.h" or
    "front/x.h" etc., or None when no such file is there."""
    target = os.path.normpath(os.path.join(os.path.dirname(including), h))
    if not os.path.isfile(target):
        return None
    rel = os.path.relpath(target, os.path.normpath(ROOT)).split(os.sep)
    if rel[:2] == ["include", "ibpart"]:
        return "ibpart/" + "/".join(rel[2:])
    if rel[0] == "src":
        return "/".join(rel[1:])
    return "/".join(rel)


def header_module(path, modules):
    """The module an include "path" names, or None (a system header)."""
    parts = path.split("/")
    if parts[0] == "ibpart":
        return OWNER.get(parts[-1], "?" + path)
    if parts[0] in modules:
        return parts[0]
    return None


def main():
    src = os.path.join(ROOT, "src")
    inc = os.path.join(ROOT, "include", "ibpart")
    modules = sorted(d for d in os.listdir(src)
                     if os.path.isdir(os.path.join(src, d)))
    files = []  # (module, path)
    for m in modules:
        for dp, _, fs in os.walk(os.path.join(src, m)):
            files += [(m, os.path.join(dp, f)) for f in fs
                      if f.endswith((".c", ".h"))]
    for dp, _, fs in os.walk(inc):
        for f in fs:
            if f.endswith((".h", ".h.in")):
                name = f[:-3] if f.endswith(".in") else f
                files.append((OWNER.get(name, "?" + name),
                              os.path.join(dp, f)))
    bad = sorted({m for m, _ in files if m.startswith("?")} |
                 {m for m in modules if m not in OWNER.values()})
    edges = {}  # (a, b) -> first file giving it
    for m, path in files:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for quote, h in INC.findall(text):
            if quote == '"':
                h = local_target(h, path) or h
            b = header_module(h, modules)
            if h.split("/")[0] in ("front", "tools", "daemon"):
                bad.append("%s includes %s: the library never depends on "
                           "its front ends" % (os.path.relpath(path, ROOT), h))
                continue
            if b is None or b == m:
                continue
            if b.startswith("?"):
                bad.append("%s includes %s, which no module owns" %
                           (os.path.relpath(path, ROOT), h))
                continue
            edges.setdefault((m, b), "%s includes %s" %
                             (os.path.relpath(path, ROOT), h))
    for b in bad:
        print("module table: %s (scripts/check-module-cycles.py OWNER)" % b)
    stale = unnamed_files(modules)
    for s in stale:
        print(s)
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    # the strongly connected components of more than one module (Tarjan)
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            strong(v)
    for comp in sccs:
        print("cycle among modules: " + ", ".join(comp))
        for (a, b), why in sorted(edges.items()):
            if a in comp and b in comp:
                print("  %s -> %s: %s" % (a, b, why))
    cycles = sccs
    if cycles or bad or stale:
        return 1
    order = []  # a layering, lowest first, for the record
    left = set(modules)
    while left:
        low = sorted(m for m in left
                     if not (graph.get(m, set()) & left))
        order.append(" ".join(low))
        left -= set(low)
    print("no module cycle; layers, lowest first: " + " | ".join(order))
    return 0


if __name__ == "__main__":
    sys.exit(main())
