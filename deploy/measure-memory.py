#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Measures grundyd's memory with the default table file, to size the
Kubernetes resources (deploy/kubernetes/base/deployment.yaml) and the systemd
unit's MemoryMax from numbers rather than guesses.

    deploy/measure-memory.py build-release/grundyd [ROUNDS]

Starts grundyd on a free loopback port with the settings of the base
ConfigMap (2 HTTP and 2 compute threads, 64 MiB cache), then reads
/proc/PID/status (VmRSS split into RssFile, the shared table mapping, and
RssAnon, the daemon's own memory; and VmHWM, the peak of the phase that
ended there, reset through /proc/PID/clear_refs) at four points: ready;
after light queries; after rounds of the heaviest queries the default limits
allow, four at a time (a 500 x 500 grid, a graph of 60,000 edges, uncached
subtraction and octal period searches, Grundy's game beyond the table, an
NDJSON stream of 20,000 lines); and after the cache has filled with distinct
subtraction sets. Prints one line per point and the peak. Python 3 stdlib
only; every request has a timeout; grundyd is stopped with SIGTERM.
"""

import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor


def status(pid):
    """kB figures of /proc/PID/status."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            m = re.match(r"^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem|Threads):\s+(\d+)", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


def post(port, path, body, ctype="application/json", timeout=60):
    """The status of one POST, or the name of the exception that ended it."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("POST", path, body=body, headers={"Content-Type": ctype})
        r = c.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException) as e:
        return type(e).__name__
    finally:
        c.close()


def heavy_queries(rnd):
    """The heaviest single queries the default limits let through."""
    edges = [[i, rnd.randrange(i + 1, 30001)] for i in range(30000) for _ in range(2)]
    qs = [
        {"game": "grid", "rows": 500, "cols": 500, "tokens": [[250, 250], [10, 490]]},
        {"game": "graph", "edges": edges, "tokens": [0, 1, 2]},
        {"game": "subtraction", "moves": sorted(rnd.sample(range(1, 4000), 40)), "piles": [10**18]},
        {"game": "octal", "code": "0.%d%d%d%d" % tuple(rnd.randrange(1, 8) for _ in range(4)),
         "piles": [5000]},
        {"game": "grundys_game", "piles": [5000000]},
        {"game": "mnk", "rows": 5, "cols": 5, "k": 4, "board": "." * 25},
        {"game": "stone_row", "stones": [rnd.randrange(0, 10**9) for _ in range(4000)]},
    ]
    return [("/v1/analyze", json.dumps(q, separators=(",", ":")), "application/json") for q in qs]


def ndjson_stream(rnd, lines=20000):
    body = "\n".join(json.dumps({"game": "nim", "piles": [rnd.randrange(0, 10**18) for _ in range(8)]})
                     for _ in range(lines)) + "\n"
    return ("/v1/batch", body, "application/x-ndjson")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    grundyd = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    env = dict(os.environ, GRUNDYD_THREADS="2", GRUNDYD_COMPUTE_THREADS="2", GRUNDYD_CACHE_BYTES="67108864",
               GRUNDYD_ACCESS_LOG="off")
    proc = subprocess.Popen([grundyd, "--host", "127.0.0.1", "--port", "0"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port = None
    deadline = time.monotonic() + 30
    lines = []
    while port is None and time.monotonic() < deadline:
        line = proc.stderr.readline().decode()
        if not line:
            break
        lines.append(line)
        m = re.search(r"event=ready .*addr=\S+:(\d+)", line)
        if m:
            port = int(m.group(1))
    if port is None:
        proc.kill()
        sys.exit("grundyd did not start: %r" % lines)
    threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()
    rnd = random.Random(8)

    def reset_peak():
        """Starts a new peak (VmHWM) for the next phase; Linux only."""
        try:
            with open("/proc/%d/clear_refs" % proc.pid, "w") as f:
                f.write("5")
        except OSError:
            pass

    def show(point):
        s = status(proc.pid)
        reset_peak()
        print("%-44s VmRSS %4d MiB (file %3d, anon %4d)  peak %4d MiB  threads %d" % (
            point, s["VmRSS"] // 1024, s.get("RssFile", 0) // 1024, s.get("RssAnon", 0) // 1024,
            s["VmHWM"] // 1024, s.get("Threads", 0)))
        sys.stdout.flush()

    try:
        show("ready (tables mapped)")
        for i in range(200):
            post(port, "/v1/analyze", json.dumps({"game": "nim", "piles": [i, i + 1, 2 * i + 3]}))
        show("after 200 light queries")
        statuses = {}
        with ThreadPoolExecutor(4) as pool:
            for _ in range(rounds):
                work = heavy_queries(rnd) + [ndjson_stream(rnd)]
                for st in pool.map(lambda w: post(port, *w, timeout=120), work):
                    statuses[st] = statuses.get(st, 0) + 1
        show("after %d rounds of heavy queries, 4 at once" % rounds)
        with ThreadPoolExecutor(4) as pool:
            sets = [sorted(rnd.sample(range(1, 3000), 12)) for _ in range(200)]
            for st in pool.map(lambda m: post(port, "/v1/analyze", json.dumps(
                    {"game": "subtraction", "moves": m, "piles": [10**12]})), sets):
                statuses[st] = statuses.get(st, 0) + 1
        show("after 200 distinct subtraction sets (cache)")
        print("statuses: %s" % dict(sorted(statuses.items())))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
