/* SPDX-License-Identifier: MIT */
/* Helpers shared by the score games (stone_row, stone_prefix, stone_front3,
 * can_i_win). "value" is from the mover's point of view; grundy is null. */
#ifndef GRUNDY_API_GAMES_SCORE_COMMON_H
#define GRUNDY_API_GAMES_SCORE_COMMON_H

#include "contract.h"
#include "query.h"
#include "grundy/score.h"

/* "first", "second" or "draw" from the sign of a score difference. */
const char *gr_score_winner(gr_i128 diff);
/* Reads "stones": non-negative unless `signed_ok`. *out is malloc'd. */
int gr_score_read_stones(gr_query *q, bool signed_ok, int64_t **out, size_t *n);
/* Sets winner and value, the empty components, and the "rule" step (the
 * method, in words). */
void gr_score_answer(gr_query *q, gr_i128 value, const char *what);
/* next.stones = stones[from .. from + n). */
int gr_score_next_stones(gr_query *q, const int64_t *stones, size_t from, size_t n);
/* A row of stones held in memory, with the game's one other number (m
 * of stone_prefix; 0 for the others), answered by the game's `solve` as
 * its analyze hook answers them once read: the position after a move,
 * for a sink (contract.h). gr_stones_position_of returns p's position. */
typedef struct gr_stones_position {
    int (*solve)(gr_query *q, const int64_t *stones, size_t n, uint64_t m);
    const int64_t *stones;
    size_t n;
    uint64_t m;
    gr_position position;
} gr_stones_position;

const gr_position *gr_stones_position_of(gr_stones_position *p);

/* The sum of v[0 .. n), exactly. */
gr_i128 gr_score_sum(const int64_t *v, size_t n);

#endif
