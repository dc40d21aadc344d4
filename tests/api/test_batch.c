/* SPDX-License-Identifier: MIT */
/* Batches: the JSON form {"queries": [...]} answered entry by entry exactly
 * as /v1/analyze answers each entry alone, the batch budget, NDJSON lines,
 * and the streaming line reader. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "registry.h"
#include "contract.h"
#include "check_main.h"

/* A service without tables or cache, so compute spent is deterministic. */
static gr_service service(void)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    return svc;
}

/* A growing string for expected bodies and reader transcripts. */
typedef struct text {
    char *s;
    size_t len;
} text;

static void add(text *t, const char *s, size_t n)
{
    t->s = realloc(t->s, t->len + n + 1);
    ck_assert_ptr_nonnull(t->s);
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void adds(text *t, const char *s)
{
    add(t, s, strlen(s));
}

/* The batch of `entries` (JSON texts) and, in *want, the body it must
 * answer: every entry's /v1/analyze body, joined in order. */
static char *batch_of(const gr_service *svc, const char *const *entries, size_t n, text *want)
{
    text body = { 0 };
    adds(&body, "{\"queries\": [");
    adds(want, "{\"results\":[");
    for (size_t i = 0; i < n; i++) {
        gr_reply r;
        gr_api_analyze(svc, entries[i], strlen(entries[i]), &r);
        ck_assert_ptr_nonnull(r.body);
        if (i) {
            adds(&body, " ,\n");
            adds(want, ",");
        }
        adds(&body, entries[i]);
        add(want, r.body, r.len);
        free(r.body);
    }
    adds(&body, "]}");
    adds(want, "]}");
    return body.s;
}

/* Answers the batch of entries and checks it byte for byte against
 * /v1/analyze; returns the stats. */
static gr_batch_stats check_batch(const gr_service *svc, const char *const *entries, size_t n)
{
    text want = { 0 };
    char *body = batch_of(svc, entries, n, &want);
    gr_reply r;
    gr_batch_stats st;
    gr_api_batch(svc, body, strlen(body), &r, &st);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(r.body);
    ck_assert_uint_eq(r.len, strlen(r.body));
    ck_assert_str_eq(r.body, want.s);
    ck_assert_uint_eq(st.answered + st.errors, n);
    free(r.body);
    free(want.s);
    free(body);
    return st;
}

START_TEST(test_order_preserved)
{
    gr_service svc = service();
    enum { N = 200 };
    char texts[N][64];
    const char *entries[N];
    for (int i = 0; i < N; i++) {
        snprintf(texts[i], sizeof texts[i], "{\"game\":\"nim\",\"piles\":[%d,0]}", i);
        entries[i] = texts[i];
    }
    gr_batch_stats st = check_batch(&svc, entries, N);
    ck_assert_uint_eq(st.answered, N);
    ck_assert_uint_eq(st.errors, 0);
    /* and each result is the right one, read back */
    text want = { 0 };
    char *body = batch_of(&svc, entries, N, &want);
    gr_reply r;
    gr_api_batch(&svc, body, strlen(body), &r, NULL);
    cJSON *root = cJSON_Parse(r.body);
    cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    ck_assert_int_eq(cJSON_GetArraySize(results), N);
    int i = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, results)
        REQUIRE_EQ(cJSON_GetObjectItemCaseSensitive(a, "grundy")->valuedouble, i++);
    cJSON_Delete(root);
    free(r.body);
    free(want.s);
    free(body);
}
END_TEST

/* Good queries, bad queries and non-objects: each answered alone. */
static const char *const mixed[] = {
    "{\"game\":\"nim\",\"piles\":[3,4,5]}",
    "{\"game\":\"chess\"}",
    "5",
    "\"nim\"",
    "null",
    "[{\"game\":\"nim\",\"piles\":[1]}]",
    "{}",
    "{\"game\":\"nim\",\"piles\":[1,9223372036854775808]}",
    "{\"game\":\"nim\",\"piles\":[1.5]}",
    "{\"game\":\"nim\",\"piles\":[1],\"piles\":[2]}",
    "{\"game\":\"wythoff\",\"piles\":[3,5]}",
    "{\"game\":\"nim\",\"piles\":[1,2,3]}",
    "true",
    "{\"game\":\"divisor\",\"n\":12}",
};

