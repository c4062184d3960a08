#!/usr/bin/env bash
# deps.sh [PROFILE] - install the Debian (12) packages ibpart needs for
# PROFILE, and only those that are missing: a machine that has them all
# runs no apt-get.  Idempotent; safe to run before every build.
#
#   build   compile the library and the programs (cmake, a C compiler,
#           pkg-config, jansson, libibumad, libibmad, SQLite; for ibpartd
#           libmicrohttpd, libsystemd, libcrypt)
#   demo    build + run `ibpart demo`: the demo runs on the built-in
#           simulated fabric, so this is the same set as build
#   test    everything the whole suite (make test) runs: build + cmocka,
#           clang (fuzzing), clang-format (style), OpenSM, ibsim and its
#           libumad2sim, infiniband-diags, jq, chromium (the HTML report)
#           (the default: `make deps`), and what `make deb` needs
#   deb     build + debhelper, lintian, bash-completion (make deb)
#
# --list prints the profile's packages instead of installing them.
set -euo pipefail

list=0
if [[ ${1:-} == --list ]]; then list=1; shift; fi
profile=${1:-test}

build=(
  build-essential cmake pkg-config                       # toolchain (cc, make, binutils)
  libjansson-dev libibumad-dev libibmad-dev              # JSON, MADs on a real port
  libsqlite3-dev                                         # the service's store
  libpq-dev                                              # the service's shared store (PostgreSQL, --store)
  libmicrohttpd-dev libsystemd-dev libcrypt-dev          # ibpartd: HTTP, sd_notify, crypt(3)
  libgnutls28-dev                                        # ibpartd: client certificates
  libkrb5-dev                                            # ibpartd: Kerberos (/ufmRestKrb)
)
case $profile in
build | demo) pkgs=("${build[@]}") ;;
deb) pkgs=("${build[@]}" debhelper lintian bash-completion) ;;
test)
  pkgs=("${build[@]}"
    libcmocka-dev                                        # unit tests
    clang clang-format                                   # fuzzing, style
    opensm ibsim-utils libumad2sim0 infiniband-diags     # the real peers in tests
    jq python3                                           # JSON in shell tests
    postgresql                                           # the shared store's tests (--store)
    prometheus                                           # promtool parses the exposition
    curl openssl                                         # ibpartd's tests: HTTP, passwd -6
    krb5-kdc krb5-admin-server krb5-user                   # a KDC on loopback, kinit
    chromium                                             # looks at the HTML report
    debhelper lintian bash-completion                    # make deb, the completion test
    liblsan0                                             # ibpartd's verify cycles under LeakSanitizer
  ) ;;
*)
  echo "usage: deps.sh [--list] [build|demo|deb|test]" >&2
  exit 2
  ;;
esac

if ((list)); then
  printf '%s\n' "${pkgs[@]}"
  exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "deps ($profile): installing ${missing[*]}" >&2
SUDO=
[[ $(id -u) -eq 0 ]] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# The suite runs its own Prometheus (and OpenSM) on its own ports: a
# package's postinst must not start the system-wide daemon as a side
# effect (policy-rc.d 101 = "not now", honoured by invoke-rc.d and
# deb-systemd-invoke), unless the machine already has a policy of its own.
policy=/usr/sbin/policy-rc.d
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\n# deps.sh (ibpart): no daemon starts while it installs\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  trap '$SUDO rm -f "$policy"' EXIT
fi
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
