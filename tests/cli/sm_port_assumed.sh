#!/usr/bin/env bash
# The SM port is never guessed silently.  Without --sm-port, a topology
# that names the port that ran the discovery ("# Initiated from node N
# port P", as ibnetdiscover and ibpart discover write it) gives that
# port, else the first CA port; either way the audit says it assumed one
# (sm-port-assumed, info), and --sm-port makes the finding go.
source "$(dirname "$0")/lib.sh"
ex="$IBP_SRC/examples/seed"
storage=0x506b4b0300a1b210 # storage-node's port GUID (caguid + 1)
{ echo "# Initiated from node 506b4b0300a1b20f port 506b4b0300a1b210"; cat "$ex/seed.topo"; } >init.topo

# the storage node ran the discovery: it is the SM, a full member of the
# default partition
expect_status 0 "$IBPART" tables -t init.topo --format json "$ex/partitions.conf"
k=$(jq -r --arg g "$storage" '.ports[] | select(.port_guid == $g) | .pkeys[0]' out)
[[ $k == 0xffff ]] || fail "the initiator port holds '$k' at index 0, want 0xffff"
# tables says which port it assumed, and why
expect_grep "note: SM port not given: assumed $storage (storage-node), the port the topology says ran the discovery ('# Initiated from'); give --sm-port" err
expect_status 0 "$IBPART" tables -t "$ex/seed.topo" "$ex/partitions.conf"
expect_grep "note: SM port not given: assumed 0x506b4b0300a1b300 (sm-01), the first CA port of the topology" err
expect_status 0 "$IBPART" tables -t init.topo --sm-port sm-01 "$ex/partitions.conf"
expect_no_grep "sm-port-default" err

set +e
"$IBPART" audit -t init.topo --format json "$ex/partitions.conf" >out 2>err
set -e
jq -e --arg g "$storage" '.findings[] | select(.code == "sm-port-assumed") |
  select(.ports[0] == $g) | select(.message | test("ran the discovery"))' out >/dev/null ||
  fail "no sm-port-assumed finding naming the initiator: $(jq -c '.findings[] | .code' out)"

# without the line: the first CA port, said so
set +e
"$IBPART" audit -t "$ex/seed.topo" --format json "$ex/partitions.conf" >out 2>err
set -e
jq -e '.findings[] | select(.code == "sm-port-assumed") | select(.message | test("first CA port"))' out >/dev/null ||
  fail "no sm-port-assumed finding for the first CA port"

# given: no finding
set +e
"$IBPART" audit -t init.topo --sm-port "$storage" --format json "$ex/partitions.conf" >out 2>err
set -e
if jq -e '.findings[] | select(.code == "sm-port-assumed")' out >/dev/null; then
  fail "sm-port-assumed with --sm-port given"
fi
finish
