#!/usr/bin/env python3
"""seqgen.py - sequences of partition plans for one running OpenSM.

Writes, for each sequence, a directory of steps that
tests/interop/seq_lib.sh replays on ibsim: OpenSM started on step 0,
SIGHUP for every later step, and `ibpart tables --state` carried along.

    seqgen.py TOPO OUTDIR SEED COUNT STEPS
    seqgen.py TOPO OUTDIR --cases

A sequence is fixed by its seed (Python's random.Random, the same on
every machine).  Each step changes the plan the way a subnet changes
over months: a member flips between full and limited, leaves, comes
back; a partition is removed and re-added (its P_Key comes back);
indx0 moves to another P_Key; the default partition flips; many
partitions name the switch, so its port 0 (8 entries) is full and
OpenSM reuses indexes; a CA is unlinked for a sweep and linked again,
or its link flaps (down for one step, back the next), or - on a fabric
with several switches - one or all of the links between two switches
flap (what they cut off leaves the fabric for that step); one P_Key gets
full and limited members at once; partitions get mgid= items (MGIDs
shared by several partitions, written with scope 2 or 5: the shape
OpenSM 3.3.23 dies on when they are deleted, opensm-behaviour.md rule
29); a broken line makes OpenSM reject the whole file (with an indx0
line read before the error); opensm.conf's keep_pkey_indexes goes FALSE
and back.  Some sequences run OpenSM with -W (allow_both_pkeys).

--cases writes the fixed sequences of issue 10 instead (each the
shortest plan history that shows one OpenSM rule).

Files of a step NN: NN.conf (partitions.conf), NN.topo (the topology
ibpart is given: the fabric as OpenSM sees it in that sweep, unlinked
CAs left out), NN.console (ibsim console lines sent before the sweep),
NN.osmconf (opensm.conf OpenSM re-reads on SIGHUP), NN.what (what
changed).  seq.args: OpenSM's extra arguments for the whole sequence.
"""
import os
import random
import re
import sys

POOL = [0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0100, 0x0201,
        0x0010, 0x0302]
MEMB = ["full", "limited", "both"]


def read_topo(path):
    """The topology's text, its CA port GUIDs (in order), CA node ids and
    switch GUIDs; the first CA is the SM's (ibsim's rule)."""
    text = open(path).read()
    cas = []  # (node id, port guid)
    sws = []
    cur = None
    for line in text.splitlines():
        m = re.match(r'^\s*(Ca|Hca|Rt)\s+\d+\s+"([^"]+)"', line)
        if m:
            cur = m.group(2)
            continue
        m = re.match(r'^\s*Switch\s+\d+\s+"([^"]+)"', line)
        if m:
            cur = None
            continue
        m = re.match(r'^switchguid=(0x[0-9a-fA-F]+)', line)
        if m:
            sws.append(int(m.group(1), 16))
        m = re.match(r'^\[1\]\((0x[0-9a-fA-F]+)\)', line)
        if m and cur:
            cas.append((cur, int(m.group(1), 16)))
    return text, cas, sws


def switch_links(text):
    """The links between switches: (switch id, port, peer id, peer port),
    each once, in file order."""
    links = []
    cur = None
    for line in text.splitlines():
        m = re.match(r'^\s*Switch\s+\d+\s+"([^"]+)"', line)
        if m:
            cur = m.group(1)
            continue
        if re.match(r'^\s*(Ca|Hca|Rt)\s', line):
            cur = None
            continue
        m = re.match(r'^\[(\d+)\][^"]*"(S-[^"]+)"\[(\d+)\]', line)
        if m and cur:
            a, p, b, q = cur, int(m.group(1)), m.group(2), int(m.group(3))
            if (b, q, a, p) not in links:
                links.append((a, p, b, q))
    return links


