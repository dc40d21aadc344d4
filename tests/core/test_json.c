/* SPDX-License-Identifier: MIT */
/* Exact-integer JSON reading and writing. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "check_main.h"

static int parse(const char *text, gr_json_doc *doc, gr_api_error *e)
{
    return gr_json_parse(text, strlen(text), doc, e);
}

/* Reads root[key] (or root itself when key is NULL) as an exact integer. */
static int read_int(const char *text, const char *key, uint64_t *v, gr_api_error *e)
{
    gr_json_doc doc;
    if (parse(text, &doc, e))
        return -2;
    const cJSON *node = key ? cJSON_GetObjectItemCaseSensitive(doc.root, key) : doc.root;
    int rc = gr_json_u64(&doc, node, "x", v, e);
    gr_json_free(&doc);
    return rc;
}

static const struct { const char *text; uint64_t value; } good_ints[] = {
    { "{\"x\":0}", 0 },
    { "{\"x\":1000000000000000001}", UINT64_C(1000000000000000001) },
    { "{\"x\":\"1000000000000000001\"}", UINT64_C(1000000000000000001) },
    { "{\"x\":9223372036854775807}", UINT64_C(9223372036854775807) },
    { "{\"x\":\"9223372036854775807\"}", UINT64_C(9223372036854775807) },
    { "{\"x\":\"007\"}", 7 },
    { " {\"x\" : 42 } ", 42 },
};

START_TEST(test_good_integers)
{
    uint64_t v = 1;
    gr_api_error e;
    ck_assert_int_eq(read_int(good_ints[_i].text, "x", &v, &e), 0);
    ck_assert_uint_eq(v, good_ints[_i].value);
}
END_TEST

static const char *const bad_ints[] = {
    "{\"x\":9223372036854775808}",   "{\"x\":\"9223372036854775808\"}",
    "{\"x\":-1}",                    "{\"x\":-0}",
    "{\"x\":1.5}",                   "{\"x\":1.0}",
    "{\"x\":1e3}",                   "{\"x\":1E+3}",
    "{\"x\":\"12a\"}",               "{\"x\":\"\"}",
    "{\"x\":\" 1\"}",                "{\"x\":\"-1\"}",
    "{\"x\":true}",                  "{\"x\":null}",
    "{\"x\":[1]}",                   "{\"x\":{}}",
    "{\"x\":99999999999999999999999999999999999999999999999999999999999999999999999999999}",
};

START_TEST(test_bad_integers)
{
    uint64_t v = 0;
    gr_api_error e;
    ck_assert_int_eq(read_int(bad_ints[_i], "x", &v, &e), -1);
    ck_assert_int_eq(e.status, 422);
    ck_assert_str_eq(e.field, "x");
    ck_assert_str_eq(e.code, "invalid_integer");
}
END_TEST

static const char *const not_json[] = {
    "",          "   ",         "{",            "[1,2",        "{\"a\":1,}",   "[1,]",
    "{\"a\" 1}", "{a:1}",       "nul",          "tru",         "01",           "1.",
    ".5",        "-",           "1e",           "+1",          "0x10",         "{\"a\":1}x",
    "[1] [2]",   "\"abc",       "\"\\x\"",      "\"\\u12\"",   "\"a\tb\"",     "{\"a\":NaN}",
    "[Infinity]", "{\"a\":'b'}", "[1 2]",       "{,}",         "[,1]",         "}",
};

START_TEST(test_not_json)
{
    gr_json_doc doc;
    gr_api_error e;
    ck_assert_int_eq(parse(not_json[_i], &doc, &e), -1);
    ck_assert_int_eq(e.status, 400);
    ck_assert_str_eq(e.code, "bad_json");
}
END_TEST

START_TEST(test_nul_byte_rejected)
{
    gr_json_doc doc;
    gr_api_error e;
    ck_assert_int_eq(gr_json_parse("{\"a\":1}\0", 8, &doc, &e), -1);
    ck_assert_int_eq(e.status, 400);
}
END_TEST

START_TEST(test_nesting_limit)
{
    char deep[2 * GR_JSON_MAX_DEPTH + 8];
    gr_json_doc doc;
    gr_api_error e;
    for (int depth = GR_JSON_MAX_DEPTH; depth <= GR_JSON_MAX_DEPTH + 1; depth++) {
        memset(deep, '[', (size_t)depth);
        memset(deep + depth, ']', (size_t)depth);
        deep[2 * depth] = '\0';
        int rc = parse(deep, &doc, &e);
        ck_assert_int_eq(rc, depth <= GR_JSON_MAX_DEPTH ? 0 : -1);
        if (rc == 0)
            gr_json_free(&doc);
    }
}
END_TEST

/* Numbers inside strings, nested arrays and after escapes keep their order. */
START_TEST(test_literal_order)
{
    const char *text = "{\"s\":\"1 \\\" 2\",\"a\":[[5,\"6\"],7],\"b\":{\"c\":12345678901234567890,\"d\":8}}";
    gr_json_doc doc;
    gr_api_error e;
    ck_assert_int_eq(parse(text, &doc, &e), 0);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(doc.root, "a");
    uint64_t v;
    ck_assert_int_eq(gr_json_u64(&doc, a->child->child, "a", &v, &e), 0);
    ck_assert_uint_eq(v, 5);
    ck_assert_int_eq(gr_json_u64(&doc, a->child->child->next, "a", &v, &e), 0);
    ck_assert_uint_eq(v, 6);
    ck_assert_int_eq(gr_json_u64(&doc, a->child->next, "a", &v, &e), 0);
    ck_assert_uint_eq(v, 7);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(doc.root, "b");
    ck_assert_int_eq(gr_json_u64(&doc, b->child, "c", &v, &e), -1); /* past 2^63 - 1 */
    ck_assert_int_eq(gr_json_u64(&doc, b->child->next, "d", &v, &e), 0);
    ck_assert_uint_eq(v, 8);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc.root, "s")->valuestring, "1 \" 2");
    gr_json_free(&doc);
}
END_TEST

