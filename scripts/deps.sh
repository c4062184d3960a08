#!/usr/bin/env bash
# Install the Debian packages ibpart needs to build, test and demo, and
# only those that are missing: a machine that has them all runs no apt-get.
# Idempotent; safe to run before every build.
set -euo pipefail

pkgs=(
  build-essential cmake pkg-config clang clang-format    # toolchain, fuzzing, style
  libjansson-dev libcmocka-dev                           # JSON, unit tests
  libibumad-dev libibmad-dev                             # MADs on a real port
  opensm ibsim-utils infiniband-diags                    # the real peers in tests
  jq                                                     # JSON in shell tests
  chromium                                               # looks at the HTML report
)

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=
[[ $(id -u) -eq 0 ]] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
