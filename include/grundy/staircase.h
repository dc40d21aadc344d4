/* SPDX-License-Identifier: MIT */
/* Staircase Nim: stairs[0] is the floor; a move takes one or more coins from
 * stair i >= 1 down to stair i - 1. It is Nim on the odd-numbered stairs. */
#ifndef GRUNDY_STAIRCASE_H
#define GRUNDY_STAIRCASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gr_stair_move {
    size_t from;    /* stair the coins leave (>= 1); they land on from - 1 */
    uint64_t count; /* coins moved (>= 1) */
} gr_stair_move;

/* XOR of the odd-numbered stairs: the position's Grundy value. */
uint64_t gr_staircase_value(const uint64_t *stairs, size_t n);

/* Normal play. Returns true when the mover wins, and then writes a winning
 * move (always from an odd stair) to *move. */
bool gr_staircase_normal(const uint64_t *stairs, size_t n, gr_stair_move *move);

#endif
