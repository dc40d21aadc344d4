/* SPDX-License-Identifier: MIT */
/* m,n,k-games: the exact solver (mnk.h); the board rules are
 * mnk_board.c.
 *
 * The solver is negamax with alpha-beta over distance-to-end scores: a
 * position whose game ends (with best play) with `left` cells still empty
 * scores +(left + 1) for the winner and -(left + 1) for the loser, a draw
 * scores 0. A score depends only on the position, so
 * the transposition table (keyed by the least image of the position under
 * the board's symmetries) holds exact facts whatever the path.
 *
 * Pruning, each exact for the score:
 *  - a move that completes a line wins at once, the best possible score;
 *  - facing one immediate threat, any other move loses at once (the worst
 *    possible score), so the block is the only move; facing two, a loss;
 *  - a "dead" cell lies on no line that either player can still complete.
 *    Marking it is a pass, and another move is never worse: the mover plays
 *    the dead-cell strategy on the other board, answering a later opponent
 *    move on the dead cell as if it were on the cell marked instead; every
 *    opponent line then comes no sooner and every own line no later. So
 *    only live cells are searched, and a board with none is a draw;
 *  - moves that a symmetry of the position maps to each other have equal
 *    scores: one per orbit is searched.
 * The root first finds the value with the narrow window (-1, 1), then (for
 * a win or a loss) the exact score, which picks the fastest win or the
 * slowest loss. */
#include "grundy/mnk.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "mnk_geom.h"

#define MAX_SYM 8u
#define SCORE_INF 127         /* beyond every score: |score| <= 65 */
#define TT_MAX_LOG 20u        /* at most 2^20 entries (24 MiB) */
#define TT_MIN_LOG 6u
#define TT_MIN_EMPTY 3u       /* nodes with fewer empty cells skip the table */
#define NO_MOVE 0xffu

enum { TT_EMPTY = 0, TT_EXACT, TT_LOWER, TT_UPPER };

typedef struct tt_entry {
    uint64_t me, opp;   /* canonical image of (mover's cells, opponent's cells) */
    int8_t score;
    uint8_t flag;       /* TT_* */
    uint8_t move;       /* best move in the canonical frame, or NO_MOVE */
    uint8_t empty;      /* empty cells: the deeper subtree is kept */
} tt_entry;

typedef struct search {
    geom m;
    unsigned nsym, nbytes;
    uint8_t perm[MAX_SYM][GR_MNK_MAX_CELLS]; /* cell -> image cell */
    uint8_t inv[MAX_SYM][GR_MNK_MAX_CELLS];  /* image cell -> cell */
    uint64_t *symtab;   /* [sym][byte][value]: image of byte `value` at byte index */
    tt_entry *tt;
    size_t tt_mask;
    gr_budget *b;
    bool aborted;
    uint32_t history[GR_MNK_MAX_CELLS];
} search;

/* Cell (r, c) under symmetry `sym` (0 identity; 1-3 reflections and the
 * half turn; 4-7, square boards only, the transposes and quarter turns). */
static unsigned sym_cell(unsigned sym, unsigned rows, unsigned cols, unsigned r, unsigned c)
{
    unsigned rr = rows - 1 - r, cc = cols - 1 - c;
    switch (sym) {
    case 0: return r * cols + c;
    case 1: return r * cols + cc;
    case 2: return rr * cols + c;
    case 3: return rr * cols + cc;
    case 4: return c * cols + r;
    case 5: return c * cols + rr;
    case 6: return cc * cols + r;
    default: return cc * cols + rr;
    }
}

static void build_perms(search *s)
{
    const geom *m = &s->m;
    s->nsym = m->rows == m->cols ? 8u : 4u;
    for (unsigned y = 0; y < s->nsym; y++) {
        for (unsigned r = 0; r < m->rows; r++) {
            for (unsigned c = 0; c < m->cols; c++) {
                unsigned to = sym_cell(y, m->rows, m->cols, r, c);
                s->perm[y][r * m->cols + c] = (uint8_t)to;
                s->inv[y][to] = (uint8_t)(r * m->cols + c);
            }
        }
    }
}

/* Byte tables so that a bitboard's image costs one lookup per byte. */
static gr_status build_symtab(search *s)
{
    s->nbytes = (s->m.cells + 7) / 8;
    s->symtab = gr_malloc((size_t)s->nsym * s->nbytes * 256 * sizeof *s->symtab);
    if (s->symtab == NULL)
        return GR_ENOMEM;
    for (unsigned y = 0; y < s->nsym; y++) {
        for (unsigned j = 0; j < s->nbytes; j++) {
            uint64_t *t = s->symtab + ((size_t)y * s->nbytes + j) * 256;
            t[0] = 0;
            for (unsigned v = 1; v < 256; v++) {
                unsigned cell = 8 * j + lowest(v);
                uint64_t img = cell < s->m.cells ? bit(s->perm[y][cell]) : 0;
                t[v] = t[v & (v - 1)] | img;
            }
        }
    }
    return GR_OK;
}