START_TEST(test_mixed_good_and_bad)
{
    gr_service svc = service();
    gr_batch_stats st = check_batch(&svc, mixed, sizeof mixed / sizeof *mixed);
    ck_assert_uint_eq(st.answered, 4);
    ck_assert_uint_eq(st.errors, 10);
    ck_assert_uint_eq(st.refused, 0);
}
END_TEST

/* Numbers near 2^63 - 1 anywhere in the document, before and after the
 * entry, stay exact: each entry's literals are read through the one doc. */
static const char *const exact[] = {
    "{\"game\":\"nim\",\"piles\":[9223372036854775807,9223372036854775806]}",
    "{\"game\":\"nim\",\"piles\":[9223372036854775807],\"note\":[1e400,-0.5,12345678901234567890]}",
    "{\"game\":\"nim\",\"piles\":[\"9223372036854775807\",4611686018427387904,1]}",
    "{\"game\":\"nim\",\"piles\":[9223372036854775807,9223372036854775807,9223372036854775805]}",
    "{\"game\":\"staircase\",\"stairs\":[0,4,9223372036854775807,5]}",
};

START_TEST(test_exact_integers)
{
    gr_service svc = service();
    check_batch(&svc, exact, sizeof exact / sizeof *exact);
    const char *body = "{\"pad\":[9223372036854775801,3.25],\"queries\":["
                       "{\"game\":\"nim\",\"piles\":[9223372036854775807,9223372036854775806]},"
                       "{\"game\":\"nim\",\"piles\":[9223372036854775807,1]}],\"tail\":18446744073709551616}";
    gr_reply r;
    gr_api_batch(&svc, body, strlen(body), &r, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(strstr(r.body, "\"grundy\":1,"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"next\":{\"piles\":[9223372036854775806,9223372036854775806]}"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"grundy\":9223372036854775806,"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"next\":{\"piles\":[1,1]}"));
    free(r.body);
}
END_TEST

START_TEST(test_empty_batch)
{
    gr_service svc = service();
    gr_reply r;
    gr_batch_stats st = { 1, 1, 1, 1 };
    gr_api_batch(&svc, "{\"queries\":[]}", 14, &r, &st);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "{\"results\":[]}");
    ck_assert_uint_eq(st.answered + st.errors + st.spent, 0);
    free(r.body);
}
END_TEST

/* The whole body refused: status, code, field, a word the message must hold. */
static const struct {
    const char *body;
    int status;
    const char *code, *field, *says;
} refused[] = {
    { "", 400, "bad_json", NULL, "JSON" },
    { "not json", 400, "bad_json", NULL, "JSON" },
    { "{\"queries\":[{\"game\":\"nim\",\"piles\":[1]}]", 400, "bad_json", NULL, "JSON" },
    { "[{\"game\":\"nim\",\"piles\":[1]}]", 422, "invalid_query", "queries", "queries" },
    { "\"queries\"", 422, "invalid_query", "queries", "queries" },
    { "null", 422, "invalid_query", "queries", "queries" },
    { "{}", 422, "missing_field", "queries", "queries" },
    { "{\"game\":\"nim\",\"piles\":[1]}", 422, "missing_field", "queries", "queries" },
    { "{\"queries\":{\"game\":\"nim\",\"piles\":[1]}}", 422, "invalid_field", "queries", "array" },
    { "{\"queries\":5}", 422, "invalid_field", "queries", "array" },
    { "{\"queries\":null}", 422, "invalid_field", "queries", "array" },
    { "{\"queries\":[],\"queries\":[]}", 422, "invalid_field", "queries", "more than once" },
    { "{\"Queries\":[]}", 422, "missing_field", "queries", "queries" },
};

START_TEST(test_bad_shapes)
{
    gr_service svc = service();
    gr_reply r;
    gr_batch_stats st = { 1, 1, 1, 1 };
    gr_api_batch(&svc, refused[_i].body, strlen(refused[_i].body), &r, &st);
    ck_assert_int_eq(r.status, refused[_i].status);
    ck_assert_uint_eq(st.answered + st.errors + st.refused + st.spent, 0);
    cJSON *root = cJSON_Parse(r.body);
    ck_assert_ptr_nonnull(root);
    cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(e, "code")->valuestring, refused[_i].code);
    cJSON *field = cJSON_GetObjectItemCaseSensitive(e, "field");
    if (refused[_i].field)
        ck_assert_str_eq(field->valuestring, refused[_i].field);
    else
        ck_assert(cJSON_IsNull(field));
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItemCaseSensitive(e, "message")->valuestring,
                                 refused[_i].says));
    cJSON_Delete(root);
    free(r.body);
}
END_TEST

