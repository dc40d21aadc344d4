/* SPDX-License-Identifier: MIT */
/* Error codes are defined once (errors.h): openapi.yaml's ErrorCode enum
 * must list exactly those codes, and each code keeps one status. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "check_main.h"

enum { MAX_LISTED = 64 };

/* The names under "    ErrorCode:" ... "      enum:" in openapi.yaml, one
 * "        - name" line each, in order. */
static size_t openapi_error_codes(char names[MAX_LISTED][48])
{
    FILE *f = fopen(GRUNDY_SOURCE_ROOT "/openapi.yaml", "r");
    ck_assert_msg(f != NULL, "cannot open openapi.yaml");
    char line[256];
    size_t n = 0;
    int state = 0; /* 0: before ErrorCode, 1: in it, 2: in its enum */
    while (fgets(line, sizeof line, f) && n < MAX_LISTED) {
        if (state == 0 && strcmp(line, "    ErrorCode:\n") == 0)
            state = 1;
        else if (state == 1 && strcmp(line, "      enum:\n") == 0)
            state = 2;
        else if (state == 2 && strncmp(line, "        - ", 10) == 0)
            sscanf(line + 10, "%47s", names[n++]);
        else if (state == 2)
            break;
    }
    fclose(f);
    return n;
}

START_TEST(test_openapi_lists_every_code)
{
    char listed[MAX_LISTED][48];
    size_t n = openapi_error_codes(listed);
    ck_assert_uint_gt(n, 0);
    for (int c = 0; c < GR_NERROR_CODES; c++) {
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strcmp(listed[i], gr_error_name((gr_error_code)c)) == 0;
        ck_assert_msg(found, "openapi.yaml's ErrorCode does not list %s", gr_error_name((gr_error_code)c));
    }
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (int c = 0; c < GR_NERROR_CODES && !found; c++)
            found = strcmp(listed[i], gr_error_name((gr_error_code)c)) == 0;
        ck_assert_msg(found, "openapi.yaml's ErrorCode lists %s, which the service never sends", listed[i]);
    }
}
END_TEST

START_TEST(test_codes_unique_and_rendered)
{
    for (int c = 0; c < GR_NERROR_CODES; c++) {
        for (int d = 0; d < c; d++)
            ck_assert_str_ne(gr_error_name((gr_error_code)c), gr_error_name((gr_error_code)d));
        int st = gr_error_status((gr_error_code)c);
        ck_assert_msg(st >= 400 && st < 600, "%s has status %d", gr_error_name((gr_error_code)c), st);
        gr_api_error e;
        ck_assert_int_eq(gr_fail(&e, (gr_error_code)c, "f", "m%d", 1), -1);
        ck_assert_int_eq(e.status, st);
        ck_assert_str_eq(e.code, gr_error_name((gr_error_code)c));
        ck_assert_str_eq(e.message, "m1");
    }
}
END_TEST

START_TEST(test_oom_body_is_the_overloaded_error)
{
    char want[64];
    snprintf(want, sizeof want, "{\"error\":{\"code\":\"%s\",", gr_error_name(GR_E_OVERLOADED));
    ck_assert_uint_eq(strlen(gr_oom_error_json), gr_oom_error_json_len);
    ck_assert_int_eq(strncmp(gr_oom_error_json, want, strlen(want)), 0);
    ck_assert_ptr_nonnull(strstr(gr_oom_error_json, ",\"field\":null}}"));
    ck_assert_int_eq(gr_error_status(GR_E_OVERLOADED), 503);
}
END_TEST

static Suite *error_suite(void)
{
    Suite *s = suite_create("error");
    TCase *tc = tcase_create("codes");
    tcase_add_test(tc, test_openapi_lists_every_code);
    tcase_add_test(tc, test_codes_unique_and_rendered);
    tcase_add_test(tc, test_oom_body_is_the_overloaded_error);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(error_suite());
}
