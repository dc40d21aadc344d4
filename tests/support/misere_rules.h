/* SPDX-License-Identifier: MIT */
/* The rules of heap games written from their definitions, for the tests
 * that check the misere quotients independently of the engine
 * (test_misere_brute.c, test_misere_closure.c): no engine code. */
#ifndef GRUNDY_TESTS_MISERE_RULES_H
#define GRUNDY_TESTS_MISERE_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "grundy/misere_quotient.h"

#define BIG_BUDGET (UINT64_C(1) << 40)

/* ---- the rules, written from the game's definition ---- */

typedef struct rules {
    unsigned digit[10]; /* octal: digit[k], k = 1 .. ndigits */
    unsigned ndigits;
    unsigned sub[8];    /* subtraction set, when nsub > 0 */
    unsigned nsub;
    bool grundys;       /* Grundy's game: split a heap into two unequal heaps */
} rules;

typedef struct option {
    unsigned nparts, part[2]; /* the heaps a move leaves in place of one heap */
} option;

/* Octal digit d for taking k: bit 1 leaves nothing, bit 2 one heap, bit 4 two
 * nonempty heaps. */
static inline unsigned options_of(const rules *r, unsigned n, option *out)
{
    unsigned count = 0;
    if (r->grundys) {
        for (unsigned a = 1; 2 * a < n; a++)
            out[count++] = (option){ 2, { a, n - a } };
        return count;
    }
    if (r->nsub) {
        for (unsigned i = 0; i < r->nsub; i++) {
            if (r->sub[i] == n)
                out[count++] = (option){ 0, { 0, 0 } };
            else if (r->sub[i] < n)
                out[count++] = (option){ 1, { n - r->sub[i], 0 } };
        }
        return count;
    }
    for (unsigned k = 1; k <= r->ndigits && k <= n; k++) {
        unsigned d = r->digit[k], rest = n - k;
        if ((d & 1) && rest == 0)
            out[count++] = (option){ 0, { 0, 0 } };
        if ((d & 2) && rest > 0)
            out[count++] = (option){ 1, { rest, 0 } };
        for (unsigned a = 1; (d & 4) && 2 * a <= rest; a++)
            out[count++] = (option){ 2, { a, rest - a } };
    }
    return count;
}

static inline rules octal_rules(const char *text)
{
    rules r = { 0 };
    for (const char *p = strchr(text, '.') + 1; *p; p++)
        r.digit[++r.ndigits] = (unsigned)(*p - '0');
    return r;
}

static inline void build(const gr_mq_rules *r, uint64_t max_heap, gr_mq *q)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    REQUIRE(gr_mq_build(r, max_heap, &b, q) == GR_OK);
}

static inline gr_mq_rules octal_quotient(const char *text, uint64_t max_heap, gr_mq *q)
{
    gr_octal_code code;
    REQUIRE(gr_octal_parse(text, &code) == GR_OK);
    gr_mq_rules r = gr_mq_octal(&code);
    build(&r, max_heap, q);
    return r;
}

#endif
