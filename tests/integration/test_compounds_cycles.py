#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compounds, loopy graphs, misere single components, grid, coins and strange
nim through `grundy query -`, against brute force written here from the rules
alone. Usage: test_compounds_cycles.py path/to/grundy. Prints TAP.

Every answer is checked against a memoised search (acyclic games) or a
retrograde win/loss/draw analysis (graphs with cycles) of the game itself:
the compound of the components with the compound's own move rule, misere
play with "the player who cannot move wins", a coin row as a bitmask. Every
winning move the service gives is checked for legality by the rules, the
position after it is checked to be a loss by the brute force, and (where the
service answers that position) it is sent back as {...query, ...next} and
must come back "second". Drawn positions must be drawn by brute force, and
a move offered from a draw must keep it drawn. On graphs with cycles the
service's strategy is explored against every opponent reply and must win
without cycling.

Sizes are small (heaps <= 12, graphs <= 7 nodes, coin rows <= 12) except
where only legality and the service's own replay are checked (coins and
strange nim up to 10^18). Random choices are seeded: the run is
deterministic."""

import itertools
import json
import os
import random
import subprocess
import sys
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brute import retro  # noqa: E402
from harness import Tap, run_main  # noqa: E402

sys.setrecursionlimit(20000)

GRUNDY = None
TAP = Tap()
NOTES = []          # facts a test reports after its result line
COUNT = {"queries": 0, "replayed": 0}
CALL_TIMEOUT = 45
ITEM_LIMIT = 100000  # the CLI's limit on piles, tokens, heads
COMPOUNDS = ("disjunctive", "selective", "selective_proper", "conjunctive")


# ---------------------------------------------------------------------------
# talking to the CLI


def ask(queries):
    """One `grundy query -` run over every query; the answers in order."""
    if not queries:
        return []
    COUNT["queries"] += len(queries)
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([GRUNDY, "query", "-"], input=text.encode(), capture_output=True,
                         timeout=CALL_TIMEOUT)
    lines = out.stdout.decode("utf-8", "replace").splitlines()
    if len(lines) != len(queries):
        raise RuntimeError("%d queries but %d answer lines (exit %d); stderr: %r; first query: %s"
                           % (len(queries), len(lines), out.returncode, out.stderr[:500],
                              json.dumps(queries[0])))
    return [json.loads(line) for line in lines]


def short(a, limit=700):
    """An answer for a diagnostic, explanation dropped, truncated."""
    if isinstance(a, dict) and "explanation" in a:
        a = {k: v for k, v in a.items() if k != "explanation"}
    s = json.dumps(a)
    return s if len(s) <= limit else s[:limit] + "...(%d chars)" % len(s)


def show(q, a, why):
    return "%s\n  query:  %s\n  answer: %s" % (why, json.dumps(q), short(a))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def expect_error(q, a, code=None, field=None):
    """None if `a` is an error with that code and field, else a problem."""
    e = a.get("error") if isinstance(a, dict) else None
    if not isinstance(e, dict):
        return show(q, a, "want an error (code %s, field %s)" % (code, field))
    if code is not None and e.get("code") != code:
        return show(q, a, "want error code %r" % code)
    if field is not None and e.get("field") != field:
        return show(q, a, "want error field %r" % field)
    return None


def basic_shape(q, a, game, problems, convention="normal", terminal_win=False):
    """The common keys; False (with a problem) if the answer is unusable.
    terminal_win: a won position may have no move (misere, nothing to move)."""
    if not isinstance(a, dict) or "error" in a:
        problems.append(show(q, a, "want an answer, got an error"))
        return False
    missing = [k for k in ("game", "convention", "winner", "grundy", "components", "move", "next",
                           "explanation") if k not in a]
    if missing:
        problems.append(show(q, a, "keys missing: %s" % missing))
        return False
    if a["game"] != game or a["convention"] != convention:
        problems.append(show(q, a, "want game %r, convention %r" % (game, convention)))
        return False
    compound = q.get("compound", "disjunctive")
    if compound != "disjunctive" and a.get("compound") != compound:
        problems.append(show(q, a, "the compound %r is not echoed" % compound))
    if compound == "disjunctive" and a.get("compound") not in (None, "disjunctive"):
        problems.append(show(q, a, "a disjunctive query echoes compound %r" % a.get("compound")))
    if a["winner"] not in ("first", "second", "draw"):
        problems.append(show(q, a, "bad winner"))
        return False
    if a["winner"] != "first" and a["winner"] != "draw" and (a["move"] is not None or a["next"] is not None):
        problems.append(show(q, a, "a lost position has a move or next"))
    if a["winner"] == "first" and not terminal_win and (not isinstance(a["move"], dict)
                                                        or not isinstance(a["next"], dict)):
        problems.append(show(q, a, "a won position without move and next"))
        return False
    return True


# ---------------------------------------------------------------------------
# brute force: generic


def mex(values):
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


class Acyclic:
    """Win/loss of an acyclic game by memoised search. succ(state) yields
    canonical successor states; misere: a player with no move wins."""

    def __init__(self, succ, misere=False):
        self.succ = succ
        self.misere = misere
        self.memo = {}

    def win(self, s):
        r = self.memo.get(s)
        if r is None:
            r = None
            any_move = False
            for t in self.succ(s):
                any_move = True
                if not self.win(t):
                    r = True
                    break
            if r is None:
                r = self.misere if not any_move else False
            self.memo[s] = r
        return r

WINNER = {"W": "first", "L": "second", "D": "draw"}


def compound_succ(state, opts, compound):
    """Successors of a tuple of components under a compound rule (not
    canonicalised). opts(c) -> tuple of the component's options."""
    n = len(state)
    choices = [opts(c) for c in state]
    if compound == "disjunctive":
        for i in range(n):
            for o in choices[i]:
                yield state[:i] + (o,) + state[i + 1:]
    elif compound == "conjunctive":
        if n and all(choices):
            for combo in itertools.product(*choices):
                yield tuple(combo)
    else:
        stay = object()
        for combo in itertools.product(*[(stay,) + tuple(ch) for ch in choices]):
            k = sum(1 for c in combo if c is not stay)
            if k == 0 or (compound == "selective_proper" and k == n):
                continue
            yield tuple(state[i] if combo[i] is stay else combo[i] for i in range(n))


def canon_succ(opts, compound):
    def succ(state):
        seen = set()
        for t in compound_succ(state, opts, compound):
            t = tuple(sorted(t))
            if t not in seen:
                seen.add(t)
                yield t
    return succ


def remoteness_fn(opts):
    """Steinhaus remoteness of one component under normal play (acyclic)."""
    memo = {}

    def rem(c):
        if c not in memo:
            rs = [rem(o) for o in opts(c)]
            if not rs:
                memo[c] = 0
            else:
                even = [r for r in rs if r % 2 == 0]
                memo[c] = 1 + (min(even) if even else max(rs))
        return memo[c]
    return rem


def grundy_fn(opts):
    memo = {}

    def g(c):
        if c not in memo:
            memo[c] = mex(g(o) for o in opts(c))
        return memo[c]
    return g


def memo_opts(fn):
    memo = {}

    def opts(c):
        r = memo.get(c)
        if r is None:
            r = memo[c] = tuple(fn(c))
        return r
    return opts


# ---------------------------------------------------------------------------
# brute force: heap rules


def subtraction_set(moves, n):
    if isinstance(moves, dict):
        rule = moves["rule"]
        out = []
        s = 1
        while s <= n:
            if rule == "squares":
                r = int(s ** 0.5)
                while r * r > s:
                    r -= 1
                while (r + 1) * (r + 1) <= s:
                    r += 1
                if r * r == s:
                    out.append(s)
            elif rule == "powers_of_two":
                if s & (s - 1) == 0:
                    out.append(s)
            s += 1
        return out
    return [s for s in moves if 1 <= s <= n]


def parse_octal(code):
    head, _, tail = code.partition(".")
    return [int(head or "0")] + [int(ch) for ch in tail]


