#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Budgets in CPU time and queue waits, against the real grundyd on loopback,
with small limits (the bounds are loose: these are tests, not benchmarks).

- --query-cpu-ms 50, one compute thread: each heavy query (strange nim at
  10^18, an empty 8x8 board with k = 5, misere octal and Grundy's game heaps
  of 200, a subtraction set of 30 large moves, the divisor sieve to 1.6e7)
  ends within 3x its 50 ms of the daemon's CPU time (plus the kernel's
  10 ms accounting tick), the refused ones with a 422 limit_exceeded that
  names --query-cpu-ms; without the deadline each takes seconds.
- POST /v1/moves of a heavy position ends within the same bound.
- A JSON batch and an NDJSON stream of heavy queries followed by cheap ones
  (--batch-cpu-ms 100): the heavy ones stop at their deadline, the batch
  within 3x its CPU time plus the floors, and the cheap lines after them
  are answered.
- --query-cpu-ms 1000, --queue-wait-ms 250, one compute thread, four heavy
  queries at once: those that waited past 250 ms get 503 overloaded with
  Retry-After naming --queue-wait-ms when their wait runs out (well before
  the compute thread frees up), instead of running.
- The same daemon, NDJSON streams sent while the compute thread is busy
  for a second: a spooled one (chunked upload; HTTP/1.0) and a duplex one
  (Content-Length over HTTP/1.1, half the body sent, and the whole body
  sent before reading) each get one response, a 503 overloaded with
  Retry-After, when their 250 ms wait runs out, and no 200; each counts in
  grundyd_compute_rejected_total. With the pool free, both kinds stream
  every answer with a 200.
- GET /v1/games states the limits; --help lists the options.

Usage: test_budgets.py path/to/grundyd. Prints TAP."""

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import HOST, Client, Daemon, Tap, cpu_seconds, run_main  # noqa: E402
from metrics_text import metric  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 200
NDJSON = {"Content-Type": "application/x-ndjson"}
QUERY_CPU_MS, BATCH_CPU_MS = 50, 100
TICK_MS = 1000.0 / os.sysconf("SC_CLK_TCK")

SUB30 = sorted(random.Random(5).sample(range(1, 65537), 30))
HEAVY = [
    ("strange_nim [[10^18, 10^9]]", {"game": "strange_nim", "piles": [[10 ** 18, 10 ** 9]]}),
    ("mnk 8x8 k=5 empty", {"game": "mnk", "rows": 8, "cols": 8, "k": 5, "board": "." * 64}),
    ("octal 0.77 misere heap 200", {"game": "octal", "code": "0.77", "piles": [200], "convention": "misere"}),
    ("grundys_game misere heap 200", {"game": "grundys_game", "piles": [200], "convention": "misere"}),
    ("subtraction, 30 moves to 2^16", {"game": "subtraction", "moves": SUB30, "piles": [10 ** 18]}),
    ("divisor n = 16,000,000", {"game": "divisor", "n": 16000000}),
]
CHEAP = {"game": "can_i_win", "max_choosable": 4, "desired_total": 6}


def cpu_ms(d):
    return cpu_seconds(d.proc.pid) * 1000


def error_of(r):
    return ((r.json or {}).get("error") or {}) if r.json is not None else {}


def measured(d, c, method, path, body, headers=None):
    """The response and the daemon's CPU ms spent while it was answered."""
    c0 = cpu_ms(d)
    r = c.request(method, path, body, headers)
    return r, cpu_ms(d) - c0


def t_heavy_queries(d):
    c = Client(d.port, timeout=60)
    p = []
    bound = 3 * QUERY_CPU_MS + 2 * TICK_MS
    for name, q in HEAVY:
        r, used = measured(d, c, "POST", "/v1/analyze", q)
        err = error_of(r)
        TAP.diag("%-32s %4d %-16s CPU %4.0f ms, wall %4.0f ms"
                 % (name, r.status, err.get("code", "answered"), used, r.elapsed * 1000))
        if used > bound:
            p.append("%s: %.0f ms of CPU, over %.0f ms" % (name, used, bound))
        if r.status == 422:
            if err.get("code") != "limit_exceeded" or "--query-cpu-ms" not in err.get("message", "") \
                    or "50 ms of CPU time" not in err.get("message", ""):
                p.append("%s: %r" % (name, r.raw[:300]))
        elif r.status != 200:
            p.append("%s: %d %r" % (name, r.status, r.raw[:300]))
    c.close()
    return p


