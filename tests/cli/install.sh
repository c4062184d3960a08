#!/usr/bin/env bash
# make install's payload: the binary (finding libibpart.so through its
# INSTALL_RPATH), the man page, libibpart (static and shared), the headers,
# a pkg-config file and a CMake package (find_package(ibpart):
# ibpart::ibpart, ibpart::ibpart_static) that client programs build, link
# and run against.  In a sanitizer build (IBP_SANITIZE=1) the clients are
# built with the same -fsanitize flags: the instrumented library needs
# the ASan runtime loaded first.
source "$(dirname "$0")/lib.sh"
: "${IBP_BUILD:?}"
cmake --install "$IBP_BUILD" --prefix "$T/p" >install.log
for f in bin/ibpart share/man/man1/ibpart.1 include/ibpart/pkey.h \
         include/ibpart/tables.h include/ibpart/topo.h include/ibpart/sys/sm.h; do
  [[ -e "$T/p/$f" ]] || fail "make install did not install $f"
done
ls "$T"/p/lib*/libibpart.a >/dev/null 2>&1 || fail "no libibpart.a"
ls "$T"/p/lib*/libibpart.so* >/dev/null 2>&1 || fail "no libibpart.so"
pc=$(ls "$T"/p/lib*/pkgconfig/ibpart.pc) || fail "no ibpart.pc"
"$T/p/bin/ibpart" --version >out || fail "installed binary does not run"
# its libibpart.so is the installed one, found through $ORIGIN/../lib*
so=$(env -u LD_LIBRARY_PATH ldd "$T/p/bin/ibpart" | awk '$1 ~ /^libibpart\.so/ { print $3 }')
[[ $so == "$T"/p/bin/../lib*/libibpart.so.* ]] || fail "installed ibpart loads libibpart.so from '$so', not from $T/p/lib*"
for f in ibpartConfig.cmake ibpartConfigVersion.cmake ibpartTargets.cmake; do
  ls "$T"/p/lib*/cmake/ibpart/$f >/dev/null 2>&1 || fail "no $f in <prefix>/lib*/cmake/ibpart"
done
grep -q "^.SH EXIT STATUS" "$T/p/share/man/man1/ibpart.1" || fail "man page lacks EXIT STATUS"
# the installed demo finds the installed examples (not the source tree's)
(cd "$T" && env -u IBP_EXAMPLES "$T/p/bin/ibpart" demo >demo.out 2>demo.err) ||
  fail "installed ibpart demo failed: $(cat "$T/demo.err")"
grep -q "tenantA-node-01" "$T/demo.out" || fail "installed demo printed no seed scenario"

# a client of the installed library, built only from what pkg-config says
cat >client.c <<'C'
#include <ibpart/pkey.h>
#include <stdio.h>
int main(void)
{
	uint16_t k = 0;
	char buf[7];
	if (ibp_pkey_parse("32769", &k, NULL) != IBP_OK)
		return 1;
	printf("%s %d %d\n", ibp_pkey_format(k, buf), ibp_pkey_match(k, 0x0001),
	       ibp_pkey_match(0x0001, 0x0001));
	return 0;
}
C
san=()
[[ ${IBP_SANITIZE:-0} == 1 ]] && san=(-fsanitize=address,undefined)
export PKG_CONFIG_PATH=$(dirname "$pc")
cc "${san[@]}" client.c $(pkg-config --cflags --libs ibpart) -o client || fail "client does not build"
LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")") ./client >client.out || fail "client does not run"
# IBA vol. 1, 10.9.3: a full and a limited member of one partition match,
# two limited members do not
[[ "$(cat client.out)" == "0x8001 1 0" ]] || fail "client printed '$(cat client.out)', expected '0x8001 1 0'"

# the version, through pkg-config and through find_package(ibpart), from
# the shared and from the static library
mkdir consumer
cat >consumer/version.c <<'C'
#include <ibpart/version.h>
#include <stdio.h>
int main(void)
{
	int major, minor, patch;
	const char *v = ibp_version(&major, &minor, &patch);
	printf("%s %d.%d.%d headers %s\n", v, major, minor, patch, IBP_VERSION_STRING);
	return !(major == IBP_VERSION_MAJOR && minor == IBP_VERSION_MINOR);
}
C
cat >consumer/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.18)
project(ibpart_consumer LANGUAGES C)
find_package(ibpart 0.1 REQUIRED)
add_executable(version_shared version.c)
target_link_libraries(version_shared PRIVATE ibpart::ibpart)
add_executable(version_static version.c)
target_link_libraries(version_static PRIVATE ibpart::ibpart_static)
CM
want=$("$T/p/bin/ibpart" --version)
want=$(grep -m1 -o '[0-9][0-9.]*' <<<"$want")
cc "${san[@]}" consumer/version.c $(pkg-config --cflags --libs ibpart) -o version_pc ||
  fail "pkg-config consumer does not build"
LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")") ./version_pc >version_pc.out || fail "pkg-config consumer does not run"
expect_grep "^$want $want headers $want\$" version_pc.out
# the API example, as its README line builds it, against the installed
# headers and library only: it applies and verifies the seed plan
cc "${san[@]}" "$IBP_SRC/examples/api/apply_verify.c" $(pkg-config --cflags --libs ibpart) \
  -o apply_verify || fail "examples/api/apply_verify.c does not build against the install"
LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")") ./apply_verify "$T/p/share/ibpart/examples/seed/seed.topo" \
  "$T/p/share/ibpart/examples/seed/partitions.conf" >apply_verify.out 2>&1 ||
  fail "the installed apply_verify failed: $(tail -5 apply_verify.out)"
expect_grep '^the fabric holds the plan' apply_verify.out
cmake -S consumer -B consumer-build -DCMAKE_PREFIX_PATH="$T/p" \
  -DCMAKE_C_FLAGS="${san[*]}" -DCMAKE_EXE_LINKER_FLAGS="${san[*]}" >cmake.log 2>&1 ||
  fail "find_package(ibpart) consumer does not configure: $(tail -20 cmake.log)"
cmake --build consumer-build >>cmake.log 2>&1 ||
  fail "find_package(ibpart) consumer does not build: $(tail -20 cmake.log)"
# the shared one runs through its build RPATH, which points into <prefix>
for k in shared static; do
  consumer-build/version_$k >version_$k.out || fail "find_package consumer version_$k does not run"
  expect_grep "^$want $want headers $want\$" version_$k.out
done
# (ldd into a variable: with pipefail, grep -q closing the pipe early
# would fail the pipeline on ldd's SIGPIPE)
ldd_shared=$(ldd consumer-build/version_shared)
ldd_static=$(ldd consumer-build/version_static)
grep -q "$T/p/lib.*/libibpart\.so" <<<"$ldd_shared" ||
  fail "ibpart::ibpart consumer does not load the installed libibpart.so"
grep -q 'libibpart\.so' <<<"$ldd_static" &&
  fail "ibpart::ibpart_static consumer loads libibpart.so"
# a version the package does not satisfy is refused
sed -i 's/find_package(ibpart 0.1 REQUIRED)/find_package(ibpart 99 REQUIRED)/' consumer/CMakeLists.txt
cmake -S consumer -B consumer-build99 -DCMAKE_PREFIX_PATH="$T/p" >cmake99.log 2>&1 &&
  fail "find_package(ibpart 99) accepted version $want"
finish
