/* SPDX-License-Identifier: MIT */
/* Private to the engine: the board geometry of m,n,k-games and the
 * legality check, shared by the board rules (mnk_board.c) and the solver
 * (mnk_solve.c). Bit r * cols + c of a bitboard is cell (r, c). */
#ifndef GRUNDY_ENGINE_MNK_GEOM_H
#define GRUNDY_ENGINE_MNK_GEOM_H

#include <stdint.h>

#include "grundy/mnk.h"

#define MAX_LINES (4u * GR_MNK_MAX_CELLS) /* k = 1 keeps one direction */

typedef struct geom {
    unsigned rows, cols, k, cells, nlines;
    uint64_t full;                /* every cell */
    uint64_t line[MAX_LINES];     /* each k-line's cells */
} geom;

static inline uint64_t bit(unsigned i)
{
    return (uint64_t)1 << i;
}

static inline unsigned popcount(uint64_t v)
{
    return (unsigned)__builtin_popcountll(v);
}

static inline unsigned lowest(uint64_t v)
{
    return (unsigned)__builtin_ctzll(v);
}

/* The lines of a board of valid rules g. */
void mnk_geom_init(geom *m, const gr_mnk *g);

/* Checks bitboards x, o against the rules (mnk.h) and fills *pos on
 * success; else GR_EINVAL with *why (when non-NULL) set. */
gr_status mnk_classify(const geom *m, uint64_t x, uint64_t o, gr_mnk_position *pos,
                       const char **why);

#endif
