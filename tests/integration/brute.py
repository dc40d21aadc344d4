# SPDX-License-Identifier: MIT
"""Independent brute-force solvers for the grundyd integration tests.

Written from the rules in docs/api.md (and the facts in references.md), not
from the C code. Every solver is a plain memoised mex (Sprague-Grundy) or
win/loss search over small positions, or for the score games (tictactoe,
mnk, stone_row, stone_prefix, stone_front3, can_i_win) a plain memoised
minimax / score recursion over every move; nothing here uses a closed formula
except where a function's name says so (wythoff_a, *_periodic_value), and
those formulas are themselves checked against the brute force in the tests.

Queries are the request dicts sent to POST /v1/analyze. Main entry points:

    solve(query)            -> Result(winner, grundy, components[, value]) or
                               raises Cycle / IllegalPosition / ValueError for
                               queries brute force cannot or should not answer
                               (score games: grundy None, components [],
                               value from the mover's point of view)
    legal_next(query)       -> list of `next` dicts reachable by one move,
                               in the request's own field names (small only)
    check_move(query, nxt)  -> None if `nxt` is one legal move away from the
                               request, else a string saying why not; works
                               for huge integers (no enumeration)
    merge(query, nxt)       -> {**query, **nxt}

Tokens on a board (graph, grid), cycles and misere play included:

    token_board(query)      -> (succ, tokens): each node's successors, one
                               per edge or distinct step, in board order
    token_moves(query)      -> [(token, from, to)] in the order POST
                               /v1/moves lists them (canonical order)
    TokenGame(succ, misere) -> outcome() 'W' / 'L' / 'D' by retrograde
                               analysis of the whole sum, value() the
                               sum's (Smith) value or None when infinite
    solve_tokens(query)     -> Result for graph and grid, any graph

Python 3 standard library only.
"""

import math
import sys
from collections import deque
from functools import lru_cache

sys.setrecursionlimit(20000)

INT_MAX = 2**63 - 1


class Cycle(Exception):
    """The graph of a graph query has a directed cycle."""


class IllegalPosition(ValueError):
    """A tic-tac-toe / m,n,k board that play from the empty board cannot reach."""


class Result:
    def __init__(self, winner, grundy, components, value=None):
        self.winner = winner          # "first" / "second" / "draw"
        self.grundy = grundy          # int, or None (misere, score games)
        self.components = components  # list of ints (per pile / stair / token)
        self.value = value            # score games: int for the mover, else None

    def __repr__(self):
        if self.value is not None:
            return "Result(%r, %r, %r, value=%r)" % (self.winner, self.grundy, self.components, self.value)
        return "Result(%r, %r, %r)" % (self.winner, self.grundy, self.components)


def mex(values):
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def as_int(v):
    """A count as the service reads it: a JSON int or a decimal string."""
    if isinstance(v, bool):
        raise ValueError("bool")
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.isdigit() and v.isascii():
        return int(v)
    raise ValueError("not an integer: %r" % (v,))


def ints(lst):
    return [as_int(v) for v in lst]


def merge(query, nxt):
    out = dict(query)
    out.update(nxt)
    return out


# ---------------------------------------------------------------------------
# Single-heap rules (moves from a heap of size n to a tuple of heaps)

def nim_heap_options(n):
    """Nim: take any positive number from the heap."""
    return [((n - t,) if n - t > 0 else ()) for t in range(1, n + 1)]


def subtraction_heap_options(n, moves):
    return [((n - s,) if n - s > 0 else ()) for s in sorted(set(moves)) if 1 <= s <= n]


def parse_octal(code):
    """'0.d1d2...' or '4.d1d2...' -> {k: digit} (d0 = 4: split a heap in two
    without removing a token, k = 0)."""
    if not isinstance(code, str) or code[:2] not in ("0.", "4.") or len(code) < 3:
        raise ValueError("bad octal code %r" % (code,))
    digits = {0: 4} if code[0] == "4" else {}
    for k, ch in enumerate(code[2:], start=1):
        if ch not in "01234567":
            raise ValueError("bad octal digit in %r" % (code,))
        if ch != "0":
            digits[k] = int(ch)
    if not digits:
        raise ValueError("all-zero octal code")
    return digits


