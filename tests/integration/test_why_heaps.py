#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The "why" and "winning_moves" of the heap games, staircase and coins
against brute force (brute.py), through the real grundyd.

Usage: test_why_heaps.py path/to/grundyd

For many random small positions of nim, subtraction, octal, Grundy's game,
staircase and coins (and nim's misere play and selective compounds):
- "explanation" is exactly the steps' texts joined by single spaces;
- the nim_sum step's values are the brute-force component values, its binary
  column counts and parities and its total are recomputed here;
- the target step names the first component holding the nim-sum's highest
  bit and the value it moves to;
- the mex step's options are the brute-force options of that heap with
  their brute-force values (all of them, or one per value below the heap's),
  and their mex is the heap's value;
- "winning_moves" equals the set of moves (from POST /v1/moves) after which
  the brute-force outcome is a loss for the opponent, with the exact total.
Then every game's catalogue example: the explanation is the steps' texts
and every winning move listed replays to a loss for the opponent. Huge
heaps: the period step reduces the heap as brute force's period does, and
Nim's winning moves are counted without listing the options. Prints TAP."""

import json
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 150
TAP = Tap()
RNG = random.Random(15)


def key(nxt):
    return json.dumps(nxt, sort_keys=True)


class Checker:
    def __init__(self, client):
        self.c = client
        self.problems = []
        self.checked = 0

    def fail(self, query, why):
        self.problems.append("%s: %s" % (json.dumps(query)[:200], why))

    def analyze(self, query):
        r = self.c.request("POST", "/v1/analyze", query)
        if r.status != 200:
            self.fail(query, "%d %s" % (r.status, r.raw[:300]))
            return None
        return r.json

    def all_moves(self, query):
        out, cursor = [], None
        while True:
            q = dict(query, limit=10000)
            if cursor is not None:
                q["cursor"] = cursor
            r = self.c.request("POST", "/v1/moves", q)
            if r.status != 200:
                self.fail(query, "moves: %d %s" % (r.status, r.raw[:200]))
                return None
            out += r.json["moves"]
            cursor = r.json["cursor"]
            if cursor is None:
                return out

    def report(self, name):
        TAP.result(not self.problems, "%s (%d positions)" % (name, self.checked), self.problems[:8])
        self.problems = []
        self.checked = 0


def steps_of(ans, kind):
    return [s for s in ans["why"]["steps"] if s["step"] == kind]


def check_text(ck, q, ans):
    texts = [s["text"] for s in ans["why"]["steps"]]
    if ans["explanation"] != " ".join(texts):
        ck.fail(q, "explanation is not the steps' texts: %r vs %r" % (ans["explanation"], texts))
    if not texts:
        ck.fail(q, "no steps")


def xor_all(values):
    x = 0
    for v in values:
        x ^= v
    return x


def check_nim_sum(ck, q, step, values):
    x = 0
    for v in values:
        x ^= v
    width = max(1, max(values + [x]).bit_length())
    listed = values[:64]
    want = {"components": len(values), "listed": len(listed), "width": width, "values": listed,
            "binary": [format(v, "0%db" % width) for v in listed],
            "columns": [{"bit": b, "ones": sum((v >> b) & 1 for v in values),
                         "parity": sum((v >> b) & 1 for v in values) % 2} for b in range(width - 1, -1, -1)],
            "nim_sum": x, "nim_sum_binary": format(x, "0%db" % width)}
    for k, v in want.items():
        if step.get(k) != v:
            ck.fail(q, "nim_sum step %s = %r, brute force %r" % (k, step.get(k), v))
    return x


def check_target(ck, q, step, values, x):
    i = next(i for i, v in enumerate(values) if v ^ x < v)
    want = {"component": i, "from": values[i], "to": values[i] ^ x, "nim_sum": x,
            "high_bit": x.bit_length() - 1}
    for k, v in want.items():
        if step.get(k) != v:
            ck.fail(q, "target step %s = %r, brute force %r" % (k, step.get(k), v))
    return i


def parts_value(parts, value_of):
    x = 0
    for h in parts:
        x ^= value_of((h,))
    return x


def check_mex(ck, q, step, n, options_fn, value_of):
    """The listed options against the brute-force options of heap n."""
    brute_opts = [(n - sum(t), tuple(sorted(t))) for t in options_fn(n)]
    grundy = brute.mex(parts_value(t, value_of) for _, t in brute_opts)
    listed = [(o["take"], tuple(sorted(o["heaps"]))) for o in step["options"]]
    for o in step["options"]:
        want = 0
        for h in o["heaps"]:
            want ^= value_of((h,))
        if o["grundy"] != want:
            ck.fail(q, "mex step: option %r has value %d, brute force %d" % (o, o["grundy"], want))
    if step["grundy"] != grundy or step["mex"] != grundy or step["size"] != n:
        ck.fail(q, "mex step %r, brute-force value %d" % (step, grundy))
    if step["options_total"] is not None and step["options_total"] != len(brute_opts):
        ck.fail(q, "mex step options_total %r, brute force %d" % (step["options_total"], len(brute_opts)))
    if step["listed"] == "all":
        if sorted(listed) != sorted(brute_opts):
            ck.fail(q, "mex step options %r, brute force %r" % (listed, brute_opts))
    elif [o["grundy"] for o in step["options"]] != list(range(min(grundy, 16))):
        ck.fail(q, "mex step witnesses %r are not one of each value below %d" % (step["options"], grundy))
    elif not set(listed) <= set(brute_opts):
        ck.fail(q, "mex step witnesses %r are not options of %d" % (listed, n))


def loses(q, nxt, compound_values=None):
    """The brute-force outcome after a move: True when the player then to
    move loses."""
    merged = brute.merge(q, nxt)
    comp = q.get("compound", "disjunctive")
    if comp == "disjunctive":
        return brute.solve(merged).winner == "second"
    values = compound_values(merged)
    return all(v == 0 for v in values) if comp == "selective" else len(set(values)) <= 1


def check_winning(ck, q, ans, compound_values=None):
    moves = ck.all_moves(q)
    if moves is None:
        return
    want = [m["next"] for m in moves if loses(q, m["next"], compound_values)]
    got = ans["winning_moves"]
    if got["total"] != len(want):
        ck.fail(q, "winning_moves total %r, brute force %d" % (got["total"], len(want)))
    if [key(m["next"]) for m in got["moves"]] != [key(n) for n in want[:16]]:
        ck.fail(q, "winning moves %r, brute force %r" % ([m["next"] for m in got["moves"]], want[:16]))
    legal = {key(m["next"]): m["move"] for m in moves}
    for m in got["moves"]:
        if legal.get(key(m["next"])) != m["move"]:
            ck.fail(q, "winning move %r is not rendered as /v1/moves renders it" % (m,))


def check_heap_position(ck, q, options_fn, value_of):
    ans = ck.analyze(q)
    if ans is None:
        return
    ck.checked += 1
    check_text(ck, q, ans)
    piles = q["piles"]
    values = [value_of((p,)) for p in piles]
    sums = steps_of(ans, "nim_sum")
    if len(sums) != 1:
        ck.fail(q, "want one nim_sum step, got %d" % len(sums))
        return
    x = check_nim_sum(ck, q, sums[0], values)
    targets, mexes = steps_of(ans, "target"), steps_of(ans, "mex")
    if (len(targets), len(mexes)) != ((1, 1) if x else (0, 0)):
        ck.fail(q, "target/mex steps %d/%d for nim-sum %d" % (len(targets), len(mexes), x))
    elif x:
        i = check_target(ck, q, targets[0], values, x)
        if mexes[0]["component"] != i:
            ck.fail(q, "the mex step is of pile %d, the target of %d" % (mexes[0]["component"], i))
        check_mex(ck, q, mexes[0], piles[i], options_fn, value_of)
    check_winning(ck, q, ans)


def random_piles(count, top):
    return [RNG.randint(0, top) for _ in range(RNG.randint(1, count))]


def t_nim(ck):
    for _ in range(200):
        q = {"game": "nim", "piles": random_piles(4, 20)}
        check_heap_position(ck, q, brute.nim_heap_options, lambda t: sum(t) if t else 0)
    ck.report("nim: nim_sum, target, mex and winning_moves against brute force")


def t_subtraction(ck):
    for _ in range(120):
        moves = sorted(RNG.sample(range(1, 8), RNG.randint(1, 4)))
        g = brute.subtraction_values(moves, 40)
        q = {"game": "subtraction", "moves": moves, "piles": random_piles(3, 40)}
        check_heap_position(ck, q, lambda n, m=moves: brute.subtraction_heap_options(n, m),
                            lambda t, g=g: g[t[0]] if t else 0)
    ck.report("subtraction: nim_sum, target, mex and winning_moves against brute force")


def t_octal(ck):
    for code in ("0.77", "0.07", "0.137", "0.6", "0.4", "0.15", "0.731"):
        g = brute.octal_values(code, 30)
        digits = brute.parse_octal(code)
        for _ in range(25):
            q = {"game": "octal", "code": code, "piles": random_piles(3, 24)}
            check_heap_position(ck, q, lambda n, d=digits: brute.octal_heap_options(n, d),
                                lambda t, g=g: g[t[0]] if t else 0)
    ck.report("octal: nim_sum, target, mex and winning_moves against brute force")


def t_grundys(ck):
    g = brute.grundys_game_values(40)
    for _ in range(80):
        q = {"game": "grundys_game", "piles": random_piles(3, 40)}
        check_heap_position(ck, q, brute.grundys_game_heap_options, lambda t: g[t[0]] if t else 0)
    ck.report("grundys_game: nim_sum, target, mex and winning_moves against brute force")


def t_staircase_coins(ck):
    for _ in range(80):
        q = {"game": "staircase", "stairs": random_piles(5, 6)}
        ans = ck.analyze(q)
        if ans is None:
            continue
        ck.checked += 1
        check_text(ck, q, ans)
        odd = q["stairs"][1::2]
        st = steps_of(ans, "staircase")
        if len(st) != 1 or st[0]["odd_stairs"] != list(range(1, len(q["stairs"]), 2)) or st[0]["coins"] != odd:
            ck.fail(q, "staircase step %r" % (st,))
        x = check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], odd)
        if x != brute.staircase_grundy(q["stairs"]):
            ck.fail(q, "odd-stair nim-sum %d, brute force %d" % (x, brute.staircase_grundy(q["stairs"])))
        check_winning(ck, q, ans)
    for rule in ("turning_turtles", "mock_turtles", "ruler"):
        for _ in range(30):
            heads = sorted(RNG.sample(range(1, 12), RNG.randint(1, 4)))
            q = {"game": "coins", "rule": rule, "heads": heads}
            ans = ck.analyze(q)
            if ans is None:
                continue
            ck.checked += 1
            check_text(ck, q, ans)
            values = [brute.coins_grundy(rule, [h]) for h in heads]
            x = check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], values)
            if x:
                check_target(ck, q, steps_of(ans, "target")[0], values, x)
            check_winning(ck, q, ans)
    ck.report("staircase (odd stairs as nim) and coins (heads as heaps): steps and winning_moves")


