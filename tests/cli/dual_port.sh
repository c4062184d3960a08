#!/usr/bin/env bash
# dual_port.sh - a CA with two linked ports (live-2sw.topo's "dual-host",
# port GUIDs 0x...0501 and 0x...0502 by ibsim's rule) is two end ports:
# shown as dual-host/1 and dual-host/2 (the JSON keeps node_desc), named
# that way by --explain, sim SRC/DST, --sm-port, tenant maps and the
# seed dialect; the bare name is an error listing the choices (exit 2).
# Single-port nodes keep their plain names.
source "$(dirname "$0")/lib.sh"
TOPO="$IBP_SRC/tests/interop/data/live-2sw.topo"
# dual-host port 1 in T1 with node-a; port 2 in T2 with node-b
cat >p.conf <<'EOF'
Default=0x7fff : ALL=limited, 0x0002c90000000101=full ;
T1=0x0001 : 0x0002c90000000501=full, 0x0002c90000000201=full ;
T2=0x0002 : 0x0002c90000000502=full, 0x0002c90000000301=full ;
EOF
AMBIG="'dual-host' has 2 ports: dual-host/1, dual-host/2"

# matrix text: two rows, two columns, each named by its port
expect_status 0 "$IBPART" matrix -t "$TOPO" p.conf
expect_grep "^ *sm-host  node-a  node-b  node-c  dual-host/1  dual-host/2  node-d$" out
[[ $(grep -c '^dual-host/[12] ' out) -eq 2 ]] || fail "text: two dual-host rows expected: $(cat out)"
# row dual-host/1: reaches sm-host (full in Default) and node-a (T1) only
row=$(grep '^dual-host/1 ' out | tr -s ' ' || true)
[[ $row == "dual-host/1 ✓ ✓ ✗ ✗ — ✗ ✗" ]] || fail "text row dual-host/1: '$row'"
row=$(grep '^dual-host/2 ' out | tr -s ' ' || true)
[[ $row == "dual-host/2 ✓ ✗ ✓ ✗ ✗ — ✗" ]] || fail "text row dual-host/2: '$row'"
expect_no_grep "^dual-host " out
expect_status 0 "$IBPART" matrix -t "$TOPO" --format md p.conf
expect_grep "^| dual-host/2 | ✓ | ✗ | ✓ | ✗ | ✗ | — | ✗ |$" out
expect_status 0 "$IBPART" matrix -t "$TOPO" --format csv p.conf
expect_grep "^0x0002c90000000502,dual-host/2," out
expect_status 0 "$IBPART" matrix -t "$TOPO" --format html p.conf
expect_grep '<th class=row>dual-host/1<td' out
# JSON: node_desc is the node description, as before
expect_status 0 "$IBPART" matrix -t "$TOPO" --format json p.conf
[[ $(jq -r '[.endpoints[] | select(.node_desc == "dual-host") | .port_guid] | join(" ")' out) == \
   "0x0002c90000000501 0x0002c90000000502" ]] || fail "json node_desc: $(jq -c .endpoints out)"

# --explain: the bare name is ambiguous, name/N picks the port
expect_status 2 "$IBPART" matrix -t "$TOPO" --explain dual-host node-a p.conf
expect_grep "$AMBIG" err
expect_status 0 "$IBPART" matrix -t "$TOPO" --explain dual-host/2 node-a p.conf
expect_grep "^dual-host/2 -> node-a: CANNOT TALK$" out
expect_grep "dual-host/2 (port GUID 0x0002c90000000502, port 2)" out
expect_status 0 "$IBPART" matrix -t "$TOPO" --explain dual-host/1 node-a p.conf
expect_grep "^dual-host/1 -> node-a: CAN TALK$" out
expect_status 2 "$IBPART" matrix -t "$TOPO" --explain dual-host/3 node-a p.conf
expect_grep "'dual-host' has no port 3" err
# single-port nodes: plain names, unchanged
expect_status 0 "$IBPART" matrix -t "$TOPO" --explain node-b node-a p.conf
expect_grep "^node-b -> node-a: CANNOT TALK$" out

# --sm-port and the simulator's SRC/DST
expect_status 2 "$IBPART" tables -t "$TOPO" --sm-port dual-host p.conf
expect_grep "$AMBIG" err
expect_status 2 "$IBPART" matrix -t "$TOPO" --sm-port dual-host p.conf
expect_grep "$AMBIG" err
expect_status 2 "$IBPART" sim -q -t "$TOPO" -c p.conf pingpong dual-host node-b -n 1
expect_grep "$AMBIG" err
expect_status 0 "$IBPART" sim -q -t "$TOPO" -c p.conf pingpong dual-host/2 node-b -n 1 --pkey-index 1
expect_grep "^pingpong dual-host/2 -> node-b " out
expect_status 0 "$IBPART" sim -q -t "$TOPO" -c p.conf probe-matrix
expect_grep "^| dual-host/1 | ✓ | ✓ | ✗ | ✗ | — | ✗ | ✗ |$" out

# tenant maps and the seed dialect ask for ports by name too
printf 'red: node-a dual-host\n' >t.map
expect_status 2 "$IBPART" audit -t "$TOPO" --tenants t.map p.conf
expect_grep "t.map:1:13: error: $AMBIG" err
printf 'red: node-a dual-host/1\nblue: node-b dual-host/2\n' >t.map
expect_status 0 "$IBPART" audit -t "$TOPO" --tenants t.map --fail-on critical p.conf
expect_no_grep "cross-tenant-reach" out
cat >s.conf <<'EOF'
PartitionConfig {
mgmt = ipoib ;
sm-host = full ;
T1 = ipoib ;
dual-host = full ;
node-a = full ;
}
EOF
expect_status 2 "$IBPART" check -t "$TOPO" s.conf
expect_grep "s.conf:5:1: error: $AMBIG; write NAME/PORT or the port GUID \[ambiguous-name\]" err
sed -i 's|^dual-host = full|dual-host/2 = full|' s.conf
expect_status 0 "$IBPART" convert -t "$TOPO" s.conf
expect_grep "0x0002c90000000502=full" out
finish