static uint64_t sym_image(const search *s, unsigned sym, uint64_t bb)
{
    const uint64_t *t = s->symtab + (size_t)sym * s->nbytes * 256;
    uint64_t img = 0;
    for (unsigned j = 0; j < s->nbytes; j++, bb >>= 8, t += 256)
        img |= t[bb & 0xff];
    return img;
}

typedef struct canon {
    uint64_t me, opp;  /* least image */
    unsigned sym;      /* a symmetry mapping the position to it */
    unsigned stab;     /* bit y: symmetry y (y >= 1) fixes the position */
} canon;

static void canonicalize(const search *s, uint64_t me, uint64_t opp, canon *c)
{
    c->me = me;
    c->opp = opp;
    c->sym = 0;
    c->stab = 0;
    for (unsigned y = 1; y < s->nsym; y++) {
        uint64_t a = sym_image(s, y, me), b = sym_image(s, y, opp);
        if (a == me && b == opp)
            c->stab |= 1u << y;
        if (a < c->me || (a == c->me && b < c->opp)) {
            c->me = a;
            c->opp = b;
            c->sym = y;
        }
    }
}

/* Table size: a power of two, at most 2^TT_MAX_LOG, and about 3^empty / 8
 * (3^empty bounds the positions below the root; far fewer are searched).
 * It does not depend on the budget, so neither does a solve's step count. */
static unsigned tt_log(unsigned empty)
{
    uint64_t cap = 1;
    for (unsigned i = 0; i < empty && cap < ((uint64_t)8 << TT_MAX_LOG); i++)
        cap *= 3;
    cap /= 8;
    unsigned lg = TT_MIN_LOG;
    while (lg < TT_MAX_LOG && ((uint64_t)1 << lg) < cap)
        lg++;
    return lg;
}

static size_t tt_slot(const search *s, uint64_t me, uint64_t opp)
{
    uint64_t h = me * 0x9e3779b97f4a7c15u ^ (opp + 0x632be59bd9b4e019u) * 0xc2b2ae3d27d4eb4fu;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
    return (size_t)h & s->tt_mask & ~(size_t)1;
}

static tt_entry *tt_find(const search *s, const canon *c)
{
    tt_entry *e = s->tt + tt_slot(s, c->me, c->opp);
    for (unsigned i = 0; i < 2; i++)
        if (e[i].flag != TT_EMPTY && e[i].me == c->me && e[i].opp == c->opp)
            return &e[i];
    return NULL;
}

/* Two-slot buckets: slot 0 keeps the entry with the larger subtree, slot 1
 * takes whatever slot 0 refuses. */
static void tt_store(search *s, const canon *c, unsigned empty, int score, int flag,
                     int move)
{
    tt_entry *e = s->tt + tt_slot(s, c->me, c->opp);
    tt_entry *dst = &e[1];
    if (e[0].flag == TT_EMPTY || (e[0].me == c->me && e[0].opp == c->opp) ||
        e[0].empty <= empty)
        dst = &e[0];
    else if (e[1].flag != TT_EMPTY && e[1].me == c->me && e[1].opp == c->opp)
        dst = &e[1];
    dst->me = c->me;
    dst->opp = c->opp;
    dst->score = (int8_t)score;
    dst->flag = (uint8_t)flag;
    dst->move = move < 0 ? NO_MOVE : s->perm[c->sym][move];
    dst->empty = (uint8_t)empty;
}

/* What the lines say about a node. */
typedef struct node {
    uint64_t me, opp, empty;
    unsigned nempty;
    uint64_t win_me;    /* cells that complete a line of the mover */
    uint64_t win_opp;   /* cells that complete a line of the opponent */
    uint64_t live;      /* empty cells on a line someone can still complete */
} node;

static void node_scan(const geom *m, uint64_t me, uint64_t opp, node *n)
{
    n->me = me;
    n->opp = opp;
    n->empty = m->full & ~(me | opp);
    n->nempty = popcount(n->empty);
    n->win_me = n->win_opp = n->live = 0;
    for (unsigned i = 0; i < m->nlines; i++) {
        uint64_t l = m->line[i], a = l & me, b = l & opp;
        if (b == 0) {
            n->live |= l;
            if (popcount(a) == m->k - 1)
                n->win_me |= l & ~a;
        }
        if (a == 0) {
            n->live |= l;
            if (popcount(b) == m->k - 1)
                n->win_opp |= l & ~b;
        }
    }
    n->live &= n->empty;
}

