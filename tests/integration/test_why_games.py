#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`why` and `winning_moves` of the games with their own argument (wythoff,
fibonacci, divisor), the token games (graph, grid) and the score games
(tictactoe, mnk, can_i_win, stone_row, stone_prefix, stone_front3), through
a grundyd started here, against the brute force in brute.py.

Usage: test_why_games.py path/to/grundyd

For each game's catalogue example and many small positions (exhaustive or
seeded random):
- the steps hold facts only (no "text") and "explanation" is there;
- winning_moves: total, and the answer's move with the others listed (in
  canonical order, the answer's move not repeated, each as POST /v1/moves
  writes it, its position after found there), equal the brute-force set:
  the moves after which the opponent loses, or, for the stone rows (whose
  moves score), the moves whose value equals the position's; every move
  named is replayed by brute force;
- the facts of the steps equal their brute-force twins: the Wythoff pair
  and target, the Zeckendorf terms, the divisor parity, the tokens' Grundy
  values in the nim-sum's binary strings, its XOR and the target, the mex
  over the listed options, the loopy
  tokens' lone outcomes, every score move's value, and the principal
  variation replayed ply by ply (each ply optimal, its value the position's).
Prints TAP; Python 3 stdlib only."""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 280
TAP = Tap()
CAP = 16
SCORING = ("stone_row", "stone_prefix", "stone_front3")
CLIENT = None


def ask(query):
    r = CLIENT.post(json.dumps(query))
    if r.status != 200 or r.json is None:
        raise RuntimeError("%s: HTTP %d %r" % (json.dumps(query), r.status, r.raw[:300]))
    return r.json


def show(q):
    return json.dumps(q, separators=(",", ":"))


def steps_of(a, kind):
    return [s for s in a["why"]["steps"] if s["step"] == kind]


# ---- brute-force twins -------------------------------------------------------

def winner(query):
    if query["game"] in ("graph", "grid"):
        return brute.solve_tokens(query).winner
    return brute.solve(query).winner


def score_value(query):
    return brute.solve_score(query).value


def move_value(query, nxt):
    """The value of the move to `nxt` for its mover, as the game's value
    counts it."""
    after = brute.merge(query, nxt)
    g = query["game"]
    if g == "stone_row":
        s = brute.ints(query["stones"])
        taken = s[0] if nxt["stones"] == s[1:] else s[-1]
        return taken - score_value(after)
    if g == "stone_front3":
        s = [int(x) for x in query["stones"]]
        return sum(s[:len(s) - len(nxt["stones"])]) - score_value(after)
    if g == "stone_prefix":
        return sum(brute.ints(query["stones"])) - score_value(after)
    return -score_value(after)


def brute_winning(query):
    """The `next` of every winning (or, stone rows, optimal) move, in
    canonical order."""
    nexts = brute.legal_next(query)
    if query["game"] in SCORING:
        if not nexts:
            return []
        values = [move_value(query, n) for n in nexts]
        return [n for n, v in zip(nexts, values) if v == max(values)]
    if winner(query) != "first":
        return []
    return [n for n in nexts if winner(brute.merge(query, n)) == "second"]


def move_next(query, move):
    """The `next` of a move named by its key members (a why entry)."""
    g = query["game"]
    if g in ("tictactoe", "mnk"):
        b = query["board"]
        c = move["cell"]
        return {"board": b[:c] + brute.mnk_to_move(b) + b[c + 1:]}
    if g == "can_i_win":
        return {"used": brute.ints(query.get("used") or []) + [move["pick"]]}
    s = brute.ints(query["stones"]) if g != "stone_front3" else [int(x) for x in query["stones"]]
    if g == "stone_row":
        return {"stones": s[1:] if move["take"] == "first" else s[:-1]}
    if g == "stone_prefix":
        x = move["take"]
        return {"stones": s[x:], "m": max(brute.stone_prefix_m(query), x)}
    return {"stones": s[move["take"]:]}


# ---- checks ------------------------------------------------------------------

def check_text(q, a):
    """Steps hold facts only; the prose is the explanation's."""
    steps = a["why"]["steps"]
    problems = []
    texty = [st for st in steps if "text" in st]
    if texty:
        problems.append("%s: steps still carry text: %r" % (show(q), texty[:2]))
    if any(st["step"] == "rule" and st != {"step": "rule"} for st in steps):
        problems.append("%s: a rule step holds more than its name: %r" % (show(q), steps))
    e = a.get("explanation")
    if not isinstance(e, str) or not e.strip() or not e.endswith("."):
        problems.append("%s: explanation empty or cut short: %r" % (show(q), e))
    return problems


def move_key(m):
    """A move object's facts, its words aside."""
    return json.dumps({k: v for k, v in m.items() if k != "text"}, sort_keys=True)


def named_moves(q, a):
    """The winning (stone rows: optimal) moves the answer names: its own
    move when there is one to name, then the others; with problems in the
    shape of winning_moves ({total, others[, note]}, at most CAP - 1 others,
    each a move object with its text, no next, not the answer's move)."""
    w = a["winning_moves"]
    problems = []
    if not isinstance(w, dict) or set(w) - {"total", "others", "note"} or "total" not in w \
            or not isinstance(w.get("others"), list):
        return [], ["%s: winning_moves %r is not {total, others[, note]}" % (show(q), w)]
    others = w["others"]
    if len(others) > CAP - 1:
        problems.append("%s: %d others, more than %d" % (show(q), len(others), CAP - 1))
    for m in others:
        if not isinstance(m, dict) or "next" in m or "move" in m or not isinstance(m.get("text"), str):
            return [], problems + ["%s: winning_moves entry %r is not a move object" % (show(q), m)]
    own = a.get("move")
    named = [own] if own is not None and w["total"] != 0 and (a["winner"] == "first" or q["game"] in SCORING) else []
    if w["total"] is not None and len(named + others) != min(w["total"], CAP if named else CAP - 1):
        problems.append("%s: winning_moves total %d, but the answer's move %r and %d others named%s"
                        % (show(q), w["total"], own, len(others),
                           ": the others repeat it" if named and move_key(own) in map(move_key, others) else ""))
    return named + others, problems


def moves_entries(q, wanted, pages=40):
    """POST /v1/moves' entry of each move in `wanted` (matched by its facts;
    None where not found), paging until all are found."""
    found, cursor = {}, None
    need = {move_key(m) for m in wanted}
    for _ in range(pages if wanted else 0):
        body = dict(q, limit=10000)
        if cursor is not None:
            body["cursor"] = cursor
        r = CLIENT.request("POST", "/v1/moves", body)
        if r.status != 200 or r.json is None:
            raise RuntimeError("%s: moves: HTTP %d %r" % (show(q), r.status, r.raw[:300]))
        for e in r.json["moves"]:
            found.setdefault(move_key(e["move"]), e)
        cursor = r.json["cursor"]
        if cursor is None or need <= set(found):
            break
    return [found.get(move_key(m)) for m in wanted]


def named_nexts(q, a, apply=None):
    """(named moves, the position after each, problems): the answer's move
    leads to its next, every other to the next of its entry in POST
    /v1/moves, which writes it exactly as listed; with `apply`, each
    position is the move applied instead (positions too large to page)."""
    named, problems = named_moves(q, a)
    entries = [None] * len(named) if apply else moves_entries(q, named)
    nexts = []
    for m, e in zip(named, entries):
        nxt = apply(q, m) if apply else e["next"] if e else None
        if not apply and e is None:
            problems.append("%s: named move %r is not a legal move of POST /v1/moves" % (show(q), m))
        elif m is a.get("move"):
            if nxt != a.get("next"):
                problems.append("%s: the answer's next %r, its move leads to %r" % (show(q), a.get("next"), nxt))
        elif not apply and e["move"] != m:
            problems.append("%s: named move %r, POST /v1/moves writes %r" % (show(q), m, e["move"]))
        nexts.append(nxt)
    return named, nexts, problems


def besides(want, own):
    """want less one move to own (two moves may lead to one position)."""
    rest = list(want)
    if own in rest:
        rest.remove(own)
    return rest


def check_winning(q, a):
    want = brute_winning(q)
    w = a["winning_moves"]
    named, got, problems = named_nexts(q, a)
    if w["total"] != len(want):
        problems.append("%s: winning_moves.total %r, brute force %d" % (show(q), w["total"], len(want)))
    trimmed = [{k: n[k] for k in want[0]} if n else n for n in got] if want else got
    own = trimmed[0] if named and named[0] is a.get("move") else None
    if own is not None and own not in want:
        problems.append("%s: the answer's move %r (to %r) is not one of brute force's %r"
                        % (show(q), a.get("move"), own, want[:CAP]))
    rest = besides(want, own)[:CAP - 1]
    if trimmed[1 if own is not None else 0:] != rest:
        problems.append("%s: winning moves %r besides the answer's %r, brute force %r"
                        % (show(q), got, own, rest))
    for n in got:  # replay
        if n is None:
            continue
        if q["game"] in SCORING:
            if move_value(q, n) != score_value(q):
                problems.append("%s: listed move to %s is not optimal" % (show(q), show(n)))
        elif winner(brute.merge(q, n)) != "second":
            problems.append("%s: listed move to %s does not leave a loss" % (show(q), show(n)))
    return problems


def check_wythoff(q, a):
    x, y = q["piles"]
    (p,) = steps_of(a, "wythoff_pair")
    k = abs(x - y)
    want = {"piles": [x, y], "k": k, "a_k": brute.wythoff_a(k), "b_k": brute.wythoff_a(k) + k,
            "losing": brute.wythoff_is_p(x, y)}
    problems = ["%s: %s = %r, want %r" % (show(q), m, p[m], v) for m, v in want.items() if p[m] != v]
    for t in steps_of(a, "wythoff_target"):
        tx, ty = t["to"]
        if not brute.wythoff_is_p(tx, ty) or t["b_k"] - t["a_k"] != abs(tx - ty) or min(tx, ty) != t["a_k"]:
            problems.append("%s: wythoff_target %r is not a losing pair" % (show(q), t))
    return problems


def check_fibonacci(q, a):
    (z,) = steps_of(a, "zeckendorf")
    n = q["n"]
    problems = []
    if z["terms"] != brute.zeckendorf(n) or sum(z["terms"]) != n:
        problems.append("%s: terms %r, brute force %r" % (show(q), z["terms"], brute.zeckendorf(n)))
    if z["can_take"] != (a["winner"] == "first") or a["winner"] != winner(q):
        problems.append("%s: can_take %r, winner %r" % (show(q), z["can_take"], winner(q)))
    return problems


def check_divisor(q, a):
    (p,) = steps_of(a, "parity")
    ok = p["n"] == q["n"] and p["even"] == (q["n"] % 2 == 0) == (winner(q) == "first")
    return [] if ok else ["%s: parity step %r" % (show(q), p)]


def node_key(node):
    return tuple(node) if isinstance(node, list) else node


def check_tokens_dag(q, a):
    succ, tokens = brute.token_board(q)
    values = {}

    def value(u):
        if u not in values:
            values[u] = brute.mex(value(v) for v in succ[u])
        return values[u]

    comps = [value(t) for t in tokens]
    x = 0
    for c in comps:
        x ^= c
    problems = []
    (ns,) = steps_of(a, "nim_sum")
    width = max(1, max(comps + [x]).bit_length())
    want = {"step": "nim_sum", "name": "token", "binary": [format(c, "0%db" % width) for c in comps],
            "nim_sum_binary": format(x, "0%db" % width)}
    if ns != want:
        problems.append("%s: nim_sum %r, brute force %r" % (show(q), ns, want))
    else:  # the strings read back: the values, one width, nim_sum_binary their XOR
        got = [int(b, 2) for b in ns["binary"]]
        folded = 0
        for v in got:
            folded ^= v
        if got != comps or folded != int(ns["nim_sum_binary"], 2) or \
                {len(b) for b in ns["binary"] + [ns["nim_sum_binary"]]} != {width}:
            problems.append("%s: nim_sum %r does not read back as %r" % (show(q), ns, comps))
    targets = steps_of(a, "target")
    if len(targets) != (1 if x else 0):
        problems.append("%s: %d target steps for nim-sum %d" % (show(q), len(targets), x))
    elif x:
        i = next(i for i, c in enumerate(comps) if c ^ x < c)
        want_t = {"step": "target", "component": i, "high_bit": x.bit_length() - 1, "to": comps[i] ^ x}
        if targets[0] != want_t:
            problems.append("%s: target %r, brute force %r" % (show(q), targets[0], want_t))
        elif (comps[i] >> want_t["high_bit"]) & 1 != 1 or any((c >> want_t["high_bit"]) & 1 for c in comps[:i]):
            problems.append("%s: token %d is not the first holding bit %d of %r"
                            % (show(q), i, want_t["high_bit"], comps))
    for m in steps_of(a, "node_mex"):
        u = node_key(m["node"])
        opts = [o["grundy"] for o in m["options"]]
        if [value(node_key(o["node"])) for o in m["options"]] != opts or m["grundy"] != value(u):
            problems.append("%s: node_mex %r, brute values differ" % (show(q), m))
        if m["listed"] == "all" and (brute.mex(opts) != m["mex"] or len(opts) != len(succ[u])):
            problems.append("%s: mex over the listed options is %d, step says %r" % (show(q), brute.mex(opts), m))
        if m["mex"] != m["grundy"] or u != node_key(brute.node_json(tokens[m["component"]])):
            problems.append("%s: node_mex %r" % (show(q), m))
    return problems


def check_tokens_loopy(q, a):
    succ, tokens = brute.token_board(q)
    problems = []
    for lt in steps_of(a, "loopy_tokens"):
        for t in lt["tokens"]:
            if "outcome" not in t:
                continue
            alone = dict(q, tokens=[t["node"]])
            want = {"first": "win", "second": "loss", "draw": "draw"}[winner(alone)]
            if t["outcome"] != want or (t["remoteness"] is None) != (want == "draw"):
                problems.append("%s: token %r alone is a %s" % (show(q), t, want))
    return problems


def check_score(q, a):
    problems = []
    (mv,) = steps_of(a, "move_values")
    nexts = brute.legal_next(q)
    want = [move_value(q, n) for n in nexts]
    got = [m["value"] for m in mv["moves"]]
    if got != want or mv["legal"] != len(nexts) or not mv["complete"]:
        problems.append("%s: move values %r, brute force %r" % (show(q), got, want))
    for m, n in zip(mv["moves"], nexts):
        if {k: move_next(q, m["move"])[k] for k in n} != n:
            problems.append("%s: move %r is not the move to %s" % (show(q), m["move"], show(n)))
    if mv["best"] != score_value(q):
        problems.append("%s: best %r, value %r" % (show(q), mv["best"], score_value(q)))
    (pv,) = steps_of(a, "principal_variation")
    pos = dict(q)
    for ply in pv["plies"]:
        nxt = move_next(pos, ply["move"])
        if ply["value"] != score_value(pos) or move_value(pos, nxt) != ply["value"]:
            problems.append("%s: ply %r is not optimal from %s" % (show(q), ply, show(pos)))
            break
        pos = brute.merge(pos, nxt)
    if pv["complete"] and brute.legal_next(pos):
        problems.append("%s: the line is complete but %s has moves" % (show(q), show(pos)))
    return problems


def strange_values(k, upto):
    g = []
    for x in range(upto + 1):
        g.append(brute.mex(g[x - t] for t in range(1, x // k + 1)))
    return g


def check_strange(q, a):
    """Each pile's walk x -> x - floor(x/k) - 1 keeps g (by brute force) and
    ends where k divides x, at g = x / k."""
    problems = []
    formulas = steps_of(a, "strange_formula")
    if len(formulas) != min(len(q["piles"]), 8):
        return ["%s: %d strange_formula steps" % (show(q), len(formulas))]
    for f, (x, k) in zip(formulas, q["piles"]):
        g = strange_values(k, x)
        walk = f["walk"]
        ok = walk[0] == x and all(b == a_ - a_ // k - 1 for a_, b in zip(walk, walk[1:]))
        ok = ok and all(g[w] == g[x] for w in walk)
        if f["walk_complete"]:
            ok = ok and f["ends_at"] == walk[-1] and walk[-1] % k == 0 and f["grundy"] == g[x] == walk[-1] // k
        if not ok:
            problems.append("%s: strange_formula %r, brute force g = %d" % (show(q), f, g[x]))
    return problems


def check_strange_all(rng):
    problems = []
    for _ in range(150):
        q = {"game": "strange_nim", "piles": [[rng.randint(0, 60), rng.randint(1, 6)]
                                              for _ in range(rng.randint(1, 3))]}
        problems += check_strange(q, ask(q))
    return problems


def check_wythoff_large(rng):
    """Past 1000 legal moves the winning hook counts exactly: every move to a
    losing pair, by brute force over all moves."""
    problems = []
    for _ in range(6):
        q = {"game": "wythoff", "piles": [rng.randint(600, 3000), rng.randint(600, 3000)]}
        x, y = q["piles"]
        want = [n for n in brute.legal_next(q) if brute.wythoff_is_p(*n["piles"])]
        a = ask(q)
        problems += winning_as(q, a, want, named_nexts(q, a))
    for n, lim in ((3000, 2999), (2584 + 987 + 13 + 3, 500), (2584 + 89 + 8 + 1, 2000)):
        q = {"game": "fibonacci", "n": n, "limit": lim}
        want = [m for m in brute.legal_next(q) if m["n"] == 0 or brute.zeckendorf(m["n"])[-1] > m["limit"]]
        a = ask(q)
        problems += winning_as(q, a, want, named_nexts(q, a))
    q = {"game": "wythoff", "piles": [10**18, 3 * 10**17]}
    a = ask(q)
    w = a["winning_moves"]
    named, nexts, more = named_nexts(q, a, wythoff_apply)
    problems += more
    if w["total"] is None or w["total"] < 1 or len(named) != min(w["total"], CAP) \
            or not all(n and brute.wythoff_is_p(*n["piles"]) for n in nexts):
        problems.append("%s: winning_moves %r with the move %r: leaves %r" % (show(q), w, a["move"], nexts))
    return problems


def wythoff_apply(q, m):
    """The position after a Wythoff move {take: [a, b]} (a legal one: from
    one pile, or the same from both), else None."""
    (x, y), t = q["piles"], m.get("take")
    if not (isinstance(t, list) and len(t) == 2 and 0 <= t[0] <= x and 0 <= t[1] <= y and t != [0, 0]
            and (0 in t or t[0] == t[1])):
        return None
    return {"piles": [x - t[0], y - t[1]]}


def winning_as(q, a, want, named):
    """The named moves (the answer's, then the others) lead to exactly the
    positions `want` (canonical order), the answer's one of them and the
    others the rest, up to CAP - 1; the total is len(want)."""
    moves, nexts, problems = named
    w = a["winning_moves"]
    own = nexts[0] if moves and moves[0] is a.get("move") else None
    if w["total"] != len(want) or (own is not None and own not in want) or (want and own is None) \
            or nexts[1 if own is not None else 0:] != besides(want, own)[:CAP - 1]:
        problems.append("%s: winning_moves %r, the move %r to %r, brute force %r"
                        % (show(q), w, a.get("move"), own, want[:CAP]))
    return problems


def check_graph_large(rng):
    """Past 1000 legal moves the graph's winning hook counts exactly: every
    move after which the tokens' nim-sum (values by brute force) is 0."""
    problems = []
    for trial in range(4):
        n = 1600
        edges = [[0, v] for v in range(1, n)]
        edges += [[u, v] for u in range(1, n) for v in rng.sample(range(u + 1, n + 3), 3) if v < n]
        q = {"game": "graph", "nodes": n, "edges": edges, "tokens": [0, rng.randrange(1, n), 0][:2 + trial % 2]}
        values = brute.graph_grundy([tuple(e) for e in edges], n)
        x = 0
        for t in q["tokens"]:
            x ^= values[t]
        want = []
        for i, t in enumerate(q["tokens"]):
            for u, v in edges:
                if u == t and x ^ values[t] ^ values[v] == 0:
                    want.append({"tokens": q["tokens"][:i] + [v] + q["tokens"][i + 1:]})
        a = ask(q)
        w = a["winning_moves"]
        if winning_as(q, a, want, named_nexts(q, a)):
            problems.append("graph of %d edges, tokens %r: winning_moves total %r (%r), %d others, the move %r;"
                            " brute force %d" % (len(edges), q["tokens"], w["total"], w.get("note"),
                                                  len(w.get("others") or []), a.get("move"), len(want)))
        problems += check_text(q, a)
    return problems


FACTS = {"wythoff": check_wythoff, "fibonacci": check_fibonacci, "divisor": check_divisor}


def check_one(q):
    a = ask(q)
    problems = check_text(q, a) + check_winning(q, a)
    g = q["game"]
    if g in FACTS:
        problems += FACTS[g](q, a)
    elif g in ("graph", "grid"):
        problems += check_tokens_dag(q, a) if steps_of(a, "nim_sum") else check_tokens_loopy(q, a)
    else:
        problems += check_score(q, a)
    return problems


def check_all(queries, least_draws=0):
    problems = []
    draws = 0
    for q in queries:
        problems += check_one(q)
        draws += q["game"] == "graph" and winner(q) == "draw"
        if len(problems) > 10:
            break
    if draws < least_draws:
        problems.append("only %d drawn positions among the random graphs" % draws)
    return problems


# ---- positions ---------------------------------------------------------------

def impartial_positions():
    qs = [{"game": "wythoff", "piles": [x, y]} for x in range(14) for y in range(14)]
    qs += [{"game": "fibonacci", "n": n, "limit": lim} for n in range(0, 60) for lim in range(0, n + 2)]
    qs += [{"game": "divisor", "n": n} for n in range(1, 70)]
    return qs


def random_graph(rng, nodes, acyclic):
    edges = []
    for _ in range(rng.randint(0, nodes * 2)):
        u, v = rng.randrange(nodes), rng.randrange(nodes)
        if acyclic and u >= v:
            continue
        edges.append([u, v])
    tokens = [rng.randrange(nodes) for _ in range(rng.randint(1, 3))]
    return {"game": "graph", "nodes": nodes, "edges": edges, "tokens": tokens}


def token_positions(rng):
    qs = [random_graph(rng, rng.randint(2, 7), True) for _ in range(120)]
    qs += [random_graph(rng, rng.randint(2, 5), False) for _ in range(80)]
    for _ in range(40):
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        tokens = [[rng.randrange(rows), rng.randrange(cols)] for _ in range(rng.randint(1, 2))]
        qs.append({"game": "grid", "rows": rows, "cols": cols, "steps": [[0, 1], [1, 0], [1, 1]],
                   "tokens": tokens})
    return qs


def score_positions(rng):
    boards = sorted(brute.mnk_reachable(3, 3, 3))
    qs = [{"game": "tictactoe", "board": b} for b in rng.sample(boards, 120)]
    boards = sorted(brute.mnk_reachable(2, 4, 3))
    qs += [{"game": "mnk", "rows": 2, "cols": 4, "k": 3, "board": b} for b in rng.sample(boards, 40)]
    for _ in range(80):
        m = rng.randint(1, 5)
        used = rng.sample(range(1, m + 1), rng.randint(0, m))
        qs.append({"game": "can_i_win", "max_choosable": m, "desired_total": rng.randint(0, 16), "used": used})
    for n in range(0, 7):
        for _ in range(12):
            qs.append({"game": "stone_row", "stones": [rng.randint(0, 6) for _ in range(n)]})
            qs.append({"game": "stone_prefix", "stones": [rng.randint(0, 6) for _ in range(n)],
                       "m": rng.randint(1, 3)})
            qs.append({"game": "stone_front3", "stones": [rng.randint(-5, 6) for _ in range(n)]})
    return qs


def examples():
    r = CLIENT.request("GET", "/v1/games")
    games = r.json["games"] if isinstance(r.json, dict) else r.json
    mine = ("wythoff", "fibonacci", "divisor", "graph", "grid", "tictactoe", "mnk", "can_i_win") + SCORING
    return [g["example"] for g in games if g["name"] in mine]


def check_examples():
    qs = examples()
    if len(qs) != 11:
        return ["expected 11 catalogue examples, got %d" % len(qs)]
    return check_all(qs)


def main():
    global CLIENT
    grundyd = sys.argv[1]

    def body():
        d = Daemon(grundyd, "--threads", "1")
        CLIENT = Client(d.port, timeout=60)
        globals()["CLIENT"] = CLIENT
        rng = random.Random(15)
        TAP.run("every catalogue example: steps hold facts, winning moves and facts by brute force",
                check_examples)
        TAP.run("wythoff, fibonacci, divisor: pairs, Zeckendorf terms, parity, winning sets replayed",
                check_all, impartial_positions())
        TAP.run("graph and grid: nim-sum, mex over the options, loopy outcomes, winning sets replayed",
                check_all, token_positions(rng), 5)
        TAP.run("wythoff and fibonacci past 1000 legal moves: the exact winning sets by the hooks", check_wythoff_large, rng)
        TAP.run("graph past 1000 legal moves: the exact winning set by the hook", check_graph_large, rng)
        TAP.run("strange_nim: the walk of the formula keeps g and ends at x / k", check_strange_all, rng)
        TAP.run("score games: every move's value, the principal variation, optimal/winning sets",
                check_all, score_positions(rng))
        CLIENT.close()

    return run_main(TAP, "test_why_games.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
