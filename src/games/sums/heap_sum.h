/* SPDX-License-Identifier: MIT */
/* Disjunctive sums of heaps, shared by nim, subtraction, octal games and
 * Grundy's game: per-heap Grundy values, their XOR, a winning move found by
 * the game's own move search, and the answer in the contract's shape. */
#ifndef GRUNDY_API_HEAP_SUM_H
#define GRUNDY_API_HEAP_SUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "query.h"
#include "grundy/heap.h"
#include "grundy/seq.h"

struct gr_heap_rules;

/* As gr_heap_answer_move, with the piles written as r writes them (r may be
 * NULL). */
int gr_heap_render_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv,
                        const struct gr_heap_rules *r);

/* The options of one heap, for listing moves (POST /v1/moves): how many
 * heap n of pile `pile` has, and the one at index k < that count in the
 * game's canonical order. */
typedef struct gr_heap_options {
    void *ctx; /* at() may keep state in it: it is called with k ascending per pile */
    gr_u128 (*count)(void *ctx, size_t pile, uint64_t n);
    void (*at)(void *ctx, size_t pile, uint64_t n, gr_u128 k, gr_heap_move *mv);
} gr_heap_options;

/* How a heap game answers piles held in memory: its analyze hook after
 * the piles are read, the game's other members (a set, a code) in ctx.
 * The moves hook hands each position after a move to its sink this way. */
typedef struct gr_heap_solver {
    int (*solve)(gr_query *q, const void *ctx, const uint64_t *piles, size_t n);
    const void *ctx;
} gr_heap_solver;

typedef struct gr_heap_rules {
    const void *ctx;
    /* Every callback gets the pile's index as well as its size. */
    gr_status (*value)(const void *ctx, size_t pile, uint64_t n, uint64_t *g);
    /* A move from heap n to heaps whose values XOR to target < value(n). */
    gr_status (*move)(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv);
    const gr_seq *seq;  /* period facts to report, or NULL */
    const char *name;   /* the game as a person names it, for explanations */
    /* Steinhaus remoteness of heap n and the move that keeps it (conjunctive
     * compounds); NULL when the game does not answer those. */
    gr_status (*remote)(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                        gr_heap_move *mv);
    /* Writes the pile as "piles" writes it (NULL: its size as a number),
     * for games whose piles carry more than a size. */
    void (*pile_put)(const void *ctx, size_t pile, uint64_t size, gr_jw_node *array);
    /* Adds the pile's other facts to its component (NULL: none). */
    void (*pile_facts)(const void *ctx, size_t pile, gr_jw_node *component);
    /* A move may split a heap in two. Compounds other than the disjunctive
     * sum are then refused: the two heaps would still be one component,
     * which "piles" cannot write. */
    bool splits;
    /* The options of a heap (NULL: unknown here): "why" lists the options
     * of the heap moved and their values, and the winning hook counts the
     * options of the target value among them. */
    const gr_heap_options *options;
    /* Heap n has exactly one option of each value below its own (Nim): the
     * winning moves are then counted without listing the options. */
    bool one_option_per_value;
} gr_heap_rules;

/* Fills q->ans for the heaps `piles` (field "piles") under normal play, in
 * the query's compound. */
int gr_heap_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r);

/* Writes the answer's move ({pile, take, from, to | split, text}) and next
 * position for move mv on pile i: the one shape every heap game answers
 * with. */
int gr_heap_answer_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv);


/* The games' moves hook for a sum of heaps, in the query's compound: the
 * disjunctive sum lists every option of every pile, pile by pile; the other
 * compounds list a choice per pile (compound.h). Each move is
 * rendered as gr_heap_sum renders a winning move (`r` may be NULL for games
 * whose piles are plain sizes). */
int gr_heap_moves(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r,
                  const gr_heap_options *o, const gr_heap_solver *solver, gr_move_sink *sink);

/* The position after heap move mv on pile i, held in memory for a sink:
 * `scratch` has room for n + 1 piles and holds them while it is used. */
typedef struct gr_heap_after {
    const gr_heap_solver *solver;
    uint64_t *piles;
    size_t n;
    gr_position position;
} gr_heap_after;

/* Sets up `a` over `scratch`; gr_heap_after_move fills it for one move,
 * gr_heap_after_moves for a move of several piles (moved[i]: mv[i]). */
void gr_heap_after_init(gr_heap_after *a, const gr_heap_solver *solver, uint64_t *scratch);
const gr_position *gr_heap_after_move(gr_heap_after *a, const uint64_t *piles, size_t n, size_t i,
                                      const gr_heap_move *mv);
const gr_position *gr_heap_after_moves(gr_heap_after *a, const uint64_t *piles, size_t n,
                                       const bool *moved, const gr_heap_move *mv);

/* The game's winning hook for a sum of heaps (games.h): in the disjunctive
 * sum, every option of a pile whose value is that pile's target (value ^
 * nim-sum; it may be above the pile's value), pile by pile in the order of
 * gr_heap_moves. Options are enumerated within q's budget; past it -1 (the
 * count is then unknown). Other compounds return 1: the caller searches
 * their moves one by one. */
int gr_heap_winning(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r,
                    gr_move_sink *sink);

/* Misere play of a single heap, solved directly by the game's own search:
 * *win for the player to move (who wins when no move is left) and, when it
 * wins by moving, the move. */
typedef gr_status (*gr_heap_misere_fn)(const void *ctx, uint64_t n, gr_budget *b, bool *win,
                                       gr_heap_move *mv);

/* Value n of a computed sequence, widened for gr_heap_rules' value hooks. */
static inline gr_status gr_heap_seq_value(const gr_seq *s, uint64_t n, uint64_t *g)
{
    uint16_t v;
    gr_status st = gr_seq_value(s, n, &v);
    *g = v;
    return st;
}

/* gr_heap_misere for a gr_heap_game `ctx`, as a gr_heap_misere_fn. */
gr_status gr_heap_game_misere(const void *ctx, uint64_t n, gr_budget *b, bool *win, gr_heap_move *mv);

/* Fills q->ans for misere play of `piles`, which must hold at most one heap:
 * a sum gets a 422 that says why (the XOR rule does not hold). */
int gr_heap_misere_single(gr_query *q, const uint64_t *piles, size_t n, gr_heap_misere_fn solve,
                          const void *ctx, const char *name);

/* Creates ans.components: {pile, size, grundy} per pile, grundy from
 * `grundy` or null when it is NULL. 0, or -1 when memory runs out. */
int gr_pile_components(gr_query *q, const uint64_t *piles, size_t n, const uint64_t *grundy);

/* The move that takes `take` tokens from heap n, leaving one heap or none. */
static inline gr_heap_move gr_heap_take(uint64_t n, uint64_t take)
{
    gr_heap_move mv = { .take = take, .nparts = n > take ? 1 : 0, .part = { n - take, 0 } };
    return mv;
}

/* qsort/bsearch order for uint64_t. */
int gr_cmp_u64(const void *a, const void *b);

/* Largest entry of piles (0 for none). */
uint64_t gr_max_u64(const uint64_t *v, size_t n);


#endif
