#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""POST /v1/moves for the token games, graph and grid, against brute.py.

Usage: test_moves_tokens.py path/to/grundy path/to/grundyd. Prints TAP.

Exhaustive small positions: every directed graph on 3 nodes (and on 2 nodes
with self-loops, under large and unordered node ids), random multigraphs
whose edges repeat, and every board up to 3 x 3 under five step sets (cycles
and repeated steps included), with every token list up to a small length.
For each, the whole answer is built from the rules by brute force and must
equal the service's: the moves in canonical order (token by token in request
order, then the node's edges in request order, or the distinct steps in
request order) stably split into winning moves first, each with its `move`
(token, from, to, text), its `next`, and the outcome of `next` for the
player who moves there (retrograde analysis of the whole sum: win, loss or
draw; its value by the nim-heap test: G has value g exactly when G + *g is
a loss), `total` and the paging members. Misere play is checked for one
token (more are refused as /v1/analyze refuses them). Every outcome is also
compared with `grundy query` on {...request, ...next}; every move marked
winning is replayed; paging by body and by URL concatenates to the whole
list; large positions (node ids near 2^63, boards of 10^4 squares with 63
steps) answer an exact total and canonical pages quickly, from any cursor.
The daemon's responses are held to openapi.yaml by run_main."""

import itertools
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 170
E18 = 10**18
INT_MAX = 2**63 - 1
OUTCOME = {"W": "first", "L": "second", "D": "draw"}
ANSWER_KEYS = ["game", "convention", "total", "order", "moves", "cursor"]
ENTRY_KEYS = ["move", "next", "winning", "winner", "grundy"]
MOVE_KEYS = ["token", "from", "to", "text"]
GRID_STEP_SETS = [
    None,                                                  # the default, knight-like (acyclic)
    [[0, 1], [0, -1]],                                     # back and forth: draws
    [[-1, 0], [0, -1], [-1, 0]],                           # a repeat, acyclic
    [[dr, dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc],  # the king
    [[0, 2], [1, -1], [0, 2], [-1, 0]],                    # a repeat, a cycle on 3 x 3
]


class Ctx:
    def __init__(self, grundy, client):
        self.grundy = grundy
        self.client = client
        self.games = {}      # board key -> brute.TokenGame
        self.checked = []    # (query, answer) of every position compared whole
        self.large = []      # (query, answer) of the large positions' pages
        self.counts = {"positions": 0, "moves": 0, "W": 0, "L": 0, "D": 0}

    def game(self, query):
        """The brute force of query's board and convention, shared by the
        positions that differ only in their tokens."""
        key = json.dumps({k: v for k, v in query.items() if k not in ("tokens", "limit", "cursor")},
                         sort_keys=True)
        succ, tokens = brute.token_board(query)
        g = self.games.get(key)
        if g is None:
            g = self.games[key] = brute.TokenGame(succ, query.get("convention") == "misere")
        for t in tokens:
            g.succ.setdefault(t, [])
        return g

    def moves(self, body, url=""):
        return self.client.request("POST", "/v1/moves" + url, body)


def node_text(game, node):
    return "[%d, %d]" % node if game == "grid" else "node %d" % node


def brute_entries(ck, query):
    """The moves in canonical order, each as /v1/moves writes it."""
    g = ck.game(query)
    misere = query.get("convention") == "misere"
    _, tokens = brute.token_board(query)
    out = []
    for i, frm, to in brute.token_moves(query):
        after = tokens[:i] + [to] + tokens[i + 1:]
        r = g.outcome(after)
        text = "Move token %d from %s to %s." % (i, node_text(query["game"], frm),
                                                  node_text(query["game"], to))
        out.append({"move": {"token": i, "from": brute.node_json(frm), "to": brute.node_json(to),
                             "text": text},
                    "next": brute.token_next(query, (i, frm, to)), "winning": r == "L",
                    "winner": OUTCOME[r], "grundy": None if misere else g.value(after)})
    return out


def winning_first(entries):
    return [e for e in entries if e["winning"]] + [e for e in entries if not e["winning"]]


def shape_problems(query, resp):
    """Status, member order and the fixed members of a whole listing."""
    if resp.status != 200 or not isinstance(resp.json, dict):
        return ["%s: status %d %r" % (json.dumps(query), resp.status, resp.raw[:300])]
    a, pairs = resp.json, resp.pairs
    p = []
    if [k for k, _ in pairs] != ANSWER_KEYS:
        p.append("members %r, want %r" % ([k for k, _ in pairs], ANSWER_KEYS))
    for entry in dict(pairs)["moves"]:
        keys = [k for k, _ in entry]
        if keys != ENTRY_KEYS or [k for k, _ in dict(entry)["move"]] != MOVE_KEYS:
            p.append("entry members %r" % entry)
            break
    want_conv = query.get("convention", "normal")
    if a["game"] != query["game"] or a["convention"] != want_conv or a["order"] != "winning_first" \
            or a["cursor"] is not None:
        p.append("game/convention/order/cursor: %r" % {k: a[k] for k in ANSWER_KEYS if k != "moves"})
    return ["%s: %s" % (json.dumps(query), x) for x in p]


def check_whole(ck, query):
    """One position listed whole against the brute force."""
    resp = ck.moves(query)
    p = shape_problems(query, resp)
    if p:
        return p
    a = resp.json
    want = brute_entries(ck, query)
    ck.checked.append((query, a))
    ck.counts["positions"] += 1
    ck.counts["moves"] += len(want)
    for e in want:
        ck.counts[{"first": "W", "second": "L", "draw": "D"}[e["winner"]]] += 1
    if a["total"] != len(want):
        return ["%s: total %r, brute force %d" % (json.dumps(query), a["total"], len(want))]
    if sorted(json.dumps(m["next"]) for m in a["moves"]) != sorted(json.dumps(m["next"]) for m in want):
        return ["%s: next positions %r, brute force %r" % (json.dumps(query), [m["next"] for m in a["moves"]],
                                                           [m["next"] for m in want])]
    want = winning_first(want)
    for k, (got, exp) in enumerate(zip(a["moves"], want)):
        if got != exp:
            return ["%s: entry %d is %s, brute force (winning first, canonical order) %s"
                    % (json.dumps(query), k, json.dumps(got), json.dumps(exp))]
    return []


def token_lists(nodes, upto, sorted_at=None):
    """Every list of at most `upto` tokens over nodes; from length sorted_at
    on, only sorted lists (one order of each multiset)."""
    out = []
    for k in range(upto + 1):
        for t in itertools.product(nodes, repeat=k):
            if sorted_at is None or k < sorted_at or list(t) == sorted(t):
                out.append(list(t))
    return out


# ---------------------------------------------------------------------------
# exhaustive small positions


def t_graphs3(ck, convention):
    """Every digraph on 3 nodes (no self-loops); "nodes" given for half."""
    pairs = [(u, v) for u in range(3) for v in range(3) if u != v]
    lists = token_lists(range(3), 3, sorted_at=3) if convention == "normal" else token_lists(range(3), 1)
    p = []
    for mask in range(1 << len(pairs)):
        edges = [[u, v] for b, (u, v) in enumerate(pairs) if mask >> b & 1]
        for tokens in lists:
            q = {"game": "graph", "edges": edges, "tokens": tokens}
            if mask % 2 == 0:
                q["nodes"] = 3
            if convention != "normal":
                q["convention"] = convention
            p += check_whole(ck, q)
    return p


def t_graphs2_loops(ck, convention):
    """Every digraph on 2 nodes with self-loops (a move that changes
    nothing), under dense ids, unordered ids and ids near 2^63."""
    names = [(0, 1), (5, 2), (E18 + 7, INT_MAX)]
    pairs = [(0, 0), (0, 1), (1, 0), (1, 1)]
    lists = token_lists(range(2), 3 if convention == "normal" else 1)
    p = []
    for mask in range(16):
        ids = names[mask % 3]
        edges = [[ids[u], ids[v]] for b, (u, v) in enumerate(pairs) if mask >> b & 1]
        for tokens in lists:
            q = {"game": "graph", "edges": edges, "tokens": [ids[t] for t in tokens]}
            if ids[1] == 1:
                q["nodes"] = 2
            if convention != "normal":
                q["convention"] = convention
            p += check_whole(ck, q)
    return p


def t_multigraphs(ck, rng):
    """Random graphs on 3 to 5 nodes whose edges repeat (each edge a move),
    with isolated nodes through "nodes", cycles allowed."""
    p = []
    for _ in range(250):
        n = rng.randint(3, 5)
        edges = [[rng.randrange(n), rng.randrange(n)] for _ in range(rng.randint(1, 2 * n))]
        edges += [list(e) for e in rng.sample(edges, min(len(edges), rng.randint(1, 3)))]
        rng.shuffle(edges)
        tokens = [rng.randrange(n + 1) for _ in range(rng.randint(1, 3))]
        p += check_whole(ck, {"game": "graph", "edges": edges, "tokens": tokens, "nodes": n + 1})
    return p


def t_grids(ck, convention):
    """Every board up to 3 x 3 under each step set, every token list of up
    to two tokens (one under misere play)."""
    p = []
    for rows, cols, steps in itertools.product((1, 2, 3), (1, 2, 3), GRID_STEP_SETS):
        squares = [[r, c] for r in range(rows) for c in range(cols)]
        for tokens in token_lists([tuple(s) for s in squares], 2 if convention == "normal" else 1):
            q = {"game": "grid", "rows": rows, "cols": cols, "tokens": [list(t) for t in tokens]}
            if steps is not None:
                q["steps"] = steps
            if convention != "normal":
                q["convention"] = convention
            p += check_whole(ck, q)
    return p


def t_misere_refused(ck):
    """Misere play of several tokens is refused exactly as /v1/analyze refuses it."""
    p = []
    for q in ({"game": "graph", "edges": [[0, 1]], "tokens": [0, 0], "convention": "misere"},
              {"game": "grid", "rows": 2, "cols": 2, "steps": [[0, 1]], "tokens": [[0, 0], [1, 0]],
               "convention": "misere"}):
        m, a = ck.moves(q), ck.client.post(q)
        if m.status != 422 or m.json != a.json or m.json["error"]["code"] != "unsupported_convention":
            p.append("%s: moves %d %r, analyze %d %r" % (json.dumps(q), m.status, m.raw[:200], a.status,
                                                          a.raw[:200]))
    return p


def compound_next(edges, tokens, compound):
    """Every token list one move of `compound` away (None: the token stays);
    edges in request order, so choices come in the service's order."""
    per = [[None] + [v for u, v in edges if u == t] for t in tokens]
    if compound == "conjunctive":
        per = [c[1:] for c in per]
    out = []
    for choice in itertools.product(*per):
        moved = sum(c is not None for c in choice)
        if compound != "conjunctive" and (moved == 0 or (compound == "selective_proper" and moved == len(tokens))):
            continue
        out.append([t if c is None else c for t, c in zip(tokens, choice)])
    return out


def t_compounds(ck):
    """Selective, proper selective and conjunctive compounds on every acyclic
    digraph on 3 nodes with up to 3 tokens: the moves in the service's order
    (a choice per token, lexicographic), outcomes by a memoised search."""
    p, checked = [], 0
    pairs = [(u, v) for u in range(3) for v in range(3) if u < v]
    for mask in range(1 << len(pairs)):
        edges = [list(e) for i, e in enumerate(pairs) if mask >> i & 1]
        for compound in ("selective", "selective_proper", "conjunctive"):
            memo = {}

            def win(tokens):
                key = tuple(tokens)
                if key not in memo:
                    memo[key] = any(not win(n) for n in compound_next(edges, tokens, compound))
                return memo[key]

            for n in (1, 2, 3):
                for tokens in itertools.product(range(3), repeat=n):
                    q = {"game": "graph", "edges": edges, "tokens": list(tokens), "nodes": 3, "compound": compound}
                    r = ck.moves(q)
                    want = compound_next(edges, list(tokens), compound)
                    if r.status != 200 or r.json["total"] != len(want):
                        p.append("%s: %d %r, want %d moves" % (json.dumps(q), r.status, r.raw[:200], len(want)))
                        continue
                    got = [e["next"]["tokens"] for e in r.json["moves"]]
                    wins = [t for t in want if not win(t)]
                    if got != wins + [t for t in want if win(t)]:
                        p.append("%s: next %r, want winning first then %r" % (json.dumps(q), got, want))
                    for e in r.json["moves"]:
                        if e.get("winning") != (not win(e["next"]["tokens"])):
                            p.append("%s: after %r winning %r" % (json.dumps(q), e["next"], e.get("winning")))
                    checked += 1
    TAP.diag("%d compound positions checked" % checked)
    return p


# ---------------------------------------------------------------------------
# outcomes through the CLI, replays


def ask(grundy, queries):
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([grundy, "query", "-"], input=text.encode(), capture_output=True, timeout=90)
    lines = out.stdout.decode().splitlines()
    if len(lines) != len(queries):
        raise RuntimeError("%d queries, %d answers: %r" % (len(queries), len(lines), out.stderr[:300]))
    return [json.loads(line) for line in lines]


def merged_entries(ck, large=False):
    """(merged query, entry) of every listed move (with large: those of the
    large positions' pages too), each position after a move once."""
    seen = {}
    for q, a in ck.checked + (ck.large if large else []):
        for e in a["moves"]:
            m = brute.merge(q, e["next"])
            seen.setdefault(json.dumps(m, sort_keys=True), (m, e))
    return list(seen.values())


def t_outcomes_cli(ck):
    """Every listed winner and grundy equals `grundy query` of {...request, ...next}."""
    items = merged_entries(ck, large=True)
    p = []
    for (m, e), a in zip(items, ask(ck.grundy, [m for m, _ in items])):
        if a.get("winner") != e["winner"] or a.get("grundy") != e["grundy"]:
            p.append("%s: listed %s/%r, grundy query %s/%r" % (json.dumps(m), e["winner"], e["grundy"],
                                                              a.get("winner"), a.get("grundy")))
    TAP.diag("%d positions after a move compared with grundy query" % len(items))
    return p


def t_replays(ck):
    """Every move marked winning leads to a loss for the opponent: by brute
    force and by `grundy query`; winning is set exactly then."""
    items = [(m, e) for m, e in merged_entries(ck)]
    p, replay = [], []
    for m, e in items:
        lost = ck.game(m).outcome(brute.token_board(m)[1]) == "L"
        if e["winning"] != lost or e["winning"] != (e["winner"] == "second"):
            p.append("%s: winning %r, brute force %s" % (json.dumps(m), e["winning"], "loss" if lost else "no loss"))
        if e["winning"]:
            replay.append(m)
    for m, a in zip(replay, ask(ck.grundy, replay)):
        if a.get("winner") != "second":
            p.append("%s: after a winning move grundy query says %r" % (json.dumps(m), a.get("winner")))
    TAP.diag("%d winning moves replayed" % len(replay))
    return p if replay else ["no winning move was listed"]


def pages(ck, query, limit, by_url):
    """Every page of query, following the cursors; the entries and the
    cursors seen."""
    got, cursors, cursor = [], [], None
    for _ in range(200):
        if by_url:
            url = "?limit=%d" % limit + ("&cursor=%s" % cursor if cursor else "")
            r = ck.moves(query, url)
        else:
            r = ck.moves(dict(query, limit=limit, **({"cursor": cursor} if cursor else {})))
        if r.status != 200:
            raise RuntimeError("%s page at %r: %d %r" % (json.dumps(query), cursor, r.status, r.raw[:200]))
        got += r.json["moves"]
        cursor = r.json["cursor"]
        cursors.append(cursor)
        if cursor is None:
            return got, cursors, r.json["total"]
    raise RuntimeError("too many pages")


def t_paging(ck):
    """limit/cursor, in the body and in the URL, concatenate to the whole
    list; a cursor at the end gives an empty page, past it a 422."""
    p = []
    sample = [(q, a) for q, a in ck.checked if a["total"] >= 3][::25]
    for k, (q, a) in enumerate(sample):
        limit = 1 + k % 3
        for by_url in (False, True):
            got, cursors, total = pages(ck, q, limit, by_url)
            want_cursors = [str(c) for c in range(limit, total, limit)] + [None]
            if got != a["moves"] or cursors != want_cursors or total != a["total"]:
                p.append("%s limit %d (%s): pages %r, cursors %r" % (json.dumps(q), limit,
                         "URL" if by_url else "body", got, cursors))
        end = ck.moves(dict(q, cursor=str(a["total"])))
        if end.status != 200 or end.json["moves"] != [] or end.json["cursor"] is not None:
            p.append("%s: cursor at the end: %d %r" % (json.dumps(q), end.status, end.raw[:200]))
        past = ck.moves(dict(q, cursor=str(a["total"] + 1)))
        if past.status != 422 or past.json["error"]["field"] != "cursor":
            p.append("%s: cursor past the end: %d %r" % (json.dumps(q), past.status, past.raw[:200]))
    TAP.diag("%d positions paged" % len(sample))
    return p


# ---------------------------------------------------------------------------
# large positions


def star_query(n=6000):
    """A hub near 10^18 with n edges to ids just below 2^63, one edge back:
    2n + 1 moves."""
    hub = E18 + 3
    edges = [[hub, INT_MAX - k] for k in range(n)] + [[INT_MAX, hub]]
    return {"game": "graph", "edges": edges, "tokens": [hub, INT_MAX, hub]}


def big_grid_query():
    """100 x 100 squares, 63 distinct steps (64 given), 200 tokens: 200 x 63
    moves but for the tokens near an edge."""
    steps = [[dr, dc] for dr in range(-4, 4) for dc in range(-4, 4) if dr or dc] + [[1, 1]]
    tokens = [[4 + (7 * k) % 92, 4 + (13 * k) % 92] for k in range(196)] + [[0, 0], [99, 99], [0, 99], [2, 50]]
    return {"game": "grid", "rows": 100, "cols": 100, "steps": steps, "tokens": tokens}


def canonical_page(query, start, count):
    entries = []
    for m in brute.token_moves(query)[start:start + count]:
        i, frm, to = m
        text = "Move token %d from %s to %s." % (i, node_text(query["game"], frm), node_text(query["game"], to))
        entries.append(({"token": i, "from": brute.node_json(frm), "to": brute.node_json(to), "text": text},
                        brute.token_next(query, m)))
    return entries


def t_large(ck, query):
    total = len(brute.token_moves(query))
    p = []
    for start, limit in ((0, 4), (total // 2 - 1, 3), (6000, 2), (total - 2, 5)):
        t0 = time.monotonic()
        r = ck.moves(dict(query, cursor=str(start), limit=limit))
        dt = time.monotonic() - t0
        if r.status != 200:
            p.append("cursor %d: %d %r" % (start, r.status, r.raw[:300]))
            continue
        a = r.json
        want = canonical_page(query, start, limit)
        got = [(e["move"], e["next"]) for e in a["moves"]]
        nxt = start + len(want)
        if a["total"] != total or a["order"] != "canonical" or got != want \
                or a["cursor"] != (str(nxt) if nxt < total else None):
            p.append("cursor %d: total %r order %r cursor %r, moves %s; want total %d, moves %s"
                     % (start, a["total"], a["order"], a["cursor"], json.dumps(got)[:400], total,
                        json.dumps(want)[:400]))
        if any("winner" not in e for e in a["moves"]):
            p.append("cursor %d: outcomes missing: %r" % (start, a.get("note")))
        else:
            ck.large.append((query, a))
        if dt > 10:
            p.append("cursor %d took %.1f s" % (start, dt))
    TAP.diag("%s: %d moves" % (query["game"], total))
    return p


def t_cli_same(ck):
    """`grundy moves` answers byte for byte as POST /v1/moves."""
    p = []
    queries = [{"game": "graph", "edges": [[0, 1], [1, 0], [1, 2], [0, 1]], "tokens": [0, 1], "limit": 3},
               {"game": "grid", "rows": 3, "cols": 3, "steps": GRID_STEP_SETS[3], "tokens": [[1, 1]],
                "convention": "misere"},
               {"game": "grid", "tokens": [[7, 7], [3, 2]]},
               dict(star_query(2000), cursor="1999", limit=3)]  # a command line holds 128 KiB
    for q in queries:
        r = ck.moves(q)
        out = subprocess.run([ck.grundy, "moves", json.dumps(q)], capture_output=True, timeout=60)
        if out.stdout.rstrip(b"\n") != r.raw.rstrip(b"\n"):
            p.append("%s: CLI %r, HTTP %r" % (json.dumps(q)[:200], out.stdout[:300], r.raw[:300]))
    return p


# ---------------------------------------------------------------------------


def main():
    grundy, grundyd = sys.argv[1], sys.argv[2]
    rng = random.Random(20260601)

    def body():
        d = Daemon(grundyd, "--threads", "2")
        ck = Ctx(grundy, Client(d.port, timeout=60))
        TAP.run("graph: every digraph on 3 nodes, up to 3 tokens, moves and outcomes as brute force",
                t_graphs3, ck, "normal")
        TAP.run("graph: 2 nodes with self-loops, ids unordered and near 2^63, up to 3 tokens",
                t_graphs2_loops, ck, "normal")
        TAP.run("graph: repeated edges are one move each, isolated nodes", t_multigraphs, ck, rng)
        TAP.run("graph misere: every digraph on 3 nodes and on 2 with self-loops, one token",
                lambda: t_graphs3(ck, "misere") + t_graphs2_loops(ck, "misere"))
        TAP.run("grid: every board up to 3 x 3, five step sets, up to 2 tokens", t_grids, ck, "normal")
        TAP.run("grid misere: every board up to 3 x 3, five step sets, one token", t_grids, ck, "misere")
        TAP.diag("compared whole: %(positions)d positions, %(moves)d moves (after them: %(W)d won, "
                 "%(L)d lost, %(D)d drawn)" % ck.counts)
        TAP.run("compounds: selective, selective_proper, conjunctive on every acyclic digraph on 3 nodes",
                t_compounds, ck)
        TAP.run("misere of several tokens refused as by /v1/analyze",
                t_misere_refused, ck)
        TAP.run("paging by body and by URL concatenates to the whole list", t_paging, ck)
        TAP.run("graph: 12001 moves from ids near 2^63, canonical pages from any cursor",
                t_large, ck, star_query())
        TAP.run("grid: 100 x 100 board, 63 steps, 200 tokens, canonical pages from any cursor",
                t_large, ck, big_grid_query())
        TAP.run("every listed outcome agrees with grundy query on {...request, ...next}", t_outcomes_cli, ck)
        TAP.run("every winning move replayed: a loss for the opponent", t_replays, ck)
        TAP.run("grundy moves answers as POST /v1/moves", t_cli_same, ck)

    return run_main(TAP, "test_moves_tokens.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
