#!/usr/bin/env bash
# make install's payload: the binary, the man page, libibpart (static and
# shared), the headers and a pkg-config file that a client program can
# build and link against.
source "$(dirname "$0")/lib.sh"
: "${IBP_BUILD:?}"
cmake --install "$IBP_BUILD" --prefix "$T/p" >install.log
for f in bin/ibpart share/man/man1/ibpart.1 include/ibpart/pkey.h \
         include/ibpart/pkey_table.h include/ibpart/topo.h; do
  [[ -e "$T/p/$f" ]] || fail "make install did not install $f"
done
ls "$T"/p/lib*/libibpart.a >/dev/null 2>&1 || fail "no libibpart.a"
ls "$T"/p/lib*/libibpart.so* >/dev/null 2>&1 || fail "no libibpart.so"
pc=$(ls "$T"/p/lib*/pkgconfig/ibpart.pc) || fail "no ibpart.pc"
"$T/p/bin/ibpart" --version >out || fail "installed binary does not run"
grep -q "^.SH EXIT STATUS" "$T/p/share/man/man1/ibpart.1" || fail "man page lacks EXIT STATUS"
# the installed demo finds the installed examples (not the source tree's)
(cd "$T" && env -u IBP_EXAMPLES "$T/p/bin/ibpart" demo >demo.out 2>demo.err) ||
  fail "installed ibpart demo failed: $(cat "$T/demo.err")"
grep -q "tenantA-node-01" "$T/demo.out" || fail "installed demo printed no seed scenario"

# a client of the installed library, built only from what pkg-config says
cat >client.c <<'C'
#include <ibpart/pkey.h>
#include <ibpart/pkey_table.h>
#include <stdio.h>
int main(void)
{
	ibp_pkey_table *t = ibp_pkey_table_new(64);
	ibp_pkey_table_insert(t, 0x8001, NULL, NULL);
	int i = ibp_pkey_table_match(t, 0x0001);
	ibp_pkey_table_free(t);
	printf("%d %d\n", i, ibp_pkey_match(0x0001, 0x0001));
	return 0;
}
C
export PKG_CONFIG_PATH=$(dirname "$pc")
cc client.c $(pkg-config --cflags --libs ibpart) -o client || fail "client does not build"
LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")") ./client >client.out || fail "client does not run"
[[ "$(cat client.out)" == "0 0" ]] || fail "client printed '$(cat client.out)', expected '0 0'"
finish