START_TEST(test_write_exact)
{
    cJSON *o = cJSON_CreateObject();
    uint64_t arr[3] = { 0, UINT64_C(1000000000000000001), UINT64_MAX };
    gr_json_add_u64(o, "a", UINT64_C(9223372036854775807));
    cJSON_AddItemToObject(o, "b", gr_json_u64_array(arr, 3));
    char *text = cJSON_PrintUnformatted(o);
    ck_assert_str_eq(text,
                     "{\"a\":9223372036854775807,\"b\":[0,1000000000000000001,18446744073709551615]}");
    free(text);
    cJSON_Delete(o);
}
END_TEST

static const struct { const char *text; int ok; int64_t value; } signed_ints[] = {
    { "{\"x\":-5}", 1, -5 },
    { "{\"x\":\"-9223372036854775807\"}", 1, -INT64_MAX },
    { "{\"x\":9223372036854775807}", 1, INT64_MAX },
    { "{\"x\":-9223372036854775808}", 0, 0 },
    { "{\"x\":-1.5}", 0, 0 },
    { "{\"x\":\"--1\"}", 0, 0 },
    { "{\"x\":\"-\"}", 0, 0 },
    { "{\"x\":false}", 0, 0 },
};

START_TEST(test_signed_integers)
{
    gr_json_doc doc;
    gr_api_error e;
    int64_t v = 42;
    ck_assert_int_eq(parse(signed_ints[_i].text, &doc, &e), 0);
    int rc = gr_json_i64(&doc, cJSON_GetObjectItemCaseSensitive(doc.root, "x"), "x", &v, &e);
    gr_json_free(&doc);
    ck_assert_int_eq(rc == 0, signed_ints[_i].ok);
    if (rc == 0)
        ck_assert_int_eq(v, signed_ints[_i].value);
    else
        ck_assert_str_eq(e.field, "x");
}
END_TEST

START_TEST(test_write_i128)
{
    cJSON *o = cJSON_CreateObject();
    gr_json_i128 big = (gr_json_i128)INT64_MAX * 5000;
    gr_json_add_i128(o, "a", -big);
    gr_json_add_i128(o, "b", 0);
    char *text = cJSON_PrintUnformatted(o);
    ck_assert_str_eq(text, "{\"a\":-46116860184273879035000,\"b\":0}");
    free(text);
    cJSON_Delete(o);
}
END_TEST

/* Objects of 1 to 40 members (both sides of the 16-member pairwise scan)
 * over a small alphabet of names, so that some repeat: a name is reported
 * exactly when the plain all-pairs check finds one, and it is repeated. */
START_TEST(test_duplicate_members)
{
    static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l",
                                         "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x",
                                         "y", "z", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J",
                                         "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T" };
    uint64_t state = 12345;
    int with = 0, without = 0;
    for (int round = 0; round < 4000; round++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        int n = 1 + (int)((state >> 33) % 40), pool = n + (int)((state >> 20) % 3);
        cJSON *obj = cJSON_CreateObject();
        const char *used[40];
        for (int i = 0; i < n; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            used[i] = names[(state >> 33) % (unsigned)pool];
            cJSON_AddItemToObject(obj, used[i], cJSON_CreateNull()); /* cJSON keeps repeats */
        }
        bool twin = false;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                twin |= strcmp(used[i], used[j]) == 0;
        const char *name = NULL;
        int rc = gr_json_duplicate_member(obj, &name);
        ck_assert_int_eq(rc, twin ? 1 : 0);
        if (twin) {
            int seen = 0;
            for (int i = 0; i < n; i++)
                seen += strcmp(used[i], name) == 0;
            ck_assert_int_ge(seen, 2);
        }
        with += twin;
        without += !twin;
        cJSON_Delete(obj);
    }
    ck_assert_int_gt(with, 100);
    ck_assert_int_gt(without, 100);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("integers");
    tcase_add_loop_test(tc, test_good_integers, 0, sizeof good_ints / sizeof good_ints[0]);
    tcase_add_loop_test(tc, test_bad_integers, 0, sizeof bad_ints / sizeof bad_ints[0]);
    tcase_add_test(tc, test_literal_order);
    tcase_add_test(tc, test_write_exact);
    tcase_add_loop_test(tc, test_signed_integers, 0, sizeof signed_ints / sizeof signed_ints[0]);
    tcase_add_test(tc, test_write_i128);
    tcase_add_test(tc, test_duplicate_members);
    suite_add_tcase(s, tc);
    TCase *syntax = tcase_create("syntax");
    tcase_add_loop_test(syntax, test_not_json, 0, sizeof not_json / sizeof not_json[0]);
    tcase_add_test(syntax, test_nul_byte_rejected);
    tcase_add_test(syntax, test_nesting_limit);
    suite_add_tcase(s, syntax);
    return s;
}

int main(void)
{
    return gr_check_run(json_suite());
}
