/* SPDX-License-Identifier: MIT */
/* Compounds other than the disjunctive sum, decided from per-component facts
 * alone (references.md, compounds). Shared by heap games and token games:
 * those supply the values or remoteness and render the moves.
 *
 *   selective (move in any non-empty set): a loss iff every component has
 *     Grundy value 0; the winner moves every non-zero component to 0.
 *   selective_proper (any non-empty set but not all): a loss iff all values
 *     are equal; the winner moves every component above the least value m
 *     down to m (a non-empty proper set, since some component has m).
 *   conjunctive (every component; play ends when any cannot move): a win iff
 *     the least Steinhaus remoteness is odd; the winner moves every
 *     component by the remoteness rule. */
#ifndef GRUNDY_API_COMPOUND_H
#define GRUNDY_API_COMPOUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "query.h"

/* Selective compounds: whether the player to move wins and, when it does,
 * moves[i] and target[i] for every component. */
bool gr_selective_plan(gr_compound c, const uint64_t *values, size_t n, bool *moves,
                       uint64_t *target);

/* Conjunctive compound: whether the player to move wins. */
bool gr_conjunctive_win(const uint64_t *remoteness, size_t n);

/* ---- listing the moves of a compound (POST /v1/moves) ---------------------
 * A move of a compound is a choice per component: 0 when it does not move,
 * j >= 1 when it makes its own move j - 1 (of counts[i]). The moves are in
 * lexicographic order of the choices, component 0 most significant. */

typedef struct gr_compound_walk {
    gr_compound compound;
    const gr_u128 *counts; /* moves of each component */
    size_t n;
    gr_u128 *choice;       /* the current move, n entries (the caller's) */
} gr_compound_walk;

/* The number of moves of w's compound into *total; false when it is past
 * 2^128 - 1 (the positions then go unlisted). disjunctive: the sum;
 * selective: prod(1 + m) - 1; selective_proper: that less prod(m), the
 * moves in every component; conjunctive: prod(m). */
bool gr_compound_count(const gr_compound_walk *w, gr_u128 *total);

/* Sets w->choice to move k (< the count) of a compound other than the
 * disjunctive one. */
void gr_compound_seek(gr_compound_walk *w, gr_u128 k);

/* Steps w->choice to the next move; false after the last. */
bool gr_compound_next(gr_compound_walk *w);

/* The explanation of either plan; `what` names the components ("piles"). */
void gr_compound_explain(gr_query *q, const uint64_t *facts, size_t n, const char *what,
                         bool win);

#endif
