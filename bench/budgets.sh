#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Budgets: the CPU time each heavy query takes before its answer or its 422
# limit_exceeded, one query at a time, with the daemon's default deadline
# (--query-cpu-ms, 1000) or the one QUERY_CPU_MS sets. The CPU time is the
# daemon's (utime + stime of /proc/PID/stat) before and after the request,
# so it counts every thread that worked on the query. Prints query, CPU ms,
# wall ms, status and error code, and exits 1 when a query used more than
# FACTOR (1.2) times the deadline. Then CONCURRENT (8) heavy queries at once
# on the daemon's compute threads: each one's status and wall time, bounded
# by the queue wait (--queue-wait-ms) plus a deadline rather than by the
# queue's length.
#
# Usage: bench/budgets.sh [BUILD_DIR]   (default build-release, configured
# and built as scripts/run.sh does when missing)
# Environment: QUERY_CPU_MS (the daemon's default when unset), FACTOR (1.2),
# EXTRA_ARGS (more grundyd options). Needs python3; loopback only.
set -euo pipefail
bench_name=budgets.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
bench_build "$build"
echo "== budgets: CPU time per heavy query, one at a time; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec python3 - "$build/grundyd" "${QUERY_CPU_MS:-}" "${FACTOR:-1.2}" "${EXTRA_ARGS:-}" "${CONCURRENT:-8}" <<'PY'
import http.client, json, os, random, socket, subprocess, sys, threading, time

grundyd, cpu_ms, factor, extra = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4].split()
concurrent = int(sys.argv[5])

# 30 moves up to 2^16 whose period search outlasts the deadline.
SUB30 = sorted(random.Random(5).sample(range(1, 65537), 30))
HEAVY = [
    ("strange_nim [[10^18, 10^9]]", "/v1/analyze",
     {"game": "strange_nim", "piles": [[10**18, 10**9]]}),
    ("mnk 8x8 k=5, empty board", "/v1/analyze",
     {"game": "mnk", "rows": 8, "cols": 8, "k": 5, "board": "." * 64}),
    ("octal 0.77 misere heap 200", "/v1/analyze",
     {"game": "octal", "code": "0.77", "piles": [200], "convention": "misere"}),
    ("subtraction with 30 moves", "/v1/analyze",
     {"game": "subtraction", "moves": SUB30, "piles": [10**18]}),
    ("grundys_game misere heap 200", "/v1/analyze",
     {"game": "grundys_game", "piles": [200], "convention": "misere"}),
    ("divisor n = 16,000,000", "/v1/analyze", {"game": "divisor", "n": 16000000}),
    ("fibonacci n = 22,000", "/v1/analyze", {"game": "fibonacci", "n": 22000}),
    ("stone_prefix 1800 piles", "/v1/analyze", {"game": "stone_prefix", "stones": [7] * 1800}),
    ("moves of octal 0.77 misere heap 200", "/v1/moves",
     {"game": "octal", "code": "0.77", "piles": [200], "convention": "misere"}),
    ("batch of 6 heavy + 1 trivial", "/v1/batch",
     {"queries": [{"game": "strange_nim", "piles": [[10**18, 10**9]]}] * 6 + [{"game": "nim", "piles": [1, 2]}]}),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ms_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


port = free_port()
args = [grundyd, "--host", "127.0.0.1", "--port", str(port), "--access-log", "off"] + extra
if cpu_ms:
    args += ["--query-cpu-ms", cpu_ms]
p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.02)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", "/v1/games")
    limits = json.loads(conn.getresponse().read())["limits"]
    deadline = limits.get("query_cpu_ms", 0)
    print("   deadline: %s ms per query, %s ms per batch (from GET /v1/games)"
          % (deadline, limits.get("batch_cpu_ms", "?")))
    print("   %-40s %8s %8s %6s  %s" % ("query", "CPU ms", "wall ms", "status", "code"))
    worst = 0.0
    for name, path, q in HEAVY:
        body = json.dumps(q)
        c0, t0 = cpu_ms_of(p.pid), time.monotonic()
        conn.request("POST", path, body, {"Content-Type": "application/json"})
        r = conn.getresponse()
        data = r.read()
        wall, cpu = (time.monotonic() - t0) * 1000, cpu_ms_of(p.pid) - c0
        code = ""
        try:
            doc = json.loads(data)
            if "error" in doc:
                code = doc["error"]["code"]
            elif "grundy" in doc:
                code = "answered, grundy %s" % ("null" if doc["grundy"] is None else "known")
            elif "results" in doc:
                codes = [x["error"]["code"] if "error" in x else "ok" for x in doc["results"]]
                code = " ".join(codes)
        except ValueError:
            code = "?"
        bound = deadline * (7 if path == "/v1/batch" else 1)
        print("   %-40s %8.0f %8.0f %6d  %s" % (name, cpu, wall, r.status, code))
        if path != "/v1/batch":
            worst = max(worst, cpu / deadline if deadline else 0)
    print("   worst single query: %.2fx the deadline (limit %.2fx)" % (worst, factor))
    out = [None] * concurrent

    def one(i):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        t0 = time.monotonic()
        c.request("POST", "/v1/analyze", json.dumps(HEAVY[0][2]), {"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        out[i] = (r.status, (time.monotonic() - t0) * 1000, r.getheader("Retry-After"))
        c.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(concurrent)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("   %d x %s at once: all answered in %.0f ms" % (concurrent, HEAVY[0][0], (time.monotonic() - t0) * 1000))
    for st, ms, ra in sorted(out, key=lambda x: x[1]):
        print("      %d after %5.0f ms%s" % (st, ms, "  Retry-After: %s" % ra if ra else ""))
    sys.exit(0 if deadline and worst <= factor else 1)
finally:
    p.terminate()
    p.wait(15)
PY