/* A batch of n nim queries. */
static char *nim_batch(size_t n)
{
    text t = { 0 };
    adds(&t, "{\"queries\":[");
    for (size_t i = 0; i < n; i++)
        adds(&t, i ? ",{\"game\":\"nim\",\"piles\":[1]}" : "{\"game\":\"nim\",\"piles\":[1]}");
    adds(&t, "]}");
    return t.s;
}

START_TEST(test_too_many)
{
    gr_service svc = service();
    svc.limits.max_batch = 3;
    char *three = nim_batch(3), *four = nim_batch(4);
    gr_reply r;
    gr_api_batch(&svc, three, strlen(three), &r, NULL);
    ck_assert_int_eq(r.status, 200);
    free(r.body);
    gr_api_batch(&svc, four, strlen(four), &r, NULL);
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "\"code\":\"too_many\""));
    ck_assert_ptr_nonnull(strstr(r.body, "limit of 3 queries"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"field\":\"queries\""));
    free(r.body);
    free(three);
    free(four);
    /* the default limit: 10000 answered, 10001 refused */
    gr_limits_default(&svc.limits);
    ck_assert_uint_eq(svc.limits.max_batch, 10000);
    char *many = nim_batch(10001);
    gr_api_batch(&svc, many, strlen(many), &r, NULL);
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "limit of 10000 queries"));
    free(r.body);
    free(many);
}
END_TEST

START_TEST(test_defaults)
{
    gr_limits l;
    gr_limits_default(&l);
    ck_assert_uint_eq(l.max_batch, 10000);
    ck_assert_uint_eq(l.batch_budget, 4 * l.budget);
    ck_assert_uint_eq(l.max_line, 1u << 20);
    ck_assert_uint_eq(l.query_cpu_ms, 1000);
    ck_assert_uint_eq(l.batch_cpu_ms, 4 * l.query_cpu_ms);
}
END_TEST

#define HEAVY "{\"game\":\"grundys_game\",\"piles\":[300]}"

/* Steps one HEAVY query spends (no tables, no cache: always the same). */
static uint64_t heavy_steps(const gr_service *svc)
{
    const char *body = "{\"queries\":[" HEAVY "]}";
    gr_reply r;
    gr_batch_stats st;
    gr_api_batch(svc, body, strlen(body), &r, &st);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_null(strstr(r.body, "error"));
    free(r.body);
    ck_assert_uint_eq(st.answered, 1);
    ck_assert_uint_gt(st.spent, 0);
    return st.spent;
}

/* A run's budget is shared in order: each query gets what is left, cut to
 * the per-query budget and raised to the floor (a thousandth of it), so
 * that a cheap query after heavy ones is still answered, while a heavy one
 * on a cut share gets the batch budget's error. */
START_TEST(test_batch_budget)
{
    gr_service svc = service();
    uint64_t h = heavy_steps(&svc);
    svc.limits.budget = 100 * h;       /* the floor, h / 10, does not cover a heavy query */
    svc.limits.batch_budget = 2 * h + 1; /* two queries leave 1 step: a third gets the floor */
    const char *body = "{\"queries\":[" HEAVY "," HEAVY "," HEAVY "," HEAVY ",{\"game\":\"can_i_win\","
                       "\"max_choosable\":4,\"desired_total\":6}]}";
    gr_reply r;
    gr_batch_stats st;
    gr_api_batch(&svc, body, strlen(body), &r, &st);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(st.answered, 3);
    ck_assert_uint_eq(st.errors, 2);
    ck_assert_uint_eq(st.refused, 2);
    ck_assert_uint_ge(st.spent, 2 * h + 2 * (h / 10));
    ck_assert_uint_le(st.spent, 2 * h + 2 * (h / 10) + h / 10);
    cJSON *root = cJSON_Parse(r.body);
    cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    ck_assert_int_eq(cJSON_GetArraySize(results), 5);
    for (int i = 0; i < 5; i++) {
        cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, i), "error");
        ck_assert((e != NULL) == (i == 2 || i == 3));
        if (!e)
            continue;
        ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(e, "code")->valuestring, "limit_exceeded");
        char want[80];
        snprintf(want, sizeof want, "batch's total compute budget (%llu steps, --batch-budget",
                 (unsigned long long)svc.limits.batch_budget);
        ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItemCaseSensitive(e, "message")->valuestring, want));
    }
    cJSON_Delete(root);
    free(r.body);
}
END_TEST

