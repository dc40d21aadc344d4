/* SPDX-License-Identifier: MIT */
/* Grundy sequences of heap games: g(0), g(1), ... with an optional
 * certified period.
 *
 * Subtraction games, octal games and Grundy's game all produce a gr_seq.
 * Values are uint16_t: a solver that would produce a value >= 65535 fails
 * with GR_ERANGE instead. */
#ifndef GRUNDY_SEQ_H
#define GRUNDY_SEQ_H

#include <stdbool.h>
#include <stdint.h>

#include "grundy/status.h"

typedef struct gr_seq {
    const uint16_t *values; /* g(0) .. g(count - 1) */
    uint64_t count;         /* number of values known exactly */
    bool periodic;          /* true when a period has been certified */
    uint64_t preperiod;     /* when periodic: g(n + period) = g(n) for all n >= preperiod */
    uint64_t period;        /* when periodic: the least such period (>= 1) */
    uint16_t max_value;     /* largest value among values[0 .. count) */
    void *owned;            /* storage freed by gr_seq_free, or NULL for borrowed values */
} gr_seq;

/* Value at heap n. Periodic sequences answer every n (the solver guarantees
 * count >= preperiod + period); otherwise n >= count gives GR_EBOUND. */
gr_status gr_seq_value(const gr_seq *s, uint64_t n, uint16_t *g);

/* Releases owned storage and zeroes *s. Safe on a zeroed sequence. */
void gr_seq_free(gr_seq *s);

#endif
