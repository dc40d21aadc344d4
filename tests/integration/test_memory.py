#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests of query memory (include/grundy/alloc.h): every
allocation a query's solver makes is charged to it.

Usage: test_memory.py path/to/grundyd path/to/grundy

- past --query-memory a query is a 422 memory_limit naming the limit, on
  /v1/analyze, /v1/moves and for one query of a batch (the others are
  answered); the same queries answer under the default limit, and the
  answer's winning move is replayed; the CLI honours GRUNDYD_QUERY_MEMORY;
- eight heavy queries at once keep the anonymous resident size within
  --query-memory-total (plus slack): the ones that would pass it get 503
  overloaded with Retry-After;
- the anonymous resident size comes back after big queries (malloc_trim);
  these two are skipped for an AddressSanitizer build, whose allocator
  keeps freed memory in its quarantine;
- the defaults follow cgroup memory.max, options and variables win, and a
  per-query limit above the total is refused at start.
Figures (anonymous resident sizes) are printed as diagnostics. Prints TAP; Python 3
stdlib only; every wait is bounded.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Client, Daemon, Tap, log_fields, run_main  # noqa: E402

WATCHDOG_SECONDS = 240
TAP = Tap()
MIB = 1 << 20

# A path of 1000 x 1000 squares (one step down): about 27 MiB of graph for
# the solver, answered in a fraction of a second. The token at the top has
# 999 moves left: the mover wins (an odd count) by stepping once.
GRID = {"game": "grid", "rows": 1000, "cols": 1000, "steps": [[1, 0]], "tokens": [[0, 0]]}
# Misere Dawson's chess at 60: a search over multisets of heaps, some MiB.
MISERE = {"game": "octal", "code": "0.137", "piles": [60], "convention": "misere"}
# A subtraction set whose period is not found within the default CPU time:
# its values and windows grow to about 200 MiB in that time.
SUBTRACTION = {"game": "subtraction", "moves": [7, 40000, 65521], "piles": [10 ** 18]}
# Misere Kayles at 66: a search that grows for seconds (tens of MiB) until
# its CPU time runs out.
MISERE_LONG = {"game": "octal", "code": "0.77", "piles": [66], "convention": "misere"}


