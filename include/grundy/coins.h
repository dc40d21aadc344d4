/* SPDX-License-Identifier: MIT */
/* Coin-turning games on a row of coins numbered 1, 2, 3, ... from the left.
 * A move turns over a set of coins whose rightmost goes from heads to tails;
 * the others may go either way. A position is the set of heads, and its
 * Grundy value is the XOR of the values of single heads:
 *   turning turtles (one coin, and optionally one coin to its left):
 *       g(p) = p                              (Nim with a heap of p)
 *   mock turtles (up to three coins): g(p) = the p-th odious number
 *       (1, 2, 4, 7, 8, 11, ...: 2(p - 1) plus 1 when p - 1 has an even
 *       number of 1 bits)
 *   ruler (any run of consecutive coins ending at the rightmost):
 *       g(p) = the largest power of 2 dividing p */
#ifndef GRUNDY_COINS_H
#define GRUNDY_COINS_H

#include <stdint.h>

#include "grundy/status.h"

#define GR_COINS_MAX_POS UINT64_C(1000000000000000000) /* 10^18 */

typedef enum gr_coins_rule {
    GR_COINS_TURNING_TURTLES,
    GR_COINS_MOCK_TURTLES,
    GR_COINS_RULER,
} gr_coins_rule;

/* Grundy value of a single head at position p, 1 <= p <= GR_COINS_MAX_POS. */
uint64_t gr_coins_value(gr_coins_rule rule, uint64_t p);

/* A move: the head at `pos` turns to tails, and so do, each flipping either
 * way, the coins others[0 .. nothers) (turtles: at most 1; mock turtles: at
 * most 2; all < pos, distinct, ascending) or, for the ruler, the run
 * run_from .. pos - 1 (empty when run_from == pos). */
typedef struct gr_coins_move {
    uint64_t pos;
    unsigned nothers;
    uint64_t others[2];
    uint64_t run_from;
} gr_coins_move;

/* The move on the head at p whose turned coins change the position's value
 * by g(p) xor target, i.e. leaves this head's contribution at `target`
 * (target < g(p)). GR_EINVAL when target >= g(p) or p is out of range. */
gr_status gr_coins_move_to(gr_coins_rule rule, uint64_t p, uint64_t target, gr_coins_move *mv);

#endif
