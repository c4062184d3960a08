#!/usr/bin/env bash
# subnet_limits.sh - the subnet's limits, everywhere: a generated fabric
# that needs more LIDs than the unicast space (0x0001-0xBFFF) is refused
# with the reason (exit 2, no file) unless --force; on it, tables, matrix
# and audit say `no-lid` (count, first ports, the cause) and exit 1, the
# ports without a LID still get a table (OpenSM programs them by directed
# route) but are no "(no partition)" class and no `no-sa-path`; --lft-cap bounds the LIDs below the space; the audit
# weighs the plan's multicast groups against --mft-cap (ERR 1B19); and the
# 40,000-CA three-tier fat tree fits and its matrix JSON is megabytes (the
# class form), not the gigabytes of a cell per pair of ports.
source "$(dirname "$0")/lib.sh"

# 48,000 CAs of radix 64: 4,028 switches, 52,028 LIDs > 49,151
expect_status 2 "$IBPART" gen --cas 48000 --radix 64 --partitions 40 -o big.topo --conf big.conf
expect_grep "need 52028 LIDs (LMC 0) but the subnet has LIDs 1..49151" err
expect_grep "2877 end ports would get no LID" err
expect_grep "or --force to write it anyway" err
[[ ! -e big.topo && ! -e big.conf ]] || fail "gen wrote files it refused"
expect_status 0 "$IBPART" gen --cas 48000 --radix 64 --partitions 40 --force -o big.topo --conf big.conf
expect_grep "3 tiers, 52028 LIDs of 49151" err
expect_grep "warning: --force" err

# tables: the finding once, exit 1; the first port without a LID has its
# table in the JSON all the same
expect_status 1 "$IBPART" tables -t big.topo --format json big.conf
[[ $(grep -c '\[no-lid\]' err) -eq 1 ]] || fail "tables: no-lid not reported once"
expect_grep "warning: 2877 end port(s) get no LID: the 52028 end ports discovery reaches need 52028 LIDs" err
expect_grep "the unicast LID space, 0x0001-0xBFFF" err
first=$(sed -n 's/.*first without: \([^,]*\),.*/\1/p' err)
[[ -n $first ]] || fail "tables: no first port named"
grep -q "\"$first\"" out || fail "tables: $first (no LID) has no table"
python3 - out <<'PY' || fail "tables JSON: not all 52028 end ports"
import json, sys
d = json.load(open(sys.argv[1]))
ports = d["ports"]
n = sum(1 for p in ports if p["node_type"] != "SW" or p["port"] == 0)
sys.exit(0 if n == 52028 else 1)
PY

# matrix: the warning, exit 1, and no "(no partition)" class
expect_status 1 "$IBPART" matrix -t big.topo big.conf
expect_grep "^ibpart matrix: warning: 2877 end port(s) get no LID" err
expect_no_grep "(no partition)" out
# audit: no-lid (high) with the cause and the fix, not no-sa-path
expect_status 1 "$IBPART" audit -t big.topo big.conf
expect_grep "^high     no-lid: 2877 end port(s) get no LID" out
expect_grep "(2877 in all)" out
expect_grep "split the fabric into subnets" out
expect_no_grep "no-sa-path" out
"$IBPART" audit -t big.topo --format json big.conf >a.json 2>/dev/null || true
python3 - a.json <<'PY' || fail "audit JSON: no-lid without its 2877 ports"
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["code"] == "no-lid"]
sys.exit(0 if len(f) == 1 and len(f[0]["ports"]) == 2877 and f[0]["severity"] == "high" else 1)
PY