def t_misere_compounds(ck):
    for _ in range(60):
        q = {"game": "nim", "convention": "misere", "piles": random_piles(3, 5)}
        ans = ck.analyze(q)
        if ans is None:
            continue
        ck.checked += 1
        check_text(ck, q, ans)
        st = steps_of(ans, "misere_nim")
        piles = q["piles"]
        want = {"big": sum(p > 1 for p in piles), "ones": piles.count(1),
                "win": brute.misere_nim_win(piles)}
        if len(st) != 1 or any(st[0][k] != v for k, v in want.items()):
            ck.fail(q, "misere_nim step %r, want %r" % (st, want))
        check_winning(ck, q, ans)
    for comp in ("selective", "selective_proper"):
        for _ in range(40):
            q = {"game": "nim", "compound": comp, "piles": random_piles(3, 4)}
            ans = ck.analyze(q)
            if ans is None:
                continue
            ck.checked += 1
            check_text(ck, q, ans)
            st = steps_of(ans, comp)
            if len(st) != 1 or st[0]["values"] != q["piles"] or st[0]["least"] != min(q["piles"]):
                ck.fail(q, "%s step %r" % (comp, st))
            check_winning(ck, q, ans, lambda merged: merged["piles"])
    for _ in range(40):
        q = {"game": "nim", "compound": "conjunctive", "piles": random_piles(3, 4)}
        ans = ck.analyze(q)
        if ans is None:
            continue
        ck.checked += 1
        check_text(ck, q, ans)
        st = steps_of(ans, "conjunctive")
        rem = [1 if p else 0 for p in q["piles"]]  # a non-empty Nim heap is taken whole
        win = min(rem) % 2 == 1
        if len(st) != 1 or st[0]["remoteness"] != rem or st[0]["win"] != win or st[0]["least"] != min(rem):
            ck.fail(q, "conjunctive step %r, remoteness %r" % (st, rem))
        # A move wins iff it empties a pile (remoteness 0 after it): all moves
        # but those that leave every pile non-empty.
        want = math.prod(q["piles"]) - math.prod(p - 1 for p in q["piles"]) if win else 0
        if ans["winning_moves"]["total"] != want:
            ck.fail(q, "conjunctive winning_moves %r, want %d" % (ans["winning_moves"], want))
    ck.report("misere nim and the selective and conjunctive compounds: their steps and winning_moves")


