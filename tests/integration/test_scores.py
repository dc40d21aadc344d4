#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""HTTP integration tests for grundyd's score games.

Usage: test_scores.py path/to/grundyd

The games: tictactoe, mnk, stone_row, stone_prefix, stone_front3 and
can_i_win. They answer `winner` ("first", "second" or "draw" for the player
to move), `grundy` null, an exact integer `value` from the mover's point of
view, `components` [] and, unless the mover loses, a best `move` with the
position after it (`next`).

Spawns the daemon on 127.0.0.1 with --port 0 (the port is read from its
`event=ready addr=HOST:PORT` log line), checks answers against the
independent brute force in brute.py (exhaustive small positions and seeded
random ones), checks every `next` for legality and sends `{...request,
...next}` back, and prints TAP. Python 3 stdlib only; every wait is bounded
and a watchdog ends the run (killing the daemon) if it ever overruns.

The round trip: for the difference games (stone_row, stone_front3 and the
outcome games tictactoe, mnk, can_i_win, where a move scores nothing)
value(next) = taken - value, where taken is the stones the move took (0 for
the outcome games, so value(next) = -value); for stone_prefix, where value
is the stones the mover collects, value(next) = total(next) - (value - taken).
"""

import itertools
import json
import os
import random
import sys
import threading
import traceback
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, bad_number_tokens, run_main  # noqa: E402

WATCHDOG_SECONDS = 240
INT_MAX = 2**63 - 1
BIG = 4611686018427387904  # 2^62
WORKERS = 4

TAP = Tap()

# ---------------------------------------------------------------------------
# Answer checks

ANSWER_ORDER = ["game", "convention", "winner", "grundy", "value", "components", "move", "next",
                "winning_moves", "why", "explanation"]
EXPLAINED = ("winning_moves", "why", "explanation")
# One query in EXPLAIN_EVERY is asked in full; the others with "explain":
# false, which answers the same verdict, value and move without the account
# (test_why_games.py checks the accounts of these games against brute force).
EXPLAIN_EVERY = 8


def explained(query):
    return zlib.crc32(json.dumps(query, sort_keys=True).encode()) % EXPLAIN_EVERY == 0


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def shape_problems(resp, query, slim=False):
    if resp.status != 200:
        return ["status %d: %r" % (resp.status, resp.raw[:300])]
    p = []
    ct = resp.header("Content-Type") or ""
    if not ct.startswith("application/json"):
        p.append("Content-Type %r" % ct)
    a, pairs = resp.json, resp.pairs
    if not isinstance(a, dict) or not isinstance(pairs, list):
        return p + ["body is not a JSON object: %r" % resp.raw[:200]]
    keys = [k for k, _ in pairs]
    order = [k for k in ANSWER_ORDER if not (slim and k in EXPLAINED)]
    if keys != order:
        p.append("members %r, want %r in that order" % (keys, order))
    bad = bad_number_tokens(resp.raw, signed=True)
    if bad:
        p.append("numbers not written as plain integers: %r" % bad[:5])
    if a.get("game") != query.get("game"):
        p.append("game echoed as %r" % a.get("game"))
    if a.get("convention") != "normal":
        p.append("convention %r" % a.get("convention"))
    if a.get("winner") not in ("first", "second", "draw"):
        p.append("winner %r" % a.get("winner"))
    if a.get("grundy", 0) is not None:
        p.append("grundy %r, want null" % a.get("grundy"))
    if not is_int(a.get("value")):
        p.append("value %r is not an integer" % (a.get("value"),))
    if a.get("components") != []:
        p.append("components %r, want []" % (a.get("components"),))
    if (a.get("move") is None) != (a.get("next") is None):
        p.append("move %r and next %r: one null, the other not" % (a.get("move"), a.get("next")))
    if a.get("winner") == "second" and (a.get("move") is not None or a.get("next") is not None):
        p.append("winner second but move/next not null")
    if not slim and (not isinstance(a.get("explanation"), str) or not a.get("explanation")):
        p.append("explanation missing or empty")
    mv = a.get("move")
    if mv is not None and not (isinstance(mv, dict) and isinstance(mv.get("text"), str) and mv["text"]):
        p.append("move has no text: %r" % (mv,))
    return p


def stones_of(query):
    return [int(x) for x in query.get("stones") or []]


def winner_from(query, value):
    """The winner the value implies."""
    d = 2 * value - sum(stones_of(query)) if query["game"] == "stone_prefix" else value
    return "first" if d > 0 else "second" if d < 0 else "draw"


def move_problems(query, a):
    """The move's own fields against the request and next; returns
    (problems, taken) with taken = the stones the move scores (0 for the
    outcome games)."""
    game, mv, nx = query["game"], a["move"], a["next"]
    p = []
    if game in ("tictactoe", "mnk"):
        rows, cols, _ = brute.mnk_rules(query)
        cell, row, col = mv.get("cell"), mv.get("row"), mv.get("col")
        if set(mv) != {"cell", "row", "col", "player", "text"}:
            p.append("move members %r" % sorted(mv))
        elif not all(is_int(x) for x in (cell, row, col)) or cell != row * cols + col \
                or not (0 <= row < rows and 0 <= col < cols):
            p.append("move cell %r row %r col %r inconsistent on a %dx%d board" % (cell, row, col, rows, cols))
        elif mv.get("player") != brute.mnk_to_move(query["board"]):
            p.append("move player %r, but %s is to move" % (mv.get("player"), brute.mnk_to_move(query["board"])))
        elif nx["board"][cell] != mv["player"] or query["board"][cell] != ".":
            p.append("next.board does not have %s at cell %d" % (mv["player"], cell))
        return p, 0
    if game == "can_i_win":
        if set(mv) != {"pick", "text"}:
            p.append("move members %r" % sorted(mv))
        else:
            added = [u for u in nx["used"] if u not in brute.ints(query.get("used") or [])]
            if added != [mv["pick"]]:
                p.append("move pick %r, but next.used adds %r" % (mv["pick"], added))
        return p, 0
    s = stones_of(query)
    if game == "stone_row":
        if set(mv) != {"take", "pile", "stones", "text"}:
            return ["move members %r" % sorted(mv)], 0
        if mv["take"] == "first":
            want_pile, want_next = 0, s[1:]
        elif mv["take"] == "last":
            want_pile, want_next = len(s) - 1, s[:-1]
        else:
            return ["move take %r is neither first nor last" % (mv["take"],)], 0
        if mv["pile"] != want_pile or mv["stones"] != s[want_pile] or nx["stones"] != want_next:
            p.append("move %r does not match the row and next" % (mv,))
        return p, s[want_pile] if s else 0
    # stone_prefix, stone_front3: take the first `take` piles
    if set(mv) != {"take", "stones", "text"}:
        return ["move members %r" % sorted(mv)], 0
    take = mv["take"]
    if not is_int(take) or take != len(s) - len(nx["stones"]):
        p.append("move take %r, but next.stones has %d of %d piles" % (take, len(nx["stones"]), len(s)))
        return p, 0
    if mv["stones"] != sum(s[:take]):
        p.append("move stones %r, the first %d piles hold %d" % (mv["stones"], take, sum(s[:take])))
    return p, sum(s[:take])


class Checker:
    """Checks answers against brute force, including the `next` round trip."""

    def __init__(self, port):
        self.port = port
        self.count = 0
        self.lock = threading.Lock()
        self.local = threading.local()

    def client(self):
        c = getattr(self.local, "client", None)
        if c is None:
            c = self.local.client = Client(self.port)
        return c

    def post(self, query, slim=False):
        with self.lock:
            self.count += 1
        return self.client().post(dict(query, explain=False) if slim else query)

    def check(self, query, expect=None, roundtrip=True, brute_next=True):
        """Problems with the answer to one query. expect: a brute.Result, or
        None to compute it with brute.solve, or False for no brute force (the
        service's own answers are then only checked for consistency)."""
        q = json.dumps(query)
        if len(q) > 300:
            q = q[:140] + " ... " + q[-140:]
        if expect is None:
            expect = brute.solve(query)
        slim = not explained(query)
        r = self.post(query, slim)
        p = shape_problems(r, query, slim)
        if p:
            return ["%s: %s" % (q, x) for x in p]
        a = r.json
        if expect:
            if a["winner"] != expect.winner or a["value"] != expect.value:
                p.append("%s: winner %r value %r, brute force says %r value %r"
                         % (q, a["winner"], a["value"], expect.winner, expect.value))
        if a["winner"] != winner_from(query, a["value"]):
            p.append("%s: winner %r does not follow from value %r" % (q, a["winner"], a["value"]))
        if p:
            return p
        if a["move"] is None:
            if a["winner"] != "second" and len(brute.legal_next(query)) > 0:
                p.append("%s: winner %r but no move, though legal moves exist" % (q, a["winner"]))
            return p
        why = brute.check_move(query, a["next"])
        if why:
            return ["%s: next %s is not one legal move away: %s" % (q, json.dumps(a["next"])[:200], why)]
        mp, taken = move_problems(query, a)
        if mp:
            return ["%s: %s" % (q, x) for x in mp]
        if not roundtrip:
            return p
        back = brute.merge(query, a["next"])
        if query["game"] == "stone_prefix":
            want = sum(stones_of(back)) - (a["value"] - taken)
        else:
            want = taken - a["value"]
        if expect and brute_next:
            bn = brute.solve(back)
            if bn.value != want:
                p.append("%s: next %s is worth %r to the opponent by brute force, want %r for a best move"
                         % (q, json.dumps(a["next"])[:200], bn.value, want))
        r2 = self.post(back, slim)
        p2 = shape_problems(r2, back, slim)
        if p2:
            return p + ["%s (sent back with next): %s" % (q, x) for x in p2]
        if r2.json["value"] != want:
            p.append("%s: sending next %s back answers value %r, want %r"
                     % (q, json.dumps(a["next"])[:200], r2.json["value"], want))
        return p

    def check_all(self, queries, workers=WORKERS, **kw):
        """check() for every query, on `workers` keep-alive connections."""
        queries = list(queries)
        problems = []
        lock = threading.Lock()
        it = iter(enumerate(queries))

        def work():
            while True:
                with lock:
                    try:
                        _, query = next(it)
                    except StopIteration:
                        return
                try:
                    got = self.check(query, **kw)
                except Exception:
                    got = ["%s: exception %s" % (json.dumps(query)[:200], traceback.format_exc().splitlines()[-1])]
                if got:
                    with lock:
                        problems.extend(got)
        threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, workers))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(WATCHDOG_SECONDS)
        return problems


