/* SPDX-License-Identifier: MIT */
/* `grundy tables build`: computes every precomputed section and writes the
 * table file atomically. */
#ifndef GRUNDY_TABLES_BUILD_H
#define GRUNDY_TABLES_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gr_build_options {
    uint64_t grundys_values; /* heaps 0 .. grundys_values - 1 of Grundy's game; default 2^22 */
    uint64_t octal_values;   /* values per octal game without a certificate; default 2^16
                              * (0.127 0.16 0.56 0.376, whose periods start later:
                              * 128 times as many, until certified) */
    uint64_t wythoff_size;   /* Wythoff values for both piles below this; default 1024 */
    uint64_t divisor_max;    /* divisor-game values up to this n; default 10^6 */
    uint64_t rule_grundy[3]; /* Grundy values of the rule-defined sets up to these n
                              * (squares, powers_of_two, primes) */
    uint64_t rule_outcome[3];/* win/loss of the rule-defined sets up to these n */
    FILE *progress;          /* where progress goes (tables/progress.h), or NULL */
    bool progress_live;      /* progress is a terminal: a status line redrawn in place */
} gr_build_options;

void gr_build_options_default(gr_build_options *o);

/* Each rule-defined set's sections (Grundy values and win/loss) up to heap
 * n at most: a smaller file built in a fraction of the default's time, as
 * their parts cost the same whatever the other sizes. */
void gr_build_options_cap_rules(gr_build_options *o, uint64_t n);

/* Builds and writes `path`. Returns 0, or -1 with a sentence in why[0 .. n). */
int gr_tables_build(const char *path, const gr_build_options *o, char *why, size_t n);

#endif