def replays(ck, q, ans, small=True):
    """Every winning move listed leads to a loss for the opponent: by brute
    force where it answers the game (small positions), else by the
    service."""
    for m in ans.get("winning_moves", {}).get("moves", []):
        merged = brute.merge(q, m["next"])
        try:
            if q.get("compound", "disjunctive") != "disjunctive" or not small:
                raise ValueError("compound")
            lost = brute.solve(merged).winner == "second"
        except (ValueError, brute.Cycle, KeyError, RecursionError):
            after = ck.analyze(merged)
            lost = after is not None and after["winner"] == "second"
        if not lost:
            ck.fail(q, "winning move %r does not leave a loss" % (m,))


# The games explained here; every other game is held to the same rule as
# soon as its answer has steps.
EXPLAINED = {"nim", "subtraction", "octal", "grundys_game", "staircase", "coins"}


def t_examples(ck):
    catalogue = ck.c.request("GET", "/v1/games").json
    for g in catalogue["games"]:
        q = json.loads(g["example"]) if isinstance(g["example"], str) else g["example"]
        ans = ck.analyze(q)
        if ans is None:
            continue
        ck.checked += 1
        if q["game"] in EXPLAINED or ans["why"]["steps"]:
            check_text(ck, q, ans)
        replays(ck, q, ans)
    ck.report("every catalogue example: explanation is the steps' texts, winning moves replay")