def topo_without_links(text, links):
    """The topology with the given switch links removed (both ends); the
    nodes they cut off stay in the file, unreached: ibpart programs only
    what the SM's port reaches, as OpenSM does."""
    if not links:
        return text
    ends = set()
    for a, p, b, q in links:
        ends.add((a, p))
        ends.add((b, q))
    out = []
    cur = None
    for line in text.splitlines():
        m = re.match(r'^\s*Switch\s+\d+\s+"([^"]+)"', line)
        if m:
            cur = m.group(1)
        elif re.match(r'^\s*(Ca|Hca|Rt)\s', line):
            cur = None
        m = re.match(r'^\[(\d+)\]', line)
        if m and cur and (cur, int(m.group(1))) in ends:
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def topo_without(text, node_ids):
    """The topology with the given CAs left out (their section and the
    switch lines that point at them)."""
    if not node_ids:
        return text
    out = []
    skip = False
    for line in text.splitlines():
        m = re.match(r'^(caguid|rtguid)=', line)
        if m:
            skip = False
        hit = any('"%s"' % n in line for n in node_ids)
        if re.match(r'^\s*(Ca|Hca|Rt)\s', line) and hit:
            skip = True
            # drop the caguid=/rtguid= line just written
            if out and re.match(r'^(caguid|rtguid)=', out[-1]):
                out.pop()
            continue
        if skip:
            if line.strip() == "":
                skip = False
            continue
        if hit:
            continue
        out.append(line)
    return "\n".join(out) + "\n"


class Plan:
    """A partitions.conf as data: P_Key -> partition."""

    def __init__(self):
        self.parts = {}  # pkey -> {"members": {who: memb}, "indx0": set}
        self.default = None  # None or (who, memb) list for 0x7fff

    def copy(self):
        p = Plan()
        p.parts = {k: {"members": dict(v["members"]),
                       "indx0": set(v["indx0"]),
                       "mgids": list(v.get("mgids", []))} for k, v in
                   self.parts.items()}
        p.default = list(self.default) if self.default else None
        return p

    def text(self, broken=False):
        lines = ["# generated by tests/interop/seqgen.py"]
        if self.default:
            lines.append("Default=0x7fff, ipoib : %s ;" % ", ".join(
                "%s=%s" % (w, m) for w, m in self.default))
        for k in sorted(self.parts):
            v = self.parts[k]
            plain = [(w, m) for w, m in v["members"].items()
                     if w not in v["indx0"]]
            ix = [(w, m) for w, m in v["members"].items()
                  if w in v["indx0"]]
            # mgid= items last, each followed by a flag (an mgid item
            # ending a statement reads memory OpenSM never set)
            mg = "".join(", mgid=%s, rate=3" % g for g in v.get("mgids", []))
            if plain or mg:
                items = ", ".join("%s=%s" % (w, m) for w, m in plain)
                lines.append("P%04x=0x%04x : %s ;" % (
                    k, k, (items + mg) if items else mg[2:]))
            if ix:
                lines.append("P%04x=0x%04x, indx0 : %s ;" % (k, k,
                             ", ".join("%s=%s" % (w, m) for w, m in ix)))
        if broken:
            lines.append("this line has no partition definition")
        return "\n".join(lines) + "\n"


def who(guid):
    return "0x%016x" % guid


