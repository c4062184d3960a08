#!/usr/bin/env bash
# deb.sh [OUTDIR] - the Debian binary packages of ibpart (debian/), built
# with debhelper from a copy of the sources in OUTDIR (default build-deb),
# then checked with lintian.  The version is the one in CMakeLists.txt's
# project() (the one place it is written): debian/changelog is made from
# it in the copy, so the repository never carries a second version.
# Prints the packages and lintian's verdict; exit 1 when lintian reports
# an error, 2 when the build fails.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mkdir -p "${1:-build-deb}" && cd "${1:-build-deb}" && pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
version=$(sed -n -E 's/^project\(ibpart VERSION ([0-9.]+).*/\1/p' "$SRC/CMakeLists.txt")
[[ -n $version ]] || { echo "deb: no version in CMakeLists.txt's project()" >&2; exit 2; }
stage=$OUT/ibpart-$version
rm -rf "$stage" "$OUT"/*.deb "$OUT"/*.changes "$OUT"/*.buildinfo
mkdir -p "$stage"

# the sources: what git tracks (and untracked files it does not ignore),
# else the tree less the build directories
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -co --exclude-standard -z |
    while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -C "$stage" -xf -
else
  tar -C "$SRC" --exclude='./build*' --exclude=./fuzz-out --exclude=./.git -cf - . | tar -C "$stage" -xf -
fi
maint="${DEBFULLNAME:-ibpart developers} <${DEBEMAIL:-ibpart@example.org}>"
sed -i "s|^Maintainer: .*|Maintainer: $maint|" "$stage/debian/control"
cat >"$stage/debian/changelog" <<CL
ibpart ($version) unstable; urgency=medium

  * Built from the ibpart sources; the version is CMakeLists.txt's.

 -- $maint  $(date -R)
CL

echo "deb: building ibpart $version in $stage (log: $OUT/build.log)"
if ! (cd "$stage" && DEB_BUILD_OPTIONS="parallel=$JOBS" dpkg-buildpackage -us -uc -b) >"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log" >&2
  echo "deb: dpkg-buildpackage failed (whole log: $OUT/build.log)" >&2
  exit 2
fi
ls -1 "$OUT"/*.deb
status=0
if command -v lintian >/dev/null; then
  lintian --fail-on error --info "$OUT"/*.changes >"$OUT/lintian.txt" 2>&1 || status=1
  echo "deb: lintian: $(grep -c '^E:' "$OUT/lintian.txt" || true) errors, $(grep -c '^W:' "$OUT/lintian.txt" || true) warnings ($OUT/lintian.txt)"
  grep -E '^(E|W):' "$OUT/lintian.txt" || true
else
  echo "deb: lintian not installed (scripts/deps.sh deb)" >&2
fi
exit $status