def t_large(ck):
    # Huge subtraction heaps: the period step reduces them as brute force's period does.
    moves = [1, 3, 4]
    s, p = brute.subtraction_period(moves)
    g = brute.subtraction_values(moves, 200)
    q = {"game": "subtraction", "moves": moves, "piles": [10 ** 15 + 3, 7, 10 ** 18]}
    ans = ck.analyze(q)
    if ans is not None:
        ck.checked += 1
        check_text(ck, q, ans)
        st = steps_of(ans, "period")
        if len(st) != 1 or (st[0]["preperiod"], st[0]["period"]) != (s, p) or st[0]["used"] != 2:
            ck.fail(q, "period step %r, brute force (%d, %d)" % (st, s, p))
        else:
            for e in st[0]["piles"]:
                red = s + (e["size"] - s) % p
                if e["reduced"] != red or e["grundy"] != g[red] or e["size"] < st[0]["bound"]:
                    ck.fail(q, "period step pile %r, brute force reduced %d value %d" % (e, red, g[red]))
        values = [brute.periodic_value(g, s, p, n) for n in q["piles"]]
        x = check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], values)
        want = sum(1 for v in values if v ^ x < v)  # one option of each smaller value per heap
        if ans["winning_moves"]["total"] is None or ans["winning_moves"]["total"] < want:
            ck.fail(q, "winning_moves %r, at least %d" % (ans["winning_moves"], want))
        for m in ans["winning_moves"]["moves"]:  # the position after it, by brute force's period
            after = [brute.periodic_value(g, s, p, n) for n in m["next"]["piles"]]
            if any(n > 10 ** 18 for n in m["next"]["piles"]) or xor_all(after) != 0:
                ck.fail(q, "winning move %r leaves values %r" % (m, after))
    # A heap of an octal game that splits has ~n options: the count is left
    # unknown at once (not after the whole budget), and said so.
    q = {"game": "octal", "code": "0.77", "piles": [10 ** 18, 5, 77777777777]}
    start = time.monotonic()
    ans = ck.analyze(q)
    if ans is not None:
        ck.checked += 1
        w = ans["winning_moves"]
        # "at once": not a search over the heaps' options (far more than a second); the bound leaves a
        # loaded machine its slack
        if w["total"] is not None or not w.get("note") or time.monotonic() - start > 5:
            ck.fail(q, "winning_moves %r after %.2f s, want an unknown total at once" % (w, time.monotonic() - start))
    # Huge Nim heaps: exactly one winning move per pile holding the top bit.
    for _ in range(20):
        piles = [RNG.randint(0, 2 ** 63 - 1) for _ in range(RNG.randint(1, 12))]
        q = {"game": "nim", "piles": piles}
        ans = ck.analyze(q)
        if ans is None:
            continue
        ck.checked += 1
        check_text(ck, q, ans)
        x = 0
        for v in piles:
            x ^= v
        check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], piles)
        want = [dict(piles=piles[:i] + [v ^ x] + piles[i + 1:]) for i, v in enumerate(piles) if v ^ x < v]
        got = ans["winning_moves"]
        if got["total"] != len(want) or [m["next"] for m in got["moves"]] != want:
            ck.fail(q, "winning_moves %r, want %r" % (got, want))
        if x:
            mex = steps_of(ans, "mex")[0]
            if mex["listed"] != "witnesses" or [o["grundy"] for o in mex["options"]] != list(range(16)):
                ck.fail(q, "mex step of a huge heap %r" % (mex,))
    ck.report("huge heaps: period reduction as brute force, Nim's winning moves counted exactly")


