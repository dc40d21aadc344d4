#!/usr/bin/env python3
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
import harness  # noqa: E402
from harness import Client, Tap, bad_number_tokens, run_main  # noqa: E402

WATCHDOG_SECONDS = 55
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
        if daemon is not None:
            rc = daemon.stop()
            TAP.result(rc == 0, "grundyd stopped with SIGTERM, exit 0",
                       () if rc == 0 else ["exit status %r" % rc])

    return run_main(TAP, "test_cli.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
