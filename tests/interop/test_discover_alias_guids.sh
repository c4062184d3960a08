#!/usr/bin/env bash
# test_discover_alias_guids.sh - `ibpart discover` reads every port's
# GUIDInfo table (PortInfo GUIDCap, then every block up to it) and writes
# the alias map beside the topology: on ibsim, whose CA ports say GUIDCap
# 32 (four blocks) and switches 1, the aliases it writes are exactly the
# non-zero entries past index 0 that the real smpquery guidinfo reads by
# directed route from every CA port and switch port 0 - none, on ibsim,
# which holds only the port GUIDs - and other commands load the map with
# --alias-guids.  --alias-guids names another path; a topology to stdout
# writes no map unless named.  (Aliases present in the tables are
# discovered on our own simulator: unit.test_sm test_alias_guids_discovered.)
# Then, with the real OpenSM, a host registers VFs' aliases with its SA
# as an mlx4 driver does (SubnAdmSet(GUIDInfoRecord), sa_guidinfo_set):
# ibsim's SMAs refuse OpenSM's SubnSet(GUIDInfo), so only the SA holds
# them, and discover's map holds exactly what the real saquery reads of
# OpenSM's GUIDInfoRecords.
source "$(dirname "$0")/live_lib.sh"
live_init

live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
live_ibpart discover -o "$LIVE_DIR/seed.topo" 2>"$LIVE_DIR/discover.err" ||
	live_fail "discover failed: $(cat "$LIVE_DIR/discover.err")"
[[ -f $LIVE_DIR/seed.topo.aliases ]] || live_fail "no alias map beside the topology"
summary=$(cat "$LIVE_DIR/discover.err")
[[ $summary == *"0 alias GUIDs"* ]] || live_fail "summary: $summary"

# What the real smpquery reads: every GUIDInfo entry of every CA port and
# switch port 0, by directed route; the aliases are those past index 0.
LD_PRELOAD=$LIVE_PRELOAD ibnetdiscover >"$LIVE_DIR/ibnd.topo" 2>/dev/null ||
	live_fail "ibnetdiscover failed"
live_dr_paths "$LIVE_DIR/ibnd.topo" >"$LIVE_DIR/paths"
switches=$(awk '$2 == 0 { print $1 }' "$LIVE_DIR/paths" | sort -u)
: >"$LIVE_DIR/theirs"
ports=0 caps=""
while read -r g p path; do
	if [[ $p != 0 && $'\n'$switches$'\n' == *$'\n'$g$'\n'* ]]; then
		continue # a switch's external port: no GUIDInfo of its own
	fi
	out=$(LD_PRELOAD=$LIVE_PRELOAD smpquery -D guidinfo "$path") ||
		live_fail "smpquery guidinfo $path failed"
	ports=$((ports + 1))
	caps+=" $(awk '/guids capacity/ { print $1 }' <<<"$out")"
	port_guid=$(awk '/^ *0:/ { print $2 }' <<<"$out")
	awk -v pg="$port_guid" '/^ *[0-9]+:/ {
		i = $1; sub(/:/, "", i)
		for (k = 2; k <= NF; k++) {
			if (i > 0 && $k != "0x0000000000000000") print $k, pg, i
			i++
		}
	}' <<<"$out" >>"$LIVE_DIR/theirs"
done <"$LIVE_DIR/paths"
[[ $ports -ge 8 ]] || live_fail "smpquery read only $ports GUIDInfo tables"
[[ $caps == *32* ]] || live_fail "no port with GUIDCap 32 (caps:$caps): the blocks past 0 were not exercised"
awk '!/^#/ { print $1, $2, $3 }' "$LIVE_DIR/seed.topo.aliases" |
	sort >"$LIVE_DIR/ours"
sort "$LIVE_DIR/theirs" | diff -u - "$LIVE_DIR/ours" ||
	live_fail "the alias map differs from smpquery's GUIDInfo"
live_ok "alias map as smpquery reads $ports GUIDInfo tables (GUIDCaps:$caps): $(wc -l <"$LIVE_DIR/ours") aliases"

# The map loads where every -t command takes it.
"$IBPART" check -t "$LIVE_DIR/seed.topo" \
	--alias-guids "$LIVE_DIR/seed.topo.aliases" \
	"$IBP_SRC/examples/seed/partitions.conf" >"$LIVE_DIR/check.out" ||
	live_fail "check does not load the written alias map"
live_ok "check -t --alias-guids loads it"

