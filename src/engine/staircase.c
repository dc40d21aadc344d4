/* SPDX-License-Identifier: MIT */
/* Staircase Nim: coins on even stairs are irrelevant (a move from an even
 * stair can be mirrored by moving the same coins on down from the odd stair
 * they land on), so the game is Nim on the odd stairs; moving c coins from an
 * odd stair i to i - 1 lowers that Nim pile by c. */
#include "grundy/staircase.h"

uint64_t gr_staircase_value(const uint64_t *stairs, size_t n)
{
    uint64_t x = 0;
    for (size_t i = 1; i < n; i += 2)
        x ^= stairs[i];
    return x;
}

bool gr_staircase_normal(const uint64_t *stairs, size_t n, gr_stair_move *move)
{
    uint64_t x = gr_staircase_value(stairs, n);
    if (x == 0)
        return false;
    /* Some odd stair has x's top bit set, so stairs[i] ^ x < stairs[i]. */
    for (size_t i = 1; i < n; i += 2) {
        uint64_t target = stairs[i] ^ x;
        if (target < stairs[i]) {
            move->from = i;
            move->count = stairs[i] - target;
            return true;
        }
    }
    return false; /* unreachable: x != 0 is the XOR of the odd stairs */
}
