#!/usr/bin/env bash
# A NUL byte in a node-name-map cut the name there without a word (the
# name "abc<NUL>def" became "abc", silently): rdma-core reads a line as a
# C string, so the cut stays, but it is now a located warning, as a NUL
# in a plan is.  The text after the NUL is not read as more of the line.
source "$(dirname "$0")/lib.sh"
seed="$IBP_SRC/examples/seed"
printf '0x506b4b0300a1b2ff abc\000def\n' >nul.nnm
expect_status 0 "$IBPART" tables -t "$seed/seed.topo" --node-name-map nul.nnm "$seed/partitions.conf"
expect_grep '^nul.nnm:1:23: warning: NUL byte: rdma-core reads the line only up to it' err
expect_grep '^# abc port 1 ' out
# the quoted name lost its closing quote to the NUL: an error, located
expect_status 2 "$IBPART" tables -t "$seed/seed.topo" --node-name-map <(printf '0x506b4b0300a1b300 "ufm\000"\n') "$seed/partitions.conf"
expect_grep 'missing closing' err
finish
