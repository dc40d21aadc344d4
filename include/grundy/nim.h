/* SPDX-License-Identifier: MIT */
/* Nim: take any positive number of tokens from one pile. */
#ifndef GRUNDY_NIM_H
#define GRUNDY_NIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gr_pile_move {
    size_t pile;  /* index into the piles array */
    uint64_t to;  /* the pile's size after the move (< its size before) */
} gr_pile_move;

/* XOR of all piles. */
uint64_t gr_nim_sum(const uint64_t *piles, size_t n);

/* Normal play (the player who cannot move loses). Returns true when the
 * player to move wins, and then writes one winning move to *move. */
bool gr_nim_normal(const uint64_t *piles, size_t n, gr_pile_move *move);

/* Misere play (the player who cannot move wins), by Bouton's rule:
 * all piles <= 1: the mover wins iff the number of non-empty piles is even;
 * otherwise the mover wins iff the nim-sum is non-zero. Returns true when the
 * mover wins, and then writes one winning move to *move. When no pile is
 * non-empty (including n = 0) the mover wins without moving: the function
 * returns true and *move is not written. */
bool gr_nim_misere(const uint64_t *piles, size_t n, gr_pile_move *move);

#endif
