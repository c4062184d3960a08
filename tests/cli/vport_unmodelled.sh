#!/usr/bin/env bash
# vport-unmodelled: with an opensm.conf that turns NVIDIA OpenSM's
# virtualization on (virt_enabled 2), the plan's GUIDs that are no port
# of the fabric - VF alias GUIDs of tests/data/vf/vf.aliases and unknown
# GUIDs - are summed up as vport-unmodelled (count and the first GUIDs)
# by tables and audit, not as guid-alias-ignored / guid-unknown, and
# nothing is predicted for them: the tables are those of the plan
# without them.  virt_enabled 0, or no opensm.conf, keeps the old words;
# a node GUID stays guid-unknown.
source "$(dirname "$0")/lib.sh"
TOPO=$IBP_SRC/examples/seed/seed.topo
A=$IBP_SRC/tests/data/vf/vf.aliases
printf 'Default=0x7fff : ALL=limited, SELF=full ;\n' >base.conf
cp base.conf plan.conf
printf 'a=0x0a01 : 0x506b4b0300a1b201=full, 0x506b4b0300a1b203=full ;\n' >>base.conf
printf 'a=0x0a01 : 0x0002c90300aa0101=full, 0x0002c90300ff0001=full,\n  0x506b4b0300a1b1ff=full, 0x506b4b0300a1b201=full, 0x506b4b0300a1b203=full ;\n' >>plan.conf
printf '# NVIDIA OpenSM\nvirt_enabled 2\n' >virt.conf
printf 'virt_enabled 0\n' >novirt.conf

expect_status 1 "$IBPART" tables -t "$TOPO" --alias-guids "$A" --opensm-conf virt.conf --format json plan.conf
cp out with-vfs.json
expect_grep "2 GUID(s) of the plan are no port of the fabric: 0x0002c90300aa0101 (VF 1 of tenantA-node-01 port 1), 0x0002c90300ff0001;.*\[vport-unmodelled\]" err
expect_grep "0x506b4b0300a1b1ff.*\[guid-unknown\]" err
expect_no_grep "guid-alias-ignored" err
expect_status 0 "$IBPART" tables -t "$TOPO" --alias-guids "$A" --opensm-conf virt.conf --format json base.conf
cmp -s out with-vfs.json || fail "the VF GUIDs changed the predicted tables"

expect_status 1 "$IBPART" audit -t "$TOPO" --alias-guids "$A" --opensm-conf virt.conf plan.conf
expect_grep "\[vport-unmodelled\]" err
expect_no_grep "\[unknown-guid\]" err

for osm in novirt.conf ""; do
  expect_status 1 "$IBPART" tables -t "$TOPO" --alias-guids "$A" ${osm:+--opensm-conf $osm} plan.conf
  expect_grep "\[guid-alias-ignored\]" err
  expect_grep "0x0002c90300ff0001.*\[guid-unknown\]" err
  expect_no_grep "vport-unmodelled" err
done
finish