def t_long_texts(ck):
    """The longest accounts (many huge piles, long sets, periods): the
    explanation stays exactly the steps' texts, never cut short."""
    for _ in range(40):
        big = [RNG.randint(10 ** 17, 10 ** 18) for _ in range(RNG.randint(1, 40))]
        for q in ({"game": "nim", "piles": [RNG.randint(2 ** 62, 2 ** 63 - 1) for _ in range(RNG.randint(1, 40))]},
                  {"game": "subtraction", "moves": sorted(RNG.sample(range(1, 30), 16)), "piles": big},
                  {"game": "octal", "code": RNG.choice(["0.77", "0.07", "0.137"]), "piles": big},
                  {"game": "staircase", "stairs": [RNG.randint(0, 2 ** 63 - 1) for _ in range(40)]},
                  # heads below 2^53: openapi.yaml's validator reads numbers as doubles, and
                  # its uniqueItems would merge the neighbouring heads a ruler move leaves
                  {"game": "coins", "rule": "ruler", "heads": sorted(RNG.sample(range(1, 2 ** 52), 20))},
                  {"game": "nim", "compound": "selective_proper", "piles": big}):
            ans = ck.analyze(q)
            if ans is not None:
                ck.checked += 1
                check_text(ck, q, ans)
                if len(ans["explanation"]) > 960:
                    ck.fail(q, "the explanation is %d characters, near the 1023 it holds" % len(ans["explanation"]))
    ck.report("long accounts: the explanation is the steps' texts, with room to spare")


def t_slim(ck):
    q = {"game": "nim", "piles": [3, 4, 5]}
    full = ck.c.request("POST", "/v1/analyze", q)
    slim = ck.c.request("POST", "/v1/analyze", dict(q, explain=False))
    TAP.diag("answer to %s: %d bytes; with \"explain\": false %d bytes" % (json.dumps(q), len(full.raw), len(slim.raw)))
    ok = (full.status == slim.status == 200 and
          all(k in full.json for k in ("why", "winning_moves", "explanation")) and
          not any(k in slim.json for k in ("why", "winning_moves", "explanation")))
    TAP.result(ok, "explain: false drops why, winning_moves and explanation of nim's answer")


def main():
    if len(sys.argv) != 2:
        print("usage: test_why_heaps.py path/to/grundyd", file=sys.stderr)
        return 2

    def body():
        d = Daemon(sys.argv[1])
        ck = Checker(Client(d.port, timeout=60))
        for t in (t_nim, t_subtraction, t_octal, t_grundys, t_staircase_coins, t_misere_compounds,
                  t_examples, t_large, t_long_texts, t_slim):
            t(ck)

    return run_main(TAP, "test_why_heaps.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
