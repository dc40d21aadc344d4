#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""POST /v1/moves for the score games (tictactoe, mnk, stone_row,
stone_prefix, stone_front3, can_i_win) against the brute force in brute.py.

Usage: test_moves_scores.py path/to/grundy path/to/grundyd. Prints TAP.

Every reachable board of tic-tac-toe and of a dozen small m,n,k shapes, every
short stone row of small values (with m = 1 .. 3 for stone_prefix) and every
can_i_win position of a pool up to 5 (each subset of used numbers, targets
below, at and past reach) is listed through a grundyd started here (keep-alive
HTTP; every response is held to openapi.yaml at the end). For each:
- `total` and the multiset of `next` equal brute.legal_next (its canonical
  order), and every `move` agrees with its `next` by the rules;
- the list is the canonical order with winning moves moved first
  ("order": "winning_first"), but for the stone games, whose moves score by
  themselves: canonical order, no `winning`, and a note saying why;
- each outcome (`winner`, `value`, `grundy` null) equals brute.solve and
  `grundy query` of {...request, ...next}; `winning` is true exactly when
  that position is a loss for its mover (so every winning move is replayed);
- the best move /v1/analyze gives is one of the entries, byte for byte.
Paging with body and URL limit/cursor concatenates to the whole list; large
positions (values near 10^18, m near 2^63, a 64-cell board) answer with an
exact total quickly; errors match /v1/analyze's; the CLI answers the same.