/* Nodes settled without search: true with *score and *move set. */
static bool node_settled(const node *n, int *score, int *move)
{
    int e = (int)n->nempty;
    if (n->win_me != 0) {
        *move = (int)lowest(n->win_me);
        *score = e;
        return true;
    }
    if (popcount(n->win_opp) >= 2) {
        *move = (int)lowest(n->win_opp);
        *score = -(e - 1);
        return true;
    }
    if (e == 1 || n->live == 0) {
        *move = (int)lowest(n->empty);
        *score = 0;
        return true;
    }
    return false;
}

/* Ordering weight of each empty cell: lines still open for a player count
 * more the more of that player's marks they hold (capped so that the sum
 * over at most 4 * 64 lines fits 32 bits). */
static void cell_weights(const geom *m, const node *n, uint32_t *w)
{
    for (unsigned i = 0; i < m->nlines; i++) {
        uint64_t l = m->line[i], a = l & n->me, b = l & n->opp;
        uint32_t add = 0;
        if (b == 0)
            add += 3u << (2 * (popcount(a) < 8 ? popcount(a) : 8));
        if (a == 0)
            add += 2u << (2 * (popcount(b) < 8 ? popcount(b) : 8));
        for (uint64_t e = l & n->empty; e != 0; e &= e - 1)
            w[lowest(e)] += add;
    }
}

/* True when some symmetry fixing the position maps `cell` to a smaller one
 * (the orbit's least cell stands for it). */
static bool orbit_dup(const search *s, unsigned stab, unsigned cell)
{
    for (unsigned y = 1; stab >> y != 0; y++)
        if ((stab >> y & 1u) && s->perm[y][cell] < cell)
            return true;
    return false;
}

/* Fills list with the moves to search, best first: the table's move, then
 * by weight and history. Returns how many. */
static unsigned order_moves(const search *s, const node *n, uint64_t moves,
                            unsigned stab, int tt_move, uint8_t *list)
{
    uint32_t w[GR_MNK_MAX_CELLS] = { 0 };
    uint64_t key[GR_MNK_MAX_CELLS];
    cell_weights(&s->m, n, w);
    unsigned count = 0;
    for (uint64_t mv = moves; mv != 0; mv &= mv - 1) {
        unsigned c = lowest(mv);
        if (stab != 0 && orbit_dup(s, stab, c))
            continue;
        uint64_t k = ((uint64_t)w[c] << 32) | s->history[c];
        if ((int)c == tt_move)
            k = ~(uint64_t)0;
        unsigned j = count++;
        for (; j > 0 && key[j - 1] < k; j--) {
            key[j] = key[j - 1];
            list[j] = list[j - 1];
        }
        key[j] = k;
        list[j] = (uint8_t)c;
    }
    return count;
}

static int negamax(search *s, uint64_t me, uint64_t opp, int alpha, int beta, int *best);

/* History heuristic: a move that caused a cutoff with `empty` cells left
 * gains empty^2; all entries halve before one would pass 2^30. */
static void history_bump(search *s, unsigned cell, unsigned empty)
{
    if (s->history[cell] >= (1u << 30)) {
        for (unsigned i = 0; i < GR_MNK_MAX_CELLS; i++)
            s->history[i] /= 2;
    }
    s->history[cell] += empty * empty;
}

/* The table's verdict for a non-root node: true with *score when a stored
 * bound settles the window. Sets *tt_move (current frame) either way. */
static bool tt_probe(const search *s, const canon *c, int alpha, int beta, bool root,
                     int *score, int *tt_move)
{
    const tt_entry *e = tt_find(s, c);
    *tt_move = -1;
    if (e == NULL)
        return false;
    if (e->move != NO_MOVE)
        *tt_move = s->inv[c->sym][e->move];
    if (root)
        return false;
    *score = e->score;
    return e->flag == TT_EXACT || (e->flag == TT_LOWER && e->score >= beta) ||
           (e->flag == TT_UPPER && e->score <= alpha);
}

/* Searches the ordered moves of n within (alpha, beta). Fail-soft. */
static int search_moves(search *s, const node *n, const uint8_t *list, unsigned count,
                        int alpha, int beta, int *best_move)
{
    int best = -SCORE_INF;
    *best_move = -1;
    for (unsigned i = 0; i < count; i++) {
        unsigned c = list[i];
        int sc = -negamax(s, n->opp, n->me | bit(c), -beta, -alpha, NULL);
        if (s->aborted)
            return 0;
        if (sc > best) {
            best = sc;
            *best_move = (int)c;
        }
        if (sc > alpha)
            alpha = sc;
        if (alpha >= beta) {
            history_bump(s, c, n->nempty);
            break;
        }
    }
    return best;
}

