#!/bin/bash
# show_opensm.sh TOPO CONF [OPENSM ARGS...] - run the real OpenSM with
# partitions.conf CONF on a private ibsim of TOPO and print what it
# programmed: one line per linked port, "<port guid> <port> <pkey0>
# <pkey1> ..." (index order, trailing empty entries trimmed), then the
# partition manager's lines of OpenSM's log (errors, parse messages) on
# stderr.  The command every claim of docs/opensm-behaviour.md cites.
# Not a test (ctest runs test_*.sh only).
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || { echo "usage: $0 TOPO CONF [OPENSM ARGS...]" >&2; exit 2; }
ibp_init show
topo=$(realpath "$1")
conf=$(realpath "$2")
shift 2
ibp_sim_start "$topo"
ibp_osm_start "$conf" "$@"
ibp_read_pkeys "${IBP_SHOW_FILTER:- (CA|SW|RT|self)$}"
grep -E "ERR 05|PARSE|retrying|Reusing|Partition configuration" "$IBP_OSM_LOG" |
	cut -d' ' -f5- >&2
