#!/usr/bin/env bash
# A run stopped while it writes its output file (^C, SIGTERM, SIGKILL)
# leaves the old file or none - never half a file and never a
# half-written temporary beside it (a named mkstemp file was left by
# every signal; the file is now unnamed, O_TMPFILE, until it is whole).
# The signal is sent at the moment the process holds the output open:
# /proc/PID/fd shows it (as "#N (deleted)" or "out.conf.tmpXXXXXX").
source "$(dirname "$0")/lib.sh"
set -m # background jobs take SIGINT (a script's `cmd &` ignores it otherwise)
[[ -d /proc/self/fd ]] || { echo "no /proc: cannot see when the file is open"; exit 77; }
python3 -c "
import sys
w = sys.stdout.write
w('Default=0x7fff : ALL=full ;\n')
for p in range(1, 1200):
    w('P%d=0x%04x :\n' % (p, p) + ',\n'.join('  0x%016x=full' % (0x1000000 + p * 1000 + i) for i in range(800)) + ' ;\n')
" >big.conf
"$IBPART" convert -o ref.conf big.conf
printf 'Default=0x7fff : ALL=full ;\n' >old.conf

# output_open PID: true once PID has an output file of $T open for writing
output_open() {
  local fd
  for fd in /proc/"$1"/fd/*; do
    case $(readlink "$fd" 2>/dev/null) in
      "$T"/out.conf.tmp* | "$T/#"*) return 0 ;;
    esac
  done
  return 1
}

for sig in INT TERM KILL; do
  for start in none old; do
    rm -f out.conf*
    [[ $start == old ]] && cp old.conf out.conf
    "$IBPART" convert -o "$T/out.conf" big.conf 2>/dev/null &
    pid=$!
    seen=0
    for _ in $(seq 1 4000); do
      if output_open "$pid"; then seen=1; break; fi
      kill -0 "$pid" 2>/dev/null || break
    done
    kill -"$sig" "$pid" 2>/dev/null || true
    wait "$pid" || true
    ((seen)) || echo "note: SIG$sig ($start) landed after the write"
    left=$(ls -A | grep -c '^out.conf.tmp' || true)
    [[ $left == 0 ]] || fail "SIG$sig with $start target: $(ls -A | grep '^out.conf.tmp') left behind"
    if [[ -e out.conf ]]; then
      cmp -s out.conf ref.conf || cmp -s out.conf old.conf ||
        fail "SIG$sig with $start target: out.conf is neither the old file nor the whole new one ($(wc -c <out.conf) bytes)"
    elif [[ $start == old ]]; then
      fail "SIG$sig: the old out.conf is gone"
    fi
  done
done
finish
