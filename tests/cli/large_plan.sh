#!/usr/bin/env bash
# A plan large enough to be mapped (1 MiB or more) and to have its pages
# given back while it is read (every 8 MiB): `ibpart check` says exactly
# what it says when the same bytes come through a pipe (read, never
# mapped) - every finding, with the same quoted lines, also those at the
# start and at the end of the file, quoted after their pages were given
# back; and a mapped file whose size is a multiple of the page size and
# that ends without a newline reads to its last byte and no further.
source "$(dirname "$0")/lib.sh"
# ~11 MB: 120 partitions of 2,000 members, errors on the first and last
# lines and a duplicate member in the middle
awk 'BEGIN {
	print "first=0x7ffe : 0x1=fulll ;"
	print "Default=0x7fff, ipoib : ALL=limited, SELF=full ;"
	m = 0
	for (p = 1; p <= 120; p++) {
		printf "tenant-%03d=0x%04x, ipoib :\n", p, p
		for (i = 0; i < 2000; i++) {
			printf "\t0x%016x=%s%s\t# node %d\n", 1e6 + m++ * 2, \
			    (i % 10 == 9 ? "limited" : "full"), (i == 1999 ? " ;" : ","), m
			if (p == 60 && i == 1000)
				printf "\t0x%016x=limited,\n", 1e6 + (m - 1) * 2
		}
	}
	print "t9=0x7777 : 0x1=fulll ;"
}' >big.conf
size=$(stat -c %s big.conf)
(( size > 9 * 1024 * 1024 )) || fail "big.conf is only $size bytes"
expect_status 2 "$IBPART" check --max-errors 0 big.conf
mv err mapped.err
set +e
"$IBPART" check --max-errors 0 - <big.conf >out 2>piped.err
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "check - <big.conf: exit $rc"
sed 's/^big\.conf:/-:/' mapped.err >mapped.as-pipe
diff -u piped.err mapped.as-pipe >diff.txt || fail "mapped and piped readings differ: $(head -20 diff.txt)"
expect_grep 'big.conf:1:20: error: unknown membership .fulll.' mapped.err
expect_grep '^    1 | first=0x7ffe : 0x1=fulll ;' mapped.err
expect_grep 'big.conf:240124:17: error: unknown membership .fulll.' mapped.err
expect_grep '^240124 | t9=0x7777 : 0x1=fulll ;' mapped.err
expect_grep 'duplicate-member' mapped.err

# exactly 2 MiB, no final newline: the last member is read, nothing after
awk 'BEGIN {
	head = "Default=0x7fff : ALL=full ;\np=0x2 :\n"; printf "%s", head
	n = length(head); last = "0x0000000000000001"
	for (m = 0; n + 26 <= 2097152 - length(last) - 1; m++) {
		printf "\t0x%016x=full,\n", 65536 + m; n += 26
	}
	printf "%*s%s", 2097152 - n - length(last), "", last
}' >exact.conf
[[ $(stat -c %s exact.conf) -eq 2097152 ]] || fail "exact.conf is $(stat -c %s exact.conf) bytes"
expect_status 1 "$IBPART" check --format json exact.conf
expect_grep '"code": "no-semicolon"' out
set +e
"$IBPART" check --format json - <exact.conf >piped.json 2>/dev/null
set -e
diff <(sed 's/"exact.conf"/"-"/' out) piped.json >/dev/null || fail "exact.conf: mapped and piped JSON differ"
finish