/* The per-query budget still applies inside a batch, with its own message,
 * and a query that runs out is charged its whole share. */
START_TEST(test_query_budget_in_batch)
{
    gr_service svc = service();
    svc.limits.budget = 1000;
    svc.limits.batch_budget = 2500;
    const char *body = "{\"queries\":[{\"game\":\"grundys_game\",\"piles\":[5000]},"
                       "{\"game\":\"grundys_game\",\"piles\":[5000]},"
                       "{\"game\":\"nim\",\"piles\":[2],\"explain\":false},"
                       "{\"game\":\"grundys_game\",\"piles\":[5000]},"
                       "{\"game\":\"nim\",\"piles\":[2],\"explain\":false}]}";
    gr_reply r;
    gr_batch_stats st;
    gr_api_batch(&svc, body, strlen(body), &r, &st);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(st.spent, 2500);
    ck_assert_uint_eq(st.refused, 1);
    ck_assert_uint_eq(st.errors, 3);
    ck_assert_uint_eq(st.answered, 2);
    const char *per_query = strstr(r.body, "per-query compute budget");
    ck_assert_ptr_nonnull(per_query);
    ck_assert_ptr_nonnull(strstr(r.body, "which left it only 500 steps"));
    ck_assert_ptr_nonnull(strstr(r.body, "{\"game\":\"nim\""));
    free(r.body);
}
END_TEST
/* (The Nim queries above are slim: an explained answer's winning moves
 * spend steps too, and the last query runs on the floor share.) */

/* A batch's CPU time is shared as its steps are: with a deadline of 30 ms
 * per query and 40 ms per batch, heavy queries stop at their deadline and
 * a cheap one after them still gets the floor. */
START_TEST(test_batch_cpu_shared)
{
    gr_service svc = service();
    svc.limits.query_cpu_ms = 30;
    svc.limits.batch_cpu_ms = 40;
    const char *body = "{\"queries\":[{\"game\":\"strange_nim\",\"piles\":[[1000000000000000000,1000000000]]},"
                       "{\"game\":\"strange_nim\",\"piles\":[[1000000000000000000,1000000000]]},"
                       "{\"game\":\"strange_nim\",\"piles\":[[1000000000000000000,1000000000]]},"
                       "{\"game\":\"can_i_win\",\"max_choosable\":4,\"desired_total\":6}]}";
    gr_reply r;
    gr_batch_stats st;
    gr_api_batch(&svc, body, strlen(body), &r, &st);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(st.errors, 3);
    ck_assert_uint_eq(st.answered, 1);
    ck_assert_ptr_nonnull(strstr(r.body, "the query used the 30 ms of CPU time it was given"));
    ck_assert_ptr_nonnull(strstr(r.body, "and 40 ms of CPU time, --batch-cpu-ms) was spent"));
    ck_assert_ptr_nonnull(strstr(r.body, "{\"game\":\"can_i_win\""));
    free(r.body);
}
END_TEST

/* ---- NDJSON lines ------------------------------------------------------- */

START_TEST(test_line_same_as_analyze)
{
    gr_service svc = service();
    for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++) {
        gr_reply a, b;
        gr_api_analyze(&svc, mixed[i], strlen(mixed[i]), &a);
        gr_api_batch_line(&svc, mixed[i], strlen(mixed[i]), &b);
        ck_assert_int_eq(a.status, b.status);
        ck_assert_str_eq(a.body, b.body);
        free(a.body);
        free(b.body);
    }
}
END_TEST

static const char *const blank_lines[] = { "", " ", "\t \r", "\r" };

START_TEST(test_empty_line_answered)
{
    gr_service svc = service();
    gr_reply r;
    gr_api_batch_line(&svc, blank_lines[_i], strlen(blank_lines[_i]), &r);
    ck_assert_int_eq(r.status, 400);
    ck_assert_ptr_nonnull(strstr(r.body, "\"code\":\"bad_json\""));
    ck_assert_ptr_nonnull(strstr(r.body, "the line is empty"));
    ck_assert_ptr_null(strchr(r.body, '\n'));
    free(r.body);
}
END_TEST

