/* SPDX-License-Identifier: MIT */
/* The Nim fast path against the general path: for every body in the fast
 * path's form the two write the same bytes; every other body is left to the
 * general path. Also the other fast parts of answering against what they
 * replace: the scratch arena (mem.h) that both answer in, the JSON
 * writer against cJSON's printer, the digit writer against printf, and
 * gr_text_add's own formatter against vsnprintf. */
#include <check.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "batch.h"
#include "scratch.h"
#include "contract.h"
#include "nim_fast.h"
#include "check_main.h"
#include "registry.h"

/* Nim's fast hook, as the pipeline finds it. */
static bool nim_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out)
{
    return gr_game_find("nim")->fast(limits, body, len, out);
}

static gr_service service(void)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    gr_scratch_hook_cjson();
    return svc;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The general path alone: parse into a tree and answer it. */
static gr_reply general(const gr_service *svc, const char *body)
{
    gr_api_error err = { 0 };
    gr_json_doc doc;
    gr_reply r;
    if (gr_json_parse(body, strlen(body), &doc, &err) != 0) {
        gr_api_error_reply(&err, &r);
    } else {
        gr_budget b = gr_budget_make(svc->limits.budget);
        gr_api_answer_node(svc, &doc, doc.root, &b, &err, &r);
        gr_json_free(&doc);
    }
    return r;
}

/* `got` (released here) is byte for byte what the general path answers. */
static void expect_general(const gr_service *svc, const char *body, int status, const char *got, size_t len)
{
    gr_reply want = general(svc, body);
    if (want.status != status || want.len != len || memcmp(want.body, got, len) != 0)
        ck_abort_msg("body %s; general (%d): %s; got (%d): %s", body, want.status, want.body, status, got);
    gr_scratch_free(want.body);
    gr_scratch_free((char *)got);
}

/* A random pile: small, near a power of two, or up to 2^63 - 1. */
static uint64_t random_pile(void)
{
    switch (rng() % 4) {
    case 0:
        return rng() % 8;
    case 1:
        return rng() % 1000;
    case 2:
        return (UINT64_C(1) << (rng() % 63)) - (rng() % 2);
    default:
        return rng() & INT64_MAX;
    }
}

static const char *const spaces[] = { "", " ", "\n", "\t ", "\r\n" };

static const char *ws(void)
{
    return spaces[rng() % 5];
}

/* A body in the fast path's form: members in a random order, random
 * whitespace, 0 .. GR_NIM_FAST_MAX_PILES piles. */
static void fast_form_body(char *out, size_t cap)
{
    char piles[512];
    size_t n = rng() % (GR_NIM_FAST_MAX_PILES + 1), p = 0;
    p += (size_t)snprintf(piles + p, sizeof piles - p, "[%s", ws());
    for (size_t i = 0; i < n; i++)
        p += (size_t)snprintf(piles + p, sizeof piles - p, "%s%" PRIu64 "%s", i ? "," : "", random_pile(), ws());
    snprintf(piles + p, sizeof piles - p, "]");
    char members[3][600];
    snprintf(members[0], sizeof members[0], "\"game\"%s:%s\"nim\"", ws(), ws());
    snprintf(members[1], sizeof members[1], "\"piles\"%s:%s%s", ws(), ws(), piles);
    snprintf(members[2], sizeof members[2], "\"convention\":%s\"normal\"", ws());
    int order = (int)(rng() % 6), with_convention = (int)(rng() % 2);
    int idx[3] = { order % 3, (order / 3 + order % 3 + 1) % 3, 0 };
    idx[2] = 3 - idx[0] - idx[1];
    size_t o = (size_t)snprintf(out, cap, "%s{%s", ws(), ws());
    bool first = true;
    for (int k = 0; k < 3; k++) {
        if (idx[k] == 2 && !with_convention)
            continue;
        o += (size_t)snprintf(out + o, cap - o, "%s%s%s%s", first ? "" : ",", ws(), members[idx[k]], ws());
        first = false;
    }
    static const char *const explain[] = { "", ",\"explain\":true", ",\"explain\":false" };
    snprintf(out + o, cap - o, "%s}%s", first ? "" : explain[rng() % 3], ws());
}

/* The fast path takes every body in the form, writes the general path's
 * bytes, and stays within GR_FAST_MAX_ANSWER. */