def t_moves(d):
    c = Client(d.port, timeout=60)
    r, used = measured(d, c, "POST", "/v1/moves", {"game": "mnk", "rows": 8, "cols": 8, "k": 5,
                                                   "board": "." * 64})
    c.close()
    TAP.diag("moves of an empty 8x8 board, k = 5: %d, CPU %.0f ms" % (r.status, used))
    p = []
    if used > 3 * QUERY_CPU_MS + 2 * TICK_MS:
        p.append("moves: %.0f ms of CPU" % used)
    if r.status not in (200, 422):
        p.append("moves: %d %r" % (r.status, r.raw[:300]))
    return p


def batch_problems(results, kind):
    p = []
    if len(results) != 7:
        return ["%s: %d results" % (kind, len(results))]
    for i, x in enumerate(results[:5]):
        code = (x.get("error") or {}).get("code")
        if code != "limit_exceeded":
            p.append("%s heavy query %d: %r" % (kind, i, json.dumps(x)[:200]))
    msgs = [(x.get("error") or {}).get("message", "") for x in results[:5]]
    if not any("--batch-cpu-ms" in m for m in msgs):
        p.append("%s: no heavy query names the batch's CPU time: %r" % (kind, msgs))
    if results[5].get("game") != "can_i_win" or results[6].get("game") != "nim":
        p.append("%s: the cheap queries after the heavy ones: %r" % (kind, results[5:]))
    return p


def t_batch_shared(d):
    c = Client(d.port, timeout=60)
    queries = [HEAVY[0][1]] * 5 + [CHEAP, {"game": "nim", "piles": [1, 2]}]
    bound = 3 * (BATCH_CPU_MS + QUERY_CPU_MS) + 2 * TICK_MS
    r, used = measured(d, c, "POST", "/v1/batch", {"queries": queries})
    TAP.diag("JSON batch of 5 heavy + 2 cheap: %d, CPU %.0f ms" % (r.status, used))
    p = []
    if r.status != 200:
        return ["JSON batch: %d %r" % (r.status, r.raw[:300])]
    p += batch_problems(r.json["results"], "JSON batch")
    if used > bound:
        p.append("JSON batch: %.0f ms of CPU, over %.0f ms" % (used, bound))
    body = "\n".join(json.dumps(q) for q in queries).encode()
    r, used = measured(d, c, "POST", "/v1/batch", body, NDJSON)
    TAP.diag("NDJSON of 5 heavy + 2 cheap: %d, CPU %.0f ms" % (r.status, used))
    if r.status != 200:
        return p + ["NDJSON: %d %r" % (r.status, r.raw[:300])]
    p += batch_problems([json.loads(x) for x in r.raw.decode().split("\n") if x], "NDJSON")
    if used > bound:
        p.append("NDJSON: %.0f ms of CPU, over %.0f ms" % (used, bound))
    c.close()
    return p


def t_queue_wait(binary):
    d = Daemon(binary, "--compute-threads", "1", "--threads", "4", "--query-cpu-ms", "1000",
               "--queue-wait-ms", "250", "--access-log", "off")
    out = [None] * 4
    ends = [None] * 4

    def one(i):
        c = Client(d.port, timeout=30, retry_on=())
        try:
            out[i] = c.post(HEAVY[0][1])
        except Exception as e:  # noqa: BLE001
            out[i] = e
        ends[i] = time.monotonic()
        c.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    wall = time.monotonic() - t0
    d.stop()
    p, n422, n503 = [], 0, 0
    # the compute thread first frees up when the first heavy query is answered
    freed = min([e for r, e in zip(out, ends) if getattr(r, "status", 0) == 422] or [float("inf")])
    for i, r in enumerate(out):
        if not hasattr(r, "status"):
            p.append("query %d: %r" % (i, r))
            continue
        err = error_of(r)
        if r.status == 503:
            n503 += 1
            if err.get("code") != "overloaded" or "--queue-wait-ms" not in err.get("message", "") \
                    or r.header("Retry-After") != "1":
                p.append("query %d: 503 %r, Retry-After %r" % (i, r.raw[:300], r.header("Retry-After")))
            # at its wait's end (250 ms), not when the compute thread frees up (1 s of CPU later): a
            # 503 sent as the thread frees would come within milliseconds of the heavy answer
            if ends[i] > freed - 0.2:
                p.append("query %d: the 503 came after %.2f s, not well before the first heavy answer"
                         % (i, r.elapsed))
        elif r.status == 422 and err.get("code") == "limit_exceeded":
            n422 += 1
        else:
            p.append("query %d: %d %r" % (i, r.status, r.raw[:300]))
    TAP.diag("4 heavy queries, 1 compute thread, 1000 ms each, --queue-wait-ms 250: %d x 422, %d x 503 "
             "(in at most %.2f s), all in %.2f s"
             % (n422, n503, max([r.elapsed for r in out if getattr(r, "status", 0) == 503] or [0]), wall))
    if n422 < 1 or n503 < 1:
        p.append("want at least one 422 and one 503: %d, %d" % (n422, n503))
    if wall > 6:  # one 1 s query runs; the rest are refused after 250 ms
        p.append("the four queries took %.2f s" % wall)
    return p


