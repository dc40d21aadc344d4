#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""HTTP integration tests for grundyd.

Usage: test_http.py path/to/grundyd

Spawns the daemon on 127.0.0.1 with --port 0 (twice: one instance for the
functional tests, one for the SIGTERM drain test), checks answers against the
independent brute force in brute.py, and prints TAP. Python 3 stdlib only;
every wait is bounded and a watchdog ends the run (killing the daemons) if it
ever overruns.
"""

import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import HOST, Client, Daemon, Resp, Tap, bad_number_tokens, run_main  # noqa: E402

WATCHDOG_SECONDS = 55
INT_MAX = 2**63 - 1
E18 = 10**18

TAP = Tap()

# ---------------------------------------------------------------------------
# HTTP helpers


def raw_exchange(port, data, timeout=10):
    """Sends bytes on a fresh socket, reads until the server closes or the
    timeout; returns all bytes received."""
    s = socket.create_connection((HOST, port), timeout=timeout)
    try:
        s.sendall(data)
        out = b""
        while True:
            try:
                d = s.recv(65536)
            except socket.timeout:
                break
            if not d:
                break
            out += d
        return out
    finally:
        s.close()


def read_http_response(sock, buf=b"", head_only=False):
    """Reads one response with Content-Length from sock (bounded by the
    socket timeout); returns (Resp, leftover bytes)."""
    while b"\r\n\r\n" not in buf:
        d = sock.recv(65536)
        if not d:
            raise ConnectionError("closed before the response headers; got %r" % buf[:200])
        buf += d
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = []
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers.append((k.strip(), v.strip()))
    clen = 0 if head_only else int(next((v for k, v in headers if k.lower() == "content-length"), "0"))
    while len(rest) < clen:
        d = sock.recv(65536)
        if not d:
            raise ConnectionError("closed mid-body")
        rest += d
    return Resp(status, headers, rest[:clen]), rest[clen:]


def http_request_bytes(method, path, body=b"", extra=""):
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
    head = "%s %s HTTP/1.1\r\nHost: %s\r\n%s" % (method, path, HOST, extra)
    if body or method == "POST":
        head += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
    return head.encode() + b"\r\n" + body


# ---------------------------------------------------------------------------
# Answer checks

ANSWER_KEYS = {"game", "convention", "winner", "grundy", "components", "move", "next", "explanation"}


def shape_problems(resp, query):
    p = []
    if resp.status != 200:
        return ["status %d for %s: %r" % (resp.status, json.dumps(query), resp.raw[:300])]
    ct = resp.header("Content-Type") or ""
    if not ct.startswith("application/json"):
        p.append("Content-Type %r" % ct)
    a = resp.json
    if not isinstance(a, dict):
        return p + ["body is not a JSON object: %r" % resp.raw[:200]]
    missing = ANSWER_KEYS - set(a)
    if missing:
        p.append("missing keys %s" % sorted(missing))
    bad = bad_number_tokens(resp.raw)
    if bad:
        p.append("numbers not written as plain digits: %r" % bad[:5])
    if a.get("game") != query.get("game"):
        p.append("game echoed as %r" % a.get("game"))
    conv = query.get("convention") or "normal"
    if a.get("convention") != conv:
        p.append("convention echoed as %r, sent %r" % (a.get("convention"), conv))
    if a.get("winner") not in ("first", "second"):
        p.append("winner %r" % a.get("winner"))
    if a.get("winner") == "second" and (a.get("move") is not None or a.get("next") is not None):
        p.append("winner second but move/next not null: %r / %r" % (a.get("move"), a.get("next")))
    g = a.get("grundy")
    if g is not None and (not isinstance(g, int) or isinstance(g, bool) or g < 0):
        p.append("grundy %r is not a non-negative integer" % (g,))
    if not isinstance(a.get("components"), list):
        p.append("components is not a list")
    if not isinstance(a.get("explanation"), str) or not a.get("explanation"):
        p.append("explanation missing or empty")
    mv = a.get("move")
    if mv is not None and not (isinstance(mv, dict) and isinstance(mv.get("text"), str) and mv["text"]):
        p.append("move has no text: %r" % (mv,))
    return p


def component_grundys(a):
    out = []
    for c in a.get("components") or []:
        out.append(c.get("grundy") if isinstance(c, dict) else "?")
    return out


class Checker:
    """Checks answers against brute force, including the `next` round trip."""

    def __init__(self, client):
        self.client = client
        self.count = 0

    def check(self, query, expect=None, roundtrip=True, brute_next=True):
        """Returns a list of problems for one query. expect: a brute.Result
        (computed with brute.solve when None). brute_next: also solve the
        `next` position by brute force (else only the service's verdict)."""
        q = json.dumps(query)
        if expect is None:
            expect = brute.solve(query)
        r = self.client.post(query)
        self.count += 1
        p = shape_problems(r, query)
        if p:
            return ["%s: %s" % (q, x) for x in p]
        a = r.json
        if a["winner"] != expect.winner:
            p.append("%s: winner %r, brute force says %r" % (q, a["winner"], expect.winner))
        misere = (query.get("convention") or "normal") == "misere"
        if misere:
            if a["grundy"] is not None:
                p.append("%s: misere play must have grundy null, got %r" % (q, a["grundy"]))
        elif a["grundy"] is not None and expect.grundy is not None and a["grundy"] != expect.grundy:
            p.append("%s: grundy %r, brute force says %r" % (q, a["grundy"], expect.grundy))
        if expect.components is not None and not misere:
            got = component_grundys(a)
            if len(got) != len(expect.components) or any(
                    g is not None and g != w for g, w in zip(got, expect.components)):
                p.append("%s: component grundy values %r, brute force says %r" % (q, got, expect.components))
        if a["winner"] != "first" or p:
            return p
        if a["next"] is None:
            if misere or query["game"] == "nim":
                # misere: a position with no move at all is a first-player win
                if not brute.legal_next(query):
                    if a["move"] is not None:
                        p.append("%s: no legal move exists but move is %r" % (q, a["move"]))
                    return p
            p.append("%s: winner first but next is null" % q)
            return p
        if not isinstance(a["move"], dict):
            p.append("%s: winner first but move is %r" % (q, a["move"]))
        why = brute.check_move(query, a["next"])
        if why:
            p.append("%s: next %s is not one legal move away: %s" % (q, json.dumps(a["next"]), why))
            return p
        if not roundtrip:
            return p
        back = brute.merge(query, a["next"])
        if brute_next:
            bn = brute.solve(back)
            if bn.winner != "second":
                p.append("%s: next %s is a %r win by brute force, not a loss for the mover"
                         % (q, json.dumps(a["next"]), bn.winner))
        r2 = self.client.post(back)
        self.count += 1
        p2 = shape_problems(r2, back)
        if p2:
            return p + ["%s (sent back): %s" % (json.dumps(back), x) for x in p2]
        if r2.json["winner"] != "second":
            p.append("%s: sending next back (%s) answers winner %r, not second"
                     % (q, json.dumps(back), r2.json["winner"]))
        return p

    def check_all(self, queries, **kw):
        problems = []
        for query in queries:
            problems += self.check(query, **kw)
        return problems


def error_problems(resp, status, field="*", code=None, what=""):
    """Checks an error reply; field '*' = any (string or null)."""
    p = []
    tag = what or ""
    if resp.status != status:
        return ["%s: status %d, want %d: %r" % (tag, resp.status, status, resp.raw[:300])]
    ct = resp.header("Content-Type") or ""
    if not ct.startswith("application/json"):
        p.append("%s: Content-Type %r" % (tag, ct))
    j = resp.json
    if not (isinstance(j, dict) and set(j) == {"error"} and isinstance(j["error"], dict)):
        return p + ["%s: body is not {\"error\": {...}}: %r" % (tag, resp.raw[:300])]
    e = j["error"]
    if set(e) != {"code", "message", "field"}:
        p.append("%s: error keys %r, want code/message/field" % (tag, sorted(e)))
    if not isinstance(e.get("code"), str) or not e.get("code"):
        p.append("%s: error code %r" % (tag, e.get("code")))
    if not isinstance(e.get("message"), str) or not e.get("message"):
        p.append("%s: error message %r" % (tag, e.get("message")))
    if e.get("field") is not None and not isinstance(e.get("field"), str):
        p.append("%s: error field %r" % (tag, e.get("field")))
    if field != "*" and e.get("field") != field:
        p.append("%s: error field %r, want %r" % (tag, e.get("field"), field))
    if code is not None and e.get("code") != code:
        p.append("%s: error code %r, want %r" % (tag, e.get("code"), code))
    return p


# ---------------------------------------------------------------------------
# Position generators (fixed seeds)


def all_piles(max_piles, max_size):
    out = [[]]
    frontier = [[]]
    for _ in range(max_piles):
        frontier = [f + [v] for f in frontier for v in range(max_size + 1)]
        out += frontier
    return out


def rnd(seed):
    return random.Random(seed)


# ---------------------------------------------------------------------------
# Tests: games vs brute force


def t_nim_normal_grid(ck):
    return ck.check_all({"game": "nim", "piles": p} for p in all_piles(3, 5))


def t_nim_misere_grid(ck):
    return ck.check_all({"game": "nim", "convention": "misere", "piles": p} for p in all_piles(3, 5))


def t_nim_random(ck):
    r = rnd(1)
    qs = []
    for _ in range(60):
        piles = [r.choice([0, 1, 1, 2, 3, r.randint(0, 12)]) for _ in range(r.randint(1, 5))]
        qs.append({"game": "nim", "piles": piles})
        qs.append({"game": "nim", "convention": "misere", "piles": piles})
    return ck.check_all(qs)


def t_nim_misere_special(ck):
    p = []
    # No piles or only empty piles: the mover cannot move and so wins.
    for piles in ([], [0], [0, 0, 0]):
        r = ck.client.post({"game": "nim", "convention": "misere", "piles": piles})
        if r.status != 200 or r.json.get("winner") != "first" or r.json.get("move") is not None:
            p.append("misere %r: want winner first, move null; got %r" % (piles, r))
    # The widely copied wrong rule would get these wrong.
    for piles, want in (([1], "second"), ([1, 1], "first"), ([1, 1, 1], "second"), ([2], "first"),
                        ([2, 2], "second"), ([1, 2, 3], "second"), ([2, 3], "first"),
                        ([1, 1, 2], "first"), ([3, 3, 1, 1], "second")):
        want_b = brute.solve({"game": "nim", "convention": "misere", "piles": piles}).winner
        if want_b != want:
            p.append("brute force disagrees with the table at %r" % piles)
        p += ck.check({"game": "nim", "convention": "misere", "piles": piles})
    # accented spelling is at least not a crash: 200 or 422
    r = ck.client.post({"game": "nim", "convention": "mis\u00e8re", "piles": [1, 2]})
    if r.status not in (200, 422):
        p.append("convention misère (accented): status %d" % r.status)
    return p


def t_subtraction(ck):
    r = rnd(2)
    qs = []
    for _ in range(150):
        moves = sorted(r.sample(range(1, 9), r.randint(1, 4)))
        piles = [r.randint(0, 40) for _ in range(r.randint(1, 3))]
        qs.append({"game": "subtraction", "moves": moves, "piles": piles})
    qs.append({"game": "subtraction", "moves": [1, 3, 4], "piles": []})
    qs.append({"game": "subtraction", "moves": [5], "piles": [0, 4, 3]})
    return ck.check_all(qs)


SUBTRACTION_VECTORS = [([1, 2, 3], (0, 4)), ([1, 3, 4], (0, 7)), ([2, 3], (0, 5)), ([2, 5], (0, 7)),
                       ([3, 5, 9], (14, 2)), ([1, 4, 7, 11, 15], (47, 8))]


def t_subtraction_periods(ck):
    p = []
    for moves, (s, per) in SUBTRACTION_VECTORS:
        if brute.subtraction_period(moves) != (s, per):
            p.append("brute force period of %r is %r, references say %r"
                     % (moves, brute.subtraction_period(moves), (s, per)))
        g = brute.subtraction_values(moves, 400)
        big = [E18, E18 + 1, INT_MAX, 123456789012345678]
        q = {"game": "subtraction", "moves": moves, "piles": big + [77]}
        want = [brute.periodic_value(g, s, per, n) for n in big + [77]]
        x = 0
        for v in want:
            x ^= v
        p += ck.check(q, brute.Result("first" if x else "second", x, want), brute_next=False)
        r = ck.client.post(q)
        for c in (r.json or {}).get("components", []):
            if c.get("period") != {"preperiod": s, "period": per}:
                p.append("%r: component period %r, want %r" % (moves, c.get("period"),
                                                              {"preperiod": s, "period": per}))
                break
    return p


def t_staircase_grid(ck):
    qs = []
    for length in range(1, 5):
        for st in all_piles(length, 3):
            if len(st) == length:
                qs.append({"game": "staircase", "stairs": st})
    qs.append({"game": "staircase", "stairs": []})
    return ck.check_all(qs)


def t_staircase_random(ck):
    r = rnd(3)
    qs = []
    for _ in range(60):
        n = r.randint(2, 6)
        st = [0] * n
        for _ in range(r.randint(0, 9)):
            st[r.randrange(n)] += 1
        qs.append({"game": "staircase", "stairs": st})
    p = ck.check_all(qs)
    # component values: their XOR is the whole value (the theorem the service uses)
    for q in qs[:10]:
        a = ck.client.post(q).json
        x = 0
        for g in component_grundys(a):
            x ^= g
        if a["grundy"] is not None and x != a["grundy"]:
            p.append("%s: XOR of component values %d != grundy %d" % (json.dumps(q), x, a["grundy"]))
    return p


def t_wythoff_grid(ck):
    return ck.check_all({"game": "wythoff", "piles": [x, y]} for x in range(21) for y in range(21))


def t_fibonacci(ck):
    qs = [{"game": "fibonacci", "n": n} for n in range(0, 45)]
    for n in range(0, 26):
        for lim in range(0, n + 3):
            qs.append({"game": "fibonacci", "n": n, "limit": lim})
    return ck.check_all(qs)


def t_divisor(ck):
    return ck.check_all({"game": "divisor", "n": n} for n in range(1, 201))


OCTAL_CODES = ["0.77", "0.07", "0.137", "0.4", "0.6", "0.007", "0.51", "0.33", "0.16", "0.777"]


def t_octal(ck):
    # Codes without a short period make the service compute up to its value
    # bound on every query, so each code gets a few multi-pile queries (every
    # component value is checked) rather than one query per heap.
    r = rnd(4)
    qs = []
    codes = list(OCTAL_CODES)
    for _ in range(10):
        codes.append("0." + "".join(str(r.randint(0, 7)) for _ in range(r.randint(0, 3))) + str(r.randint(1, 7)))
    for code in codes:
        qs.append({"game": "octal", "code": code, "piles": list(range(0, 41))})
        qs.append({"game": "octal", "code": code, "piles": list(range(41, 81))})
        for _ in range(2):
            qs.append({"game": "octal", "code": code,
                       "piles": [r.randint(0, 60) for _ in range(r.randint(1, 3))]})
    return ck.check_all(qs)


def t_grundys_game(ck):
    r = rnd(5)
    qs = [{"game": "grundys_game", "piles": [n]} for n in range(0, 301)]
    for _ in range(60):
        qs.append({"game": "grundys_game", "piles": [r.randint(0, 400) for _ in range(r.randint(1, 4))]})
    return ck.check_all(qs)


def random_dag(r, nodes, ids):
    order = list(range(nodes))
    r.shuffle(order)
    edges = []
    for i in range(nodes):
        for j in range(i + 1, nodes):
            if r.random() < 0.3:
                edges.append([ids[order[j]], ids[order[i]]])  # later -> earlier: acyclic
    r.shuffle(edges)
    return edges


def t_graph(ck):
    r = rnd(6)
    qs = []
    for case in range(120):
        n = r.randint(1, 14)
        if case % 3 == 0:
            ids = r.sample(range(0, 10**6), n)
        elif case % 3 == 1:
            ids = [E18 + k * 7919 for k in range(n)]
        else:
            ids = list(range(n))
        edges = random_dag(r, n, ids)
        tokens = [r.choice(ids + [ids[0]]) for _ in range(r.randint(1, 4))]
        q = {"game": "graph", "edges": edges, "tokens": tokens}
        if case % 3 == 2 and r.random() < 0.5:
            q["nodes"] = n + r.randint(0, 3)
        qs.append(q)
    # tokens on a node that appears in no edge (terminal), shared nodes
    qs.append({"game": "graph", "edges": [[0, 1], [1, 2], [0, 2]], "tokens": [0, 0, 5], "nodes": 6})
    qs.append({"game": "graph", "edges": [], "tokens": [3, 4]})
    qs.append({"game": "graph", "edges": [[1, 2], [2, 3], [1, 3]], "tokens": [1, 1, 7]})
    qs.append({"game": "graph", "edges": [[5, 4], [4, 3], [3, 2], [2, 1]], "tokens": [5]})
    return ck.check_all(qs)


def t_graph_cycles(ck):
    """Cycles are answered by Smith's theory in the disjunctive sum (brute
    force in test_compounds_cycles.py); the selective compounds refuse them."""
    p = []
    for edges in ([[0, 1], [1, 0]], [[3, 3]], [[0, 1], [1, 2], [2, 0], [5, 6]],
                  [[E18, 1], [1, E18]]):
        for tokens in ([0], [6] if len(edges) > 3 else [1]):
            q = {"game": "graph", "edges": edges, "tokens": tokens, "compound": "selective"}
            p += error_problems(ck.client.post(q), 422, code="cycle", what=json.dumps(q))
            r = ck.client.post({"game": "graph", "edges": edges, "tokens": tokens})
            if r.status != 200 or r.json.get("winner") not in ("first", "second", "draw"):
                p.append("%r with a cycle: want 200, got %d %r" % (edges, r.status, r.body[:200]))
    return p


def t_string_integers(ck):
    """Counts may be decimal strings anywhere."""
    qs = [
        {"game": "nim", "piles": ["3", 4, "5"]},
        {"game": "subtraction", "moves": ["1", "3", 4], "piles": ["10", 6]},
        {"game": "staircase", "stairs": ["0", "3", 1, "2"]},
        {"game": "wythoff", "piles": ["4", "7"]},
        {"game": "fibonacci", "n": "20", "limit": "5"},
        {"game": "divisor", "n": "12"},
        {"game": "octal", "code": "0.77", "piles": ["9", "4"]},
        {"game": "grundys_game", "piles": ["9", 10]},
        {"game": "graph", "edges": [["0", "1"], [1, "2"]], "tokens": ["0", 1], "nodes": "3"},
    ]
    p = ck.check_all(qs)
    # the answer is the same as with numbers
    for q in qs:
        def num(v):
            if isinstance(v, str) and v.isdigit():
                return int(v)
            if isinstance(v, list):
                return [num(x) for x in v]
            return v
        qn = {k: num(v) for k, v in q.items()}
        a, b = ck.client.post(q).json, ck.client.post(qn).json
        if a != b:
            p.append("%s and %s answer differently: %r vs %r" % (json.dumps(q), json.dumps(qn), a, b))
    return p


# ---------------------------------------------------------------------------
# Tests: exact integers


def t_big_nim(ck, as_string):
    a, b = 1000000000000000001, 1000000000000000000
    piles = [str(a), str(b)] if as_string else [a, b]
    q = {"game": "nim", "piles": piles}
    p = ck.check(q, brute.Result("first", 1, [a, b]), brute_next=False)
    r = ck.client.post(q)
    if r.status == 200:
        j = r.json
        if j.get("grundy") != 1:
            p.append("grundy %r, want exactly 1" % j.get("grundy"))
        if b"1000000000000000001" not in r.raw:
            p.append("body does not contain the exact digits 1000000000000000001")
        if j.get("next") != {"piles": [b, b]}:
            p.append("next %r, want {'piles': [%d, %d]}" % (j.get("next"), b, b))
    return p


def t_int_max(ck):
    p = []
    for piles in ([INT_MAX], [str(INT_MAX)], [INT_MAX, INT_MAX - 1], [INT_MAX, str(INT_MAX)]):
        vals = [int(v) for v in piles]
        x = 0
        for v in vals:
            x ^= v
        p += ck.check({"game": "nim", "piles": piles},
                      brute.Result("first" if x else "second", x, vals), brute_next=False)
    r = ck.client.post({"game": "nim", "piles": [INT_MAX]})
    if r.status == 200 and b"9223372036854775807" not in r.raw:
        p.append("2^63-1 not written exactly: %r" % r.raw[:200])
    return p


def t_out_of_range(ck):
    p = []
    cases = [
        ({"game": "nim", "piles": [2**63]}, "piles[0]"),
        ({"game": "nim", "piles": [1, 2**63]}, "piles[1]"),
        ({"game": "nim", "piles": [1, 2, str(2**63)]}, "piles[2]"),
        ({"game": "nim", "piles": [10**30]}, "piles[0]"),
        ({"game": "nim", "piles": [str(2**64)]}, "piles[0]"),
        ({"game": "nim", "piles": [1, 18446744073709551616]}, "piles[1]"),
        ({"game": "fibonacci", "n": 2**63}, "n"),
        ({"game": "fibonacci", "n": 5, "limit": 2**63}, "limit"),
        ({"game": "divisor", "n": 2**63}, "n"),
        ({"game": "staircase", "stairs": [0, 2**63]}, "stairs[1]"),
        ({"game": "wythoff", "piles": [1, 2**63]}, "piles[1]"),
        ({"game": "graph", "edges": [[0, 2**63]], "tokens": [0]}, "edges[0][1]"),
        ({"game": "graph", "edges": [[0, 1]], "tokens": [2**63]}, "tokens[0]"),
    ]
    for q, field in cases:
        p += error_problems(ck.client.post(q), 422, field=field, what=json.dumps(q))
    return p


BAD_INTS = [("1.5", "1.5"), ("1e3", "1e3"), ("1E3", "1E3"), ("-1", "-1"), ("\"12a\"", "string 12a"),
            ("true", "true"), ("false", "false"), ("\"\"", "empty string"), ("\"-1\"", "string -1"),
            ("\" 12\"", "string with a space"), ("\"1.0\"", "string 1.0"), ("\"+5\"", "string +5"),
            ("\"0x10\"", "string 0x10"), ("[1]", "array"), ("{}", "object"), ("-0", "-0"),
            ("1.0e0", "1.0e0"), ("null", "null")]


def t_bad_integers(ck):
    p = []
    templates = [
        ('{"game":"nim","piles":[3,%s]}', "piles[1]"),
        ('{"game":"subtraction","moves":[%s],"piles":[3]}', "moves[0]"),
        ('{"game":"staircase","stairs":[0,1,%s]}', "stairs[2]"),
        ('{"game":"fibonacci","n":%s}', "n"),
        ('{"game":"fibonacci","n":5,"limit":%s}', "limit"),
        ('{"game":"divisor","n":%s}', "n"),
        ('{"game":"wythoff","piles":[%s,2]}', "piles[0]"),
        ('{"game":"octal","code":"0.77","piles":[%s]}', "piles[0]"),
        ('{"game":"grundys_game","piles":[1,%s]}', "piles[1]"),
        ('{"game":"graph","edges":[[0,%s]],"tokens":[0]}', "edges[0][1]"),
        ('{"game":"graph","edges":[[0,1]],"tokens":[%s]}', "tokens[0]"),
        ('{"game":"graph","edges":[[0,1]],"tokens":[0],"nodes":%s}', "nodes"),
    ]
    for tmpl, field in templates:
        for lit, name in BAD_INTS:
            if lit == "null" and field in ("limit", "nodes"):
                continue  # null means "absent" for optional fields
            body = tmpl % lit
            p += error_problems(ck.client.post(body), 422, field=field, what=body)
    return p


def t_wythoff_big(ck):
    p = []
    # the exact formula agrees with brute force on small positions
    table = brute.wythoff_table(60)
    for x in range(61):
        for y in range(61):
            if (table[x][y] == 0) != brute.wythoff_is_p(x, y):
                p.append("formula vs brute force at (%d, %d)" % (x, y))
    r = rnd(7)
    positions = []
    for k in (E18, 3 * E18, 123456789012345678, 2 * E18 + 1, 5 * 10**17 + 3):
        a = brute.wythoff_a(k)
        assert a + k <= INT_MAX
        positions += [(a, a + k), (a + k, a), (a + 1, a + k), (a, a + k + 1), (a - 1, a + k)]
    for _ in range(40):
        x = r.randint(E18 // 2, 2 * E18)
        y = r.randint(E18 // 2, 2 * E18)
        positions.append((x, y))
    positions += [(E18, E18), (E18, E18 + 12345), (0, E18), (INT_MAX, INT_MAX), (1, INT_MAX)]
    for x, y in positions:
        q = {"game": "wythoff", "piles": [x, y]}
        want = "second" if brute.wythoff_is_p(x, y) else "first"
        resp = ck.client.post(q)
        sp = shape_problems(resp, q)
        if sp:
            p += ["%s: %s" % (json.dumps(q), s) for s in sp]
            continue
        a = resp.json
        if a["winner"] != want:
            p.append("%s: winner %r, exact formula says %r" % (json.dumps(q), a["winner"], want))
            continue
        if want == "first":
            why = brute.check_move(q, a["next"])
            if why:
                p.append("%s: %s" % (json.dumps(q), why))
                continue
            nx, ny = a["next"]["piles"]
            if not brute.wythoff_is_p(nx, ny):
                p.append("%s: next %r is not a P-position (a_k, a_k + k)" % (json.dumps(q), [nx, ny]))
            back = ck.client.post(brute.merge(q, a["next"]))
            if back.status != 200 or back.json.get("winner") != "second":
                p.append("%s: next sent back answers %r" % (json.dumps(q), back))
        ck.count += 1
    return p


def kayles_like(ck, code, want_period, heaps):
    p = []
    s, per = want_period
    if brute.octal_period(code) != want_period:
        p.append("brute force: %s has period %r, references say %r" % (code, brute.octal_period(code), want_period))
    g = brute.octal_values(code, 600)
    for heap in heaps:
        q = {"game": "octal", "code": code, "piles": [heap]}
        v = brute.periodic_value(g, s, per, heap)
        p += ck.check(q, brute.Result("first" if v else "second", v, [v]), brute_next=False)
        resp = ck.client.post(q)
        if resp.status != 200:
            continue
        comps = resp.json.get("components") or [{}]
        if comps[0].get("period") != {"preperiod": s, "period": per}:
            p.append("%s: period %r, want %r" % (json.dumps(q), comps[0].get("period"),
                                                 {"preperiod": s, "period": per}))
        nxt = resp.json.get("next")
        if nxt:
            x = 0
            for h in nxt["piles"]:
                x ^= brute.periodic_value(g, s, per, h)
            if x:
                p.append("%s: next %r has value %d by the brute-force period, not 0" % (json.dumps(q), nxt, x))
        if b"%d" % heap not in resp.raw:
            p.append("%s: the heap size is not echoed exactly" % json.dumps(q))
    return p


def t_kayles_big(ck):
    return kayles_like(ck, "0.77", (71, 12), [E18, E18 + 5, INT_MAX, 70, 71, 83, 1000])


def t_dawson_periods(ck):
    return (kayles_like(ck, "0.07", (53, 34), [E18, 52, 53, 200, INT_MAX])
            + kayles_like(ck, "0.137", (52, 34), [E18, 51, 52, 200, 987654321987654321]))


def t_big_misc(ck):
    """Other games at 10^18 by exact rules cross-checked with brute force."""
    p = []
    # Fibonacci nim rule (references.md) vs brute force, then at 10^18.
    for n in range(1, 60):
        for lim in range(0, n + 1):
            rule = brute.zeckendorf(n)[-1] <= lim
            if rule != (brute.fibonacci_grundy(n, lim) != 0):
                p.append("zeckendorf rule vs brute at (%d, %d)" % (n, lim))
    r = rnd(8)
    for _ in range(30):
        n = r.randint(E18, INT_MAX)
        lim = r.choice([None, r.randint(1, 100), r.randint(1, n), 2 * n])
        q = {"game": "fibonacci", "n": n}
        if lim is not None:
            q["limit"] = min(lim, INT_MAX)
        qlim = q.get("limit", n - 1)
        win = brute.zeckendorf(n)[-1] <= qlim
        res = ck.client.post(q)
        sp = shape_problems(res, q)
        if sp:
            p += ["%s: %s" % (json.dumps(q), s) for s in sp]
            continue
        a = res.json
        if a["winner"] != ("first" if win else "second"):
            p.append("%s: winner %r, Zeckendorf rule says %s" % (json.dumps(q), a["winner"], win))
            continue
        if win:
            why = brute.check_move(q, a["next"])
            back = brute.merge(q, a["next"])
            if why:
                p.append("%s: %s" % (json.dumps(q), why))
            elif back["n"] > 0 and brute.zeckendorf(back["n"])[-1] <= back["limit"]:
                p.append("%s: next %r is a win for the mover by the rule" % (json.dumps(q), a["next"]))
            else:
                b2 = ck.client.post(back)
                if b2.status != 200 or b2.json.get("winner") != "second":
                    p.append("%s: next sent back answers %r" % (json.dumps(q), b2))
    # Divisor: winner iff n even (checked against brute force first).
    g = brute.divisor_values(300)
    for n in range(1, 301):
        if (g[n] != 0) != (n % 2 == 0):
            p.append("parity rule vs brute at %d" % n)
    for n in (E18, E18 + 1, INT_MAX, INT_MAX - 1, 2**62, 3**39):
        q = {"game": "divisor", "n": n}
        res = ck.client.post(q)
        sp = shape_problems(res, q)
        if sp:
            p += ["%s: %s" % (json.dumps(q), s) for s in sp]
            continue
        a = res.json
        if a["winner"] != ("first" if n % 2 == 0 else "second"):
            p.append("%s: winner %r" % (json.dumps(q), a["winner"]))
        elif a["winner"] == "first":
            why = brute.check_move(q, a["next"])
            if why:
                p.append("%s: %s" % (json.dumps(q), why))
            elif a["next"]["n"] % 2 == 0:
                p.append("%s: next n %d is even (a win for the mover)" % (json.dumps(q), a["next"]["n"]))
    # Staircase: nim on odd stairs (checked against brute force in the grid test).
    for st in ([0, E18, 5, E18 + 1], [E18, 1, E18, 1], [7, E18, 0, E18], [1, 2, 3, 4, 5, E18 * 3],
               [INT_MAX]):
        q = {"game": "staircase", "stairs": st}
        x = 0
        for i in range(1, len(st), 2):
            x ^= st[i]
        p += ck.check(q, brute.Result("first" if x else "second", x, None), brute_next=False)
    q = {"game": "staircase", "stairs": [INT_MAX, 1]}
    p += error_problems(ck.client.post(q), 422, field="stairs", what=json.dumps(q))
    return p


def t_grundys_game_far(ck):
    """Values far past brute force, from the shared sample file when present."""
    p = []
    path = os.environ.get("GRUNDY_SAMPLES") or os.path.join(
        os.environ.get("GRUNDY_DATA_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", "..", "..", "shared", "data")),
        "grundys-game-samples.txt")
    samples = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and not line.startswith("#"):
                    samples.append((int(parts[0]), int(parts[1])))
    g = brute.grundys_game_values(2000)
    # brute-force values beyond the grid test, and the sample file's first entries
    for n, v in samples:
        if n < len(g) and g[n] != v:
            p.append("sample file disagrees with brute force at %d" % n)
    checks = [(n, g[n]) for n in (1222, 1500, 1999)]
    # sample heaps up to the bound the service advertises (every 4th sample)
    r = ck.client.post({"game": "grundys_game", "piles": [10**9]})
    msg = ((r.json or {}).get("error") or {}).get("message", "")
    up_to, below = re.search(r"up to (\d+)", msg), re.search(r"heaps below (\d+)", msg)
    if not (up_to or below):
        p.append("beyond-bound message names no bound: %r" % msg)
    bound = int(up_to.group(1)) if up_to else int(below.group(1)) - 1 if below else 0
    checks += [(n, v) for n, v in samples if 2000 <= n <= bound][::4]
    for n, v in checks:
        q = {"game": "grundys_game", "piles": [n]}
        p += ck.check(q, brute.Result("first" if v else "second", v, [v]), brute_next=False)
    if not samples:
        TAP.diag("grundys-game-samples.txt not found; far values checked only to 2000")
    return p


def t_grundys_game_advertised_bound(ck):
    """The service says it answers Grundy's game up to some heap bound; a heap
    at that bound must then be answered (sample file value when present)."""
    p = []
    r = ck.client.post({"game": "grundys_game", "piles": [10**9]})
    p += error_problems(r, 422, field="piles", what="grundys_game heap 10^9")
    # "answered for heaps below N" with a table file (bound N - 1), "up to N"
    # without one.
    msg = (r.json or {}).get("error", {}).get("message", "")
    below = re.search(r"heaps below (\d+)", msg)
    m = below or re.search(r"up to (\d+)", msg)
    if not m:
        return p + ["beyond-bound message names no bound: %r" % r.raw[:300]]
    bound = int(m.group(1)) - 1 if below else int(m.group(1))
    for n in (bound // 2, bound * 3 // 4, bound):
        q = {"game": "grundys_game", "piles": [n]}
        t0 = time.monotonic()
        res = ck.client.post(q)
        dt = time.monotonic() - t0
        if res.status != 200:
            p.append("heap %d (bound %d advertised): status %d %s (%.2f s)"
                     % (n, bound, res.status, res.raw[:200].decode("utf-8", "replace"), dt))
            continue
        a = res.json
        if a.get("winner") == "first":
            why = brute.check_move(q, a.get("next"))
            if why:
                p.append("heap %d: %s" % (n, why))
    return p


# ---------------------------------------------------------------------------
# Tests: errors


def t_bad_json(port):
    p = []
    c = Client(port)
    bodies = [
        (b'{"game":"nim","piles":[1,2', "truncated"),
        (b'{"game":"nim","piles":[1,2]} x', "trailing garbage"),
        (b'{"game":"nim","piles":[1,2]}{}', "two values"),
        (b"hello", "bare word"),
        (b"", "empty body"),
        (b"{'game':'nim'}", "single quotes"),
        (b'{"game":"nim",}', "trailing comma"),
        (b'{"game":"nim","piles":[01]}', "leading zero"),
        (b'{"game":"ni\x00m","piles":[1]}', "NUL byte"),
        (b'{"game":"nim\n","piles":[1]}', "raw newline in string"),
        (b'{"game":"nim","piles":[1,2]', "unclosed object"),
        (b"[" * 100 + b"]" * 100, "deep nesting"),
        (b'{"game":"nim","piles":[NaN]}', "NaN"),
        (b'{"game":"nim","piles":[Infinity]}', "Infinity"),
        (b'{"game":"nim" "piles":[1]}', "missing comma"),
        (b"\xff\xfe{}", "garbage bytes"),
    ]
    for body, name in bodies:
        p += error_problems(c.post(body), 400, what=name)
    c.close()
    return p


def t_invalid_queries(port):
    c = Client(port)
    cases = [
        ({"game": "chess", "piles": [1]}, "game", "unknown game"),
        ({"piles": [1, 2]}, "game", "missing game"),
        ({"game": 5, "piles": [1]}, "game", "game not a string"),
        ({"game": None, "piles": [1]}, "game", "game null"),
        ({"game": "nim"}, "piles", "missing piles"),
        ({"game": "nim", "piles": 3}, "piles", "piles a number"),
        ({"game": "nim", "piles": "3,4"}, "piles", "piles a string"),
        ({"game": "nim", "piles": {"0": 1}}, "piles", "piles an object"),
        ({"game": "nim", "piles": [1], "convention": "reverse"}, "convention", "bad convention"),
        ({"game": "nim", "piles": [1], "convention": 1}, "convention", "convention not a string"),
        ({"game": "subtraction", "moves": list(range(1, 18)), "piles": [3, 4], "convention": "misere"}, "moves", "misere sum of a 17-move subtraction set"),
        ({"game": "wythoff", "piles": [1, 2], "convention": "misere"}, "convention", "misere wythoff"),
        ({"game": "staircase", "stairs": [1, 2], "convention": "misere"}, "convention", "misere staircase"),
        ({"game": "fibonacci", "n": 5, "convention": "misere"}, "convention", "misere fibonacci"),
        ({"game": "divisor", "n": 5, "convention": "misere"}, "convention", "misere divisor"),
        ({"game": "graph", "edges": [], "tokens": [0, 1], "convention": "misere"}, "convention", "misere graph sum"),
        ({"game": "coins", "rule": "ruler", "heads": [1], "convention": "misere"}, "convention", "misere coins"),
        ({"game": "subtraction", "piles": [3]}, "moves", "missing moves"),
        ({"game": "subtraction", "moves": [], "piles": [3]}, "moves", "empty moves"),
        ({"game": "subtraction", "moves": [0], "piles": [3]}, "moves[0]", "move 0"),
        ({"game": "staircase"}, "stairs", "missing stairs"),
        ({"game": "wythoff", "piles": [1, 2, 3]}, "piles", "wythoff three piles"),
        ({"game": "wythoff", "piles": [1]}, "piles", "wythoff one pile"),
        ({"game": "fibonacci"}, "n", "missing n"),
        ({"game": "divisor"}, "n", "divisor missing n"),
        ({"game": "divisor", "n": 0}, "n", "divisor n 0"),
        ({"game": "octal", "piles": [3]}, "code", "missing code"),
        ({"game": "octal", "code": "0.8", "piles": [3]}, "code", "octal digit 8"),
        ({"game": "octal", "code": "1.7", "piles": [3]}, "code", "octal 1.7"),
        ({"game": "octal", "code": "0.", "piles": [3]}, "code", "octal no digits"),
        ({"game": "octal", "code": "0.000", "piles": [3]}, "code", "octal all zero"),
        ({"game": "octal", "code": 0.77, "piles": [3]}, "code", "octal code a number"),
        ({"game": "octal", "code": "0.77"}, "piles", "octal missing piles"),
        ({"game": "grundys_game"}, "piles", "grundys missing piles"),
        ({"game": "grundys_game", "piles": [10**12]}, "piles", "grundys heap 10^12"),
        ({"game": "graph", "tokens": [0]}, "edges", "graph missing edges"),
        ({"game": "graph", "edges": [[0, 1]]}, "tokens", "graph missing tokens"),
        ({"game": "graph", "edges": [[0]], "tokens": [0]}, "edges[0]", "graph short edge"),
        ({"game": "graph", "edges": [[0, 1, 2]], "tokens": [0]}, "edges[0]", "graph long edge"),
        ({"game": "graph", "edges": 5, "tokens": [0]}, "edges", "graph edges a number"),
        ({"game": "graph", "edges": [[0, 1]], "tokens": [5], "nodes": 2}, "tokens[0]", "token past nodes"),
        ({"game": "graph", "edges": [[0, 7]], "tokens": [0], "nodes": 2}, "edges[0][1]", "edge past nodes"),
    ]
    p = []
    for q, field, name in cases:
        p += error_problems(c.post(q), 422, field=field, what=name)
    for body in ("[1,2]", "null", "42", '"nim"', "true", "[]"):
        p += error_problems(c.post(body), 422, what="body %s (valid JSON, not an object)" % body)
    c.close()
    return p


def t_not_found(port):
    c = Client(port)
    p = []
    # GET / is the playground (test_playground.py)
    for method, path in (("GET", "/index.html"), ("GET", "/v1"), ("POST", "/v1/analyzex"),
                         ("POST", "/v2/analyze"), ("GET", "/healthz/x"), ("POST", "/v1/analyze/x"), ("GET", "/nope")):
        body = {"game": "nim", "piles": [1]} if method == "POST" else None
        p += error_problems(c.request(method, path, body), 404, what="%s %s" % (method, path))
    c.close()
    return p


def t_wrong_method(port):
    c = Client(port)
    p = []
    for method, path, allowed in (("GET", "/v1/analyze", "POST"), ("PUT", "/v1/analyze", "POST"),
                                  ("DELETE", "/v1/analyze", "POST"), ("PATCH", "/v1/analyze", "POST"),
                                  ("POST", "/healthz", "GET"), ("PUT", "/healthz", "GET"),
                                  ("DELETE", "/healthz", "GET")):
        body = {"game": "nim", "piles": [1]} if method in ("PUT", "POST", "PATCH") else None
        r = c.request(method, path, body)
        what = "%s %s" % (method, path)
        p += error_problems(r, 405, what=what)
        allow = r.header("Allow")
        if allow is None or allowed not in [x.strip() for x in allow.split(",")]:
            p.append("%s: Allow header %r does not name %s" % (what, allow, allowed))
    c.close()
    return p


def post_big(port, size, chunked, timeout=20):
    """Sends a `size`-byte body; a reader thread collects the reply while the
    body is being written (the server may answer early and close)."""
    s = socket.create_connection((HOST, port), timeout=timeout)
    got = {}

    def reader():
        try:
            got["resp"], _ = read_http_response(s)
        except Exception as e:  # noqa: BLE001
            got["error"] = repr(e)

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    body = b"[" + b"1," * ((size - 2) // 2) + b"1]"
    send_error = None
    try:
        if chunked:
            s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n")
            for i in range(0, len(body), 65536):
                piece = body[i:i + 65536]
                s.sendall(b"%x\r\n" % len(piece) + piece + b"\r\n")
            s.sendall(b"0\r\n\r\n")
        else:
            s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n" % len(body))
            s.sendall(body)
    except OSError as e:
        send_error = repr(e)  # fine if the server answered early and closed
    t.join(timeout)
    s.close()
    if "resp" in got:
        return got["resp"], None
    return None, "no response (%s; send: %s)" % (got.get("error", "reader timed out"), send_error)


def t_too_large(port):
    p = []
    for chunked in (False, True):
        what = "6 MB body, %s" % ("chunked" if chunked else "Content-Length")
        r, err = post_big(port, 6 * 1024 * 1024, chunked)
        if err:
            p.append("%s: %s" % (what, err))
        else:
            p += error_problems(r, 413, what=what)
    # just over the configured 1 MiB limit, declared
    r, err = post_big(port, 1024 * 1024 + 2, False)
    p += ["just over 1 MiB: " + err] if err else error_problems(r, 413, what="1 MiB + 2 bytes")
    return p


def t_body_near_limit(ck):
    """A valid query padded with whitespace to just under 1 MiB is answered."""
    q = json.dumps({"game": "nim", "piles": [3, 4, 5]}).encode()
    body = q + b" " * (1024 * 1024 - len(q) - 10)
    r = ck.client.post(body)
    if r.status != 200 or r.json.get("grundy") != 2:
        return ["near-limit body: %r" % r]
    return []


def t_content_type_ignored(ck):
    p = []
    for ct in ("application/x-www-form-urlencoded", "text/plain", None):
        hdr = {"Content-Type": ct} if ct else {}
        c = ck.client
        if ct is None:
            c.conn = c.conn or http.client.HTTPConnection(HOST, c.port, timeout=20)
            c.conn.putrequest("POST", "/v1/analyze")
            body = b'{"game":"nim","piles":[1,2]}'
            c.conn.putheader("Content-Length", str(len(body)))
            c.conn.endheaders(body)
            resp = c.conn.getresponse()
            r = Resp(resp.status, resp.getheaders(), resp.read())
        else:
            r = c.post('{"game":"nim","piles":[1,2]}', headers=hdr)
        if r.status != 200 or r.json.get("grundy") != 3:
            p.append("Content-Type %r: %r" % (ct, r))
    return p


def t_healthz(port):
    p = []
    c = Client(port)
    r = c.request("GET", "/healthz")
    if r.status != 200 or r.json != {"status": "ok"}:
        p.append("GET /healthz: %r" % r)
    if not (r.header("Content-Type") or "").startswith("application/json"):
        p.append("GET /healthz Content-Type %r" % r.header("Content-Type"))
    c.close()
    s = socket.create_connection((HOST, port), timeout=10)
    try:
        s.sendall(b"HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        r, rest = read_http_response(s, head_only=True)
        if r.status != 200:
            p.append("HEAD /healthz: status %d" % r.status)
        # then a GET on the same connection still works (HEAD sent no body)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        r2, _ = read_http_response(s, rest)
        if r2.status != 200 or r2.json != {"status": "ok"}:
            p.append("GET after HEAD on one connection: %r" % r2)
    finally:
        s.close()
    return p


def t_keepalive(port):
    """Several requests on one socket, sequential then pipelined."""
    p = []
    s = socket.create_connection((HOST, port), timeout=10)
    try:
        rest = b""
        for i in range(6):
            q = {"game": "nim", "piles": [i, 2 * i + 1]}
            s.sendall(http_request_bytes("POST", "/v1/analyze", q))
            r, rest = read_http_response(s, rest)
            if r.status != 200 or r.json.get("grundy") != i ^ (2 * i + 1):
                p.append("request %d on a kept-alive connection: %r" % (i, r))
            if (r.header("Connection") or "").lower() == "close":
                p.append("request %d: server asked to close the connection" % i)
        s.sendall(http_request_bytes("GET", "/healthz"))
        r, rest = read_http_response(s, rest)
        if r.status != 200:
            p.append("healthz on the kept-alive connection: %r" % r)
        # pipelined: three requests in one write, answers in order
        data = b"".join(http_request_bytes("POST", "/v1/analyze", {"game": "nim", "piles": [k, 1]})
                        for k in (5, 6, 7))
        s.sendall(data)
        for k in (5, 6, 7):
            r, rest = read_http_response(s, rest)
            if r.status != 200 or r.json.get("grundy") != k ^ 1:
                p.append("pipelined request nim [%d, 1]: %r" % (k, r))
    except Exception as e:  # noqa: BLE001
        p.append("keep-alive exchange failed: %r" % e)
    finally:
        s.close()
    return p


def t_hostile_clients(port):
    """Half-sent requests, disconnects mid-body, slow writers: the service
    keeps answering others."""
    p = []
    socks = []
    try:
        # headers only, body promised but never sent
        s = socket.create_connection((HOST, port), timeout=5)
        s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ga")
        socks.append(s)
        # disconnect mid-body, after the server has seen the first part (an
        # immediate hang-up is the subject of t_sigterm_after_abort)
        s2 = socket.create_connection((HOST, port), timeout=5)
        s2.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\"")
        time.sleep(0.1)
        s2.close()
        # garbage request line
        out = raw_exchange(port, b"THIS IS NOT HTTP\r\n\r\n", timeout=3)
        if out and not out.startswith(b"HTTP/1."):
            p.append("garbage request line answered with %r" % out[:80])
        # slow writer: body in small pieces with pauses
        s3 = socket.create_connection((HOST, port), timeout=10)
        body = json.dumps({"game": "nim", "piles": [7, 9, 11]}).encode()
        s3.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body))
        for i in range(0, len(body), 5):
            s3.sendall(body[i:i + 5])
            time.sleep(0.02)
        r, _ = read_http_response(s3)
        s3.close()
        if r.status != 200 or r.json.get("grundy") != 7 ^ 9 ^ 11:
            p.append("slow writer: %r" % r)
        c = Client(port)
        r = c.post({"game": "nim", "piles": [1, 2, 3, 4]})
        if r.status != 200 or r.json.get("grundy") != 4:
            p.append("normal client next to hostile ones: %r" % r)
        c.close()
    finally:
        for s in socks:
            s.close()
    return p


def t_after_storm(ck):
    """After all the errors above, ordinary queries are still right."""
    p = ck.check({"game": "nim", "piles": [3, 4, 5]})
    p += ck.check({"game": "octal", "code": "0.77", "piles": [10, 20]})
    p += ck.check({"game": "nim", "convention": "misere", "piles": [1, 1, 2]})
    r = ck.client.request("GET", "/healthz")
    if r.status != 200:
        p.append("healthz after the storm: %r" % r)
    return p


def t_concurrent(port, threads=16, per_thread=50):
    r = rnd(9)
    pool = []
    for _ in range(200):
        kind = r.randrange(5)
        if kind == 0:
            q = {"game": "nim", "piles": [r.randint(0, 30) for _ in range(r.randint(1, 4))]}
        elif kind == 1:
            q = {"game": "nim", "convention": "misere", "piles": [r.randint(0, 4) for _ in range(r.randint(1, 4))]}
        elif kind == 2:
            q = {"game": "wythoff", "piles": [r.randint(0, 20), r.randint(0, 20)]}
        elif kind == 3:
            q = {"game": "octal", "code": r.choice(["0.77", "0.07", "0.137"]), "piles": [r.randint(0, 50)]}
        else:
            q = {"game": "grundys_game", "piles": [r.randint(0, 200), r.randint(0, 50)]}
        pool.append((q, brute.solve(q)))
    problems = []
    lock = threading.Lock()
    done = [0]

    def worker(seed):
        rr = random.Random(seed)
        c = Client(port, timeout=20)
        local = []
        for _ in range(per_thread):
            q, want = rr.choice(pool)
            try:
                resp = c.post(q)
            except Exception as e:  # noqa: BLE001
                local.append("%s: %r" % (json.dumps(q), e))
                continue
            sp = shape_problems(resp, q)
            if sp:
                local += ["%s: %s" % (json.dumps(q), x) for x in sp]
            elif resp.json["winner"] != want.winner or (want.grundy is not None and resp.json["grundy"] != want.grundy):
                local.append("%s: got winner %r grundy %r, want %r %r"
                             % (json.dumps(q), resp.json["winner"], resp.json["grundy"], want.winner, want.grundy))
            else:
                with lock:
                    done[0] += 1
        c.close()
        with lock:
            problems.extend(local)

    ts = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    t0 = time.monotonic()
    for t in ts:
        t.start()
    for t in ts:
        t.join(max(0.1, 30 - (time.monotonic() - t0)))
    if any(t.is_alive() for t in ts):
        problems.append("some client threads did not finish within 30 s")
    if done[0] != threads * per_thread and not problems:
        problems.append("only %d of %d answers correct" % (done[0], threads * per_thread))
    TAP.diag("%d concurrent requests answered correctly in %.2f s" % (done[0], time.monotonic() - t0))
    return problems


# ---------------------------------------------------------------------------
# SIGTERM drain


def t_sigterm_drain(binary):
    """Slow requests in flight when SIGTERM arrives all finish with a
    complete, correct 200; the process exits 0 and logs event=stopped."""
    p = []
    # slow on purpose: no CPU-time limit and no limit on the queue wait
    d = Daemon(binary, "--threads", "8", "--budget", "4000000000", "--query-cpu-ms", "0",
               "--queue-wait-ms", "0", "--drain-timeout", "10")
    try:
        # pick a size that takes roughly 0.3 s or more here
        slow = None
        for n in (1500, 2200, 3000, 3800):
            q = {"game": "wythoff", "piles": [n, n + 7]}
            c = Client(d.port, timeout=30)
            t0 = time.monotonic()
            r = c.post(q)
            dt = time.monotonic() - t0
            c.close()
            if r.status != 200 or r.json.get("grundy") is None:
                break
            slow, expect, took = q, r.json, dt
            if dt >= 0.3:
                break
        if slow is None:
            return ["could not find a slow wythoff query that answers with a Grundy value"]
        TAP.diag("drain test query %s takes %.2f s alone" % (json.dumps(slow), took))
        if brute.check_move(slow, expect["next"]) is not None:
            p.append("slow query answer has an illegal next: %r" % expect["next"])
        results = {}
        started = threading.Event()
        nreq = 4
        ready = [0]
        lock = threading.Lock()

        def one(i):
            try:
                s = socket.create_connection((HOST, d.port), timeout=30)
                s.sendall(http_request_bytes("POST", "/v1/analyze", slow))
                with lock:
                    ready[0] += 1
                    if ready[0] == nreq:
                        started.set()
                r, _ = read_http_response(s)
                results[i] = r
                s.close()
            except Exception as e:  # noqa: BLE001
                results[i] = e
                started.set()

        ts = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(nreq)]
        for t in ts:
            t.start()
        started.wait(10)
        time.sleep(min(0.15, took / 3))
        t_sig = time.monotonic()
        d.proc.send_signal(signal.SIGTERM)
        try:
            rc = d.proc.wait(15)
        except subprocess.TimeoutExpired:
            rc = None
        exit_after = time.monotonic() - t_sig
        for t in ts:
            t.join(5)
        if rc != 0:
            p.append("exit status %r after SIGTERM (want 0 within the 10 s drain)" % rc)
        if exit_after > 11:
            p.append("exited %.1f s after SIGTERM, past the 10 s drain" % exit_after)
        for i in range(nreq):
            r = results.get(i)
            if r is None:
                p.append("request %d: no result" % i)
            elif isinstance(r, Exception):
                p.append("request %d in flight at SIGTERM got no complete response: %r" % (i, r))
            elif r.status != 200 or r.json != expect:
                p.append("request %d: status %d, body %r (want the same 200 as before)" % (i, r.status, r.raw[:200]))
        d.reader.join(5)
        log = d.log()
        if not any("event=stopped" in line for line in log):
            p.append("no event=stopped in the log: %r" % log[-5:])
        if not any("event=draining" in line for line in log):
            p.append("no event=draining in the log")
        stopped = [line for line in log if "event=stopped" in line]
        if stopped and "abandoned=0" not in stopped[-1]:
            p.append("log says requests were abandoned: %r" % stopped[-1])
        # after exit, the port is closed
        try:
            socket.create_connection((HOST, d.port), timeout=2).close()
            p.append("port still accepts connections after exit")
        except OSError:
            pass
        TAP.diag("exited %.2f s after SIGTERM with %d requests sent; log: %s"
                 % (exit_after, nreq, " | ".join(line for line in log if "event=draining" in line)))
    finally:
        d.kill()
    return p


def t_sigterm_after_abort(binary):
    """A client that sends headers and part of a body, then hangs up at once,
    is not a request in flight: SIGTERM afterwards exits promptly with
    nothing abandoned (rather than waiting out the whole drain time)."""
    p = []
    d = Daemon(binary, "--threads", "2", "--drain-timeout", "10")
    try:
        for _ in range(5):
            s = socket.create_connection((HOST, d.port), timeout=5)
            s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"game\":\"nim\"")
            s.close()
        time.sleep(0.3)
        c = Client(d.port)
        r = c.post({"game": "nim", "piles": [2, 3]})
        c.close()
        if r.status != 200 or r.json.get("grundy") != 1:
            p.append("query after the aborted upload: %r" % r)
        t0 = time.monotonic()
        rc = d.terminate(20)
        dt = time.monotonic() - t0
        if rc != 0:
            p.append("exit status %r" % rc)
        log = [line for line in d.log() if "event=draining" in line or "event=stopped" in line]
        if dt > 5:  # not the 10 s drain timeout: nothing was waited for
            p.append("exit took %.2f s after SIGTERM with no request in flight (drain-timeout 10)" % dt)
        if not any("event=stopped" in line and "abandoned=0" in line for line in log):
            p.append("want event=stopped abandoned=0")
        if p:
            p += ["log: " + line for line in log]
    finally:
        d.kill()
    return p


