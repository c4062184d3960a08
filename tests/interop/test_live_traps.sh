#!/usr/bin/env bash
# test_live_traps.sh - `ibpart monitor --opensm-log` on what the real
# OpenSM 3.3.23 logs: ibsim sends no trap 257 of its own (only 128 and
# 144), so an HCA port (tenantB-node-01, attached through libumad2sim)
# sends the SM a SubnTrap(Notice) 257 Bad P_Key as a refusing HCA does
# (IBA 14.2.5.1: the packet from tenantA-node-01's LID to its own, P_Key
# 0x8001); OpenSM writes its own "Bad P_Key:" line (osm_trap_rcv.c), and
# the monitor reading that log gives the trap to TenantA "from" and
# TenantB "toward" and to the HCA port that raised it; a second sweep of
# the same run reads only what OpenSM logged since (one more trap); the
# ClassPortInfo GMPs are sent by the first sweep only.
source "$(dirname "$0")/live_lib.sh"
live_init
[[ -n ${IBP_UMAD_PROBE:-} && -x $IBP_UMAD_PROBE ]] || live_fail "IBP_UMAD_PROBE not set"

live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
cp "$IBP_SRC/examples/seed/partitions.conf" "$LIVE_DIR/seed.conf"
live_opensm "$LIVE_DIR/seed.conf"

