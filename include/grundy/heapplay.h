/* SPDX-License-Identifier: MIT */
/* One heap played for something other than its Grundy value: misere play
 * of a single heap, and Steinhaus' remoteness of a single heap (the fact a
 * conjunctive compound is decided by).
 *
 * Remoteness under normal play: R = 0 at a terminal position; if some option
 * has even R, R = 1 + the least even one, else R = 1 + the greatest odd one.
 * R is odd exactly when the player to move wins.
 *
 * Where a move may split a heap, the positions below {n} are multisets of
 * heaps; those are searched directly, with a memo, an explicit stack and a
 * cap on the states kept. */
#ifndef GRUNDY_HEAPPLAY_H
#define GRUNDY_HEAPPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/heap.h"
#include "grundy/octal.h"
#include "grundy/status.h"

/* The moves from one heap: options() calls emit once per move from heap n
 * (a move may be emitted more than once). */
typedef void (*gr_heap_emit)(void *arg, const gr_heap_move *mv);

typedef struct gr_heap_game {
    const void *ctx;
    void (*options)(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg);
} gr_heap_game;

/* Ready-made games. The octal code is borrowed and must outlive the game. */
gr_heap_game gr_heap_game_octal(const gr_octal_code *code);
gr_heap_game gr_heap_game_grundys(void);

/* Positions kept by the direct search before it gives up with GR_ELIMIT. */
#define GR_HEAPPLAY_MAX_STATES (1u << 20)

/* Misere play of the one-heap position {n}: *win for the player to move
 * (who wins when no move is left), and when *win and a move exists, a
 * winning move in *mv (nparts 0 and take 0 when the win is by having no
 * move). GR_ELIMIT when the budget or the state cap runs out. */
gr_status gr_heap_misere(const gr_heap_game *g, uint64_t n, gr_budget *b, bool *win,
                         gr_heap_move *mv);

/* Remoteness of {n} under normal play, and when R > 0 the move that keeps
 * it: to an option of remoteness R - 1 (the least even option when R is
 * odd, the greatest odd one when R is even). */
gr_status gr_heap_remoteness(const gr_heap_game *g, uint64_t n, gr_budget *b, uint64_t *r,
                             gr_heap_move *mv);

/* Subtraction games (a finite set of moves, in any order, possibly
 * repeated), for heaps up to 2^63 - 1:
 *
 * Misere outcome: o(n) depends only on o(n - m .. n - 1) once n >= m =
 * max S, so the first repeated window certifies a period of the outcome
 * sequence. *take is a winning move (0 when the win is by having no move). */
gr_status gr_subtraction_misere(const uint64_t *moves, size_t nmoves, uint64_t n, gr_budget *b,
                                bool *win, uint64_t *take);

/* Remoteness: R(n + p) = R(n) + c with c even, checked on a window of m
 * consecutive heaps n >= m, holds for every later heap (the rule only
 * compares parities and orders, which an even shift keeps), so R is exact
 * for any n. *take realises R as above (unused when R == 0). */
gr_status gr_subtraction_remoteness(const uint64_t *moves, size_t nmoves, uint64_t n,
                                    gr_budget *b, uint64_t *r, uint64_t *take);

#endif
