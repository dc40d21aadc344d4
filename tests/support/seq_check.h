/* SPDX-License-Identifier: MIT */
/* Checks on certified periods shared by the heap-game tests. */
#ifndef GRUNDY_TESTS_SEQ_CHECK_H
#define GRUNDY_TESTS_SEQ_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "check_main.h"
#include "grundy/seq.h"

/* The reported (preperiod, period) is the least one: it holds on the naive
 * values g[0 .. upto), fails one step earlier, and no p / q (q prime) is a
 * period from the preperiod (every eventual period is a multiple of the
 * least one). */
static inline void check_least_period(const gr_seq *s, const uint16_t *g, uint64_t upto)
{
    uint64_t pre = s->preperiod, p = s->period;
    REQUIRE(upto >= pre + 2 * p);
    for (uint64_t n = pre; n + p < upto; n++)
        REQUIRE_EQ(g[n], g[n + p]);
    if (pre > 0)
        REQUIRE(g[pre - 1] != g[pre - 1 + p]);
    uint64_t rest = p;
    for (uint64_t q = 2; q <= rest; q++) {
        if (rest % q != 0)
            continue;
        while (rest % q == 0)
            rest /= q;
        bool differs = false;
        for (uint64_t n = pre; n < pre + p && !differs; n++)
            differs = g[n] != g[n + p / q];
        REQUIRE(differs);
    }
}

#endif
