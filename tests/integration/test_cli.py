#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests for the grundy command-line tool.

Usage: test_cli.py path/to/grundy [path/to/grundyd]

With grundyd given, every `grundy query` answer is compared byte for byte
with the daemon's body for the same query (the daemon is spawned on
127.0.0.1 with --port 0 and stopped at the end). Answers are also checked
against the brute force in brute.py. Prints TAP; Python 3 stdlib only; every
subprocess and request has a timeout, and a watchdog ends the run if it ever
overruns.
"""

import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
import harness  # noqa: E402
from harness import Client, Tap, bad_number_tokens, run_main  # noqa: E402

WATCHDOG_SECONDS = 150
E18 = 10**18
INT_MAX = 2**63 - 1

TAP = Tap(timing=False)

# ---------------------------------------------------------------------------
# Processes


class Daemon(harness.Daemon):
    """grundyd with one keep-alive connection for post()."""

    client = None

    def post(self, body):
        """(status, raw body bytes) for a POST /v1/analyze."""
        if self.client is None:
            self.client = Client(self.port, retry_on=(ConnectionError, http.client.HTTPException))
        r = self.client.post(body)
        return r.status, r.raw

    def stop(self):
        if self.client is not None:
            self.client.close()
        return super().stop()


def run_cli(grundy, args, stdin=b"", timeout=20):
    """(exit status, stdout bytes, stderr bytes)."""
    p = subprocess.run([grundy] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def t_cpu_env(grundy):
    """GRUNDYD_QUERY_CPU_MS and GRUNDYD_BATCH_CPU_MS set the local limits as
    grundyd reads them (a batch four times a query's unless set); a bad value
    is refused, naming the variable."""
    p = []
    heavy = json.dumps({"game": "strange_nim", "piles": [[999999999999999999, 1000000000]]})

    def run_env(env, args):
        e = dict(os.environ, **env)
        r = subprocess.run([grundy] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=60)
        return r.returncode, r.stdout, r.stderr

    rc, out, _ = run_env({"GRUNDYD_QUERY_CPU_MS": "5"}, ["query", "--json", heavy])
    if rc != 1 or b"used its 5 ms of CPU time" not in out:
        p.append("GRUNDYD_QUERY_CPU_MS=5: exit %d, %r" % (rc, out[:200]))
    for env, want in (({"GRUNDYD_QUERY_CPU_MS": "7"}, (7, 28)),
                      ({"GRUNDYD_QUERY_CPU_MS": "7", "GRUNDYD_BATCH_CPU_MS": "9"}, (7, 9)),
                      ({"GRUNDYD_QUERY_CPU_MS": "", "GRUNDYD_BATCH_CPU_MS": ""}, (1000, 4000))):
        rc, out, _ = run_env(env, ["games", "--json"])
        limits = json.loads(out)["limits"] if rc == 0 else {}
        got = (limits.get("query_cpu_ms"), limits.get("batch_cpu_ms"))
        if got != want:
            p.append("%r: limits %r, want %r" % (env, got, want))
    rc, out, err = run_env({"GRUNDYD_QUERY_CPU_MS": "soon"}, ["query", "--json", '{"game":"nim","piles":[1]}'])
    if rc != 1 or out or b"GRUNDYD_QUERY_CPU_MS" not in err:
        p.append("GRUNDYD_QUERY_CPU_MS=soon: exit %d, out %r, err %r" % (rc, out, err))
    return p


# ---------------------------------------------------------------------------
# Query set: a spread over every game, plus errors

QUERIES = [
    {"game": "nim", "piles": [3, 4, 5]},
    {"game": "nim", "piles": [1, 2, 3]},
    {"game": "nim", "piles": []},
    {"game": "nim", "convention": "misere", "piles": [1, 1, 2]},
    {"game": "nim", "convention": "misere", "piles": [1, 1, 1]},
    {"game": "nim", "piles": [1000000000000000001, 1000000000000000000]},
    {"game": "nim", "piles": ["1000000000000000001", "1000000000000000000"]},
    {"game": "nim", "piles": [INT_MAX]},
    {"game": "subtraction", "moves": [1, 3, 4], "piles": [E18, 5]},
    {"game": "subtraction", "moves": [3, 5, 9], "piles": [100]},
    {"game": "staircase", "stairs": [0, 3, 1, 2]},
    {"game": "staircase", "stairs": [5, 2, 7, 2]},
    {"game": "wythoff", "piles": [3, 5]},
    {"game": "wythoff", "piles": [4, 9]},
    {"game": "wythoff", "piles": [E18, E18 + 12345]},
    {"game": "fibonacci", "n": 20},
    {"game": "fibonacci", "n": 21, "limit": 3},
    {"game": "fibonacci", "n": E18},
    {"game": "divisor", "n": 12},
    {"game": "divisor", "n": 15},
    {"game": "octal", "code": "0.77", "piles": [E18]},
    {"game": "octal", "code": "0.07", "piles": [10, 20]},
    {"game": "octal", "code": "0.137", "piles": [33]},
    {"game": "grundys_game", "piles": [7, 10, 11]},
    {"game": "graph", "edges": [[0, 1], [1, 2], [0, 2]], "tokens": [0, 0, 1]},
    {"game": "graph", "edges": [[1, 2], [2, 3], [1, 3]], "tokens": [1, 1, 7]},
]

ERROR_BODIES = [
    '{"game":"nim","piles":[1,2',                        # 400 truncated
    "hello",                                            # 400 bare word
    '{"game":"chess","piles":[1]}',                     # 422 unknown game
    '{"game":"nim"}',                                   # 422 missing field
    '{"game":"nim","piles":[1,9223372036854775808]}',   # 422 out of range
    '{"game":"nim","piles":[1.5]}',                     # 422 non-integer
    '{"game":"wythoff","piles":[1,2],"convention":"misere"}',  # 422 misere
    '{"game":"graph","edges":[[0,1],[1,0]],"tokens":[0],"compound":"selective"}',  # 422 cycle
]


# ---------------------------------------------------------------------------
# Tests


def t_help(grundy):
    p = []
    for flag in ("--help", "-h"):
        rc, out, err = run_cli(grundy, [flag])
        if rc != 0:
            p.append("%s: exit %d, want 0" % (flag, rc))
        if b"query" not in out:
            p.append("%s: stdout does not describe `query`: %r" % (flag, out[:200]))
    return p


def t_misuse(grundy):
    p = []
    for args in ([], ["bogus"], ["query"], ["query", "a", "b"], ["--bogus"], ["QUERY", "{}"],
                 ["query", "-", "extra"]):
        rc, out, err = run_cli(grundy, args)
        if rc != 2:
            p.append("grundy %s: exit %d, want 2" % (" ".join(args) or "(no arguments)", rc))
        if out:
            p.append("grundy %s: wrote to stdout: %r" % (" ".join(args), out[:100]))
        if not err:
            p.append("grundy %s: no message on stderr" % " ".join(args))
    return p


def check_answer_line(line, query, problems, tag):
    """Brute-force check of one CLI answer line (a 200 body)."""
    try:
        a = json.loads(line)
    except ValueError:
        problems.append("%s: not JSON: %r" % (tag, line[:200]))
        return None
    bad = bad_number_tokens(line)
    if bad:
        problems.append("%s: numbers not plain digits: %r" % (tag, bad))
    return a


def t_single_queries(grundy, daemon):
    p = []
    for q in QUERIES:
        body = json.dumps(q)
        rc, out, err = run_cli(grundy, ["query", body])
        tag = "grundy query '%s'" % body
        if rc != 0:
            p.append("%s: exit %d, want 0; stderr %r" % (tag, rc, err[:200]))
        if not out.endswith(b"\n") or out.count(b"\n") != 1:
            p.append("%s: want exactly one line, got %r" % (tag, out[:200]))
        line = out.rstrip(b"\n")
        a = check_answer_line(line, q, p, tag)
        if a is None:
            continue
        if daemon is not None:
            status, raw = daemon.post(body)
            if status != 200:
                p.append("%s: daemon answered %d" % (tag, status))
            elif raw != line:
                p.append("%s: differs from the daemon's body:\n  cli:    %r\n  daemon: %r" % (tag, line[:300], raw[:300]))
        # exact facts
        if q["game"] == "nim" and q["piles"] and str(q["piles"][0]) == "1000000000000000001":
            if a.get("grundy") != 1 or b"1000000000000000001" not in line:
                p.append("%s: want grundy 1 and the exact digits echoed" % tag)
        if q["game"] == "nim" and q["piles"] == [INT_MAX] and a.get("grundy") != INT_MAX:
            p.append("%s: grundy %r, want 2^63-1" % (tag, a.get("grundy")))
        if q["game"] == "wythoff":
            x, y = q["piles"]
            want = "second" if brute.wythoff_is_p(x, y) else "first"
            if a.get("winner") != want:
                p.append("%s: winner %r, want %r" % (tag, a.get("winner"), want))
        elif q["game"] == "fibonacci" and q["n"] > 1000:
            pass
        elif max([0] + [int(v) for v in q.get("piles", [])]) <= 1000:
            want = brute.solve(q)
            if a.get("winner") != want.winner:
                p.append("%s: winner %r, brute force says %r" % (tag, a.get("winner"), want.winner))
            if want.grundy is not None and a.get("grundy") not in (None, want.grundy):
                p.append("%s: grundy %r, brute force says %r" % (tag, a.get("grundy"), want.grundy))
        if a.get("winner") == "first" and a.get("next") is not None:
            why = brute.check_move(q, a["next"])
            if why:
                p.append("%s: next is not one legal move: %s" % (tag, why))
    return p


def t_error_queries(grundy, daemon):
    p = []
    for body in ERROR_BODIES:
        rc, out, err = run_cli(grundy, ["query", body])
        tag = "grundy query '%s'" % body
        if rc != 1:
            p.append("%s: exit %d, want 1" % (tag, rc))
        line = out.rstrip(b"\n")
        try:
            e = json.loads(line)
            if not (isinstance(e, dict) and set(e) == {"error"} and {"code", "message", "field"} <= set(e["error"])):
                p.append("%s: not an error body: %r" % (tag, line[:200]))
        except ValueError:
            p.append("%s: output is not JSON: %r" % (tag, out[:200]))
        if daemon is not None:
            status, raw = daemon.post(body)
            if status == 200:
                p.append("%s: daemon answered 200" % tag)
            elif raw != line:
                p.append("%s: differs from the daemon's error body:\n  cli:    %r\n  daemon: %r" % (tag, line[:300], raw[:300]))
    return p


def t_ndjson_mixed(grundy, daemon):
    """Blank lines are skipped; every other line gets one answer, in order;
    exit 1 because one line failed."""
    lines = [
        json.dumps({"game": "nim", "piles": [3, 4, 5]}),
        "",
        "   \t ",
        "{not json",
        json.dumps({"game": "divisor", "n": 12}) + "\r",      # CRLF line ending
        json.dumps({"game": "chess"}),
        json.dumps({"game": "wythoff", "piles": [3, 5]}),
        "",
        json.dumps({"game": "nim", "piles": [1000000000000000001, 1000000000000000000]}),
    ]
    stdin = ("\n".join(lines)).encode()  # no newline after the last line
    rc, out, err = run_cli(grundy, ["query", "-"], stdin=stdin)
    p = []
    if rc != 1:
        p.append("exit %d, want 1 (a line failed)" % rc)
    expected = [ln.rstrip("\r") for ln in lines if ln.strip(" \t\r") != ""]
    got = out.decode("utf-8", "replace").split("\n")
    if got and got[-1] == "":
        got.pop()
    if len(got) != len(expected):
        return p + ["%d output lines for %d non-blank input lines: %r" % (len(got), len(expected), got)]
    want_ok = [True, False, True, False, True, True]
    for i, (inp, outl, ok) in enumerate(zip(expected, got, want_ok)):
        try:
            a = json.loads(outl)
        except ValueError:
            p.append("answer %d is not JSON: %r" % (i, outl[:200]))
            continue
        if ok and "error" in a:
            p.append("answer %d to %r is an error: %r" % (i, inp, outl[:200]))
        if not ok and "error" not in a:
            p.append("answer %d to %r should be an error: %r" % (i, inp, outl[:200]))
        if daemon is not None:
            status, raw = daemon.post(inp)
            if raw.decode() != outl:
                p.append("answer %d differs from the daemon:\n  cli:    %r\n  daemon: %r" % (i, outl[:200], raw[:200]))
    if got and json.loads(got[0]).get("grundy") != 2:
        p.append("first answer is not for nim [3,4,5]: %r" % got[0][:100])
    if len(got) == 6 and json.loads(got[5]).get("grundy") != 1:
        p.append("last answer is not the exact big nim: %r" % got[5][:200])
    return p


def t_ndjson_all_good(grundy):
    lines = [json.dumps({"game": "nim", "piles": [i, 0]}) for i in range(300)]
    lines.insert(100, "")
    rc, out, err = run_cli(grundy, ["query", "-"], stdin=("\n".join(lines) + "\n").encode())
    p = []
    if rc != 0:
        p.append("exit %d, want 0 (every line answered)" % rc)
    got = out.decode().splitlines()
    if len(got) != 300:
        return p + ["%d answers for 300 queries" % len(got)]
    for i, line in enumerate(got):
        if json.loads(line).get("grundy") != i:
            p.append("answer %d out of order or wrong: %r" % (i, line[:120]))
            break
    return p


def t_ndjson_empty(grundy):
    p = []
    for stdin in (b"", b"\n\n  \n\t\n", b"\r\n"):
        rc, out, err = run_cli(grundy, ["query", "-"], stdin=stdin)
        if rc != 0 or out:
            p.append("stdin %r: exit %d, output %r (want 0 and nothing)" % (stdin, rc, out[:100]))
    return p


def t_ndjson_only_errors(grundy):
    rc, out, err = run_cli(grundy, ["query", "-"], stdin=b"x\n{}\n[1]\n")
    p = []
    if rc != 1:
        p.append("exit %d, want 1" % rc)
    if len(out.splitlines()) != 3:
        p.append("want 3 error lines, got %r" % out[:300])
    return p


def t_ndjson_brute(grundy):
    """A batch over every game against brute force, then the `next` positions
    of the first-player wins as a second batch: all must be losses."""
    r = random.Random(11)
    qs = []
    for _ in range(60):
        qs.append({"game": "nim", "piles": [r.randint(0, 9) for _ in range(r.randint(0, 4))]})
        qs.append({"game": "nim", "convention": "misere", "piles": [r.randint(0, 4) for _ in range(r.randint(0, 4))]})
    for _ in range(40):
        qs.append({"game": "subtraction", "moves": sorted(r.sample(range(1, 7), r.randint(1, 3))),
                   "piles": [r.randint(0, 30) for _ in range(r.randint(1, 3))]})
        qs.append({"game": "staircase", "stairs": [r.randint(0, 3) for _ in range(r.randint(1, 4))]})
        qs.append({"game": "wythoff", "piles": [r.randint(0, 25), r.randint(0, 25)]})
        n = r.randint(0, 40)
        qs.append({"game": "fibonacci", "n": n, "limit": r.randint(0, n + 1)})
        qs.append({"game": "divisor", "n": r.randint(1, 120)})
        qs.append({"game": "octal", "code": r.choice(["0.77", "0.07", "0.137"]),
                   "piles": [r.randint(0, 50) for _ in range(r.randint(1, 3))]})
        qs.append({"game": "grundys_game", "piles": [r.randint(0, 120) for _ in range(r.randint(1, 3))]})
        nodes = r.randint(1, 9)
        edges = [[u, v] for u in range(nodes) for v in range(u) if r.random() < 0.35]
        qs.append({"game": "graph", "edges": edges, "tokens": [r.randrange(nodes) for _ in range(r.randint(1, 3))]})
    stdin = "\n".join(json.dumps(q) for q in qs).encode()
    rc, out, err = run_cli(grundy, ["query", "-"], stdin=stdin, timeout=30)
    p = []
    if rc != 0:
        p.append("exit %d, want 0" % rc)
    got = out.decode().splitlines()
    if len(got) != len(qs):
        return p + ["%d answers for %d queries" % (len(got), len(qs))]
    backs = []
    for q, line in zip(qs, got):
        tag = json.dumps(q)
        a = json.loads(line)
        want = brute.solve(q)
        if a.get("winner") != want.winner:
            p.append("%s: winner %r, brute force says %r" % (tag, a.get("winner"), want.winner))
            continue
        if want.grundy is not None and q.get("convention") != "misere" and a.get("grundy") != want.grundy:
            p.append("%s: grundy %r, brute force says %r" % (tag, a.get("grundy"), want.grundy))
        if a["winner"] == "second" and (a.get("move") is not None or a.get("next") is not None):
            p.append("%s: second-player win with a move" % tag)
        if a["winner"] == "first" and a.get("next") is not None:
            why = brute.check_move(q, a["next"])
            if why:
                p.append("%s: %s" % (tag, why))
                continue
            back = brute.merge(q, a["next"])
            if brute.solve(back).winner != "second":
                p.append("%s: next %r is not a loss by brute force" % (tag, a["next"]))
            backs.append(back)
        elif a["winner"] == "first" and brute.legal_next(q):
            p.append("%s: first-player win without next" % tag)
    rc, out, err = run_cli(grundy, ["query", "-"], stdin="\n".join(json.dumps(b) for b in backs).encode(), timeout=30)
    got = out.decode().splitlines()
    if len(got) != len(backs):
        return p + ["round trip: %d answers for %d queries" % (len(got), len(backs))]
    for b, line in zip(backs, got):
        if json.loads(line).get("winner") != "second":
            p.append("round trip %s: winner %r, want second" % (json.dumps(b), json.loads(line).get("winner")))
    TAP.diag("%d queries and %d round trips through grundy query -" % (len(qs), len(backs)))
    return p


def t_long_line(grundy):
    piles = list(range(50000))
    x = 0
    for v in piles:
        x ^= v
    rc, out, err = run_cli(grundy, ["query", "-"], stdin=json.dumps({"game": "nim", "piles": piles}).encode())
    p = []
    if rc != 0:
        p.append("exit %d" % rc)
    try:
        a = json.loads(out)
        if a.get("grundy") != x or len(a.get("components", [])) != len(piles):
            p.append("grundy %r (want %d), %d components" % (a.get("grundy"), x, len(a.get("components", []))))
    except ValueError:
        p.append("output is not one JSON document: %r" % out[:200])
    return p


# ---------------------------------------------------------------------------
# grundy batch

BATCH_TIMEOUT = 60
BIG = [INT_MAX, INT_MAX - 1, INT_MAX - 2, 2**62, 2**53 + 1, 1]


def nim_query_line(r):
    """A random nim query (piles near 2^63 - 1 often) and its nim-sum."""
    piles = [max(0, r.choice(BIG) - r.randrange(4)) if r.random() < 0.5 else r.randrange(1 << 63)
             for _ in range(r.randint(0, 5))]
    x = 0
    for v in piles:
        x ^= v
    return json.dumps({"game": "nim", "piles": piles}, separators=(",", ":")), piles, x


def check_nim_answer(line, piles, x):
    """None, or what is wrong with a batch answer line for nim `piles`."""
    try:
        a = json.loads(line)
    except ValueError:
        return "not JSON: %r" % line[:200]
    if a.get("grundy") != x or a.get("winner") != ("first" if x else "second"):
        return "grundy %r winner %r, want nim-sum %d" % (a.get("grundy"), a.get("winner"), x)
    if [c.get("size") for c in a.get("components", [])] != piles:
        return "components do not echo the piles exactly: %r" % line[:300]
    return None


def t_batch_ndjson_100k(grundy, tmp):
    """100000 NDJSON nim queries from a file: every answer line checked
    against the nim-sum, and the whole output byte for byte against
    `grundy query -` on the same lines."""
    r = random.Random(5)
    rows = [nim_query_line(r) for _ in range(100000)]
    path = os.path.join(tmp, "nim100k.ndjson")
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line, _, _ in rows))
    rc, out, err = run_cli(grundy, ["batch", path], timeout=BATCH_TIMEOUT)
    p = []
    if rc != 0:
        p.append("exit %d, want 0; stderr %r" % (rc, err[:200]))
    got = out.decode().split("\n")
    if got[-1] != "":
        p.append("output does not end with a newline")
    got = got[:-1]
    if len(got) != len(rows):
        return p + ["%d answer lines for %d queries" % (len(got), len(rows))]
    for i, ((_, piles, x), line) in enumerate(zip(rows, got)):
        why = check_nim_answer(line, piles, x)
        if why:
            p.append("line %d: %s" % (i + 1, why))
            if len(p) > 10:
                break
    with open(path, "rb") as f:
        rc2, out2, _ = run_cli(grundy, ["query", "-"], stdin=f.read(), timeout=BATCH_TIMEOUT)
    if rc2 != 0 or out2 != out:
        p.append("grundy query - answers the same file differently (exit %d)" % rc2)
    return p


def t_batch_ndjson_lines(grundy):
    """Line i of the output answers line i of the input: empty and blank lines
    get errors, CRLF is accepted, an overlong line (over 1 MiB) gets
    line_too_long and the next line is answered, the last line needs no
    newline; exit 1."""
    long_line = json.dumps({"game": "nim", "piles": [7] * 400000})  # 2.4 MB
    lines = [
        (json.dumps({"game": "nim", "piles": [3, 4, 5]}), "ok"),
        ("", "bad_json"),
        ("  \t", "bad_json"),
        (json.dumps({"game": "nim", "piles": [INT_MAX, 1]}) + "\r", "ok"),
        ("{not json", "bad_json"),
        ("[1, 2]", "invalid_query"),
        (long_line, "line_too_long"),
        (json.dumps({"game": "divisor", "n": 12}), "ok"),
        (json.dumps({"game": "nim", "piles": list(range(40000))}), "ok"),  # 230 KB: spans chunks
        (json.dumps({"game": "chess"}), "unknown_game"),
        (long_line + "\r", "line_too_long"),
        ("\r", "bad_json"),
        (json.dumps({"game": "nim", "piles": [1, 2, 3]}), "ok"),
    ]
    stdin = "\n".join(text for text, _ in lines).encode()  # no newline after the last
    rc, out, err = run_cli(grundy, ["batch", "-"], stdin=stdin, timeout=BATCH_TIMEOUT)
    p = []
    if rc != 1:
        p.append("exit %d, want 1" % rc)
    got = out.decode().split("\n")
    if got[-1] != "":
        p.append("output does not end with a newline")
    got = got[:-1]
    if len(got) != len(lines):
        return p + ["%d answer lines for %d input lines" % (len(got), len(lines))]
    for i, ((text, want), line) in enumerate(zip(lines, got)):
        a = json.loads(line)
        code = a["error"]["code"] if "error" in a else "ok"
        if code != want:
            p.append("line %d (%r): %s, want %s" % (i + 1, text[:60], code, want))
        elif want == "ok":
            rc1, single, _ = run_cli(grundy, ["query", "-"], stdin=text.encode())
            if single.rstrip(b"\n").decode() != line:
                p.append("line %d differs from grundy query" % (i + 1))
    return p


def t_batch_json(grundy, tmp):
    """--json: one {"results": [...]} whose entries are byte for byte the
    answers of `grundy query` for each entry; exit 1 with an error entry,
    0 without."""
    entries = [{"game": "nim", "piles": [INT_MAX, INT_MAX - 1]},
               {"game": "nim", "piles": ["9223372036854775807", 2**62, 1]},
               5, "nim", None, [1, 2], {"game": "chess"},
               {"game": "nim", "piles": [1, 2**63]},
               {"game": "wythoff", "piles": [3, 5]}] + QUERIES
    p = []
    for chosen, want_rc in ((entries, 1), (QUERIES, 0), ([], 0)):
        texts = [json.dumps(e) for e in chosen]
        path = os.path.join(tmp, "batch.json")
        with open(path, "w") as f:
            f.write('{"queries": [\n%s\n]}\n' % ",\n".join(texts))
        rc, out, err = run_cli(grundy, ["batch", "--json", path], timeout=BATCH_TIMEOUT)
        tag = "--json with %d entries" % len(chosen)
        if rc != want_rc:
            p.append("%s: exit %d, want %d; stderr %r" % (tag, rc, want_rc, err[:200]))
        singles = []
        for t in texts:
            _, single, _ = run_cli(grundy, ["query", t])
            singles.append(single.rstrip(b"\n"))
        want = b'{"results":[' + b",".join(singles) + b"]}\n"
        if out != want:
            p.append("%s: results differ from grundy query per entry:\n  got  %r\n  want %r" % (tag, out[:300], want[:300]))
        if chosen is entries and json.loads(out)["results"][0]["grundy"] != 1:
            p.append("%s: first result not exact" % tag)
    # the same through stdin, options in the other order
    rc, out2, _ = run_cli(grundy, ["batch", "-", "--json"], stdin=b'{"queries":[{"game":"nim","piles":[1,2]}]}')
    if rc != 0 or json.loads(out2)["results"][0]["grundy"] != 3:
        p.append("batch - --json: exit %d, %r" % (rc, out2[:200]))
    return p


def t_batch_json_refused(grundy):
    """--json bodies refused whole: one error object, exit 1."""
    p = []
    too_many = '{"queries":[%s]}' % ",".join(['{"game":"nim","piles":[1]}'] * 10001)
    for body, code in (("not json", "bad_json"), ("[]", "invalid_query"), ("{}", "missing_field"),
                       ('{"queries":{}}', "invalid_field"), (too_many, "too_many"), ("", "bad_json")):
        rc, out, err = run_cli(grundy, ["batch", "--json", "-"], stdin=body.encode())
        try:
            got = json.loads(out)["error"]["code"]
        except (ValueError, KeyError, TypeError):
            got = out[:200]
        if rc != 1 or got != code:
            p.append("%r: exit %d, %r; want exit 1, %s" % (body[:40], rc, got, code))
    return p


def t_batch_misuse(grundy, tmp):
    p = []
    path = os.path.join(tmp, "one.ndjson")
    with open(path, "w") as f:
        f.write('{"game":"nim","piles":[1]}\n')
    for args in (["batch"], ["batch", path, path], ["batch", "--bogus", path], ["batch", "--json"],
                 ["batch", "--tables"], ["batch", "--json", "--json", path]):
        rc, out, err = run_cli(grundy, args)
        if rc != 2 or out or not err:
            p.append("grundy %s: exit %d, stdout %r, stderr %r; want 2, nothing, a message"
                     % (" ".join(args), rc, out[:80], err[:80]))
    for args in (["batch", os.path.join(tmp, "missing.ndjson")], ["batch", tmp]):
        rc, out, err = run_cli(grundy, args)
        if rc != 1 or not err:
            p.append("grundy %s: exit %d, stderr %r; want 1 and a message" % (" ".join(args), rc, err[:80]))
    rc, out, err = run_cli(grundy, ["batch", path])
    if rc != 0 or out.count(b"\n") != 1:
        p.append("grundy batch FILE: exit %d, %r" % (rc, out[:200]))
    return p


def t_batch_interactive(grundy):
    """Through a pipe, each answer comes out before the next query is sent."""
    proc = subprocess.Popen([grundy, "batch", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p = []
    try:
        for i in range(5):
            proc.stdin.write(b'{"game":"nim","piles":[%d]}\n' % i)
            proc.stdin.flush()
            line = proc.stdout.readline()
            if json.loads(line).get("grundy") != i:
                p.append("answer %d: %r" % (i, line[:100]))
        proc.stdin.close()
        if proc.wait(timeout=20) != 0:
            p.append("exit %d" % proc.returncode)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return p


# Runs argv[1:] with this process's stdin and stdout, and writes the child's
# exit status and max RSS (KiB) to stderr. A fresh small interpreter forks
# the child: a child forked by this (large) test process would count this
# process's pages in its max RSS.
MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write("%d %d" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss))
"""


def run_measured(args, stdin_path, stdout_path, timeout):
    """(exit status, max RSS in KiB) of one run. Under AddressSanitizer the
    quarantine of freed memory (256 MB by default) is kept small."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"), "quarantine_size_mb=1") if o)
    with open(stdin_path, "rb") as fin, open(stdout_path, "wb") as fout:
        p = subprocess.run([sys.executable, "-c", MEASURE] + args, stdin=fin, stdout=fout,
                           stderr=subprocess.PIPE, timeout=timeout, env=env)
    rc, rss = p.stderr.decode().split()[-2:]
    return int(rc), int(rss)


def memory_file(path, r, target_bytes):
    """NDJSON of small nim queries, 2 MB overlong lines and 200 KB queries,
    mixed, until target_bytes; returns [(kind, piles, x)] per line."""
    overlong = '{"game":"nim","piles":[' + "1," * 1000000 + '1]}'
    wide = list(range(30000))
    wide_x = 0
    for v in wide:
        wide_x ^= v
    wide_line = json.dumps({"game": "nim", "piles": wide}, separators=(",", ":"))
    rows, size = [], 0
    with open(path, "w") as f:
        while size < target_bytes:
            chunk = []
            for _ in range(1000):
                line, piles, x = nim_query_line(r)
                chunk.append(line)
                rows.append(("nim", piles, x))
            chunk.append(overlong)
            rows.append(("long", None, None))
            if len(rows) % 10 == 1:
                chunk.append(wide_line)
                rows.append(("nim", wide, wide_x))
            text = "\n".join(chunk) + "\n"
            f.write(text)
            size += len(text)
    return rows, size


def check_memory_output(path, rows):
    p = []
    n = 0
    with open(path, "r") as f:
        for n, line in enumerate(f, 1):
            if n > len(rows):
                break
            kind, piles, x = rows[n - 1]
            if kind == "long":
                if '"code":"line_too_long"' not in line:
                    p.append("line %d: want line_too_long, got %r" % (n, line[:200]))
            elif n % 97 == 0 or len(piles) > 10:  # a sample of the small ones
                why = check_nim_answer(line, piles, x)
                if why:
                    p.append("line %d: %s" % (n, why))
            if len(p) > 10:
                break
    if n != len(rows):
        p.append("%d answer lines for %d input lines" % (n, len(rows)))
    return p


def t_batch_memory(grundy, tmp):
    """A 200 MB file (small queries, 2 MB overlong lines, 200 KB queries):
    max RSS within 48 MB of that for a 16 MB file of the same lines, and well
    below the file's size. (Reading it whole would add 200 MB; the slack is
    for AddressSanitizer's allocator, which creeps up ~20 MB over 200 MB while
    a normal build stays within 2 MB; sanitizer builds have a larger base.)"""
    r = random.Random(9)
    big, small, out = (os.path.join(tmp, n) for n in ("mem-big.ndjson", "mem-small.ndjson", "mem.out"))
    rows_small, _ = memory_file(small, r, 16 << 20)
    rows, size = memory_file(big, r, 200 << 20)
    p = []
    rc, rss_small = run_measured([grundy, "batch", small], small, out, BATCH_TIMEOUT)
    p += check_memory_output(out, rows_small)
    rc, rss = run_measured([grundy, "batch", big], big, out, BATCH_TIMEOUT)
    if rc != 1:
        p.append("exit %d, want 1 (overlong lines are errors)" % rc)
    p += check_memory_output(out, rows)
    os.unlink(big)
    os.unlink(out)
    TAP.diag("grundy batch on %d MB (%d lines): max RSS %d KiB (%d KiB on a 16 MB file)"
             % (size >> 20, len(rows), rss, rss_small))
    if rss > rss_small + 48 * 1024 or rss > (size >> 10) * 3 // 4:
        p.append("max RSS %d KiB on %d MB, %d KiB on 16 MB: memory grows with the input"
                 % (rss, size >> 20, rss_small))
    return p


# ---------------------------------------------------------------------------


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: test_cli.py path/to/grundy [path/to/grundyd]", file=sys.stderr)
        return 2
    grundy = sys.argv[1]

    def body():
        daemon = None
        if len(sys.argv) == 3:
            daemon = Daemon(sys.argv[2])
            TAP.result(True, "grundyd started on 127.0.0.1:%d for comparison" % daemon.port)
        else:
            TAP.diag("no grundyd given: answers are checked against brute force only")
        TAP.run("grundy --help and -h exit 0", t_help, grundy)
        TAP.run("misuse exits 2 with a message on stderr", t_misuse, grundy)
        TAP.run("GRUNDYD_QUERY_CPU_MS and GRUNDYD_BATCH_CPU_MS set the local CPU limits", t_cpu_env, grundy)
        TAP.run("grundy query 'JSON' answers every game (same bytes as the daemon)",
                t_single_queries, grundy, daemon)
        TAP.run("grundy query 'JSON' errors exit 1 with the daemon's error body",
                t_error_queries, grundy, daemon)
        TAP.run("grundy query - : blank lines skipped, one answer per line in order, exit 1",
                t_ndjson_mixed, grundy, daemon)
        TAP.run("grundy query - : 300 good lines answered in order, exit 0", t_ndjson_all_good, grundy)
        TAP.run("grundy query - : empty or blank input, no output, exit 0", t_ndjson_empty, grundy)
        TAP.run("grundy query - : only bad lines, exit 1", t_ndjson_only_errors, grundy)
        TAP.run("grundy query - : every game against brute force, with round trips",
                t_ndjson_brute, grundy)
        TAP.run("grundy query - : a line with 50000 piles", t_long_line, grundy)
        with tempfile.TemporaryDirectory(prefix="grundy-batch-") as tmp:
            TAP.run("grundy batch FILE: 100000 NDJSON nim queries, exact, same as query -",
                    t_batch_ndjson_100k, grundy, tmp)
            TAP.run("grundy batch - : one answer per line, empty and overlong lines are errors, exit 1",
                    t_batch_ndjson_lines, grundy)
            TAP.run("grundy batch --json: results are the per-query answers in order",
                    t_batch_json, grundy, tmp)
            TAP.run("grundy batch --json: bad bodies refused whole, exit 1", t_batch_json_refused, grundy)
            TAP.run("grundy batch: misuse exits 2, unreadable input 1", t_batch_misuse, grundy, tmp)
            TAP.run("grundy batch - : answers each line before the next arrives",
                    t_batch_interactive, grundy)
            TAP.run("grundy batch: memory stays bounded on a 200 MB file", t_batch_memory, grundy, tmp)
        if daemon is not None:
            rc = daemon.stop()
            TAP.result(rc == 0, "grundyd stopped with SIGTERM, exit 0",
                       () if rc == 0 else ["exit status %r" % rc])

    return run_main(TAP, "test_cli.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
