#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Subtraction games with rule-defined sets ("squares", "powers_of_two",
"primes") through `grundy query -`, against a brute force written here from
the rules. Usage: test_rules.py path/to/grundy. Prints TAP.

Small heaps (sums of one to three heaps below 600) are compared with the
brute force's Grundy values; every winning move is replayed: the take is in
the set and the service calls the next position a loss. Large single heaps
(10^7 for squares) are decided from the win/loss table; their moves are
replayed the same way."""

import json
import math
import random
import subprocess
import sys

LIMIT = 600


def in_set(rule, s):
    if s < 1:
        return False
    if rule == "squares":
        r = math.isqrt(s)
        return r * r == s
    if rule == "powers_of_two":
        return s & (s - 1) == 0
    if s < 2:
        return False
    return all(s % d for d in range(2, math.isqrt(s) + 1))


def grundy_values(rule, n_max):
    moves = [s for s in range(1, n_max + 1) if in_set(rule, s)]
    g = []
    for n in range(n_max + 1):
        seen = {g[n - s] for s in moves if s <= n}
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return g


def ask(grundy, queries):
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([grundy, "query", "-"], input=text.encode(), capture_output=True,
                         timeout=120)
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def check_small(grundy, rule, g, rng):
    problems, queries = [], []
    for _ in range(300):
        piles = [rng.randrange(LIMIT) for _ in range(rng.randint(1, 3))]
        queries.append({"game": "subtraction", "moves": {"rule": rule}, "piles": piles})
    answers = ask(grundy, queries)
    replays = []
    for q, a in zip(queries, answers):
        x = 0
        for p in q["piles"]:
            x ^= g[p]
        if a.get("grundy") != x or a.get("winner") != ("first" if x else "second"):
            problems.append("%s: got %s, want grundy %d" % (q["piles"], a, x))
            continue
        if x:
            move = a["move"]
            if not in_set(rule, move["take"]) or move["to"] != move["from"] - move["take"]:
                problems.append("%s: illegal move %s" % (q["piles"], move))
            replays.append(dict(q, **a["next"]))
    for q, a in zip(replays, ask(grundy, replays)):
        if a.get("winner") != "second":
            problems.append("after the move %s: %s" % (q["piles"], a.get("winner")))
    return problems


def check_large(grundy, rule, heaps):
    problems = []
    queries = [{"game": "subtraction", "moves": {"rule": rule}, "piles": [n]} for n in heaps]
    answers = ask(grundy, queries)
    replays = []
    for q, a in zip(queries, answers):
        if "error" in a:
            problems.append("%s: %s" % (q["piles"], a["error"]))
        elif a["winner"] == "first":
            if not in_set(rule, a["move"]["take"]):
                problems.append("%s: take %d not in the set" % (q["piles"], a["move"]["take"]))
            replays.append(dict(q, **a["next"]))
    for q, a in zip(replays, ask(grundy, replays)):
        if a.get("winner") != "second":
            problems.append("after the move %s: %s" % (q["piles"], a))
    return problems


def main():
    grundy = sys.argv[1]
    rng = random.Random(20261122)
    results = []
    for rule in ("squares", "powers_of_two", "primes"):
        g = grundy_values(rule, LIMIT)
        results.append(("%s: sums of small heaps match brute force, moves replayed" % rule,
                        check_small(grundy, rule, g, rng)))
    big = [10**7 + k for k in range(40)]
    results.append(("squares: heaps near 10^7 decided, winning moves replayed",
                    check_large(grundy, "squares", big)))
    results.append(("primes: heaps near 10^6 decided, winning moves replayed",
                    check_large(grundy, "primes", [10**6 + k for k in range(20)])))
    bad = ask(grundy, [{"game": "subtraction", "moves": {"rule": "cubes"}, "piles": [5]},
                       {"game": "subtraction", "moves": {"rule": "squares"}, "piles": [10**18]}])
    results.append(("unknown rule and heaps past the bound are 422 with the field",
                    [] if bad[0]["error"]["field"] == "moves.rule" and
                    bad[1]["error"]["code"] == "beyond_bound" else [str(bad)]))
    for i, (name, problems) in enumerate(results, 1):
        print("%s %d - %s" % ("not ok" if problems else "ok", i, name))
        for p in problems[:20]:
            print("# %s" % p)
    print("1..%d" % len(results))
    return 1 if any(p for _, p in results) else 0


if __name__ == "__main__":
    sys.exit(main())
