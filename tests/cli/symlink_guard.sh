#!/usr/bin/env bash
# Output files and links planted by another user: root writing `-o x.conf`
# in a world-writable sticky directory (/tmp) where x.conf is a link that
# another user made must not replace the link's target (the rule of
# fs.protected_symlinks); a planted x.conf.bak link is not written
# through; a replaced file keeps its owner and mode.  Needs root (to act
# as the victim and chown to another user): skipped (77) otherwise.
source "$(dirname "$0")/lib.sh"
[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root"; exit 77; }
plan="$IBP_SRC/examples/seed/partitions.conf"

mkdir -m 1777 shared
echo "precious" >victim
ln -s "$T/victim" shared/x.conf
chown -h nobody shared/x.conf
expect_status 3 "$IBPART" convert -o shared/x.conf "$plan"
expect_grep 'not followed' err
[[ $(cat victim) == precious ]] || fail "the link's target was replaced"

# the same link owned by us (root) is followed, as for /etc/opensm links
ln -sf "$T/victim" shared/y.conf
expect_status 0 "$IBPART" convert -o shared/y.conf "$plan"
[[ -L shared/y.conf ]] || fail "our own link was replaced by a file"
grep -q 'Default=0x7fff' victim || fail "our own link's target was not written"

# a replaced file keeps its owner and mode
echo old >owned.conf
chown nobody:nogroup owned.conf 2>/dev/null || chown nobody owned.conf
chmod 640 owned.conf
expect_status 0 "$IBPART" convert -o owned.conf "$plan"
[[ $(stat -c %U owned.conf) == nobody ]] || fail "owner not kept: $(stat -c %U owned.conf)"
[[ $(stat -c %a owned.conf) == 640 ]] || fail "mode not kept: $(stat -c %a owned.conf)"
finish
