#!/usr/bin/env bash
# The protected_symlinks rule holds for a link met as a directory on the
# way to the output, not only for the last component: root writing
# `-o shared/d/x.conf` where shared is world-writable and sticky and d a
# link another user planted there (to /etc/opensm, say) must not write
# through it; the guard only looked at the final name, and the kernel's
# own check is off where fs.protected_symlinks is 0.  Our own link, or a
# link outside such a directory, is still followed.  Needs root (to
# chown a link to another user): skipped (77) otherwise.
source "$(dirname "$0")/lib.sh"
[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root"; exit 77; }
plan="$IBP_SRC/examples/seed/partitions.conf"
mkdir -m 1777 shared
mkdir etc-opensm
echo precious >etc-opensm/x.conf
ln -s "$T/etc-opensm" shared/d
chown -h nobody shared/d
for out in shared/d/x.conf "$T/shared/d/x.conf" shared/d/new.conf; do
  expect_status 3 "$IBPART" convert -o "$out" "$plan"
  expect_grep 'goes through a symbolic link another user owns' err
done
[[ $(cat etc-opensm/x.conf) == precious ]] || fail "written through another user's directory link"
[[ ! -e etc-opensm/new.conf ]] || fail "a file created through another user's directory link"
[[ $(ls etc-opensm | wc -l) == 1 ]] || fail "something left in the link's target: $(ls etc-opensm)"
# a file link whose target path goes through such a directory link
ln -s "$T/shared/d/x.conf" mine.conf
expect_status 3 "$IBPART" convert -o mine.conf "$plan"
[[ $(cat etc-opensm/x.conf) == precious ]] || fail "written through a link into another user's directory link"
# our own directory link in the same place is followed
ln -s "$T/etc-opensm" shared/ours
expect_status 0 "$IBPART" convert -o shared/ours/x.conf "$plan"
grep -q 'Default=0x7fff' etc-opensm/x.conf || fail "our own directory link was not followed"
finish