static void check_same(const gr_service *svc, const char *body)
{
    gr_buf fast = { 0 };
    if (!nim_fast(&svc->limits, body, strlen(body), &fast))
        ck_abort_msg("the fast path left a body in its form: %s", body);
    ck_assert_uint_le(fast.len, GR_FAST_MAX_ANSWER);
    expect_general(svc, body, 200, fast.data, fast.len);
}

START_TEST(fast_equals_general_random)
{
    gr_service svc = service();
    char body[2048];
    for (int i = 0; i < 20000; i++) {
        fast_form_body(body, sizeof body);
        check_same(&svc, body);
    }
}
END_TEST

/* Every position with up to three piles of at most 7: both winners, every
 * move choice, empty piles and the empty position. */
START_TEST(fast_equals_general_exhaustive_small)
{
    gr_service svc = service();
    char body[128];
    check_same(&svc, "{\"game\":\"nim\",\"piles\":[]}");
    for (int a = 0; a < 8; a++) {
        snprintf(body, sizeof body, "{\"game\":\"nim\",\"piles\":[%d]}", a);
        check_same(&svc, body);
        for (int b = 0; b < 8; b++) {
            snprintf(body, sizeof body, "{\"game\":\"nim\",\"piles\":[%d,%d]}", a, b);
            check_same(&svc, body);
            for (int c = 0; c < 8; c++) {
                snprintf(body, sizeof body, "{\"piles\":[%d,%d,%d],\"game\":\"nim\"}", a, b, c);
                check_same(&svc, body);
            }
        }
    }
    check_same(&svc, "{\"game\":\"nim\",\"piles\":[9223372036854775807,1,9223372036854775806]}");
}
END_TEST

/* "explain": true or false among the members: the same bytes as the
 * general path, which drops "explanation" for false. */
START_TEST(fast_equals_general_explain)
{
    gr_service svc = service();
    const char *explains[] = { "true", "false" };
    char body[256];
    for (int e = 0; e < 2; e++) {
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++) {
                snprintf(body, sizeof body, "{\"game\":\"nim\",\"explain\": %s,\"piles\":[%d,%d,9223372036854775807]}",
                         explains[e], a, b);
                check_same(&svc, body);
            }
        snprintf(body, sizeof body, "{\"game\":\"nim\",\"piles\":[],\"explain\":%s}", explains[e]);
        check_same(&svc, body);
    }
    gr_buf fast = { 0 };
    const char *slim = "{\"game\":\"nim\",\"piles\":[3,4,5],\"explain\":false}";
    ck_assert(nim_fast(&svc.limits, slim, strlen(slim), &fast));
    ck_assert_ptr_null(strstr(fast.data, "explanation"));
    gr_scratch_free(fast.data);
}
END_TEST

/* Bodies outside the form: the fast path declines, and gr_api_analyze (which
 * tries it first) still answers exactly as the general path does. */
START_TEST(other_bodies_go_to_the_general_path)
{
    static const char *const bodies[] = {
        "{\"game\":\"nim\",\"piles\":[01]}",                        /* leading zero: 400 */
        "{\"game\":\"nim\",\"piles\":[-1]}",
        "{\"game\":\"nim\",\"piles\":[1.0]}",
        "{\"game\":\"nim\",\"piles\":[1e3]}",
        "{\"game\":\"nim\",\"piles\":[9223372036854775808]}",       /* 2^63: 422 */
        "{\"game\":\"nim\",\"piles\":[\"5\",3]}",                   /* strings are the general path's */
        "{\"game\":\"nim\",\"piles\":[1,2,3,4,5,6,7,8,9,10,11,12,13]}",
        "{\"game\":\"nim\",\"piles\":[1],\"piles\":[2]}",
        "{\"game\":\"nim\",\"game\":\"nim\",\"piles\":[2]}",
        "{\"game\":\"n\\u0069m\",\"piles\":[2]}",
        "{\"game\":\"nim\",\"piles\":[2],\"convention\":\"misere\"}",
        "{\"game\":\"nim\",\"piles\":[2],\"compound\":\"disjunctive\"}",
        "{\"game\":\"nim\",\"piles\":[2],\"extra\":1}",
        "{\"game\":\"nim\",\"piles\":[2],\"explain\":0}",           /* not a boolean: 422 */
        "{\"game\":\"nim\",\"piles\":[2],\"explain\":\"false\"}",
        "{\"game\":\"nim\",\"piles\":[2],\"explain\":null}",        /* null is the general path's */
        "{\"game\":\"nim\",\"piles\":[2],\"explain\":true,\"explain\":false}",
        "{\"game\":\"nim\"}",
        "{\"piles\":[1]}",
        "{\"game\":\"nim\",\"piles\":[1,]}",
        "{\"game\":\"nim\",\"piles\":[1]} x",
        "{\"game\":\"nim\",\"piles\":[1]",
        "[{\"game\":\"nim\",\"piles\":[1]}]",
        "{\"game\":\"wythoff\",\"piles\":[1,2]}",
        "",
    };
    gr_service svc = service();
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        gr_buf b = { 0 };
        if (nim_fast(&svc.limits, bodies[i], strlen(bodies[i]), &b))
            ck_abort_msg("the fast path took %s", bodies[i]);
        ck_assert_uint_eq(b.len, 0);
        gr_reply r;
        gr_api_analyze(&svc, bodies[i], strlen(bodies[i]), &r);
        expect_general(&svc, bodies[i], r.status, r.body, r.len);
    }
}
END_TEST

