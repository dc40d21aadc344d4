/* SPDX-License-Identifier: MIT */
/* Shared runner for the Check unit tests: CK_FORK isolation (a crash fails
 * one test, not the run) and TAP on stdout so meson counts every test case. */
#ifndef GRUNDY_TESTS_CHECK_MAIN_H
#define GRUNDY_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

/* Checks that touch Check only on failure: ck_assert_* records a mark point
 * through the fork pipe on every success, far too slow in inner loops. */
#define REQUIRE(expr)                                                       \
    do {                                                                    \
        if (!(expr))                                                        \
            ck_abort_msg("failed: %s", #expr);                              \
    } while (0)
#define REQUIRE_EQ(a, b)                                                    \
    do {                                                                    \
        long long a_ = (long long)(a), b_ = (long long)(b);                 \
        if (a_ != b_)                                                       \
            ck_abort_msg("failed: %s == %s (%lld != %lld)", #a, #b, a_, b_); \
    } while (0)

static inline int gr_check_run(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_set_fork_status(runner, CK_FORK);
    srunner_set_tap(runner, "-");
    srunner_run_all(runner, CK_SILENT);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
