#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Slowloris: how long a new client waits while HOLD connections (2000) are
# held against grundyd with its defaults (--conn-limit 1024, --header-timeout
# 5, --conn-timeout 30). The holders open their connections at once and
# either stay silent (MODE=idle) or trickle a request head, one header line
# every 10 s (MODE=trickle, the default); a holder that is cut reconnects
# 0.1 s later, as an attacker would (sooner only burns the shared CPU). Meanwhile a probe opens a new connection every
# 0.5 s and sends GET /healthz: it records the time to the first byte of any
# answer (a 503 counts: the client was told) and the time until a 200,
# retrying at once after a 503 or a dropped connection. Prints the median,
# 90th percentile and maximum of both over DURATION seconds (30), and how
# the probes were answered.
#
# Usage: bench/slowloris.sh [BUILD_DIR]   (default build-release, configured
# and built when missing; any grundyd build dir works, such as an older one
# to compare). Environment: HOLD (2000), MODE (trickle|idle), DURATION (30).
# Needs python3 and ulimit -n above 2 x HOLD; loopback only.
set -euo pipefail
bench_name=slowloris.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
[[ -x $build/grundyd ]] || bench_build "$build"
ulimit -n 16384
bench_scratch
port=$(free_port)
(cd "$build" && exec ./grundyd --port "$port" --access-log off 2>"$work/grundyd.log") &
pids+=($!)
wait_up "http://127.0.0.1:$port/v1/analyze"
echo "== slowloris: ${HOLD:-2000} connections held (${MODE:-trickle}) for ${DURATION:-30} s, default limits"
python3 - "$port" "${HOLD:-2000}" "${MODE:-trickle}" "${DURATION:-30}" <<'PY'
import selectors, socket, statistics, sys, threading, time

port, hold, mode, duration = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
stop = threading.Event()
cuts = [0]


def holders():
    sel = selectors.DefaultSelector()
    socks = {}  # socket -> [time of its next line, whether its request line went]

    def opened():
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_READ)
        socks[s] = [time.monotonic() + (0.2 if mode == "trickle" else 1e12), False]

    for _ in range(hold):
        opened()
    reopen = []  # times at which a cut holder reconnects
    while not stop.is_set():
        now = time.monotonic()
        while reopen and reopen[0] <= now:
            reopen.pop(0)
            opened()
        for key, _ in sel.select(0.2):
            s = key.fileobj
            try:
                gone = s.recv(4096) == b""
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone:
                cuts[0] += 1
                sel.unregister(s)
                del socks[s]
                s.close()
                reopen.append(time.monotonic() + 0.1)
        now = time.monotonic()
        for s, state in socks.items():
            if state[0] <= now:
                try:
                    s.send(b"X-a: b\r\n" if state[1] else b"GET /healthz HTTP/1.1\r\n")
                except OSError:
                    pass
                state[0], state[1] = now + 10, True
    for s in socks:
        s.close()


def probe():
    """(seconds to the first answer byte, seconds to a 200, first status)."""
    t0 = time.monotonic()
    first = None
    status0 = None
    while time.monotonic() - t0 < 60:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = s.recv(64)
            s.close()
        except OSError:
            data = b""
        if data and first is None:
            first = time.monotonic() - t0
            status0 = data[9:12].decode()
        if data.startswith(b"HTTP/1.1 200"):
            return first, time.monotonic() - t0, status0
    return first, None, status0


t = threading.Thread(target=holders, daemon=True)
t.start()
time.sleep(3)
firsts, oks, statuses = [], [], {}
end = time.monotonic() + duration
while time.monotonic() < end:
    f, ok, st = probe()
    firsts.append(f if f is not None else float("inf"))
    oks.append(ok if ok is not None else float("inf"))
    statuses[st] = statuses.get(st, 0) + 1
    time.sleep(0.5)
stop.set()
t.join(5)


def show(name, xs):
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(len(xs) * 0.9))]
    print("%-22s median %.3f s, p90 %.3f s, max %.3f s" % (name, statistics.median(xs), p90, xs[-1]))


print("probes: %d; first answers by status: %s; holder connections cut and reopened: %d"
      % (len(firsts), statuses, cuts[0]))
show("time to any answer", firsts)
show("time to a 200", oks)
PY
