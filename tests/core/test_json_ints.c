/* SPDX-License-Identifier: MIT */
/* Integers as strings (json_ints.h): the rewrite against a brute-force
 * twin, and the integers= parameter of the query and of Accept. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_ints.h"
#include "check_main.h"

/* Rewrites text and returns it terminated (malloc). */
static char *quote(const char *text)
{
    size_t len = strlen(text), n = gr_json_ints_quoted_len(text, len);
    char *out = malloc(n + 1);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(gr_json_ints_quote(text, len, out), n);
    out[n] = '\0';
    return out;
}

static const struct { const char *in, *out; } fixed[] = {
    { "3", "\"3\"" },
    { "-5", "\"-5\"" },
    { "[1,-2,30]", "[\"1\",\"-2\",\"30\"]" },
    { "{\"a\":1,\"b\":[0]}", "{\"a\":\"1\",\"b\":[\"0\"]}" },
    { "{\"12\":\"34\"}", "{\"12\":\"34\"}" },
    { "\"a\\\"1\\\\\"", "\"a\\\"1\\\\\"" },
    { "[\"\\\\\",7]", "[\"\\\\\",\"7\"]" },
    { "[1.5,2e3,-0.25E-2,4]", "[1.5,2e3,-0.25E-2,\"4\"]" },
    { "[true,false,null]", "[true,false,null]" },
    { " { \"x\" : 9223372036854775807 } ", " { \"x\" : \"9223372036854775807\" } " },
    { "[340282366920938463463374607431768211455]", "[\"340282366920938463463374607431768211455\"]" },
    { "\"\\u0031\"", "\"\\u0031\"" },
    { "", "" },
};

START_TEST(test_fixed)
{
    char *got = quote(fixed[_i].in);
    ck_assert_str_eq(got, fixed[_i].out);
    free(got);
}
END_TEST

/* ---- the brute-force twin ---------------------------------------------------
 * A random document is written twice as it is generated: as the service
 * would write it, and with every integer already a string. The rewrite of
 * the first must be the second, byte for byte, and both must parse. */

typedef struct twin {
    char *plain, *quoted;
    size_t n, m, cap;
    uint64_t rng;
} twin;

static uint64_t next_rand(twin *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 7;
    t->rng ^= t->rng << 17;
    return t->rng;
}

static unsigned pick(twin *t, unsigned n)
{
    return (unsigned)(next_rand(t) % n);
}

static void put2(twin *t, const char *plain, const char *quoted)
{
    size_t a = strlen(plain), b = strlen(quoted);
    if (t->n + a >= t->cap || t->m + b >= t->cap)
        return; /* the caller's capacity bounds the document */
    memcpy(t->plain + t->n, plain, a);
    memcpy(t->quoted + t->m, quoted, b);
    t->n += a;
    t->m += b;
}

static void put(twin *t, const char *s)
{
    put2(t, s, s);
}

static void space(twin *t)
{
    static const char *const ws[] = { "", "", "", " ", "\n", "\t ", "\r\n  " };
    put(t, ws[pick(t, sizeof ws / sizeof ws[0])]);
}

static void integer(twin *t)
{
    static const char *const fixed_ints[] = { "0", "-0", "9223372036854775807", "-9223372036854775807",
                                              "18446744073709551614", "1000000000000000001" };
    char digits[64];
    if (pick(t, 3) == 0) {
        snprintf(digits, sizeof digits, "%s", fixed_ints[pick(t, sizeof fixed_ints / sizeof fixed_ints[0])]);
    } else {
        size_t len = 1 + pick(t, 40), j = 0;
        if (pick(t, 4) == 0)
            digits[j++] = '-';
        digits[j++] = (char)('1' + pick(t, 9));
        while (j < len + 1 && j < sizeof digits - 1)
            digits[j++] = (char)('0' + pick(t, 10));
        digits[j] = '\0';
    }
    char quoted[72];
    snprintf(quoted, sizeof quoted, "\"%s\"", digits);
    put2(t, digits, quoted);
}

/* Numbers that are not integers are left as they are. */
static void fraction(twin *t)
{
    static const char *const nums[] = { "1.5", "-0.25", "2e3", "1E+10", "-7.0e-2", "0.0", "3E0" };
    put(t, nums[pick(t, sizeof nums / sizeof nums[0])]);
}

/* Strings full of what the rewrite must not touch: digits, minus signs,
 * escaped quotes and backslashes, \u escapes, UTF-8. */
static void string(twin *t)
{
    static const char *const parts[] = { "12", "-3", "\\\"", "\\\\", "\\\\\\\"", "\\u0031", "\\n", "x",
                                         "1e5", "\xc3\xa9", " ", ",", ":", "[", "{", "\\/" };
    put(t, "\"");
    for (unsigned k = pick(t, 6); k > 0; k--)
        put(t, parts[pick(t, sizeof parts / sizeof parts[0])]);
    put(t, "\"");
}

static void value(twin *t, int depth);

