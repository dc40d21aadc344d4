#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The "why" and "winning_moves" of the heap games, staircase and coins
against brute force (brute.py), through the real grundyd.

Usage: test_why_heaps.py path/to/grundyd

For many random small positions of nim, subtraction, octal, Grundy's game,
staircase and coins (and nim's misere play and selective compounds):
- the steps hold facts only (no "text"), "explanation" is the prose and
  names the nim-sum (and the target's value) recomputed here;
- the nim_sum step's binary strings are the brute-force component values,
  all of one width (the bit length of the largest value and the nim-sum),
  and nim_sum_binary is their XOR;
- the target step names the first component holding the nim-sum's highest
  bit, that bit and the value it moves to;
- the mex step of a heap of at most 16 options lists them all, the
  brute-force options with their brute-force values, and their mex is the
  heap's value; of a larger heap it lists none ("move"); either way the
  answer's move is an option of that heap of the target's value;
- "winning_moves": the answer's move and the others listed (in canonical
  order, the answer's move not repeated, each rendered as POST /v1/moves
  renders it) are the set of moves after which the brute-force outcome is
  a loss for the opponent, with the exact total.
Then every game's catalogue example: the steps hold facts, the explanation
is there, and every winning move named (the answer's, then the others,
each's position found in POST /v1/moves) replays to a loss for the
opponent. Huge heaps: the period step reduces the heap as brute force's
period does, and Nim's winning moves are counted without listing the
options. Prints TAP."""

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
    """Steps hold facts only; the prose is the explanation's."""
    steps = ans["why"]["steps"]
    if not steps:
        ck.fail(q, "no steps")
    texty = [s for s in steps if "text" in s]
    if texty:
        ck.fail(q, "steps still carry text: %r" % (texty[:2],))
    rules = [s for s in steps if s["step"] == "rule" and s != {"step": "rule"}]
    if rules:
        ck.fail(q, "a rule step holds more than its name: %r" % (rules,))
    e = ans.get("explanation")
    if not isinstance(e, str) or not e.strip() or not e.endswith("."):
        ck.fail(q, "explanation empty or cut short: %r" % (e,))


def move_key(m):
    """A move object's facts, its words aside."""
    return json.dumps({k: v for k, v in m.items() if k != "text"}, sort_keys=True)


def check_winning_shape(ck, q, ans):
    """winning_moves is {total, others[, note]}: at most 15 others, each a
    move object with its text and no next."""
    w = ans["winning_moves"]
    if not set(w) <= {"total", "others", "note"} or "total" not in w or not isinstance(w.get("others"), list):
        ck.fail(q, "winning_moves %r is not {total, others[, note]}" % (w,))
        return False
    if len(w["others"]) > 15:
        ck.fail(q, "winning_moves lists %d others, more than 15" % len(w["others"]))
    for m in w["others"]:
        if not isinstance(m, dict) or "next" in m or "move" in m or not isinstance(m.get("text"), str) \
                or not m["text"]:
            ck.fail(q, "winning_moves entry %r is not a move object with its text" % (m,))
            return False
    return True


def named_winning(ans):
    """The winning moves an answer names: its own move, when it is a winning
    one (the player to move wins and some move does), then the others."""
    w = ans["winning_moves"]
    own = [ans["move"]] if ans.get("move") is not None and ans["winner"] == "first" and w["total"] != 0 else []
    return own + w["others"]


def xor_all(values):
    x = 0
    for v in values:
        x ^= v
    return x


def check_nim_sum(ck, q, step, values, name="pile", ans=None):
    """binary[i] is values[i] (the first 64), all of one width (the bit
    length of the largest value and the nim-sum, at least 1);
    nim_sum_binary is their XOR; "components" only past 64 values. With
    the answer, its explanation names the nim-sum and whether it is 0."""
    x = xor_all(values)
    width = max(1, max(values + [x]).bit_length())
    listed = values[:64]
    want = {"step": "nim_sum", "name": name, "binary": [format(v, "0%db" % width) for v in listed],
            "nim_sum_binary": format(x, "0%db" % width)}
    if len(values) > 64:
        want["components"] = len(values)
    for k in sorted(set(want) | set(step)):
        if step.get(k) != want.get(k):
            ck.fail(q, "nim_sum step %s = %r, brute force %r" % (k, step.get(k), want.get(k)))
    binary, total = step.get("binary"), step.get("nim_sum_binary")
    if isinstance(binary, list) and isinstance(total, str):
        try:
            got = [int(b, 2) for b in binary]
            widths = {len(b) for b in binary + [total]}
            folded = xor_all(got) if len(values) <= 64 else int(total, 2)
            if got != listed or widths != {width} or int(total, 2) != x or folded != x:
                ck.fail(q, "nim_sum step binary %r / %r: values %r, widths %r; brute force %r, nim-sum %d"
                        % (binary[:8], total, got[:8], sorted(widths), listed[:8], x))
        except (TypeError, ValueError):
            ck.fail(q, "nim_sum step binary %r / %r are not binary strings" % (binary[:8], total))
    if ans is not None:
        said = " %d: %s" % (x, "non-zero" if x else "zero")
        if said not in ans["explanation"] and (values or "the nim-sum is 0" not in ans["explanation"]):
            ck.fail(q, "explanation does not say the nim-sum (%r): %r" % (said, ans["explanation"]))
    return x


def check_target(ck, q, step, values, x, ans=None):
    i = next(i for i, v in enumerate(values) if v ^ x < v)
    want = {"step": "target", "component": i, "high_bit": x.bit_length() - 1, "to": values[i] ^ x}
    for k in sorted(set(want) | set(step)):
        if step.get(k) != want.get(k):
            ck.fail(q, "target step %s = %r, brute force %r" % (k, step.get(k), want.get(k)))
    if (values[i] >> want["high_bit"]) & 1 != 1 or any((v >> want["high_bit"]) & 1 for v in values[:i]):
        ck.fail(q, "component %d is not the first holding bit %d of %r" % (i, want["high_bit"], values))
    if ans is not None:
        said = "holds its highest bit (bit %d), so its value XOR the nim-sum, %d, is smaller" \
            % (want["high_bit"], want["to"])
        if said not in ans["explanation"]:
            ck.fail(q, "explanation does not name the target (%r): %r" % (said, ans["explanation"]))
    return i


def parts_value(parts, value_of):
    x = 0
    for h in parts:
        x ^= value_of((h,))
    return x


def move_heaps(move):
    """The heaps a heap move leaves of its heap: the split, or what is left."""
    if "split" in move:
        return tuple(sorted(move["split"]))
    return (move["to"],) if move.get("to") else ()


def check_mex(ck, q, step, i, n, options_fn, value_of, to, move):
    """The mex step of heap i (size n) against its brute-force options: all
    listed, with their values and mex, when at most 16; none past that. The
    answer's move is an option of that heap of value `to` either way."""
    brute_opts = [(n - sum(t), tuple(sorted(t))) for t in options_fn(n)]
    grundy = brute.mex(parts_value(t, value_of) for _, t in brute_opts)
    allowed = {"step", "component", "options_total", "listed"}
    if step.get("component") != i:
        ck.fail(q, "the mex step is of pile %r, the target of %d" % (step.get("component"), i))
    if step.get("options_total") is not None and step.get("options_total") != len(brute_opts):
        ck.fail(q, "mex step options_total %r, brute force %d" % (step.get("options_total"), len(brute_opts)))
    if len(brute_opts) <= 16:
        allowed |= {"options", "mex"}
        if step.get("listed") != "all" or not isinstance(step.get("options"), list):
            ck.fail(q, "mex step of a heap of %d options: %r, want all listed" % (len(brute_opts), step))
        else:
            listed = [(o["take"], tuple(sorted(o["heaps"]))) for o in step["options"]]
            for o in step["options"]:
                want = parts_value(o["heaps"], value_of)
                if o["grundy"] != want or set(o) != {"take", "heaps", "grundy"}:
                    ck.fail(q, "mex step: option %r, brute-force value %d" % (o, want))
            if sorted(listed) != sorted(brute_opts):
                ck.fail(q, "mex step options %r, brute force %r" % (listed, brute_opts))
            if step.get("mex") != grundy or brute.mex(o["grundy"] for o in step["options"]) != grundy:
                ck.fail(q, "mex step %r, brute-force value %d" % (step, grundy))
    elif step.get("listed") != "move":
        ck.fail(q, "mex step of a heap of %d options: %r, want listed \"move\"" % (len(brute_opts), step))
    if set(step) != allowed:
        ck.fail(q, "mex step members %r, want %r" % (sorted(step), sorted(allowed)))
    if not isinstance(move, dict) or move.get("pile") != i or move.get("from") != n \
            or (move.get("take"), move_heaps(move)) not in brute_opts or parts_value(move_heaps(move), value_of) != to:
        ck.fail(q, "the answer's move %r is not an option of pile %d (%d) of value %d" % (move, i, n, to))


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
    """The answer's move and the others are the brute-force winning moves
    (POST /v1/moves' entries after which the opponent loses): the answer's
    move one of them with its next, the others the rest in canonical order,
    rendered as /v1/moves renders them, up to 15."""
    if not check_winning_shape(ck, q, ans):
        return
    moves = ck.all_moves(q)
    if moves is None:
        return
    want = [m for m in moves if loses(q, m["next"], compound_values)]
    got = ans["winning_moves"]
    if got["total"] != len(want):
        ck.fail(q, "winning_moves total %r, brute force %d" % (got["total"], len(want)))
    own = ans.get("move")
    if want:
        mine = [m for m in want if isinstance(own, dict) and move_key(m["move"]) == move_key(own)]
        if not mine:
            ck.fail(q, "the answer's move %r is not a brute-force winning move %r" % (own, [m["move"] for m in want]))
        elif mine[0]["next"] != ans.get("next"):
            ck.fail(q, "the answer's next %r, /v1/moves gives %r for its move" % (ans.get("next"), mine[0]["next"]))
    rest = [m["move"] for m in want if not (isinstance(own, dict) and move_key(m["move"]) == move_key(own))]
    if got["others"] != rest[:15]:
        ck.fail(q, "winning_moves others %r, brute force (as /v1/moves renders them) %r" % (got["others"], rest[:15]))


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
    x = check_nim_sum(ck, q, sums[0], values, "pile", ans)
    targets, mexes = steps_of(ans, "target"), steps_of(ans, "mex")
    if (len(targets), len(mexes)) != ((1, 1) if x else (0, 0)):
        ck.fail(q, "target/mex steps %d/%d for nim-sum %d" % (len(targets), len(mexes), x))
    elif x:
        i = check_target(ck, q, targets[0], values, x, ans)
        check_mex(ck, q, mexes[0], i, piles[i], options_fn, value_of, values[i] ^ x, ans.get("move"))
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
        x = check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], odd, "odd stair", ans)
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
            x = check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], values, "head", ans)
            if len(steps_of(ans, "target")) != (1 if x else 0):
                ck.fail(q, "%d target steps for nim-sum %d" % (len(steps_of(ans, "target")), x))
            elif x:
                check_target(ck, q, steps_of(ans, "target")[0], values, x, ans)
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
        if check_winning_shape(ck, q, ans) and len(ans["winning_moves"]["others"]) != min(max(want - 1, 0), 15):
            ck.fail(q, "conjunctive winning_moves %r: %d others of %d winning moves"
                    % (ans["winning_moves"], len(ans["winning_moves"]["others"]), want))
    ck.report("misere nim and the selective and conjunctive compounds: their steps and winning_moves")