def octal_heap_options(n, digits):
    """Digit k, bit 1: remove k when that is the whole heap; bit 2: remove k
    leaving one (non-empty) heap; bit 4: remove k leaving two non-empty heaps
    (k = 0 too: a split of the whole heap)."""
    out = []
    for k, d in digits.items():
        if k > n:
            continue
        rest = n - k
        if d & 1 and rest == 0:
            out.append(())
        if d & 2 and rest >= 1:
            out.append((rest,))
        if d & 4 and rest >= 2:
            for a in range(1, rest // 2 + 1):
                out.append((a, rest - a))
    return out


def grundys_game_heap_options(n):
    """Split a heap into two non-empty heaps of different sizes."""
    return [(a, n - a) for a in range(1, (n + 1) // 2) if a != n - a]


def heap_values(options_fn, upto, g=None):
    """g(0..upto) for a heap game given by options_fn(n) -> list of tuples;
    extends the list g in place when given."""
    g = [] if g is None else g
    for n in range(len(g), upto + 1):
        opts = []
        for tup in options_fn(n):
            x = 0
            for h in tup:
                x ^= g[h]
            opts.append(x)
        g.append(mex(opts))
    return g


_VALUES = {}


def _cached_values(key, options_fn, upto):
    """Values of one heap game, computed once and extended on demand."""
    g = _VALUES.setdefault(key, [])
    if len(g) <= upto:
        heap_values(options_fn, upto, g)
    return g[:upto + 1]


def subtraction_values(moves, upto):
    moves = tuple(sorted(set(moves)))
    return _cached_values(("subtraction", moves), lambda n: subtraction_heap_options(n, moves), upto)


def octal_values(code, upto):
    digits = parse_octal(code)
    return _cached_values(("octal", code), lambda n: octal_heap_options(n, digits), upto)


def grundys_game_values(upto):
    # O(n^2) plain mex; fine up to a few thousand.
    g = _VALUES.setdefault(("grundys_game",), [])
    for n in range(len(g), upto + 1):
        seen = set()
        for a in range(1, (n + 1) // 2):
            seen.add(g[a] ^ g[n - a])
        g.append(mex(seen))
    return g[:upto + 1]


def nim_values(upto):
    return heap_values(nim_heap_options, upto)


# ---------------------------------------------------------------------------
# Periodicity from brute-force values

def find_period(g, certificate_len):
    """Least period p and least preperiod s (given p) such that
    g[n + p] == g[n] for s <= n < len(g) - p, with at least certificate_len(s, p)
    values computed. Returns (s, p) or None."""
    N = len(g)
    for p in range(1, N // 2):
        # least s such that the tail from s is p-periodic within the data
        s = N - p
        while s > 0 and g[s - 1] == g[s - 1 + p]:
            s -= 1
        if N >= certificate_len(s, p):
            return s, p
    return None


def subtraction_period(moves, upto=3000):
    """(preperiod, period) from brute-force values; the window certificate of
    references.md: equal windows of length max(S) at s and s + p."""
    m = max(moves)
    g = subtraction_values(moves, upto)
    return find_period(g, lambda s, p: s + p + m + 1)


def octal_period(code, upto=1000):
    """(preperiod, period) with the octal certificate
    N >= max(2s + 2p + t - 1, p + t + 1) (N = number of values known)."""
    t = max(parse_octal(code))
    g = octal_values(code, upto)
    return find_period(g, lambda s, p: max(2 * s + 2 * p + t - 1, p + t + 1))


def periodic_value(g, s, p, n):
    """g(n) for any n given brute values g (len > s + p) with period (s, p)."""
    if n < len(g):
        return g[n]
    return g[s + (n - s) % p]


# ---------------------------------------------------------------------------
# Sums of heaps: whole-position mex (for cross-checking the XOR rule) and
# misere win/loss.

def whole_position_grundy(piles, options_fn):
    """Grundy value of a sum of heaps by mex over whole positions (no XOR
    rule). Small positions only."""
    @lru_cache(maxsize=None)
    def g(state):
        opts = []
        for i, h in enumerate(state):
            for tup in options_fn(h):
                nxt = tuple(sorted(state[:i] + tuple(tup) + state[i + 1:]))
                opts.append(g(nxt))
        return mex(opts)
    return g(tuple(sorted(p for p in piles if p > 0)))


@lru_cache(maxsize=None)
def _misere_nim_win(state):
    # The player who cannot move WINS.
    moves = []
    for i, h in enumerate(state):
        for t in range(1, h + 1):
            nxt = tuple(sorted(x for x in state[:i] + (h - t,) + state[i + 1:] if x > 0))
            moves.append(nxt)
    if not moves:
        return True
    return any(not _misere_nim_win(m) for m in moves)


def misere_nim_win(piles):
    return _misere_nim_win(tuple(sorted(p for p in piles if p > 0)))


# ---------------------------------------------------------------------------
# Staircase: whole-position mex over tuples (order matters).

@lru_cache(maxsize=None)
def _staircase_grundy(stairs):
    opts = []
    for i in range(1, len(stairs)):
        for c in range(1, stairs[i] + 1):
            s = list(stairs)
            s[i] -= c
            s[i - 1] += c
            opts.append(_staircase_grundy(tuple(s)))
    return mex(opts)


def staircase_grundy(stairs):
    # stair 0 never matters for play; normalise it to 0 to share the memo
    s = list(stairs)
    if s:
        s[0] = 0
    return _staircase_grundy(tuple(s))


# ---------------------------------------------------------------------------
# Wythoff

@lru_cache(maxsize=None)
def wythoff_table(size):
    """g[x][y] for 0 <= x, y <= size by mex over all moves."""
    g = [[0] * (size + 1) for _ in range(size + 1)]
    for x in range(size + 1):
        for y in range(size + 1):
            opts = set()
            for t in range(1, x + 1):
                opts.add(g[x - t][y])
            for t in range(1, y + 1):
                opts.add(g[x][y - t])
            for t in range(1, min(x, y) + 1):
                opts.add(g[x - t][y - t])
            g[x][y] = mex(opts)
    return g


def wythoff_a(k):
    """a_k = floor(k * phi), exact: (k + isqrt(5 k^2)) // 2."""
    return (k + math.isqrt(5 * k * k)) // 2


def wythoff_is_p(x, y):
    lo, hi = min(x, y), max(x, y)
    return lo == wythoff_a(hi - lo)


# ---------------------------------------------------------------------------
# Fibonacci nim: state (n, q), q = most the mover may take.

@lru_cache(maxsize=None)
def fibonacci_grundy(n, q):
    q = min(q, n)
    return mex(fibonacci_grundy(n - t, 2 * t) for t in range(1, q + 1))


def zeckendorf(n):
    fibs = [1, 2]
    while fibs[-1] <= n:
        fibs.append(fibs[-1] + fibs[-2])
    out = []
    for f in reversed(fibs):
        if f <= n:
            out.append(f)
            n -= f
    return out


# ---------------------------------------------------------------------------
# Divisor game

@lru_cache(maxsize=None)
def divisor_values(upto):
    g = [0] * (upto + 1)
    for n in range(1, upto + 1):
        g[n] = mex(g[n - x] for x in range(1, n) if n % x == 0)
    return g


# ---------------------------------------------------------------------------
# Coin turning: a row numbered from 1 at the left; a position is its set of
# heads. A move turns over a set of coins whose rightmost goes heads -> tails.

COIN_RULES = ("turning_turtles", "mock_turtles", "ruler")


def coin_turn_sets(rule, p):
    """The sets of coins a move at head p turns over (p last), in the order
    the moves are listed: turtles and mock turtles turn p alone, then with one
    coin c < p (c ascending), then (mock turtles) with two coins a < b < p
    (lexicographic); the ruler turns a run a..p, shortest first."""
    if rule == "turning_turtles":
        return [(p,)] + [(c, p) for c in range(1, p)]
    if rule == "mock_turtles":
        return [(p,)] + [(c, p) for c in range(1, p)] + \
            [(a, b, p) for a in range(1, p) for b in range(a + 1, p)]
    if rule == "ruler":
        return [tuple(range(a, p + 1)) for a in range(p, 0, -1)]
    raise ValueError("unknown coin rule %r" % (rule,))


@lru_cache(maxsize=None)
def coin_values(rule, length):
    """Grundy value of every head set within coins 1..length, indexed by the
    bitmask (bit p - 1 for coin p), by mex: every move lowers the mask."""
    flips = {p: [sum(1 << (c - 1) for c in turned) for turned in coin_turn_sets(rule, p)]
             for p in range(1, length + 1)}
    g = [0] * (1 << length)
    for mask in range(1, 1 << length):
        seen = set()
        for p in range(1, length + 1):
            if mask >> (p - 1) & 1:
                seen.update(g[mask ^ f] for f in flips[p])
        g[mask] = mex(seen)
    return g


COINS_MAX_LENGTH = 12


def coins_grundy(rule, heads):
    """Coins to the right of every head never turn, so the value of a head
    set is the same in any row that holds it."""
    length = max(heads, default=0)
    if length > COINS_MAX_LENGTH:
        raise ValueError("coin rows longer than %d are beyond brute force" % COINS_MAX_LENGTH)
    table = coin_values(rule, max(8, length))
    return table[sum(1 << (p - 1) for p in heads)]


# ---------------------------------------------------------------------------
# Graph games

def graph_grundy(edges, nodes=None):
    """{node: grundy} for every node named in edges (others are terminal: 0).
    Raises Cycle if any directed cycle exists."""
    succ = {}
    for u, v in edges:
        succ.setdefault(u, []).append(v)
        succ.setdefault(v, [])
    if nodes is not None:
        for v in range(nodes):
            succ.setdefault(v, [])
    value = {}
    state = {}  # 1 = on stack, 2 = done
    for root in succ:
        if root in state:
            continue
        stack = [(root, iter(succ[root]))]
        state[root] = 1
        while stack:
            u, it = stack[-1]
            advanced = False
            for v in it:
                st = state.get(v)
                if st == 1:
                    raise Cycle("cycle through %r" % (v,))
                if st is None:
                    state[v] = 1
                    stack.append((v, iter(succ[v])))
                    advanced = True
                    break
            if not advanced:
                value[u] = mex(value[v] for v in succ[u])
                state[u] = 2
                stack.pop()
    return value


# ---------------------------------------------------------------------------
# Tokens on a board: graph (edges) and grid (steps on rows x cols squares).
# Nodes are the client's ids (graph) or (row, col) tuples (grid).

GRID_DEFAULT_STEPS = [(-2, 1), (-2, -1), (1, -2), (-1, -2)]


def _graph_board(query):
    succ = {}
    for u, v in (tuple(ints(e)) for e in query["edges"]):
        succ.setdefault(u, []).append(v)  # an edge given twice is two moves
        succ.setdefault(v, [])
    if query.get("nodes") is not None:
        for v in range(as_int(query["nodes"])):
            succ.setdefault(v, [])
    tokens = ints(query["tokens"])
    for t in tokens:
        succ.setdefault(t, [])
    return succ, tokens


def _grid_board(query):
    rows = as_int(query["rows"]) if query.get("rows") is not None else 15
    cols = as_int(query["cols"]) if query.get("cols") is not None else 15
    steps = []
    for st in (query["steps"] if query.get("steps") is not None else GRID_DEFAULT_STEPS):
        st = (int(st[0]), int(st[1]))
        if st not in steps:  # repeats are ignored
            steps.append(st)
    succ = {}
    for r in range(rows):
        for c in range(cols):
            succ[(r, c)] = [(r + dr, c + dc) for dr, dc in steps
                            if 0 <= r + dr < rows and 0 <= c + dc < cols]
    return succ, [tuple(ints(t)) for t in query["tokens"]]


def token_board(query):
    """(succ, tokens) of a graph or grid query: succ[node] lists the node's
    successors in board order (graph: edges in request order, repeats kept;
    grid: steps in request order, repeats dropped, off-board ones left out)."""
    return _graph_board(query) if query["game"] == "graph" else _grid_board(query)


def node_json(node):
    return list(node) if isinstance(node, tuple) else node


def token_moves(query):
    """Every move as (token index, from node, to node), token by token in
    request order, each token's successors in board order."""
    succ, tokens = token_board(query)
    return [(i, t, v) for i, t in enumerate(tokens) for v in succ[t]]


def token_next(query, move):
    i, _, v = move
    tokens = [node_json(t) for t in token_board(query)[1]]
    tokens[i] = node_json(v)
    return {"tokens": tokens}


def retro(starts, succ, misere=False):
    """Retrograde analysis of every state reachable from `starts`: outcome
    'W' / 'L' / 'D' for the player to move and the remoteness of W and L."""
    succs = {}
    dq = deque()
    for s in starts:
        if s not in succs:
            succs[s] = None
            dq.append(s)
    while dq:
        s = dq.popleft()
        ss = list(succ(s))
        succs[s] = ss
        for t in ss:
            if t not in succs:
                succs[t] = None
                dq.append(t)
    preds = {s: [] for s in succs}
    left = {}
    res, depth = {}, {}
    queue = deque()
    for s, ss in succs.items():
        left[s] = len(ss)
        for t in ss:
            preds[t].append(s)
        if not ss:
            res[s] = "W" if misere else "L"
            depth[s] = 0
            queue.append(s)
    while queue:
        t = queue.popleft()
        for s in preds[t]:
            if s in res:
                continue
            if res[t] == "L":
                res[s] = "W"
                depth[s] = depth[t] + 1
                queue.append(s)
            else:
                left[s] -= 1
                if left[s] == 0:
                    res[s] = "L"
                    depth[s] = depth[t] + 1
                    queue.append(s)
    for s in succs:
        res.setdefault(s, "D")
    return res, depth


def retrograde(starts, succ, misere=False):
    """The outcomes of retro() alone: 'W' / 'L' / 'D' for the player to move
    of every state reachable from `starts`."""
    return retro(starts, succ, misere)[0]


class TokenGame:
    """The disjunctive sum of tokens on one board, plus an optional nim heap
    (for values): states (sorted tokens, heap). Misere play: the player who
    cannot move wins (with the heap at 0)."""

    def __init__(self, succ, misere=False):
        self.succ = succ
        self.misere = misere
        self.res = {}
        deg = max((len(set(v)) for v in succ.values()), default=0)
        self.value_bound = 1 << deg.bit_length()  # every finite value is <= the out-degree

    def _moves(self, state):
        tokens, h = state
        for i, t in enumerate(tokens):
            for v in self.succ[t]:
                yield (tuple(sorted(tokens[:i] + (v,) + tokens[i + 1:])), h)
        for k in range(h):
            yield (tokens, k)

    def outcome(self, tokens, heap=0):
        s = (tuple(sorted(tokens)), heap)
        if s not in self.res:
            self.res.update(retrograde([s], self._moves, self.misere))
        return self.res[s]

    def value(self, tokens):
        """The sum's value under normal play: the g for which the sum plus a
        nim heap of g is a loss (Smith: there is one exactly when every
        token's value is finite), or None."""
        for g in range(self.value_bound):
            if self.outcome(tokens, g) == "L":
                return g
        return None


def solve_tokens(query):
    """Result(winner, grundy, None) of a graph or grid query, cycles allowed;
    grundy None under misere play or when some token's value is infinite."""
    misere = (query.get("convention") or "normal") == "misere"
    succ, tokens = token_board(query)
    game = TokenGame(succ, misere)
    winner = {"W": "first", "L": "second", "D": "draw"}[game.outcome(tokens)]
    return Result(winner, None if misere else game.value(tokens), None)


# ---------------------------------------------------------------------------
# Score games (not impartial: no Grundy values). Every value is from the point
# of view of the player to move, with best play by both.

# ---- tic-tac-toe and m,n,k-games -------------------------------------------
# A rows x cols board as a row-major string of 'X', 'O', '.'; X moves first
# (X to move when the counts are equal); the first to own k cells in a row
# (row, column or either diagonal) wins; a full board without one is a draw.

MNK_MAX_CELLS = 64


@lru_cache(maxsize=None)
def mnk_lines(rows, cols, k):
    """Every k-in-a-row as a tuple of cell indices."""
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= er < rows and 0 <= ec < cols:
                    out.append(tuple((r + dr * i) * cols + c + dc * i for i in range(k)))
    return tuple(out)


def mnk_has_line(board, mark, lines):
    return any(all(board[i] == mark for i in line) for line in lines)


def mnk_rules(query):
    """(rows, cols, k) of a tictactoe or mnk query; ValueError outside the rules."""
    if query["game"] == "tictactoe":
        return 3, 3, 3
    rows, cols, k = as_int(query["rows"]), as_int(query["cols"]), as_int(query["k"])
    if not (1 <= rows and 1 <= cols and rows * cols <= MNK_MAX_CELLS and 1 <= k <= max(rows, cols)):
        raise ValueError("bad m,n,k rules %r" % ((rows, cols, k),))
    return rows, cols, k


def mnk_to_move(board):
    return "X" if board.count("X") == board.count("O") else "O"


def mnk_illegal(rows, cols, k, board):
    """None when board is reachable by play from the empty board (stopping at
    the first line), else why not. Written from reachability: a board with no
    line anywhere and X count = O count (+ 1) is reachable (play its marks in
    any alternating order: lines only grow, so no earlier board has one);
    a board with a line is reachable iff removing one mark of the player who
    moved last leaves such a line-free board (the move that ended the game)."""
    if not isinstance(board, str):
        return "board is not a string"
    if len(board) != rows * cols:
        return "board has %d cells, not %d" % (len(board), rows * cols)
    if set(board) - set("XO."):
        return "board has characters other than X, O and ."
    nx, no = board.count("X"), board.count("O")
    if nx - no not in (0, 1):
        return "counts X %d, O %d" % (nx, no)
    lines = mnk_lines(rows, cols, k)
    if not mnk_has_line(board, "X", lines) and not mnk_has_line(board, "O", lines):
        return None
    last = "X" if nx > no else "O"
    for i, ch in enumerate(board):
        if ch == last:
            before = board[:i] + "." + board[i + 1:]
            if not mnk_has_line(before, "X", lines) and not mnk_has_line(before, "O", lines):
                return None
    return "no single last move by %s explains the lines on the board" % last


_MNK_MEMO = {}


def mnk_value(rows, cols, k, board):
    """+1 / 0 / -1 for the player to move, by plain memoised minimax over
    every move (no symmetry, no pruning beyond stopping at a win)."""
    lines = mnk_lines(rows, cols, k)
    memo = _MNK_MEMO.setdefault((rows, cols, k), {})

    def v(b):
        got = memo.get(b)
        if got is not None:
            return got
        mover = mnk_to_move(b)
        prev = "O" if mover == "X" else "X"
        if mnk_has_line(b, prev, lines):
            res = -1
        elif "." not in b:
            res = 0
        else:
            res = -1
            for i, ch in enumerate(b):
                if ch == ".":
                    res = max(res, -v(b[:i] + mover + b[i + 1:]))
                    if res == 1:
                        break
        memo[b] = res
        return res
    return v(board)


def mnk_over(rows, cols, k, board):
    lines = mnk_lines(rows, cols, k)
    return "." not in board or mnk_has_line(board, "X", lines) or mnk_has_line(board, "O", lines)


def mnk_reachable(rows, cols, k):
    """Every board reachable from the empty one by play that stops at the
    first line (a set of strings; small boards only)."""
    start = "." * (rows * cols)
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for b in frontier:
            if mnk_over(rows, cols, k, b):
                continue
            mover = mnk_to_move(b)
            for i, ch in enumerate(b):
                if ch == ".":
                    c = b[:i] + mover + b[i + 1:]
                    if c not in seen:
                        seen.add(c)
                        nxt.append(c)
        frontier = nxt
    return seen


# ---- stone games ---------------------------------------------------------------

def stone_row_value(stones):
    """Take the first or the last pile: best (own - opponent's) total."""
    s = list(stones)

    @lru_cache(maxsize=None)
    def f(i, j):  # piles s[i:j]
        if i >= j:
            return 0
        return max(s[i] - f(i + 1, j), s[j - 1] - f(i, j - 1))
    return f(0, len(s))


def stone_prefix_value(stones, m):
    """Take the first x piles, 1 <= x <= 2M, then M = max(M, x): the most
    stones the mover collects from the rest (the opponent gets the others)."""
    s = list(stones)
    n = len(s)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + s[i]

    @lru_cache(maxsize=None)
    def f(i, m):
        if i >= n:
            return 0
        best = None
        for x in range(1, min(2 * m, n - i) + 1):
            got = (suffix[i] - suffix[i + x]) + (suffix[i + x] - f(i + x, min(max(m, x), n)))
            best = got if best is None else max(best, got)
        return best
    return f(0, min(m, max(n, 1)))


def stone_front3_value(stones):
    """Take 1, 2 or 3 piles from the front (signed piles): best difference."""
    s = list(stones)
    n = len(s)
    f = [0] * (n + 1)  # f[i]: the best difference for the mover on s[i:]
    for i in range(n - 1, -1, -1):
        f[i] = max(sum(s[i:i + t]) - f[i + t] for t in range(1, min(3, n - i) + 1))
    return f[0]


# ---- Can I Win -------------------------------------------------------------------
# Numbers 1..M; the running total starts at the sum of the used ones; players
# alternately pick an unused number; whoever brings the total to >= T wins.
# At the start, a total already >= T means the previous mover won (-1); no
# number left (without reaching T) is a draw (0).

CAN_I_WIN_MAX = 20


def can_i_win_value(max_choosable, desired_total, used):
    M, T = max_choosable, desired_total

    @lru_cache(maxsize=None)
    def f(mask):
        total = sum(v for v in range(1, M + 1) if mask >> (v - 1) & 1)
        if total >= T:
            return -1
        best = None
        for p in range(1, M + 1):
            if mask >> (p - 1) & 1:
                continue
            r = 1 if total + p >= T else -f(mask | 1 << (p - 1))
            best = r if best is None else max(best, r)
            if best == 1:
                break
        return 0 if best is None else best
    mask = 0
    for u in used:
        mask |= 1 << (u - 1)
    return f(mask)


def can_i_win_query(query):
    """(M, T, used) of a can_i_win query; ValueError outside the rules."""
    M, T = as_int(query["max_choosable"]), as_int(query["desired_total"])
    used = ints(query.get("used") or [])
    if not 1 <= M <= CAN_I_WIN_MAX:
        raise ValueError("max_choosable %d" % M)
    if len(set(used)) != len(used) or any(not 1 <= u <= M for u in used):
        raise ValueError("used %r" % (used,))
    return M, T, used


def _sign_winner(v):
    return "first" if v > 0 else "second" if v < 0 else "draw"


def stone_prefix_m(query):
    m = as_int(query["m"]) if query.get("m") is not None else 1
    if m < 1:
        raise ValueError("m >= 1")
    return m


def solve_score(query):
    """Result(winner, None, [], value) for the score games, or None when the
    query is not one of them."""
    game = query["game"]
    if game in ("tictactoe", "mnk"):
        rows, cols, k = mnk_rules(query)
        board = query["board"]
        why = mnk_illegal(rows, cols, k, board)
        if why:
            raise IllegalPosition(why)
        v = mnk_value(rows, cols, k, board)
        return Result(_sign_winner(v), None, [], v)
    if game == "stone_row":
        v = stone_row_value(ints(query["stones"]))
        return Result(_sign_winner(v), None, [], v)
    if game == "stone_prefix":
        stones = ints(query["stones"])
        v = stone_prefix_value(stones, stone_prefix_m(query))
        return Result(_sign_winner(2 * v - sum(stones)), None, [], v)
    if game == "stone_front3":
        stones = [int(x) for x in query["stones"]]
        v = stone_front3_value(stones)
        return Result(_sign_winner(v), None, [], v)
    if game == "can_i_win":
        M, T, used = can_i_win_query(query)
        v = can_i_win_value(M, T, used)
        return Result(_sign_winner(v), None, [], v)
    return None


SCORE_GAMES = ("tictactoe", "mnk", "stone_row", "stone_prefix", "stone_front3", "can_i_win")


# ---------------------------------------------------------------------------
# solve(): the brute-force answer for a (small) query

def _xor(vals):
    x = 0
    for v in vals:
        x ^= v
    return x


def _round_up(n):
    """Table sizes are rounded up so that memoised tables are reused."""
    return max(64, 1 << max(0, n).bit_length())


def _winner(g):
    return "first" if g else "second"


def solve(query):
    game = query["game"]
    conv = query.get("convention") or "normal"
    if conv not in ("normal", "misere"):
        raise ValueError("convention")
    if game == "grid":
        return solve_tokens(query)
    if conv == "misere" and game != "nim":
        raise ValueError("misere only for nim")
    if game in SCORE_GAMES:
        return solve_score(query)
    if game == "nim":
        piles = ints(query["piles"])
        if conv == "misere":
            return Result("first" if misere_nim_win(piles) else "second", None, None)
        g = nim_values(max(piles, default=0))
        comps = [g[p] for p in piles]
        return Result(_winner(_xor(comps)), _xor(comps), comps)
    if game == "subtraction":
        moves, piles = ints(query["moves"]), ints(query["piles"])
        g = subtraction_values(moves, max(piles, default=0))
        comps = [g[p] for p in piles]
        return Result(_winner(_xor(comps)), _xor(comps), comps)
    if game == "octal":
        piles = ints(query["piles"])
        g = octal_values(query["code"], max(piles, default=0))
        comps = [g[p] for p in piles]
        return Result(_winner(_xor(comps)), _xor(comps), comps)
    if game == "grundys_game":
        piles = ints(query["piles"])
        g = grundys_game_values(max(piles, default=0))
        comps = [g[p] for p in piles]
        return Result(_winner(_xor(comps)), _xor(comps), comps)
    if game == "staircase":
        stairs = ints(query["stairs"])
        gv = staircase_grundy(stairs)
        return Result(_winner(gv), gv, None)
    if game == "wythoff":
        x, y = ints(query["piles"])
        gv = wythoff_table(_round_up(max(x, y)))[x][y]
        return Result(_winner(gv), gv, [gv])
    if game == "fibonacci":
        n = as_int(query["n"])
        q = as_int(query["limit"]) if query.get("limit") is not None else max(n - 1, 0)
        gv = fibonacci_grundy(n, q)
        return Result(_winner(gv), gv, [gv])
    if game == "divisor":
        n = as_int(query["n"])
        if n < 1:
            raise ValueError("n >= 1")
        gv = divisor_values(_round_up(n))[n]
        return Result(_winner(gv), gv, [gv])
    if game == "coins":
        heads = ints(query["heads"])
        gv = coins_grundy(query["rule"], heads)
        return Result(_winner(gv), gv, [coins_grundy(query["rule"], [p]) for p in heads])
    if game == "graph":
        edges = [tuple(ints(e)) for e in query["edges"]]
        tokens = ints(query["tokens"])
        nodes = as_int(query["nodes"]) if query.get("nodes") is not None else None
        val = graph_grundy(edges, nodes)
        comps = [val.get(t, 0) for t in tokens]
        return Result(_winner(_xor(comps)), _xor(comps), comps)
    raise ValueError("unknown game %r" % (game,))


# ---------------------------------------------------------------------------
# legal_next(): every position one move away, as a `next` dict (small only)

def _heap_next(piles, options_fn):
    out = []
    for i, h in enumerate(piles):
        for tup in options_fn(h):
            parts = list(tup) if tup else [0]
            out.append({"piles": piles[:i] + parts + piles[i + 1:]})
    return out


def legal_next(query):
    game = query["game"]
    if game == "nim":
        return _heap_next(ints(query["piles"]), nim_heap_options)
    if game == "subtraction":
        moves = ints(query["moves"])
        return _heap_next(ints(query["piles"]), lambda n: subtraction_heap_options(n, moves))
    if game == "octal":
        digits = parse_octal(query["code"])
        return _heap_next(ints(query["piles"]), lambda n: octal_heap_options(n, digits))
    if game == "grundys_game":
        return _heap_next(ints(query["piles"]), grundys_game_heap_options)
    if game == "staircase":
        s = ints(query["stairs"])
        out = []
        for i in range(1, len(s)):
            for c in range(1, s[i] + 1):
                t = list(s)
                t[i] -= c
                t[i - 1] += c
                out.append({"stairs": t})
        return out
    if game == "wythoff":
        x, y = ints(query["piles"])
        out = [{"piles": [x - t, y]} for t in range(1, x + 1)]
        out += [{"piles": [x, y - t]} for t in range(1, y + 1)]
        out += [{"piles": [x - t, y - t]} for t in range(1, min(x, y) + 1)]
        return out
    if game == "fibonacci":
        n = as_int(query["n"])
        q = as_int(query["limit"]) if query.get("limit") is not None else max(n - 1, 0)
        return [{"n": n - t, "limit": 2 * t} for t in range(1, min(q, n) + 1)]
    if game == "divisor":
        n = as_int(query["n"])
        return [{"n": n - x} for x in range(1, n) if n % x == 0]
    if game == "coins":
        # heads ascending: the order of a head set carries no meaning
        heads = ints(query["heads"])
        return [{"heads": sorted(set(heads) ^ set(turned))}
                for p in heads for turned in coin_turn_sets(query["rule"], p)]
    if game == "graph":
        edges = [tuple(ints(e)) for e in query["edges"]]
        tokens = ints(query["tokens"])
        out = []
        for i, t in enumerate(tokens):
            for u, v in edges:
                if u == t:
                    out.append({"tokens": tokens[:i] + [v] + tokens[i + 1:]})
        return out
    if game == "grid":
        return [token_next(query, m) for m in token_moves(query)]
    if game in ("tictactoe", "mnk"):
        rows, cols, k = mnk_rules(query)
        b = query["board"]
        if mnk_illegal(rows, cols, k, b) or mnk_over(rows, cols, k, b):
            return []
        mover = mnk_to_move(b)
        return [{"board": b[:i] + mover + b[i + 1:]} for i, ch in enumerate(b) if ch == "."]
    if game == "stone_row":
        s = ints(query["stones"])
        # a single pile is both the first and the last: one move
        return [{"stones": s[1:]}, {"stones": s[:-1]}][:min(len(s), 2)]
    if game == "stone_prefix":
        s, m = ints(query["stones"]), stone_prefix_m(query)
        return [{"stones": s[x:], "m": max(m, x)} for x in range(1, min(2 * m, len(s)) + 1)]
    if game == "stone_front3":
        s = [int(x) for x in query["stones"]]
        return [{"stones": s[t:]} for t in range(1, min(3, len(s)) + 1)]
    if game == "can_i_win":
        M, T, used = can_i_win_query(query)
        if sum(used) >= T:
            return []
        return [{"used": used + [p]} for p in range(1, M + 1) if p not in used]
    raise ValueError("unknown game %r" % (game,))


# ---------------------------------------------------------------------------
# check_move(): is `nxt` exactly one legal move from `query`? (any size)

def _is_int_list(v):
    return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


def _one_changed(before, after):
    """Index of the single changed entry of equal-length lists, else None."""
    if len(before) != len(after):
        return None
    diff = [i for i in range(len(before)) if before[i] != after[i]]
    return diff[0] if len(diff) == 1 else None


def _heap_take_check(piles, nxt_piles, ok_take):
    """One pile reduced (kept in place, possibly to 0); ok_take(old, new)."""
    if not _is_int_list(nxt_piles):
        return "next.piles is not a list of integers: %r" % (nxt_piles,)
    i = _one_changed(piles, nxt_piles)
    if i is None:
        return "next.piles %r does not differ from %r in exactly one pile (same length)" % (nxt_piles, piles)
    old, new = piles[i], nxt_piles[i]
    if not (0 <= new < old):
        return "pile %d goes %d -> %d, not a reduction" % (i, old, new)
    if not ok_take(old, new):
        return "pile %d: %d -> %d is not a legal move" % (i, old, new)
    return None


def _octal_check(piles, nxt, digits):
    if not _is_int_list(nxt):
        return "next.piles is not a list of integers: %r" % (nxt,)
    if len(nxt) == len(piles):
        i = _one_changed(piles, nxt)
        if i is None:
            return "next.piles %r is not one pile changed from %r" % (nxt, piles)
        old, new = piles[i], nxt[i]
        if not 0 <= new < old:
            return "pile %d goes %d -> %d" % (i, old, new)
        k = old - new
        d = digits.get(k, 0)
        if new == 0 and d & 1:
            return None
        if new > 0 and d & 2:
            return None
        return "pile %d: removing %d (leaving %d) is not allowed by digit %d" % (i, k, new, d)
    if len(nxt) == len(piles) + 1:
        for i in range(len(piles)):
            if nxt[:i] == piles[:i] and nxt[i + 2:] == piles[i + 1:]:
                a, b = nxt[i], nxt[i + 1]
                if a >= 1 and b >= 1 and a + b < piles[i] and digits.get(piles[i] - a - b, 0) & 4:
                    return None
        return "next.piles %r is not a legal split of one heap of %r" % (nxt, piles)
    return "next.piles %r has the wrong length for %r" % (nxt, piles)


def check_move(query, nxt):
    """None when nxt (the service's `next`) is one legal move from query."""
    if not isinstance(nxt, dict):
        return "next is not an object: %r" % (nxt,)
    game = query["game"]
    if game in ("nim", "subtraction", "octal", "grundys_game", "wythoff"):
        if set(nxt) - {"piles"}:
            return "unexpected fields in next: %r" % (sorted(nxt),)
        piles = ints(query["piles"])
        np_ = nxt.get("piles")
        if game == "nim":
            return _heap_take_check(piles, np_, lambda o, n: True)
        if game == "subtraction":
            moves = set(ints(query["moves"]))
            return _heap_take_check(piles, np_, lambda o, n: (o - n) in moves)
        if game == "octal":
            return _octal_check(piles, np_, parse_octal(query["code"]))
        if game == "grundys_game":
            if not _is_int_list(np_) or len(np_) != len(piles) + 1:
                return "next.piles %r is not one heap split in two from %r" % (np_, piles)
            for i in range(len(piles)):
                if np_[:i] == piles[:i] and np_[i + 2:] == piles[i + 1:]:
                    a, b = np_[i], np_[i + 1]
                    if a >= 1 and b >= 1 and a != b and a + b == piles[i]:
                        return None
            return "next.piles %r is not a split of one heap of %r into unequal parts" % (np_, piles)
        # wythoff
        if not _is_int_list(np_) or len(np_) != 2:
            return "next.piles %r is not two piles" % (np_,)
        (x, y), (nx, ny) = piles, np_
        dx, dy = x - nx, y - ny
        if nx < 0 or ny < 0:
            return "negative pile in %r" % (np_,)
        if (dx > 0 and dy == 0) or (dx == 0 and dy > 0) or (dx == dy and dx > 0):
            return None
        return "(%d, %d) -> (%d, %d) is not a Wythoff move" % (x, y, nx, ny)
    if game == "staircase":
        if set(nxt) - {"stairs"}:
            return "unexpected fields in next: %r" % (sorted(nxt),)
        s, t = ints(query["stairs"]), nxt.get("stairs")
        if not _is_int_list(t) or len(t) != len(s):
            return "next.stairs %r has the wrong shape for %r" % (t, s)
        diff = [i for i in range(len(s)) if s[i] != t[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1:
            lo, hi = diff
            c = s[hi] - t[hi]
            if c >= 1 and t[lo] - s[lo] == c and t[hi] >= 0:
                return None
        return "stairs %r -> %r is not moving coins from one stair to the one below" % (s, t)
    if game == "fibonacci":
        if set(nxt) - {"n", "limit"}:
            return "unexpected fields in next: %r" % (sorted(nxt),)
        n = as_int(query["n"])
        q = as_int(query["limit"]) if query.get("limit") is not None else max(n - 1, 0)
        if not isinstance(nxt.get("n"), int) or not isinstance(nxt.get("limit"), int):
            return "next must carry integer n and limit: %r" % (nxt,)
        t = n - nxt["n"]
        if not 1 <= t <= min(q, n):
            return "take %d is not within 1..min(limit %d, n %d)" % (t, q, n)
        if nxt["limit"] != min(2 * t, INT_MAX):
            return "next.limit %d is not twice the take %d" % (nxt["limit"], t)
        return None
    if game == "divisor":
        if set(nxt) - {"n"}:
            return "unexpected fields in next: %r" % (sorted(nxt),)
        n, m = as_int(query["n"]), nxt.get("n")
        if not isinstance(m, int):
            return "next.n is not an integer: %r" % (m,)
        x = n - m
        if 0 < x < n and n % x == 0:
            return None
        return "%d -> %d is not subtracting a proper divisor" % (n, m)
    if game == "graph":
        if set(nxt) - {"tokens"}:
            return "unexpected fields in next: %r" % (sorted(nxt),)
        tokens, t = ints(query["tokens"]), nxt.get("tokens")
        if not _is_int_list(t):
            return "next.tokens is not a list of integers: %r" % (t,)
        i = _one_changed(tokens, t)
        if i is None:
            return "next.tokens %r is not one token moved from %r" % (t, tokens)
        edges = {tuple(ints(e)) for e in query["edges"]}
        if (tokens[i], t[i]) in edges:
            return None
        return "token %d: no edge %d -> %d" % (i, tokens[i], t[i])
    if game in SCORE_GAMES:
        return _score_check_move(query, nxt)
    return "unknown game %r" % (game,)


def _score_check_move(query, nxt):
    game = query["game"]
    if game in ("tictactoe", "mnk"):
        if set(nxt) != {"board"}:
            return "next must have exactly the field board: %r" % (sorted(nxt),)
        rows, cols, k = mnk_rules(query)
        b, a = query["board"], nxt["board"]
        why = mnk_illegal(rows, cols, k, b)
        if why:
            return "the request's board is illegal: %s" % why
        if mnk_over(rows, cols, k, b):
            return "the game is over: no move exists"
        if not isinstance(a, str) or len(a) != len(b):
            return "next.board %r has the wrong shape for %r" % (a, b)
        diff = [i for i in range(len(b)) if a[i] != b[i]]
        if len(diff) != 1:
            return "next.board %r differs from %r in %d cells, not 1" % (a, b, len(diff))
        i = diff[0]
        if b[i] != "." or a[i] != mnk_to_move(b):
            return "cell %d goes %r -> %r; %s is to move" % (i, b[i], a[i], mnk_to_move(b))
        return None
    if game in ("stone_row", "stone_front3"):
        if set(nxt) != {"stones"}:
            return "next must have exactly the field stones: %r" % (sorted(nxt),)
        s, t = [int(x) for x in query["stones"]], nxt["stones"]
        if not _is_int_list(t):
            return "next.stones is not a list of integers: %r" % (t,)
        if game == "stone_row":
            if s and (t == s[1:] or t == s[:-1]):
                return None
            return "next.stones (%d piles) is not the row without its first or last pile (%d piles)" % (len(t), len(s))
        taken = len(s) - len(t)
        if 1 <= taken <= 3 and t == s[taken:]:
            return None
        return "next.stones (%d piles) is not the row without its first 1, 2 or 3 piles (%d piles)" % (len(t), len(s))
    if game == "stone_prefix":
        if set(nxt) != {"stones", "m"}:
            return "next must have exactly the fields stones and m: %r" % (sorted(nxt),)
        s, m = ints(query["stones"]), stone_prefix_m(query)
        t, nm = nxt["stones"], nxt["m"]
        if not _is_int_list(t) or not isinstance(nm, int):
            return "next has the wrong types: %r" % (nxt,)
        x = len(s) - len(t)
        if not 1 <= x <= min(2 * m, len(s)):
            return "taking %d piles is not within 1..min(2M = %d, %d)" % (x, 2 * m, len(s))
        if t != s[x:]:
            return "next.stones is not the row without its first %d piles" % x
        if nm != max(m, x):
            return "next.m %d is not max(M %d, x %d)" % (nm, m, x)
        return None
    if game == "can_i_win":
        if set(nxt) != {"used"}:
            return "next must have exactly the field used: %r" % (sorted(nxt),)
        M, T, used = can_i_win_query(query)
        u = nxt["used"]
        if not _is_int_list(u):
            return "next.used is not a list of integers: %r" % (u,)
        if sum(used) >= T:
            return "the total %d already reaches %d: no move exists" % (sum(used), T)
        added = [x for x in u if x not in used]
        if len(u) != len(used) + 1 or len(set(u)) != len(u) or not set(used) <= set(u) \
                or len(added) != 1 or not 1 <= added[0] <= M:
            return "next.used %r is not %r plus one unused number from 1..%d" % (u, used, M)
        return None
    return "unknown game %r" % (game,)


if __name__ == "__main__":
    # Self-check of the brute force against the facts in references.md.
    fails = 0

    def check(cond, what):
        global fails
        if not cond:
            fails += 1
            print("FAIL", what)

    check(subtraction_period([1, 2, 3]) == (0, 4), "{1,2,3}")
    check(subtraction_period([1, 3, 4]) == (0, 7), "{1,3,4}")
    check(subtraction_values([1, 3, 4], 6) == [0, 1, 0, 1, 2, 3, 2], "{1,3,4} values")
    check(subtraction_period([2, 3]) == (0, 5), "{2,3}")
    check(subtraction_period([2, 5]) == (0, 7), "{2,5}")
    check(subtraction_period([3, 5, 9]) == (14, 2), "{3,5,9}")
    check(subtraction_period([1, 4, 7, 11, 15]) == (47, 8), "{1,4,7,11,15}")
    check(octal_period("0.77") == (71, 12), "kayles %r" % (octal_period("0.77"),))
    check(octal_period("0.07") == (53, 34), "dawson %r" % (octal_period("0.07"),))
    check(octal_period("0.137") == (52, 34), "0.137 %r" % (octal_period("0.137"),))
    check(grundys_game_values(10) == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0], "grundy's game")
    # tic-tac-toe: 5478 reachable boards, the empty board a draw, and the
    # reachability rule of mnk_illegal equal to plain enumeration.
    reach = mnk_reachable(3, 3, 3)
    check(len(reach) == 5478, "tic-tac-toe reachable %d" % len(reach))
    check(mnk_value(3, 3, 3, "." * 9) == 0, "tic-tac-toe is a draw")
    import itertools
    bad = [b for b in map("".join, itertools.product("XO.", repeat=9))
           if (mnk_illegal(3, 3, 3, b) is None) != (b in reach)]
    check(not bad, "mnk_illegal disagrees with enumeration on %r" % bad[:3])
    check(stone_row_value([5, 3, 4, 5]) > 0, "stone row [5,3,4,5]")
    check(stone_row_value([1, 5, 1]) == -3, "stone row [1,5,1]")
    check(stone_prefix_value([2, 7, 9, 4, 4], 1) == 10, "stone prefix [2,7,9,4,4]")
    check(stone_prefix_value([1, 2, 3, 4, 5, 100], 1) == 104, "stone prefix [1..5,100]")
    check(stone_front3_value([1, 2, 3, 7]) == -1, "front3 [1,2,3,7]")
    check(stone_front3_value([1, 2, 3, -9]) == 15, "front3 [1,2,3,-9]")
    check(stone_front3_value([1, 2, 3, 6]) == 0, "front3 [1,2,3,6]")
    check(can_i_win_value(10, 11, []) == -1, "can I win 10, 11")
    check(can_i_win_value(10, 1, []) == 1, "can I win 10, 1")
    check(can_i_win_value(5, 50, []) == 0, "can I win 5, 50 is a draw")
    # tokens: a 2-cycle is a draw, with an exit it is a win; values agree
    # with the mex on an acyclic board.
    two = {"game": "graph", "edges": [[0, 1], [1, 0]], "tokens": [0]}
    check(solve_tokens(two).winner == "draw" and solve_tokens(two).grundy is None, "2-cycle")
    exit_ = {"game": "graph", "edges": [[0, 1], [1, 0], [1, 2]], "tokens": [1]}
    check(solve_tokens(exit_).winner == "first", "2-cycle with an exit")
    check(solve_tokens(dict(exit_, convention="misere")).winner == "draw", "misere 2-cycle with an exit")
    dag = {"game": "graph", "edges": [[0, 1], [1, 2], [0, 2], [2, 3]], "tokens": [0, 1, 1]}
    check(solve_tokens(dag).grundy == graph_grundy([[0, 1], [1, 2], [0, 2], [2, 3]])[0], "dag values")
    check(len(legal_next({"game": "grid", "rows": 2, "cols": 2, "steps": [[0, 1], [0, 1], [1, 0]],
                          "tokens": [[0, 0]]})) == 2, "grid steps deduplicated")
    print("ok" if not fails else "%d failures" % fails)
    sys.exit(1 if fails else 0)
