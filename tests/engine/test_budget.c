/* SPDX-License-Identifier: MIT */
/* Tests for work budgets (include/grundy/budget.h): steps, the deadline on
 * an injected clock, the cancel flag, shares and the real thread clock. */
#include "grundy/budget.h"

#include <check.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "check_main.h"
#include "grundy/strange.h"

/* A clock the test moves by hand; counts how often it is read. */
typedef struct fake_clock {
    uint64_t now;
    unsigned reads;
} fake_clock;

static uint64_t fake_now(void *ctx)
{
    fake_clock *c = ctx;
    c->reads++;
    return c->now;
}

START_TEST(test_steps_only)
{
    gr_budget b = gr_budget_make(10);
    ck_assert(gr_budget_spend(&b, 4));
    ck_assert(gr_budget_spend(&b, 6));
    ck_assert_uint_eq(b.left, 0);
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_STEPS);
    ck_assert(!gr_budget_spend(&b, 1));
    gr_budget big = gr_budget_make(UINT64_MAX);
    for (int i = 0; i < 1000; i++)
        ck_assert(gr_budget_spend(&big, UINT64_C(1) << 40)); /* no deadline: never read */
    ck_assert_int_eq(gr_budget_stopped(&big), GR_STOP_NONE);
}
END_TEST

/* The clock is read once per GR_BUDGET_CHECK_STEPS steps, and a passed
 * deadline empties the budget at the next reading. */
START_TEST(test_deadline_read_every_so_many_steps)
{
    fake_clock c = { 1000, 0 };
    gr_deadline d;
    gr_deadline_start_clock(&d, 500, NULL, fake_now, &c);
    ck_assert_uint_eq(c.reads, 1);
    gr_budget b = gr_budget_make_deadline(UINT64_MAX, &d);
    for (uint64_t i = 0; i < GR_BUDGET_CHECK_STEPS - 1; i++)
        ck_assert(gr_budget_spend(&b, 1));
    ck_assert_uint_eq(c.reads, 1);
    ck_assert(gr_budget_spend(&b, 1)); /* the reading: 1000 < 1500 */
    ck_assert_uint_eq(c.reads, 2);
    c.now = 1499;
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS));
    ck_assert_uint_eq(c.reads, 3);
    c.now = 1500;
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS - 1)); /* not read yet */
    ck_assert_uint_eq(c.reads, 3);
    ck_assert(!gr_budget_spend(&b, 1));
    ck_assert_uint_eq(c.reads, 4);
    ck_assert_uint_eq(b.left, 0);
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_CPU);
    ck_assert_int_eq(d.stop, GR_STOP_CPU);
    ck_assert(!gr_budget_spend(&b, 0) || b.left == 0);
    ck_assert(!gr_budget_spend(&b, 1));
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_CPU); /* still the deadline, not the steps */
    ck_assert_uint_eq(gr_deadline_elapsed(&d), 500);
}
END_TEST

/* Work paid for up front ticks: the deadline is read without spending. */
START_TEST(test_tick)
{
    fake_clock c = { 0, 0 };
    gr_deadline d;
    gr_deadline_start_clock(&d, 100, NULL, fake_now, &c);
    gr_budget b = gr_budget_make_deadline(50, &d);
    ck_assert(gr_budget_spend(&b, 50));
    ck_assert(gr_budget_tick(&b, GR_BUDGET_CHECK_STEPS - 50 - 1));
    c.now = 100;
    ck_assert(!gr_budget_tick(&b, 1));
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_CPU);
    ck_assert(!gr_budget_tick(&b, 1));
    gr_budget free_run = gr_budget_make(0);
    ck_assert(gr_budget_tick(&free_run, UINT64_MAX - 1)); /* no deadline: ticks are free */
}
END_TEST