/* The widest answers: eleven piles near 2^63 - 1 that all hold the
 * nim-sum's highest bit (eleven winning moves, 63-bit columns, a huge heap's
 * witnesses) and a twelfth; they fit GR_FAST_MAX_ANSWER. */
START_TEST(widest_answers_fit)
{
    gr_service svc = service();
    for (int round = 0; round < 200; round++) {
        char body[1024];
        size_t o = (size_t)snprintf(body, sizeof body, "{\"game\":\"nim\",\"piles\":[");
        for (int i = 0; i < 11; i++)
            o += (size_t)snprintf(body + o, sizeof body - o, "%" PRIu64 ",",
                                  (uint64_t)INT64_MAX - (rng() % 1000000));
        snprintf(body + o, sizeof body - o, "%" PRIu64 "]}", rng() & INT64_MAX);
        check_same(&svc, body);
    }
}
END_TEST

/* The limit on piles holds on the fast path too. */
START_TEST(fast_path_respects_max_items)
{
    gr_service svc = service();
    svc.limits.max_items = 2;
    const char *body = "{\"game\":\"nim\",\"piles\":[1,2,3]}";
    gr_buf b = { 0 };
    ck_assert(!nim_fast(&svc.limits, body, strlen(body), &b));
    gr_reply r;
    gr_api_analyze(&svc, body, strlen(body), &r);
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "too_many"));
    gr_scratch_free(r.body);
}
END_TEST

