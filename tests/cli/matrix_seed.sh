#!/usr/bin/env bash
# ibpart matrix on the seed fabric: in strict mode, the seed document's
# connectivity table cell by cell (transcribed below from the seed, not
# from our output) in json, text, md and csv; in opensm mode what OpenSM
# 3.3.23's observed tables give (SM and UFM full in 0xffff reach
# everyone; tenants only limited there); --explain; --tables; -o.
source "$(dirname "$0")/lib.sh"
S="$IBP_SRC/examples/seed"

# The seed's table: rows/columns SM, UFM, A-01, A-02, B-01, B-02, storage.
seed=(
  "- 1 0 0 0 0 0"
  "1 - 0 0 0 0 0"
  "0 0 - 1 0 0 1"
  "0 0 1 - 0 0 1"
  "0 0 0 0 - 1 1"
  "0 0 0 0 1 - 1"
  "0 0 1 1 1 1 -"
)
names=(sm-01 ufm-server tenantA-node-01 tenantA-node-02 tenantB-node-01 tenantB-node-02 storage-node)

expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --format json "$S/partitions.conf"
cp out strict.json
jq -e '.mode == "strict" and (keys_unsorted == ["mode","form","endpoints","can_talk"]) and .form == "ports"' strict.json >/dev/null || fail "json keys/mode"
for i in "${!seed[@]}"; do
  [[ $(jq -r ".endpoints[$i].node_desc" strict.json) == "${names[$i]}" ]] || fail "endpoint $i is not ${names[$i]}"
  row=$(jq -r ".can_talk[$i] | map(if . == null then \"-\" elif . then \"1\" else \"0\" end) | join(\" \")" strict.json)
  [[ $row == "${seed[$i]}" ]] || fail "strict row ${names[$i]}: got '$row', seed says '${seed[$i]}'"
done
[[ $(jq -r '.endpoints[6].port_guid' strict.json) == 0x506b4b0300a1b210 ]] || fail "storage port GUID"

# text: the seed's layout, the same cells as ✓ ✗ —
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict "$S/partitions.conf"
for i in "${!seed[@]}"; do
  want="${names[$i]} $(echo "${seed[$i]}" | sed 's/-/—/g; s/1/✓/g; s/0/✗/g')"
  got=$(grep "^${names[$i]} " out | tr -s ' ')
  [[ $got == "$want" ]] || fail "text row: got '$got', want '$want'"
done
expect_grep "7 of 21 pairs can talk" out

# md: the seed's pipe table
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --format md "$S/partitions.conf"
expect_grep "^| storage-node | ✗ | ✗ | ✓ | ✓ | ✓ | ✓ | — |$" out
expect_grep "^| sm-01 | — | ✓ | ✗ | ✗ | ✗ | ✗ | ✗ |$" out

# csv: 1/0, empty diagonal
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --format csv "$S/partitions.conf"
[[ $(tr -d '\r' <out | sed -n 8p) == "0x506b4b0300a1b210,storage-node,0,0,1,1,1,1," ]] || fail "csv storage row: $(sed -n 8p out)"

# opensm mode: OpenSM's tables (reference doc): SM/UFM 0xffff, tenants
# 0x7fff + own, storage 0x7fff 0x0001 0x0002
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --format json "$S/partitions.conf"
osm=(
  "- 1 1 1 1 1 1"
  "1 - 1 1 1 1 1"
  "1 1 - 1 0 0 1"
  "1 1 1 - 0 0 1"
  "1 1 0 0 - 1 1"
  "1 1 0 0 1 - 1"
  "1 1 1 1 1 1 -"
)
for i in "${!osm[@]}"; do
  row=$(jq -r ".can_talk[$i] | map(if . == null then \"-\" elif . then \"1\" else \"0\" end) | join(\" \")" out)
  [[ $row == "${osm[$i]}" ]] || fail "opensm row ${names[$i]}: got '$row', want '${osm[$i]}'"
done
jq -e '.mode == "opensm"' out >/dev/null || fail "mode opensm"