START_TEST(test_run_lines_budget)
{
    gr_service svc = service();
    uint64_t h = heavy_steps(&svc);
    svc.limits.batch_budget = h; /* the first heavy line spends it all; the floor covers the next */
    const char *lines[] = { "{\"game\":\"nim\",\"piles\":[9223372036854775807,1]}", "", "{bad", HEAVY,
                            "{\"game\":\"nim\",\"piles\":[1]}", "", HEAVY };
    int want_status[] = { 200, 400, 400, 200, 200, 400, 200 };
    gr_batch_run run;
    gr_batch_run_init(&run, &svc);
    for (int i = 0; i < 7; i++) {
        gr_reply r;
        gr_batch_run_line(&svc, &run, lines[i], strlen(lines[i]), &r);
        ck_assert_int_eq(r.status, want_status[i]);
        if (i == 0)
            ck_assert_ptr_nonnull(strstr(r.body, "\"grundy\":9223372036854775806,"));
        free(r.body);
    }
    ck_assert_uint_eq(run.stats.answered, 4);
    ck_assert_uint_eq(run.stats.errors, 3);
    ck_assert_uint_eq(run.stats.refused, 0);
    ck_assert_uint_eq(run.left, 0);
}
END_TEST

START_TEST(test_line_too_long_reply)
{
    gr_service svc = service();
    svc.limits.max_line = 77;
    gr_reply r;
    gr_api_line_too_long(&svc, &r);
    ck_assert_int_eq(r.status, 413);
    ck_assert_ptr_nonnull(strstr(r.body, "\"code\":\"line_too_long\""));
    ck_assert_ptr_nonnull(strstr(r.body, "longer than 77 bytes"));
    free(r.body);
}
END_TEST

/* ---- the line reader ---------------------------------------------------- */

/* Appends the reader's verdict to a transcript: "[line]" or "!". */
static void note(text *t, gr_line_kind k, const char *line, size_t len)
{
    if (k == GR_LINE_TOO_LONG) {
        adds(t, "!");
        return;
    }
    adds(t, "[");
    add(t, line, len);
    adds(t, "]");
}

static void drain(gr_line_reader *r, text *t)
{
    const char *line;
    size_t len;
    gr_line_kind k;
    while ((k = gr_line_reader_next(r, &line, &len)) != GR_LINE_NONE) {
        note(t, k, line, len);
        REQUIRE(r->len <= r->max_line && r->cap <= r->max_line);
    }
    REQUIRE(r->len <= r->max_line && r->cap <= r->max_line);
}

/* The transcript of `in` fed in chunks of `step` bytes, the first `first` long. */
static char *read_lines(const char *in, size_t n, size_t max_line, size_t first, size_t step)
{
    gr_line_reader r;
    ck_assert_int_eq(gr_line_reader_init(&r, max_line), 0);
    text t = { 0 };
    adds(&t, "");
    size_t at = 0;
    for (bool start = true; at < n; start = false) {
        size_t take = start ? first : step; /* the first chunk may be empty */
        if (take > n - at)
            take = n - at;
        char *chunk = malloc(take ? take : 1); /* a fresh copy: lines must not outlive it */
        memcpy(chunk, in + at, take);
        gr_line_reader_feed(&r, chunk, take);
        drain(&r, &t);
        free(chunk);
        at += take;
    }
    const char *line;
    size_t len;
    gr_line_kind k = gr_line_reader_finish(&r, &line, &len);
    if (k != GR_LINE_NONE)
        note(&t, k, line, len);
    ck_assert_int_eq(gr_line_reader_finish(&r, &line, &len), GR_LINE_NONE);
    gr_line_reader_fini(&r);
    return t.s;
}

static const struct {
    const char *in;
    size_t max_line;
    const char *want;
} streams[] = {
    { "", 64, "" },
    { "\n", 64, "[]" },
    { "a", 64, "[a]" },
    { "a\n", 64, "[a]" },
    { "a\r\n", 64, "[a]" },
    { "\r\n\r\n", 64, "[][]" },
    { "{\"game\":\"nim\"}\n\n  \nlast", 64, "[{\"game\":\"nim\"}][][  ][last]" },
    { "one\r\ntwo\nthree\r\nfour", 64, "[one][two][three][four]" },
    { "x\r", 64, "[x]" },
    { "a\rb\n", 64, "[a\rb]" },
    /* overlong lines are refused once and reading resumes after them */
    { "short\nxxxxxxxxxxxxxxxxxxxx\nok\n", 8, "[short]![ok]" },
    { "xxxxxxxxxxxxxxxxxxxx\nxxxxxxxxx\n12345678\n", 8, "!![12345678]" },
    { "12345678\n123456789\n1234567\r\n", 8, "[12345678]![1234567]" },
    { "12345678\r\nok", 8, "![ok]" },
    { "ok\nyyyyyyyyyyyyyyyyyy", 8, "[ok]!" },
    { "ok\n123456789", 8, "[ok]!" },
    { "ok\n12345678", 8, "[ok][12345678]" },
    { "\n\nxxxxxxxxx\n\n", 8, "[][]![]" },
    { "a\nbb\nccc\n", 1, "[a]!!" },
};