/* NDJSON lines take the fast path and count as answered, spending nothing. */
START_TEST(batch_lines_take_the_fast_path)
{
    gr_service svc = service();
    gr_batch_run run;
    gr_batch_run_init(&run, &svc);
    const char *line = "{\"game\":\"nim\",\"piles\":[3,4,5]}";
    gr_reply r;
    gr_batch_run_line(&svc, &run, line, strlen(line), &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(run.stats.answered, 1);
    ck_assert_uint_eq(run.stats.spent, 0);
    expect_general(&svc, line, r.status, r.body, r.len);
}
END_TEST

/* ---- the arena ------------------------------------------------------------ */

START_TEST(arena_scopes)
{
    gr_service svc = service();
    (void)svc;
    ck_assert(gr_scratch_begin());
    ck_assert(!gr_scratch_begin()); /* no nesting */
    char *a = gr_scratch_alloc(100), *b = gr_scratch_alloc(100);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_ne(a, b);
    memset(a, 'a', 100);
    memset(b, 'b', 100);
    ck_assert_int_eq(a[99], 'a'); /* blocks do not overlap */
    char *c = gr_scratch_realloc(a, 300);
    ck_assert_int_eq(c[0], 'a');
    ck_assert_int_eq(c[99], 'a');
    char *big = gr_scratch_alloc(GR_SCRATCH_ARENA_BYTES + 1); /* past the arena: the heap */
    ck_assert_ptr_nonnull(big);
    big[GR_SCRATCH_ARENA_BYTES] = 1;
    gr_scratch_free(big);
    gr_scratch_free(b);
    gr_scratch_free(c);
    gr_scratch_end();
    ck_assert(gr_scratch_begin());
    char *d = gr_scratch_alloc(16); /* the arena starts over */
    ck_assert_ptr_nonnull(d);
    gr_scratch_end();
    char *e = gr_scratch_alloc(16); /* outside a scope: the heap */
    ck_assert_ptr_nonnull(e);
    free(e);
}
END_TEST

/* Answers computed inside and outside a scope are the same, and a scope
 * that fills its arena goes on from the heap. */
START_TEST(answers_inside_and_outside_a_scope_agree)
{
    gr_service svc = service();
    static const char *const bodies[] = {
        "{\"game\":\"nim\",\"piles\":[3,4,5],\"convention\":\"misere\"}",
        "{\"game\":\"subtraction\",\"moves\":[1,3,4],\"piles\":[10,1000000000000000000]}",
        "{\"game\":\"octal\",\"code\":\"0.07\",\"piles\":[5,8]}",
        "{\"game\":\"graph\",\"edges\":[[0,1],[1,2],[0,2]],\"tokens\":[0,1]}",
        "{\"game\":\"wythoff\",\"piles\":[4,9]}",
        "{\"game\":\"nim\",\"piles\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14]}",
        "{\"game\":\"nope\"}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        gr_reply out, in;
        gr_api_analyze(&svc, bodies[i], strlen(bodies[i]), &out);
        ck_assert(gr_scratch_begin());
        char *filler = gr_scratch_alloc(GR_SCRATCH_ARENA_BYTES - 4096 * (i + 1)); /* nearly full for some */
        ck_assert_ptr_nonnull(filler);
        gr_api_analyze(&svc, bodies[i], strlen(bodies[i]), &in);
        ck_assert_int_eq(in.status, out.status);
        ck_assert_str_eq(in.body, out.body);
        gr_scratch_free(in.body);
        gr_scratch_free(filler);
        gr_scratch_end();
        gr_scratch_free(out.body);
    }
}
END_TEST

/* ---- the writer ------------------------------------------------------------ */

static void check_digits(uint64_t v)
{
    char want[24], got[21];
    int n = snprintf(want, sizeof want, "%" PRIu64, v);
    size_t m = gr_u64_digits(v, got);
    got[m] = '\0';
    if ((size_t)n != m || strcmp(want, got) != 0)
        ck_abort_msg("gr_u64_digits(%s) wrote %s", want, got);
}

/* Strings of every length up to 40 with one byte of every value at every
 * place: the escapes match cJSON's printer. */
START_TEST(string_escapes_match_cjson)
{
    gr_service svc = service();
    (void)svc;
    char s[48];
    for (int len = 1; len <= 40; len++)
        for (int at = 0; at < len; at++)
            for (int c = 1; c < 256; c++) {
                memset(s, 'a', (size_t)len);
                s[at] = (char)c;
                s[len] = '\0';
                cJSON *str = cJSON_CreateString(s);
                char *want = cJSON_PrintUnformatted(str);
                gr_buf b = { 0 };
                gr_buf_json_string(&b, s);
                if (strcmp(b.data, want) != 0)
                    ck_abort_msg("byte %d at %d of %d: %s, cJSON %s", c, at, len, b.data, want);
                cJSON_free(want);
                cJSON_Delete(str);
                gr_scratch_free(b.data);
            }
}
END_TEST

/* gr_text_add as it was, all through vsnprintf: the formatter's twin. */
static void reference_add(gr_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void reference_add(gr_text *t, const char *fmt, ...)
{
    size_t room = sizeof t->buf - t->len;
    if (room <= 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= room) {
        t->len = sizeof t->buf - 1;
        memcpy(t->buf + t->len - 3, "...", 3);
        return;
    }
    t->len += (size_t)n;
}

/* Both texts given the same additions: every conversion the formatter
 * handles, with extreme arguments, then a format it hands to vsnprintf,
 * until the text overflows and ends in "...". */
START_TEST(text_formatter_matches_vsnprintf)
{
    for (int round = 0; round < 300; round++) {
        gr_text fast = { .len = 0 }, ref = { .len = 0 };
        while (ref.len < sizeof ref.buf - 1) {
            uint64_t u = rng() >> (rng() % 64);
            int64_t d = (int64_t)rng() >> (rng() % 64);
            size_t z = (size_t)(rng() >> (rng() % 64));
            char word[24];
            snprintf(word, sizeof word, "w%" PRIu64, rng() % 1000);
            switch (rng() % 9) {
            case 0: gr_text_add(&fast, "%s and %s, ", word, ""); reference_add(&ref, "%s and %s, ", word, ""); break;
            case 1: gr_text_add(&fast, "%d|%ld|%lld ", (int)d, (long)d, (long long)d);
                    reference_add(&ref, "%d|%ld|%lld ", (int)d, (long)d, (long long)d); break;
            case 2: gr_text_add(&fast, "%u|%lu|%llu ", (unsigned)u, (unsigned long)u, (unsigned long long)u);
                    reference_add(&ref, "%u|%lu|%llu ", (unsigned)u, (unsigned long)u, (unsigned long long)u); break;
            case 3: gr_text_add(&fast, "%zu%% %c.", z, 'a' + (int)(u % 26));
                    reference_add(&ref, "%zu%% %c.", z, 'a' + (int)(u % 26)); break;
            case 4: gr_text_add(&fast, "%" PRIu64 " ^ %" PRId64, u, d); reference_add(&ref, "%" PRIu64 " ^ %" PRId64, u, d); break;
            case 5: gr_text_add(&fast, "%d %lld", INT32_MIN, (long long)INT64_MIN);
                    reference_add(&ref, "%d %lld", INT32_MIN, (long long)INT64_MIN); break;
            case 6: gr_text_add(&fast, "%5d|%x", (int)(u % 1000), (unsigned)u); /* vsnprintf's */
                    reference_add(&ref, "%5d|%x", (int)(u % 1000), (unsigned)u); break;
            case 7: gr_text_add(&fast, "no conversion at all. "); reference_add(&ref, "no conversion at all. "); break;
            default: gr_text_add(&fast, "%llu", (unsigned long long)UINT64_MAX);
                     reference_add(&ref, "%llu", (unsigned long long)UINT64_MAX); break;
            }
            if (fast.len != ref.len || memcmp(fast.buf, ref.buf, ref.len + 1) != 0)
                ck_abort_msg("round %d: \"%s\" but vsnprintf gives \"%s\"", round, fast.buf, ref.buf);
        }
    }
}
END_TEST

/* Every value next to a power of ten or of two, and random ones. */
START_TEST(digits_match_printf)
{
    uint64_t p = 1;
    for (int i = 0; i < 20; i++, p *= 10)
        for (uint64_t d = 0; d < 4; d++) {
            check_digits(p + d);
            check_digits(p - d);
        }
    for (int b = 0; b < 64; b++)
        for (uint64_t d = 0; d < 4; d++) {
            check_digits((UINT64_C(1) << b) + d);
            check_digits((UINT64_C(1) << b) - d);
        }
    check_digits(UINT64_MAX);
    for (int i = 0; i < 200000; i++)
        check_digits(rng() >> (rng() % 64));
}
END_TEST

START_TEST(writer_matches_cjson)
{
    gr_service svc = service();
    (void)svc;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "plain", "abc");
    cJSON_AddStringToObject(root, "escapes", "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f caf\xc3\xa9");
    cJSON_AddNullToObject(root, "none");
    cJSON_AddTrueToObject(root, "yes");
    cJSON_AddFalseToObject(root, "no");
    cJSON_AddRawToObject(root, "raw", "12345678901234567890");
    cJSON_AddNumberToObject(root, "number", 2.5);
    cJSON *arr = cJSON_AddArrayToObject(root, "list");
    cJSON_AddItemToArray(arr, cJSON_CreateArray());
    cJSON_AddItemToArray(arr, cJSON_CreateObject());
    cJSON_AddItemToArray(arr, cJSON_CreateString(""));
    cJSON_AddStringToObject(root, "key \"quoted\"\n", "v");
    char *want = cJSON_PrintUnformatted(root);
    gr_buf b = { 0 };
    gr_buf_json(&b, root);
    ck_assert(!b.oom);
    ck_assert_str_eq(b.data, want);
    ck_assert_uint_eq(b.len, strlen(want));
    cJSON_free(want);
    gr_scratch_free(b.data);
    cJSON_Delete(root);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nim_fast");
    TCase *tc = tcase_create("nim_fast");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fast_equals_general_random);
    tcase_add_test(tc, fast_equals_general_exhaustive_small);
    tcase_add_test(tc, fast_equals_general_explain);
    tcase_add_test(tc, other_bodies_go_to_the_general_path);
    tcase_add_test(tc, fast_path_respects_max_items);
    tcase_add_test(tc, widest_answers_fit);
    tcase_add_test(tc, batch_lines_take_the_fast_path);
    tcase_add_test(tc, arena_scopes);
    tcase_add_test(tc, answers_inside_and_outside_a_scope_agree);
    tcase_add_test(tc, writer_matches_cjson);
    tcase_add_test(tc, digits_match_printf);
    tcase_add_test(tc, string_escapes_match_cjson);
    tcase_add_test(tc, text_formatter_matches_vsnprintf);
    suite_add_tcase(s, tc);
    return gr_check_run(s);
}
