/* SPDX-License-Identifier: MIT */
/* The shared cache of computed sequences: hits, eviction under the byte
 * bound, references that outlive eviction, and many threads at once. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "seq_cache.h"
#include "check_main.h"

/* A sequence of n values, each equal to `tag`, owned by the caller. */
static gr_seq make_seq(uint64_t n, uint16_t tag)
{
    uint16_t *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (uint64_t i = 0; i < n; i++)
        v[i] = tag;
    return (gr_seq){ .values = v, .count = n, .max_value = tag, .owned = v };
}

START_TEST(test_hit_and_miss)
{
    gr_seq_cache *c = gr_seq_cache_new(1 << 20);
    ck_assert_ptr_null(gr_seq_cache_get(c, "a", 1));
    gr_seq s = make_seq(10, 7);
    gr_cache_entry *e = gr_seq_cache_put(c, "a", 1, &s);
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_null(s.values); /* moved into the cache */
    gr_seq_cache_release(c, e);
    e = gr_seq_cache_get(c, "a", 1);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(gr_cache_entry_seq(e)->values[9], 7);
    gr_seq_cache_release(c, e);
    ck_assert_ptr_null(gr_seq_cache_get(c, "b", 1));
    gr_cache_stats st;
    gr_seq_cache_stats(c, &st);
    ck_assert_uint_eq(st.hits, 1);
    ck_assert_uint_eq(st.misses, 2);
    ck_assert_uint_eq(st.entries, 1);
    gr_seq_cache_free(c);
}
END_TEST

START_TEST(test_duplicate_put_keeps_first)
{
    gr_seq_cache *c = gr_seq_cache_new(1 << 20);
    gr_seq s1 = make_seq(4, 1), s2 = make_seq(4, 2);
    gr_cache_entry *e1 = gr_seq_cache_put(c, "k", 1, &s1);
    gr_cache_entry *e2 = gr_seq_cache_put(c, "k", 1, &s2);
    ck_assert_ptr_eq(e1, e2);
    ck_assert_uint_eq(gr_cache_entry_seq(e2)->values[0], 1);
    gr_seq_cache_release(c, e1);
    gr_seq_cache_release(c, e2);
    gr_seq_cache_free(c);
}
END_TEST

/* Bytes stay under the bound; the least recently used entry goes first; an
 * entry held by a reader survives eviction until released. */
START_TEST(test_eviction)
{
    gr_seq_cache *c = gr_seq_cache_new(3 * (1000 * 2 + 200));
    gr_seq a = make_seq(1000, 1), b = make_seq(1000, 2), d = make_seq(1000, 3), e = make_seq(1000, 4);
    gr_cache_entry *held = gr_seq_cache_put(c, "a", 1, &a);
    gr_seq_cache_release(c, gr_seq_cache_put(c, "b", 1, &b));
    gr_seq_cache_release(c, gr_seq_cache_put(c, "d", 1, &d));
    gr_seq_cache_release(c, gr_seq_cache_get(c, "b", 1)); /* b is now more recent than d */
    gr_seq_cache_release(c, gr_seq_cache_put(c, "e", 1, &e)); /* evicts a, the oldest */
    gr_cache_stats st;
    gr_seq_cache_stats(c, &st);
    ck_assert_uint_le(st.bytes, 3 * (1000 * 2 + 200));
    ck_assert_uint_ge(st.evictions, 1);
    ck_assert_ptr_null(gr_seq_cache_get(c, "a", 1));
    ck_assert_uint_eq(gr_cache_entry_seq(held)->values[999], 1); /* still readable */
    gr_seq_cache_release(c, held);
    gr_cache_entry *kept = gr_seq_cache_get(c, "b", 1);
    ck_assert_ptr_nonnull(kept);
    gr_seq_cache_release(c, kept);
    gr_seq_cache_free(c);
}
END_TEST

/* A misere quotient of `order` elements decided up to heap `bound`. */
static gr_mq make_mq(uint32_t order, uint64_t bound)
{
    gr_mq q = { .order = order, .p_size = 1, .bound = bound };
    q.mul = calloc((size_t)order * order, sizeof *q.mul);
    q.in_p = calloc(order, 1);
    q.phi = calloc(bound + 1, sizeof *q.phi);
    ck_assert(q.mul && q.in_p && q.phi);
    return q;
}