def error_problems(resp, code, field, what):
    """Problems unless resp is a 422 error with code (a string or a set) and field."""
    codes = {code} if isinstance(code, str) else set(code)
    a = resp.json
    if resp.status != 422 or not isinstance(a, dict) or not isinstance(a.get("error"), dict):
        return ["%s: want 422 %s, got %r" % (what, "/".join(sorted(codes)), resp)]
    e = a["error"]
    p = []
    if e.get("code") not in codes:
        p.append("%s: code %r, want %s" % (what, e.get("code"), "/".join(sorted(codes))))
    if e.get("field") != field:
        p.append("%s: field %r, want %r" % (what, e.get("field"), field))
    if not isinstance(e.get("message"), str) or not e.get("message"):
        p.append("%s: empty message" % what)
    return p


def expect_errors(ck, cases):
    """cases: (query, code(s), field)."""
    p = []
    for query, code, field in cases:
        p += error_problems(ck.post(query), code, field, json.dumps(query)[:200])
    return p


# ---------------------------------------------------------------------------
# tic-tac-toe and m,n,k


def ttt(board):
    return {"game": "tictactoe", "board": board}


def mnk(rows, cols, k, board):
    return {"game": "mnk", "rows": rows, "cols": cols, "k": k, "board": board}


def t_ttt_reachable(ck):
    """Every reachable 3x3 position against brute force."""
    boards = sorted(brute.mnk_reachable(3, 3, 3))
    p = []
    if len(boards) != 5478:
        p.append("brute force finds %d reachable boards, not 5478" % len(boards))
    return p + ck.check_all(ttt(b) for b in boards)


