/* SPDX-License-Identifier: MIT */
/* Subtraction games whose set is a rule ({"rule": R}), answered for
 * subtraction.c. */
#ifndef GRUNDY_API_GAMES_SUBTRACTION_RULES_H
#define GRUNDY_API_GAMES_SUBTRACTION_RULES_H

#include "query.h"

struct gr_move_sink;

/* Answers q, whose "moves" is the object `moves` = {"rule": R} (sink
 * NULL), or lists its winning moves into sink as a game's winning hook
 * does (1: left to the move-by-move search). */
int gr_solve_subtraction_rule(gr_query *q, const cJSON *moves, struct gr_move_sink *sink);

/* The moves hook for the same queries: take each element of the rule's set
 * up to the heap, ascending, pile by pile; heaps up to 2^20 only (a 422
 * beyond_bound past that: counting the primes below a heap is the work). */
int gr_subtraction_rule_moves(gr_query *q, const cJSON *moves, struct gr_move_sink *sink);

#endif