json=$(live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" --format json || true)
lid() { jq -r --arg d "$1" '.ports[] | select(.desc == $d and (.switch | not)) | .lid' <<<"$json"; }
la=$(lid tenantA-node-01)
lb=$(lid tenantB-node-01)
sm=$(LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST sminfo | sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p')
[[ -n $la && -n $lb && -n $sm ]] || live_fail "LIDs: A '$la' B '$lb' SM '$sm'"

trap257() { # from tenantB-node-01's port (its HCA refused the packet)
	LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=H-506b4b0300a1b201 "$IBP_UMAD_PROBE" \
		trap257 "$sm" "$la" "$lb" 0x8001 || live_fail "trap257 not sent"
}
waitlog() { # N: until OpenSM's log holds N "Bad P_Key:" lines
	for _ in $(seq 50); do
		[[ $(grep -c ' -> log_trap_info: Bad P_Key:' "$LIVE_OSM_LOG") -ge $1 ]] && return 0
		sleep 0.1
	done
	live_fail "OpenSM logged no Bad P_Key line: $(grep -i 'notice\|trap' "$LIVE_OSM_LOG" | tail -5)"
}
trap257
waitlog 1
line=$(grep ' -> log_trap_info: Bad P_Key:' "$LIVE_OSM_LOG")
[[ $line == *"-> log_trap_info: Bad P_Key:0x8001 on SL:0 from LID1:$la QP1:0x48 to LID2:$lb QP2:0x49" ]] ||
	live_fail "OpenSM's line: $line"
live_ok "OpenSM logged: ${line#* -> }"

# Two sweeps of one run; the second trap is sent between them: as soon
# as the first sweep's document is written (the monitor flushes each),
# and logged by OpenSM well before the second sweep, 3 s later.
live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" --format json \
	--opensm-log "$LIVE_OSM_LOG" --interval 3 --count 2 >"$LIVE_DIR/two.json" &
bg=$!
docs() { jq -s length "$LIVE_DIR/two.json" 2>/dev/null || echo 0; }
for ((i = 0; i < 3000; i++)); do
	[[ $(docs) -ge 1 ]] && break
	kill -0 $bg 2>/dev/null || break
	sleep 0.01
done
[[ $(docs) == 1 ]] || live_fail "the first sweep was not written alone: $(docs) documents"
trap257
waitlog 2
[[ $(docs) == 1 ]] || live_fail "the second sweep began before OpenSM logged the trap (over 3 s)"
set +e
wait $bg
set -e
out=$(cat "$LIVE_DIR/two.json")
first=$(jq -s '.[0]' <<<"$out")
second=$(jq -s '.[1]' <<<"$out")
t() { jq -r --arg n "$2" ".tenants[] | select(.name == \$n) | .$3" <<<"$1"; }
[[ $(jq .bad_pkey_traps <<<"$first") == 1 && $(t "$first" TenantA bad_pkey_traps_from) == 1 &&
	$(t "$first" TenantB bad_pkey_traps_toward) == 1 && $(t "$first" TenantB bad_pkey_traps_from) == 0 &&
	$(t "$first" TenantA bad_pkey_traps_toward) == 0 ]] ||
	live_fail "first sweep: $(jq -c '{bad_pkey_traps, tenants, trap_ports}' <<<"$first")"
[[ $(jq -c '.trap_ports' <<<"$first") == '[{"guid":"0x506b4b0300a1b201","port":1,"total":1}]' ]] ||
	live_fail "trap ports: $(jq -c .trap_ports <<<"$first")"
[[ $(grep -c ' -> log_trap_info: Bad P_Key:' "$LIVE_OSM_LOG") == 2 ]] || live_fail "the second trap was not logged"
[[ $(jq .bad_pkey_traps <<<"$second") == 1 && $(t "$second" TenantB bad_pkey_traps_toward) == 2 &&
	$(jq -c '.trap_ports[0].total' <<<"$second") == 2 ]] ||
	live_fail "second sweep: $(jq -c '{bad_pkey_traps, tenants, trap_ports}' <<<"$second")"
live_ok "monitor --opensm-log: TenantA from, TenantB toward, the HCA port; the second sweep reads only the new line"

# ClassPortInfo once per run: the second sweep sends one GMP per port read
g1=$(jq .gmps <<<"$first")
g2=$(jq .gmps <<<"$second")
[[ $g2 == "$(jq '.ports | length' <<<"$second")" && $g1 -gt $g2 ]] ||
	live_fail "GMPs: first sweep $g1, second $g2"
live_ok "GMPs: $g1 in the first sweep, $g2 in the second (ClassPortInfo kept)"
# Trap 259: the leaf switch refuses at its port 5 (facing tenantB-node-01)
# a packet from tenantA-node-01 (umad_probe attached to the switch's port
# 0 sends it).  OpenSM logs its num:259 line (the switch's LID only) and,
# reporting it (log_notice, level 0x02), the whole DataDetails: the
# monitor gives it to the switch port, TenantA from, TenantB toward.
swlid=$(jq -r '.ports[] | select(.switch and .port == 5) | .lid' <<<"$json")
[[ -n $swlid ]] || live_fail "no switch LID"
LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=S-506b4b0300a1b100 "$IBP_UMAD_PROBE" \
	trap259 "$sm" "$swlid" 5 "$la" "$lb" 0x8001 || live_fail "trap259 not sent"
for _ in $(seq 50); do
	grep -q ' -> log_notice: Reporting Security Notice "Bad P_Key (switch external port)"' "$LIVE_OSM_LOG" && break
	sleep 0.1
done
g259=$(grep ' -> log_trap_info: Received Generic Notice type:2 num:259 ' "$LIVE_OSM_LOG") ||
	live_fail "OpenSM logged no num:259 line: $(grep -i 'notice\|trap' "$LIVE_OSM_LOG" | tail -5)"
r259=$(grep ' -> log_notice: Reporting Security Notice "Bad P_Key (switch external port)"' "$LIVE_OSM_LOG") ||
	live_fail "OpenSM logged no report of the 259: $(grep -i 'notice\|trap' "$LIVE_OSM_LOG" | tail -5)"
[[ $g259 == *"(Bad P_Key (switch external port)) Producer:2 (Switch) from LID:$swlid TID:0x"* ]] ||
	live_fail "OpenSM's 259 line: $g259"
[[ $r259 == *"from switch LID $swlid, GUID 0x506b4b0300a1b100 port 5 : data_valid 0x0007, LID1 $la, LID2 $lb, PKey 0x8001, SL 0,"* ]] ||
	live_fail "OpenSM's 259 report line: $r259"
live_ok "OpenSM logged: $g259"
live_ok "OpenSM logged: $r259"
third=$(live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" --format json \
	--opensm-log "$LIVE_OSM_LOG" || true)
third=$(jq -s '.[-1]' <<<"$third")
[[ $(jq .bad_pkey_traps <<<"$third") == 3 && $(t "$third" TenantA bad_pkey_traps_from) == 3 &&
	$(t "$third" TenantB bad_pkey_traps_toward) == 3 ]] ||
	live_fail "259 sweep: $(jq -c '{bad_pkey_traps, tenants, trap_ports}' <<<"$third")"
[[ $(jq -c '[.trap_ports[] | select(.guid == "0x506b4b0300a1b100")]' <<<"$third") == '[{"guid":"0x506b4b0300a1b100","port":5,"total":1}]' ]] ||
	live_fail "259 trap port: $(jq -c .trap_ports <<<"$third")"
live_ok "monitor --opensm-log: the 259 on the switch's port 5, TenantA from, TenantB toward"
ibp_pass
