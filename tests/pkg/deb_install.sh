#!/usr/bin/env bash
# deb_install.sh - the Debian packages `make deb` built (IBP_DEB_DIR,
# default $IBP_SRC/build-deb) unpacked into a scratch root with dpkg -x,
# as a machine that installed them would hold them: the installed ibpart
# runs the demo from its own share directory with only LD_LIBRARY_PATH
# pointing into the root (no RPATH in the binary), the shared library
# exports only ibp_ names, the manual, the completion and the -dev files
# are where Debian's tools look for them, and a program built against the
# unpacked -dev package (pkg-config) links and runs.
source "$IBP_SRC/tests/cli/lib.sh"
debs=${IBP_DEB_DIR:-$IBP_SRC/build-deb}
shopt -s nullglob
pkgs=("$debs"/*.deb)
if [[ ${#pkgs[@]} -eq 0 ]]; then
  echo "SKIP: no packages in $debs (make deb; make test builds them)" >&2
  exit 77
fi
version=$(sed -n -E 's/^project\(ibpart VERSION ([0-9.]+).*/\1/p' "$IBP_SRC/CMakeLists.txt")
for p in ibpart libibpart0 libibpart-dev ibpartd; do
  f=("$debs/${p}_${version}"_*.deb)
  [[ ${#f[@]} -eq 1 ]] || { fail "no $p $version package in $debs"; continue; }
  dpkg -x "${f[0]}" root || fail "dpkg -x ${f[0]}"
  # the control fields Debian's tools rely on
  [[ $(dpkg-deb -f "${f[0]}" Package) == "$p" ]] || fail "$p: Package field"
  [[ $(dpkg-deb -f "${f[0]}" Version) == "$version" ]] || fail "$p: Version is not $version"
done
R=$T/root
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=$R/usr/lib/$ma
bin=$R/usr/bin/ibpart
[[ -x $bin ]] || fail "no usr/bin/ibpart in the ibpart package"
[[ -e $lib/libibpart.so.0 ]] || fail "no libibpart.so.0 in libibpart0"
# no RPATH/RUNPATH: the installed program finds the library as Debian's do
readelf -d "$bin" >dyn
expect_no_grep 'RPATH\|RUNPATH' dyn
grep -q 'NEEDED.*libibpart.so.0' dyn || fail "ibpart does not link libibpart.so.0"
# without LD_LIBRARY_PATH it must not find a library outside the root
# (unless one is installed on this machine), with it, it runs
LD_LIBRARY_PATH=$lib expect_status 0 "$bin" --version
expect_grep "^ibpart $version" out
# the service: its version, and the shipped configuration read as the
# daemon reads it (every key known: the first complaint is the users
# file this machine does not have, not a key)
sbin=$R/usr/sbin/ibpartd
[[ -x $sbin ]] || fail "no usr/sbin/ibpartd in the ibpartd package"
LD_LIBRARY_PATH=$lib expect_status 0 "$sbin" --version
expect_grep "^ibpartd $version" out
! grep -q 'RPATH\|RUNPATH' <<<"$(readelf -d "$sbin")" || fail "ibpartd has an RPATH"
[[ -s $R/etc/ibpart/ibpartd.conf ]] || fail "no /etc/ibpart/ibpartd.conf"
# the guard's topology is set: a missing one is the first complaint
LD_LIBRARY_PATH=$lib expect_status 2 "$sbin" --config "$R/etc/ibpart/ibpartd.conf"
expect_grep "/etc/ibpart/fabric.topo: cannot read the topology the isolation guard audits" err
sed -e "s|/etc/ibpart/users|$T/no-users|" -e "s|/etc/ibpart/fabric.topo|$IBP_SRC/examples/seed/seed.topo|" \
  "$R/etc/ibpart/ibpartd.conf" >ibpartd.conf
LD_LIBRARY_PATH=$lib expect_status 2 "$sbin" --config ibpartd.conf
expect_grep "no-users: error: cannot read the users file" err
# the operator's documents, where Debian keeps them
for f in ibpartd/runbook.md ibpartd/ibpartd.md ibpartd/ufm-api.md ibpart/README.md ibpart/live.md \
  ibpart/examples/prometheus/ibpartd.yml; do
  [[ -s $R/usr/share/doc/$f || -s $R/usr/share/doc/$f.gz ]] || fail "no /usr/share/doc/$f"
done
[[ $(stat -c %a "$R/var/lib/ibpartd") == 700 ]] || fail "/var/lib/ibpartd is not 0700"
[[ -s $R/usr/share/man/man8/ibpartd.8.gz ]] || fail "no man8/ibpartd.8.gz"
dpkg-deb -e "$debs/ibpartd_${version}"_*.deb ctld
grep -qx /etc/ibpart/ibpartd.conf ctld/conffiles || fail "/etc/ibpart/ibpartd.conf is not a conffile"
# the demo, from the installed share directory (no IBP_EXAMPLES)
set +e
(cd / && LD_LIBRARY_PATH=$lib exec env -u IBP_EXAMPLES "$bin" demo) >demo.out 2>demo.err
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "the installed demo exited $rc: $(head -5 demo.err)"
expect_grep "^fabric: $R/usr/bin/../share/ibpart/examples/seed/seed.topo" demo.out
expect_grep 'equals the seed document.s table: all 42 cells' demo.out
# only ibp_ names exported
nm -D --defined-only "$lib/libibpart.so.0" | awk '$2 ~ /^[TDBRVW]$/ {sub(/@.*/, "", $3); print $3}' >syms
[[ -s syms ]] || fail "no exported symbols read from libibpart.so.0"
grep -v '^ibp_' syms >leaks || true
[[ ! -s leaks ]] || fail "libibpart.so.0 exports non-ibp_ names: $(head -5 leaks | tr '\n' ' ')"
# manual and completion where man and bash-completion look
[[ -s $R/usr/share/man/man1/ibpart.1.gz ]] || fail "no man1/ibpart.1.gz"
# (into a file first: under pipefail, grep -q leaving early makes zcat
# die of SIGPIPE and the pipeline fail although the line is there)
zcat "$R/usr/share/man/man1/ibpart.1.gz" >ibpart.1
grep -q '^\.SS ibpart verify' ibpart.1 || fail "ibpart.1.gz lacks the option lists"
[[ -s $R/usr/share/man/man5/ibpart-partitions.5.gz ]] || fail "no man5/ibpart-partitions.5.gz"
[[ -s $R/usr/share/bash-completion/completions/ibpart ]] || fail "no bash completion"
[[ -s $R/usr/share/doc/ibpart/copyright ]] || fail "no copyright file"
# the verify timer: its units as systemd reads them (systemd-analyze
# verify wants the program at the path ExecStart names: the root's)
for u in ibpart-verify.service ibpart-verify.timer ibpartd.service; do
  [[ -s $R/lib/systemd/system/$u ]] || fail "no lib/systemd/system/$u"
done
[[ -s $R/etc/default/ibpart-verify ]] || fail "no /etc/default/ibpart-verify"
dpkg-deb -e "$debs/ibpart_${version}"_*.deb ctl
grep -qx /etc/default/ibpart-verify ctl/conffiles || fail "/etc/default/ibpart-verify is not a conffile"
if command -v systemd-analyze >/dev/null && [[ -s $R/lib/systemd/system/ibpart-verify.service ]]; then
  mkdir -p units
  for u in ibpart-verify.service ibpart-verify.timer ibpartd.service; do
    sed -e "s|/usr/bin/ibpart|$R/usr/bin/ibpart|g" -e "s|/usr/sbin/ibpartd|$R/usr/sbin/ibpartd|g" \
      "$R/lib/systemd/system/$u" >"units/$u"
  done
  systemd-analyze verify --man=no units/ibpart-verify.service units/ibpart-verify.timer \
    units/ibpartd.service >sa.out 2>&1 ||
    fail "systemd-analyze verify: $(head -5 sa.out)"
  [[ ! -s sa.out ]] || fail "systemd-analyze warns: $(head -5 sa.out)"
fi
# the -dev package: a third party's build through pkg-config
pc=$lib/pkgconfig/ibpart.pc
[[ -s $pc ]] || fail "no pkgconfig/ibpart.pc in libibpart-dev"
[[ -s $lib/cmake/ibpart/ibpartConfig.cmake ]] || fail "no CMake package in libibpart-dev"
[[ -s $R/usr/include/ibpart/verify.h ]] || fail "no headers in libibpart-dev"
if [[ -s $pc ]]; then
  flags=$(PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR= pkg-config --cflags --libs ibpart) ||
    fail "pkg-config ibpart"
  # the .pc's prefix is relative to itself: it must point into the root
  inc=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --variable=includedir ibpart)
  [[ $(realpath -m "$inc") == "$R/usr/include" ]] || fail "pkg-config's includedir is not the root's: $inc"
  cc -o example "$IBP_SRC/examples/api/apply_verify.c" $flags || fail "the example does not build against the package"
  if [[ -x example ]]; then
    grep -q 'NEEDED.*libibpart.so.0' <<<"$(readelf -d example)" || fail "the example does not link libibpart.so.0"
    LD_LIBRARY_PATH=$lib expect_status 0 ./example "$IBP_SRC/examples/seed/seed.topo" "$IBP_SRC/examples/seed/partitions.conf"
  fi
fi
finish