def rss_kb(pid):
    """The anonymous resident memory of pid in KiB (RssAnon): what queries
    allocate, without the table file's mapped pages (which the kernel may
    drop and which queries touch as they read), or None when gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def sanitized(binary):
    """Whether binary was built with AddressSanitizer, whose allocator (not
    glibc's) keeps freed memory in its quarantine and adds shadow memory:
    resident sizes then measure the sanitizer."""
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


def body_of(r):
    return json.loads(r.raw.decode())


def error_code(r):
    try:
        return body_of(r).get("error", {}).get("code")
    except ValueError:
        return None


def want_memory_limit(r, limit, field, what):
    p = []
    if r.status != 422 or error_code(r) != "memory_limit":
        return ["%s: %d %r, want 422 memory_limit" % (what, r.status, r.raw[:300])]
    e = body_of(r)["error"]
    if str(limit) not in e["message"] or "--query-memory" not in e["message"]:
        p.append("%s: message %r names neither the limit %d nor --query-memory" % (what, e["message"], limit))
    if field is not None and e["field"] != field:
        p.append("%s: field %r, want %r" % (what, e["field"], field))
    return p


def replay_grid(r):
    """The grid answer's move, replayed: the token left at row 1 has 998
    moves left, an even count, so the opponent (to move) loses."""
    b = body_of(r)
    p = []
    if r.status != 200 or b.get("winner") != "first" or b.get("grundy") != 1:
        return ["grid: %d %r, want winner first, grundy 1" % (r.status, r.raw[:300])]
    nxt = b["next"]["tokens"]
    if nxt != [[1, 0]]:
        p.append("grid: next %r, want [[1, 0]]" % (nxt,))
    elif (1000 - 1 - nxt[0][0]) % 2 != 0:
        p.append("grid: after the move the opponent has an odd number of moves left: a win for them")
    return p


def t_over_limit(binary, cli):
    limit = 4000000
    d = Daemon(binary, "--query-memory", str(limit))
    c = Client(d.port, timeout=120)
    p = want_memory_limit(c.post(GRID), limit, None, "grid")
    p += want_memory_limit(c.post(MISERE), limit, "piles[0]", "misere 0.137")
    p += want_memory_limit(c.post(SUBTRACTION), limit, None, "subtraction without a period in reach")
    p += want_memory_limit(c.request("POST", "/v1/moves", GRID), limit, None, "moves of grid")
    r = c.request("POST", "/v1/batch", {"queries": [GRID, {"game": "nim", "piles": [1, 2]}]})
    res = body_of(r).get("results", []) if r.status == 200 else []
    if len(res) != 2 or res[0].get("error", {}).get("code") != "memory_limit" or res[1].get("winner") != "first":
        p.append("batch [grid, nim]: %d %r, want memory_limit then an answer" % (r.status, r.raw[:400]))
    limits = body_of(c.request("GET", "/v1/games")).get("limits", {})
    if limits.get("query_memory") != limit:
        p.append("/v1/games limits.query_memory = %r, want %d" % (limits.get("query_memory"), limit))
    d.stop()
    d = Daemon(binary)
    c = Client(d.port, timeout=120)
    p += replay_grid(c.post(GRID))
    r = c.post(MISERE)
    if r.status != 200 or body_of(r).get("winner") != "first":
        p.append("misere 0.137 under the default limit: %d %r" % (r.status, r.raw[:300]))
    d.stop()
    env = dict(os.environ, GRUNDYD_QUERY_MEMORY=str(limit))
    out = subprocess.run([cli, "query", json.dumps(GRID)], env=env, capture_output=True, timeout=120)
    if out.returncode == 0 or b'"memory_limit"' not in out.stdout:
        p.append("grundy query with GRUNDYD_QUERY_MEMORY=%d: exit %d, %r" % (limit, out.returncode, out.stdout[:300]))
    env.pop("GRUNDYD_QUERY_MEMORY")
    out = subprocess.run([cli, "query", json.dumps(GRID)], env=env, capture_output=True, timeout=120)
    if out.returncode != 0 or b'"winner":"first"' not in out.stdout:
        p.append("grundy query without the variable: exit %d, %r" % (out.returncode, out.stdout[:300]))
    return p


class RssSampler:
    """The largest anonymous resident size of pid, read every few milliseconds until
    stopped."""

    def __init__(self, pid):
        self.pid = pid
        self.peak = rss_kb(pid) or 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.wait(0.005):
            self.peak = max(self.peak, rss_kb(self.pid) or 0)

    def stop(self):
        self.done.set()
        self.thread.join(5)
        return self.peak


def t_total_bound(binary):
    query, total, heavy = 64 * MIB, 96 * MIB, 8
    d = Daemon(binary, "--compute-threads", str(heavy), "--queue", "32", "--query-memory", str(query),
               "--query-memory-total", str(total), "--query-cpu-ms", "3000", "--queue-wait-ms", "0")
    warm = Client(d.port, timeout=60)
    warm.post({"game": "nim", "piles": [1]})
    base = rss_kb(d.proc.pid)
    sampler = RssSampler(d.proc.pid)
    replies = [None] * heavy
    start = threading.Barrier(heavy)

    def one(i):
        c = Client(d.port, timeout=180)
        start.wait(30)
        replies[i] = c.post(MISERE_LONG if i % 2 == 0 else GRID)
        c.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(heavy)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(200)
    peak = sampler.stop()
    grew = peak - base
    TAP.diag("%d heavy queries at once, --query-memory-total %d MiB: anonymous resident size %d -> peak %d KiB (+%d MiB)"
             % (heavy, total // MIB, base, peak, grew // 1024))
    p = []
    if any(r is None for r in replies):
        return ["a heavy query got no reply"]
    codes = [(r.status, error_code(r)) for r in replies]
    TAP.diag("replies: %r" % (codes,))
    allowed = {(200, None), (422, "limit_exceeded"), (422, "memory_limit"), (503, "overloaded")}
    p += ["reply %d: %r" % (i, replies[i].raw[:200]) for i, c in enumerate(codes) if c not in allowed]
    busy = [r for r in replies if r.status == 503]
    if not busy:
        p.append("no query was refused although %d of them need more than %d MiB together" % (heavy, total // MIB))
    for r in busy:
        if not r.header("Retry-After") or "--query-memory-total" not in body_of(r)["error"]["message"]:
            p.append("503 without Retry-After or without naming --query-memory-total: %r %r"
                     % (r.headers, r.raw[:300]))
    for i, r in enumerate(replies):
        if r.status == 200 and i % 2 == 1:
            p += replay_grid(r)
    slack = 40 * MIB
    if grew * 1024 > total + slack:
        p.append("the anonymous resident size grew by %d MiB with %d heavy queries at once: want at most the total, %d MiB, "
                 "and %d MiB of slack" % (grew // 1024, heavy, total // MIB, slack // MIB))
    d.stop()
    return p


def t_rss_returns(binary):
    d = Daemon(binary, "--query-cpu-ms", "1000")
    c = Client(d.port, timeout=120)
    c.post({"game": "nim", "piles": [1]})
    c.post(GRID)  # the first big query maps what the allocator keeps for good (its arenas' headers)
    time.sleep(0.2)
    base = rss_kb(d.proc.pid)
    p = []
    tolerance = 8 * 1024
    for name, q in (("grid", GRID), ("misere 0.137", MISERE), ("grid again", GRID), ("misere 0.77", MISERE_LONG)):
        sampler = RssSampler(d.proc.pid)
        r = c.post(q)
        peak = sampler.stop()
        time.sleep(0.2)
        after = rss_kb(d.proc.pid)
        TAP.diag("%s: %d, anonymous resident size %d -> peak %d -> %d KiB after" % (name, r.status, base, peak, after))
        if r.status not in (200, 422):
            p.append("%s: %d %r" % (name, r.status, r.raw[:200]))
        if after - base > tolerance:
            p.append("%s: the anonymous resident size stayed %d KiB above where it was (tolerance %d KiB)"
                     % (name, after - base, tolerance))
    d.stop()
    return p


def fake_root(tmp, memory_max):
    root = tempfile.mkdtemp(dir=tmp)
    if memory_max is not None:
        with open(os.path.join(root, "memory.max"), "w") as f:
            f.write(memory_max + "\n")
    return dict(os.environ, GRUNDYD_CGROUP_ROOT=root)


def ready_fields(binary, args=(), env=None):
    d = Daemon(binary, *args, env=env)
    try:
        return log_fields(d.ready_line())
    finally:
        d.stop()


def t_defaults(binary, tmp):
    p = []
    cases = [
        (None, [], {"query_memory": "268435456", "query_memory_from": "default",
                    "query_memory_total": "1073741824", "query_memory_total_from": "default"}),
        ("268435456", [], {"query_memory": "33554432", "query_memory_from": "1/8 of cgroup memory.max",
                           "query_memory_total": "134217728",
                           "query_memory_total_from": "1/2 of cgroup memory.max"}),
        ("268435456", ["--query-memory", "1000000"], {"query_memory": "1000000", "query_memory_from": "--query-memory",
                                                      "query_memory_total": "134217728"}),
        (None, ["--query-memory-total", "100000000"], {"query_memory": "100000000",
                                                       "query_memory_from": "--query-memory-total"}),
        ("max", ["--query-memory-total", "0", "--query-memory", "0"],
         {"query_memory": "0", "query_memory_total": "0", "query_memory_total_from": "--query-memory-total"}),
    ]
    for memory_max, args, want in cases:
        f = ready_fields(binary, args, env=fake_root(tmp, memory_max))
        p += ["memory.max %r %r: %s=%r, want %r" % (memory_max, args, k, f.get(k), v)
              for k, v in want.items() if f.get(k) != v]
    env = dict(fake_root(tmp, None), GRUNDYD_QUERY_MEMORY="5000000")
    f = ready_fields(binary, env=env)
    if f.get("query_memory") != "5000000" or f.get("query_memory_from") != "GRUNDYD_QUERY_MEMORY":
        p.append("GRUNDYD_QUERY_MEMORY=5000000: ready line %r" % (f,))
    out = subprocess.run([binary, "--port", "0", "--query-memory", "2000000", "--query-memory-total", "1000000"],
                         capture_output=True, timeout=30)
    if out.returncode == 0 or b"--query-memory-total" not in out.stderr:
        p.append("--query-memory above --query-memory-total: exit %d, %r" % (out.returncode, out.stderr[:300]))
    return p


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    binary, cli = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="grundy-memory-")

    def body():
        TAP.run("past --query-memory a query is a 422 memory_limit (analyze, moves, batch, CLI)",
                t_over_limit, binary, cli)
        bounds = ("heavy queries at once stay within --query-memory-total; the rest get 503",
                  "the anonymous resident size comes back after big queries")
        if sanitized(binary):
            for name in bounds:
                TAP.skip(name, "an AddressSanitizer build: its quarantine and shadow memory are in the resident size")
        else:
            TAP.run(bounds[0], t_total_bound, binary)
            TAP.run(bounds[1], t_rss_returns, binary)
        TAP.run("defaults from cgroup memory.max; options and variables win", t_defaults, binary, tmp)

    def cleanup():
        subprocess.run(["rm", "-rf", tmp], check=False)

    return run_main(TAP, "test_memory.py", WATCHDOG_SECONDS, body, cleanup)


if __name__ == "__main__":
    sys.exit(main())
