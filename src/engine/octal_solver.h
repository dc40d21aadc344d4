/* SPDX-License-Identifier: MIT */
/* Private to the engine: the octal-game solver's state, shared by the
 * files that make up octal games: octal_code.c (codes), octal_values.c
 * (one value at a time), octal_period.c (the certificate), octal_solve.c
 * (the solver) and octal_move.c (moves). */
#ifndef GRUNDY_ENGINE_OCTAL_SOLVER_H
#define GRUNDY_ENGINE_OCTAL_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/octal.h"
#include "grundy/status.h"

#define VALUE_LIMIT 65535u     /* values must stay below this */
#define VALUE_SPACE 65536u     /* every XOR of two values */
/* Split tables kept: S(m) for the last RING values of m, enough for heap n
 * to hold those of m = n - 8 .. n (digits d8 .. d0) at once. */
#define RING (GR_OCTAL_MAX_DIGITS + 1u)

typedef enum value_mode { MODE_PLAIN, MODE_SPARSE } value_mode;

typedef struct octal_solver {
    const gr_octal_code *code;
    unsigned t;
    unsigned split_k[GR_OCTAL_MAX_DIGITS + 1]; /* digits k with bit 4, ascending (k >= 0) */
    unsigned nsplit;
    uint16_t *g;             /* g[0 .. count) */
    uint64_t count, cap;
    uint16_t max_value;
    uint64_t *tally;         /* tally[v]: positions with value v */
    /* Options of the current heap other than those in split tables,
     * marked with hstamp. */
    uint8_t *hmark;
    uint8_t hstamp;
    /* Split tables: table[m % RING] describes m = slot_m[m % RING]: value v
     * is in it when table[v] == slot_stamp. In MODE_PLAIN it holds every
     * split of m, a + b = m, a, b >= 1; in MODE_SPARSE only those with a
     * rare part. */
    uint8_t *table[RING];
    uint64_t slot_m[RING];
    uint8_t slot_stamp[RING];
    bool slot_valid[RING];
    uint8_t next_stamp[RING];
    /* Rare/common state (see grundys.c for the method). */
    value_mode mode;
    unsigned mask;
    unsigned range;          /* least power of two above max_value and mask */
    unsigned top;            /* min(2 * range, VALUE_SPACE) */
    uint64_t *rare_pos;      /* rare positions >= 1, ascending (MODE_SPARSE) */
    uint16_t *rare_val;
    size_t nrare, rare_cap;
    uint16_t *common16;      /* bit j of common16[i]: 16 i + j is common (below top) */
    uint16_t *want;
    uint64_t next_check;     /* count at which mode and mask are chosen again */
    uint64_t work_sparse;    /* since the last choice, in MODE_SPARSE: its work, */
    uint64_t work_plain;     /* ... and what MODE_PLAIN would have done instead */
    bool sparse_lost;        /* MODE_SPARSE did worse over the last stretch */
    unsigned range_seen;
} octal_solver;

/* The code is one gr_octal_parse could have made. */
bool octal_code_valid(const gr_octal_code *code);

/* g(n), n = sv->count, g[0 .. n) known; GR_ERANGE when it would reach
 * VALUE_LIMIT. Keeps sv->work_sparse and sv->work_plain. */
gr_status octal_next_value(octal_solver *sv, uint16_t *value);

/* The certificate, checked for count = N values of g: the least period
 * and its least preperiod, when certified. */
bool octal_find_period(const uint16_t *g, uint64_t N, unsigned t, uint64_t *pre,
                       uint64_t *period);

/* The least count at which the certificate holds for that period and
 * preperiod. */
uint64_t octal_first_certified_count(uint64_t pre, uint64_t period, unsigned t);

#endif
