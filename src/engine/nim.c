/* SPDX-License-Identifier: MIT */
/* Nim under normal and misere play (Bouton 1901). */
#include "grundy/nim.h"

uint64_t gr_nim_sum(const uint64_t *piles, size_t n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= piles[i];
    return x;
}

/* Normal-play move for a non-zero nim-sum x: a pile with x's top bit set
 * satisfies p ^ x < p; moving it to p ^ x leaves nim-sum 0. Such a pile
 * exists because x is the XOR of the piles. */
static gr_pile_move nim_zeroing_move(const uint64_t *piles, size_t n, uint64_t x)
{
    gr_pile_move move = { 0, 0 };
    for (size_t i = 0; i < n; i++) {
        if ((piles[i] ^ x) < piles[i]) {
            move.pile = i;
            move.to = piles[i] ^ x;
            break;
        }
    }
    return move;
}

bool gr_nim_normal(const uint64_t *piles, size_t n, gr_pile_move *move)
{
    uint64_t x = gr_nim_sum(piles, n);
    if (x == 0)
        return false;
    *move = nim_zeroing_move(piles, n, x);
    return true;
}

/* Index of some pile equal to `size`; the caller knows one exists. */
static size_t nim_find_pile(const uint64_t *piles, size_t n, uint64_t size)
{
    size_t i = 0;
    while (i < n && piles[i] != size)
        i++;
    return i;
}

/* Misere play. With every pile <= 1 the mover wins iff the count of ones is
 * even: taking a one leaves an odd count. With exactly one pile > 1 the
 * nim-sum is non-zero (that pile alone has a bit above bit 0); reducing it
 * to 0 or 1 leaves an odd number of ones. With two or more piles > 1 the
 * normal move leaves at least one pile > 1, so it is the misere move too. */
bool gr_nim_misere(const uint64_t *piles, size_t n, gr_pile_move *move)
{
    size_t ones = 0, big = 0, big_index = 0;
    for (size_t i = 0; i < n; i++) {
        if (piles[i] == 1) {
            ones++;
        } else if (piles[i] > 1) {
            big++;
            big_index = i;
        }
    }
    if (big == 0) {
        if (ones % 2 != 0)
            return false;
        if (ones > 0) { /* with no non-empty pile the mover wins without moving */
            move->pile = nim_find_pile(piles, n, 1);
            move->to = 0;
        }
        return true;
    }
    if (big == 1) {
        move->pile = big_index;
        move->to = (ones % 2 == 0) ? 1 : 0;
        return true;
    }
    return gr_nim_normal(piles, n, move);
}
