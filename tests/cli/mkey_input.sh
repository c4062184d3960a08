#!/usr/bin/env bash
# The M_Key's inputs refuse what they cannot read as one key, and never
# echo it: IBPART_MKEY set to something that is not a number was
# silently ignored (every SMP then went without the M_Key the operator
# meant to give), and an --mkey-file holding two keys used the first.
source "$(dirname "$0")/lib.sh"
plan="$IBP_SRC/examples/seed/partitions.conf"
for cmd in verify apply discover; do
  args=(-c "$plan")
  [[ $cmd == apply ]] && args+=(--direct)
  [[ $cmd == discover ]] && args=()
  set +e
  IBPART_MKEY=0xc0ffeezz "$IBPART" "$cmd" "${args[@]}" -C no-such-ca >out 2>err
  rc=$?
  set -e
  [[ $rc == 2 ]] || fail "$cmd with IBPART_MKEY=0xc0ffeezz: exit $rc, expected 2 ($(head -c 300 err))"
  expect_grep "ibpart $cmd: IBPART_MKEY is not an M_Key" err
  expect_no_grep 'c0ffee' err
  # --help still works, a good key still passes the check
  IBPART_MKEY=0xc0ffeezz "$IBPART" "$cmd" --help >out 2>err || fail "$cmd --help with a bad IBPART_MKEY"
  set +e
  IBPART_MKEY=0x00c0ffee "$IBPART" "$cmd" "${args[@]}" -C no-such-ca >out 2>err
  rc=$?
  set -e
  [[ $rc == 3 ]] || fail "$cmd with a good IBPART_MKEY and no such CA: exit $rc, expected 3"
  expect_no_grep 'c0ffee' err
done
printf '0x00c0ffee00c0ffee\n0x1111\n' >mk2
chmod 600 mk2
expect_status 2 "$IBPART" verify -c "$plan" --mkey-file mk2 -C no-such-ca
expect_grep 'holds 2 words; one M_Key expected' err
expect_no_grep 'c0ffee' err
finish