static void members(twin *t, int depth, bool object)
{
    put(t, object ? "{" : "[");
    unsigned count = depth > 0 ? pick(t, 5) : 0;
    for (unsigned k = 0; k < count; k++) {
        if (k)
            put(t, ",");
        space(t);
        if (object) {
            string(t);
            space(t);
            put(t, ":");
            space(t);
        }
        value(t, depth - 1);
        space(t);
    }
    put(t, object ? "}" : "]");
}

static void value(twin *t, int depth)
{
    static const char *const words[] = { "true", "false", "null" };
    switch (pick(t, 7)) {
    case 0:
    case 1:
        integer(t);
        break;
    case 2:
        fraction(t);
        break;
    case 3:
        string(t);
        break;
    case 4:
        put(t, words[pick(t, 3)]);
        break;
    default:
        members(t, depth, pick(t, 2) == 0);
    }
}

START_TEST(test_twin)
{
    enum { CAP = 1 << 20, DOCS = 3000 };
    twin t = { malloc(CAP), malloc(CAP), 0, 0, CAP, UINT64_C(0x9e3779b97f4a7c15) };
    ck_assert_ptr_nonnull(t.plain);
    ck_assert_ptr_nonnull(t.quoted);
    for (int d = 0; d < DOCS; d++) {
        t.n = t.m = 0;
        space(&t);
        value(&t, 1 + d % 5);
        space(&t);
        t.plain[t.n] = '\0';
        t.quoted[t.m] = '\0';
        char *got = quote(t.plain);
        if (strcmp(got, t.quoted) != 0)
            ck_abort_msg("document %d: %s\nrewritten: %s\nwanted:    %s", d, t.plain, got, t.quoted);
        gr_json_doc doc;
        gr_api_error e;
        REQUIRE(gr_json_parse(t.plain, t.n, &doc, &e) == 0);
        gr_json_free(&doc);
        REQUIRE(gr_json_parse(got, strlen(got), &doc, &e) == 0);
        gr_json_free(&doc);
        free(got);
    }
    free(t.plain);
    free(t.quoted);
}
END_TEST

/* ---- the parameter ------------------------------------------------------------ */

static const struct { const char *value; int ok; gr_int_form form; } forms[] = {
    { "string", 1, GR_INTS_STRING }, { "number", 1, GR_INTS_NUMBER }, { "String", 0, 0 },
    { "", 0, 0 },                    { "strings", 0, 0 },             { "str", 0, 0 },
};

START_TEST(test_form_parse)
{
    gr_int_form f = GR_INTS_NUMBER;
    bool ok = gr_int_form_parse(forms[_i].value, strlen(forms[_i].value), &f);
    ck_assert_int_eq(ok, forms[_i].ok);
    if (ok)
        ck_assert_int_eq(f, forms[_i].form);
}
END_TEST

static const struct { const char *accept; int rc; gr_int_form form; const char *bad; } accepts[] = {
    { NULL, 0, GR_INTS_NUMBER, "" },
    { "*/*", 0, GR_INTS_NUMBER, "" },
    { "application/json", 0, GR_INTS_NUMBER, "" },
    { "application/json; integers=string", 0, GR_INTS_STRING, "" },
    { "application/json;integers=string", 0, GR_INTS_STRING, "" },
    { "application/json; charset=utf-8; Integers = \"string\"", 0, GR_INTS_STRING, "" },
    { "text/html, application/json; q=0.9; integers=string, */*; q=0.1", 0, GR_INTS_STRING, "" },
    { "application/x-ndjson; integers=string", 0, GR_INTS_STRING, "" },
    { "application/json; integers=number", 0, GR_INTS_NUMBER, "" },
    { "application/json; myintegers=big", 0, GR_INTS_NUMBER, "" },
    { "application/json; integers=big", -1, GR_INTS_NUMBER, "big" },
    { "application/json; integers=", -1, GR_INTS_NUMBER, "" },
    { "application/json; integers=\"str,ing\"", -1, GR_INTS_NUMBER, "str,ing" },
    { "application/json; integers=\x01x", -1, GR_INTS_NUMBER, "?x" },
};

START_TEST(test_accept)
{
    gr_int_form f = GR_INTS_NUMBER;
    char bad[48] = "";
    ck_assert_int_eq(gr_accept_int_form(accepts[_i].accept, &f, bad, sizeof bad), accepts[_i].rc);
    if (accepts[_i].rc == 0)
        ck_assert_int_eq(f, accepts[_i].form);
    else
        ck_assert_str_eq(bad, accepts[_i].bad);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("json_ints");
    TCase *tc = tcase_create("rewrite");
    tcase_add_loop_test(tc, test_fixed, 0, sizeof fixed / sizeof fixed[0]);
    tcase_add_test(tc, test_twin);
    suite_add_tcase(s, tc);
    TCase *param = tcase_create("parameter");
    tcase_add_loop_test(param, test_form_parse, 0, sizeof forms / sizeof forms[0]);
    tcase_add_loop_test(param, test_accept, 0, sizeof accepts / sizeof accepts[0]);
    suite_add_tcase(s, param);
    return gr_check_run(s);
}
