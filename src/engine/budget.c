/* SPDX-License-Identifier: MIT */
#include "grundy/budget.h"

#include <time.h>

uint64_t gr_thread_cpu_ns(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return 0;
    return (uint64_t)t.tv_sec * UINT64_C(1000000000) + (uint64_t)t.tv_nsec;
}

static uint64_t deadline_now(const gr_deadline *d)
{
    return d->clock ? d->clock(d->clock_ctx) : gr_thread_cpu_ns();
}

/* Starts d's limit at `now`. */
static void deadline_set(gr_deadline *d, uint64_t now)
{
    d->start_ns = now;
    d->end_ns = d->limit_ns > UINT64_MAX - now ? UINT64_MAX : now + d->limit_ns;
    d->started = true;
}

void gr_deadline_start_lazy(gr_deadline *d, uint64_t limit_ns, const atomic_bool *cancel,
                            gr_clock_fn clock, void *clock_ctx)
{
    d->clock = clock;
    d->clock_ctx = clock_ctx;
    d->cancel = cancel;
    d->stop = GR_STOP_NONE;
    d->limit_ns = limit_ns;
    d->start_ns = 0;
    d->end_ns = UINT64_MAX;
    d->started = false;
}

void gr_deadline_start_clock(gr_deadline *d, uint64_t limit_ns, const atomic_bool *cancel,
                             gr_clock_fn clock, void *clock_ctx)
{
    gr_deadline_start_lazy(d, limit_ns, cancel, clock, clock_ctx);
    deadline_set(d, deadline_now(d));
}

void gr_deadline_start(gr_deadline *d, uint64_t limit_ns, const atomic_bool *cancel)
{
    gr_deadline_start_clock(d, limit_ns, cancel, NULL, NULL);
}

uint64_t gr_deadline_elapsed(const gr_deadline *d)
{
    if (!d->started)
        return 0;
    uint64_t now = deadline_now(d);
    return now > d->start_ns ? now - d->start_ns : 0;
}

gr_budget gr_budget_make_deadline(uint64_t steps, gr_deadline *d)
{
    gr_budget b = gr_budget_make(steps);
    b.deadline = d;
    if (d)
        b.until_check = d->stop ? 0 : GR_BUDGET_CHECK_STEPS;
    return b;
}

gr_budget gr_budget_share(const gr_budget *b, uint64_t steps)
{
    gr_budget s = gr_budget_make_deadline(steps, b->deadline);
    if (b->deadline)
        s.until_check = b->until_check < GR_BUDGET_CHECK_STEPS ? b->until_check : GR_BUDGET_CHECK_STEPS;
    if (b->deadline && b->deadline->stop) {
        s.left = 0;
        s.stop = b->deadline->stop;
    }
    return s;
}

/* Empties b, recording why. */
static bool stopped_by(gr_budget *b, gr_budget_stop why)
{
    b->left = 0;
    b->until_check = 0;
    b->stop = why;
    if (b->deadline && why != GR_STOP_STEPS)
        b->deadline->stop = why;
    return false;
}

bool gr_budget_check(gr_budget *b)
{
    gr_deadline *d = b->deadline;
    if (!d) {
        b->until_check = UINT64_MAX;
        return true;
    }
    if (d->stop)
        return stopped_by(b, d->stop);
    if (d->cancel && atomic_load_explicit(d->cancel, memory_order_relaxed))
        return stopped_by(b, GR_STOP_CANCEL);
    if (!d->started)
        deadline_set(d, deadline_now(d));
    else if (d->end_ns != UINT64_MAX && deadline_now(d) >= d->end_ns)
        return stopped_by(b, GR_STOP_CPU);
    b->until_check = GR_BUDGET_CHECK_STEPS;
    return true;
}

gr_budget_stop gr_budget_stopped(const gr_budget *b)
{
    if (b->stop)
        return b->stop;
    if (b->deadline && b->deadline->stop)
        return b->deadline->stop;
    return b->left == 0 ? GR_STOP_STEPS : GR_STOP_NONE;
}
