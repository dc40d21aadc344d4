/* SPDX-License-Identifier: MIT */
/* Tests for query memory accounts (include/grundy/alloc.h): charges by
 * usable size, credits on free, the per-query limit, the process-wide
 * total across threads, and a real solver stopped by its account with the
 * same values as an unlimited run when it fits. */
#include "grundy/alloc.h"

#include <check.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "grundy/octal.h"

START_TEST(test_no_account_is_plain_malloc)
{
    uint64_t before = gr_mem_total_used();
    char *p = gr_malloc(1000);
    ck_assert_ptr_nonnull(p);
    p = gr_realloc(p, 100000);
    ck_assert_ptr_nonnull(p);
    gr_free(p);
    ck_assert_uint_eq(gr_mem_total_used(), before);
}
END_TEST

START_TEST(test_charge_and_credit)
{
    gr_mem_account a;
    ck_assert(gr_mem_open(&a, 0));
    char *p = gr_malloc(1000);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(a.used, malloc_usable_size(p));
    ck_assert_uint_eq(gr_mem_total_used(), a.used);
    uint64_t *z = gr_calloc(500, sizeof *z);
    for (size_t i = 0; i < 500; i++)
        REQUIRE_EQ(z[i], 0);
    ck_assert_uint_eq(a.used, malloc_usable_size(p) + malloc_usable_size(z));
    p = gr_realloc(p, 200000);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(a.used, malloc_usable_size(p) + malloc_usable_size(z));
    p = gr_realloc(p, 10);
    ck_assert_uint_eq(a.used, malloc_usable_size(p) + malloc_usable_size(z));
    ck_assert_uint_ge(a.peak, 200000);
    gr_free(p);
    gr_free(z);
    gr_free(NULL);
    ck_assert_uint_eq(a.used, 0);
    ck_assert_int_eq(gr_mem_stopped(&a), GR_MEM_OK);
    gr_mem_close(&a);
    ck_assert_uint_eq(gr_mem_total_used(), 0);
}
END_TEST

START_TEST(test_limit_refuses_and_names_it)
{
    gr_mem_account a;
    ck_assert(gr_mem_open(&a, 100000));
    char *p = gr_malloc(60000);
    ck_assert_ptr_nonnull(p);
    memset(p, 7, 60000);
    ck_assert_ptr_null(gr_malloc(60000));
    ck_assert_int_eq(gr_mem_stopped(&a), GR_MEM_QUERY);
    /* A refused realloc leaves the block as it was. */
    ck_assert_ptr_null(gr_realloc(p, 120000));
    ck_assert_int_eq(p[59999], 7);
    ck_assert_ptr_null(gr_calloc(SIZE_MAX / 2, 4)); /* overflowing product */
    char *small = gr_malloc(1000);
    ck_assert_ptr_nonnull(small);
    ck_assert_uint_le(a.used, 100000);
    gr_free(small);
    gr_free(p);
    gr_mem_close(&a);
}
END_TEST

START_TEST(test_accounts_do_not_nest)
{
    gr_mem_account a, b;
    ck_assert(gr_mem_open(&a, 1000));
    ck_assert(!gr_mem_open(&b, 0));
    ck_assert_ptr_null(gr_malloc(5000)); /* still a's limit */
    gr_mem_close(&b);                    /* not open: no effect */
    ck_assert_int_eq(gr_mem_stopped(&a), GR_MEM_QUERY);
    gr_mem_close(&a);
    void *p = gr_malloc(5000);
    ck_assert_ptr_nonnull(p);
    gr_free(p);
}
END_TEST

START_TEST(test_free_of_older_memory_never_goes_below_zero)
{
    void *old = gr_malloc(50000); /* outside any account: a cached sequence */
    gr_mem_account a;
    ck_assert(gr_mem_open(&a, 0));
    void *p = gr_malloc(100);
    gr_free(old);
    ck_assert_uint_eq(a.used, 0);
    ck_assert_uint_eq(gr_mem_total_used(), 0);
    gr_free(p);
    gr_mem_close(&a);
    ck_assert_uint_eq(gr_mem_total_used(), 0);
}
END_TEST

START_TEST(test_big_accounts_trim_on_close)
{
    gr_mem_account a;
    ck_assert(gr_mem_open(&a, 0));
    gr_free(gr_malloc(1 << 20));
    gr_mem_close(&a);
    ck_assert(!a.trimmed);
    ck_assert(gr_mem_open(&a, 0));
    char *big = gr_malloc(GR_MEM_TRIM_BYTES);
    ck_assert_ptr_nonnull(big);
    memset(big, 1, GR_MEM_TRIM_BYTES);
    gr_free(big);
    gr_mem_close(&a);
    ck_assert(a.trimmed);
    ck_assert_uint_ge(a.peak, GR_MEM_TRIM_BYTES);
}
END_TEST

