/* SPDX-License-Identifier: MIT */
/* Octal games d0.d1 d2 ... d8 and Grundy's game.
 *
 * Digit d_k, bit 1: remove k tokens when that empties the heap; bit 2: remove
 * k and leave one non-empty heap; bit 4: remove k and split the rest into two
 * non-empty heaps. d0 (k = 0) is 0 or 4: 4 splits a heap into two non-empty
 * heaps without removing a token (4.7 is Daisies). Its bits 1 and 2 are not
 * games: bit 1 would take an empty heap away, bit 2 would leave the heap as
 * it was (a pass, so play need not end); codes with them are refused.
 *
 * Periodicity certificate (Winning Ways; as used by CGSuite): with t the
 * largest k whose digit is non-zero, if g(n + p) = g(n) for all n with
 * s <= n < N and N >= max(2s + 2p + t - 1, p + t + 1), then g(n + p) = g(n)
 * for all n >= s. Solvers compute values until this holds. */
#ifndef GRUNDY_OCTAL_H
#define GRUNDY_OCTAL_H

#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/heap.h"
#include "grundy/seq.h"
#include "grundy/status.h"

#define GR_OCTAL_MAX_DIGITS 8

typedef struct gr_octal_code {
    uint8_t digit[GR_OCTAL_MAX_DIGITS + 1]; /* digit[k] for k = 0 .. t; digit[0] is 0 or 4 */
    unsigned t;                             /* largest k with digit[k] != 0 (0 only for 4.0) */
} gr_octal_code;

/* Parses "d0.d1d2...": d0 is 0 or 4, then 1 to 8 digits, each 0-7, at
 * least one non-zero digit in all (trailing zeros allowed). GR_EINVAL
 * otherwise, *code untouched. */
gr_status gr_octal_parse(const char *text, gr_octal_code *code);

/* Writes the canonical text "d0.d1..dt" (at most 11 bytes with the NUL;
 * "4.0" when t = 0). */
void gr_octal_format(const gr_octal_code *code, char buf[16]);

/* Computes g(0), g(1), ... until the periodicity certificate holds or
 * max_values values are known. Succeeds (GR_OK) when a period is certified,
 * or when g(0 .. need) are known; otherwise GR_EBOUND when max_values was
 * reached, GR_ELIMIT when the budget ran out. GR_ERANGE when a value would
 * reach 65535. On error *out is zeroed. Free with gr_seq_free. */
gr_status gr_octal_solve(const gr_octal_code *code, uint64_t need, uint64_t max_values,
                         gr_budget *b, gr_seq *out);

/* Finds a move from heap n to a position of value `target` (the XOR of the
 * heaps it leaves), using s from gr_octal_solve for the same code.
 * Heaps past s->count need s->periodic; the search then costs O(preperiod +
 * period) per splitting digit, not O(n). GR_EINVAL when no move reaches
 * target, GR_EBOUND when a needed value is unknown. */
gr_status gr_octal_move(const gr_octal_code *code, const gr_seq *s, uint64_t n,
                        uint16_t target, gr_heap_move *move);

/* Grundy's game: split one heap into two non-empty heaps of different
 * sizes. Computes g(0 .. need) (never periodic: none is known). GR_ELIMIT when
 * the budget runs out. Free with gr_seq_free. */
gr_status gr_grundys_solve(uint64_t need, gr_budget *b, gr_seq *out);

/* gr_grundys_solve that calls count(ctx, values computed so far) every
 * 2^16 values, from the calling thread (a progress display for table
 * builds). count may be NULL. */
typedef void gr_count_fn(void *ctx, uint64_t done);
gr_status gr_grundys_solve_counted(uint64_t need, gr_budget *b, gr_seq *out, gr_count_fn *count,
                                   void *ctx);

/* A split of heap n < s->count into two unequal heaps whose values XOR to
 * target. GR_EINVAL when none exists, GR_EBOUND when n >= s->count. */
gr_status gr_grundys_move(const gr_seq *s, uint64_t n, uint16_t target, gr_heap_move *move);

/* The rare/common split of a Grundy's game sequence, for finding moves
 * without scanning every split. A value v is rare when popcount(v & mask)
 * is even; rare ^ rare and common ^ common are rare, rare ^ common is
 * common, whatever the mask. The mask is chosen (Walsh-Hadamard transform
 * of the value counts) to make rare positions fewest. */
typedef struct gr_rare_index {
    uint16_t mask;
    uint64_t count;     /* rare positions listed */
    uint32_t *rare;     /* the heaps n < s->count (n >= 1) with a rare value, ascending */
} gr_rare_index;

/* Builds the index of s (values below 65536 and counts below 2^32).
 * GR_ENOMEM on allocation failure. Free with gr_rare_index_free. */
gr_status gr_rare_index_build(const gr_seq *s, gr_rare_index *ix);
void gr_rare_index_free(gr_rare_index *ix);

/* As gr_grundys_move, but a common target costs O(rare positions) and a rare
 * one checks rare pairs first, then scans splits of two common heaps from
 * the smallest (which the density of common values makes short in
 * practice). Same results contract as gr_grundys_move. */
gr_status gr_grundys_move_indexed(const gr_seq *s, const gr_rare_index *ix, uint64_t n,
                                  uint16_t target, gr_heap_move *move);

#endif