# --alias-guids names the map; the topology to stdout writes none unless named.
live_ibpart discover -q --alias-guids "$LIVE_DIR/named.map" >"$LIVE_DIR/stdout.topo" ||
	live_fail "discover to stdout failed"
[[ -f $LIVE_DIR/named.map && -s $LIVE_DIR/stdout.topo ]] ||
	live_fail "--alias-guids FILE not written"
before=$(ls "$LIVE_DIR")
live_ibpart discover -q >"$LIVE_DIR/stdout2.topo" || live_fail "discover to stdout failed"
new=$(comm -13 <(echo "$before") <(ls "$LIVE_DIR") | awk '!/^sys-/')
[[ $new == stdout2.topo ]] || live_fail "discover to stdout wrote files: $new"
live_ok "--alias-guids FILE written; stdout alone writes no map"

# Aliases the SA holds (IBA 15.2.5.18), registered as mlx4 hosts do.
: "${IBP_SA_GUIDINFO_SET:?}"
ibp_require saquery sminfo
live_opensm ""
sim_tool() { LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST "$@"; }
out=$(sim_tool sminfo) || live_fail "sminfo failed"
sm_lid=$(sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p' <<<"$out")
# every CA port's LID, by the directed routes found above (saquery NR
# cannot list them: libumad2sim carries the first RMPP segment only)
lids=$(while read -r g p path; do
	[[ $'\n'$switches$'\n' == *$'\n'$g$'\n'* ]] && continue
	sim_tool ibaddr -D "$path" | sed -n 's/.* LID start \(0x[0-9a-f]*\) .*/\1/p'
done <"$LIVE_DIR/paths" | sort -u)
n=0
for lid in $lids; do # VF 1 on every CA port, VF 9 (block 1) on one
	[[ $lid == "$sm_lid" ]] && continue
	n=$((n + 1))
	sim_tool "$IBP_SA_GUIDINFO_SET" "$sm_lid" "$lid" 1 "$(printf '0x0002c903aa%06x' "$lid")" >/dev/null ||
		live_fail "SubnAdmSet(GUIDInfoRecord) at LID $lid refused"
	[[ $n == 2 ]] && { sim_tool "$IBP_SA_GUIDINFO_SET" "$sm_lid" "$lid" 9 0x0002c903bb000009 >/dev/null ||
		live_fail "SubnAdmSet(GUIDInfoRecord) VF 9 refused"; }
done
[[ $n -ge 3 ]] || live_fail "only $n LIDs to register aliases at: [$lids]"
: >"$LIVE_DIR/sa-theirs"
for lid in $lids; do # every record OpenSM's SA holds, as saquery reads it
	sim_tool saquery GIR "$lid" | awk '
		/LID\.+/ { lid = $1; sub(/.*\./, "", lid) }
		/Block\.+/ { b = $1; sub(/.*\./, "", b) }
		/GUID [0-7]\.+/ { i = $2; v = $2; sub(/\..*/, "", i); sub(/.*\./, "", v)
			if (b == 0 && i == 0) base[lid] = v
			else if (v != "0x0000000000000000") print v, lid, b * 8 + i }' >>"$LIVE_DIR/sa-theirs"
done
live_ibpart discover -o "$LIVE_DIR/sa.topo" 2>"$LIVE_DIR/sa.err" ||
	live_fail "discover with OpenSM failed: $(cat "$LIVE_DIR/sa.err")"
# ours: ALIAS PORT-GUID INDEX; the port's LID from the real ibaddr
: >"$LIVE_DIR/sa-ours"
while read -r alias port idx; do
	l=$(sim_tool ibaddr -G "$port" | sed -n 's/.* LID start \(0x[0-9a-f]*\) .*/\1/p')
	echo "$alias $((l)) $idx" >>"$LIVE_DIR/sa-ours"
done < <(awk '!/^#/ { print $1, $2, $3 }' "$LIVE_DIR/sa.topo.aliases")
diff -u <(sort "$LIVE_DIR/sa-theirs") <(sort "$LIVE_DIR/sa-ours") ||
	live_fail "discover's alias map differs from saquery's GUIDInfoRecords"
summary=$(cat "$LIVE_DIR/sa.err")
[[ $summary == *"from the SA's GUIDInfoRecords"* ]] || live_fail "summary: $summary"
live_ok "the SA's GUIDInfoRecords: $(wc -l <"$LIVE_DIR/sa-ours") aliases, as saquery reads OpenSM's"
ibp_pass