def t_ttt_all_strings(ck):
    """All 3^9 strings over X, O, '.': answered iff reachable, else 422
    illegal_position naming board."""
    reach = brute.mnk_reachable(3, 3, 3)
    boards = ["".join(t) for t in itertools.product("XO.", repeat=9)]
    problems = []
    lock = threading.Lock()
    chunks = [boards[i::WORKERS] for i in range(WORKERS)]

    def work(chunk):
        c = Client(ck.port)
        mine = []
        for b in chunk:
            r = c.post(dict(ttt(b), explain=False))  # the status is what is checked
            if b in reach:
                if r.status != 200:
                    mine.append("%s is reachable, got %r" % (b, r))
            else:
                mine += error_problems(r, "illegal_position", "board", "%s (%s)" % (b, brute.mnk_illegal(3, 3, 3, b)))
        c.close()
        with lock:
            problems.extend(mine)
    threads = [threading.Thread(target=work, args=(ch,), daemon=True) for ch in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WATCHDOG_SECONDS)
    with ck.lock:
        ck.count += len(boards)
    return problems


def t_ttt_illegal(ck):
    """Named illegal boards and malformed board fields."""
    ill = "illegal_position"
    either = {"illegal_position", "invalid_field"}
    cases = [
        (ttt("XX......."), ill, "board"),            # X two ahead
        (ttt("O........"), ill, "board"),            # O moved first
        (ttt("OO.X....."), ill, "board"),
        (ttt("XXXXOO.OO"), ill, "board"),            # counts 4 vs 4 with an X line: O moved after
        (ttt("XXXOO.O.."), ill, "board"),            # X won, then O played
        (ttt("OOOXX.XX."), ill, "board"),            # O won, then X played
        (ttt("XXXOOO..."), ill, "board"),            # both have lines
        (ttt("XXXOOOX.."), ill, "board"),
        (mnk(3, 5, 3, "XXXOOO.O.OXXX.."), ill, "board"),   # two X lines, no common cell
        (ttt("xx......."), either, "board"),         # bad characters
        (ttt("X-O......"), either, "board"),
        (ttt("X O      "), either, "board"),
        (ttt("X0......."), either, "board"),
        (ttt("\u00d7........"), either, "board"),
        (ttt(""), either, "board"),                  # wrong length
        (ttt("........"), either, "board"),
        (ttt(".........."), either, "board"),
        (ttt("X..\nO..\n..."), either, "board"),
        (ttt(5), "invalid_field", "board"),
        (ttt(None), {"invalid_field", "missing_field"}, "board"),
        (ttt(["X........"]), "invalid_field", "board"),
        ({"game": "tictactoe"}, "missing_field", "board"),
        (mnk(4, 4, 4, "X" * 9), either, "board"),
        (mnk(2, 3, 2, "XX.OO"), either, "board"),           # 5 of 6 cells
        (mnk(4, 4, 3, "XXX.OO.O........"), ill, "board"),  # X line, then O played
        (mnk(4, 4, 3, "XXX.OOO........."), ill, "board"),  # both lines
        (mnk(1, 7, 3, "XXX.XXO"), ill, "board"),           # counts 5 vs 1
    ]
    p = []
    # every case must also be illegal by the brute force's rule (when a string)
    for query, code, field in cases:
        b = query.get("board")
        if isinstance(b, str) and code == ill:
            rows, cols, k = brute.mnk_rules(query)
            if brute.mnk_illegal(rows, cols, k, b) is None:
                p.append("test case %r is legal by brute force" % b)
    return p + expect_errors(ck, cases)