START_TEST(test_cancel)
{
    fake_clock c = { 0, 0 };
    atomic_bool cancel;
    atomic_init(&cancel, false);
    gr_deadline d;
    gr_deadline_start_clock(&d, UINT64_MAX, &cancel, fake_now, &c);
    ck_assert_uint_eq(d.end_ns, UINT64_MAX);
    gr_budget b = gr_budget_make_deadline(UINT64_MAX, &d);
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS));
    c.now = UINT64_MAX - 1; /* no limit in time: never stops for it */
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS));
    atomic_store(&cancel, true);
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS - 1));
    ck_assert(!gr_budget_spend(&b, 1));
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_CANCEL);
    ck_assert(gr_budget_check(&b) == false);
}
END_TEST

/* A share carries the deadline; once the deadline stopped work, every new
 * share is empty and says why. */
START_TEST(test_share)
{
    fake_clock c = { 0, 0 };
    gr_deadline d;
    gr_deadline_start_clock(&d, 10, NULL, fake_now, &c);
    gr_budget whole = gr_budget_make_deadline(1000000, &d);
    gr_budget part = gr_budget_share(&whole, 300000);
    ck_assert_uint_eq(part.left, 300000);
    ck_assert_ptr_eq(part.deadline, &d);
    c.now = 10;
    ck_assert(!gr_budget_spend(&part, 200000));
    ck_assert_int_eq(gr_budget_stopped(&part), GR_STOP_CPU);
    gr_budget next = gr_budget_share(&whole, 300000);
    ck_assert_uint_eq(next.left, 0);
    ck_assert_int_eq(gr_budget_stopped(&next), GR_STOP_CPU);
    ck_assert_int_eq(gr_budget_stopped(&whole), GR_STOP_CPU);
    ck_assert(!gr_budget_check(&whole));
}
END_TEST

/* A lazy deadline reads the clock first after GR_BUDGET_CHECK_STEPS steps
 * and counts its limit from there; work that ends before costs no reading. */
START_TEST(test_lazy)
{
    fake_clock c = { 7000, 0 };
    gr_deadline d;
    gr_deadline_start_lazy(&d, 100, NULL, fake_now, &c);
    gr_budget b = gr_budget_make_deadline(UINT64_MAX, &d);
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS - 1));
    ck_assert_uint_eq(c.reads, 0);
    ck_assert_uint_eq(gr_deadline_elapsed(&d), 0);
    ck_assert_uint_eq(c.reads, 0);
    c.now = 9000;
    ck_assert(gr_budget_spend(&b, 1)); /* the first reading starts the limit: 9000 + 100 */
    ck_assert_uint_eq(c.reads, 1);
    c.now = 9099;
    ck_assert(gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS));
    ck_assert_uint_eq(gr_deadline_elapsed(&d), 99);
    c.now = 9100;
    ck_assert(!gr_budget_spend(&b, GR_BUDGET_CHECK_STEPS));
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_CPU);
}
END_TEST

/* The real clock: a solver that would run for about a billion steps
 * (the move to 0 of strange nim at x = 10^18, k = 10^9) stops within a loose bound of a
 * 20 ms deadline of the thread's CPU time. */
START_TEST(test_thread_clock_stops_a_solver)
{
    gr_deadline d;
    gr_deadline_start(&d, 20 * UINT64_C(1000000), NULL);
    gr_budget b = gr_budget_make_deadline(UINT64_MAX, &d);
    uint64_t take;
    uint64_t t0 = gr_thread_cpu_ns();
    ck_assert_int_eq(gr_strange_move(UINT64_C(1000000000000000000), 1000000000, 0, &b, &take), GR_ELIMIT);
    uint64_t used = gr_thread_cpu_ns() - t0;
    ck_assert_int_eq(gr_budget_stopped(&b), GR_STOP_CPU);
    ck_assert_uint_ge(used, 20 * UINT64_C(1000000));
    ck_assert_uint_lt(used, 60 * UINT64_C(1000000));
}
END_TEST

static Suite *budget_suite(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("budget");
    tcase_add_test(tc, test_steps_only);
    tcase_add_test(tc, test_deadline_read_every_so_many_steps);
    tcase_add_test(tc, test_tick);
    tcase_add_test(tc, test_cancel);
    tcase_add_test(tc, test_share);
    tcase_add_test(tc, test_lazy);
    tcase_add_test(tc, test_thread_clock_stops_a_solver);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(budget_suite());
}
