#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Misere sums of heaps over HTTP (/v1/analyze, "convention": "misere"):
octal games, subtraction sets and Grundy's game, against a brute-force
misere search written here from brute.py's heap options.

Usage: test_misere.py path/to/grundyd

Every sum of 2 or 3 heaps up to a bound is answered with the brute force's
winner; every winning move is replayed (it must be one of the heap's options
and leave a position the brute force calls a loss); `next` is the position
after it. A misere Kayles sum of heaps up to 10^18 is answered by the
quotient (components carry its misere facts) with a move whose parts the
quotient facts of a second query confirm; a sum no quotient covers and no
search can settle is a 422 beyond_bound naming the heap bound. Prints TAP;
Python 3 stdlib only."""

import functools
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 200
TAP = Tap()


def misere_win(options_fn):
    @functools.lru_cache(maxsize=None)
    def win(pos):
        moved = False
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            for opt in options_fn(h):
                moved = True
                rest = pos[:i] + pos[i + 1:] + tuple(x for x in opt if x > 0)
                if not win(tuple(sorted(rest))):
                    return True
        return not moved
    return win


def apply_move(piles, move):
    out = list(piles)
    i = move["pile"]
    parts = move["split"] if "split" in move else [move["to"]]  # a taken heap stays as 0
    del out[i]
    return out[:i] + parts + out[i:], (tuple(sorted(p for p in parts if p > 0)), i)


class Checker:
    def __init__(self, client):
        self.c = client
        self.problems = []
        self.checked = 0

    def fail(self, q, why):
        self.problems.append("%s: %s" % (json.dumps(q), why))

    def check(self, query, piles, options_fn, win):
        q = dict(query, piles=piles, convention="misere")
        r = self.c.post(q)
        self.checked += 1
        if r.status != 200:
            return self.fail(q, "%d %s" % (r.status, r.raw[:300]))
        a = r.json
        expect = win(tuple(sorted(piles)))
        if a["winner"] != ("first" if expect else "second"):
            return self.fail(q, "winner %s, brute force %s" % (a["winner"], expect))
        if not expect:
            if a.get("move") is not None:
                self.fail(q, "a losing position with a move")
            return None
        if a.get("move") is None:
            if any(options_fn(h) for h in piles):
                self.fail(q, "a win without a move although moves exist")
            return None
        nxt, (parts, i) = apply_move(piles, a["move"])
        legal = {tuple(sorted(x for x in o if x > 0)) for o in options_fn(piles[i])}
        if parts not in legal:
            return self.fail(q, "move %s is not an option of heap %d" % (a["move"], piles[i]))
        if win(tuple(sorted(nxt))):
            return self.fail(q, "move %s leaves a position the opponent wins" % a["move"])
        if a.get("next", {}).get("piles") != nxt:
            return self.fail(q, "next %s, want %s" % (a.get("next"), nxt))
        return None

    def report(self, name):
        TAP.result(not self.problems, "%s (%d queries)" % (name, self.checked), self.problems[:8])
        self.problems, self.checked = [], 0


def sums(top, sizes=(2, 3)):
    for n in sizes:
        yield from (list(p) for p in itertools.combinations_with_replacement(range(1, top + 1), n))


def t_octal(ck):
    for code, top in (("0.77", 10), ("0.07", 9), ("0.137", 8), ("0.15", 9), ("0.4", 9), ("0.35", 9)):
        digits = brute.parse_octal(code)
        opts = functools.lru_cache(maxsize=None)(lambda n, d=digits: brute.octal_heap_options(n, d))
        win = misere_win(opts)
        for piles in sums(top):
            ck.check({"game": "octal", "code": code}, piles, opts, win)
        ck.report("misere sums of octal game %s, heaps <= %d, against brute force" % (code, top))


def t_subtraction(ck):
    for moves, top in (([1, 2], 12), ([1, 3, 4], 12), ([2, 5], 12), ([3, 4, 7], 12)):
        opts = functools.lru_cache(maxsize=None)(lambda n, m=tuple(moves): brute.subtraction_heap_options(n, m))
        win = misere_win(opts)
        for piles in sums(top):
            ck.check({"game": "subtraction", "moves": moves}, piles, opts, win)
        ck.report("misere sums of the subtraction set %s, heaps <= %d, against brute force" % (moves, top))


def t_grundys(ck):
    opts = functools.lru_cache(maxsize=None)(brute.grundys_game_heap_options)
    win = misere_win(opts)
    for piles in sums(11):
        ck.check({"game": "grundys_game"}, piles, opts, win)
    ck.report("misere sums of Grundy's game, heaps <= 11, against brute force")


def t_kayles_huge(ck):
    piles = [10**18 - 7 * i for i in range(40)] + [5, 9, 71, 83]
    q = {"game": "octal", "code": "0.77", "piles": piles, "convention": "misere"}
    r = ck.c.post(q)
    ck.checked += 1
    if r.status != 200:
        ck.fail(q, "%d %s" % (r.status, r.raw[:300]))
    else:
        a = r.json
        facts = [c.get("misere") for c in a["components"]]
        if any(f is None or f["quotient_order"] != 40 for f in facts):
            ck.fail(q, "components without the quotient's facts: %s" % facts[:2])
        if a["winner"] == "first" and a.get("move") is not None:
            # the position after the move must be a loss: ask again
            r2 = ck.c.post(dict(q, piles=a["next"]["piles"]))
            ck.checked += 1
            if r2.status != 200 or r2.json["winner"] != "second":
                ck.fail(q, "after %s the opponent still wins: %s" % (a["move"], r2.raw[:200]))
        elif a["winner"] == "second":
            ck.fail(q, "want a first-player win for this sum (checked below with its move)")
        if "period 12 from heap 71" not in a["explanation"]:
            ck.fail(q, "explanation does not name the quotient's period: %s" % a["explanation"])
    ck.report("misere Kayles sum of heaps near 10^18: quotient facts, the move replayed")


def t_genus(ck):
    """Kayles rows 1 .. 4 are tame (genus 1^031, 2^202, 3^313, 1^031), row 5
    is 4^146 and wild: the explanation gives the genus argument only for
    sums of tame rows, with the nim-sum of their normal values."""
    for piles, tame in (([2, 3, 4], True), ([1, 1, 4], True), ([4, 4], True), ([5, 2], False),
                        ([9, 1], False)):
        q = {"game": "octal", "code": "0.77", "piles": piles, "convention": "misere"}
        r = ck.c.post(q)
        ck.checked += 1
        text = r.json.get("explanation", "") if r.status == 200 else ""
        if r.status != 200 or ("is tame" in text) != tame:
            ck.fail(q, "%d, genus argument %s expected: %s" % (r.status, tame, text))
    ck.report("misere Kayles: Conway's genus argument for sums of tame rows only")


def t_beyond(ck):
    q = {"game": "octal", "code": "0.07", "piles": [300, 301, 302, 303], "convention": "misere"}
    r = ck.c.post(q)
    ck.checked += 1
    e = (r.json or {}).get("error", {}) if r.status == 422 else {}
    if e.get("code") != "beyond_bound" or e.get("field") != "piles" or "covers heaps up to" not in e.get("message", ""):
        ck.fail(q, "%d %s, want a 422 beyond_bound naming the heap bound" % (r.status, r.raw[:300]))
    ck.report("a misere sum past the quotient and the search: 422 beyond_bound with the heap bound")


def main():
    if len(sys.argv) != 2:
        print("usage: test_misere.py path/to/grundyd", file=sys.stderr)
        return 2

    def body():
        d = Daemon(sys.argv[1])
        ck = Checker(Client(d.port, timeout=60))
        for t in (t_octal, t_subtraction, t_grundys, t_kayles_huge, t_genus, t_beyond):
            t(ck)

    return run_main(TAP, "test_misere.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
