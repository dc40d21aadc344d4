/* SPDX-License-Identifier: MIT */
/* Subtraction games with infinite rule-defined sets: a move takes s in S
 * from one heap, with S one of
 *   squares        {1, 4, 9, 16, ...}
 *   powers_of_two  {1, 2, 4, 8, ...}
 *   primes         {2, 3, 5, 7, 11, ...}
 * g(n) = mex{ g(n - s) : s in S, s <= n }. No period is known or claimed
 * for squares or primes, so values are computed up to a bound and a heap
 * past it is GR_EBOUND. (powers_of_two gives g(n) = n mod 3, since no power
 * of two is divisible by 3; the solver computes it like the others and the
 * tests check it.)
 *
 * Results come in table-ready shapes: Grundy values as a gr_seq (uint16_t,
 * never marked periodic), win/loss as a bitset of uint64_t words. All
 * integer arithmetic: square roots by Newton's method, primality by a sieve
 * (sets) or deterministic Miller-Rabin (single numbers).
 *
 * Practical bounds (measured on one x86-64 core, gcc -O2; the budget is
 * what enforces them, in steps ~ inner-loop iterations):
 *   win/loss  squares 10^7 0.1 s (69489 P-positions), 10^8 2.4 s (346814),
 *             10^9 minutes (the bitset leaves the cache);
 *             powers_of_two 10^8 0.65 s (a third are P-positions);
 *             primes 10^6 0.9 s, 3 * 10^6 8 s, 10^7 90 s (about 1 in 6 is a
 *             P-position, so the cost is quadratic: ~N^2 / 800 word steps)
 *   Grundy    squares 10^5 0.01 s (max value 74), 10^6 0.3 s (168),
 *             3 * 10^6 2.3 s; powers_of_two 10^7 0.1 s, 10^8 2 s;
 *             primes 10^5 0.14 s, 3 * 10^5 1.4 s (max value 11) */
#ifndef GRUNDY_RULES_H
#define GRUNDY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/seq.h"
#include "grundy/status.h"

typedef enum gr_rule {
    GR_RULE_SQUARES = 0,
    GR_RULE_POWERS_OF_TWO = 1,
    GR_RULE_PRIMES = 2,
} gr_rule;

#define GR_RULE_COUNT 3
#define GR_RULE_MAX_N UINT64_C(4294967295) /* largest heap bound accepted (2^32 - 1) */

/* "squares", "powers_of_two", "primes"; NULL for a value outside the enum. */
const char *gr_rule_name(gr_rule rule);

/* The rule named `name` (exact, lower case); GR_EINVAL for any other text. */
gr_status gr_rule_parse(const char *name, gr_rule *rule);

/* Whether s is in the rule's set (any s; no allocation, no budget: at most
 * a few hundred 128-bit multiplications for primes). */
bool gr_rule_contains(gr_rule rule, uint64_t s);

/* The smallest element of the set greater than `after`, into *next; false
 * when there is none below 2^64 (or the rule is invalid). */
bool gr_rule_next(gr_rule rule, uint64_t after, uint64_t *next);

/* How many of the n ascending values s[0 .. n) are <= x (binary search). */
size_t gr_sorted_count_upto(const uint64_t *s, size_t n, uint64_t x);

/* The elements of S that are <= limit, ascending. */
typedef struct gr_rule_set {
    uint64_t *s;
    size_t count;
    uint64_t limit;
} gr_rule_set;

/* Enumerates S up to limit <= GR_RULE_MAX_N (GR_EINVAL beyond, or for an
 * invalid rule): squares by k = 1 .. isqrt(limit), powers of two by
 * doubling, primes by an odd-only sieve of limit / 16 bytes. Spends
 * limit + 1 steps for primes, one per element otherwise. GR_ELIMIT,
 * GR_ENOMEM; on error *out is zeroed. Free with gr_rule_set_free. */
gr_status gr_rule_set_make(gr_rule rule, uint64_t limit, gr_budget *b, gr_rule_set *out);
void gr_rule_set_free(gr_rule_set *set);

/* Win/loss of heaps 0 .. count - 1: bit n (words[n / 64] >> (n % 64) & 1) is
 * 1 when the mover wins from n (an N-position), 0 for a P-position. Bits
 * from count to the end of the last word are 0. */
typedef struct gr_outcome_bits {
    const uint64_t *words; /* (count + 63) / 64 words */
    uint64_t count;        /* heaps known */
    uint64_t p_count;      /* P-positions among them */
    void *owned;           /* storage freed by gr_outcome_bits_free */
} gr_outcome_bits;

/* Whether the mover wins from heap n: GR_OK, or GR_EBOUND for n >= count. */
gr_status gr_outcome_bits_get(const gr_outcome_bits *o, uint64_t n, bool *win);
void gr_outcome_bits_free(gr_outcome_bits *o);

/* Win/loss of heaps 0 .. n_max (n_max <= GR_RULE_MAX_N, else GR_EINVAL) by
 * a forward sweep: the least heap not yet marked is a P-position p, and
 * p + s is marked an N-position for every s in S. Cost: the set, plus one
 * step per 64 heaps, plus one per mark (P-positions times |S <= n_max|).
 * GR_ELIMIT, GR_ENOMEM; on error *out is zeroed. Free with
 * gr_outcome_bits_free. */
gr_status gr_rule_outcomes(gr_rule rule, uint64_t n_max, gr_budget *b, gr_outcome_bits *out);

/* Grundy values g(0 .. n_max) into out (count n_max + 1, periodic false).
 * n_max <= GR_RULE_MAX_N, else GR_EINVAL. Cost: the set, plus
 * 1 + |S <= n| steps per heap n (O(n_max * |S <= n_max|)). GR_ERANGE when a
 * value would reach 65535; GR_ELIMIT, GR_ENOMEM; on error *out is zeroed.
 * Free with gr_seq_free. */
gr_status gr_rule_grundy(gr_rule rule, uint64_t n_max, gr_budget *b, gr_seq *out);

/* The smallest s in S, s <= n, with g(n - s) == target, using g from
 * gr_rule_grundy for the same rule (or any gr_seq of its values). One step
 * per element tried (for primes each costs a Miller-Rabin test per odd
 * candidate up to it, bounded by the prime gap). GR_EBOUND when n is past
 * g; GR_EINVAL when no move reaches target (or the rule is invalid);
 * GR_ELIMIT. *take is written only on GR_OK. */
gr_status gr_rule_move_grundy(gr_rule rule, const gr_seq *g, uint64_t n, uint16_t target,
                              gr_budget *b, uint64_t *take);

/* The smallest s in S, s <= n, such that n - s is a P-position in o (from
 * gr_rule_outcomes for the same rule): a winning move. GR_EBOUND when
 * n >= o->count; GR_EINVAL when n is itself a P-position (no winning move)
 * or the rule is invalid; GR_ELIMIT as above. */
gr_status gr_rule_move_win(gr_rule rule, const gr_outcome_bits *o, uint64_t n, gr_budget *b,
                           uint64_t *take);

#endif
