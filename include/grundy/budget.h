/* SPDX-License-Identifier: MIT */
/* Work budgets: every solver that can run long takes one.
 *
 * A budget counts elementary steps (roughly, inner-loop iterations). A solver
 * spends before it works; when the budget cannot cover the next piece of
 * work the solver stops and returns GR_ELIMIT instead of running on. Steps
 * make results reproducible: the same query stops at the same step on any
 * machine.
 *
 * A budget may also carry a deadline (gr_deadline): a limit in CPU time and
 * an optional cancel flag, read every GR_BUDGET_CHECK_STEPS steps spent or
 * ticked. Once the deadline has passed or the flag is raised, the budget is
 * emptied and every later spend fails, so the solver stops exactly as when
 * its steps run out; gr_budget_stopped says which of the three it was.
 * Work paid for up front (one spend, then a long loop) calls gr_budget_tick
 * inside the loop, so that the deadline is noticed there too. */
#ifndef GRUNDY_BUDGET_H
#define GRUNDY_BUDGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Steps between two readings of the deadline's clock and cancel flag: a
 * step is a few nanoseconds, so the deadline is noticed within a fraction
 * of a millisecond, and the reading (a system call of about 0.3 us) costs
 * about 0.1% of the work. */
#define GR_BUDGET_CHECK_STEPS (UINT64_C(1) << 16)

/* Why work stopped. */
typedef enum gr_budget_stop {
    GR_STOP_NONE,   /* it did not */
    GR_STOP_STEPS,  /* the step count ran out */
    GR_STOP_CPU,    /* the deadline's CPU time passed */
    GR_STOP_CANCEL, /* the deadline's cancel flag was raised */
} gr_budget_stop;

/* Nanoseconds of some monotonic clock (tests inject a fake one). */
typedef uint64_t (*gr_clock_fn)(void *ctx);

/* A limit in time and a cancel flag, shared by the budgets of one query
 * (and of the shares they hand out). Used by one thread at a time. */
typedef struct gr_deadline {
    gr_clock_fn clock;         /* NULL: the calling thread's CPU time */
    void *clock_ctx;
    uint64_t start_ns;         /* the clock when the deadline was set (or first read, when lazy) */
    uint64_t end_ns;           /* the clock at which work stops */
    uint64_t limit_ns;         /* end_ns - start_ns, saturated */
    bool started;              /* false until a lazy deadline's first reading */
    const atomic_bool *cancel; /* NULL, or raised by another thread to stop the work */
    gr_budget_stop stop;       /* GR_STOP_CPU or GR_STOP_CANCEL once it stopped work */
} gr_deadline;

typedef struct gr_budget {
    uint64_t left;          /* steps that may still be spent */
    uint64_t until_check;   /* steps before the deadline is read again */
    gr_deadline *deadline;  /* NULL: steps only */
    gr_budget_stop stop;    /* set when a spend or a check failed */
} gr_budget;

/* A budget of `steps` with no deadline. */
static inline gr_budget gr_budget_make(uint64_t steps)
{
    gr_budget b = { .left = steps, .until_check = UINT64_MAX, .deadline = 0, .stop = GR_STOP_NONE };
    return b;
}

/* A budget of `steps` that also stops at deadline d (may be NULL). */
gr_budget gr_budget_make_deadline(uint64_t steps, gr_deadline *d);

/* A budget of `steps` under the same deadline as b, for work that b hands
 * to a part of itself (empty when b's deadline has stopped work already). */
gr_budget gr_budget_share(const gr_budget *b, uint64_t steps);

/* Reads the deadline now. Returns false, empties the budget and records
 * why, when the deadline has passed or the cancel flag is raised. */
bool gr_budget_check(gr_budget *b);

/* Spends `steps`. Returns false, and empties the budget, when fewer remain
 * or the deadline has stopped the work. */
static inline bool gr_budget_spend(gr_budget *b, uint64_t steps)
{
    if (b->left < steps) {
        b->left = 0;
        b->stop = b->stop ? b->stop : GR_STOP_STEPS;
        return false;
    }
    b->left -= steps;
    if (b->until_check > steps) {
        b->until_check -= steps;
        return true;
    }
    return gr_budget_check(b);
}

/* Counts `steps` of work already paid for toward the next reading of the
 * deadline, without spending them; false (budget emptied) once the
 * deadline has stopped the work. */
static inline bool gr_budget_tick(gr_budget *b, uint64_t steps)
{
    if (b->until_check > steps) {
        b->until_check -= steps;
        return true;
    }
    return gr_budget_check(b);
}

/* Why b stopped work: GR_STOP_NONE while it has not. */
gr_budget_stop gr_budget_stopped(const gr_budget *b);

/* Starts d: work stops once `limit_ns` more nanoseconds of the calling
 * thread's CPU time have passed (UINT64_MAX: never), or when *cancel
 * (may be NULL) is raised. */
void gr_deadline_start(gr_deadline *d, uint64_t limit_ns, const atomic_bool *cancel);

/* gr_deadline_start on another clock. */
void gr_deadline_start_clock(gr_deadline *d, uint64_t limit_ns, const atomic_bool *cancel,
                             gr_clock_fn clock, void *clock_ctx);

/* gr_deadline_start_clock without reading the clock now: the limit counts
 * from the first reading, after GR_BUDGET_CHECK_STEPS steps, so work that
 * ends before it (most queries) never reads the clock and counts as 0 ns.
 * For many short pieces of work, where two readings each would show. */
void gr_deadline_start_lazy(gr_deadline *d, uint64_t limit_ns, const atomic_bool *cancel,
                            gr_clock_fn clock, void *clock_ctx);

/* Nanoseconds of d's clock since it was started (0 for a lazy deadline
 * never read). */
uint64_t gr_deadline_elapsed(const gr_deadline *d);

/* The calling thread's CPU time in nanoseconds. */
uint64_t gr_thread_cpu_ns(void);

#endif