The daemon's budget is lowered (BUDGET) so that an 8x8 board lists its
moves without outcomes at once. Python 3 stdlib only."""

import collections
import concurrent.futures
import itertools
import json
import os
import random
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 170
BUDGET = 20000000
WORKERS = 2
CALL_TIMEOUT = 60
BIG = 10**18
INT_MAX = 2**63 - 1

GRUNDY = None
TAP = Tap()
PORT = None
LOCAL = threading.local()
NOTES = []
# The games whose moves score by themselves: listed in canonical order with
# no "winning" (the outcome after a move is not whether it wins).
SCORING = ("stone_row", "stone_prefix", "stone_front3")

# Shapes (rows, cols, k) whose every reachable board is listed.
MNK_SHAPES = [(1, 1, 1), (1, 2, 2), (1, 3, 2), (1, 4, 3), (2, 2, 2), (2, 3, 2), (2, 3, 3),
              (3, 2, 3), (3, 3, 2), (2, 4, 2), (1, 6, 3), (2, 4, 3)]

# ---------------------------------------------------------------------------
# talking to the daemon and the CLI


def client():
    c = getattr(LOCAL, "client", None)
    if c is None:
        c = LOCAL.client = Client(PORT, timeout=CALL_TIMEOUT)
    return c


def post_moves(body, url=""):
    return client().request("POST", "/v1/moves" + url, body)


def post_all(bodies):
    """POST /v1/moves for every body, WORKERS at a time; the Resps in order."""
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(post_moves, bodies))


def analyze_cli(queries):
    """`grundy query -` over every query; the answers in order."""
    if not queries:
        return []
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([GRUNDY, "query", "-"], input=text.encode(), capture_output=True,
                         timeout=CALL_TIMEOUT)
    lines = out.stdout.decode("utf-8", "replace").splitlines()
    if len(lines) != len(queries):
        raise RuntimeError("%d queries but %d answers; stderr %r" % (len(queries), len(lines), out.stderr[:300]))
    return [json.loads(line) for line in lines]


def key(obj):
    return json.dumps(obj, sort_keys=True)


def short(obj, limit=400):
    s = json.dumps(obj)
    return s if len(s) <= limit else s[:limit] + "...(%d chars)" % len(s)


# ---------------------------------------------------------------------------
# what the rules say a move is


def move_problem(q, mv, nx):
    """None when the move object describes the step from q to nx, else why not."""
    game = q["game"]
    if not isinstance(mv, dict) or not isinstance(mv.get("text"), str) or not mv["text"]:
        return "move %r has no text" % (mv,)
    if list(mv)[-1] != "text":
        return "move %r does not end with text" % (mv,)
    if game in ("tictactoe", "mnk"):
        rows, cols, _ = brute.mnk_rules(q)
        b, a = q["board"], nx["board"]
        cell = next(i for i in range(len(b)) if a[i] != b[i])
        want = {"cell": cell, "row": cell // cols, "col": cell % cols, "player": brute.mnk_to_move(b)}
        got = {k: v for k, v in mv.items() if k != "text"}
        return None if got == want else "move %r, want %r" % (got, want)
    s = [int(x) for x in q["stones"]] if "stones" in q else None
    if game == "stone_row":
        end = "first" if nx["stones"] == s[1:] else "last"
        if len(s) > 1 and s[1:] == s[:-1]:
            end = mv.get("take")  # either end leaves the same row
        pile = 0 if end == "first" else len(s) - 1
        want = {"take": end, "pile": pile, "stones": s[pile]}
    elif game in ("stone_prefix", "stone_front3"):
        x = len(s) - len(nx["stones"])
        want = {"take": x, "stones": sum(s[:x])}
    else:
        added = [u for u in nx["used"] if u not in (q.get("used") or [])]
        want = {"pick": added[0]}
    got = {k: v for k, v in mv.items() if k != "text"}
    return None if got == want else "move %r, want %r" % (got, want)


# ---------------------------------------------------------------------------
# checking one listing


class Listing:
    """Checks whole listings against brute force; gathers the positions after
    each move for one `grundy query -` run and the analyze best moves."""

    def __init__(self):
        self.problems = []
        self.after = []      # (query, merged request, entry)
        self.best = []       # (query, entries)
        self.counts = collections.Counter()

    def check(self, q, resp):
        """A listing of q: for the games whose moves score (SCORING) in
        canonical order, without "winning", with the note saying why."""
        p = self.problems
        scoring = q["game"] in SCORING
        tag = short(q)
        if resp.status != 200 or not isinstance(resp.json, dict):
            p.append("%s: status %d %r" % (tag, resp.status, resp.raw[:300]))
            return None
        a = resp.json
        canon = brute.legal_next(q)
        head = {"game": q["game"], "convention": "normal", "total": len(canon),
                "order": "canonical" if scoring else "winning_first", "cursor": None}
        members = ["game", "convention", "total", "order", "moves", "cursor"] + (["note"] if scoring else [])
        got = {k: a.get(k) for k in head}
        if got != head or list(a) != members:
            p.append("%s: head %r (members %r), want %r" % (tag, got, list(a), head))
            return None
        entries = a["moves"]
        if collections.Counter(key(e.get("next")) for e in entries) != collections.Counter(map(key, canon)):
            p.append("%s: next %r, brute force %r" % (tag, [e.get("next") for e in entries], canon))
            return None
        solved = {key(n): brute.solve(brute.merge(q, n)) for n in canon}
        wins = [n for n in canon if solved[key(n)].winner == "second" and not scoring]
        want_order = [key(n) for n in wins] + [key(n) for n in canon if key(n) not in set(map(key, wins))]
        if [key(e["next"]) for e in entries] != want_order:
            p.append("%s: order %r, want winning first then canonical %r" % (tag, [e["next"] for e in entries],
                                                                             want_order))
        for e in entries:
            self.check_entry(q, e, solved[key(e["next"])])
        self.counts[q["game"]] += 1
        self.counts["moves"] += len(entries)
        if entries:
            self.best.append((q, entries))
        return a

    def check_entry(self, q, e, want):
        tag = short(q)
        scoring = q["game"] in SCORING
        if list(e) != ["move", "next"] + ([] if scoring else ["winning"]) + ["winner", "grundy", "value"]:
            self.problems.append("%s: entry members %r" % (tag, list(e)))
            return
        why = move_problem(q, e["move"], e["next"])
        if why:
            self.problems.append("%s: %s" % (tag, why))
        got = (e["winner"], e["grundy"], e["value"], e.get("winning"))
        wanted = (want.winner, None, want.value, None if scoring else want.winner == "second")
        if got != wanted:
            self.problems.append("%s: after %s: winner, grundy, value, winning %r; brute force %r"
                                 % (tag, short(e["move"]), got, wanted))
        self.after.append((q, brute.merge(q, e["next"]), e))

    def finish(self):
        """The outcomes against `grundy query`, and analyze's best move listed."""
        answers = analyze_cli([m for _, m, _ in self.after])
        for (q, m, e), an in zip(self.after, answers):
            want = (an.get("winner"), an.get("grundy"), an.get("value"))
            if (e["winner"], e["grundy"], e["value"]) != want:
                self.problems.append("%s: after %s the listing says %r, grundy query %r"
                                     % (short(q), short(e["move"]), (e["winner"], e["grundy"], e["value"]), want))
        answers = analyze_cli([q for q, _ in self.best])
        for (q, entries), an in zip(self.best, answers):
            if an.get("move") is None:
                continue
            pair = key({"move": an["move"], "next": an["next"]})
            if not any(key({"move": e["move"], "next": e["next"]}) == pair for e in entries):
                self.problems.append("%s: analyze's move %s / next %s is not listed"
                                     % (short(q), short(an["move"]), short(an["next"])))
        self.after, self.best = [], []
        return self.problems


