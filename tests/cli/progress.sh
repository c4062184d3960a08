#!/usr/bin/env bash
# progress.sh - long work says how far it is on stderr through the
# library's progress callback (progress.h): with --progress the phases of
# tables (reading topology, computing tables) and matrix (those, then
# building and writing the matrix), each ending at 100%; without it, on a
# stderr that is not a terminal, nothing; the output is the same either
# way.
source "$(dirname "$0")/lib.sh"

expect_status 0 "$IBPART" gen --cas 3000 --partitions 20 -o g.topo --conf g.conf
expect_status 0 "$IBPART" matrix --progress -t g.topo --format json g.conf
cp out with.json
for phase in "reading topology" "computing tables" "building the matrix" "writing the matrix"; do
	expect_grep "^ibpart: \[ *[0-9.]* s\] $phase: " err
done
expect_grep "^ibpart: \[ *[0-9.]* s\] writing the matrix: 21/21 (100%)" err
expect_grep "^ibpart: \[ *[0-9.]* s\] reading topology: \([0-9]*\)/\1 (100%)" err
expect_status 0 "$IBPART" matrix -t g.topo --format json g.conf
expect_no_grep "ibpart: \[" err
cmp -s out with.json || fail "matrix output differs with --progress"

expect_status 0 "$IBPART" tables -t g.topo g.conf --progress
expect_grep "computing tables: 3455/3455 (100%)" err
expect_no_grep "building the matrix" err
expect_status 0 "$IBPART" tables -t g.topo g.conf
expect_no_grep "ibpart: \[" err
finish
