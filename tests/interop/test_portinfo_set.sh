#!/usr/bin/env bash
# test_portinfo_set.sh - the enforcement SubnSet(PortInfo) against a real
# SMA (ibsim): once OpenSM has brought the ports to Active, a Set that
# writes back the PortInfo it read with the bits changed - ibpart's old
# encoding: PortState Active, PortPhysicalState LinkUp - is refused by
# ibsim with MAD status 7 (invalid attribute value; Active to Active is no
# PortState transition, IBA vol. 1 14.2.5.6), while the Set as OpenSM's
# pkey manager writes it and the SM now sends it (state fields 0, "no
# change") is accepted, and the port stays Active and LinkUp; OpenSM
# itself sends that Set to every leaf port on every sweep there.  ibsim's
# SwitchInfo implements no enforcement bit, so its bits read 0 after
# either: the SM neither Sets nor checks them there, and verify --format
# json says enforcement_checked 0.
source "$(dirname "$0")/live_lib.sh"
live_init
: "${IBP_UMAD_PROBE:?IBP_UMAD_PROBE must name the umad_probe test driver}"
D=$IBP_SRC/tests/interop/data
live_ibsim "$D/live-2sw.topo" H-0002c90000000100

pi_field() { # DRPATH PORT FIELD: one field of smpquery -D portinfo
	LD_PRELOAD=$LIVE_PRELOAD smpquery -D portinfo "$1" "$2" |
		sed -n "s/^$3:\.*//p"
}
probe() { LD_PRELOAD=$LIVE_PRELOAD "$IBP_UMAD_PROBE" pi-enforce "$@"; }

cp "$D/live-2sw-a.conf" "$LIVE_DIR/a.conf"
# OpenSM (-D 0xff: its debug lines and every MAD) on a sweep and a
# SIGHUP re-sweep of the same plan: it sends its enforcement Set to every
# one of the 7 switch ports facing an end port on both sweeps - the
# second changes no table, and ibsim never keeps the bits, so they always
# differ - and every MAD it gets back has status 0: ibsim takes OpenSM's
# encoding.
ibp_osm_start "$LIVE_DIR/a.conf" -D 0xff
ibp_osm_hup
ibp_osm_wait_up 2
live_osm_stop
sets=$(grep -c 'pkey_mgr_enforce_partition: Set PortInfo for node' "$IBP_OSM_LOG" || true)
ports=$(grep 'pkey_mgr_enforce_partition: Set PortInfo for node' "$IBP_OSM_LOG" | sed 's/.*for node //' | sort -u | wc -l)
[[ $sets == 14 && $ports == 7 ]] ||
	live_fail "OpenSM's enforcement Sets: $sets on $ports ports, want 14 on 7 (two sweeps)"
bad=$(grep 'status\.*0x' "$IBP_OSM_LOG" | grep -vc '0x0$' || true)
[[ $bad == 0 && $(grep -c 'status\.*0x0$' "$IBP_OSM_LOG") -gt 0 ]] ||
	live_fail "$bad MADs with a non-zero status in OpenSM's log"
live_ok "OpenSM Sets PortInfo enforcement on all 7 leaf ports on each of 2 sweeps (no table change on the second); ibsim answers status 0"
# spine-1 port 4 (node-a) one hop away, leaf-2 port 4 (node-c) two
for at in "1 0,1 4" "1,1 0,1,1 4"; do
	read -r path dr port <<<"$at"
	[[ $(pi_field "$dr" "$port" LinkState) == Active ]] ||
		live_fail "$dr port $port not Active after OpenSM: $(pi_field "$dr" "$port" LinkState)"
	out=$(probe "$path" "$port" old) || live_fail "probe old $path: $out"
	[[ $out == "status 0x001c "* ]] ||
		live_fail "ibsim took the old encoding on $dr port $port: $out"
	out=$(probe "$path" "$port" new) || live_fail "probe new $path: $out"
	[[ $out == "status 0x0000 PortState 4 PortPhysicalState 5" ]] ||
		live_fail "ibsim refused the new encoding on $dr port $port: $out"
	[[ $(pi_field "$dr" "$port" LinkState) == Active &&
		$(pi_field "$dr" "$port" PhysLinkState) == LinkUp ]] ||
		live_fail "$dr port $port left Active/LinkUp"
	[[ $(pi_field "$dr" "$port" PartEnforceInb) == 0 ]] ||
		live_fail "ibsim holds enforcement bits after all?"
	live_ok "$dr port $port: old encoding refused with status 7, OpenSM's accepted, port Active/LinkUp"
done

out=$(live_ibpart verify -q -c "$LIVE_DIR/a.conf" --format json) || live_fail "verify: $out"
[[ $(jq .enforcement_checked <<<"$out") == 0 && $(jq '[.drift[] | select(.kind == "enforcement")] | length' <<<"$out") == 0 ]] ||
	live_fail "enforcement checked on ibsim's switches: $out"
live_ok "verify: no enforcement check where SwitchInfo implements no bit"
