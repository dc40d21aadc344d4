/* SPDX-License-Identifier: MIT */
/* Wythoff's game: two piles; take any positive number from one pile, or the
 * same positive number from both. Exact for piles up to 2^63 - 1: all
 * arithmetic on phi is integer, with unsigned __int128 where products need it. */
#ifndef GRUNDY_WYTHOFF_H
#define GRUNDY_WYTHOFF_H

#include <stdbool.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

/* floor(k / phi) for k <= 2^63 - 1 (phi the golden ratio). */
uint64_t gr_wythoff_floor_div_phi(uint64_t k);

/* a_k = floor(k * phi), the smaller pile of the k-th P-position
 * (a_k, a_k + k); k <= 2^63 - 1, so a_k < 2^64. */
uint64_t gr_wythoff_lower(uint64_t k);

/* True when (x, y) is a P-position (the player to move loses). */
bool gr_wythoff_is_p(uint64_t x, uint64_t y);

/* When (x, y) is an N-position, writes a P-position reachable in one move to
 * (*nx, *ny) (same pile order as given) and returns true; otherwise false. */
bool gr_wythoff_move(uint64_t x, uint64_t y, uint64_t *nx, uint64_t *ny);

/* Grundy value of (x, y) by dynamic programming over [0..x] x [0..y].
 * Spends about (x + 1) * (y + 1) * (x + y + 2) / 64 steps; GR_ELIMIT when
 * the budget cannot cover it, GR_ENOMEM when the tables cannot be had. */
gr_status gr_wythoff_grundy(uint64_t x, uint64_t y, gr_budget *b, uint64_t *g);

/* Grundy values of every (x, y) with x, y < n into grid[x * n + y]
 * (n <= 8192, so values < 3n fit uint16_t). Same cost model as
 * gr_wythoff_grundy(n - 1, n - 1). */
gr_status gr_wythoff_table(uint64_t n, gr_budget *b, uint16_t *grid);

#endif
