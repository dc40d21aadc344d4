/* Shared runner for the Check unit tests: CK_FORK isolation (a crash fails
 * one test, not the run) and TAP on stdout so meson counts every test case. */
#ifndef GRUNDY_TESTS_CHECK_MAIN_H
#define GRUNDY_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

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