/* A node with a choice of moves (not settled, not forced). */
static int search_node(search *s, const node *n, uint64_t moves, int alpha, int beta,
                       int *best)
{
    int hi = (int)n->nempty - 2; /* no immediate win: at best a win next turn */
    if (best == NULL && alpha >= hi)
        return hi;
    if (beta > hi + 1)
        beta = hi + 1;
    canon c = { n->me, n->opp, 0, 0 };
    int tt_move = -1, score;
    bool use_tt = n->nempty >= TT_MIN_EMPTY;
    if (use_tt) {
        canonicalize(s, n->me, n->opp, &c);
        if (tt_probe(s, &c, alpha, beta, best != NULL, &score, &tt_move))
            return score;
    }
    uint8_t list[GR_MNK_MAX_CELLS];
    unsigned count = order_moves(s, n, moves, c.stab, tt_move, list);
    int move;
    score = search_moves(s, n, list, count, alpha, beta, &move);
    if (s->aborted)
        return 0;
    if (use_tt) {
        int flag = score <= alpha ? TT_UPPER : score >= beta ? TT_LOWER : TT_EXACT;
        tt_store(s, &c, n->nempty, score, flag, move);
    }
    if (best != NULL)
        *best = move;
    return score;
}

/* Negamax value of a non-final position (mover's cells `me`), in the
 * fail-soft sense for the window (alpha, beta). best, when non-NULL (the
 * root), receives a move with that score. A node costs one step per line
 * of the board: the line scan is its inner loop. */
static int negamax(search *s, uint64_t me, uint64_t opp, int alpha, int beta, int *best)
{
    if (!gr_budget_spend(s->b, s->m.nlines)) {
        s->aborted = true;
        return 0;
    }
    node n;
    node_scan(&s->m, me, opp, &n);
    int score, move;
    if (node_settled(&n, &score, &move)) {
        if (best != NULL)
            *best = move;
        return score;
    }
    uint64_t moves = n.win_opp != 0 ? n.win_opp : n.live;
    if ((moves & (moves - 1)) == 0) {
        if (best != NULL)
            *best = (int)lowest(moves);
        return -negamax(s, opp, me | moves, -beta, -alpha, NULL);
    }
    return search_node(s, &n, moves, alpha, beta, best);
}

/* The value with the narrow window, then the exact score of a win or loss. */
static void solve_root(search *s, uint64_t me, uint64_t opp, unsigned empty,
                       gr_mnk_result *res)
{
    int best = -1;
    int score = negamax(s, me, opp, -1, 1, &best);
    if (!s->aborted && score > 0)
        score = negamax(s, me, opp, 0, SCORE_INF, &best);
    else if (!s->aborted && score < 0)
        score = negamax(s, me, opp, -SCORE_INF, 0, &best);
    if (s->aborted)
        return;
    res->value = score > 0 ? 1 : score < 0 ? -1 : 0;
    res->best_cell = best;
    res->plies = score == 0 ? 0 : empty + 1 - (unsigned)abs(score);
}

static void finished(const gr_mnk_position *pos, gr_mnk_result *res)
{
    res->value = pos->winner != GR_MNK_NONE ? -1 : 0;
    res->best_cell = -1;
    res->plies = 0;
}

/* Tables for a search of a position with `empty` empty cells; on failure
 * whatever was allocated is left for search_free. */
static gr_status search_setup(search *s, unsigned empty, gr_budget *b)
{
    build_perms(s);
    if (build_symtab(s) != GR_OK)
        return GR_ENOMEM;
    size_t entries = (size_t)1 << tt_log(empty);
    s->tt = gr_calloc(entries, sizeof *s->tt);
    if (s->tt == NULL)
        return GR_ENOMEM;
    s->tt_mask = entries - 1;
    s->b = b;
    return GR_OK;
}

static void search_free(search *s)
{
    gr_free(s->tt);
    gr_free(s->symtab);
    gr_free(s);
}

/* Contract (mnk.h): *res is written only on GR_OK. */
gr_status gr_mnk_solve(const gr_mnk *g, const gr_mnk_position *pos, gr_budget *b,
                       gr_mnk_result *res)
{
    if (gr_mnk_game_check(g, NULL) != GR_OK)
        return GR_EINVAL;
    search *s = gr_calloc(1, sizeof *s);
    if (s == NULL)
        return GR_ENOMEM;
    mnk_geom_init(&s->m, g);
    gr_mnk_position p;
    gr_status st = mnk_classify(&s->m, pos->x, pos->o, &p, NULL);
    if (st == GR_OK && p.over)
        finished(&p, res);
    if (st == GR_OK && !p.over)
        st = search_setup(s, p.empty, b);
    if (st == GR_OK && !p.over) {
        uint64_t me = p.to_move == GR_MNK_X ? p.x : p.o;
        gr_mnk_result r;
        solve_root(s, me, p.x ^ p.o ^ me, p.empty, &r);
        st = s->aborted ? GR_ELIMIT : GR_OK;
        if (st == GR_OK)
            *res = r;
    }
    search_free(s);
    return st;
}