# ---- NDJSON streams and --queue-wait-ms ----------------------------------------

STREAM_LINES = [('{"id":%d,"game":"nim","piles":[%d,3]}\n' % (i, i)).encode() for i in range(2000)]
STREAM_BODY = b"".join(STREAM_LINES)  # about 70 KB: more than the first chunk the daemon reads


def stream_head(version="HTTP/1.1", framing=None):
    framing = framing or "Content-Length: %d" % len(STREAM_BODY)
    return ("POST /v1/batch %s\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n%s\r\n"
            "Connection: close\r\n\r\n" % (version, framing)).encode()


def chunked(body, size=8192):
    return b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
                    for i in range(0, len(body), size)) + b"0\r\n\r\n"


def dechunk(body):
    out = b""
    while True:
        size, _, rest = body.partition(b"\r\n")
        n = int(size, 16)
        if n == 0:
            return out
        out += rest[:n]
        body = rest[n + 2:]


def exchange(port, first, rest=b"", timeout=10):
    """Sends first and, with rest, waits up to a second for the response to
    begin: a duplex stream's 503 comes while the body is still short; rest
    is sent unless that came. Then reads to the end of the connection.
    (status, headers, body, the whole response, seconds from the first
    send to the end)."""
    s = socket.create_connection((HOST, port), timeout=timeout)
    t0 = time.monotonic()
    data = b""
    try:
        s.sendall(first)
        if rest:
            s.settimeout(1.0)
            try:
                data = s.recv(1 << 16)
            except socket.timeout:
                pass
            s.settimeout(timeout)
            if not data.startswith(b"HTTP/1.1 503 "):
                s.sendall(rest)
        while True:
            piece = s.recv(1 << 16)
            if not piece:
                break
            data += piece
    finally:
        s.close()
    elapsed = time.monotonic() - t0
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:] if ":" in x)}
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return int(lines[0].split()[1]), headers, body, data, elapsed


def stream_answers_problems(what, r):
    status, headers, body, _, _ = r
    if status != 200:
        return ["%s: %d %r" % (what, status, body[:300])]
    answers = [json.loads(x) for x in body.split(b"\n") if x]
    want = [{"id": i, "grundy": i ^ 3} for i in range(len(STREAM_LINES))]
    got = [{"id": a.get("id"), "grundy": a.get("grundy")} for a in answers]
    return [] if got == want else ["%s: %d answers, first differing %r" % (
        what, len(answers), next((a for a, w in zip(answers, want) if a.get("id") != w["id"]
                                  or a.get("grundy") != w["grundy"]), None))]


def refused_problems(what, r, came, heavy_came):
    """came, heavy_came: when the refusal and the heavy query's answer came."""
    status, headers, body, whole, elapsed = r
    err = {}
    try:
        err = json.loads(body).get("error") or {}
    except ValueError:
        pass
    p = []
    if status != 503 or err.get("code") != "overloaded" or "--queue-wait-ms" not in err.get("message", "") \
            or "stream waited" not in err.get("message", "") or headers.get("retry-after") != "1":
        p.append("%s: %d %r, headers %r" % (what, status, body[:300], headers))
    if whole.count(b"HTTP/1.") != 1 or b" 200 " in whole:
        p.append("%s: more than the 503 was sent: %r" % (what, whole[:400]))
    # at its wait's end (250 ms), not when the thread frees up (1 s of CPU later): a 503 sent as the
    # thread frees would come within milliseconds of the heavy answer
    if heavy_came is None or came > heavy_came - 0.2:
        p.append("%s: the 503 came after %.2f s, not well before the heavy query's answer" % (what, elapsed))
    return p


def rejected_total(port):
    return metric(port, "grundyd_compute_rejected_total")


