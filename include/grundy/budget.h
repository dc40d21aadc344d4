/* SPDX-License-Identifier: MIT */
/* Work budgets: every solver that can run long takes one.
 *
 * A budget counts elementary steps (roughly, inner-loop iterations). A solver
 * spends before it works; when the budget cannot cover the next piece of
 * work the solver stops and returns GR_ELIMIT instead of running on. */
#ifndef GRUNDY_BUDGET_H
#define GRUNDY_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gr_budget {
    uint64_t left; /* steps that may still be spent */
} gr_budget;

static inline gr_budget gr_budget_make(uint64_t steps)
{
    gr_budget b = { steps };
    return b;
}

/* Spends `steps`. Returns false, and empties the budget, when fewer remain. */
static inline bool gr_budget_spend(gr_budget *b, uint64_t steps)
{
    if (b->left < steps) {
        b->left = 0;
        return false;
    }
    b->left -= steps;
    return true;
}

#endif