def list_exhaustively(queries):
    """The checks of Listing over every query; problems."""
    lst = Listing()
    for q, r in zip(queries, post_all(queries)):
        lst.check(q, r)
    problems = lst.finish()
    games = sorted(g for g in lst.counts if g != "moves")
    TAP.diag("%s: %s positions, %d moves checked" % (", ".join(games), sum(lst.counts[g] for g in games),
                                                      lst.counts["moves"]))
    return problems


# ---------------------------------------------------------------------------
# the positions


def mnk_queries():
    out = []
    for rows, cols, k in MNK_SHAPES:
        for b in sorted(brute.mnk_reachable(rows, cols, k)):
            out.append({"game": "mnk", "rows": rows, "cols": cols, "k": k, "board": b})
    return out


def rows_of(values, longest):
    for n in range(longest + 1):
        for s in itertools.product(values, repeat=n):
            yield list(s)


def stone_queries():
    out = [{"game": "stone_row", "stones": s} for s in rows_of(range(4), 5)]
    out += [{"game": "stone_prefix", "stones": s, "m": m} for s in rows_of(range(4), 4) for m in (1, 2, 3)]
    out += [{"game": "stone_prefix", "stones": s} for s in rows_of(range(3), 3)]  # m by default
    out += [{"game": "stone_front3", "stones": s} for s in rows_of(range(-2, 3), 4)]
    rng = random.Random(20261201)
    for _ in range(150):
        n = rng.randint(5, 8)
        out.append({"game": "stone_row", "stones": [rng.randrange(10) for _ in range(n)]})
        out.append({"game": "stone_prefix", "stones": [rng.randrange(10) for _ in range(n)],
                    "m": rng.randint(1, 4)})
        out.append({"game": "stone_front3", "stones": [rng.randint(-9, 9) for _ in range(n)]})
    return out