def t_sigterm_upload_moving(binary):
    """An upload still arriving when SIGTERM comes is a request to answer:
    its body trickles in over about a second, in pieces 50 ms apart, after
    the signal, and it is answered 200 before the daemon exits 0."""
    p = []
    d = Daemon(binary, "--threads", "2", "--drain-timeout", "10")
    s = None
    try:
        body = json.dumps({"game": "nim", "piles": [1, 2, 4]}).encode() + b" " * 2000
        s = socket.create_connection((HOST, d.port), timeout=10)
        s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body[:100])
        time.sleep(0.2)
        d.proc.send_signal(signal.SIGTERM)
        for i in range(100, len(body), 100):
            time.sleep(0.05)
            s.sendall(body[i:i + 100])
        raw = b""
        while b"\r\n\r\n" not in raw or len(raw.partition(b"\r\n\r\n")[2]) < 10:
            piece = s.recv(65536)
            if not piece:
                break
            raw += piece
        if not raw.startswith(b"HTTP/1.1 200 "):
            p.append("the upload that went on after SIGTERM: %r" % raw[:300])
        rc = d.proc.wait(15)
        if rc != 0:
            p.append("exit status %r" % rc)
    finally:
        if s:
            s.close()
        d.kill()
    return p


def t_sigterm_idle(d):
    """The main daemon: SIGTERM when idle exits 0 quickly with event=stopped."""
    t0 = time.monotonic()
    rc = d.terminate(15)
    p = []
    if rc != 0:
        p.append("exit status %r" % rc)
    if time.monotonic() - t0 > 5:
        p.append("idle shutdown took %.1f s" % (time.monotonic() - t0))
    if not any("event=stopped" in line for line in d.log()):
        p.append("no event=stopped in the log")
    if p:
        p += ["log: " + line for line in d.log() if "event=draining" in line or "event=stopped" in line]
    return p