# --lft-cap: ibsim's switches forward LIDs up to 30719 only
expect_status 0 "$IBPART" gen --cas 1000 --partitions 10 -o s.topo --conf s.conf
expect_status 0 "$IBPART" tables -t s.topo s.conf
expect_status 1 "$IBPART" tables -t s.topo --lft-cap 500 s.conf
expect_grep "get no LID: the 1164 end ports discovery reaches need 1164 LIDs (1 each, LMC 0) and the subnet has LIDs 1..499 (the smallest LinearFDBCap is 500" err
expect_status 1 "$IBPART" audit -t s.topo --lft-cap 500 s.conf
expect_grep "^high     no-lid: 665 end port(s)" out
expect_grep "LinearFDBCap covers every LID" out
# LMC 1: two LIDs a port, 1164 ports need 2328; bases 2..1998 hold 999
expect_status 1 "$IBPART" matrix -t s.topo --lft-cap 2000 --lmc 1 s.conf
expect_grep "warning: 165 end port(s) get no LID: the 1164 end ports discovery reaches need 2328 LIDs (2 each, LMC 1)" err
expect_status 2 "$IBPART" tables -t s.topo --lmc 8 s.conf
expect_status 2 "$IBPART" gen --cas 1000 --lft-cap 500 -o t.topo
expect_grep "LIDs 1..499 (the switches' LinearFDBCap)" err

# multicast: 11 IPoIB partitions (Default and 10 tenants) need 11 MLIDs
expect_status 0 "$IBPART" audit -t s.topo s.conf
expect_grep "^info     multicast-groups: The plan needs at least 11 multicast group(s)" out
expect_status 1 "$IBPART" audit -t s.topo --mft-cap 8 s.conf
expect_grep "^high     multicast-groups: The plan needs at least 11 multicast groups" out
expect_grep "MulticastFDBCap is 8 (switch leaf-0001): OpenSM cannot give the last 3 an MLID (ERR 1B19)" out

# the 40,000-CA fat tree of radix 64: three tiers, within the LIDs; its
# matrix JSON takes the class form (auto, > 2,000 ports) and is
# megabytes: 40,000 endpoints with their class, 42 classes, a 42 x 42
# class matrix as hex rows
expect_status 0 "$IBPART" gen --cas 40000 --radix 64 --partitions 40 --storage 1 -o k.topo --conf k.conf
expect_grep "1250 leaf + 1280 spine + 1024 core switches (radix 64, 3 tiers, 43554 LIDs of 49151)" err
expect_status 0 "$IBPART" matrix -t k.topo --format json -o k.json k.conf
size=$(stat -c %s k.json)
[[ $size -lt 8000000 ]] || fail "matrix JSON is $size bytes"
python3 - k.json <<'PY' || fail "class-form JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["form"] == "classes", d["form"]
eps, cls, ct = d["endpoints"], d["classes"], d["can_talk"]
assert len(eps) == 40000
assert sum(c["size"] for c in cls) == 40000
assert all(eps[p]["class"] == c["class"] for c in cls for p in c["ports"])
assert len(ct) == len(cls) and all(len(r) == (len(cls) + 3) // 4 for r in ct)
bit = lambda a, b: (int(ct[a][b // 4], 16) >> (3 - b % 4)) & 1
cof = lambda name: eps[[i for i, e in enumerate(eps) if e["node_desc"] == name][0]]["class"]
t1, t2, st, mg = cof("t0001-node-0001"), cof("t0002-node-0001"), cof("storage-0001"), cof("mgmt-0001")
assert bit(t1, t1) and not bit(t1, t2) and bit(t1, st) and bit(st, t2) and bit(t1, mg)
assert all(bit(a, b) == bit(b, a) for a in range(len(cls)) for b in range(len(cls)))
PY
# the port form on request keeps today's schema, with "form"
expect_status 0 "$IBPART" gen --cas 100 --partitions 4 -o p.topo --conf p.conf
expect_status 0 "$IBPART" matrix -t p.topo --format json p.conf
expect_grep '^ "form": "ports",' out
expect_status 0 "$IBPART" matrix -t p.topo --format json --form classes p.conf
expect_grep '^ "form": "classes",' out
expect_status 0 "$IBPART" matrix -t p.topo --format csv --form classes p.conf
expect_grep "^class,size,pkeys,port_guids,0,1" out
expect_status 2 "$IBPART" matrix -t p.topo --form cells p.conf
finish
