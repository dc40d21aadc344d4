/* SPDX-License-Identifier: MIT */
/* Private to the engine: the rare/common split of Grundy values shared by
 * grundys.c, octal_solve.c and grundys_index.c. With a mask m != 0, a value v is
 * rare when popcount(v & m) is even and common otherwise; rare values form
 * a subgroup of index 2 under XOR (rare ^ rare and common ^ common are rare,
 * rare ^ common is common), whatever the mask. */
#ifndef GRUNDY_ENGINE_RARE_MASK_H
#define GRUNDY_ENGINE_RARE_MASK_H

#include <stdbool.h>
#include <stdint.h>

#include "grundy/status.h"

/* Whether the 16-bit value v is rare under mask. */
static inline bool is_rare(unsigned v, unsigned mask)
{
    unsigned x = v & mask;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return (x & 1) == 0;
}

/* The least power of two above v. */
static inline unsigned power_of_two_above(unsigned v)
{
    unsigned r = 1;
    while (r <= v)
        r *= 2;
    return r;
}

/* Whether the mask is due to be chosen again at count values, range the
 * least power of two above every value: when count has reached
 * *next_check (then doubled until it lies past count), or, from
 * first_check values on, when range has grown past *range_seen. When due,
 * *range_seen becomes range. */
static inline bool rare_mask_due(uint64_t count, uint64_t first_check, unsigned range,
                                 uint64_t *next_check, unsigned *range_seen)
{
    bool due = false;
    while (count >= *next_check) {
        *next_check *= 2;
        due = true;
    }
    if (count >= first_check && range > *range_seen)
        due = true;
    if (due)
        *range_seen = range;
    return due;
}

/* The mask m, 1 <= m < size, that makes the fewest positions rare, given
 * counts[v] (v < size, size a power of two above every counted value) the
 * positions with value v. With W the Walsh-Hadamard transform of the
 * counts, the rare positions number (W(0) + W(m)) / 2, so the least W(m)
 * wins; ties go to the smaller m. size < 2 gives mask 1. When rare is not
 * NULL it receives that number of rare positions (counts[0] when
 * size == 1). GR_ENOMEM (with *mask = 1 and *rare unset) when the scratch
 * array cannot be had. */
gr_status gr_rare_mask_best(const uint64_t *counts, unsigned size, unsigned *mask,
                            uint64_t *rare);

#endif