def octal_heap_moves(n, digits):
    """Every (take, parts) one heap of n allows under the octal digits: parts
    is () (heap gone), (m,) or (a, b) with a <= b, all non-empty."""
    out = set()
    for k, d in enumerate(digits):
        if k > n:
            break
        if k >= 1 and d & 1 and n == k:
            out.add((k, ()))
        if k >= 1 and d & 2 and n > k:
            out.add((k, (n - k,)))
        if d & 4 and n - k >= 2:
            for a in range(1, (n - k) // 2 + 1):
                out.add((k, (a, n - k - a)))
    return out


def grundys_heap_moves(n):
    return {(0, (a, n - a)) for a in range(1, (n + 1) // 2) if a != n - a}


def multiset_opts(heap_moves):
    """Options of a multiset of heaps (sorted tuple): replace one heap by
    the parts one of its moves leaves."""
    def fn(ms):
        out = set()
        for i, h in enumerate(ms):
            if i and ms[i - 1] == h:
                continue
            for _, parts in heap_moves(h):
                out.add(tuple(sorted(ms[:i] + ms[i + 1:] + parts)))
        return out
    return memo_opts(fn)


# ---------------------------------------------------------------------------
# 1. compounds of heap games whose moves never split (replayed)


class HeapSpec:
    """One heap game: how its piles are written and what one pile allows.
    comp(item) / item(comp) convert between a JSON pile and a component."""

    def __init__(self, name, base, opts, comp=lambda v: v, item=lambda c: c, take_ok=None):
        self.name = name
        self.base = base
        self.opts = memo_opts(opts)
        self.comp = comp
        self.item = item
        self.take_ok = take_ok
        self.solvers = {}
        self.rem = remoteness_fn(self.opts)
        self.g = grundy_fn(self.opts)

    def query(self, comps, compound):
        q = dict(self.base, piles=[self.item(c) for c in comps])
        if compound is not None:
            q["compound"] = compound
        return q

    def solver(self, compound):
        if compound not in self.solvers:
            self.solvers[compound] = Acyclic(canon_succ(self.opts, compound))
        return self.solvers[compound]

    def win(self, comps, compound):
        return self.solver(compound).win(tuple(sorted(comps)))


def nim_spec():
    return HeapSpec("nim", {"game": "nim"}, lambda n: range(n))


def subtraction_spec(moves):
    return HeapSpec("subtraction %s" % json.dumps(moves), {"game": "subtraction", "moves": moves},
                    lambda n: [n - s for s in subtraction_set(moves, n)])


def strange_spec():
    return HeapSpec("strange_nim", {"game": "strange_nim"},
                    lambda c: [(c[0] - t, c[1]) for t in range(1, c[0] // c[1] + 1)],
                    comp=lambda v: (v[0], v[1]), item=lambda c: [c[0], c[1]])


def check_heap_answer(spec, q, a, compound, problems, replays):
    """A heap-game answer against the compound brute force; the winning move
    checked and queued for replay."""
    comps = [spec.comp(v) for v in q["piles"]]
    want = spec.win(comps, compound)
    if not basic_shape(q, a, spec.base["game"], problems):
        return
    if a["winner"] != ("first" if want else "second"):
        problems.append(show(q, a, "brute force: %s" % ("first" if want else "second")))
        return
    if compound == "disjunctive":
        g = grundy_fn_whole(spec, comps)
        if a["grundy"] != g:
            problems.append(show(q, a, "brute force grundy (mex over the whole position) %d" % g))
    elif a["grundy"] is not None:
        problems.append(show(q, a, "grundy must be null for a %s compound" % compound))
    comp_list = a["components"]
    if not isinstance(comp_list, list) or len(comp_list) != len(comps):
        problems.append(show(q, a, "want %d components" % len(comps)))
    elif compound == "conjunctive":
        for i, (c, ac) in enumerate(zip(comps, comp_list)):
            if not isinstance(ac, dict) or ac.get("remoteness") != spec.rem(c):
                problems.append(show(q, a, "component %d: brute-force remoteness %d" % (i, spec.rem(c))))
                break
    if not want:
        return
    move = a["move"]
    entries = [move] if compound == "disjunctive" else move.get("moves")
    if not isinstance(entries, list) or not entries:
        problems.append(show(q, a, "no move entries"))
        return
    new = list(comps)
    moved = set()
    for e in entries:
        i = e.get("pile") if isinstance(e, dict) else None
        if not is_int(i) or not 0 <= i < len(comps) or i in moved:
            problems.append(show(q, a, "bad or repeated pile in %s" % json.dumps(e)))
            return
        moved.add(i)
        c = comps[i]
        size = c[0] if isinstance(c, tuple) else c
        take, frm, to = e.get("take"), e.get("from"), e.get("to")
        if frm != size or not is_int(take) or not is_int(to) or to != size - take or "split" in e:
            problems.append(show(q, a, "move entry %s does not fit pile %d = %s" % (json.dumps(e), i, size)))
            return
        nc = (to, c[1]) if isinstance(c, tuple) else to
        if nc not in spec.opts(c):
            problems.append(show(q, a, "illegal: pile %d cannot go from %s to %s" % (i, size, to)))
            return
        new[i] = nc
    n = len(comps)
    if compound == "disjunctive" and len(moved) != 1 \
            or compound == "selective_proper" and len(moved) == n \
            or compound == "conjunctive" and len(moved) != n:
        problems.append(show(q, a, "the %s compound does not allow moving piles %s" % (compound, sorted(moved))))
        return
    if a["next"] != {"piles": [spec.item(c) for c in new]}:
        problems.append(show(q, a, "next should be %s" % json.dumps({"piles": [spec.item(c) for c in new]})))
        return
    if spec.win(new, compound):
        problems.append(show(q, a, "brute force: the position after the move is a win for the opponent"))
        return
    replays.append(({**q, **a["next"]}, q))


_WHOLE = {}


def grundy_fn_whole(spec, comps):
    """Grundy value of a disjunctive position by mex over the whole tuple."""
    memo = _WHOLE.setdefault(spec.name, {})
    succ = canon_succ(spec.opts, "disjunctive")

    def g(s):
        if s not in memo:
            memo[s] = mex(g(t) for t in succ(s))
        return memo[s]
    return g(tuple(sorted(comps)))


def check_replays(replays, problems, want="second"):
    if not replays:
        return
    answers = ask([r[0] for r in replays])
    COUNT["replayed"] += len(replays)
    for (rq, q), ra in zip(replays, answers):
        if not isinstance(ra, dict) or ra.get("winner") != want:
            problems.append("replaying the move of %s\n  sent:   %s\n  answer: %s"
                            % (json.dumps(q), json.dumps(rq), short(ra)))


def random_heap_position(rng, spec_name):
    n = rng.choice((1, 2, 2, 3, 3))
    top = {1: 12, 2: 12, 3: 8}[n]
    if spec_name == "strange_nim":
        return [(rng.randint(0, top), rng.randint(1, 3)) for _ in range(n)]
    return [rng.randint(0, top) for _ in range(n)]


def t_heap_compounds(rng):
    problems = []
    specs = [nim_spec(), subtraction_spec([1, 3, 4]), subtraction_spec([2, 5]),
             subtraction_spec({"rule": "squares"}), strange_spec()]
    queries = []
    for spec in specs:
        for compound in COMPOUNDS:
            for _ in range(90):
                comps = random_heap_position(rng, spec.name)
                queries.append((spec, compound, spec.query(comps, compound)))
        # the default compound is disjunctive
        for _ in range(10):
            comps = random_heap_position(rng, spec.name)
            queries.append((spec, "disjunctive", spec.query(comps, None)))
    answers = ask([q for _, _, q in queries])
    replays = []
    seen = set()
    for (spec, compound, q), a in zip(queries, answers):
        check_heap_answer(spec, q, a, compound, problems, replays)
        if isinstance(a, dict) and "winner" in a:
            seen.add((compound, a["winner"]))
    check_replays(replays, problems)
    for c in COMPOUNDS:
        for w in ("first", "second"):
            if (c, w) not in seen:
                problems.append("coverage: no %s position answered %s" % (c, w))
    NOTES.append("heap compounds: %d queries, %d winning moves replayed" % (len(queries), len(replays)))
    return problems


# ---------------------------------------------------------------------------
# 1b. compounds of octal games and Grundy's game (winner; moves by brute force)


def t_split_compounds(rng):
    problems = []
    games = [("octal 0.77", {"game": "octal", "code": "0.77"},
              lambda n: octal_heap_moves(n, parse_octal("0.77"))),
             ("octal 0.07", {"game": "octal", "code": "0.07"},
              lambda n: octal_heap_moves(n, parse_octal("0.07"))),
             ("octal 0.137", {"game": "octal", "code": "0.137"},
              lambda n: octal_heap_moves(n, parse_octal("0.137"))),
             ("octal 0.6", {"game": "octal", "code": "0.6"},
              lambda n: octal_heap_moves(n, parse_octal("0.6"))),
             ("octal 0.33", {"game": "octal", "code": "0.33"},
              lambda n: octal_heap_moves(n, parse_octal("0.33"))),
             ("octal 0.123", {"game": "octal", "code": "0.123"},
              lambda n: octal_heap_moves(n, parse_octal("0.123"))),
             ("grundys_game", {"game": "grundys_game"}, grundys_heap_moves)]
    # Where a move may split a heap, the compounds other than the
    # disjunctive sum are refused: the parts would stay one component, which
    # "piles" cannot write.
    splits = {"0.77", "0.07", "0.137", "0.6", None}
    queries = []
    for name, base, heap_moves in games:
        hm = memo_opts(heap_moves)
        opts = multiset_opts(hm)
        solvers = {c: Acyclic(canon_succ(opts, c)) for c in COMPOUNDS}
        rem = remoteness_fn(opts)
        for compound in COMPOUNDS:
            for _ in range(40):
                n = rng.choice((1, 2, 2, 3))
                top = {1: 12, 2: 12, 3: 8}[n]
                lo = 1 if base["game"] == "octal" else 0
                piles = [rng.randint(lo, top) for _ in range(n)]
                q = dict(base, piles=piles, compound=compound)
                if base["game"] == "grundys_game" and compound == "disjunctive":
                    del q["compound"]  # it answers one compound and takes no member for it
                queries.append((hm, solvers[compound], rem, compound, q))
    answers = ask([x[-1] for x in queries])
    refusals, totals = {}, {}
    for (hm, solver, rem, compound, q), a in zip(queries, answers):
        tkey = (q["game"] + (" " + q["code"] if "code" in q else ""), compound)
        totals[tkey] = totals.get(tkey, 0) + 1
        comps = [(p,) if p else () for p in q["piles"]]
        want = solver.win(tuple(sorted(comps)))
        refused = isinstance(a, dict) and isinstance(a.get("error"), dict)
        if q.get("code") in splits and compound != "disjunctive":
            # Grundy's game answers one compound only, so it takes no "compound" member.
            code = "inapplicable_field" if q["game"] == "grundys_game" else "unsupported_compound"
            if not refused or a["error"].get("code") != code \
                    or a["error"].get("field") != "compound":
                problems.append(show(q, a, "a game whose moves split a heap must refuse the %s "
                                     "compound with %s" % (compound, code)))
            continue
        if refused:
            key = (q["game"] + (" " + q["code"] if "code" in q else ""), compound, a["error"].get("code"))
            refusals.setdefault(key, []).append((q, a))
            continue
        if not basic_shape(q, a, q["game"], problems):
            continue
        if a["winner"] != ("first" if want else "second"):
            problems.append(show(q, a, "brute force (each component the multiset grown from one pile): %s"
                                 % ("first" if want else "second")))
            continue
        if compound != "disjunctive" and a["grundy"] is not None:
            problems.append(show(q, a, "grundy must be null for a %s compound" % compound))
        if compound == "conjunctive":
            rems = [rem(c) for c in comps]
            got = [c.get("remoteness") if isinstance(c, dict) else None for c in a["components"] or []]
            if got != rems:
                problems.append(show(q, a, "brute-force remoteness %s" % rems))
        if not want:
            continue
        # the move, by the rules, and the compound after it by brute force
        entries = [a["move"]] if compound == "disjunctive" else a["move"].get("moves")
        if not isinstance(entries, list) or not entries:
            problems.append(show(q, a, "no move entries"))
            continue
        new = list(comps)
        by_pile = {}
        bad = None
        for e in entries:
            i = e.get("pile") if isinstance(e, dict) else None
            if not is_int(i) or not 0 <= i < len(comps) or i in by_pile:
                bad = "bad or repeated pile in %s" % json.dumps(e)
                break
            p = q["piles"][i]
            take = e.get("take")
            if e.get("from") != p or not is_int(take):
                bad = "entry %s does not fit pile %d = %d" % (json.dumps(e), i, p)
                break
            if "split" in e:
                sp = e["split"]
                if not (isinstance(sp, list) and len(sp) == 2 and all(is_int(x) for x in sp)):
                    bad = "bad split in %s" % json.dumps(e)
                    break
                parts = tuple(sorted(sp))
            elif is_int(e.get("to")) and e["to"] == p - take:
                parts = (e["to"],) if e["to"] else ()
            else:
                bad = "entry %s: no to or split" % json.dumps(e)
                break
            if (take, parts) not in hm(p):
                bad = "illegal: %s from pile %d = %d" % (json.dumps(e), i, p)
                break
            by_pile[i] = e
            new[i] = parts
        if bad:
            problems.append(show(q, a, bad))
            continue
        n = len(comps)
        k = len(by_pile)
        if compound == "disjunctive" and k != 1 or compound == "selective_proper" and k == n \
                or compound == "conjunctive" and k != n:
            problems.append(show(q, a, "the %s compound does not allow moving piles %s"
                                 % (compound, sorted(by_pile))))
            continue
        want_next = []
        for i, p in enumerate(q["piles"]):
            e = by_pile.get(i)
            want_next += [p] if e is None else list(e["split"]) if "split" in e else [e["to"]]
        if a["next"] != {"piles": want_next}:
            problems.append(show(q, a, "next should be %s" % json.dumps({"piles": want_next})))
        if solver.win(tuple(sorted(new))):
            problems.append(show(q, a, "brute force: the compound after the move is a win for the opponent"))
    for (game, compound, code), lst in sorted(refusals.items()):
        q, a = lst[0]
        problems.append(show(q, a, "%s, compound %s: %d of %d queries refused with %s, e.g."
                             % (game, compound, len(lst), totals[(game, compound)], code)))
    return problems


# ---------------------------------------------------------------------------
# graphs


def random_dag(rng, n):
    perm = list(range(n))
    rng.shuffle(perm)
    p = rng.choice((0.3, 0.45, 0.6))
    return [[perm[u], perm[v]] for u in range(n) for v in range(u + 1, n) if rng.random() < p]


def random_cyclic(rng, n):
    while True:
        p = rng.choice((0.2, 0.3, 0.4))
        edges = [[u, v] for u in range(n) for v in range(n) if rng.random() < p * (0.5 if u == v else 1)]
        if has_cycle(n, adjacency(n, edges)):
            return edges


def adjacency(n, edges):
    adj = {u: [] for u in range(n)}
    for u, v in edges:
        if v not in adj[u]:
            adj[u].append(v)
    return {u: tuple(vs) for u, vs in adj.items()}


def has_cycle(nodes, adj):
    """nodes: a count (ids 0..n-1) or an iterable of node ids."""
    ids = list(range(nodes)) if isinstance(nodes, int) else list(nodes)
    color = {u: 0 for u in ids}

    def dfs(u):
        color[u] = 1
        for v in adj[u]:
            if color[v] == 1 or (color[v] == 0 and dfs(v)):
                return True
        color[u] = 2
        return False
    return any(color[u] == 0 and dfs(u) for u in ids)


class TokenBoard:
    """A graph or grid: node ids, adjacency, and how nodes are written."""

    def __init__(self, adj, to_json=lambda v: v, from_json=lambda v: v):
        self.adj = adj
        self.to_json = to_json
        self.from_json = from_json
        self.cyclic = has_cycle(adj.keys(), adj)
        self._solved = {}

    def opts(self, u):
        return self.adj[u]

    def outcome(self, tokens, compound="disjunctive", misere=False):
        """'W' / 'L' / 'D' of a token position (any order) by retrograde
        analysis of the whole compound."""
        key = (compound, misere)
        if key not in self._solved:
            self._solved[key] = ({}, canon_succ(self.opts, compound))
        res, succ = self._solved[key]
        s = tuple(sorted(tokens))
        if s not in res:
            r, _ = retro([s], succ, misere)
            res.update(r)
        return res[s]

    def single_rem(self, u):
        """(outcome, remoteness) of one token under normal play."""
        r, d = retro([(u,)], canon_succ(self.opts, "disjunctive"))
        return r[(u,)], d.get((u,))

    def grundy(self, u):
        if not hasattr(self, "_g"):
            self._g = grundy_fn(self.opts)
        return self._g(u)


def check_token_move(board, q, a, compound, problems, misere=False):
    """Checks the move and next of a token answer by the rules; returns the
    token tuple after it, or None (problem recorded)."""
    tokens = [board.from_json(t) for t in q["tokens"]]
    move = a["move"]
    if not isinstance(move, dict) or not isinstance(a["next"], dict):
        problems.append(show(q, a, "want a move and next"))
        return None
    entries = [move] if compound == "disjunctive" else move.get("moves")
    if not isinstance(entries, list) or not entries:
        problems.append(show(q, a, "no move entries"))
        return None
    new = list(tokens)
    moved = set()
    for e in entries:
        i = e.get("token") if isinstance(e, dict) else None
        if not is_int(i) or not 0 <= i < len(tokens) or i in moved:
            problems.append(show(q, a, "bad or repeated token in %s" % json.dumps(e)))
            return None
        moved.add(i)
        frm, to = e.get("from"), e.get("to")
        if frm != board.to_json(tokens[i]):
            problems.append(show(q, a, "entry %s: token %d is at %s" % (json.dumps(e), i, json.dumps(q["tokens"][i]))))
            return None
        try:
            to = board.from_json(to)
        except Exception:
            problems.append(show(q, a, "entry %s: bad to" % json.dumps(e)))
            return None
        if to not in board.adj.get(tokens[i], ()):
            problems.append(show(q, a, "illegal: no move from %s to %s" % (json.dumps(frm), json.dumps(e.get("to")))))
            return None
        new[i] = to
    n = len(tokens)
    if compound == "disjunctive" and len(moved) != 1 or compound == "selective_proper" and len(moved) == n \
            or compound == "conjunctive" and len(moved) != n:
        problems.append(show(q, a, "the %s compound does not allow moving tokens %s" % (compound, sorted(moved))))
        return None
    want_next = {"tokens": [board.to_json(t) for t in new]}
    if a["next"] != want_next:
        problems.append(show(q, a, "next should be %s" % json.dumps(want_next)))
        return None
    return new


def check_token_answer(board, q, a, compound, problems, replays, misere=False):
    """Winner against brute force; a winning move legal, to a loss, queued
    for replay; a move from a draw keeps the draw."""
    tokens = [board.from_json(t) for t in q["tokens"]]
    want = board.outcome(tokens, compound, misere)
    stuck = all(not board.adj[t] for t in tokens)
    if not basic_shape(q, a, q["game"], problems, "misere" if misere else "normal",
                       terminal_win=misere and stuck):
        return None
    if a["winner"] != WINNER[want]:
        problems.append(show(q, a, "brute force: %s" % WINNER[want]))
        return None
    if compound != "disjunctive" or misere:
        if a["grundy"] is not None:
            problems.append(show(q, a, "grundy must be null"))
    if want == "L" or (want == "D" and a["move"] is None and a["next"] is None):
        return want
    if want == "W" and misere and stuck:
        if a["move"] is not None or a["next"] is not None:
            problems.append(show(q, a, "no move is possible (the player to move wins by having none)"))
        return want
    new = check_token_move(board, q, a, compound, problems, misere)
    if new is None:
        return want
    after = board.outcome(new, compound, misere)
    if want == "W" and after != "L":
        problems.append(show(q, a, "brute force: the position after the move is %s for the opponent"
                             % WINNER[after].replace("first", "a win").replace("draw", "a draw")))
    elif want == "D" and after != "D":
        problems.append(show(q, a, "a move offered from a draw leads to %s (brute force)" % WINNER[after]))
    elif want == "W":
        replays.append(({**q, **a["next"]}, q))
    return want


def graph_query(n, edges, tokens, compound=None, with_nodes=True):
    q = {"game": "graph", "edges": edges, "tokens": list(tokens)}
    if with_nodes:
        q["nodes"] = n
    if compound is not None:
        q["compound"] = compound
    return q


def t_graph_compounds(rng):
    """Every compound on random acyclic graphs; conjunctive and disjunctive
    also on graphs with cycles; selective ones on cycles are refused."""
    problems = []
    items = []
    for _ in range(700):
        n = rng.randint(1, 7)
        compound = rng.choice(COMPOUNDS)
        cyclic = compound in ("conjunctive", "disjunctive") and rng.random() < 0.4 and n <= 6
        edges = random_cyclic(rng, n) if cyclic else random_dag(rng, n)
        tokens = [rng.randrange(n) for _ in range(rng.randint(1, 3))]
        board = TokenBoard(adjacency(n, edges))
        items.append((board, compound, graph_query(n, edges, tokens, compound)))
    answers = ask([q for _, _, q in items])
    replays = []
    seen = set()
    for (board, compound, q), a in zip(items, answers):
        r = check_token_answer(board, q, a, compound, problems, replays)
        if r:
            seen.add((compound, r))
        if r and compound == "disjunctive" and not board.cyclic:
            vals = [board.grundy(t) for t in q["tokens"]]
            x = 0
            for v in vals:
                x ^= v
            got = [c.get("grundy") if isinstance(c, dict) else None for c in a["components"] or []]
            if a["grundy"] != x or got != vals:
                problems.append(show(q, a, "brute force: token values %s, nim-sum %d" % (vals, x)))
        if r and compound == "conjunctive" and isinstance(a.get("components"), list):
            for i, (t, c) in enumerate(zip(q["tokens"], a["components"])):
                out, rem = board.single_rem(t)
                want = None if out == "D" else rem
                if not isinstance(c, dict) or "remoteness" not in c or c["remoteness"] != want:
                    problems.append(show(q, a, "component %d: brute-force remoteness %s" % (i, want)))
                    break
    check_replays(replays, problems)
    # selective compounds on a graph with a cycle are refused
    bad = []
    for _ in range(8):
        n = rng.randint(1, 6)
        edges = random_cyclic(rng, n)
        for c in ("selective", "selective_proper"):
            bad.append(graph_query(n, edges, [rng.randrange(n)], c))
    for q, a in zip(bad, ask(bad)):
        p = expect_error(q, a, "cycle")
        if p:
            problems.append(p)
    for c in COMPOUNDS:
        for w in "WL":
            if (c, w) not in seen:
                problems.append("coverage: no %s position with outcome %s was checked" % (c, w))
    if ("conjunctive", "D") not in seen:
        problems.append("coverage: no drawn conjunctive position was checked")
    NOTES.append("graph compounds: outcomes seen %s" % sorted(seen))
    return problems


# ---------------------------------------------------------------------------
# 2. graphs with cycles: outcomes, Smith values, no cycling


def loopy_value_problem(board, node, comp, nmax):
    """The component's value against the definition: g finite iff G + *n is
    a loss exactly for n = g; infinite(K) iff G + *n is never a loss and a
    win exactly for n in K. None if consistent, else a reason."""
    fo = comp.get("finite_options") if isinstance(comp, dict) else None
    top = max([nmax + 1] + ([x + 1 for x in fo if is_int(x)] if isinstance(fo, list) else []))

    def succ(s):
        u, h = s
        for v in board.adj[u]:
            yield (v, h)
        for k in range(h):
            yield (u, k)
    res, _ = retro([(node, h) for h in range(top + 1)], succ)
    out = [res[(node, h)] for h in range(top + 1)]
    losses = [h for h, r in enumerate(out) if r == "L"]
    wins = [h for h, r in enumerate(out) if r == "W"]
    if not isinstance(comp, dict):
        return "no component"
    if losses:
        if comp.get("grundy") != losses[0] or comp.get("infinite"):
            return "node %s + a nim heap of n is a loss exactly for n = %d, so its value is %d" \
                   % (node, losses[0], losses[0])
        return None
    if comp.get("grundy") is not None or comp.get("infinite") is not True:
        return "node %s + a nim heap is never a loss (n <= %d), so its value is infinite" % (node, top)
    if comp.get("finite_options_total") is None and sorted(fo or []) != wins:
        return "node %s is infinite with K = %s (G + *n a win exactly for those n)" % (node, wins)
    return None


def t_loopy(rng):
    problems = []
    items = []
    for _ in range(800):
        n = rng.randint(1, 6)
        edges = random_cyclic(rng, n)
        tokens = [rng.randrange(n) for _ in range(rng.randint(1, 3))]
        items.append((n, TokenBoard(adjacency(n, edges)), graph_query(n, edges, tokens,
                                                                      rng.choice((None, "disjunctive")))))
    answers = ask([q for _, _, q in items])
    replays = []
    counts = {"W": 0, "L": 0, "D": 0}
    for (n, board, q), a in zip(items, answers):
        want = check_token_answer(board, q, a, "disjunctive", problems, replays)
        if want is None:
            continue
        counts[want] += 1
        comps = a["components"]
        if not isinstance(comps, list) or len(comps) != len(q["tokens"]):
            problems.append(show(q, a, "want one component per token"))
            continue
        for i, (t, c) in enumerate(zip(q["tokens"], comps)):
            p = loopy_value_problem(board, t, c, n)
            if p:
                problems.append(show(q, a, "component %d: %s" % (i, p)))
                break
        if all(isinstance(c, dict) and is_int(c.get("grundy")) for c in comps):
            x = 0
            for c in comps:
                x ^= c["grundy"]
            if a["grundy"] != x:
                problems.append(show(q, a, "every value finite: grundy should be their nim-sum %d" % x))
        elif a["grundy"] is not None:
            problems.append(show(q, a, "an infinite component: grundy should be null"))
    check_replays(replays, problems)
    for w, k in counts.items():
        if not k:
            problems.append("coverage: no position with outcome %s" % w)
    return problems


def t_no_cycling(rng):
    """From winning positions on graphs with cycles (disjunctive and
    conjunctive), the service's strategy against every opponent reply: the
    positions it reaches form an acyclic graph (play cannot cycle) and every
    line is won within 60 plies."""
    problems = []
    games = []
    # starts: among random graphs, the winning positions the brute force
    # says take longest to win (and a few random ones)
    for compound, want, pool in (("disjunctive", 60, 800), ("conjunctive", 30, 400)):
        cands = []
        for _ in range(pool):
            n = rng.randint(3, 6)
            edges = random_cyclic(rng, n)
            board = TokenBoard(adjacency(n, edges))
            ntok = rng.randint(1, 3)
            starts = [tuple(rng.randrange(n) for _ in range(ntok)) for _ in range(4)]
            res, depth = retro([tuple(sorted(t)) for t in starts], canon_succ(board.opts, compound))
            for t in starts:
                st = tuple(sorted(t))
                if res[st] == "W":
                    cands.append((depth[st], rng.random(), n, edges, board, t))
        cands.sort(key=lambda c: (-c[0], c[1]))
        chosen = cands[:want * 3 // 4] + rng.sample(cands[want * 3 // 4:], want - want * 3 // 4)
        for d, _, n, edges, board, t in chosen:
            games.append({"n": n, "edges": edges, "board": board, "start": t, "compound": compound,
                          "edges_of": {}, "pending": [t], "known": {t}, "failed": False})
    rounds = 0
    while rounds < 31:
        batch = [(g, pos) for g in games if not g["failed"] for pos in g["pending"]]
        if not batch:
            break
        rounds += 1
        for g in games:
            g["pending"] = []
        queries = [graph_query(g["n"], g["edges"], pos,
                               None if g["compound"] == "disjunctive" else g["compound"]) for g, pos in batch]
        for (g, pos), q, a in zip(batch, queries, ask(queries)):
            if g["failed"]:
                continue
            local = []
            where = "reached by the service's own play from %s" % list(g["start"])
            if not basic_shape(q, a, "graph", local) or a["winner"] != "first":
                problems.append(show(q, a, where + ": want a win") if not local else local[0])
                g["failed"] = True
                continue
            new = check_token_move(g["board"], q, a, g["compound"], local)
            if new is None or g["board"].outcome(new, g["compound"]) != "L":
                problems.append(local[0] if local else
                                show(q, a, where + ": the move leaves the opponent a position it does not lose"))
                g["failed"] = True
                continue
            replies = set(compound_succ(tuple(new), g["board"].opts, g["compound"]))
            g["edges_of"][pos] = replies
            for r in replies:
                if r not in g["known"]:
                    g["known"].add(r)
                    g["pending"].append(r)
    longest_line = 0
    explored = 0
    for g in games:
        if g["failed"]:
            continue
        if g["pending"]:
            problems.append("%s start %s on %s: lines of more than 30 of the service's moves (60 plies)"
                            % (g["compound"], list(g["start"]), g["edges"]))
            continue
        # longest path in the strategy graph; a cycle means the service can be kept from winning
        state, depth = {}, {}

        def longest(p, g=g):
            if state.get(p) == 1:
                raise ValueError(p)
            if state.get(p) == 2:
                return depth[p]
            state[p] = 1
            d = 1 + max([longest(r) for r in g["edges_of"].get(p, ())] or [0])
            state[p] = 2
            depth[p] = d
            return d
        try:
            d = longest(g["start"])
        except ValueError as e:
            problems.append("%s start %s on graph %s: the service's strategy cycles through %s (the opponent "
                            "can keep it from ever winning)" % (g["compound"], list(g["start"]), g["edges"],
                                                                 list(e.args[0])))
            continue
        explored += len(g["edges_of"])
        longest_line = max(longest_line, 2 * d - 1)
        if 2 * d - 1 > 60:
            problems.append("%s start %s on graph %s: a line of %d plies"
                            % (g["compound"], list(g["start"]), g["edges"], 2 * d - 1))
    NOTES.append("strategy graphs: %d starts, %d positions answered, longest line %d plies"
                 % (len(games), explored, longest_line))
    return problems


# ---------------------------------------------------------------------------
# 4. grid


DEFAULT_STEPS = [(-2, 1), (-2, -1), (1, -2), (-1, -2)]


def grid_board(rows, cols, steps):
    adj = {}
    for r in range(rows):
        for c in range(cols):
            out = []
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in out:
                    out.append((rr, cc))
            adj[(r, c)] = tuple(out)

    def from_json(v):
        if not (isinstance(v, list) and len(v) == 2 and all(is_int(x) for x in v)):
            raise ValueError(v)
        return (v[0], v[1])
    return TokenBoard(adj, to_json=lambda v: [v[0], v[1]], from_json=from_json)


def t_grid_default(rng):
    problems = []
    board = grid_board(15, 15, DEFAULT_STEPS)
    if board.cyclic:
        return ["brute force: the default steps should give an acyclic board"]
    items = []
    for _ in range(150):
        tokens = [[rng.randrange(15), rng.randrange(15)] for _ in range(rng.randint(1, 3))]
        form = rng.randrange(3)
        q = {"game": "grid", "tokens": tokens}
        if form == 1:
            q.update(rows=15, cols=15)
        elif form == 2:
            q.update(rows=15, cols=15, steps=[list(s) for s in DEFAULT_STEPS])
        items.append(q)
    replays = []
    for q, a in zip(items, ask(items)):
        if not basic_shape(q, a, "grid", problems):
            continue
        vals = [board.grundy(tuple(t)) for t in q["tokens"]]
        x = 0
        for v in vals:
            x ^= v
        if a["grundy"] != x or a["winner"] != ("first" if x else "second"):
            problems.append(show(q, a, "brute force: token values %s, nim-sum %d" % (vals, x)))
            continue
        got = [c.get("grundy") if isinstance(c, dict) else None for c in a["components"] or []]
        if got != vals:
            problems.append(show(q, a, "component values should be %s" % vals))
        if x:
            new = check_token_move(board, q, a, "disjunctive", problems)
            if new is not None:
                y = 0
                for t in new:
                    y ^= board.grundy(t)
                if y:
                    problems.append(show(q, a, "brute force: the position after the move has value %d" % y))
                else:
                    replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    return problems


def random_steps(rng):
    if rng.random() < 0.25:
        base = [(0, 1), (0, -1)] if rng.random() < 0.5 else [(1, 0), (-1, 0)]
        return base + [rng.choice([(-1, -1), (-2, 1), (1, -2), (-1, 0)]) for _ in range(rng.randint(0, 1))]
    steps = set()
    while len(steps) < rng.randint(1, 4):
        s = (rng.randint(-2, 2), rng.randint(-2, 2))
        if s != (0, 0):
            steps.add(s)
    return sorted(steps)


def t_grid_random(rng):
    """Random small boards and steps, cycles included, every compound that
    applies; values against brute force."""
    problems = []
    items = []
    counts = {}
    for _ in range(600):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        steps = random_steps(rng)
        board = grid_board(rows, cols, steps)
        compound = rng.choice(COMPOUNDS + ("disjunctive",))
        ntok = rng.randint(1, 3 if rows * cols <= 16 else 2)
        tokens = [[rng.randrange(rows), rng.randrange(cols)] for _ in range(ntok)]
        q = {"game": "grid", "rows": rows, "cols": cols, "steps": [list(s) for s in steps],
             "tokens": tokens}
        if compound != "disjunctive" or rng.random() < 0.5:
            q["compound"] = compound
        items.append((board, compound, q))
    replays = []
    for (board, compound, q), a in zip(items, ask([q for _, _, q in items])):
        if board.cyclic and compound in ("selective", "selective_proper"):
            p = expect_error(q, a, "cycle")
            if p:
                problems.append(p)
            continue
        want = check_token_answer(board, q, a, compound, problems, replays)
        if want is None:
            continue
        counts[(compound, board.cyclic, want)] = counts.get((compound, board.cyclic, want), 0) + 1
        if compound == "disjunctive":
            comps = a["components"]
            if board.cyclic:
                for i, (t, c) in enumerate(zip(q["tokens"], comps)):
                    p = loopy_value_problem(board, tuple(t), c, rows * cols)
                    if p:
                        problems.append(show(q, a, "component %d: %s" % (i, p)))
                        break
            else:
                vals = [board.grundy(tuple(t)) for t in q["tokens"]]
                x = 0
                for v in vals:
                    x ^= v
                got = [c.get("grundy") if isinstance(c, dict) else None for c in comps or []]
                if got != vals or a["grundy"] != x:
                    problems.append(show(q, a, "brute force: token values %s, nim-sum %d" % (vals, x)))
    check_replays(replays, problems)
    for want in ("W", "L", "D"):
        if not any(k[2] == want for k in counts):
            problems.append("coverage: no grid position with outcome %s" % want)
    return problems


# ---------------------------------------------------------------------------
# 3. misere: one heap or one token


def t_misere_heaps(rng):
    problems = []
    cases = []
    for _ in range(14):
        moves = sorted(rng.sample(range(1, 9), rng.randint(1, 4)))
        for _ in range(10):
            cases.append(({"game": "subtraction", "moves": moves}, rng.randint(0, 80),
                          lambda n, m=moves: {(s, (n - s,) if n > s else ()) for s in m if s <= n}))
    for rule, top in (("squares", 400), ("powers_of_two", 300)):
        for _ in range(50):
            cases.append(({"game": "subtraction", "moves": {"rule": rule}}, rng.randint(0, top),
                          lambda n, r=rule: {(s, (n - s,) if n > s else ())
                                             for s in subtraction_set({"rule": r}, n)}))
    for code in ("0.77", "0.07", "0.137", "0.6", "0.31", "0.51", "0.14"):
        digits = parse_octal(code)
        for _ in range(14):
            cases.append(({"game": "octal", "code": code}, rng.randint(0, 22),
                          lambda n, d=digits: octal_heap_moves(n, d)))
    for _ in range(40):
        cases.append(({"game": "grundys_game"}, rng.randint(0, 24), grundys_heap_moves))
    solvers = {}
    queries = []
    for base, n, hm in cases:
        key = json.dumps(base, sort_keys=True)
        if key not in solvers:
            hmo = memo_opts(hm)
            solvers[key] = (hmo, Acyclic(lambda ms, o=multiset_opts(hmo): o(ms), misere=True))
        queries.append(dict(base, piles=[n], convention="misere"))
    replays = []
    splits = 0
    for (base, n, _), q, a in zip(cases, queries, ask(queries)):
        hm, solver = solvers[json.dumps(base, sort_keys=True)]
        start = (n,) if n else ()
        want = solver.win(start)
        if not basic_shape(q, a, q["game"], problems, "misere", terminal_win=True):
            continue
        if a["winner"] != ("first" if want else "second") or a["grundy"] is not None:
            problems.append(show(q, a, "brute force (misere, the player who cannot move wins): %s, grundy null"
                                 % ("first" if want else "second")))
            continue
        if not want or not hm(n):
            if a["move"] is not None or a["next"] is not None:
                problems.append(show(q, a, "no move is possible (the player to move wins by having none)"))
            continue
        mv = a["move"]
        if not isinstance(mv, dict) or not isinstance(a["next"], dict):
            problems.append(show(q, a, "a won position with a move to make: want move and next"))
            continue
        take = mv.get("take")
        if mv.get("pile") != 0 or mv.get("from") != n or not is_int(take):
            problems.append(show(q, a, "bad move fields"))
            continue
        if "split" in mv:
            parts = tuple(sorted(mv["split"])) if isinstance(mv["split"], list) else None
            want_next = {"piles": list(mv["split"]) if parts else None}
        else:
            parts = (mv.get("to"),) if mv.get("to") else ()
            want_next = {"piles": [mv.get("to")]}
            if mv.get("to") != n - take:
                problems.append(show(q, a, "to != from - take"))
                continue
        if parts is None or (take, parts) not in hm(n):
            problems.append(show(q, a, "illegal move by the rules"))
            continue
        if a["next"] != want_next:
            problems.append(show(q, a, "next should be %s" % json.dumps(want_next)))
            continue
        if solver.win(tuple(sorted(parts))):
            problems.append(show(q, a, "brute force: the position after the move is a misere win for the opponent"))
            continue
        if len(parts) == 2:
            splits += 1
        else:
            replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    # two or more heaps of a rule-defined set: refused (sums of listed sets,
    # octal games and Grundy's game are answered by misere quotients, checked
    # against brute force in test_misere.py)
    bad = [{"game": "subtraction", "moves": {"rule": "squares"}, "piles": [3, 4, 5], "convention": "misere"}]
    for q, a in zip(bad, ask(bad)):
        p = expect_error(q, a, "unsupported_convention")
        if p:
            problems.append(p)
    if not splits:
        problems.append("coverage: no misere move that splits a heap was checked")
    return problems


def t_misere_tokens(rng):
    problems = []
    items = []
    for _ in range(500):
        if rng.random() < 0.5:
            n = rng.randint(1, 6)
            edges = random_cyclic(rng, n) if rng.random() < 0.7 else random_dag(rng, n)
            board = TokenBoard(adjacency(n, edges))
            q = graph_query(n, edges, [rng.randrange(n)])
        else:
            rows, cols = rng.randint(1, 5), rng.randint(1, 5)
            steps = random_steps(rng) if rng.random() < 0.7 else DEFAULT_STEPS
            board = grid_board(rows, cols, steps)
            q = {"game": "grid", "rows": rows, "cols": cols, "steps": [list(s) for s in steps],
                 "tokens": [[rng.randrange(rows), rng.randrange(cols)]]}
        q["convention"] = "misere"
        items.append((board, q))
    # the default 15 x 15 grid
    big = grid_board(15, 15, DEFAULT_STEPS)
    for _ in range(20):
        items.append((big, {"game": "grid", "tokens": [[rng.randrange(15), rng.randrange(15)]],
                            "convention": "misere"}))
    replays = []
    counts = {}
    for (board, q), a in zip(items, ask([q for _, q in items])):
        want = check_token_answer(board, q, a, "disjunctive", problems, replays, misere=True)
        if want:
            counts[want] = counts.get(want, 0) + 1
    check_replays(replays, problems)
    for w in "WLD":
        if w not in counts:
            problems.append("coverage: no misere token position with outcome %s" % w)
    bad = [graph_query(3, [[0, 1], [1, 2]], [0, 1]), graph_query(2, [[0, 1], [1, 0]], [0, 0]),
           {"game": "grid", "tokens": [[3, 3], [4, 4]]},
           {"game": "grid", "rows": 3, "cols": 3, "steps": [[0, 1], [0, -1]], "tokens": [[0, 0], [1, 1], [2, 2]]}]
    for q in bad:
        q["convention"] = "misere"
    for q, a in zip(bad, ask(bad)):
        p = expect_error(q, a, "unsupported_convention")
        if p:
            problems.append(p)
    return problems


# ---------------------------------------------------------------------------
# 5. coins


def coin_move_sets(rule, p):
    """The sets of other coins (all left of p) a move at head p turns over."""
    if rule == "turning_turtles":
        return [()] + [(c,) for c in range(1, p)]
    if rule == "mock_turtles":
        return [()] + [(c,) for c in range(1, p)] + list(itertools.combinations(range(1, p), 2))
    return [tuple(range(a, p)) for a in range(1, p + 1)]


def coin_values(rule, length):
    """Grundy value of every head set within coins 1..length, as a bitmask
    (bit p-1 for coin p), by mex: every move lowers the mask."""
    flips = {p: [sum(1 << (c - 1) for c in others) | (1 << (p - 1)) for others in coin_move_sets(rule, p)]
             for p in range(1, length + 1)}
    g = [0] * (1 << length)
    for mask in range(1, 1 << length):
        seen = set()
        m = mask
        while m:
            low = m & -m
            p = low.bit_length()
            m ^= low
            for f in flips[p]:
                seen.add(g[mask ^ f])
        g[mask] = mex(seen)
    return g


def coin_move_problem(rule, heads, mv):
    """None if mv is a legal move from the head set, else why; the turned set
    via the returned tuple (problem, turned)."""
    coin = mv.get("coin") if isinstance(mv, dict) else None
    if not is_int(coin) or coin not in heads:
        return "the coin %r is not a head" % (coin,), None
    if rule == "ruler":
        run = mv.get("run")
        if not (isinstance(run, list) and len(run) == 2 and all(is_int(x) for x in run)) \
                or run[1] != coin or not 1 <= run[0] <= coin:
            return "run %r must be [a, coin] with 1 <= a <= coin" % (run,), None
        if coin - run[0] > 200000:
            return None, ("run", run[0], coin)
        return None, set(range(run[0], coin + 1))
    others = mv.get("others")
    cap = 1 if rule == "turning_turtles" else 2
    if not isinstance(others, list) or len(others) > cap or len(set(others)) != len(others) \
            or not all(is_int(c) and 1 <= c < coin for c in others):
        return "others %r: at most %d distinct coins left of %d" % (others, cap, coin), None
    return None, set(others) | {coin}


def t_coins_small(rng):
    problems = []
    lengths = {"turning_turtles": 12, "mock_turtles": 11, "ruler": 12}
    tables = {r: coin_values(r, L) for r, L in lengths.items()}
    items = []
    for rule, L in lengths.items():
        for _ in range(250):
            heads = rng.sample(range(1, L + 1), rng.randint(0, min(7, L)))
            items.append((rule, {"game": "coins", "rule": rule, "heads": heads}))
        for p in range(1, L + 1):
            items.append((rule, {"game": "coins", "rule": rule, "heads": [p]}))
    replays = []
    for (rule, q), a in zip(items, ask([q for _, q in items])):
        g = tables[rule]
        mask = sum(1 << (p - 1) for p in q["heads"])
        if not basic_shape(q, a, "coins", problems):
            continue
        if a["grundy"] != g[mask] or a["winner"] != ("first" if g[mask] else "second"):
            problems.append(show(q, a, "brute force (bitmask mex): grundy %d" % g[mask]))
            continue
        got = [(c.get("position"), c.get("grundy")) if isinstance(c, dict) else None for c in a["components"] or []]
        want = [(p, g[1 << (p - 1)]) for p in q["heads"]]
        if sorted(got, key=str) != sorted(want, key=str):
            problems.append(show(q, a, "components should be %s" % want))
        if not g[mask]:
            continue
        why, turned = coin_move_problem(rule, set(q["heads"]), a["move"])
        if why:
            problems.append(show(q, a, "illegal move: " + why))
            continue
        new = set(q["heads"]) ^ turned
        nxt = a["next"].get("heads") if isinstance(a["next"], dict) else None
        if not isinstance(nxt, list) or len(set(nxt)) != len(nxt) or set(nxt) != new:
            problems.append(show(q, a, "next.heads should be the set %s" % sorted(new)))
            continue
        nmask = sum(1 << (p - 1) for p in new)
        if g[nmask]:
            problems.append(show(q, a, "brute force: the position after the move has value %d" % g[nmask]))
            continue
        replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    return problems


def t_coins_large(rng):
    """Positions up to 10^18: the move is legal by the rule and the service
    calls the position after it a loss."""
    problems = []
    items = []
    for rule in ("turning_turtles", "mock_turtles", "ruler"):
        for _ in range(60):
            k = rng.randint(1, 4)
            heads = set()
            while len(heads) < k:
                kind = rng.randrange(4)
                if kind == 0:
                    heads.add(rng.randint(1, 10**18))
                elif kind == 1:
                    heads.add(10**18 - rng.randint(0, 1000))
                elif kind == 2:
                    v = 2 ** rng.randint(0, 59) * rng.choice((1, 3, 5))
                    if v <= 10**18:
                        heads.add(v)
                else:
                    heads.add(rng.randint(1, 10**6))
            items.append((rule, {"game": "coins", "rule": rule, "heads": sorted(heads, key=lambda _: rng.random())}))
    replays = []
    wins = 0
    too_long = []
    for (rule, q), a in zip(items, ask([q for _, q in items])):
        big_run = False
        mv = a.get("move") if isinstance(a, dict) else None
        if rule == "ruler" and isinstance(mv, dict) and isinstance(mv.get("run"), list) \
                and len(mv["run"]) == 2 and all(is_int(x) for x in mv["run"]):
            # the documented item limit: a position of more than 100,000 heads
            # cannot be sent back, and "next" is then omitted
            big_run = len(q["heads"]) + mv["run"][1] - mv["run"][0] + 1 > ITEM_LIMIT
        if not basic_shape(q, a, "coins", problems, terminal_win=big_run):
            continue
        if not is_int(a["grundy"]) or (a["grundy"] != 0) != (a["winner"] == "first"):
            problems.append(show(q, a, "grundy and winner disagree"))
            continue
        if a["winner"] != "first":
            continue
        wins += 1
        heads = set(q["heads"])
        why, turned = coin_move_problem(rule, heads, a["move"])
        if why:
            problems.append(show(q, a, "illegal move: " + why))
            continue
        if big_run and a["next"] is None:
            too_long.append(mv["run"][1] - mv["run"][0] + 1)
            continue
        if isinstance(turned, tuple):
            # a run too long to spell out here: only its ends were checked
            continue
        new = heads ^ turned
        nxt = a["next"].get("heads") if isinstance(a["next"], dict) else None
        if not isinstance(nxt, list) or len(set(nxt)) != len(nxt) or set(nxt) != new:
            problems.append(show(q, a, "next.heads should be the set %s" % sorted(new)[:20]))
            continue
        replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    if too_long:
        NOTES.append("coins, large: %d ruler moves turn more than %d coins (up to %d), so \"next\" is "
                 "omitted and only the move was checked" % (len(too_long), ITEM_LIMIT, max(too_long)))
    if wins < 20:
        problems.append("coverage: only %d winning large positions" % wins)
    return problems


# ---------------------------------------------------------------------------
# 6. strange nim


def strange_values(xmax, k):
    g = []
    for x in range(xmax + 1):
        g.append(mex(g[x - t] for t in range(1, x // k + 1)))
    return g


def t_strange_small(rng):
    problems = []
    tables = {k: strange_values(400, k) for k in range(1, 13)}
    items = []
    for _ in range(800):
        piles = [[rng.randint(0, 400), rng.randint(1, 12)] for _ in range(rng.randint(1, 3))]
        items.append({"game": "strange_nim", "piles": piles})
    for k in range(1, 13):
        for x in range(0, 400, 7):
            items.append({"game": "strange_nim", "piles": [[x, k]]})
    replays = []
    for q, a in zip(items, ask(items)):
        vals = [tables[k][x] for x, k in q["piles"]]
        x = 0
        for v in vals:
            x ^= v
        if not basic_shape(q, a, "strange_nim", problems):
            continue
        if a["grundy"] != x or a["winner"] != ("first" if x else "second"):
            problems.append(show(q, a, "brute force: pile values %s, nim-sum %d" % (vals, x)))
            continue
        got = [(c.get("grundy"), c.get("k")) if isinstance(c, dict) else None for c in a["components"] or []]
        if got != [(v, k) for v, (_, k) in zip(vals, q["piles"])]:
            problems.append(show(q, a, "components should carry grundy %s and k" % vals))
        if not x:
            continue
        p = strange_move_problem(q, a)
        if p:
            problems.append(show(q, a, p))
            continue
        y = 0
        for xx, k in a["next"]["piles"]:
            y ^= tables[k][xx]
        if y:
            problems.append(show(q, a, "brute force: the position after the move has value %d" % y))
            continue
        replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    return problems


def strange_move_problem(q, a):
    mv = a["move"]
    i = mv.get("pile") if isinstance(mv, dict) else None
    if not is_int(i) or not 0 <= i < len(q["piles"]):
        return "bad pile"
    x, k = q["piles"][i]
    take = mv.get("take")
    if mv.get("from") != x or not is_int(take) or not 1 <= take <= x // k or mv.get("to") != x - take:
        return "illegal move: take must be 1 .. floor(%d / %d) = %d from %d" % (x, k, x // k, x)
    want = [list(p) for p in q["piles"]]
    want[i] = [x - take, k]
    if a["next"] != {"piles": want}:
        return "next should be %s" % json.dumps({"piles": want})
    return None


def t_strange_large(rng):
    problems = []
    items = []
    for _ in range(150):
        piles = []
        for _ in range(rng.randint(1, 3)):
            k = rng.choice((1, 2, 3, 5, 7, 10, 12, 64, 1000, 10**5, 10**6, rng.randint(1, 10**6),
                            rng.randint(10**11, 10**17)))
            x = rng.choice((rng.randint(0, 10**18), 10**18 - rng.randint(0, 100),
                            min(10**18, k * rng.randint(1, 10**6)), rng.randint(0, 10**9),
                            k - 1 if k > 1 else 0))
            piles.append([x, k])
        items.append({"game": "strange_nim", "piles": piles})
    replays = []
    wins = 0
    for q, a in zip(items, ask(items)):
        if not basic_shape(q, a, "strange_nim", problems):
            continue
        if a["winner"] != "first":
            continue
        wins += 1
        p = strange_move_problem(q, a)
        if p:
            problems.append(show(q, a, p))
            continue
        replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    if wins < 30:
        problems.append("coverage: only %d winning large positions" % wins)
    # k near the square root of x is the costly case: an answer must be
    # right, and a refusal must be the budget's 422 naming the pile
    hard = [{"game": "strange_nim", "piles": [[10**18 - 1, 10**9]]},
            {"game": "strange_nim", "piles": [[3, 1], [987654321987654321, 10**8]]}]
    replays = []
    refused = []
    for q, a in zip(hard, ask(hard)):
        if isinstance(a, dict) and "error" in a:
            i = len(q["piles"]) - 1
            p = expect_error(q, a, "limit_exceeded", "piles[%d]" % i)
            if p:
                problems.append(p)
            else:
                refused.append(json.dumps(q["piles"][i]))
            continue
        if not basic_shape(q, a, "strange_nim", problems) or a["winner"] != "first":
            continue
        p = strange_move_problem(q, a)
        if p:
            problems.append(show(q, a, p))
        else:
            replays.append(({**q, **a["next"]}, q))
    check_replays(replays, problems)
    if refused:
        NOTES.append("strange_nim: refused within the compute budget (limit_exceeded): %s" % ", ".join(refused))
    return problems


# ---------------------------------------------------------------------------
# 7. errors


def t_errors(rng):
    cases = [
        ({"game": "nim", "piles": [1, 2], "compound": "bogus"}, None, "compound"),
        ({"game": "nim", "piles": [1, 2], "compound": 3}, None, "compound"),
        ({"game": "wythoff", "piles": [1, 2], "compound": "selective"}, "inapplicable_field", "compound"),
        ({"game": "coins", "rule": "ruler", "heads": [1], "compound": "conjunctive"}, "inapplicable_field",
         "compound"),
        ({"game": "nim", "piles": [1, 2], "compound": "selective", "convention": "misere"},
         "unsupported_compound", None),
        ({"game": "grid", "rows": 3, "cols": 3, "tokens": [[3, 0]]}, None, "tokens[0]"),
        ({"game": "grid", "rows": 3, "cols": 3, "tokens": [[0, 0], [1, -1]]}, None, "tokens[1][1]"),
        ({"game": "grid", "tokens": [[15, 0]]}, None, "tokens[0]"),
        ({"game": "grid", "rows": 3, "cols": 3, "steps": [[0, 0]], "tokens": [[0, 0]]}, None, "steps[0]"),
        ({"game": "coins", "rule": "ruler", "heads": [0]}, None, "heads[0]"),
        ({"game": "coins", "rule": "turning_turtles", "heads": [3, 0]}, None, "heads[1]"),
        ({"game": "coins", "rule": "turtles", "heads": [1]}, None, "rule"),
        ({"game": "strange_nim", "piles": [[5, 0]]}, None, "piles[0][1]"),
        ({"game": "strange_nim", "piles": [[5, 2], [3, 0]]}, None, "piles[1][1]"),
        ({"game": "strange_nim", "piles": [5]}, None, "piles[0]"),
        ({"game": "graph", "edges": [[0, 1], [1, 0]], "tokens": [0], "compound": "selective"}, "cycle", None),
        ({"game": "graph", "edges": [[0, 0]], "tokens": [0], "compound": "selective_proper"}, "cycle", None),
        ({"game": "grid", "rows": 2, "cols": 2, "steps": [[0, 1], [0, -1]], "tokens": [[0, 0]],
          "compound": "selective"}, "cycle", None),
        ({"game": "strange_nim", "piles": [[5, 2]], "convention": "misere"}, "unsupported_convention", None),
    ]
    problems = []
    for (q, code, field), a in zip(cases, ask([c[0] for c in cases])):
        p = expect_error(q, a, code, field)
        if p:
            problems.append(p)
    return problems


# ---------------------------------------------------------------------------


def ask_raw(body):
    """One query sent as it is (large bodies): the answer object."""
    COUNT["queries"] += 1
    out = subprocess.run([GRUNDY, "query", "-"], input=body, capture_output=True,
                         timeout=CALL_TIMEOUT)
    return json.loads(out.stdout.decode("utf-8", "replace").splitlines()[0])


def big_graph_body(rng, nodes, edges, tokens):
    pairs = ",".join("[%d,%d]" % (rng.randrange(nodes), rng.randrange(nodes)) for _ in range(edges))
    return ('{"game":"graph","nodes":%d,"tokens":%s,"edges":[%s]}'
            % (nodes, json.dumps(tokens), pairs)).encode()


def t_big_graphs(rng):
    """The size issue 4 names: 10^5 nodes and 10^6 edges with cycles, within
    the default budget; one more edge than the limit is a 422 naming it.
    Correctness at this size is the engine's (tests/test_loopy.c); here the
    answer must be whole and its move must replay."""
    problems = []
    for edges, tokens in ((1000000, [1, 2, 3]), (150000, [5, 6]), (300000, [7])):
        body = big_graph_body(rng, 100000, edges, tokens)
        a = ask_raw(body)
        q = {"game": "graph", "nodes": 100000, "edges": "(%d random edges)" % edges, "tokens": tokens}
        if not basic_shape(q, a, "graph", problems):
            continue
        NOTES.append("10^5 nodes, %d edges, tokens %s: winner %s" % (edges, tokens, a["winner"]))
        if a["winner"] == "first" and a["next"]:
            again = ask_raw(body.replace(b'"tokens":' + json.dumps(tokens).encode(),
                                         b'"tokens":' + json.dumps(a["next"]["tokens"]).encode()))
            COUNT["replayed"] += 1
            if again.get("winner") != "second":
                problems.append(show(q, a, "after the move the opponent must lose; got %s" % short(again)))
    a = ask_raw(big_graph_body(rng, 1000, 1000001, [0]))
    bad = expect_error({"game": "graph", "edges": "(1000001 edges)"}, a, "too_many", "edges")
    return problems + ([bad] if bad else [])


def main():
    global GRUNDY
    if len(sys.argv) != 2:
        print("usage: test_compounds_cycles.py path/to/grundy", file=sys.stderr)
        return 2
    GRUNDY = sys.argv[1]
    if not (os.path.isfile(GRUNDY) and os.access(GRUNDY, os.X_OK)):
        print("Bail out! %s is not an executable" % GRUNDY)
        return 1
    seed = 20260417

    def body():
        tests = [
            ("compounds of nim, subtraction and strange_nim against brute force; moves replayed",
             t_heap_compounds),
            ("compounds of octal games and Grundy's game: winners and moves against brute force over "
             "each pile's multiset", t_split_compounds),
            ("graph compounds (selective, selective_proper, conjunctive with cycles) against brute force; "
             "moves replayed", t_graph_compounds),
            ("graphs with cycles: win/loss/draw by retrograde analysis, Smith values, moves replayed",
             t_loopy),
            ("graphs with cycles: the service's strategy wins against every reply without cycling",
             t_no_cycling),
            ("grid: the default 15 x 15 board and steps against brute force; moves replayed",
             t_grid_default),
            ("grid: random boards and steps (cycles included), every compound; moves replayed",
             t_grid_random),
            ("misere: one heap of subtraction, octal, Grundy's game against brute force; two heaps refused",
             t_misere_heaps),
            ("misere: one token on a graph or grid (draws included); two tokens refused", t_misere_tokens),
            ("coins: rows of up to 12 coins against bitmask mex; moves replayed", t_coins_small),
            ("coins: positions up to 10^18, moves legal and replayed", t_coins_large),
            ("strange_nim: values to 400 with k <= 12 against brute force; moves replayed", t_strange_small),
            ("strange_nim: piles up to 10^18, moves in range and replayed", t_strange_large),
            ("errors: compound, grid, coins, strange_nim and cycle refusals name the field", t_errors),
            ("graphs of 10^5 nodes and 10^6 edges with cycles within the default budget; one edge "
             "past the limit refused", t_big_graphs),
        ]
        for i, (name, fn) in enumerate(tests):
            TAP.run(name, fn, random.Random(seed + i))
            for note in NOTES:
                TAP.diag(note)
            del NOTES[:]
        TAP.diag("summary: %d tests, %d failed; %d queries answered, %d winning moves replayed"
                 % (TAP.n, TAP.failed, COUNT["queries"], COUNT["replayed"]))

    return run_main(TAP, "test_compounds_cycles.py", 110, body)


if __name__ == "__main__":
    sys.exit(main())
