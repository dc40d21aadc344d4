/* SPDX-License-Identifier: MIT */
/* Moves of Grundy's game from the rare/common index agree with the plain
 * scan of every split: same existence, and every move found is legal and
 * reaches its target. */
#include <check.h>

#include "check_main.h"
#include "grundy/octal.h"

enum { N = 6000 };

static gr_seq seq;
static gr_rare_index ix;

static void setup(void)
{
    gr_budget b = gr_budget_make(UINT64_MAX);
    ck_assert_int_eq(gr_grundys_solve(N - 1, &b, &seq), GR_OK);
    ck_assert_int_eq(gr_rare_index_build(&seq, &ix), GR_OK);
}

static void teardown(void)
{
    gr_rare_index_free(&ix);
    gr_seq_free(&seq);
}

/* Any mask splits values by parity; the index lists exactly the rare heaps. */
START_TEST(test_index_lists_rare_heaps)
{
    uint64_t k = 0;
    ck_assert_uint_ne(ix.mask, 0);
    for (uint64_t n = 1; n < seq.count; n++) {
        int rare = (__builtin_popcount((unsigned)(seq.values[n] & ix.mask)) & 1) == 0;
        if (rare) {
            ck_assert_uint_lt(k, ix.count);
            ck_assert_uint_eq(ix.rare[k], n);
            k++;
        }
    }
    ck_assert_uint_eq(k, ix.count);
    /* the transform's mask leaves few rare heaps (references.md: 1274 below 2^22) */
    ck_assert_uint_lt(ix.count, seq.count / 8);
}
END_TEST

START_TEST(test_moves_agree_with_scan)
{
    for (uint64_t n = 0; n < seq.count; n++) {
        for (unsigned target = 0; target <= seq.values[n] + 2u; target++) {
            gr_heap_move a = { 0 }, b = { 0 };
            gr_status plain = gr_grundys_move(&seq, n, (uint16_t)target, &a);
            gr_status fast = gr_grundys_move_indexed(&seq, &ix, n, (uint16_t)target, &b);
            ck_assert_int_eq(plain == GR_OK, fast == GR_OK);
            if (fast != GR_OK)
                continue;
            ck_assert_uint_eq(b.take, 0);
            ck_assert_uint_eq(b.nparts, 2);
            ck_assert_uint_ge(b.part[0], 1);
            ck_assert_uint_lt(b.part[0], b.part[1]);
            ck_assert_uint_eq(b.part[0] + b.part[1], n);
            ck_assert_uint_eq(seq.values[b.part[0]] ^ seq.values[b.part[1]], target);
        }
    }
}
END_TEST

START_TEST(test_past_the_sequence)
{
    gr_heap_move m;
    ck_assert_int_eq(gr_grundys_move_indexed(&seq, &ix, N, 0, &m), GR_EBOUND);
}
END_TEST

static Suite *index_suite(void)
{
    Suite *s = suite_create("grundys_index");
    TCase *tc = tcase_create("index");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_index_lists_rare_heaps);
    tcase_add_test(tc, test_moves_agree_with_scan);
    tcase_add_test(tc, test_past_the_sequence);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(index_suite());
}