class Gen:
    def __init__(self, topo, seed):
        self.r = random.Random(seed)
        self.text, self.cas, self.sws = read_topo(topo)
        # the SM's port is never unlinked
        self.hosts = [g for _, g in self.cas[1:]]
        if not self.hosts or not self.sws:
            sys.exit("seqgen.py: %s: no switch or no CA port GUID besides "
                     "the SM's (an ibnetdiscover topology with "
                     "switchguid= and [1](port GUID) lines is needed)" % topo)
        self.node_of = {g: n for n, g in self.cas}
        self.allow_both = self.r.random() < 0.3
        self.plan = Plan()
        self.unlinked = set()
        self.flapped = None  # a CA unlinked for one step only
        self.swlinks = switch_links(self.text)
        self.cut = []  # switch links down for this step (a flap)
        self.keep = True

    def rand_memb(self):
        m = self.r.choice(MEMB)
        return m

    def member_pool(self):
        pool = [who(g) for g in self.hosts]
        pool += [who(s) for s in self.sws]
        pool += ["ALL_SWITCHES"]
        return pool

    def new_partition(self):
        free = [k for k in POOL if k not in self.plan.parts]
        if not free:
            return "nothing"
        k = self.r.choice(free)
        pool = self.member_pool()
        n = self.r.randint(1, min(4, len(pool)))
        mem = {}
        for w in self.r.sample(pool, n):
            mem[w] = self.rand_memb()
        self.plan.parts[k] = {"members": mem, "indx0": set(), "mgids": []}
        return "add 0x%04x" % k

    def mutate(self):
        """One change of the plan; returns what it did."""
        r = self.r
        ops = ["flip", "flip", "remove-member", "add-member", "add",
               "add", "remove", "indx0", "default", "switch-fill", "mix",
               "mgid"]
        op = r.choice(ops)
        parts = self.plan.parts
        if op == "flip" and parts:
            k = r.choice(sorted(parts))
            w = r.choice(sorted(parts[k]["members"]))
            old = parts[k]["members"][w]
            parts[k]["members"][w] = r.choice([m for m in MEMB if m != old])
            return "flip 0x%04x %s %s->%s" % (k, w, old,
                                             parts[k]["members"][w])
        if op == "remove-member" and parts:
            k = r.choice(sorted(parts))
            w = r.choice(sorted(parts[k]["members"]))
            del parts[k]["members"][w]
            parts[k]["indx0"].discard(w)
            if not parts[k]["members"]:
                del parts[k]
            return "remove %s from 0x%04x" % (w, k)
        if op == "add-member" and parts:
            k = r.choice(sorted(parts))
            w = r.choice(self.member_pool())
            parts[k]["members"][w] = self.rand_memb()
            return "add %s to 0x%04x" % (w, k)
        if op == "remove" and parts:
            k = r.choice(sorted(parts))
            del parts[k]
            return "remove 0x%04x" % k
        if op == "indx0" and parts:
            # indx0 moves: clear it everywhere, set it on one partition
            for v in parts.values():
                v["indx0"].clear()
            if r.random() < 0.8:
                k = r.choice(sorted(parts))
                ws = sorted(parts[k]["members"])
                sel = r.sample(ws, r.randint(1, len(ws)))
                parts[k]["indx0"].update(sel)
                return "indx0 -> 0x%04x (%d members)" % (k, len(sel))
            return "indx0 cleared"
        if op == "default":
            choices = [None,
                       [("ALL", "full")],
                       [("ALL", "limited"), ("SELF", "full")],
                       [("ALL_CAS", "full")],
                       [("ALL", "both")]]
            self.plan.default = r.choice(choices)
            return "default %s" % (self.plan.default,)
        if op == "mix" and parts:
            # one P_Key with full and limited members at once (with
            # keep_pkey_indexes FALSE every table is packed again)
            k = r.choice(sorted(parts))
            ws = r.sample(self.member_pool(), 2)
            parts[k]["members"][ws[0]] = "full"
            parts[k]["members"][ws[1]] = "limited"
            return "0x%04x: %s full, %s limited" % (k, ws[0], ws[1])
        if op == "mgid" and parts:
            # a multicast group item: written with another scope than the
            # one OpenSM creates (2) it can end up tracked by two
            # partitions, and OpenSM dies deleting the second
            k = r.choice(sorted(parts))
            g = "ff1%d::%d" % (r.choice([2, 5]), r.randint(1, 2))
            mg = parts[k].setdefault("mgids", [])
            if g in mg:
                mg.remove(g)
                return "0x%04x: mgid %s removed" % (k, g)
            mg.append(g)
            return "0x%04x: mgid %s" % (k, g)
        if op == "switch-fill":
            # the switch in many partitions: its port 0 holds 8
            for k in r.sample(POOL, r.randint(6, len(POOL))):
                v = parts.setdefault(k, {"members": {}, "indx0": set(),
                                     "mgids": []})
                v["members"]["ALL_SWITCHES"] = r.choice(MEMB)
                if len(v["members"]) == 1:
                    v["members"][who(r.choice(self.hosts))] = "full"
            return "switch port 0 filled"
        return self.new_partition()

    def step(self, i):
        r = self.r
        what = []
        console = []
        broken = False
        if i == 0:
            for _ in range(r.randint(2, 5)):
                what.append(self.new_partition())
        else:
            for _ in range(r.randint(1, 3)):
                what.append(self.mutate())
            x = r.random()
            if self.cut:
                # the switch links come back
                for a, p, b, q in self.cut:
                    console.append('ReLink "%s"[%d]' % (a, p))
                what.append("switch link(s) back")
                self.cut = []
                x = 1.0  # nothing else this step
            elif self.swlinks and x < 0.06:
                # a flap of the links between two switches: one of them
                # (the others carry the traffic) or all (what is behind
                # them leaves the fabric for a step)
                a, _, b, _ = r.choice(self.swlinks)
                pair = [l for l in self.swlinks if {l[0], l[2]} == {a, b}]
                self.cut = pair if r.random() < 0.5 else [r.choice(pair)]
                for la, lp, _, _ in self.cut:
                    console.append('Unlink "%s"[%d]' % (la, lp))
                what.append("%d link(s) %s-%s down (a flap)" %
                            (len(self.cut), a, b))
                x = 1.0
            if x >= 1.0:
                pass
            elif self.flapped is not None:
                # the flap's other half: the CA's link comes back
                g = self.flapped
                self.flapped = None
                self.unlinked.discard(g)
                console.append('ReLink "%s"' % self.node_of[g])
                what.append("link of %s back" % who(g))
            elif x < 0.08 and len(self.unlinked) < 2:
                # a flap: the CA's link goes down for one step
                g = r.choice([h for h in self.hosts
                              if h not in self.unlinked])
                self.unlinked.add(g)
                self.flapped = g
                console.append('Unlink "%s"' % self.node_of[g])
                what.append("link of %s down (a flap)" % who(g))
            elif x < 0.12 and len(self.unlinked) < 2:
                g = r.choice([h for h in self.hosts
                              if h not in self.unlinked])
                self.unlinked.add(g)
                console.append('Unlink "%s"' % self.node_of[g])
                what.append("unlink %s" % who(g))
            elif x < 0.30 and self.unlinked - {self.flapped}:
                g = r.choice(sorted(self.unlinked - {self.flapped}))
                self.unlinked.discard(g)
                console.append('ReLink "%s"' % self.node_of[g])
                what.append("relink %s" % who(g))
            elif x < 0.36:
                broken = True
                what.append("broken line (OpenSM rejects the file)")
            elif x < 0.42:
                self.keep = not self.keep
                what.append("keep_pkey_indexes %s" %
                            ("TRUE" if self.keep else "FALSE"))
        conf = self.plan.text(broken)
        topo = topo_without_links(
            topo_without(self.text, [self.node_of[g] for g in self.unlinked]),
            self.cut)
        osmconf = "" if self.keep else "keep_pkey_indexes FALSE\n"
        return conf, topo, console, osmconf, "; ".join(what)