/* Every split of the stream in two, and byte by byte, reads the same. */
START_TEST(test_reader_every_split)
{
    const char *in = streams[_i].in;
    size_t n = strlen(in);
    for (size_t first = 0; first <= n; first++) {
        char *got = read_lines(in, n, streams[_i].max_line, first, n ? n : 1);
        if (strcmp(got, streams[_i].want) != 0)
            ck_abort_msg("stream %d split at %zu: got %s, want %s", _i, first, got, streams[_i].want);
        free(got);
        got = read_lines(in, n, streams[_i].max_line, first, 1);
        if (strcmp(got, streams[_i].want) != 0)
            ck_abort_msg("stream %d byte by byte after %zu: got %s, want %s", _i, first, got,
                         streams[_i].want);
        free(got);
    }
}
END_TEST

/* A long stream of lines with overlong ones between: the reader's buffer
 * never holds more than max_line bytes, and every good line comes out. */
START_TEST(test_reader_bounded)
{
    text in = { 0 };
    text want = { 0 };
    adds(&want, "");
    for (int i = 0; i < 3000; i++) {
        char line[64];
        snprintf(line, sizeof line, "line %d", i);
        adds(&in, line);
        adds(&in, i % 3 ? "\n" : "\r\n");
        adds(&want, "[");
        adds(&want, line);
        adds(&want, "]");
        if (i % 100 == 0) {
            for (int j = 0; j < 40 + i % 7; j++)
                adds(&in, "0123456789");
            adds(&in, "\n");
            adds(&want, "!");
        }
    }
    for (size_t step = 1; step < 70; step += 7) {
        char *got = read_lines(in.s, in.len, 32, step, step);
        ck_assert_str_eq(got, want.s);
        free(got);
    }
    free(in.s);
    free(want.s);
}
END_TEST

/* Without a limit (SIZE_MAX, as `grundy query -` reads), a line of any
 * length comes out whole however it is split. */
START_TEST(test_reader_unlimited)
{
    text in = { 0 }, want = { 0 };
    adds(&want, "[a][");
    adds(&in, "a\n");
    for (int i = 0; i < 30000; i++) {
        adds(&in, "0123456789");
        adds(&want, "0123456789");
    }
    adds(&in, "\r\nb");
    adds(&want, "][b]");
    size_t steps[] = { 1, 999, 4096, 65536, in.len };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        char *got = read_lines(in.s, in.len, SIZE_MAX, steps[i], steps[i]);
        ck_assert_str_eq(got, want.s);
        free(got);
    }
    free(in.s);
    free(want.s);
}
END_TEST

/* ---- ids ------------------------------------------------------------------ */

/* A batch query with an id, the id's text as echoed, and the same query
 * without it (whose analyze body must follow the id). */
static const struct {
    const char *query, *id, *plain;
} with_ids[] = {
    { "{\"id\":-9223372036854775808,\"game\":\"nim\",\"piles\":[1,2]}", "-9223372036854775808",
      "{\"game\":\"nim\",\"piles\":[1,2]}" },
    { "{\"game\":\"divisor\",\"id\":9223372036854775807,\"n\":12}", "9223372036854775807",
      "{\"game\":\"divisor\",\"n\":12}" },
    { "{\"game\":\"chess\",\"id\":\"q\\\"1\\u00e9\"}", "\"q\\\"1\xc3\xa9\"", "{\"game\":\"chess\"}" },
    { "{\"game\":\"nim\",\"piles\":\"x\",\"id\":0}", "0", "{\"game\":\"nim\",\"piles\":\"x\"}" },
    { "{\"game\":\"nim\",\"piles\":[3],\"id\":null}", NULL, "{\"game\":\"nim\",\"piles\":[3]}" },
};