def random_reachable(rng, rows, cols, k, marks):
    """A position reached by random play from the empty board: `marks` moves,
    or fewer when the game ends first."""
    b = "." * (rows * cols)
    for _ in range(marks):
        if brute.mnk_over(rows, cols, k, b):
            break
        empty = [i for i, ch in enumerate(b) if ch == "."]
        i = rng.choice(empty)
        b = b[:i] + brute.mnk_to_move(b) + b[i + 1:]
    return b


def t_mnk_small_exhaustive(ck):
    """Every reachable position of every m,n,k-game with at most 6 cells."""
    queries = []
    for rows in range(1, 7):
        for cols in range(1, 7):
            if rows * cols > 6:
                continue
            for k in range(1, max(rows, cols) + 1):
                for b in sorted(brute.mnk_reachable(rows, cols, k)):
                    queries.append(mnk(rows, cols, k, b))
    TAP.diag("%d positions" % len(queries))
    return ck.check_all(queries)


def t_mnk_random(ck):
    """Seeded random positions on larger boards (brute force for at most 10
    empty cells), and 3,3,3 answered as tictactoe answers."""
    rng = random.Random(11)
    queries = []
    shapes = [(3, 4, 3), (4, 3, 3), (3, 4, 4), (2, 6, 3), (1, 10, 3), (4, 4, 3), (4, 4, 4), (3, 5, 3),
              (5, 5, 4), (5, 5, 3), (2, 8, 4), (6, 2, 2), (4, 4, 2), (5, 4, 4)]
    for rows, cols, k in shapes:
        n = rows * cols
        for _ in range(40):
            marks = rng.randint(max(0, n - 10), n)
            queries.append(mnk(rows, cols, k, random_reachable(rng, rows, cols, k, marks)))
    p = ck.check_all(queries)
    # the same rules under the two names give the same answers
    for b in rng.sample(sorted(brute.mnk_reachable(3, 3, 3)), 200):
        r1, r2 = ck.post(ttt(b)), ck.post(mnk(3, 3, 3, b))
        if r1.status != 200 or r2.status != 200:
            p.append("%s: statuses %d, %d" % (b, r1.status, r2.status))
            continue
        a1, a2 = dict(r1.json), dict(r2.json)
        a1.pop("game"), a2.pop("game")
        a1.pop("explanation"), a2.pop("explanation")
        if a1 != a2:
            p.append("%s: tictactoe answers %r, mnk 3,3,3 answers %r" % (b, a1, a2))
    return p