/* Quotients and sequences share one bound: a quotient is charged its
 * table and pretending function, evicts sequences to fit, and is refused
 * (left to its query) when it alone is larger than the cache. */
START_TEST(test_quotients_share_the_bound)
{
    size_t quotient = 40 * 40 * 2 + 40 + 1001 * 2, cap = quotient + 2 * (1000 * 2 + 200);
    gr_seq_cache *c = gr_seq_cache_new(cap);
    gr_seq a = make_seq(1000, 1), b = make_seq(1000, 2);
    gr_seq_cache_release(c, gr_seq_cache_put(c, "a", 1, &a));
    gr_seq_cache_release(c, gr_seq_cache_put(c, "b", 1, &b));
    gr_mq q = make_mq(40, 1000);
    gr_cache_entry *e = gr_seq_cache_put_mq(c, "mq1", 3, &q);
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_null(q.mul); /* moved into the cache */
    ck_assert_uint_eq(gr_cache_entry_mq(e)->order, 40);
    gr_seq_cache_release(c, e);
    gr_cache_stats st;
    gr_seq_cache_stats(c, &st);
    ck_assert_uint_le(st.bytes, cap);
    ck_assert_uint_ge(st.bytes, quotient);
    ck_assert_uint_ge(st.evictions, 1); /* "a" made room */
    ck_assert_ptr_null(gr_seq_cache_get(c, "a", 1));
    gr_mq big = make_mq(200, 1000);
    ck_assert_ptr_null(gr_seq_cache_put_mq(c, "mq2", 3, &big));
    ck_assert_ptr_nonnull(big.mul); /* still the caller's */
    gr_mq_free(&big);
    gr_seq_cache_free(c);
}
END_TEST

START_TEST(test_too_large_is_refused)
{
    gr_seq_cache *c = gr_seq_cache_new(100);
    gr_seq s = make_seq(1000, 1);
    ck_assert_ptr_null(gr_seq_cache_put(c, "x", 1, &s));
    ck_assert_ptr_nonnull(s.values); /* still the caller's */
    gr_seq_free(&s);
    gr_seq_cache_free(c);
}
END_TEST

static void *hammer(void *arg)
{
    gr_seq_cache *c = arg;
    for (unsigned i = 0; i < 20000; i++) {
        char key[8];
        unsigned k = (i * 7919u) % 64;
        memcpy(key, &k, sizeof k);
        gr_cache_entry *e = gr_seq_cache_get(c, key, sizeof k);
        if (!e) {
            gr_seq s = make_seq(64, (uint16_t)k);
            e = gr_seq_cache_put(c, key, sizeof k, &s);
            if (!e)
                gr_seq_free(&s);
        }
        if (e && gr_cache_entry_seq(e)->values[63] != k)
            return (void *)1;
        gr_seq_cache_release(c, e);
    }
    return NULL;
}

START_TEST(test_threads)
{
    gr_seq_cache *c = gr_seq_cache_new(16 * 400); /* room for about 16 of 64 keys */
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, hammer, c), 0);
    for (int i = 0; i < 4; i++) {
        void *bad;
        pthread_join(t[i], &bad);
        ck_assert_ptr_null(bad);
    }
    gr_cache_stats st;
    gr_seq_cache_stats(c, &st);
    ck_assert_uint_le(st.bytes, 16 * 400);
    ck_assert_uint_eq(st.hits + st.misses, 80000);
    gr_seq_cache_free(c);
}
END_TEST

static Suite *cache_suite(void)
{
    Suite *s = suite_create("seq_cache");
    TCase *tc = tcase_create("cache");
    tcase_add_test(tc, test_hit_and_miss);
    tcase_add_test(tc, test_duplicate_put_keeps_first);
    tcase_add_test(tc, test_eviction);
    tcase_add_test(tc, test_too_large_is_refused);
    tcase_add_test(tc, test_quotients_share_the_bound);
    tcase_add_test(tc, test_threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(cache_suite());
}