def can_i_win_queries():
    out = []
    rng = random.Random(20261202)
    for m in range(1, 6):
        for mask in range(1 << m):
            used = [v for v in range(1, m + 1) if mask >> (v - 1) & 1]
            if len(used) > 1 and mask % 3 == 0:
                rng.shuffle(used)  # the request's order is kept in next
            for target in range(0, m * (m + 1) // 2 + 3):
                q = {"game": "can_i_win", "max_choosable": m, "desired_total": target}
                if used or mask % 2:
                    q["used"] = list(used)
                out.append(q)
    return out


# ---------------------------------------------------------------------------
# the tests


def t_tictactoe():
    queries = [{"game": "tictactoe", "board": b} for b in sorted(brute.mnk_reachable(3, 3, 3))]
    problems = list_exhaustively(queries)
    # mnk 3,3,3 lists the same moves as tictactoe, entry for entry.
    rng = random.Random(20261203)
    sample = rng.sample(queries, 300)
    ttt = post_all(sample)
    mnk = post_all([dict(q, game="mnk", rows=3, cols=3, k=3) for q in sample])
    for q, a, b in zip(sample, ttt, mnk):
        if a.json["moves"] != b.json["moves"]:
            problems.append("%s: mnk 3,3,3 lists %s" % (short(q), short(b.json)))
    return problems


def t_mnk():
    return list_exhaustively(mnk_queries())


def t_stones():
    return list_exhaustively(stone_queries())


def t_can_i_win():
    return list_exhaustively(can_i_win_queries())


def pages(body, limit, via_url):
    """Every page of body's listing at `limit` a page; (entries, problems)."""
    entries, problems, cursor, seen = [], [], None, 0
    while True:
        if via_url:
            url = "?limit=%d" % limit + ("&cursor=%s" % cursor if cursor is not None else "")
            r = post_moves(body, url)
        else:
            r = post_moves(dict(body, limit=limit, **({"cursor": cursor} if cursor is not None else {})))
        a = r.json
        if r.status != 200:
            return entries, ["%s limit %d cursor %r: status %d %r" % (short(body), limit, cursor, r.status, r.raw[:200])]
        if len(a["moves"]) > limit or (a["cursor"] is not None and len(a["moves"]) != limit):
            problems.append("%s: a page of %d at limit %d, cursor %r" % (short(body), len(a["moves"]), limit, a["cursor"]))
        entries += a["moves"]
        seen += 1
        if a["cursor"] is None:
            return entries, problems
        if a["cursor"] != str(len(entries)) or seen > 100:
            return entries, problems + ["%s: cursor %r after %d entries" % (short(body), a["cursor"], len(entries))]
        cursor = a["cursor"]


def t_paging():
    rng = random.Random(20261204)
    bodies = [{"game": "tictactoe", "board": "........."}, {"game": "tictactoe", "board": "X...O...."}]
    bodies += rng.sample([q for q in mnk_queries() if q["board"].count(".") >= 3], 40)
    bodies += [q for q in rng.sample(stone_queries(), 200) if len(q["stones"]) >= 2][:40]
    bodies += [q for q in rng.sample(can_i_win_queries(), 300) if q["desired_total"] > 6][:30]
    problems = []
    for body in bodies:
        whole = post_moves(body).json
        for limit in (1, 2, 3):
            for via_url in (False, True):
                got, p = pages(body, limit, via_url)
                problems += p
                if got != whole["moves"]:
                    problems.append("%s: pages of %d (%s) concatenate to %s, whole %s"
                                    % (short(body), limit, "URL" if via_url else "body", short(got), short(whole)))
        past = post_moves(dict(body, cursor=str(whole["total"] + 1)))
        err = (past.json or {}).get("error") or {}
        if past.status != 422 or err.get("code") != "out_of_range" or err.get("field") != "cursor":
            problems.append("%s: a cursor past the total answers %d %r" % (short(body), past.status, past.raw[:200]))
        end = post_moves(dict(body, cursor=str(whole["total"]))).json
        if end.get("moves") != [] or end.get("cursor") is not None:
            problems.append("%s: the cursor at the total answers %s" % (short(body), short(end)))
    TAP.diag("%d positions paged at 1, 2 and 3 a page, through the body and the URL" % len(bodies))
    return problems


def timed(body):
    t0 = time.monotonic()
    r = post_moves(body)
    return r, time.monotonic() - t0


def expect_page(body, total, nexts, problems, known=None, seconds=10.0):
    """One large listing: status 200, the exact total, next of the first
    entries as given, answered within `seconds`; known: outcomes present
    (True), absent with the note (False) or either (None)."""
    r, took = timed(body)
    a = r.json
    if r.status != 200:
        problems.append("%s: status %d %r" % (short(body), r.status, r.raw[:300]))
        return None
    if a["total"] != total:
        problems.append("%s: total %r, want %d" % (short(body), a["total"], total))
    got = [e["next"] for e in a["moves"][:len(nexts)]]
    if got != nexts:
        problems.append("%s: first next %s, want %s" % (short(body), short(got), short(nexts)))
    for e in a["moves"]:
        why = move_problem(body, e["move"], e["next"]) if len(json.dumps(body)) < 10**5 else None
        if why:
            problems.append("%s: %s" % (short(body), why))
            break
    unknown = [e for e in a["moves"] if "winner" not in e]
    if known is True and unknown:
        problems.append("%s: %d outcomes missing" % (short(body), len(unknown)))
    if known is False and (len(unknown) != len(a["moves"]) or a.get("order") != "canonical"):
        problems.append("%s: want every outcome unevaluated in canonical order; got %s" % (short(body), short(a)))
    if unknown and "budget" not in a.get("note", ""):
        problems.append("%s: outcomes missing without the note: %s" % (short(body), short(a)))
    if took > seconds:
        problems.append("%s: took %.1f s" % (short(body), took))
    return a


def t_large():
    problems = []
    # A 64-cell board: 64 (or 62) moves, too many solves for the budget.
    empty = "." * 64
    expect_page({"game": "mnk", "rows": 8, "cols": 8, "k": 5, "board": empty}, 64,
                [{"board": "X" + "." * 63}, {"board": "." + "X" + "." * 62}], problems, known=False)
    board = "X" + "." * 30 + "O" + "." * 32
    a = expect_page({"game": "mnk", "rows": 4, "cols": 16, "k": 4, "board": board, "limit": 5}, 62,
                    [{"board": "XX" + board[2:]}], problems)
    if a and (a["cursor"] != "5" or len(a["moves"]) != 5):
        problems.append("4x16: the first page of 5: %s" % short(a))
    # stone_row near 10^18: a row of 60 evaluated exactly, a row of 40000 not.
    rng = random.Random(20261205)
    row = [BIG + rng.randrange(10**6) for _ in range(60)]
    for body in ({"game": "stone_row", "stones": row},
                 {"game": "stone_front3", "stones": [(-1) ** i * (BIG + i) for i in range(60)]},
                 {"game": "stone_prefix", "stones": row, "m": 2}):
        nexts = brute.legal_next(body)
        a = expect_page(body, len(nexts), [], problems, known=True)
        if not a:
            continue
        if sorted(map(key, [e["next"] for e in a["moves"]])) != sorted(map(key, nexts)):
            problems.append("%s: next %s" % (short(body), short([e["next"] for e in a["moves"]])))
        for e in a["moves"]:
            w = brute.solve(brute.merge(body, e["next"]))
            if (e["winner"], e["value"], e.get("winning")) != (w.winner, w.value, None):
                problems.append("%s: after %s: %r, brute force %r" % (short(body), short(e["move"]),
                                                                       (e["winner"], e["value"]), w))
    long_row = [INT_MAX - i for i in range(40000)]
    a = expect_page({"game": "stone_row", "stones": long_row}, 2, [], problems, known=False)
    if a and [e["move"].get("stones") for e in a["moves"]] != [INT_MAX, INT_MAX - 39999]:
        problems.append("stone_row of 40000: moves %s" % short([e["move"] for e in a["moves"]]))
    # stone_prefix: M near 2^63 (2M overflows 64 bits): every prefix is a move.
    prefix = [BIG + i for i in range(2048)]
    a = expect_page({"game": "stone_prefix", "stones": prefix, "m": INT_MAX, "limit": 3}, 2048,
                    [{"stones": prefix[x:], "m": INT_MAX} for x in (1, 2, 3)], problems, seconds=30)
    # Too many bytes to list whole: pages in canonical order from the cursor.
    for cursor, limit in (("2046", 200), ("1000", 3), ("0", 1)):
        body = {"game": "stone_prefix", "stones": prefix, "m": 2**62, "cursor": cursor, "limit": limit}
        a = expect_page(body, 2048, [], problems, seconds=30)
        want = list(range(int(cursor) + 1, min(int(cursor) + limit, 2048) + 1))
        nxt = str(want[-1]) if want[-1] < 2048 else None
        if a and ([e["move"]["take"] for e in a["moves"]] != want or a["cursor"] != nxt or a["order"] != "canonical"):
            problems.append("stone_prefix of 2048, M = 2^62, from cursor %s: %s" % (cursor, short(a)))
    expect_page({"game": "stone_prefix", "stones": prefix, "m": 1000}, 2000, [], problems, seconds=30)
    # can_i_win: a target near 10^18 is out of reach (a draw), every pick a move.
    a = expect_page({"game": "can_i_win", "max_choosable": 20, "desired_total": BIG, "used": [7, 3]}, 18,
                    [], problems)
    if a and a.get("order") == "winning_first" and any(e.get("winner") not in ("draw", None) for e in a["moves"]):
        problems.append("can_i_win to 10^18: %s" % short(a))
    picks = sorted(e["move"]["pick"] for e in a["moves"]) if a else []
    if picks != [v for v in range(1, 21) if v not in (7, 3)]:
        problems.append("can_i_win to 10^18: picks %r" % picks)
    expect_page({"game": "can_i_win", "max_choosable": 20, "desired_total": 10, "used": [4, 6]}, 0, [], problems)
    return problems


def t_huge_rows(grundyd):
    """Rows whose every next is over 16 MB of JSON page in canonical order,
    so the hooks skip to the cursor themselves (a daemon with room for them)."""
    d = Daemon(grundyd, "--threads", "1", "--budget", str(BUDGET), "--max-items", "1000000",
               "--max-body", str(64 << 20))
    problems = []
    try:
        c = Client(d.port, timeout=CALL_TIMEOUT)
        # stone_row: the first next alone is past 16 MB; stone_front3: the first two.
        for game, piles, cursor, take in (("stone_row", 850000, 1, "last"), ("stone_front3", 430000, 1, 2),
                                          ("stone_front3", 430000, 2, 3)):
            row = [BIG + (i % 1000) for i in range(piles)]
            total = 2 if game == "stone_row" else 3
            r = c.request("POST", "/v1/moves?limit=1&cursor=%d" % cursor, {"game": game, "stones": row})
            a = r.json or {}
            want = {"total": total, "order": "canonical", "cursor": str(cursor + 1) if cursor + 1 < total else None}
            got = {k: a.get(k) for k in want}
            mv = a["moves"][0]["move"] if len(a.get("moves") or []) == 1 else None
            if r.status != 200 or got != want or mv is None or mv["take"] != take:
                problems.append("%s of %d piles, cursor %d: %d %s" % (game, piles, cursor, r.status,
                                                                       short(dict(got, move=mv))))
                continue
            cut = row[:-1] if game == "stone_row" else row[take:]
            if a["moves"][0]["next"]["stones"] != cut:
                problems.append("%s of %d piles, cursor %d: a wrong next" % (game, piles, cursor))
        c.close()
    finally:
        d.stop()
    return problems


def t_errors():
    """Bad requests: /v1/moves answers the 422 that /v1/analyze answers."""
    bad = [{"game": "tictactoe", "board": "XXX......"}, {"game": "tictactoe", "board": "XO"},
           {"game": "tictactoe", "board": "XXXOOO..."},
           {"game": "mnk", "rows": 2, "cols": 2, "k": 3, "board": "...."},
           {"game": "mnk", "rows": 9, "cols": 8, "k": 3, "board": "." * 72},
           {"game": "mnk", "rows": 2, "cols": 2, "k": 2, "board": "OO.."},
           {"game": "stone_row", "stones": [1, -2]}, {"game": "stone_row", "stones": [2**63]},
           {"game": "stone_prefix", "stones": [1] * 2049}, {"game": "stone_prefix", "stones": [1], "m": 0},
           {"game": "stone_front3", "stones": [-2**63]},
           {"game": "can_i_win", "max_choosable": 21, "desired_total": 5},
           {"game": "can_i_win", "max_choosable": 5, "desired_total": 5, "used": [2, 2]},
           {"game": "can_i_win", "max_choosable": 5, "desired_total": 5, "used": [6]}]
    for g, body in (("tictactoe", {"board": "........."}), ("stone_row", {"stones": [1]}),
                    ("can_i_win", {"max_choosable": 3, "desired_total": 4})):
        bad.append(dict(body, game=g, convention="misere"))
        bad.append(dict(body, game=g, compound="selective"))
    problems = []
    analyzed = [client().post(b) for b in bad]
    for b, r, an in zip(bad, post_all(bad), analyzed):
        got = (r.status, ((r.json or {}).get("error") or {}).get("code"), ((r.json or {}).get("error") or {}).get("field"))
        want = (an.status, ((an.json or {}).get("error") or {}).get("code"), ((an.json or {}).get("error") or {}).get("field"))
        if got != want or r.status != 422:
            problems.append("%s: /v1/moves %r, /v1/analyze %r" % (short(b), got, want))
    return problems


def t_cli():
    """`grundy moves 'JSON'` prints the body POST /v1/moves answers."""
    bodies = [{"game": "tictactoe", "board": "XX.OO...."}, {"game": "mnk", "rows": 2, "cols": 3, "k": 2,
                                                          "board": "X....."},
              {"game": "stone_row", "stones": [3, 9, 1, 2], "limit": 1},
              {"game": "stone_prefix", "stones": [1, 2, 3, 4, 5, 100]},
              {"game": "stone_front3", "stones": [1, 2, 3, -9], "cursor": "1"},
              {"game": "can_i_win", "max_choosable": 6, "desired_total": 11, "used": [5]},
              {"game": "mnk", "rows": 2, "cols": 2, "k": 3, "board": "...."}]
    problems = []
    for body, r in zip(bodies, post_all(bodies)):
        out = subprocess.run([GRUNDY, "moves", json.dumps(body)], capture_output=True, timeout=CALL_TIMEOUT)
        if out.stdout.rstrip(b"\n") != r.raw.rstrip(b"\n"):
            problems.append("%s: CLI %r, HTTP %r" % (short(body), out.stdout[:300], r.raw[:300]))
    return problems


def main():
    global GRUNDY, PORT
    if len(sys.argv) != 3:
        print("usage: test_moves_scores.py path/to/grundy path/to/grundyd", file=sys.stderr)
        return 2
    GRUNDY = sys.argv[1]

    def body():
        global PORT
        d = Daemon(sys.argv[2], "--threads", str(WORKERS), "--budget", str(BUDGET))
        PORT = d.port
        TAP.run("tictactoe: every reachable board listed as brute force says (and as mnk 3,3,3)", t_tictactoe)
        TAP.run("mnk: every reachable board of %d small shapes listed as brute force says" % len(MNK_SHAPES), t_mnk)
        TAP.run("stone_row, stone_prefix, stone_front3: every short row listed as brute force says", t_stones)
        TAP.run("can_i_win: every position of pools 1..5 listed as brute force says", t_can_i_win)
        TAP.run("paging by body and URL concatenates to the whole list", t_paging)
        TAP.run("large positions: exact totals, canonical first pages, quickly", t_large)
        TAP.run("rows past 16 MB a move page from the cursor (stone_row, stone_front3)", t_huge_rows, sys.argv[2])
        TAP.run("bad requests: the 422 of /v1/analyze (misere and compounds included)", t_errors)
        TAP.run("grundy moves prints what POST /v1/moves answers", t_cli)
        for n in NOTES:
            TAP.diag("note: " + n)
        d.stop()

    return run_main(TAP, "test_moves_scores.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