def t_mnk_444_draw(ck):
    """4x4, 4 in a row, empty board: a draw, answered at once (about 0.06 s
    on a quiet machine; the bound of 5 s leaves a loaded one its slack)."""
    q = mnk(4, 4, 4, "." * 16)
    ck.post(q)  # warm-up: the first request on a connection pays for it
    p = []
    r = ck.post(q)
    TAP.diag("answered in %.3f s" % r.elapsed)
    if r.elapsed > 5.0:
        p.append("answered in %.2f s, want at most 5 s" % r.elapsed)
    p += ["%s" % x for x in shape_problems(r, q)]
    if p:
        return p
    if r.json["winner"] != "draw" or r.json["value"] != 0:
        p.append("winner %r value %r, want draw 0" % (r.json["winner"], r.json["value"]))
    # the move keeps the draw: the opponent's value after it is 0
    return p + ck.check(q, expect=brute.Result("draw", None, [], 0), brute_next=False)


def t_mnk_limits(ck):
    """Rule errors, and the largest boards answered or refused with
    limit_exceeded (never a hang)."""
    cases = [
        (mnk(9, 8, 5, "." * 72), "invalid_field", "board"),  # 72 cells: past the board's 64
        (mnk(9, 8, 5, "." * 64), "out_of_range", "rows"),
        (mnk(0, 3, 3, ""), "out_of_range", "rows"),
        (mnk(3, 0, 3, ""), "out_of_range", "cols"),
        (mnk(3, 3, 0, "." * 9), "out_of_range", "k"),
        (mnk(3, 3, 4, "." * 9), "invalid_field", "k"),
        (mnk(65, 1, 5, "." * 65), "out_of_range", "rows"),
        ({"game": "mnk", "cols": 3, "k": 3, "board": "." * 9}, "missing_field", "rows"),
    ]
    p = expect_errors(ck, cases)
    for rows, cols, k in ((8, 8, 5), (8, 8, 4), (1, 64, 5)):
        q = mnk(rows, cols, k, "." * (rows * cols))
        r = ck.post(q)
        # The budget bounds the work; this only guards against a hang (speed
        # lives in bench/, and sanitizer builds run several times slower).
        if r.elapsed > 120:
            p.append("%dx%d k=%d took %.1f s" % (rows, cols, k, r.elapsed))
        if r.status == 200:
            p += ["%dx%d k=%d: %s" % (rows, cols, k, x) for x in shape_problems(r, q)]
            TAP.diag("%dx%d k=%d empty: %s value %s (%.2f s)" % (rows, cols, k, r.json["winner"], r.json["value"], r.elapsed))
        else:
            p += error_problems(r, "limit_exceeded", "board", "%dx%d k=%d empty" % (rows, cols, k))
            TAP.diag("%dx%d k=%d empty: 422 limit_exceeded (%.2f s)" % (rows, cols, k, r.elapsed))
    # 5x5 k=4 from empty is documented at ~0.7M steps: it must be answered
    r = ck.post(mnk(5, 5, 4, "." * 25))
    if r.status != 200:
        p.append("5x5 k=4 empty is not answered: %r" % r)
    return p


# ---------------------------------------------------------------------------
# stone games


def rows_upto(max_len, values):
    for n in range(max_len + 1):
        for t in itertools.product(values, repeat=n):
            yield list(t)


def t_stone_row_exhaustive(ck):
    """Every row of up to 5 piles of 0..3."""
    return ck.check_all({"game": "stone_row", "stones": s} for s in rows_upto(5, range(4)))


def t_stone_row_random(ck):
    """Seeded random rows of up to 14 piles, sizes up to 2^63 - 1 (values
    past 64 bits), some sent as strings."""
    rng = random.Random(21)
    queries = []
    for _ in range(400):
        n = rng.randint(1, 14)
        hi = rng.choice([9, 1000, 10**18, INT_MAX])
        s = [rng.choice([rng.randint(0, hi), hi, 0]) for _ in range(n)]
        if rng.random() < 0.2:
            s = [str(x) for x in s]
        queries.append({"game": "stone_row", "stones": s})
    return ck.check_all(queries)