# ---------------------------------------------------------------------------


def main():
    if len(sys.argv) != 2:
        print("usage: test_http.py path/to/grundyd", file=sys.stderr)
        return 2
    binary = sys.argv[1]

    def body():
        d = Daemon(binary, "--threads", "4", "--max-body", "1048576")
        port = d.port
        TAP.result(True, "grundyd started on 127.0.0.1:%d" % port)
        client = Client(port)
        ck = Checker(client)

        TAP.run("healthz: GET 200 {\"status\":\"ok\"}, HEAD 200", t_healthz, port)
        TAP.run("nim normal: all positions of up to 3 piles <= 5", t_nim_normal_grid, ck)
        TAP.run("nim misere: all positions of up to 3 piles <= 5", t_nim_misere_grid, ck)
        TAP.run("nim normal and misere: random positions (seed 1)", t_nim_random, ck)
        TAP.run("nim misere: terminal positions win, rule table", t_nim_misere_special, ck)
        TAP.run("subtraction: random sets and piles (seed 2)", t_subtraction, ck)
        TAP.run("subtraction: reference periods and values at 10^18", t_subtraction_periods, ck)
        TAP.run("staircase: all stairs of length <= 4 with <= 3 coins", t_staircase_grid, ck)
        TAP.run("staircase: random positions (seed 3)", t_staircase_random, ck)
        TAP.run("wythoff: all positions up to 20 x 20", t_wythoff_grid, ck)
        TAP.run("fibonacci: n <= 44 (default limit), n <= 25 with every limit", t_fibonacci, ck)
        TAP.run("divisor: n = 1..200", t_divisor, ck)
        TAP.run("octal: ten codes heaps 0..39, random codes and sums (seed 4)", t_octal, ck)
        TAP.run("grundys_game: heaps 0..300 and random sums (seed 5)", t_grundys_game, ck)
        TAP.run("grundys_game: values past 1000 (brute force, sample file)", t_grundys_game_far, ck)
        TAP.run("graph: random DAGs with several tokens (seed 6)", t_graph, ck)
        TAP.run("graph: cycles are 422 code cycle", t_graph_cycles, ck)
        TAP.run("decimal strings accepted for every count, same answers", t_string_integers, ck)
        TAP.run("exact: nim [10^18+1, 10^18] has grundy 1 (numbers)", t_big_nim, ck, False)
        TAP.run("exact: nim [10^18+1, 10^18] has grundy 1 (strings)", t_big_nim, ck, True)
        TAP.run("exact: 2^63-1 accepted and echoed exactly", t_int_max, ck)
        TAP.run("exact: 2^63 and beyond are 422 naming the field", t_out_of_range, ck)
        TAP.run("exact: 1.5, 1e3, -1, \"12a\", true, ... are 422 naming the field", t_bad_integers, ck)
        TAP.run("exact: wythoff near 10^18 against (k + isqrt(5k^2)) // 2", t_wythoff_big, ck)
        TAP.run("exact: kayles 0.77 at 10^18, period {71, 12}", t_kayles_big, ck)
        TAP.run("exact: 0.07 period (53, 34) and 0.137 period (52, 34)", t_dawson_periods, ck)
        TAP.run("exact: fibonacci, divisor, staircase at 10^18", t_big_misc, ck)
        TAP.run("errors: 400 for bodies that are not JSON", t_bad_json, port)
        TAP.run("errors: 422 for invalid queries, naming the field", t_invalid_queries, port)
        TAP.run("errors: 404 for unknown paths", t_not_found, port)
        TAP.run("errors: 405 with Allow for wrong methods", t_wrong_method, port)
        TAP.run("errors: 413 for 6 MB bodies (Content-Length and chunked)", t_too_large, port)
        TAP.run("a body just under the 1 MiB limit is answered", t_body_near_limit, ck)
        TAP.run("the body is read as JSON whatever the Content-Type", t_content_type_ignored, ck)
        TAP.run("hostile clients (half requests, disconnects, slow writers)", t_hostile_clients, port)
        TAP.run("after the error storm, queries are still answered correctly", t_after_storm, ck)
        TAP.run("keep-alive: several requests on one connection, pipelined too", t_keepalive, port)
        TAP.run("concurrency: 16 threads x 50 requests all answered correctly", t_concurrent, port)
        TAP.run("grundys_game: heaps up to the advertised bound are answered",
                t_grundys_game_advertised_bound, ck)
        TAP.diag("%d checked queries (plus round trips) so far" % ck.count)
        client.close()
        TAP.run("SIGTERM when idle: exit 0, event=stopped", t_sigterm_idle, d)
        TAP.run("SIGTERM with slow requests in flight: all answered, exit 0", t_sigterm_drain, binary)
        TAP.run("SIGTERM after a client hung up mid-upload: prompt exit, nothing abandoned",
                t_sigterm_after_abort, binary)
        TAP.run("SIGTERM during an upload still arriving: it is answered, then exit 0", t_sigterm_upload_moving,
                binary)

    return run_main(TAP, "test_http.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