# --explain: both tables, the shared partitions and the deciding rule
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --explain tenantA-node-01 tenantB-node-01 "$S/partitions.conf"
expect_grep "CANNOT TALK" out
expect_grep "base 0x7fff: .*0x7fff (limited) vs .*0x7fff (limited): no match" out
expect_grep "limited-limited never matches" out
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --explain 0x506b4b0300a1b210 tenantB-node-02 "$S/partitions.conf"
expect_grep "CAN TALK" out
expect_grep "base 0x0002: storage-node Pkey\[2\] 0x0002 (limited) vs tenantB-node-02 Pkey\[1\] 0x8002 (full): match" out
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --explain sm-01 storage-node "$S/partitions.conf"
expect_grep "no valid P_Key base is in both tables" out
expect_status 2 "$IBPART" matrix -t "$S/seed.topo" --explain leaf-01 sm-01 "$S/partitions.conf"
expect_grep "^ibpart: error: leaf-01 is not an end port of the matrix (a CA port; --switch-ports adds switch port 0)" err
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --switch-ports --explain leaf-01 sm-01 "$S/partitions.conf"
expect_grep "CAN TALK" out
expect_status 2 "$IBPART" matrix -t "$S/seed.topo" --explain nosuch sm-01 "$S/partitions.conf"

# --tables: the matrix from tables read elsewhere (strict tables here)
cat >t.json <<'JSON'
{"mode": "strict", "sm_port_guid": "0x506b4b0300a1b300", "ports": [
 {"node_guid": "0x506b4b0300a1b2ff", "port": 1, "pkeys": ["0xffff"]},
 {"node_guid": "0x506b4b0300a1b300", "port": 1, "pkeys": ["0xffff"]},
 {"node_guid": "0x506b4b0300a1b1ff", "port": 1, "pkeys": ["0x8001"]},
 {"node_guid": "0x506b4b0300a1b200", "port": 1, "pkeys": ["0x8001"]},
 {"node_guid": "0x506b4b0300a1b201", "port": 1, "pkeys": ["0x8002"]},
 {"node_guid": "0x506b4b0300a1b202", "port": 1, "pkeys": ["0x8002"]},
 {"node_guid": "0x506b4b0300a1b20f", "port": 1, "pkeys": ["0x0000", "0x0001", "0x0002"]},
 {"node_guid": "0x506b4b0300a1b100", "port": 0, "node_type": "SW", "pkeys": ["0x7fff"]}]}
JSON
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --format json --tables t.json
cmp -s out strict.json || fail "--tables strict tables differ from --mode strict: $(diff out strict.json | head)"
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --format json --switch-ports --tables t.json
[[ $(jq '.endpoints | length' out) == 8 ]] || fail "--switch-ports adds the switch's port 0"

# -o writes atomically; usage errors
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --format md -o m.md "$S/partitions.conf"
[[ ! -s out ]] || fail "stdout not empty with -o"
grep -q "| storage-node |" m.md || fail "m.md"
[[ $(ls | grep -c 'm.md.tmp') == 0 ]] || fail "temp file left"
expect_status 2 "$IBPART" matrix -t "$S/seed.topo" --format pdf "$S/partitions.conf"
expect_status 2 "$IBPART" matrix "$S/partitions.conf"
expect_status 2 "$IBPART" matrix -t "$S/seed.topo" --sm-port nosuch "$S/partitions.conf"
expect_status 0 "$IBPART" matrix --help
expect_grep "usage: ibpart matrix" out
# --explain honours --format json: the same facts as the text
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --explain tenantA-node-01 storage-node \
	--format json "$S/seed-block.conf"
jq -e '.can_talk == true and .rule == "full-limited" and .src.node_desc == "tenantA-node-01"
	and .dst.node_desc == "storage-node" and (.src.pkeys | index("0x8001")) != null
	and ([.shared[] | select(.base == "0x0001" and .src_pkey == "0x8001" and .dst_pkey == "0x0001" and .match)] | length) == 1' \
	out >/dev/null || fail "explain json: $(cat out)"
expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --explain tenantA-node-01 tenantB-node-01 \
	--format json "$S/seed-block.conf"
# (opensm mode: both are limited members of 0x7fff, which never matches)
jq -e '.can_talk == false and .rule == "limited-limited" and (.shared | length) == 1
	and .shared[0].base == "0x7fff" and .shared[0].match == false' out >/dev/null ||
	fail "explain json across tenants: $(cat out)"
finish