def t_stone_row_5000(ck):
    """5000 piles of 2^62: a draw, exact; 4999 of them: value 2^62; 5000
    piles alternating 2^62 and 0: value 2500 * 2^62 (past 64 bits); 4999 of
    those: value -2498 * 2^62."""
    p = []
    # Equal piles: each player gets half of an even row (value 0); on an odd
    # row the mover gets one pile more (value 2^62).
    for n, want in ((5000, 0), (4999, BIG)):
        q = {"game": "stone_row", "stones": [BIG] * n}
        p += ck.check(q, expect=brute.Result("draw" if want == 0 else "first", None, [], want), brute_next=False)
    # Alternating, even length: the mover can take every pile at an even
    # index (take the first; the opponent then sees odd-indexed piles at
    # both ends, and after either choice an even-indexed one is at an end
    # again), i.e. every big pile: everything there is, so the best
    # difference is the total, 2500 * 2^62.
    alt = [BIG if i % 2 == 0 else 0 for i in range(5000)]
    q = {"game": "stone_row", "stones": alt}
    p += ck.check(q, expect=brute.Result("first", None, [], 2500 * BIG), brute_next=False)
    r = ck.post(q)
    if r.status == 200 and b'"value":11529215046068469760000,' not in r.raw:
        p.append("value not written exactly: %r" % r.raw[:200])
    # Odd length, big piles at both ends: the mover must take one (2^62),
    # leaving an even row whose 2499 big piles all share one parity, which
    # the opponent takes, all of them: 2^62 - 2499 * 2^62.
    q = {"game": "stone_row", "stones": alt[:4999]}
    p += ck.check(q, expect=brute.Result("second", None, [], -2498 * BIG), brute_next=False)
    r = ck.post(q)
    if r.status == 200 and b'"value":-11519991674031614984192,' not in r.raw:
        p.append("value not written exactly: %r" % r.raw[:200])
    return p


def t_stone_prefix_exhaustive(ck):
    """Every row of up to 5 piles of 0..3 with M = 1, 2, 3 and 10."""
    queries = []
    for s in rows_upto(5, range(4)):
        for m in (1, 2, 3, 10):
            q = {"game": "stone_prefix", "stones": s}
            if m != 1:
                q["m"] = m
            queries.append(q)
    return ck.check_all(queries)


def t_stone_prefix_random(ck):
    """Seeded random rows of up to 30 piles, big sizes, M from 1 to 2^63 - 1."""
    rng = random.Random(22)
    queries = []
    for _ in range(300):
        n = rng.randint(0, 30)
        hi = rng.choice([9, 10**6, 10**18, INT_MAX])
        s = [rng.randint(0, hi) for _ in range(n)]
        q = {"game": "stone_prefix", "stones": s}
        m = rng.choice([None, 1, 1, 2, 3, 5, 16, INT_MAX, "4"])
        if m is not None:
            q["m"] = m
        queries.append(q)
    return ck.check_all(queries)


def t_stone_prefix_limits(ck):
    """m = 0 and 2049 piles are 422; 1000 piles are answered (round trip
    checked); 2048 piles are answered or refused with limit_exceeded."""
    p = expect_errors(ck, [
        ({"game": "stone_prefix", "stones": [1, 2], "m": 0}, "out_of_range", "m"),
        ({"game": "stone_prefix", "stones": [1] * 2049}, {"invalid_field", "out_of_range", "too_many"}, "stones"),
        ({"game": "stone_prefix", "stones": [1, -2]}, "invalid_integer", "stones[1]"),
        ({"game": "stone_prefix"}, "missing_field", "stones"),
    ])
    rng = random.Random(23)
    s = [rng.randint(0, 10**18) for _ in range(1000)]
    p += ck.check({"game": "stone_prefix", "stones": s}, expect=False)
    r = ck.post({"game": "stone_prefix", "stones": [1] * 2048})
    if r.status == 200:
        TAP.diag("2048 piles: answered in %.2f s" % r.elapsed)
        if r.json.get("value") != 1024:
            p.append("2048 piles of 1: value %r, want 1024 (every pile is 1, so ...)" % r.json.get("value"))
    else:
        TAP.diag("2048 piles: %d %s in %.2f s" % (r.status, (r.json or {}).get("error", {}).get("code"), r.elapsed))
        p += error_problems(r, "limit_exceeded", "stones", "2048 piles")
    return p


def t_stone_front3_exhaustive(ck):
    """Every row of up to 5 piles of -2..2."""
    return ck.check_all({"game": "stone_front3", "stones": s} for s in rows_upto(5, range(-2, 3)))


