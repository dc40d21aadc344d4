/* SPDX-License-Identifier: MIT */
/* What a move does to one heap, for every heap game (subtraction, octal,
 * Grundy's game): tokens removed and the heaps left in its place. */
#ifndef GRUNDY_HEAP_H
#define GRUNDY_HEAP_H

#include <stdint.h>

typedef struct gr_heap_move {
    uint64_t take;    /* tokens removed (0 for Grundy's game, which only splits) */
    uint8_t nparts;   /* heaps left in place of the old one: 0, 1 or 2 */
    uint64_t part[2]; /* their sizes, part[0] <= part[1]; all >= 1 */
} gr_heap_move;

#endif