START_TEST(test_id_heads_the_answer)
{
    gr_service svc = service();
    gr_reply a, b;
    gr_api_analyze(&svc, with_ids[_i].plain, strlen(with_ids[_i].plain), &a);
    gr_api_batch_line(&svc, with_ids[_i].query, strlen(with_ids[_i].query), &b);
    text want = { 0 };
    if (with_ids[_i].id) {
        adds(&want, "{\"id\":");
        adds(&want, with_ids[_i].id);
        adds(&want, ",");
        adds(&want, a.body + 1);
    } else {
        adds(&want, a.body);
    }
    ck_assert_int_eq(a.status, b.status);
    ck_assert_str_eq(b.body, want.s);
    free(a.body);
    free(b.body);
    free(want.s);
}
END_TEST

static const struct {
    const char *query, *code;
} bad_ids[] = {
    { "{\"id\":1.0,\"game\":\"nim\",\"piles\":[1]}", "invalid_integer" },
    { "{\"id\":-9223372036854775809,\"game\":\"nim\",\"piles\":[1]}", "out_of_range" },
    { "{\"id\":false,\"game\":\"nim\",\"piles\":[1]}", "invalid_field" },
    { "{\"id\":1,\"id\":1,\"game\":\"nim\",\"piles\":[1]}", "invalid_field" },
};

START_TEST(test_bad_id_refused)
{
    gr_service svc = service();
    gr_reply r;
    gr_api_batch_line(&svc, bad_ids[_i].query, strlen(bad_ids[_i].query), &r);
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, bad_ids[_i].code));
    ck_assert_ptr_nonnull(strstr(r.body, "\"field\":\"id\""));
    ck_assert(strncmp(r.body, "{\"error\":", 9) == 0); /* not echoed */
    free(r.body);
    gr_api_analyze(&svc, with_ids[0].query, strlen(with_ids[0].query), &r);
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "\"inapplicable_field\""));
    free(r.body);
}
END_TEST

static void count_codes(void *ctx, const gr_reply *r)
{
    text *t = ctx;
    adds(t, r->error ? r->error : "-");
    adds(t, r->game ? gr_games[gr_game_index(r->game)]->name : "?");
    adds(t, ";");
}

START_TEST(test_observer_sees_every_query)
{
    gr_service svc = service();
    text seen = { 0 };
    gr_batch_run run;
    gr_batch_run_init(&run, &svc);
    run.observe = count_codes;
    run.observe_ctx = &seen;
    const char *body = "{\"queries\":[{\"game\":\"nim\",\"piles\":[1]},{\"game\":\"chess\"},"
                       "{\"game\":\"divisor\",\"n\":0},7]}";
    gr_reply r;
    gr_api_batch_run(&svc, &run, body, strlen(body), &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(seen.s, "-nim;unknown_game?;out_of_rangedivisor;invalid_query?;");
    free(r.body);
    free(seen.s);
}
END_TEST

static Suite *batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_order_preserved);
    tcase_add_test(tc, test_mixed_good_and_bad);
    tcase_add_test(tc, test_exact_integers);
    tcase_add_loop_test(tc, test_id_heads_the_answer, 0, sizeof with_ids / sizeof *with_ids);
    tcase_add_loop_test(tc, test_bad_id_refused, 0, sizeof bad_ids / sizeof *bad_ids);
    tcase_add_test(tc, test_observer_sees_every_query);
    tcase_add_test(tc, test_empty_batch);
    tcase_add_loop_test(tc, test_bad_shapes, 0, sizeof refused / sizeof *refused);
    tcase_add_test(tc, test_too_many);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_batch_budget);
    tcase_add_test(tc, test_batch_cpu_shared);
    tcase_add_test(tc, test_query_budget_in_batch);
    tcase_add_test(tc, test_line_same_as_analyze);
    tcase_add_loop_test(tc, test_empty_line_answered, 0, sizeof blank_lines / sizeof *blank_lines);
    tcase_add_test(tc, test_run_lines_budget);
    tcase_add_test(tc, test_line_too_long_reply);
    tcase_add_loop_test(tc, test_reader_every_split, 0, sizeof streams / sizeof *streams);
    tcase_add_test(tc, test_reader_bounded);
    tcase_add_test(tc, test_reader_unlimited);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(batch_suite());
}
