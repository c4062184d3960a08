#!/usr/bin/env bash
# A program compiled against version 1 of ibp_monitor_options (an older,
# smaller struct: tests/api/monitor_options_v1.h) runs against the
# current libibpart.so: _init writes only version 1's fields, the sweep
# reads only those, and versions 0 and newer-than-the-library are
# refused (tests/api/old_caller.c says each check).  Nested options
# (tables_compute's fabric and policy, the matrix's) are pointers with
# their own version, served at version 1 and refused out of range.  The
# other options a version 2 grew (sim session, verify, apply, apply run,
# analysis input) are served at version 1, read no further than it.  The
# result structs the library fills (tests/api/results_v1.h) are filled at
# version 1 before a guard page, and refused out of range with nothing
# written.
source "$(dirname "$0")/../cli/lib.sh"
: "${IBP_OLD_CALLER:?IBP_OLD_CALLER must name the old caller}"
ex="$IBP_SRC/examples/seed"
printf 'm_key 0x1234\n' >"$T/opensm.conf"
expect_status 0 "$IBP_OLD_CALLER" "$ex/seed.topo" "$ex/partitions.conf" \
	"$T/opensm.conf"
expect_grep '^init: version 1, retries -1, nothing written past it$' out
expect_grep '^swept: [1-9][0-9]* bytes of Prometheus text$' out
expect_grep '^version 0: refused$' out
expect_grep '^version [0-9]*: refused$' out
expect_grep '^matrix: [1-9][0-9]* end ports$' out
expect_grep '^policy options version 0: refused$' out
expect_grep '^policy options version [1-9][0-9]*: refused$' out
expect_grep '^matrix options version 0: refused$' out
expect_grep '^matrix options version [1-9][0-9]*: refused$' out
for what in 'sim session' verify apply 'apply run' 'analysis input'; do
	expect_grep "^$what options version 1: served\$" out
done
for what in ibp_plan ibp_tables_result ibp_explanation \
	'struct ibp_apply_counts' 'struct ibp_apply_opensm_result' ibp_osm_conf; do
	expect_grep "^$what version 0: refused, nothing written\$" out
	expect_grep "^$what version [1-9][0-9]*: refused, nothing written\$" out
done
for what in ibp_plan 'ibp_plan cleared' ibp_explanation \
	'ibp_explanation json' 'ibp_explanation freed' 'struct ibp_apply_counts' \
	'struct ibp_apply_opensm_result' \
	'struct ibp_apply_opensm_result cleared' \
	'struct ibp_apply_opensm_result reload' ibp_osm_conf; do
	expect_grep "^$what version 1: filled\$" out
done
expect_grep '^ok$' out
finish
