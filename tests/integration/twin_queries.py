# SPDX-License-Identifier: MIT
"""The queries of the writer's twin (test_twin.py, scripts/record-twin.py):
every catalogue example, then COUNT seeded random positions of each game, in
a fixed order. The record holds the hash of the query lines, and the test
checks it first: Python promises the same random() sequence for a seed, not
the same randint() or sample() in every version, and a drift must read as
that, not as a writer fault."""
import hashlib
import json
import random
import subprocess

import brute

SEED = 2026
COUNT = 2000
BIG = 10**18


def size(r, small=24):
    """Mostly small sizes (the options are listed), some near 10^18."""
    return r.randint(0, BIG) if r.random() < 0.25 else r.randint(0, small)


def sums(r, query, misere=0.2, compound=0.15):
    """A convention or a compound on some of the heap sums."""
    roll = r.random()
    if roll < misere:
        query["convention"] = "misere"
    elif roll < misere + compound:
        query["compound"] = r.choice(["selective", "selective_proper", "conjunctive"])
    return query


def nim(r):
    return sums(r, {"game": "nim", "piles": [size(r) for _ in range(r.randint(1, 5))]})


def subtraction(r):
    moves = sorted(r.sample(range(1, 10), r.randint(1, 4)))
    return sums(r, {"game": "subtraction", "moves": moves,
                    "piles": [size(r, 30) for _ in range(r.randint(1, 4))]})


def staircase(r):
    return {"game": "staircase", "stairs": [size(r, 12) for _ in range(r.randint(1, 6))]}


def wythoff(r):
    return {"game": "wythoff", "piles": [size(r, 30), size(r, 30)]}


def fibonacci(r):
    n = r.randint(1, BIG) if r.random() < 0.25 else r.randint(1, 200)
    return {"game": "fibonacci", "n": n, "limit": r.randint(1, min(n, 400))}


def divisor(r):
    return {"game": "divisor", "n": r.randint(1, 10**6) if r.random() < 0.3 else r.randint(1, 300)}


# Codes whose answers are the same from the sanitizer builds' small table file
# (0.16's period, from heap 105351, needs the default one).
OCTAL_CODES = ["0.77", "0.07", "0.137", "0.7", "0.6", "0.31", "0.51", "0.37", "4.7"]


def small_when_hard(query, top=16):
    """Misere sums and compounds of heap games are searched directly where
    no quotient or period covers them: their heaps are kept small, so that
    every query is answered within the default budget."""
    if "convention" in query or "compound" in query:
        query["piles"] = [[min(p[0], top), p[1]] if isinstance(p, list) else min(p, top)
                          for p in query["piles"]]
    return query


def octal(r):
    code = r.choice(OCTAL_CODES)
    big = code in ("0.77", "0.07", "0.137", "0.7")  # certified periods
    piles = [size(r, 40) if big else r.randint(0, 40) for _ in range(r.randint(1, 3))]
    splits = any(int(d) & 4 for d in code.replace(".", ""))
    query = sums(r, {"game": "octal", "code": code, "piles": piles}, compound=0.0 if splits else 0.15)
    return small_when_hard(query)


def grundys_game(r):
    query = sums(r, {"game": "grundys_game", "piles": [r.randint(0, 60) for _ in range(r.randint(1, 3))]},
                 compound=0.0)
    return small_when_hard(query, top=24)


def strange_nim(r):
    return small_when_hard(sums(r, {"game": "strange_nim",
                                       "piles": [[size(r, 40), r.randint(1, 9)] for _ in range(r.randint(1, 3))]},
                                   misere=0.0), top=40)


def graph(r):
    n = r.randint(1, 9)
    acyclic = r.random() < 0.6
    edges = [[u, v] for u in range(n) for v in range(n)
             if u != v and (u < v or not acyclic) and r.random() < 0.3]
    tokens = [r.randrange(n) for _ in range(r.randint(1, 3))]
    query = {"game": "graph", "nodes": n, "edges": edges, "tokens": tokens}
    if len(tokens) == 1 and r.random() < 0.3:
        query["convention"] = "misere"
    elif acyclic and r.random() < 0.15:
        query["compound"] = r.choice(["selective", "selective_proper", "conjunctive"])
    return query


def grid(r):
    rows, cols = r.randint(1, 7), r.randint(1, 7)
    steps = [[-1, 0], [0, -1]] if r.random() < 0.5 else \
        [list(s) for s in r.sample([(-1, 0), (0, -1), (-1, -1), (-2, 1), (1, -2), (0, 1), (-1, 1)],
                                   r.randint(1, 4))]
    tokens = [[r.randrange(rows), r.randrange(cols)] for _ in range(r.randint(1, 3))]
    query = {"game": "grid", "rows": rows, "cols": cols, "steps": steps, "tokens": tokens}
    if len(tokens) == 1 and r.random() < 0.3:
        query["convention"] = "misere"
    return query


