#!/usr/bin/env bash
# audit_posture.sh - `ibpart audit --opensm-conf`: the SM's and SA's keys
# at OpenSM's well-known default (OSM_DEFAULT_SM_KEY = OSM_DEFAULT_SA_KEY
# = 1, also when the line is absent) are findings (smkey-default medium,
# sakey-default info); where the file carries NVIDIA OpenSM's options,
# an empty allowed_sm_guids (sm-guids-open), one M_Key for every port
# (mkey-per-port-off) and the basic SA trust model (sa-trust-basic) are
# too; a file without NVIDIA options gets none of those; a key that is
# not a number is bad input (exit 2, located).
source "$(dirname "$0")/lib.sh"
D="$IBP_SRC/tests/data/audit"
A=(audit -t "$D/two-leaf.topo" --format json)
codes() { jq -r '[.findings[] | select(.code | test("key-default|sm-guids|per-port|sa-trust")) | "\(.code):\(.severity)"] | sort | join(" ")' out; }

printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\npart_enforce both\n' >plain.conf
expect_status 0 "$IBPART" "${A[@]}" --opensm-conf plain.conf "$D/sound-two-leaf.conf"
[[ $(codes) == "sakey-default:info smkey-default:medium" ]] || fail "3.3.23 file, no keys: $(codes)"

printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\nsm_key 0x1\nsa_key 0x0000000000000001\n' >default.conf
expect_status 0 "$IBPART" "${A[@]}" --opensm-conf default.conf "$D/sound-two-leaf.conf"
[[ $(codes) == "sakey-default:info smkey-default:medium" ]] || fail "keys written as the default: $(codes)"

printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\nsm_key 0x5eC2e7\nsa_key 0x77\n' >keys.conf
expect_status 0 "$IBPART" "${A[@]}" --opensm-conf keys.conf "$D/sound-two-leaf.conf"
[[ -z $(codes) ]] || fail "secret keys: $(codes)"

printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\nsm_key 0x5ec2e7\nsa_key 0x77\nm_key_per_port FALSE\nallowed_sm_guids\nsa_enhanced_trust_model FALSE\n' >nvidia-weak.conf
expect_status 0 "$IBPART" "${A[@]}" --opensm-conf nvidia-weak.conf "$D/sound-two-leaf.conf"
[[ $(codes) == "mkey-per-port-off:medium sa-trust-basic:info sm-guids-open:medium" ]] || fail "NVIDIA options weak: $(codes)"
jq -e '.findings[] | select(.code == "sm-guids-open") | .fix | test("allowed_sm_guids")' out >/dev/null ||
  fail "sm-guids-open without its fix"

printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\nsm_key 0x5ec2e7\nsa_key 0x77\nm_key_per_port TRUE\nallowed_sm_guids 0x0002c90000000001,0x0002c90000000002\nsa_enhanced_trust_model TRUE\n' >nvidia-good.conf
expect_status 0 "$IBPART" "${A[@]}" --opensm-conf nvidia-good.conf "$D/sound-two-leaf.conf"
[[ -z $(codes) ]] || fail "NVIDIA options set: $(codes)"

printf 'sm_key secret\n' >bad.conf
expect_status 2 "$IBPART" "${A[@]}" --opensm-conf bad.conf "$D/sound-two-leaf.conf"
expect_grep 'bad.conf:1:' err
finish
