#!/usr/bin/env bash
# ibpartd_flood.sh - the attack of issue 28, bounded and on loopback
# only: 2,000 connections without credentials from 20 addresses
# (127.0.1.1-20, 100 each) - half announcing a 1 MiB body and sending
# 16 KiB of it, half trickling a request line a byte at a time - held
# for a few seconds.  Meanwhile an authorised client (127.0.0.2) is
# still answered within 5 s, the daemon's memory (VmRSS) grows by less
# than 32 MiB (measured: 8 MB -> 15.5 MB), no address holds more than --per-ip-connections, a trickling
# connection is cut at --request-timeout (3 s here) however it trickles,
# and the refusals are in the log.  Before issue 28 the daemon read the
# bodies before the credentials (60 such connections: 73 MB) and past
# 1,024 descriptors (select) refused every other client.  The flood
# stops by itself (at most 2,000 connections, 25 s), then the daemon is
# stopped and must exit 0.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
command -v python3 >/dev/null || { echo "SKIP: python3 is needed" >&2; exit 77; }
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
ibpd_start --request-timeout 3 --per-ip-connections 32 --threads 2 || { fail "ibpartd did not start"; finish; }

cat >flood.py <<'PY'
import json, os, resource, select, socket, subprocess, sys, time
port, pid, url = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
N, ADDRS, GROWTH_MAX_KB = 2000, 20, int(sys.argv[4]) * 1024
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < N + 200:
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, N + 200), hard))
deadline = time.monotonic() + 25
def rss_kb():
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1
out = {"rss_before_kb": rss_kb()}
body_head = (b"POST /ufmRest/resources/pkeys HTTP/1.1\r\nHost: x\r\n"
             b"Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n")
chunk = b"[" * 16384
socks, refused = [], 0
for i in range(N):
    if time.monotonic() > deadline:
        break
    src = "127.0.1.%d" % (i % ADDRS + 1)
    s = socket.socket()
    s.setblocking(False)
    try:
        s.bind((src, 0))
        s.connect_ex(("127.0.0.1", port))
    except OSError:
        refused += 1
        s.close()
        continue
    socks.append((s, i % 2, src))
out["attempted"] = len(socks) + refused
# each sends what its kind sends once its connect is through (or has
# failed: the daemon refused it), within 5 s
pending = {s.fileno(): (s, kind) for s, kind, src in socks}
poller = select.poll()
for fd in pending:
    poller.register(fd, select.POLLOUT)
t_send = time.monotonic() + 5
while pending and time.monotonic() < t_send:
    for fd, ev in poller.poll(100):
        s, kind = pending.pop(fd)
        poller.unregister(fd)
        try:
            if kind == 0:
                s.send(body_head)
                s.send(chunk)
            else:
                s.send(b"G")
        except OSError:
            pass
out["sent"] = len(socks) - len(pending)
# the authorised client, while the flood is held
t = time.monotonic()
r = subprocess.run(["curl", "-s", "-m", "5", "-o", "/dev/null", "-w", "%{http_code}",
                    "--interface", "127.0.0.2", "-u", "admin:secret", url + "/ufmRest/resources/pkeys"],
                   capture_output=True, text=True)
out["authorised_status"] = r.stdout
out["authorised_seconds"] = round(time.monotonic() - t, 3)
# those the daemon refused (reset), and any connect the kernel's full
# accept queue dropped (retrying its SYN for up to a minute: not the
# daemon's), are closed here; the rest are held
held = []
for s, kind, src in socks:
    try:
        s.getpeername()
        held.append((s, kind, src))
    except OSError:
        s.close()
out["closed_or_connecting"] = len(socks) - len(held)
socks = held
# hold them: trickle a byte to the trickling ones every 0.5 s, watch
# memory, until the daemon has closed every one (or 15 s have passed)
def alive_now():
    alive = {}
    for s, kind, src in socks:
        gone = False
        try:
            while True:  # an answer (401) first, then the end
                if not s.recv(65536):
                    gone = True
                    break
        except BlockingIOError:
            pass
        except OSError:
            gone = True
        if not gone:
            alive[src] = alive.get(src, 0) + 1
    return alive
t0 = time.monotonic()
peak, t_end = rss_kb(), min(deadline, t0 + 15)
alive = alive_now()
while alive and time.monotonic() < t_end:
    for s, kind, src in socks:
        if kind == 1:
            try:
                s.send(b"E")
            except OSError:
                pass
    peak = max(peak, rss_kb())
    time.sleep(0.5)
    alive = alive_now()
out["rss_peak_kb"] = peak
out["all_closed_after_s"] = round(time.monotonic() - t0, 1)
out["alive_max_per_addr"] = max(alive.values()) if alive else 0
out["alive_total"] = sum(alive.values())
out["growth_max_kb"] = GROWTH_MAX_KB
for s, _, _ in socks:
    s.close()
print(json.dumps(out))
PY
# the bound on the daemon's growth: 32 MiB (about 15 MB measured: 640
# connections admitted at most, 24 KiB of libmicrohttpd buffer each);
# ASan's quarantine keeps what is freed, so more there
growth=32
[[ ${IBP_SANITIZE-} == 1 ]] && growth=256
res=$(python3 flood.py "$IBPD_PORT" "$IBPD_PID" "$IBPD_URL" "$growth") || fail "the flood script failed"
echo "flood: $res"
jq -e '.attempted == 2000' <<<"$res" >/dev/null || fail "not 2,000 connections tried: $res"
jq -e '.authorised_status == "200"' <<<"$res" >/dev/null || fail "the authorised client was not answered during the flood: $res"
jq -e '.rss_peak_kb - .rss_before_kb < .growth_max_kb' <<<"$res" >/dev/null || fail "VmRSS grew over $growth MiB under the flood: $res"
# trickling for 15 s with --request-timeout 3: none is left (each is
# cut 3 s after it was accepted; the 1 MiB ones were answered 401 and
# closed at once)
jq -e '.alive_total == 0' <<<"$res" >/dev/null || fail "connections outlived --request-timeout: $res"
grep -q 'no whole request in 3 s (--request-timeout)' "$IBPD_LOG" || fail "the cut connections are not logged"
grep -q 'refused by libmicrohttpd: .*' "$IBPD_LOG" || fail "the per-address refusals are not logged"
grep -q 'access: POST /ufmRest/resources/pkeys 401 user=- via=- from=127.0.1.' "$IBPD_LOG" || fail "the 401s are not logged"

# the per-address limit alone: 40 idle connections from one address,
# at most 32 kept (the rest closed at once)
cat >peraddr.py <<'PY'
import select, socket, sys, time
port = int(sys.argv[1])
socks = []
for i in range(40):
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.9", 0))
    socks.append(s)
deadline = time.monotonic() + 5
closed = 0
while time.monotonic() < deadline:
    closed = 0
    for s in socks:
        p = select.poll()
        p.register(s, select.POLLIN)
        if p.poll(0) and not s.recv(1, socket.MSG_PEEK):
            closed += 1
    if closed >= 8:
        break
    time.sleep(0.05)
print(closed)
for s in socks:
    s.close()
PY
closed=$(python3 peraddr.py "$IBPD_PORT")
# (at least 8: on a slow machine the idle ones may also reach the 3 s)
((closed >= 8)) || fail "40 connections from one address with --per-ip-connections 32: $closed closed, want 8"

ibpd_req GET /ufmRest/resources/pkeys
[[ $CODE == 200 ]] || fail "after the flood: $CODE"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