def t_stone_front3_random(ck):
    """Seeded random signed rows of up to 40 piles, magnitudes up to
    2^63 - 1, some as strings; and 30000 piles checked by the linear DP."""
    rng = random.Random(24)
    queries = []
    for _ in range(400):
        n = rng.randint(1, 40)
        hi = rng.choice([5, 1000, 10**18, INT_MAX])
        s = [rng.choice([rng.randint(-hi, hi), hi, -hi]) for _ in range(n)]
        if rng.random() < 0.2:
            s = [str(x) for x in s]
        queries.append({"game": "stone_front3", "stones": s})
    p = ck.check_all(queries)
    big = [rng.choice([-INT_MAX, INT_MAX, rng.randint(-INT_MAX, INT_MAX)]) for _ in range(30000)]
    p += ck.check({"game": "stone_front3", "stones": big})
    p += ck.check({"game": "stone_front3", "stones": [-INT_MAX] * 30000})  # value far below -2^64
    # the default --max-items, 100000 piles (small, to stay under the 1 MiB body limit)
    p += ck.check({"game": "stone_front3", "stones": [rng.randint(-999, 999) for _ in range(100000)]})
    return p


def t_stone_errors(ck):
    return expect_errors(ck, [
        ({"game": "stone_row", "stones": [1, -2]}, "invalid_integer", "stones[1]"),
        ({"game": "stone_row", "stones": [1, 2**63]}, "invalid_integer", "stones[1]"),
        ({"game": "stone_row", "stones": [1.5]}, "invalid_integer", "stones[0]"),
        ({"game": "stone_row", "stones": 5}, "invalid_field", "stones"),
        ({"game": "stone_row"}, "missing_field", "stones"),
        ({"game": "stone_front3", "stones": [0, -2**63]}, "invalid_integer", "stones[1]"),
        ({"game": "stone_front3", "stones": [0, 2**63]}, "invalid_integer", "stones[1]"),
        ({"game": "stone_front3", "stones": ["1e3"]}, "invalid_integer", "stones[0]"),
    ])


# ---------------------------------------------------------------------------
# Can I Win


def ciw(m, t, used=None):
    q = {"game": "can_i_win", "max_choosable": m, "desired_total": t}
    if used is not None:
        q["used"] = used
    return q