def write_seq(outdir, name, args, steps):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seq.args"), "w") as f:
        f.write(args + "\n")
    for i, step in enumerate(steps):
        conf, topo, console, osmconf, what = step[:5]
        base = os.path.join(d, "%02d" % i)
        if len(step) > 5 and step[5]:
            open(base + ".restart", "w").close()
        if len(step) > 6 and step[6]:
            open(base + ".crash", "w").close()
        for ext, body in ((".conf", conf), (".topo", topo),
                          (".console", "".join(c + "\n" for c in console)),
                          (".osmconf", osmconf), (".what", what + "\n")):
            with open(base + ext, "w") as f:
                f.write(body)


def random_sequences(topo, outdir, seed, count, nsteps):
    for s in range(seed, seed + count):
        g = Gen(topo, s)
        steps = [g.step(i) for i in range(nsteps)]
        write_seq(outdir, "seed-%d" % s, "-W" if g.allow_both else "",
                  steps)


def cases(topo, outdir):
    """The fixed sequences of issue 10, on the seed fabric."""
    text, cas, sws = read_topo(topo)
    g = [gg for _, gg in cas]
    node = {gg: n for n, gg in cas}
    a = who(g[2])
    sw = who(sws[0])
    full_text = text

    def st(conf, what, console=(), unlinked=(), osmconf="", restart=False,
           crash=False):
        return ("# issue 10\n" + conf, topo_without(full_text, unlinked),
                list(console), osmconf, what, restart, crash)

    # 1. several P_Keys remembered at one index
    write_seq(outdir, "case1-accumulated", "", [
        st("A=0x0001 : %s=full ;\n" % a, "a full member of A"),
        st("A=0x0001 : %s=limited ;\n" % a, "a flips to limited"),
        st("B=0x0002 : %s=full ;\n" % who(g[3]), "A removed"),
        st("A=0x0001 : %s=limited ;\n" % a, "A back, a limited"),
    ])
    # indx0 moving to another key
    write_seq(outdir, "case1-indx0-moves", "", [
        st("A=0x0001, indx0 : %s=full ;\nB=0x0002 : %s=full ;\n" % (a, a),
           "indx0 on A"),
        st("A=0x0001 : %s=full ;\nB=0x0002, indx0 : %s=full ;\n" % (a, a),
           "indx0 moves to B"),
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\n" % (a, a),
           "no indx0"),
        st("A=0x0001, indx0 : %s=full ;\nB=0x0002 : %s=full ;\n" % (a, a),
           "indx0 back on A"),
    ])
    # the default partition flipping full/limited
    write_seq(outdir, "case1-default-flips", "", [
        st("Default=0x7fff : ALL=full ;\nA=0x0001 : %s=full ;\n" % a,
           "default full"),
        st("Default=0x7fff : ALL=limited ;\nA=0x0001 : %s=full ;\n" % a,
           "default limited"),
        st("Default=0x7fff : ALL=full ;\nA=0x0001 : %s=limited ;\n" % a,
           "default full again, a limited in A"),
    ])
    write_seq(outdir, "case1-default-flips-W", "-W", [
        st("Default=0x7fff : ALL=full ;\nA=0x0001 : %s=full ;\n" % a,
           "default full"),
        st("Default=0x7fff : ALL=limited ;\nA=0x0001 : %s=both ;\n" % a,
           "default limited, a both"),
        st("Default=0x7fff : ALL=both ;\nA=0x0001 : %s=limited ;\n" % a,
           "default both, a limited"),
        st("Default=0x7fff : ALL=full ;\nA=0x0001 : %s=full ;\n" % a,
           "back"),
    ])
    # indx0 moving onto a P_Key remembered at an index it shares: OpenSM
    # forgets only one of them, so last_pkey_idx stays
    write_seq(outdir, "case1-indx0-shared", "", [
        st("A=0x0001 : %s=full ;\n" % a, "a full in A: 0x7fff 0x8001"),
        st("A=0x0001 : %s=limited ;\n" % a,
           "a limited: 0x8001 and 0x0001 remembered at 1"),
        st("A=0x0001, indx0 : %s=limited ;\n" % a,
           "indx0 on A: 0x0001 0x0000 0x7fff"),
    ])
    # a switch port 0 whose 8 entries are full: OpenSM reuses an index,
    # forgets one of the two P_Keys remembered there, and when the other
    # comes back it overwrites the P_Key placed at the reused index
    def sw_plan(keys, limited=()):
        return "".join("P%d=0x%04x : %s=%s ;\n" %
                       (k, k, sw, "limited" if k in limited else "full")
                       for k in keys)
    write_seq(outdir, "case1-switch-port0-full", "", [
        st(sw_plan(range(1, 8)), "switch in 7 partitions (+0x7fff: 8, full)"),
        st(sw_plan(range(1, 8), (2,)), "P2 limited: 0x8002, 0x0002 at 2"),
        st(sw_plan([1, 3, 4, 5, 6, 7, 8]),
           "P2 removed, P8 new: index 2 reused, 0x0002 forgotten"),
        st(sw_plan(range(1, 9)),
           "P2 back full: 0x8002 remembered at 2 overwrites 0x8008"),
        st(sw_plan(range(1, 9)),
           "the same plan again: 0x8008 overwrites 0x8002 (no rest)"),
        st(sw_plan(range(1, 9)), "and again: 0x8002 at 2"),
        st(sw_plan([1, 3, 4, 5, 6, 7, 8]), "P2 removed"),
    ])
    # 2. a port that disappears for a sweep and comes back
    b = g[4]
    write_seq(outdir, "case2-unlink-link", "", [
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\n" % (who(b), who(b)),
           "b in A and B"),
        st("B=0x0002 : %s=full ;\n" % who(b), "A removed: b 0x7fff 0 0x8002"),
        st("B=0x0002 : %s=full ;\nC=0x0003 : %s=full ;\n" % (who(b),
                                                            who(b)),
           "b unlinked", console=['Unlink "%s"' % node[b]],
           unlinked=[node[b]]),
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\n" % (who(b), who(b)),
           "b linked again: OpenSM forgot it",
           console=['ReLink "%s"' % node[b]]),
    ])
    # a fresh OpenSM on a fabric that holds tables (a restart, or the
    # state `apply --state` saves): it remembers nothing
    write_seq(outdir, "case2-restart", "", [
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\nC=0x0003 : %s=full ;\n"
           % (a, a, a), "a in A, B, C"),
        st("C=0x0003 : %s=full ;\n" % a, "A, B removed: holes"),
        st("A=0x0001 : %s=full ;\nC=0x0003 : %s=full ;\nD=0x0004 : %s=full ;\n"
           % (a, a, a), "OpenSM restarted: A back, D new", restart=True),
    ])
    # 3. keep_pkey_indexes FALSE
    write_seq(outdir, "case3-keep-false", "", [
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\nC=0x0003 : %s=full ;\n"
           % (a, a, a), "a in A, B, C"),
        st("C=0x0003 : %s=full ;\n" % a, "A, B removed (holes)"),
        st("C=0x0003 : %s=full ;\nD=0x0004 : %s=full ;\n" % (a, a),
           "keep_pkey_indexes FALSE: packed",
           osmconf="keep_pkey_indexes FALSE\n"),
        st("A=0x0001 : %s=full ;\nC=0x0003 : %s=full ;\n" % (a, a),
           "keep_pkey_indexes TRUE again",
           osmconf="keep_pkey_indexes TRUE\n"),
    ])
    # opensm.conf: allow_both_pkeys read at start only, a boolean TRUE
    # only when exactly "TRUE", keep_pkey_indexes re-read on SIGHUP
    b2 = who(g[3])
    write_seq(outdir, "case3-opensm-conf", "", [
        st("A=0x0001 : %s=both ;\nB=0x0002 : %s=full ;\n" % (a, b2),
           "allow_both_pkeys TRUE at start: a both",
           osmconf="allow_both_pkeys TRUE\n"),
        st("A=0x0001 : %s=both, %s=both ;\n" % (a, b2),
           "allow_both_pkeys FALSE on SIGHUP: still both",
           osmconf="allow_both_pkeys FALSE\n"),
        st("A=0x0001 : %s=both ;\nC=0x0003 : %s=full ;\n" % (a, b2),
           "keep_pkey_indexes true (not TRUE: FALSE): packed",
           osmconf="allow_both_pkeys FALSE\nkeep_pkey_indexes true\n"),
        st("A=0x0001 : %s=both ;\nB=0x0002 : %s=full ;\n" % (a, b2),
           "keep_pkey_indexes line removed: stays FALSE",
           osmconf="# nothing\n"),
    ])
    # 5. no_partition_enforcement TRUE, then FALSE by SIGHUP: OpenSM's
    # check of its options wrote "off" into the part_enforce string, so
    # enforcement stays off until a part_enforce line says otherwise
    write_seq(outdir, "case5-enforce-off-sticks", "", [
        st("A=0x0001 : %s=full ;\n" % a, "no_partition_enforcement TRUE",
           osmconf="no_partition_enforcement TRUE\n"),
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\n" % (a, a),
           "no_partition_enforcement FALSE: still off",
           osmconf="no_partition_enforcement FALSE\n"),
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=full ;\n" % (a, a),
           "part_enforce off: the same value, still off",
           osmconf="no_partition_enforcement FALSE\npart_enforce off\n"),
        st("A=0x0001 : %s=full ;\nB=0x0002 : %s=limited ;\n" % (a, a),
           "part_enforce both: mirrored again",
           osmconf="part_enforce both\n"),
        st("A=0x0001 : %s=full ;\n" % a, "the line removed: still both",
           osmconf="# nothing\n"),
    ])
    # 6. partitions outlive their statements: OpenSM keeps its partition
    # objects across SIGHUPs, empties them, reads the file, and only then
    # deletes those still empty
    c = who(g[5])
    write_seq(outdir, "case6-partitions-outlive", "", [
        st("Default=0x1234 : %s=full ;\n" % a,
           "a partition named Default with P_Key 0x1234"),
        st("Default : ALL_CAS=full ;\n",
           "'Default :' finds the stale 0x1234 first: every CA 0x9234"),
        st("B=0x0080 : %s=full ;\n" % b2, "0x0080 created as B"),
        st("Default=0x0080 : %s=full ;\nDefault : ALL_CAS=full ;\n"
           "X=0x0001 : %s=full ;\n" % (c, a),
           "0x0080 keeps the name B: 'Default :' is 0x7fff"),
        st("N : %s=full ;\n" % b2,
           "N generated: 0x0001 still held (X), so 0x0002"),
        st("N : %s=full ;\n" % c,
           "N found by name from the previous plan: 0x0002"),
    ])
    # 7. two partitions tracking one multicast group: deleting the first
    # frees it, deleting the second reads it and OpenSM dies
    write_seq(outdir, "case7-opensm-crash", "", [
        st("S=0x11da : %s=limited, mgid=ff15::1, rate=3 ;\n" % a,
           "S (0x11da) creates ff12::1 (no scope: link-local)"),
        st("S=0x0010 : %s=limited, mgid=ff15::1, rate=3 ;\n" % a,
           "0x0010 tracks ff12::1 too; 0x11da deleted frees it"),
        st("U=0x0020 : %s ;\n" % a,
           "0x0010 deleted: freed group read, OpenSM dies", crash=True),
        st("U=0x0020 : %s ;\n" % a, "a new OpenSM on the held tables"),
    ])
    # the same with the MGID written as OpenSM creates it (scope 2): the
    # second partition finds the group as written and does not track it
    write_seq(outdir, "case7-no-crash-scoped", "", [
        st("S=0x11da : %s=limited, mgid=ff12::1, rate=3 ;\n" % a,
           "S (0x11da) creates ff12::1"),
        st("S=0x0010 : %s=limited, mgid=ff12::1, rate=3 ;\n" % a,
           "ff12::1 exists as written: 0x0010 does not track it"),
        st("U=0x0020 : %s ;\n" % a, "0x0010 deleted: OpenSM survives"),
    ])
    # 8. a CA's link flaps
    na = node[g[2]]
    write_seq(outdir, "case8-flap-ca", "", [
        st("P10=0x0010 : %s=full ;\nP20=0x0020 : %s=full ;\n" % (a, a),
           "a in 0x0010 and 0x0020"),
        st("P20=0x0020 : %s=full ;\n" % a, "0x0010 removed: a hole"),
        st("P10=0x0010 : %s=full ;\nP20=0x0020 : %s=full ;\n" % (a, a),
           "a unlinked, 0x0010 back", console=['Unlink "%s"' % na],
           unlinked=[na]),
        st("P10=0x0010 : %s=full ;\nP20=0x0020 : %s=full ;\n" % (a, a),
           "a linked again", console=['ReLink "%s"' % na]),
    ])
    # 4. a rejected file's indx0
    write_seq(outdir, "case4-rejected-indx0", "", [
        st("A=0x0010, indx0 : %s=full ;\nthis line is broken\n" % a,
           "indx0 read, then the file is rejected"),
        st("A=0x0010 : %s=full ;\n" % a, "the file fixed"),
    ])


def main(argv):
    if len(argv) == 4 and argv[3] == "--cases":
        cases(argv[1], argv[2])
        return 0
    if len(argv) != 6:
        sys.stderr.write(__doc__)
        return 2
    random_sequences(argv[1], argv[2], int(argv[3]), int(argv[4]),
                     int(argv[5]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