/* Holds `bytes` under an account on its own thread until told to let go. */
typedef struct holder {
    size_t bytes;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int phase; /* 0 start, 1 holding, 2 release, 3 done */
    bool got;
} holder;

static void set_phase(holder *h, int phase)
{
    pthread_mutex_lock(&h->mu);
    h->phase = phase;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static void wait_phase(holder *h, int phase)
{
    pthread_mutex_lock(&h->mu);
    while (h->phase < phase)
        pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

static void *hold(void *arg)
{
    holder *h = arg;
    gr_mem_account a;
    gr_mem_open(&a, 0);
    void *p = gr_malloc(h->bytes);
    h->got = p != NULL;
    set_phase(h, 1);
    wait_phase(h, 2);
    gr_free(p);
    gr_mem_close(&a);
    set_phase(h, 3);
    return NULL;
}

START_TEST(test_total_bounds_accounts_together)
{
    gr_mem_set_total(1 << 20);
    ck_assert_uint_eq(gr_mem_total_limit(), 1 << 20);
    holder h = { .bytes = 700000, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, hold, &h), 0);
    wait_phase(&h, 1);
    ck_assert(h.got);
    ck_assert_uint_ge(gr_mem_total_used(), 700000);
    gr_mem_account a;
    ck_assert(gr_mem_open(&a, 0));
    ck_assert_ptr_null(gr_malloc(500000)); /* fits a's own (no) limit, not the total */
    ck_assert_int_eq(gr_mem_stopped(&a), GR_MEM_TOTAL);
    set_phase(&h, 2);
    wait_phase(&h, 3);
    pthread_join(t, NULL);
    void *p = gr_malloc(500000); /* the other account has closed */
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_le(gr_mem_total_peak(), 1 << 20);
    gr_free(p);
    gr_mem_close(&a);
    gr_mem_set_total(0);
    ck_assert_uint_eq(gr_mem_total_limit(), 0);
}
END_TEST

/* Grundy's game to 2^16 needs its values (2 bytes each) and its marks: far
 * past 64 KiB, well within 64 MiB. */
START_TEST(test_solver_stops_at_its_account)
{
    gr_budget free_budget = gr_budget_make(UINT64_MAX);
    gr_seq want;
    ck_assert_int_eq(gr_grundys_solve(65536, &free_budget, &want), GR_OK);

    gr_mem_account a;
    ck_assert(gr_mem_open(&a, 64 << 10));
    gr_budget b = gr_budget_make(UINT64_MAX);
    gr_seq got;
    ck_assert_int_eq(gr_grundys_solve(65536, &b, &got), GR_ENOMEM);
    ck_assert_int_eq(gr_mem_stopped(&a), GR_MEM_QUERY);
    ck_assert_uint_eq(a.used, 0); /* what it had taken is given back */
    gr_mem_close(&a);

    ck_assert(gr_mem_open(&a, 64 << 20));
    b = gr_budget_make(UINT64_MAX);
    ck_assert_int_eq(gr_grundys_solve(65536, &b, &got), GR_OK);
    ck_assert_int_eq(gr_mem_stopped(&a), GR_MEM_OK);
    ck_assert_uint_gt(a.used, 65536 * 2);
    ck_assert_uint_eq(got.count, want.count);
    for (uint64_t n = 0; n <= 65536; n++) {
        uint16_t x, y;
        REQUIRE_EQ(gr_seq_value(&got, n, &x), GR_OK);
        REQUIRE_EQ(gr_seq_value(&want, n, &y), GR_OK);
        REQUIRE_EQ(x, y);
    }
    gr_seq_free(&got);
    ck_assert_uint_eq(a.used, 0);
    gr_mem_close(&a);
    gr_seq_free(&want);
}
END_TEST

static Suite *alloc_suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_no_account_is_plain_malloc);
    tcase_add_test(tc, test_charge_and_credit);
    tcase_add_test(tc, test_limit_refuses_and_names_it);
    tcase_add_test(tc, test_accounts_do_not_nest);
    tcase_add_test(tc, test_free_of_older_memory_never_goes_below_zero);
    tcase_add_test(tc, test_big_accounts_trim_on_close);
    tcase_add_test(tc, test_total_bounds_accounts_together);
    tcase_add_test(tc, test_solver_stops_at_its_account);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(alloc_suite());
}
