/* SPDX-License-Identifier: MIT */
/* A request body's framing (src/server/front/body_framing.h): a chunked body ends
 * at the same byte however its bytes are split, and a broken one is
 * refused at the byte that breaks it. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "body_framing.h"

/* Scans body s in pieces of `step` bytes: the step it came to, and in
 * *at the offset where it ended or broke. */
static gr_body_step scan_in_pieces(const char *s, size_t step, size_t *at)
{
    gr_body b;
    gr_body_start(&b, GR_BODY_CHUNKED, 0, 64);
    size_t n = strlen(s), pos = 0;
    while (pos < n) {
        size_t len = n - pos < step ? n - pos : step, used;
        const char *why;
        gr_body_step st = gr_body_scan(&b, s + pos, len, &used, &why);
        REQUIRE(used <= len);
        if (st == GR_BODY_BAD)
            REQUIRE(why != NULL && why[0] != '\0');
        pos += used;
        if (st != GR_BODY_MORE) {
            *at = pos;
            return st;
        }
        REQUIRE_EQ(used, len);
    }
    *at = pos;
    return GR_BODY_MORE;
}

static const struct {
    const char *body;
    gr_body_step step;
    size_t at; /* where it ends or breaks */
} CHUNKED[] = {
    { "1a\r\n{\"game\":\"nim\",\"piles\":[1]}\r\n0\r\n\r\nGET", GR_BODY_ENDED, 37 },
    { "3;ext=1\r\nabc\r\n0\r\nX-T: y\r\n\r\n", GR_BODY_ENDED, 27 },
    { "3\nabc\n0\n\nnext", GR_BODY_ENDED, 9 },
    { "0000000000000003\r\nabc\r\n0\r\n\r\n", GR_BODY_ENDED, 28 },
    { "3\r\nabc\r\n", GR_BODY_MORE, 8 },
    { "zz\r\n", GR_BODY_BAD, 0 },
    { "\r\n", GR_BODY_BAD, 0 },
    { "00000000000000003\r\n", GR_BODY_BAD, 16 },
    { "2\r\nabc\r\n", GR_BODY_BAD, 5 },
    { "3\r\nabc\rx", GR_BODY_BAD, 7 },
    { "3\rx", GR_BODY_BAD, 2 },
    { "3;a\x01\r\n", GR_BODY_BAD, 3 },
    { "0\r\nNoColon\r\n\r\n", GR_BODY_BAD, 10 },
    { "0\r\n folded: x\r\n\r\n", GR_BODY_BAD, 3 },
    { "0\r\nX: \x7f\r\n\r\n", GR_BODY_BAD, 6 },
    { "0\r\nX: 01234567890123456789012345678901234567890123456789012345678901234567890\r\n\r\n",
      GR_BODY_BAD, 67 },
};

START_TEST(test_chunked_bodies_in_any_pieces)
{
    for (size_t i = 0; i < sizeof CHUNKED / sizeof CHUNKED[0]; i++)
        for (size_t step = 1; step <= strlen(CHUNKED[i].body); step++) {
            size_t at;
            gr_body_step st = scan_in_pieces(CHUNKED[i].body, step, &at);
            if (st != CHUNKED[i].step || at != CHUNKED[i].at)
                ck_abort_msg("body %zu in pieces of %zu: step %d at %zu, want %d at %zu", i, step, (int)st, at,
                             (int)CHUNKED[i].step, CHUNKED[i].at);
        }
}
END_TEST

START_TEST(test_length_and_none)
{
    gr_body b;
    size_t used;
    const char *why;
    gr_body_start(&b, GR_BODY_LENGTH, 5, 64);
    REQUIRE_EQ(gr_body_scan(&b, "abc", 3, &used, &why), GR_BODY_MORE);
    REQUIRE_EQ(used, 3);
    REQUIRE_EQ(gr_body_scan(&b, "deGET", 5, &used, &why), GR_BODY_ENDED);
    REQUIRE_EQ(used, 2);
    gr_body_start(&b, GR_BODY_NONE, 0, 64);
    REQUIRE_EQ(gr_body_scan(&b, "GET", 3, &used, &why), GR_BODY_ENDED);
    REQUIRE_EQ(used, 0);
}
END_TEST

static Suite *body_suite(void)
{
    Suite *s = suite_create("body_framing");
    TCase *tc = tcase_create("framing");
    tcase_add_test(tc, test_chunked_bodies_in_any_pieces);
    tcase_add_test(tc, test_length_and_none);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(body_suite());
}