def t_can_i_win_exhaustive(ck):
    """M = 1..6, every total 0 .. M(M+1)/2 + 2, every set of used numbers."""
    rng = random.Random(31)
    queries = []
    for m in range(1, 7):
        for t in range(0, m * (m + 1) // 2 + 3):
            for mask in range(1 << m):
                used = [v for v in range(1, m + 1) if mask >> (v - 1) & 1]
                rng.shuffle(used)
                queries.append(ciw(m, t, used if used or rng.random() < 0.5 else None))
    TAP.diag("%d positions" % len(queries))
    return ck.check_all(queries)


def t_can_i_win_random(ck):
    """Seeded random positions with M = 7..14."""
    rng = random.Random(32)
    queries = []
    for _ in range(300):
        m = rng.randint(7, 14)
        t = rng.randint(0, m * (m + 1) // 2 + 3)
        used = rng.sample(range(1, m + 1), rng.randint(0, m // 2))
        queries.append(ciw(m, t, used))
    return ck.check_all(queries)


def t_can_i_win_20(ck):
    """M = 20: totals that need all numbers (second wins), cannot be reached
    (draw), are already reached (second), or are reached by one pick."""
    p = []
    p += ck.check(ciw(20, 210), expect=brute.Result("second", None, [], -1))
    p += ck.check(ciw(20, 211), expect=brute.Result("draw", None, [], 0), brute_next=False)
    p += ck.check(ciw(20, 0), expect=brute.Result("second", None, [], -1))
    p += ck.check(ciw(20, 20), expect=brute.Result("first", None, [], 1))
    p += ck.check(ciw(20, 4, [1, 3]), expect=brute.Result("second", None, [], -1))
    p += ck.check(ciw(20, 5, [1, 3]), expect=brute.Result("first", None, [], 1))
    p += ck.check(ciw(20, 210, list(range(1, 20))), expect=brute.Result("first", None, [], 1))
    # every number but one used, total out of reach: a draw with one move
    p += ck.check(ciw(20, 1000, list(range(2, 21))), expect=brute.Result("draw", None, [], 0))
    # none left at all: a draw without a move
    r = ck.post(ciw(20, 1000, list(range(1, 21))))
    p += shape_problems(r, ciw(20, 1000))
    if r.status == 200 and (r.json["winner"], r.json["value"], r.json["move"]) != ("draw", 0, None):
        p.append("all numbers used, total out of reach: %r" % r.raw[:300])
    # larger totals: brute force stays cheap while the reachable sets are few
    for t in (30, 40):
        p += ck.check(ciw(20, t))
    return p


def t_can_i_win_errors(ck):
    return expect_errors(ck, [
        (ciw(21, 10), "out_of_range", "max_choosable"),
        (ciw(0, 10), "out_of_range", "max_choosable"),
        (ciw(5, 10, [0]), "out_of_range", "used[0]"),
        (ciw(5, 10, [2, 6]), "invalid_field", "used[1]"),
        (ciw(5, 10, [2, 3, 2]), "invalid_field", "used[2]"),
        ({"game": "can_i_win", "max_choosable": 5}, "missing_field", "desired_total"),
        ({"game": "can_i_win", "desired_total": 5}, "missing_field", "max_choosable"),
    ])


# ---------------------------------------------------------------------------


def t_misere(ck):
    """Misère play is 422 unsupported_convention for every score game."""
    cases = [
        (ttt("........."), "unsupported_convention", "convention"),
        (mnk(3, 4, 3, "." * 12), "unsupported_convention", "convention"),
        ({"game": "stone_row", "stones": [1, 2]}, "unsupported_convention", "convention"),
        ({"game": "stone_prefix", "stones": [1, 2]}, "unsupported_convention", "convention"),
        ({"game": "stone_front3", "stones": [1, -2]}, "unsupported_convention", "convention"),
        (ciw(10, 11), "unsupported_convention", "convention"),
    ]
    for q, _, _ in cases:
        q["convention"] = "misere"
    p = expect_errors(ck, cases)
    # "normal" and null are the default
    for conv in ("normal", None):
        q = {"game": "stone_row", "stones": [3, 1], "convention": conv}
        p += ck.check(q)
    return p


def main():
    if len(sys.argv) != 2:
        print("usage: test_scores.py path/to/grundyd", file=sys.stderr)
        return 2
    binary = sys.argv[1]

    def body():
        d = Daemon(binary, "--threads", str(WORKERS))
        TAP.result(True, "grundyd started on 127.0.0.1:%d" % d.port)
        ck = Checker(d.port)

        TAP.run("tictactoe: all 5478 reachable positions against brute force, moves sent back",
                t_ttt_reachable, ck)
        TAP.run("tictactoe: all 19683 boards over X, O, '.': 200 iff reachable, else 422 illegal_position",
                t_ttt_all_strings, ck)
        TAP.run("tictactoe/mnk: wrong counts, play after a win, both lines, bad characters, wrong length",
                t_ttt_illegal, ck)
        TAP.run("mnk: every reachable position of every game with at most 6 cells", t_mnk_small_exhaustive, ck)
        TAP.run("mnk: random positions up to 5x5 (seed 11); 3,3,3 equals tictactoe", t_mnk_random, ck)
        TAP.run("mnk: 4x4 k=4 empty board is a draw, answered at once", t_mnk_444_draw, ck)
        TAP.run("mnk: rule errors; 64-cell boards answered or limit_exceeded", t_mnk_limits, ck)
        TAP.run("stone_row: all rows of up to 5 piles of 0..3", t_stone_row_exhaustive, ck)
        TAP.run("stone_row: random rows up to 2^63 - 1 (seed 21)", t_stone_row_random, ck)
        TAP.run("stone_row: 5000 piles of 4611686018427387904, exact", t_stone_row_5000, ck)
        TAP.run("stone_prefix: all rows of up to 5 piles of 0..3, M = 1, 2, 3, 10", t_stone_prefix_exhaustive, ck)
        TAP.run("stone_prefix: random rows and M (seed 22)", t_stone_prefix_random, ck)
        TAP.run("stone_prefix: limits (m = 0, 2049 piles, 1000 and 2048 piles)", t_stone_prefix_limits, ck)
        TAP.run("stone_front3: all rows of up to 5 piles of -2..2", t_stone_front3_exhaustive, ck)
        TAP.run("stone_front3: random signed rows (seed 24), 30000 and 100000 piles", t_stone_front3_random, ck)
        TAP.run("stone games: bad stones are 422 naming the pile", t_stone_errors, ck)
        TAP.run("can_i_win: every position with M <= 6", t_can_i_win_exhaustive, ck)
        TAP.run("can_i_win: random positions with M = 7..14 (seed 32)", t_can_i_win_random, ck)
        TAP.run("can_i_win: M = 20", t_can_i_win_20, ck)
        TAP.run("can_i_win: errors name the field", t_can_i_win_errors, ck)
        TAP.run("misere play is 422 unsupported_convention for every score game", t_misere, ck)
        TAP.diag("%d queries sent" % ck.count)
        rc = d.terminate(15)
        TAP.result(rc == 0, "SIGTERM: grundyd exits 0", [] if rc == 0 else ["exit status %r" % rc])

    return run_main(TAP, "test_scores.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
