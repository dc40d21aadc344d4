#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Batch ids and the Prometheus metrics, against the real grundyd on loopback.

- A JSON batch echoes each query's `id` (integers to the 64-bit extremes,
  strings with escapes and non-ASCII, up to 128 characters) as the first
  member of its answer or its error, in order; the rest of each entry is the
  /v1/analyze answer; a bad id is the entry's 422 naming "id", with no id.
- NDJSON lines with ids of mixed types in shuffled order: line i answers
  line i with its id, so a client can match answers by id; once the batch
  budget is spent cheap lines are still answered, and a heavy line refused
  by what is left still carries its id.
- "id" outside a batch (/v1/analyze, /v1/moves) is a 422 that says so.
- The 413 of a JSON batch over --max-body names the NDJSON content type.
- /metrics from a fresh daemon after known traffic: batch queries counted
  under their game and error code, errors under their code, a 304 under
  status "304", grundyd_build_info with `grundyd --version`'s version, the
  process_* family against /proc, unit suffixes; `promtool check metrics`
  finds nothing (scripts/promtool.sh fetches promtool from Debian's
  prometheus package when none is installed).

Usage: test_batch_metrics.py path/to/grundyd. Prints TAP."""

import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import REPO_ROOT, Client, Daemon, Tap, cpu_seconds, proc_stat, run_main  # noqa: E402
from metrics_text import exact, scrape  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 150
NDJSON = {"Content-Type": "application/x-ndjson"}
I64_MIN, I64_MAX = -(2 ** 63), 2 ** 63 - 1


def ordered(raw):
    """JSON text parsed with member order kept (as lists of pairs) and
    integers exact (Python ints)."""
    return json.loads(raw, object_pairs_hook=list)


def split_id(entry):
    """(id or None, the entry without it) from an ordered entry; the id
    must be the first member."""
    if entry and entry[0][0] == "id":
        return entry[0][1], entry[1:]
    return None, entry


def analyze_body(c, query):
    q = {k: v for k, v in query.items() if k != "id"}
    r = c.post(q)
    return ordered(r.raw)


def code_of(entry):
    for k, v in entry:
        if k == "error":
            return dict(v).get("code"), dict(v).get("field")
    return None, None


# ---- ids in a JSON batch ------------------------------------------------------

GOOD_IDS = [0, I64_MIN, I64_MAX, 12, -1, "", "job-7", 'quote " back \\ slash', "ünïcödé ☃",
            "x" * 128, "7"]


def t_json_ids(port):
    c = Client(port)
    p = []
    queries = []
    for i, ident in enumerate(GOOD_IDS):
        q = {"id": ident, "game": "nim", "piles": [i, 3]} if i % 3 else \
            {"game": "divisor", "n": i + 2, "id": ident}
        queries.append(q)
    queries.append({"id": "err-1", "game": "chess"})            # an error keeps its id
    queries.append({"game": "nim", "piles": [5], "id": None})   # null: no id
    queries.append({"game": "nim", "piles": [6]})                # none
    r = c.request("POST", "/v1/batch", {"queries": queries})
    if r.status != 200:
        return ["JSON batch: %r" % r]
    results = dict(ordered(r.raw))["results"]
    if len(results) != len(queries):
        return ["%d results for %d queries" % (len(results), len(queries))]
    for i, (q, res) in enumerate(zip(queries, results)):
        got_id, rest = split_id(res)
        want_id = q.get("id")
        if got_id != want_id or (want_id is None and any(k == "id" for k, _ in res)):
            p.append("result %d: id %r, want %r (first member): %r" % (i, got_id, want_id, res[:2]))
        if type(got_id) is not type(want_id):
            p.append("result %d: id %r is a %s, sent a %s" % (i, got_id, type(got_id).__name__,
                                                              type(want_id).__name__))
        want = analyze_body(c, q)
        if rest != want:
            p.append("result %d: past its id, not the /v1/analyze body: %r" % (i, rest[:3]))
    # the digits themselves, not a rounded double
    if '"id":-9223372036854775808,' not in r.raw.decode() or '"id":9223372036854775807,' not in r.raw.decode():
        p.append("the 64-bit extremes are not echoed digit for digit")
    c.close()
    TAP.diag("JSON batch: %d ids echoed in order" % len(queries))
    return p


BAD_IDS = [
    ("1.5", "invalid_integer"), ("1e3", "invalid_integer"), ("9223372036854775808", "out_of_range"),
    ("-9223372036854775809", "out_of_range"), ('"' + "y" * 129 + '"', "invalid_field"),
    ("[1]", "invalid_field"), ("{\"a\":1}", "invalid_field"), ("true", "invalid_field"),
]


def t_json_bad_ids(port):
    c = Client(port)
    p = []
    entries = ['{"game":"nim","piles":[1],"id":%s}' % text for text, _ in BAD_IDS]
    entries.append('{"id":"a","game":"nim","piles":[1],"id":"b"}')
    body = '{"queries":[%s]}' % ",".join(entries)
    r = c.request("POST", "/v1/batch", body.encode())
    if r.status != 200:
        return ["JSON batch of bad ids: %r" % r]
    results = dict(ordered(r.raw))["results"]
    wants = [code for _, code in BAD_IDS] + ["invalid_field"]
    for i, (res, want) in enumerate(zip(results, wants)):
        if any(k == "id" for k, _ in res):
            p.append("entry %d: a bad id was echoed: %r" % (i, res))
        code, field = code_of(res)
        if (code, field) != (want, "id"):
            p.append("entry %d: %r, want %s naming id" % (i, res, want))
    c.close()
    return p


# ---- ids in an NDJSON stream ----------------------------------------------------

def t_ndjson_ids(port):
    """Ids of mixed types in shuffled order; bad lines among them."""
    rng = random.Random(18)
    idents = list(range(40)) + ["s%d" % i for i in range(40)] + [I64_MIN, I64_MAX, "ü☃"]
    rng.shuffle(idents)
    lines, want = [], []
    for k, ident in enumerate(idents):
        game = rng.choice(["nim", "wythoff", "divisor", "chess"])
        q = {"nim": {"game": "nim", "piles": [k, 7]}, "wythoff": {"game": "wythoff", "piles": [k, k + 2]},
             "divisor": {"game": "divisor", "n": k + 1}, "chess": {"game": "chess"}}[game]
        items = list(q.items())
        items.insert(rng.randrange(len(items) + 1), ("id", ident))  # id anywhere in the line
        lines.append(json.dumps(dict(items), ensure_ascii=rng.random() < 0.5))
        want.append((ident, q))
    lines.insert(10, "not json")
    want.insert(10, (None, None))
    lines.insert(20, '{"id":[2],"game":"nim","piles":[1]}')
    want.insert(20, (None, "bad id"))
    c = Client(port)
    r = c.request("POST", "/v1/batch", ("\n".join(lines) + "\n").encode(), headers=NDJSON)
    p = []
    if r.status != 200 or not (r.header("Content-Type") or "").startswith("application/x-ndjson"):
        return ["NDJSON: %r" % r]
    out = r.raw.decode().split("\n")
    if out[-1] != "" or len(out) - 1 != len(lines):
        return ["%d answer lines for %d lines" % (len(out) - 1, len(lines))]
    by_id = {}
    for i, ((ident, q), line) in enumerate(zip(want, out)):
        got_id, rest = split_id(ordered(line))
        if got_id != ident or type(got_id) is not type(ident):
            p.append("line %d: id %r, want %r" % (i, got_id, ident))
        if q == "bad id" and code_of(rest) != ("invalid_field", "id"):
            p.append("line %d: a bad id gives %r" % (i, rest))
        elif isinstance(q, dict):
            by_id[json.dumps(ident)] = rest
            if rest != analyze_body(c, q):
                p.append("line %d: past its id, not the /v1/analyze body: %r" % (i, rest[:3]))
    if len(by_id) != len(idents):
        p.append("%d distinct ids answered, %d sent" % (len(by_id), len(idents)))
    c.close()
    TAP.diag("NDJSON: %d lines, ids of %d types shuffled" % (len(lines), 2))
    return p


def t_ndjson_spent_budget(port):
    """--budget 100000000 --batch-budget 12000000: a heavy line (about 11.3M
    steps) spends most of the batch budget; cheap lines after it are still
    answered with their ids (each query gets at least a thousandth of the
    per-query budget), a heavy line refused by what was left keeps its id,
    and a line that is not JSON is a bad_json as ever."""
    heavy = {"game": "octal", "code": "0.3456", "piles": [3000]}  # not in the table: computed
    lines = [json.dumps(dict(heavy, id="first"))] + \
            [json.dumps({"id": k, "game": "nim", "piles": [k]}) for k in range(1, 6)] + \
            [json.dumps(dict(heavy, id="again")), "{bad"]
    c = Client(port)
    r = c.request("POST", "/v1/batch", ("\n".join(lines)).encode(), headers=NDJSON)
    c.close()
    if r.status != 200:
        return ["NDJSON: %r" % r]
    out = [ordered(x) for x in r.raw.decode().split("\n") if x]
    p = []
    if len(out) != len(lines):
        return ["%d answers for %d lines" % (len(out), len(lines))]
    if split_id(out[0])[0] != "first" or code_of(out[0])[0] is not None:
        p.append("the first line: %r" % out[0][:3])
    for k in range(1, 6):
        got_id, rest = split_id(out[k])
        if got_id != k or code_of(rest)[0] is not None:
            p.append("cheap line %d after the budget: %r" % (k, out[k]))
    got_id, rest = split_id(out[6])
    if got_id != "again" or code_of(rest)[0] != "limit_exceeded" or \
            "batch's total compute budget" not in dict(dict(rest)["error"])["message"]:
        p.append("a heavy line after the budget: %r" % out[6])
    if split_id(out[7])[0] is not None or code_of(out[7])[0] != "bad_json":
        p.append("a line that is not JSON after the budget: %r" % out[7])
    return p


def t_id_outside_batch(port):
    c = Client(port)
    p = []
    for path in ("/v1/analyze", "/v1/moves"):
        r = c.request("POST", path, {"game": "nim", "piles": [1, 2], "id": 3})
        err = (r.json or {}).get("error") or {}
        if r.status != 422 or err.get("code") != "inapplicable_field" or err.get("field") != "id" \
                or "batch" not in err.get("message", ""):
            p.append("%s with an id: %r" % (path, r))
    c.close()
    return p


# ---- the 413 hint -----------------------------------------------------------------

def t_413_hint(port):
    c = Client(port)
    p = []
    big = {"queries": [{"game": "nim", "piles": [1, 2, 3]}] * 200}
    r = c.request("POST", "/v1/batch", big)
    msg = ((r.json or {}).get("error") or {}).get("message", "")
    if r.status != 413 or (r.json or {}).get("error", {}).get("code") != "body_too_large":
        p.append("a JSON batch over --max-body: %r" % r)
    for needle in ("Content-Type: application/x-ndjson", "--max-stream", "one query per line"):
        if needle not in msg:
            p.append("the 413 of a JSON batch does not say %r: %r" % (needle, msg))
    r = c.request("POST", "/v1/analyze", {"game": "nim", "piles": [1] * 3000})
    msg = ((r.json or {}).get("error") or {}).get("message", "")
    if r.status != 413 or "ndjson" in msg.lower():
        p.append("the 413 of /v1/analyze: %r" % r)
    # the NDJSON form itself takes the same queries
    r = c.request("POST", "/v1/batch", ("\n".join(json.dumps(q) for q in big["queries"])).encode(),
                  headers=NDJSON)
    if r.status != 200 or r.raw.count(b"\n") != 200:
        p.append("the same queries as NDJSON: %r" % r)
    c.close()
    return p


# ---- metrics ------------------------------------------------------------------------

def traffic(port):
    """Known requests to a fresh daemon; returns what it must count."""
    c = Client(port)
    c.request("POST", "/v1/batch", {"queries": [
        {"id": 1, "game": "nim", "piles": [1, 2]}, {"game": "nim", "piles": [3]},
        {"game": "divisor", "n": 12}, {"game": "chess"}, {"game": "nim", "piles": "x"}, 7]})
    lines = ['{"game":"wythoff","piles":[3,5],"id":"a"}', '{"game":"wythoff","piles":[1,2]}', "", "nope",
             '{"game":"divisor","n":0}']
    c.request("POST", "/v1/batch", ("\n".join(lines) + "\n").encode(), headers=NDJSON)
    c.post({"game": "nim", "piles": [4, 4]})
    c.post({"game": "nmi", "piles": [1]})
    c.post({"game": "nim", "piles": [1], "id": 1})
    c.request("GET", "/nope")
    r = c.request("GET", "/")
    c.request("GET", "/", headers={"If-None-Match": r.header("ETag") or '"x"'})
    c.close()
    batch = "/v1/batch"
    return {
        ("grundyd_queries_total", batch, "nim", ""): 2,
        ("grundyd_queries_total", batch, "nim", "invalid_field"): 1,
        ("grundyd_queries_total", batch, "divisor", ""): 1,
        ("grundyd_queries_total", batch, "divisor", "out_of_range"): 1,
        ("grundyd_queries_total", batch, "", "unknown_game"): 1,
        ("grundyd_queries_total", batch, "", "invalid_query"): 1,
        ("grundyd_queries_total", batch, "wythoff", ""): 2,
        ("grundyd_queries_total", batch, "", "bad_json"): 2,
        ("grundyd_queries_total", "/v1/analyze", "nim", ""): 1,
        ("grundyd_queries_total", "/v1/analyze", "", "unknown_game"): 1,
        ("grundyd_queries_total", "/v1/analyze", "nim", "inapplicable_field"): 1,
        ("grundyd_requests_total", batch, "200", ""): 2,
        ("grundyd_requests_total", "/v1/analyze", "200", ""): 1,
        ("grundyd_requests_total", "/v1/analyze", "422", "unknown_game"): 1,
        ("grundyd_requests_total", "/v1/analyze", "422", "inapplicable_field"): 1,
        ("grundyd_requests_total", "other", "404", "not_found"): 1,
        ("grundyd_requests_total", "/", "200", ""): 1,
        ("grundyd_requests_total", "/", "304", ""): 1,
    }


def t_metrics(binary, d, t_started):
    p = []
    want = traffic(d.port)
    deadline = time.monotonic() + 5
    while True:  # a request is counted when it completes, just after its reply
        s, _, problems, r = scrape(d.port)
        got = {}
        for (name, route, x, code), n in want.items():
            key = "game" if name == "grundyd_queries_total" else "status"
            got[(name, route, x, code)] = exact(s, name, route=route, code=code, **{key: x})
        if got == want or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for k in sorted(want):
        if got[k] != want[k]:
            p.append("%s{route=%r,%s=%r,code=%r} = %r, want %d" % (
                k[0], k[1], "game" if k[0] == "grundyd_queries_total" else "status", k[2], k[3], got[k], want[k]))
    # every query series sums to what was sent (no stray ones)
    p += problems
    total = sum(v for n, _, v in s if n == "grundyd_queries_total")
    if total != sum(n for k, n in want.items() if k[0] == "grundyd_queries_total"):
        p.append("grundyd_queries_total sums to %d" % total)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout.split()
    version = version[1] if len(version) > 1 else "?"
    if exact(s, "grundyd_build_info", version=version) != 1:
        p.append("no grundyd_build_info{version=%r} 1: %r" % (version, [x for x in s if x[0] == "grundyd_build_info"]))
    if b"grundyd_table_bytes_mapped" in r.raw or exact(s, "grundyd_table_mapped_bytes") in (None, 0):
        p.append("grundyd_table_mapped_bytes (not grundyd_table_bytes_mapped) is not the table's size")
    p += process_problems(d.port, d.proc.pid, t_started)
    TAP.diag("metrics: %d series checked exactly; build_info version %s" % (len(want), version))
    return p


def proc_snapshot(pid):
    """(cpu seconds, rss bytes, vsize bytes, open fds) of pid from /proc."""
    fields = proc_stat(pid)
    return (cpu_seconds(pid), int(fields[24 - 3]) * os.sysconf("SC_PAGE_SIZE"), int(fields[23 - 3]),
            len(os.listdir("/proc/%d/fd" % pid)))


# The scrape's own connection holds descriptors while the daemon samples:
# the accepted socket, which libmicrohttpd owns, and for a moment the
# acceptor's duplicate of it, kept until MHD_add_connection has returned
# (src/server/front/acceptor.c, hand_over), which libmicrohttpd's thread
# may outrun with the whole request.
SCRAPE_FDS = 2


def quiet_scrape(port, pid):
    """A scrape bracketed by /proc reads that saw the same descriptors once
    the scrape's own had closed: no earlier connection was still closing
    while the daemon sampled. Up to 5 s."""
    deadline = time.monotonic() + 5
    while True:
        before = proc_snapshot(pid)
        s = scrape(port)[0]
        after = proc_snapshot(pid)
        while after[3] > before[3] and time.monotonic() < deadline:
            time.sleep(0.02)
            after = proc_snapshot(pid)
        if before[3] == after[3] or time.monotonic() > deadline:
            return before, s, after
        time.sleep(0.1)


def process_problems(port, pid, t_started):
    p = []
    before, s, after = quiet_scrape(port, pid)
    (cpu0, rss, vsize, fds), cpu1 = before, after[0]
    with open("/proc/%d/limits" % pid) as f:
        soft = next(line.split()[3] for line in f if line.startswith("Max open files"))
    checks = [
        ("process_cpu_seconds_total", lambda v: v > 0 and cpu0 - 0.02 <= v <= cpu1 + 0.02, (cpu0, cpu1)),
        ("process_resident_memory_bytes", lambda v: rss / 2 <= v <= rss * 2, rss),
        ("process_virtual_memory_bytes", lambda v: vsize / 2 <= v <= vsize * 2, vsize),
        ("process_open_fds", lambda v: 3 <= v and fds <= v <= fds + SCRAPE_FDS, (fds, after[3])),
        ("process_max_fds", lambda v: v == int(soft), soft),
        ("process_start_time_seconds", lambda v: t_started - 2 <= v <= time.time(), t_started),
    ]
    for name, ok, ref in checks:
        v = exact(s, name)
        if v is None or not ok(v):
            p.append("%s = %r (from /proc: %r)" % (name, v, ref))
    return p


def t_promtool(port):
    text = scrape(port)[3].raw.decode()
    script = os.path.join(REPO_ROOT, "scripts", "promtool.sh")
    # The first run fetches promtool and says so on stderr; only the check's
    # own output counts.
    r = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=600)
    if r.returncode == 77:
        return "skip", r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "no promtool"
    r = subprocess.run([script, "check", "metrics"], input=text, capture_output=True, text=True, timeout=600)
    if r.returncode == 77:
        return "skip", r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "no promtool"
    if r.returncode != 0 or r.stdout.strip() or r.stderr.strip():
        return ["promtool check metrics (exit %d): %s %s" % (r.returncode, r.stdout, r.stderr)]
    TAP.diag("promtool check metrics: clean on %d lines" % text.count("\n"))
    return []


def main():
    if len(sys.argv) != 2:
        print("usage: test_batch_metrics.py path/to/grundyd", file=sys.stderr)
        return 2
    binary = sys.argv[1]

    def body():
        t_started = time.time()
        d = Daemon(binary, "--max-body", "4096")
        TAP.run("metrics of a fresh daemon: batch queries by game and code, errors by code, 304, "
                "build_info, process_*", t_metrics, binary, d, t_started)
        outcome = t_promtool(d.port)
        if isinstance(outcome, tuple):
            TAP.skip("promtool check metrics is clean", outcome[1])
        else:
            TAP.result(not outcome, "promtool check metrics is clean", outcome)
        TAP.run("JSON batch: ids of every kind echoed first, in order, the rest the analyze body",
                t_json_ids, d.port)
        TAP.run("JSON batch: bad ids are the entry's 422 naming id, not echoed", t_json_bad_ids, d.port)
        TAP.run("NDJSON: ids of mixed types out of order, each line's answer carries its id",
                t_ndjson_ids, d.port)
        TAP.run("id outside a batch is a 422 inapplicable_field that says so", t_id_outside_batch, d.port)
        TAP.run("413 of a JSON batch over --max-body points to NDJSON", t_413_hint, d.port)
        d.stop()
        d = Daemon(binary, "--budget", "100000000", "--batch-budget", "12000000", "--cache-bytes", "0")
        TAP.run("NDJSON: after a spent batch budget cheap lines are answered, a heavy one refused, ids kept",
                t_ndjson_spent_budget, d.port)
        d.stop()

    return run_main(TAP, "test_batch_metrics.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
