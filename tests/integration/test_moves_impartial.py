#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""POST /v1/moves for staircase, wythoff, fibonacci, divisor and coins,
sent to one grundyd over keep-alive connections, against the brute force of
brute.py. Usage: test_moves_impartial.py path/to/grundy path/to/grundyd.
Prints TAP.

For every position up to a small bound (every stair list of up to 5 stairs
of up to 3 coins, both Wythoff piles up to 11, Fibonacci nim up to 20 with
every limit, the divisor game up to 250, every coin row of up to 7 heads in
a shuffled order under each rule): the listed next positions are the brute
force's successors with the exact total; each move's fields give its next;
every outcome agrees with the brute force and with `grundy query` of
{...request, ...next}; winning moves come first and each part keeps the
game's canonical order (brute.legal_next lists the moves in that order);
every winning move leaves a loss (replayed); analyze's winning move is one
of the listed entries byte for byte. Paging with limit and cursor
concatenates to the whole list (fibonacci: cursor only, its `limit` being
its field). Large positions (values near 10^18 and 2^63 - 1) answer quickly
with an exact total and the canonical first pages, and fail with a 422
where the answer cannot be given. None of these games answers misere play:
that is a 422 here as in /v1/analyze.

The daemon serves the build's table file. A sample is answered by `grundy
moves 'JSON'` both with it and without any table file (GRUNDYD_TABLES names
a missing file, so every value is computed on demand), and each must be the
daemon's answer byte for byte. Every answer is recorded as a /v1/moves
response and held to openapi.yaml at the end."""

import collections
import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, record_response, run_main  # noqa: E402

GRUNDY = None
PORT = None
LOCAL = threading.local()
TAP = Tap()
INT_MAX = 2**63 - 1
E18 = 10**18
DEFAULT_LIMIT = 200
NO_TABLES = {}      # the environment without the table file
CALL_TIMEOUT = 30
LARGE_SECONDS = 5   # "quickly", with room for a loaded machine and a debug build
STATUS = {"overloaded": 503, "internal": 500}  # every other error here is a 422


# ---------------------------------------------------------------------------
# talking to the daemon and the CLI


def moves(query):
    """POST /v1/moves of query to the daemon: (answer, raw bytes, seconds),
    on this thread's keep-alive connection."""
    c = getattr(LOCAL, "client", None)
    if c is None:
        c = LOCAL.client = Client(PORT, timeout=CALL_TIMEOUT)
    r = c.request("POST", "/v1/moves", query)
    a = json.loads(r.raw.decode())
    want = STATUS.get(a["error"]["code"], 422) if "error" in a else 200
    if r.status != want:
        raise RuntimeError(show(query, "status %d for %s" % (r.status, r.raw[:200])))
    return a, r.raw, r.elapsed


def moves_cli(query, tables):
    """`grundy moves JSON`'s answer bytes, with the table file or without;
    RuntimeError when it prints no JSON or exits otherwise than its answer
    says (0 for moves, 1 for an error body)."""
    out = subprocess.run([GRUNDY, "moves", json.dumps(query)], capture_output=True,
                         timeout=CALL_TIMEOUT, env=None if tables else NO_TABLES)
    raw = out.stdout.rstrip(b"\n")
    try:
        a = json.loads(raw.decode())
    except ValueError:
        raise RuntimeError(show(query, "grundy moves exit %d, no JSON: %r %r"
                                % (out.returncode, raw[:200], out.stderr[:300])))
    if out.returncode != (1 if "error" in a else 0):
        raise RuntimeError(show(query, "grundy moves exit %d for %r" % (out.returncode, raw[:200])))
    status = STATUS.get(a["error"]["code"], 422) if "error" in a else 200
    record_response("POST", "/v1/moves", status, [("Content-Type", "application/json")], raw)
    return raw


def moves_many(queries):
    """moves() of every query, two at a time; the answers in order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return [a for a, _, _ in pool.map(moves, queries)]


def ask(queries):
    """One `grundy query -` over every query; the answers in order."""
    if not queries:
        return []
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([GRUNDY, "query", "-"], input=text.encode(), capture_output=True,
                         timeout=120, env=NO_TABLES)
    lines = out.stdout.decode().splitlines()
    if len(lines) != len(queries):
        raise RuntimeError("%d queries, %d answers: %r" % (len(queries), len(lines), out.stderr[:300]))
    return [json.loads(line) for line in lines]


def show(q, extra=""):
    return "%s%s" % (json.dumps(q), (": " + extra) if extra else "")


# ---------------------------------------------------------------------------
# the games: positions, and what a move's fields say its next is

def staircase_positions():
    import itertools
    out = [list(s) for n in range(5) for s in itertools.product(range(4), repeat=n)]
    out += [list(s) for s in itertools.product(range(3), repeat=5)]
    return [{"game": "staircase", "stairs": s} for s in out]


def wythoff_positions():
    return [{"game": "wythoff", "piles": [x, y]} for x in range(12) for y in range(12)]


def fibonacci_positions():
    out = []
    for n in range(21):
        out.append({"game": "fibonacci", "n": n})
        out += [{"game": "fibonacci", "n": n, "limit": q} for q in range(n + 2)]
    return out


def divisor_positions():
    return [{"game": "divisor", "n": n} for n in range(1, 251)]


def coins_positions(rng):
    out = []
    for rule in brute.COIN_RULES:
        for mask in range(1 << 7):
            heads = [p for p in range(1, 8) if mask >> (p - 1) & 1]
            rng.shuffle(heads)
            out.append({"game": "coins", "rule": rule, "heads": heads})
        for _ in range(25):
            heads = rng.sample(range(1, 11), rng.randint(1, 5))
            out.append({"game": "coins", "rule": rule, "heads": heads})
    return out


def coins_turned(q, move):
    p = move["coin"]
    if q["rule"] == "ruler":
        a, b = move["run"]
        if b != p or not 1 <= a <= p:
            raise ValueError("run %r" % (move["run"],))
        return set(range(a, p + 1))
    others = move["others"]
    cap = 1 if q["rule"] == "turning_turtles" else 2
    if len(others) > cap or others != sorted(set(others)) or not all(1 <= c < p for c in others):
        raise ValueError("others %r" % (others,))
    return set(others) | {p}


def next_of_move(q, move):
    """The next position a move's own fields describe, in the service's
    shape (coins: the request's heads less those turned, then the coins
    turned to heads, ascending)."""
    g = q["game"]
    if g == "staircase":
        s, f, c = list(q["stairs"]), move["from"], move["count"]
        if move["to"] != f - 1 or c < 1:
            raise ValueError("from %r to %r" % (f, move["to"]))
        s[f] -= c
        s[f - 1] += c
        return {"stairs": s}
    if g == "wythoff":
        (x, y), (a, b) = q["piles"], move["take"]
        return {"piles": [x - a, y - b]}
    if g == "fibonacci":
        t = move["take"]
        return {"n": q["n"] - t, "limit": min(2 * t, INT_MAX)}
    if g == "divisor":
        return {"n": q["n"] - move["take"]}
    turned, heads = coins_turned(q, move), q["heads"]
    if move["coin"] not in heads:
        raise ValueError("coin %r is not a head" % (move["coin"],))
    return {"heads": [h for h in heads if h not in turned] + sorted(turned - set(heads))}


def norm(q, nxt):
    """A next position as a comparable key (a head set's order is no part
    of the position)."""
    if q["game"] == "coins":
        nxt = {"heads": sorted(nxt["heads"])}
    if q["game"] == "fibonacci":
        nxt = dict(nxt, limit=min(nxt["limit"], INT_MAX))
    return json.dumps(nxt, sort_keys=True)


def text(obj):
    """JSON text with the members in the order given: exact rendering."""
    return json.dumps(obj)


# ---------------------------------------------------------------------------
# exhaustive small positions


def check_whole(q, a, problems, stats):
    """One whole listing against brute force; the entries' positions for the
    service cross-check, as (merged query, entry)."""
    if "error" in a:
        problems.append(show(q, "error %s" % a["error"]))
        return []
    want = brute.legal_next(q)
    entries = a["moves"]
    if a["total"] != len(want) or len(entries) != len(want) or a["cursor"] is not None \
            or a["order"] != "winning_first" or "note" in a:
        problems.append(show(q, "total %s, %d entries, cursor %r, order %r; brute force: %d moves"
                             % (a["total"], len(entries), a["cursor"], a["order"], len(want))))
        return []
    got = [norm(q, e["next"]) for e in entries]
    if collections.Counter(got) != collections.Counter(norm(q, w) for w in want):
        problems.append(show(q, "next positions %s; brute force %s" % (got, [norm(q, w) for w in want])))
        return []
    loses = {}
    for w in want:
        loses[norm(q, w)] = brute.solve(brute.merge(q, w)).winner == "second"
    for e in entries:
        try:
            mine = next_of_move(q, e["move"])
        except (KeyError, TypeError, ValueError) as why:
            problems.append(show(q, "move %s is malformed: %s" % (e["move"], why)))
            continue
        if text(mine) != text(e["next"]):
            problems.append(show(q, "move %s gives %s, listed with next %s" % (e["move"], mine, e["next"])))
        r = brute.solve(brute.merge(q, e["next"]))
        if (e.get("winner"), e.get("grundy"), e.get("winning")) != (r.winner, r.grundy, r.winner == "second"):
            problems.append(show(q, "entry %s; brute force after it: winner %s, grundy %s"
                                 % (text(e), r.winner, r.grundy)))
        stats["replayed"] += bool(e.get("winning"))
    # winning first, each part in the canonical order of brute.legal_next
    canonical = [norm(q, w) for w in want]
    expect = [k for k in canonical if loses[k]] + [k for k in canonical if not loses[k]]
    if got != expect:
        problems.append(show(q, "order %s; winning first in canonical order: %s" % (got, expect)))
    stats["positions"] += 1
    stats["moves"] += len(entries)
    return [(brute.merge(q, e["next"]), e) for e in entries]


def check_service(pairs, problems):
    """Every listed outcome equals `grundy query` of the position after it."""
    answers = ask([m for m, _ in pairs])
    for (m, e), a in zip(pairs, answers):
        if (a.get("winner"), a.get("grundy")) != (e.get("winner"), e.get("grundy")):
            problems.append(show(m, "grundy query answers %s/%s, the listing %s/%s"
                                 % (a.get("winner"), a.get("grundy"), e.get("winner"), e.get("grundy"))))


def check_rendering(queries, answers, problems):
    """analyze's winning move is a listed entry, move and next byte for byte."""
    found = 0
    for q, a, listed in zip(queries, ask(queries), answers):
        if a.get("winner") != "first" or a.get("move") is None:
            continue
        pair = (text(a["move"]), text(a["next"]))
        if pair not in {(text(e["move"]), text(e["next"])) for e in listed.get("moves", [])}:
            problems.append(show(q, "analyze's move %s / next %s is not listed as such"
                                 % (text(a["move"]), text(a["next"]))))
        found += 1
    if found < 5:
        problems.append("coverage: only %d winning analyze answers" % found)


def t_exhaustive(name, queries):
    def run():
        problems, pairs = [], []
        stats = collections.Counter()
        answers = moves_many(queries)
        for q, a in zip(queries, answers):
            pairs += check_whole(q, a, problems, stats)
        check_service(pairs, problems)
        check_rendering(queries, answers, problems)
        if stats["replayed"] < 10 or stats["moves"] < 100:
            problems.append("coverage: %s" % dict(stats))
        TAP.diag("%s: %d positions, %d moves, %d winning moves replayed"
                 % (name, stats["positions"], stats["moves"], stats["replayed"]))
        return problems
    return run


# ---------------------------------------------------------------------------
# paging


def page_through(q, limit):
    """Every page of q with `limit` (None: the default), cursor after cursor."""
    entries, cursor, seen = [], None, 0
    while True:
        body = dict(q)
        if limit is not None:
            body["limit"] = limit
        if cursor is not None:
            body["cursor"] = cursor
        a, _, _ = moves(body)
        if "error" in a:
            raise RuntimeError(show(body, "error %s" % a["error"]))
        entries += a["moves"]
        cursor = a["cursor"]
        seen += 1
        if cursor is None or seen > 1000:
            return entries, a


def t_paging(queries, rng):
    def run():
        problems, paged = [], 0
        for q in queries:
            whole, _, _ = moves(q)
            if "error" in whole or whole["total"] < 2:
                continue
            for limit in sorted({1, rng.randint(2, max(2, whole["total"] // 2)), whole["total"]}):
                got, last = page_through(q, limit)
                if [text(e) for e in got] != [text(e) for e in whole["moves"]] or last["total"] != whole["total"]:
                    problems.append(show(q, "limit %d: the pages do not concatenate to the whole list" % limit))
                paged += 1
        bad, _, _ = moves(dict(queries[-1], cursor=str(10**6)))
        if bad.get("error", {}).get("code") != "out_of_range" or bad["error"].get("field") != "cursor":
            problems.append("a cursor past the moves: %s" % bad)
        if paged < 10:
            problems.append("coverage: %d positions paged" % paged)
        return problems
    return run


def t_fibonacci_paging():
    """fibonacci's body `limit` is its field: pages come from the cursor."""
    problems = []
    for n, lim in ((12, None), (20, 7), (9, 30), (3, 1)):
        q = {"game": "fibonacci", "n": n}
        if lim is not None:
            q["limit"] = lim
        whole, _, _ = moves(q)
        most = min(n - 1 if lim is None else lim, n)
        if whole.get("total") != most:
            problems.append(show(q, "total %s, want %d" % (whole.get("total"), most)))
            continue
        for k in range(most + 1):
            a, _, _ = moves(dict(q, cursor=str(k)))
            if [text(e) for e in a.get("moves", [])] != [text(e) for e in whole["moves"][k:]] \
                    or a.get("cursor") is not None:
                problems.append(show(q, "cursor %d: %s" % (k, a)))
    big = {"game": "fibonacci", "n": E18}
    first, _, _ = moves(big)
    second, _, _ = moves(dict(big, cursor=first.get("cursor")))
    takes = [e["move"]["take"] for e in first.get("moves", []) + second.get("moves", [])]
    if takes != list(range(1, 2 * DEFAULT_LIMIT + 1)) or second.get("cursor") != str(2 * DEFAULT_LIMIT):
        problems.append(show(big, "two default pages through the cursor take %s..., cursor %r"
                             % (takes[:5], second.get("cursor"))))
    return problems


# ---------------------------------------------------------------------------
# large positions


def check_page(q, a, dt, total, expect_moves, problems, cursor="auto"):
    """A canonical page of q: the total, the moves (as next_of_move
    checks them) and their identity expect_moves(entry list) -> problem."""
    if "error" in a:
        problems.append(show(q, "error %s" % a["error"]))
        return
    if dt > LARGE_SECONDS:
        problems.append(show(q, "took %.1f s" % dt))
    if a["total"] != total:
        problems.append(show(q, "total %s, want %d" % (a["total"], total)))
    if a["order"] != "canonical" and total > 10000:
        problems.append(show(q, "order %s" % a["order"]))
    for e in a["moves"]:
        try:
            mine = next_of_move(q, e["move"])
        except (KeyError, TypeError, ValueError) as why:
            problems.append(show(q, "move %s is malformed: %s" % (e["move"], why)))
            continue
        if text(mine) != text(e["next"]):
            problems.append(show(q, "move %s gives %s, listed with next %s" % (e["move"], mine, e["next"])))
        if q["game"] != "coins":
            why = brute.check_move(q, e["next"])
            if why:
                problems.append(show(q, why))
    why = expect_moves([e["move"] for e in a["moves"]])
    if why:
        problems.append(show(q, why))
    start = int(q.get("cursor") or 0)
    want_cursor = None if start + len(a["moves"]) >= total else str(start + len(a["moves"]))
    if cursor == "auto" and a["cursor"] != want_cursor:
        problems.append(show(q, "cursor %r, want %r" % (a["cursor"], want_cursor)))


def expect_field(field, values):
    def check(ms):
        got = [m.get(field) for m in ms]
        return None if got == values else "%s %s..., want %s..." % (field, got[:6], values[:6])
    return check


def large(q, total, expect, problems, **kw):
    a, _, dt = moves(q)
    check_page(q, a, dt, total, expect, problems, **kw)
    return a


def expect_error(q, code, field, problems):
    a, _, dt = moves(q)
    err = a.get("error", {})
    if err.get("code") != code or err.get("field") != field or dt > LARGE_SECONDS:
        problems.append(show(q, "want a 422 %s for %s, got %s" % (code, field, a)))


def t_large_staircase():
    p = []
    st = [7, E18, 2**62, 3]
    q = {"game": "staircase", "stairs": st}
    total = E18 + 2**62 + 3
    large(q, total, expect_field("count", list(range(1, DEFAULT_LIMIT + 1))), p)
    large(dict(q, cursor=str(E18 - 1), limit=3), total,
          lambda ms: None if [(m["from"], m["count"]) for m in ms] == [(1, E18), (2, 1), (2, 2)] else str(ms), p)
    large(dict(q, cursor=str(total - 1), limit=5), total,
          lambda ms: None if [(m["from"], m["count"]) for m in ms] == [(3, 3)] else str(ms), p)
    expect_error({"game": "staircase", "stairs": [INT_MAX, 1]}, "out_of_range", "stairs", p)
    top = {"game": "staircase", "stairs": [INT_MAX - 1, 1]}
    large(top, 1, lambda ms: None if [m["count"] for m in ms] == [1] else str(ms), p)
    return p


def t_large_wythoff():
    p = []
    x, y = E18, 2**62
    q = {"game": "wythoff", "piles": [x, y]}
    total = x + y + min(x, y)
    large(q, total, expect_field("take", [[t, 0] for t in range(1, DEFAULT_LIMIT + 1)]), p)
    large(dict(q, cursor=str(x - 1), limit=2), total, expect_field("take", [[x, 0], [0, 1]]), p)
    large(dict(q, cursor=str(x + y - 1), limit=3), total, expect_field("take", [[0, y], [1, 1], [2, 2]]), p)
    large(dict(q, cursor=str(total - 1)), total, expect_field("take", [[min(x, y)] * 2]), p)
    m = {"game": "wythoff", "piles": [INT_MAX, INT_MAX]}
    large(dict(m, cursor=str(3 * INT_MAX - 1)), 3 * INT_MAX, expect_field("take", [[INT_MAX, INT_MAX]]), p)
    return p


def t_large_fibonacci():
    p = []
    q = {"game": "fibonacci", "n": E18}
    large(q, E18 - 1, expect_field("take", list(range(1, DEFAULT_LIMIT + 1))), p)
    m = {"game": "fibonacci", "n": INT_MAX, "limit": INT_MAX, "cursor": str(INT_MAX - 2)}
    large(m, INT_MAX, expect_field("take", [INT_MAX - 1, INT_MAX]), p)
    # Five moves: listed whole, each outcome from the Zeckendorf terms, so
    # the winning moves come first (the takes t for which 10^18 - t with
    # limit 2t is a loss for its mover), the rest in canonical order.
    small = {"game": "fibonacci", "n": E18, "limit": 5}
    wins = [t for t in range(1, 6) if brute.zeckendorf(E18 - t)[-1] > 2 * t]
    want = wins + [t for t in range(1, 6) if t not in wins]
    a = large(small, 5, expect_field("take", want), p, cursor=None)
    if a.get("order") != "winning_first" or [e.get("winning") for e in a.get("moves", [])] != \
            [True] * len(wins) + [False] * (5 - len(wins)):
        p.append(show(small, "order %r, winning %r" % (a.get("order"), [e.get("winning") for e in a.get("moves", [])])))
    return p


def divisors_from(factors):
    out = [1]
    for prime, e in factors:
        out = [d * prime**k for d in out for k in range(e + 1)]
    return sorted(out)


def t_large_divisor():
    p = []
    n = INT_MAX
    mersenne = [(7, 2), (73, 1), (127, 1), (337, 1), (92737, 1), (649657, 1)]
    want = divisors_from(mersenne)[:-1]
    if want[-1] * 7 != n or any(n % d for d in want):
        p.append("the test's own factorisation of 2^63 - 1 is wrong")
    a = large({"game": "divisor", "n": n}, len(want), expect_field("take", want), p, cursor=None)
    if a.get("cursor") is not None:
        p.append("divisor 2^63 - 1: listed whole, cursor %r" % a.get("cursor"))
    # the n < 2^63 with the most divisors: 161280
    rich = [(2, 6), (3, 4), (5, 2), (7, 2), (11, 1), (13, 1), (17, 1), (19, 1), (23, 1), (29, 1), (31, 1), (37, 1),
            (41, 1)]
    n = 1
    for prime, e in rich:
        n *= prime**e
    divs = divisors_from(rich)
    if n != 9200527969062830400 or len(divs) != 161280:
        p.append("the test's own factorisation is wrong: %d, %d divisors" % (n, len(divs)))
    q = {"game": "divisor", "n": n}
    large(q, len(divs) - 1, expect_field("take", divs[:DEFAULT_LIMIT]), p)
    large(dict(q, cursor=str(len(divs) - 4), limit=10), len(divs) - 1, expect_field("take", divs[-4:-1]), p)
    a3037 = 3037000453 * 3037000493  # two primes near sqrt(2^63)
    large({"game": "divisor", "n": a3037}, 3, expect_field("take", [1, 3037000453, 3037000493]), p, cursor=None)
    large({"game": "divisor", "n": 9223372036854775783}, 1, expect_field("take", [1]), p, cursor=None)
    large({"game": "divisor", "n": 1}, 0, expect_field("take", []), p, cursor=None)
    return p


def mock_pair(p, j):
    """The j-th pair {a, b}, 1 <= a < b < p, in lexicographic order, from the
    number of pairs whose first coin is a or more: C(p - a, 2)."""
    total = (p - 1) * (p - 2) // 2
    rest = total - j            # pairs from index j on: C(p - a, 2) >= rest > C(p - a - 1, 2)
    m = (1 + math.isqrt(1 + 8 * (rest - 1))) // 2 + 1   # least m with C(m, 2) >= rest
    while m * (m - 1) // 2 < rest:
        m += 1
    while m > 2 and (m - 1) * (m - 2) // 2 >= rest:
        m -= 1
    a = p - m
    first = total - m * (m - 1) // 2   # index of (a, a + 1)
    return [a, a + 1 + j - first]


def t_large_coins():
    p = []
    tt = {"game": "coins", "rule": "turning_turtles", "heads": [E18, 5]}
    large(tt, E18 + 5, expect_field("others", [[]] + [[c] for c in range(1, DEFAULT_LIMIT)]), p)
    large(dict(tt, cursor=str(E18 - 1), limit=3), E18 + 5,
          lambda ms: None if [(m["coin"], m["others"]) for m in ms] == [(E18, [E18 - 1]), (5, []), (5, [1])]
          else str(ms), p)
    mt = {"game": "coins", "rule": "mock_turtles", "heads": [E18]}
    pairs = (E18 - 1) * (E18 - 2) // 2
    total = E18 + pairs
    large(dict(mt, cursor=str(E18 - 2), limit=3), total, expect_field("others", [[E18 - 2], [E18 - 1], [1, 2]]), p)
    rng = random.Random(7)
    for j in [0, 1, E18 - 3, E18 - 2, pairs - 2] + [rng.randrange(pairs) for _ in range(6)]:
        want = [mock_pair(E18, k) for k in range(j, min(j + 2, pairs))]
        large(dict(mt, cursor=str(E18 + j), limit=2), total, expect_field("others", want), p)
    small = 60  # the same pair order, exhaustively, where brute.py can list it
    sets = brute.coin_turn_sets("mock_turtles", small)[small:]
    if [mock_pair(small, j) for j in range(len(sets))] != [list(s[:2]) for s in sets]:
        p.append("the test's own pair order disagrees with brute.coin_turn_sets")
    ru = {"game": "coins", "rule": "ruler", "heads": [E18, 3]}
    large(ru, E18 + 3, expect_field("run", [[E18 - k, E18] for k in range(DEFAULT_LIMIT)]), p)
    large(dict(ru, cursor=str(E18)), E18 + 3, expect_field("run", [[3, 3], [2, 3], [1, 3]]), p)
    expect_error(dict(ru, cursor=str(E18 - 1)), "limit_exceeded", "heads", p)
    many = {"game": "coins", "rule": "mock_turtles", "heads": [E18 - k for k in range(700)]}
    expect_error(many, "limit_exceeded", "heads", p)
    fits = dict(many, heads=many["heads"][:600])
    count = sum(h + (h - 1) * (h - 2) // 2 for h in fits["heads"])
    large(fits, count, expect_field("others", [[]] + [[c] for c in range(1, DEFAULT_LIMIT)]), p)
    return p


# ---------------------------------------------------------------------------
# conventions and the table file


def t_misere():
    p = []
    for q in ({"game": "staircase", "stairs": [0, 1]}, {"game": "wythoff", "piles": [1, 2]},
              {"game": "fibonacci", "n": 5}, {"game": "divisor", "n": 6},
              {"game": "coins", "rule": "ruler", "heads": [2]}):
        m = dict(q, convention="misere")
        a, _, _ = moves(m)
        b = ask([m])[0]
        if a.get("error", {}).get("code") != "unsupported_convention" or a != b:
            p.append(show(m, "moves %s; analyze %s" % (a, b)))
        n, _, _ = moves(dict(q, convention="normal"))
        if n.get("convention") != "normal" or not n.get("moves"):
            p.append(show(q, "normal play: %s" % n))
    return p


def t_cli(queries, tables):
    """`grundy moves` prints the daemon's bytes, with the table file or
    without one."""
    p = []
    for q in queries:
        _, served, _ = moves(q)
        printed = moves_cli(q, tables)
        if printed != served:
            p.append(show(q, "grundy moves %s, the daemon %s" % (printed[:200], served[:200])))
    return p


def body():
    global GRUNDY, PORT
    GRUNDY = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="grundy-moves-")
    NO_TABLES.update(os.environ, GRUNDYD_TABLES=os.path.join(tmp, "absent.tables"))
    daemon = Daemon(sys.argv[2], "--threads", "2")
    PORT = daemon.port
    rng = random.Random(20261126)
    games = [("staircase", staircase_positions()), ("wythoff", wythoff_positions()),
             ("fibonacci", fibonacci_positions()), ("divisor", divisor_positions()),
             ("coins", coins_positions(rng))]
    for name, queries in games:
        TAP.run("%s: every small position listed whole against brute force (next positions, total, "
                "outcomes, winning first in canonical order, moves replayed, analyze's move listed)"
                % name, t_exhaustive(name, queries))
        if name != "fibonacci":
            sample = [q for q in queries if rng.random() < 0.15][:40]
            TAP.run("%s: pages of limit and cursor concatenate to the whole list" % name,
                    t_paging(sample, rng))
    TAP.run("fibonacci: paging through the cursor alone (limit is the game's field)", t_fibonacci_paging)
    TAP.run("staircase: stairs near 10^18: exact total, canonical pages; a stair past 2^63 - 1 is a 422",
            t_large_staircase)
    TAP.run("wythoff: piles near 10^18 and 2^63 - 1: exact total, canonical pages", t_large_wythoff)
    TAP.run("fibonacci: n near 10^18 and 2^63 - 1: exact total, canonical pages", t_large_fibonacci)
    TAP.run("divisor: n up to 2^63 - 1 factored: every divisor, ascending, 161280 of them at most",
            t_large_divisor)
    TAP.run("coins: heads at 10^18: exact totals, canonical pages (mock turtles' pairs at any index); "
            "too long a run and too many moves are 422s", t_large_coins)
    TAP.run("misere play is refused as by /v1/analyze; normal play listed", t_misere)
    sample = [q for _, qs in games for q in qs[::len(qs) // 6]]
    TAP.run("grundy moves prints the daemon's answer, with the table file (%d positions)" % len(sample),
            t_cli, sample, True)
    TAP.run("... and without any table file (%d positions)" % len(sample), t_cli, sample, False)
    daemon.stop()


if __name__ == "__main__":
    sys.exit(run_main(TAP, "test_moves_impartial.py", 170, body))
