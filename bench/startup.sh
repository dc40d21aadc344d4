#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Startup: the time from exec of grundyd, with its defaults (the default
# table file beside the executable, as scripts/run.sh starts it, on a free
# port), to the first 200 on GET /healthz. RUNS runs (10); prints each, the
# median and the maximum, and exits 1 when the median exceeds LIMIT_MS (100).
#
# The poll is tight: one Python process starts grundyd and retries the
# connection without sleeping, so the figure is the daemon's, not a
# client's start-up (a curl per poll would add milliseconds).
#
# Usage: bench/startup.sh [BUILD_DIR]   (default build-release, configured
# and built as scripts/run.sh does, table file included, when missing)
# Environment: RUNS (10), LIMIT_MS (100). Needs python3; loopback only.
set -euo pipefail
bench_name=startup.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
bench_build "$build"
[[ -f $build/grundy.tables ]] || { echo "startup.sh: no $build/grundy.tables" >&2; exit 2; }
echo "== startup: exec to the first 200 on /healthz, $(du -h "$build/grundy.tables" | cut -f1) table file, ${RUNS:-10} runs"
exec python3 - "$build/grundyd" "${RUNS:-10}" "${LIMIT_MS:-100}" <<'PY'
import socket, statistics, subprocess, sys, time

grundyd, runs, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(port):
    """True on a 200 from GET /healthz; False while nothing listens."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except (ConnectionRefusedError, ConnectionResetError):
        return False


times = []
for i in range(runs):
    port = free_port()
    t0 = time.perf_counter_ns()
    p = subprocess.Popen([grundyd, "--host", "127.0.0.1", "--port", str(port)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not healthy(port):
        if p.poll() is not None or time.monotonic() > deadline:
            sys.exit("startup.sh: grundyd %s after run %d" % ("exited" if p.poll() is not None else "not healthy in 10 s", i + 1))
    ms = (time.perf_counter_ns() - t0) / 1e6
    p.terminate()
    p.wait(15)
    times.append(ms)
    print("   run %2d: %6.1f ms" % (i + 1, ms))
med = statistics.median(times)
print("   median %.1f ms, max %.1f ms (limit: median <= %g ms)" % (med, max(times), limit))
sys.exit(0 if med <= limit else 1)
PY