def moves_nexts(ck, q, wanted, pages=50):
    """The next of each move in `wanted` (by its facts), from POST /v1/moves'
    entries for q: pages until all are found (winning moves come first);
    None for one not found. The text of each must be /v1/moves'."""
    found, cursor = {}, None
    need = {move_key(m) for m in wanted}
    for _ in range(pages):
        body = dict(q, limit=1000)
        if cursor is not None:
            body["cursor"] = cursor
        r = ck.c.request("POST", "/v1/moves", body)
        if r.status != 200:
            ck.fail(q, "moves: %d %s" % (r.status, r.raw[:200]))
            break
        for e in r.json["moves"]:
            found.setdefault(move_key(e["move"]), e)
        cursor = r.json["cursor"]
        if cursor is None or need <= set(found):
            break
    return [found.get(move_key(m)) for m in wanted]


def replays(ck, q, ans, small=True):
    """Every winning move named (the answer's, then the others) leads to a
    loss for the opponent: by brute force where it answers the game (small
    positions), else by the service. The answer's move leads to its next;
    each other's next is that of its entry in POST /v1/moves."""
    if not check_winning_shape(ck, q, ans):
        return
    named = named_winning(ans)
    others = named[1:] if named and named[0] is ans.get("move") else named
    total = ans["winning_moves"]["total"]
    if total is not None and len(named) != min(total, 16 if len(others) != len(named) else 15):
        ck.fail(q, "winning_moves total %d, but the answer's move %r and %d others named%s"
                % (total, ans.get("move"), len(others), ": the others repeat it"
                   if ans.get("move") and move_key(ans["move"]) in map(move_key, others) else ""))
    if len(others) != len(named) and ans.get("next") is None:
        named = others  # the answer's next omitted (too large): nothing to replay of it
    entries = dict(zip(map(id, others), moves_nexts(ck, q, others))) if others else {}
    for m in named:
        if m is ans.get("move"):
            nxt = ans["next"]
        else:
            e = entries.get(id(m))
            if e is None:
                ck.fail(q, "winning move %r is not a legal move of POST /v1/moves" % (m,))
                continue
            if e["move"] != m:
                ck.fail(q, "winning move %r is not rendered as /v1/moves renders it: %r" % (m, e["move"]))
            nxt = e["next"]
        merged = brute.merge(q, nxt)
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
    ck.report("every catalogue example: steps hold facts, explanation given, winning moves replay")


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
        x = check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], values, "pile", ans)
        want = sum(1 for v in values if v ^ x < v)  # one option of each smaller value per heap
        if ans["winning_moves"]["total"] is None or ans["winning_moves"]["total"] < want:
            ck.fail(q, "winning_moves %r, at least %d" % (ans["winning_moves"], want))
        named = named_winning(ans) if check_winning_shape(ck, q, ans) else []
        if len(named) != min(ans["winning_moves"]["total"] or 0, 16):
            ck.fail(q, "winning_moves %r names %d moves" % (ans["winning_moves"], len(named)))
        legal = {move_key(e["move"]): e for e in ck.all_moves(q) or []}
        for m in named:  # the position after it (POST /v1/moves'), by brute force's period
            e = legal.get(move_key(m))
            piles = list(q["piles"])
            if e is None or not 0 <= m.get("pile", -1) < len(piles) or m.get("from") != piles[m["pile"]] \
                    or m.get("take") not in moves or m["from"] - m["take"] != m.get("to"):
                ck.fail(q, "winning move %r is not a legal move (of POST /v1/moves)" % (m,))
                continue
            piles[m["pile"]] = m["to"]
            if e["next"] != {"piles": piles} or (m is ans["move"] and ans["next"] != e["next"]):
                ck.fail(q, "winning move %r: next %r, the answer's %r, want %r" % (m, e["next"], ans["next"], piles))
            after = [brute.periodic_value(g, s, p, n) for n in piles]
            if any(n > 10 ** 18 for n in piles) or xor_all(after) != 0:
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
        check_nim_sum(ck, q, steps_of(ans, "nim_sum")[0], piles, "pile", ans)
        want = [{"pile": i, "take": v - (v ^ x), "from": v, "to": v ^ x,
                 "text": "Take %d from pile %d (%d -> %d)." % (v - (v ^ x), i, v, v ^ x)}
                for i, v in enumerate(piles) if v ^ x < v]
        got = ans["winning_moves"]
        if not check_winning_shape(ck, q, ans):
            continue
        if got["total"] != len(want) or (want and ans["move"] not in want) \
                or got["others"] != [m for m in want if m != ans["move"]]:
            ck.fail(q, "winning_moves %r with the move %r, want %r" % (got, ans["move"], want))
        for m in named_winning(ans):  # the position after it: the move applied
            nxt = {"piles": piles[:m["pile"]] + [m["to"]] + piles[m["pile"] + 1:]}
            if m is ans["move"] and ans["next"] != nxt or xor_all(nxt["piles"]) != 0:
                ck.fail(q, "winning move %r leaves %r (the answer's next %r)" % (m, nxt, ans["next"]))
        if x:
            i = check_target(ck, q, steps_of(ans, "target")[0], piles, x, ans)
            mex = steps_of(ans, "mex")[0]
            if piles[i] <= 16:
                check_mex(ck, q, mex, i, piles[i], brute.nim_heap_options, lambda t: sum(t) if t else 0,
                          piles[i] ^ x, ans["move"])
            elif mex != {"step": "mex", "component": i, "options_total": piles[i], "listed": "move"} \
                    or ans["move"] != want[[m["pile"] for m in want].index(i)]:
                ck.fail(q, "mex step of a huge heap %r, the move %r (target pile %d)" % (mex, ans["move"], i))
    ck.report("huge heaps: period reduction as brute force, Nim's winning moves counted exactly")


def t_long_texts(ck):
    """The longest accounts (many huge piles, long sets, periods): the
    explanation is whole (ends its last sentence), never cut short, and
    the steps hold facts only."""
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
    ck.report("long accounts: the explanation is whole, with room to spare")


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
