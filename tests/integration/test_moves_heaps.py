#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""POST /v1/moves for the heap games (nim, subtraction with finite sets and
rules, octal, Grundy's game, strange nim) against brute force.

Usage: test_moves_heaps.py path/to/grundyd

For every small position of each game (exhaustively up to a bound): the
multiset of `next` positions equals the brute-force successors and `total`
their count; every outcome agrees with brute force and with /v1/analyze of
{...request, ...next}; `winning` is exactly "the position after it is a loss
for the player to move there"; winning moves come first; pages joined by
their cursors give the whole list. Large heaps answer with an exact total
and a canonical first page. Prints TAP; Python 3 stdlib only."""

import itertools
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 110
TAP = Tap()


def key(nxt):
    return json.dumps(nxt, sort_keys=True)


def positions(max_piles, top, lo=0):
    for n in range(1, max_piles + 1):
        yield from (list(p) for p in itertools.product(range(lo, top + 1), repeat=n))


class Checker:
    def __init__(self, client):
        self.c = client
        self.problems = []
        self.checked = 0

    def moves(self, query, path="/v1/moves"):
        r = self.c.request("POST", path, query)
        if r.status != 200:
            self.problems.append("%s -> %d %s" % (json.dumps(query), r.status, r.raw[:300]))
            return None
        return r.json

    def whole(self, query):
        """Every page, joined by cursors (small pages, so paging is tested)."""
        first = self.moves(dict(query, limit=3))
        if first is None:
            return None
        out, page = list(first["moves"]), first
        while page["cursor"] is not None:
            page = self.moves(dict(query, limit=3, cursor=page["cursor"]))
            if page is None:
                return None
            out += page["moves"]
        first["moves"] = out
        return first

    def fail(self, query, why):
        self.problems.append("%s: %s" % (json.dumps(query), why))

    def check(self, query, solver, successors):
        """solver(next_query) -> brute Result or None (not decided by brute force)."""
        self.checked += 1
        ans = self.whole(query)
        if ans is None:
            return
        want = sorted(key(n) for n in successors)
        got = sorted(key(m["next"]) for m in ans["moves"])
        if got != want or ans["total"] != len(want):
            self.fail(query, "next set %s (total %s), brute force %s" % (got, ans["total"], want))
            return
        seen_losing, unknown = False, 0
        for m in ans["moves"]:
            after = brute.merge(query, m["next"])
            res = solver(after)
            if "winner" not in m:
                # only where /v1/analyze does not answer either (misere sums)
                unknown += 1
                if self.c.request("POST", "/v1/analyze", after).status == 200:
                    self.fail(query, "no outcome for %s, which /v1/analyze answers" % m["next"])
                continue
            if res is not None and (m["winner"] != res.winner or
                                    (res.grundy is not None and m["grundy"] != res.grundy)):
                self.fail(query, "after %s: %s/%s, brute force %s/%s" % (m["next"], m["winner"],
                                                                        m["grundy"], res.winner, res.grundy))
            if m["winning"] != (m["winner"] == "second"):
                self.fail(query, "winning %s but winner %s" % (m["winning"], m["winner"]))
            if ans["order"] == "winning_first":
                if m["winning"] and seen_losing:
                    self.fail(query, "a winning move after a losing one")
                seen_losing |= not m["winning"]
        if ans["order"] != ("canonical" if unknown else "winning_first") or bool(unknown) != ("note" in ans):
            self.fail(query, "order %s, note %s, with %d outcomes unknown" % (ans["order"], "note" in ans,
                                                                            unknown))

    def agrees_with_analyze(self, query, count):
        """The first `count` listed outcomes equal /v1/analyze of next; where
        /v1/analyze refuses next (a heap past the table file's bound), the
        entry has no outcome."""
        ans = self.moves(query)
        plain = {k: v for k, v in query.items() if k not in ("limit", "cursor")}
        for m in (ans or {"moves": []})["moves"][:count]:
            r = self.c.request("POST", "/v1/analyze", brute.merge(plain, m["next"]))
            a = r.json if r.status == 200 else {}
            if (r.status == 200) != ("winner" in m) or a.get("winner") != m.get("winner") \
                    or a.get("grundy") != m.get("grundy"):
                self.fail(query, "listed %s/%s, analyze of %s says %s" % (m.get("winner"), m.get("grundy"),
                                                                         m["next"], r.raw[:200]))

    def report(self, name):
        TAP.result(not self.problems, "%s (%d positions)" % (name, self.checked), self.problems[:8])
        self.problems, self.checked = [], 0


def brute_normal(q):
    return brute.solve(q)


def misere_single(options_fn):
    """Misere outcome of at most one non-empty heap, by direct search."""
    def win(n, memo={}):
        if n not in memo:
            opts = options_fn(n)
            memo[n] = not opts or any(not win(sum(o)) if len(o) < 2 else not both(o) for o in opts)
        return memo[n]

    def both(parts):  # a sum of two heaps under misere play, small only
        return sum_win(tuple(sorted(parts)))

    sums = {}

    def sum_win(heaps):
        heaps = tuple(sorted(h for h in heaps if h))
        if heaps not in sums:
            nxt = []
            for i, h in enumerate(heaps):
                for o in options_fn(h):
                    nxt.append(heaps[:i] + tuple(o) + heaps[i + 1:])
            sums[heaps] = not nxt or any(not sum_win(x) for x in nxt)
        return sums[heaps]

    def solve(q):
        heaps = [h for h in q["piles"] if h]
        if len(heaps) > 1:
            return None
        return brute.Result("first" if sum_win(tuple(heaps)) else "second", None, None)
    return solve


def t_nim(ck):
    for piles in positions(3, 4):
        q = {"game": "nim", "piles": piles}
        ck.check(q, brute_normal, brute.legal_next(q))
    ck.report("nim: every position of up to 3 piles of 0..4")
    for piles in positions(3, 3):
        q = {"game": "nim", "piles": piles, "convention": "misere"}
        ck.check(q, brute_normal, brute.legal_next(q))
    ck.report("nim, misere: every position of up to 3 piles of 0..3")


def t_subtraction(ck):
    for moves in ([1, 2], [1, 3, 4], [2, 5], [3]):
        for piles in positions(2, 7):
            q = {"game": "subtraction", "moves": moves, "piles": piles}
            ck.check(q, brute_normal, brute.legal_next(q))
    ck.report("subtraction: sets {1,2} {1,3,4} {2,5} {3}, up to 2 piles of 0..7")
    for moves in ([1, 2], [1, 3, 4]):
        opts = lambda n, m=moves: brute.subtraction_heap_options(n, m)
        for h in range(0, 12):
            q = {"game": "subtraction", "moves": moves, "piles": [h], "convention": "misere"}
            ck.check(q, misere_single(opts), brute.legal_next(q))
    ck.report("subtraction, misere: single heaps 0..11")


def rule_set(rule, n):
    is_in = {"squares": lambda s: math.isqrt(s) ** 2 == s,
             "powers_of_two": lambda s: s & (s - 1) == 0,
             "primes": lambda s: s > 1 and all(s % d for d in range(2, math.isqrt(s) + 1))}[rule]
    return [s for s in range(1, n + 1) if is_in(s)]


def t_rules(ck):
    for rule in ("squares", "powers_of_two", "primes"):
        for piles in positions(2, 12):
            q = {"game": "subtraction", "moves": {"rule": rule}, "piles": piles}
            top = max(piles)
            finite = {"game": "subtraction", "moves": rule_set(rule, max(top, 1)) or [1], "piles": piles}
            succ = brute.legal_next(finite) if rule_set(rule, max(top, 1)) else []
            solver = lambda after, f=finite: brute.solve(dict(f, piles=after["piles"]))
            ck.check(q, solver, succ)
    ck.report("subtraction rules: squares, powers_of_two, primes, up to 2 piles of 0..12")


def t_octal(ck):
    for code in ("0.77", "0.07", "0.137", "0.6", "0.4", "0.33", "0.123"):
        for piles in positions(2, 7, lo=0):
            q = {"game": "octal", "code": code, "piles": piles}
            ck.check(q, brute_normal, brute.legal_next(q))
    ck.report("octal: 0.77 0.07 0.137 0.6 0.4 0.33 0.123, up to 2 heaps of 0..7")
    # d0 = 4: a heap may also be split in two without removing a token.
    for code in ("4.7", "4.37", "4.0", "4.07", "4.6"):
        for piles in positions(2, 7, lo=0):
            q = {"game": "octal", "code": code, "piles": piles}
            ck.check(q, brute_normal, brute.legal_next(q))
    ck.report("octal with d0 = 4: 4.7 (Daisies) 4.37 4.0 4.07 4.6, up to 2 heaps of 0..7")
    for code in ("0.77", "0.137", "4.7", "4.37"):
        digits = brute.parse_octal(code)
        for h in range(0, 10):
            q = {"game": "octal", "code": code, "piles": [h], "convention": "misere"}
            ck.check(q, misere_single(lambda n, d=digits: brute.octal_heap_options(n, d)), brute.legal_next(q))
    ck.report("octal, misere: single heaps 0..9 of 0.77, 0.137, 4.7 and 4.37")


def t_grundys(ck):
    for piles in positions(2, 9):
        q = {"game": "grundys_game", "piles": piles}
        ck.check(q, brute_normal, brute.legal_next(q))
    ck.report("grundys_game: up to 2 heaps of 0..9")


def strange_value(x, k, memo={}):
    if (x, k) not in memo:
        memo[(x, k)] = brute.mex(strange_value(x - t, k) for t in range(1, x // k + 1))
    return memo[(x, k)]


def t_strange(ck):
    def solver(q):
        g = 0
        for x, k in q["piles"]:
            g ^= strange_value(x, k)
        return brute.Result("first" if g else "second", g, None)
    for xs in positions(2, 7):
        for ks in itertools.product((1, 2, 3), repeat=len(xs)):
            piles = [[x, k] for x, k in zip(xs, ks)]
            succ = [{"piles": piles[:i] + [[x - t, k]] + piles[i + 1:]}
                    for i, (x, k) in enumerate(piles) for t in range(1, x // k + 1)]
            ck.check({"game": "strange_nim", "piles": piles}, solver, succ)
    ck.report("strange_nim: up to 2 piles of 0..7 with k in 1..3")


def compound_successors(piles, options_fn, compound):
    """Every position one move of `compound` away: a choice per pile (None:
    it does not move), as lists of pile sizes in place."""
    per_pile = [[None] + [sum(o) for o in options_fn(h)] for h in piles]
    if compound == "conjunctive":
        per_pile = [c[1:] for c in per_pile]
    out = []
    for choice in itertools.product(*per_pile):
        moved = sum(c is not None for c in choice)
        if compound != "conjunctive" and (moved == 0 or (compound == "selective_proper" and moved == len(piles))):
            continue
        out.append([h if c is None else c for h, c in zip(piles, choice)])
    return out


def compound_solver(options_fn, compound):
    memo = {}

    def win(piles):
        t = tuple(piles)
        if t not in memo:
            memo[t] = any(not win(n) for n in compound_successors(piles, options_fn, compound))
        return memo[t]

    return lambda q: brute.Result("first" if win(q["piles"]) else "second", None, None)


def t_compounds(ck):
    games = [({"game": "nim"}, brute.nim_heap_options),
             ({"game": "subtraction", "moves": [1, 3]}, lambda n: brute.subtraction_heap_options(n, [1, 3])),
             ({"game": "octal", "code": "0.3"}, lambda n: brute.octal_heap_options(n, {1: 3})),
             ({"game": "octal", "code": "0.77"}, None)]
    for base, opts in games:
        for compound in ("selective", "selective_proper", "conjunctive"):
            for piles in positions(3, 3):
                q = dict(base, piles=piles, compound=compound)
                if opts is None:  # a code whose moves split a heap: refused, as by /v1/analyze
                    r = ck.c.request("POST", "/v1/moves", q)
                    if r.status != 422 or r.json["error"]["code"] != "unsupported_compound":
                        ck.fail(q, "%d %s, want 422 unsupported_compound" % (r.status, r.raw[:200]))
                    ck.checked += 1
                    continue
                succ = [{"piles": p} for p in compound_successors(piles, opts, compound)]
                ck.check(q, compound_solver(opts, compound), succ)
    ck.report("compounds: selective, selective_proper, conjunctive of nim, subtraction {1,3}, octal 0.3, "
              "up to 3 piles of 0..3 (0.77, whose moves split, refused)")
    # a proper-selective page deep inside a large product, by cursor, agrees with the walk from 0
    q = {"game": "nim", "piles": [3, 2, 4, 1, 2], "compound": "selective_proper"}
    whole = ck.whole(q)
    if whole is not None:
        for start in (0, 7, 100, whole["total"] - 2):
            page = ck.moves(dict(q, limit=2, cursor=str(start)))
            if page is None or page["moves"] != whole["moves"][start:start + 2]:
                ck.fail(q, "page at %d differs from the whole list" % start)
        ck.checked += 1
    ck.report("compounds: pages by cursor equal the whole list")


def t_large(ck):
    big = 10 ** 18
    cases = [({"game": "nim", "piles": [big, 3]}, big + 3),
             ({"game": "octal", "code": "0.77", "piles": [big]}, big),
             ({"game": "grundys_game", "piles": [5, 1000001]}, 2 + 500000),
             ({"game": "strange_nim", "piles": [[big, 7]]}, big // 7),
             ({"game": "subtraction", "moves": [1, 2, 3, 4, 5, 6], "piles": [big] * 1700}, 10200)]
    for q, total in cases:
        ans = ck.moves(dict(q, limit=5))
        if ans is None:
            continue
        if ans["total"] != total or ans["order"] != "canonical" or len(ans["moves"]) != 5 \
                or ans["cursor"] != "5":
            ck.fail(q, "total %s order %s %d moves cursor %s; want total %d, canonical, 5, \"5\""
                    % (ans["total"], ans["order"], len(ans["moves"]), ans["cursor"], total))
        ck.checked += 1
        ck.agrees_with_analyze(dict(q, limit=5), 5)
    # the last page of a huge pile, by cursor: the cursor is exact past 2^64
    q = {"game": "nim", "piles": [big] * 20, "limit": 2}
    ans = ck.moves(dict(q, cursor=str(20 * big - 1)))
    if ans and (ans["total"] != 20 * big or len(ans["moves"]) != 1 or ans["cursor"] is not None
                or ans["moves"][0]["move"] != {"pile": 19, "take": big, "from": big, "to": 0,
                                               "text": "Take %d from pile 19 (%d -> 0)." % (big, big)}):
        ck.fail(q, "last page: %s" % json.dumps(ans)[:300])
    ck.checked += 1
    # a 39-digit cursor the service gave is taken back
    q = {"game": "nim", "piles": [2 ** 63 - 1, 2 ** 63 - 1, 2], "compound": "conjunctive", "limit": 2}
    ans = ck.moves(dict(q, cursor="9" * 38))
    again = ans and ck.moves(dict(q, cursor=ans["cursor"]))
    if not again or again["total"] != (2 ** 63 - 1) ** 2 * 2 or len(again["moves"]) != 2:
        ck.fail(q, "the cursor %s did not come back: %s" % (ans and ans["cursor"], json.dumps(again)[:200]))
    # the proper selective compound skips the runs that move every pile at once
    q = {"game": "nim", "piles": [1, 10 ** 12], "compound": "selective_proper", "limit": 2,
         "cursor": str(10 ** 12)}
    ans = ck.moves(q)
    if not ans or ans["total"] != 10 ** 12 + 1 or [m["next"]["piles"] for m in ans["moves"]] != [[0, 10 ** 12]]:
        ck.fail(q, "last page %s" % json.dumps(ans)[:300])
    ck.checked += 2
    ck.report("large heaps: exact totals past 2^64, canonical pages, outcomes as /v1/analyze")


def t_paging_errors(ck):
    bad = [({"game": "nim", "piles": [3], "limit": 0}, "limit"),
           ({"game": "nim", "piles": [3], "limit": 10001}, "limit"),
           ({"game": "nim", "piles": [3], "cursor": "x"}, "cursor"),
           ({"game": "nim", "piles": [3], "cursor": "4"}, "cursor"),
           # past the end of a position too large to list whole
           ({"game": "octal", "code": "0.77", "piles": [10 ** 15], "cursor": str(10 ** 18)}, "cursor"),
           ({"game": "nim", "piles": [3], "limt": 3}, "limt")]
    for q, field in bad:
        r = ck.c.request("POST", "/v1/moves", q)
        e = (r.json or {}).get("error", {}) if r.status == 422 else {}
        if e.get("field") != field:
            ck.fail(q, "%d %s, want a 422 naming %s" % (r.status, r.raw[:200], field))
        ck.checked += 1
    r = ck.c.request("POST", "/v1/moves?limit=1&cursor=1", {"game": "nim", "piles": [2, 2]})
    if r.status != 200 or len(r.json["moves"]) != 1 or r.json["cursor"] != "2":
        ck.fail("?limit=1&cursor=1", "%d %s" % (r.status, r.raw[:200]))
    ck.report("paging: limit and cursor from the body or the URL; bad ones refused naming the field")


def main():
    if len(sys.argv) != 2:
        print("usage: test_moves_heaps.py path/to/grundyd", file=sys.stderr)
        return 2

    def body():
        d = Daemon(sys.argv[1])
        ck = Checker(Client(d.port, timeout=60))
        for t in (t_nim, t_subtraction, t_rules, t_octal, t_grundys, t_strange, t_compounds, t_large,
                  t_paging_errors):
            t(ck)

    return run_main(TAP, "test_moves_heaps.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