def coins(r):
    top = BIG if r.random() < 0.2 else 40
    heads = sorted(set(r.randint(1 if top == 40 else 0, top) for _ in range(r.randint(0, 5))))
    return {"game": "coins", "rule": r.choice(["turning_turtles", "mock_turtles", "ruler"]), "heads": heads}


def board(r, cells, k_rows):
    """A board reached by random play that stops before or at a finished
    game: X moves first, so the counts decide the side to move."""
    cells = list(cells)
    free = [i for i, c in enumerate(cells) if c == "."]
    r.shuffle(free)
    for turn, i in enumerate(free[:r.randint(0, len(free))]):
        cells[i] = "XO"[turn % 2]
        if k_rows(cells):
            break
    return "".join(cells)


def finished(rows, cols, k):
    every = brute.mnk_lines(rows, cols, k)
    return lambda cells: brute.mnk_has_line(cells, "X", every) or brute.mnk_has_line(cells, "O", every)


def tictactoe(r):
    return {"game": "tictactoe", "board": board(r, "." * 9, finished(3, 3, 3))}


def mnk(r):
    rows, cols = r.randint(1, 4), r.randint(1, 4)
    k = r.randint(1, max(rows, cols))
    full = board(r, "." * (rows * cols), finished(rows, cols, k))
    return {"game": "mnk", "rows": rows, "cols": cols, "k": k, "board": full}


def stone_row(r):
    return {"game": "stone_row", "stones": [r.randint(0, 50) for _ in range(r.randint(1, 12))]}


def stone_prefix(r):
    return {"game": "stone_prefix", "stones": [r.randint(0, 50) for _ in range(r.randint(1, 14))],
            "m": r.randint(1, 3)}


def stone_front3(r):
    return {"game": "stone_front3", "stones": [r.randint(-30, 30) for _ in range(r.randint(1, 14))]}


def can_i_win(r):
    top = r.randint(1, 12)
    used = sorted(r.sample(range(1, top + 1), r.randint(0, min(top, 4))))
    return {"game": "can_i_win", "max_choosable": top, "desired_total": r.randint(1, 60), "used": used}


GAMES = [nim, subtraction, staircase, wythoff, fibonacci, divisor, octal, grundys_game, strange_nim,
         graph, grid, coins, tictactoe, mnk, stone_row, stone_prefix, stone_front3, can_i_win]


def queries(catalogue_examples, count=COUNT):
    """The twin's queries: the catalogue's examples first (GET /v1/games),
    then count random positions of each game, game by game."""
    out = list(catalogue_examples)
    for make in GAMES:
        r = random.Random("%d %s" % (SEED, make.__name__))
        out.extend(make(r) for _ in range(count))
    return out


BUDGET_NOTE = "the positions after some moves were not answered within the compute budget"


def query_lines(queries):
    return "".join(json.dumps(q, separators=(",", ":")) + "\n" for q in queries)


def queries_digest(queries):
    return hashlib.sha256(query_lines(queries).encode()).hexdigest()


def strict_parse(line):
    """An answer line parsed with every object's members unique: a member
    written twice is a writer fault that a plain parse would hide."""
    def unique(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError("a member written twice: %s" % sorted(k for k in keys if keys.count(k) > 1))
        return dict(pairs)
    return json.loads(line, object_pairs_hook=unique)


def projection(answer, marks):
    """What the twin compares of an answer: its whole parse, but only the
    first marks["explanation"] characters of its explanation, and no
    winning_moves member when marks["winning"] says the old search ran out of
    budget (today's evaluates the positions in memory and finds more of
    them; these answers' winning moves are checked by no other test)."""
    answer = dict(answer)
    if marks.get("winning") == "budget":
        answer.pop("winning_moves", None)
    if "explanation" in marks and "explanation" in answer:
        answer["explanation"] = answer["explanation"][:int(marks["explanation"])]
    return answer


def digest(answer, marks):
    """The hash of an answer's parse, projected: members in any order,
    integers exact."""
    canonical = json.dumps(projection(answer, marks), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def read_marks(fields):
    """A record line's marks: "key:value" words after the hash."""
    return dict(f.split(":", 1) for f in fields)


def catalogue_examples(grundy):
    """The example query of each game, as `grundy games --json` lists them."""
    out = subprocess.run([grundy, "games", "--json"], capture_output=True, encoding="utf-8", check=True).stdout
    return [g["example"] for g in json.loads(out)["games"]]


def answer_lines(grundy, tables, queries):
    """`grundy batch -` over the queries: the finished process (its stdout
    one answer line per query)."""
    return subprocess.run([grundy, "batch", "--tables", tables, "-"], input=query_lines(queries),
                          capture_output=True, encoding="utf-8", timeout=240)