def with_busy_pool(port, sends):
    """Runs each of sends (functions returning an exchange) in its own
    thread while a heavy query holds the one compute thread for a second;
    the outcomes, and when each came (time.monotonic(), the heavy one's
    last)."""
    out = [None] * (len(sends) + 1)
    ends = [None] * (len(sends) + 1)

    def heavy():
        c = Client(port, timeout=30, retry_on=())
        out[-1] = c.post(HEAVY[0][1])
        ends[-1] = time.monotonic()
        c.close()

    def one(i):
        try:
            out[i] = sends[i]()
        except Exception as e:  # noqa: BLE001
            out[i] = e
        ends[i] = time.monotonic()
    threads = [threading.Thread(target=heavy)] + [threading.Thread(target=one, args=(i,))
                                                  for i in range(len(sends))]
    jobs = metric(port, "grundyd_compute_jobs_total")
    threads[0].start()
    deadline = time.monotonic() + 5
    while metric(port, "grundyd_compute_jobs_total") == jobs and time.monotonic() < deadline:
        time.sleep(0.01)  # until the heavy query's job is queued (the idle compute thread takes it)
    for t in threads[1:]:
        t.start()
    for t in threads:
        t.join(30)
    return out, ends


def t_stream_wait(binary):
    d = Daemon(binary, "--compute-threads", "1", "--threads", "4", "--query-cpu-ms", "1000",
               "--queue-wait-ms", "250", "--access-log", "off")
    port, p = d.port, []
    before = rejected_total(port)
    half = len(STREAM_BODY) // 2
    kinds = [("spooled, chunked upload",
              lambda: exchange(port, stream_head(framing="Transfer-Encoding: chunked") + chunked(STREAM_BODY))),
             ("spooled, HTTP/1.0", lambda: exchange(port, stream_head("HTTP/1.0") + STREAM_BODY)),
             ("duplex, half the body sent", lambda: exchange(port, stream_head() + STREAM_BODY[:half],
                                                             STREAM_BODY[half:]))]
    # One duplex stream at a time with one compute thread (half of them, at least one).
    rounds = [kinds, [("duplex, the whole body sent", lambda: exchange(port, stream_head() + STREAM_BODY))]]
    refused = 0
    for r in rounds:
        out, ends = with_busy_pool(port, [send for _, send in r])
        for (what, _), got, came in zip(r, out, ends):
            if not isinstance(got, tuple):
                p.append("%s: %r" % (what, got))
                continue
            TAP.diag("%-30s %d in %.2f s" % (what, got[0], got[4]))
            refused += 1
            p += refused_problems(what, got, came, ends[-1])
        if getattr(out[-1], "status", None) not in (200, 422):
            p.append("the heavy query: %r" % (out[-1],))
    after = rejected_total(port)
    if after - before != refused:
        p.append("grundyd_compute_rejected_total went from %d to %d for %d refused streams" % (before, after, refused))
    p += stream_answers_problems("spooled, pool free", exchange(
        port, stream_head(framing="Transfer-Encoding: chunked") + chunked(STREAM_BODY)))
    p += stream_answers_problems("duplex, pool free", exchange(port, stream_head() + STREAM_BODY[:half],
                                                                STREAM_BODY[half:]))
    d.stop()
    return p


def t_limits_stated(d, binary):
    c = Client(d.port)
    limits = c.request("GET", "/v1/games").json["limits"]
    c.close()
    p = []
    if limits.get("query_cpu_ms") != QUERY_CPU_MS or limits.get("batch_cpu_ms") != BATCH_CPU_MS:
        p.append("/v1/games limits: %r" % limits)
    helptext = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=10).stdout
    for opt in ("--query-cpu-ms", "--batch-cpu-ms", "--queue-wait-ms"):
        if opt not in helptext:
            p.append("--help does not list %s" % opt)
    return p


def main():
    if len(sys.argv) != 2:
        print("usage: test_budgets.py path/to/grundyd", file=sys.stderr)
        return 2
    binary = sys.argv[1]

    def body():
        d = Daemon(binary, "--compute-threads", "1", "--query-cpu-ms", str(QUERY_CPU_MS),
                   "--batch-cpu-ms", str(BATCH_CPU_MS), "--queue-wait-ms", "100", "--access-log", "off")
        TAP.run("GET /v1/games and --help state the CPU limits", t_limits_stated, d, binary)
        TAP.run("heavy queries end within 3x --query-cpu-ms of CPU, refused naming it", t_heavy_queries, d)
        TAP.run("POST /v1/moves of a heavy position ends within 3x --query-cpu-ms", t_moves, d)
        TAP.run("a batch's CPU time is shared: cheap queries after heavy ones are answered",
                t_batch_shared, d)
        d.stop()
        TAP.run("queries that waited past --queue-wait-ms get 503 with Retry-After", t_queue_wait, binary)
        TAP.run("NDJSON streams that waited past --queue-wait-ms get 503 with Retry-After, no 200",
                t_stream_wait, binary)

    return run_main(TAP, "test_budgets.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
