/* SPDX-License-Identifier: MIT */
#include "batch.h"
#include "contract.h"
#include "grundy/alloc.h"

#include "scratch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------- */

/* Fills *out with the error rendered from the arguments (as gr_fail's). */
static void fail_reply(gr_reply *out, gr_error_code code, const char *field,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail_reply(gr_reply *out, gr_error_code code, const char *field,
                       const char *fmt, ...)
{
    gr_api_error e = { 0 };
    char message[sizeof e.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    gr_fail(&e, code, field, "%s", message);
    gr_api_error_reply(&e, out);
}

static void empty_line_reply(gr_reply *out)
{
    fail_reply(out, GR_E_BAD_JSON, "",
               "the line is empty; send one JSON query object per line");
}

/* The reply to a query that what was left of the batch budget could not
 * cover. */
static void batch_spent_reply(const gr_service *svc, uint64_t steps, uint64_t cpu_ns, gr_reply *out)
{
    fail_reply(out, GR_E_LIMIT_EXCEEDED, "",
               "the batch's total compute budget (%llu steps, --batch-budget, and %llu ms of CPU "
               "time, --batch-cpu-ms) was spent by the queries before this one, which left it "
               "only %llu steps and %llu us, not enough; send the remaining queries in another "
               "batch",
               (unsigned long long)svc->limits.batch_budget, (unsigned long long)svc->limits.batch_cpu_ms,
               (unsigned long long)steps, (unsigned long long)(cpu_ns / 1000));
}

void gr_api_line_too_long(const gr_service *svc, gr_reply *out)
{
    fail_reply(out, GR_E_LINE_TOO_LONG, "",
               "the line is longer than %llu bytes, the limit on one line, and was skipped; "
               "send smaller queries", (unsigned long long)svc->limits.max_line);
}

/* ---- a run of queries under one batch budget ---------------------------- */

void gr_batch_run_init(gr_batch_run *run, const gr_service *svc)
{
    memset(run, 0, sizeof *run);
    run->left = svc->limits.batch_budget;
    run->cpu_left_ns = gr_ms_to_ns(svc->limits.batch_cpu_ms);
}

/* What one query of a run may use of `left`: at most `per_query`, at least
 * a GR_BATCH_FLOOR-th of it, else all that is left. */
static uint64_t query_share(uint64_t per_query, uint64_t left)
{
    uint64_t floor = per_query / GR_BATCH_FLOOR;
    uint64_t s = left > floor ? left : floor;
    return s < per_query ? s : per_query;
}

static void count_reply(gr_batch_run *run, const gr_reply *r)
{
    if (r->status == 200)
        run->stats.answered++;
    else
        run->stats.errors++;
    if (run->observe)
        run->observe(run->observe_ctx, r);
}

/* ---- ids ------------------------------------------------------------------ */

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Whether the JSON number literal t[0 .. n) is an integer in the signed
 * 64-bit range: an optional '-', then digits (JSON allows no leading zero). */
static bool is_i64_literal(const char *t, size_t n)
{
    static const char max_pos[] = "9223372036854775807", max_neg[] = "9223372036854775808";
    bool neg = n && t[0] == '-';
    const char *d = t + neg;
    size_t digits = n - neg;
    for (size_t i = 0; i < digits; i++)
        if (d[i] < '0' || d[i] > '9')
            return false;
    const char *max = neg ? max_neg : max_pos;
    return digits > 0 && (digits < 19 || (digits == 19 && memcmp(d, max, 19) <= 0));
}

static bool is_integer_literal(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i] == '.' || t[i] == 'e' || t[i] == 'E')
            return false;
    return true;
}

/* The query's "id" as JSON text in *id (left empty when the query has none:
 * absent, null, or the query is not an object), or -1 with *err filled. */
static int read_id(const gr_json_doc *doc, const cJSON *node, gr_buf *id, gr_api_error *err)
{
    const cJSON *m, *v = NULL;
    unsigned named = 0;
    if (!cJSON_IsObject(node))
        return 0;
    cJSON_ArrayForEach(m, node) {
        if (strcmp(m->string, "id") == 0 && named++ == 0)
            v = m;
    }
    if (named > 1)
        return gr_fail(err, GR_E_INVALID_FIELD, "id",
                       "the member \"id\" appears more than once; send each member once");
    if (!v || cJSON_IsNull(v))
        return 0;
    if (cJSON_IsString(v)) {
        size_t chars = utf8_chars(v->valuestring);
        if (chars > GR_BATCH_ID_MAX_CHARS)
            return gr_fail(err, GR_E_INVALID_FIELD, "id",
                           "\"id\" is a string of %zu characters; the limit is %d: send a shorter "
                           "one", chars, GR_BATCH_ID_MAX_CHARS);
        gr_buf_json_string(id, v->valuestring);
        return 0;
    }
    if (cJSON_IsNumber(v) && doc) {
        const gr_json_literal *lit = &doc->numbers[v->valueint];
        const char *t = doc->body + lit->offset;
        char shown[48];
        snprintf(shown, sizeof shown, "%.*s%s", lit->length > 40 ? 40 : (int)lit->length, t,
                 lit->length > 40 ? "..." : "");
        if (!is_integer_literal(t, lit->length))
            return gr_fail(err, GR_E_INVALID_INTEGER, "id",
                           "\"id\" must be an integer written as plain digits, or a string; got %s",
                           shown);
        if (!is_i64_literal(t, lit->length))
            return gr_fail(err, GR_E_OUT_OF_RANGE, "id",
                           "\"id\" must be an integer from -9223372036854775808 to "
                           "9223372036854775807, or a string; got %s", shown);
        gr_buf_put(id, t, lit->length);
        return 0;
    }
    return gr_fail(err, GR_E_INVALID_FIELD, "id",
                   "\"id\" must be a string of at most %d characters or a 64-bit integer, which "
                   "the answer echoes", GR_BATCH_ID_MAX_CHARS);
}

/* Makes out's body start with the member "id": id (the answer or the error
 * object keeps its members after it). */
static void add_id(gr_reply *out, const gr_buf *id)
{
    if (!id->len || !out->body || out->len < 2 || out->body[0] != '{')
        return;
    gr_buf b = { 0 };
    gr_buf_put(&b, "{\"id\":", 6);
    gr_buf_put(&b, id->data, id->len);
    gr_buf_put(&b, ",", 1);
    gr_buf_put(&b, out->body + 1, out->len - 1);
    gr_scratch_free(out->body);
    if (b.oom) {
        gr_scratch_free(b.data);
        fail_reply(out, GR_E_OVERLOADED, "", "out of memory rendering the answer; retry later");
        return;
    }
    out->body = b.data;
    out->len = b.len;
}

/* Answers `node` of `doc` with its share of the run's steps and CPU time
 * (query_share), charging the run what the query used; its id, when
 * valid, heads the reply. A query whose share was cut below the per-query
 * limits and that hit its limit gets the batch budget's error. */
static void run_node(const gr_service *svc, gr_batch_run *run, const gr_json_doc *doc,
                     const cJSON *node, gr_reply *out)
{
    gr_api_error err = { 0 };
    gr_buf id = { 0 };
    if (read_id(doc, node, &id, &err) != 0) {
        gr_api_error_reply(&err, out);
    } else {
        uint64_t steps = query_share(svc->limits.budget, run->left);
        uint64_t cpu_ns = query_share(gr_ms_to_ns(svc->limits.query_cpu_ms), run->cpu_left_ns);
        bool cut = steps < svc->limits.budget || cpu_ns < gr_ms_to_ns(svc->limits.query_cpu_ms);
        gr_deadline deadline; /* lazy: a cheap query never reads the clock */
        gr_deadline_start_lazy(&deadline, cpu_ns, run->cancel, NULL, NULL);
        gr_budget budget = gr_budget_make_deadline(steps, &deadline);
        gr_api_answer_batch_node(svc, doc, node, &budget, &err, out);
        uint64_t spent = steps - budget.left, used = gr_deadline_elapsed(&deadline);
        run->stats.spent += spent;
        run->left -= spent < run->left ? spent : run->left;
        run->cpu_left_ns -= used < run->cpu_left_ns ? used : run->cpu_left_ns;
        if (cut && out->error && strcmp(out->error, gr_error_name(GR_E_LIMIT_EXCEEDED)) == 0) {
            gr_scratch_free(out->body);
            batch_spent_reply(svc, steps, cpu_ns, out);
            run->stats.refused++;
        }
    }
    if (id.oom)
        fail_reply(out, GR_E_OVERLOADED, "", "out of memory reading the id; retry later");
    else
        add_id(out, &id);
    gr_scratch_free(id.data);
    count_reply(run, out);
}

static bool is_blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            return false;
    return true;
}

void gr_api_batch_line(const gr_service *svc, const char *line, size_t len, gr_reply *out)
{
    gr_batch_run run;
    gr_batch_run_init(&run, svc);
    run.left = UINT64_MAX;
    run.cpu_left_ns = UINT64_MAX;
    gr_batch_run_line(svc, &run, line, len, out);
}

void gr_batch_run_line(const gr_service *svc, gr_batch_run *run, const char *line, size_t len,
                       gr_reply *out)
{
    gr_api_error err = { 0 };
    gr_json_doc doc;
    if (is_blank(line, len)) {
        empty_line_reply(out);
        count_reply(run, out);
    } else if (gr_api_answer_fast(svc, line, len, out)) {
        count_reply(run, out); /* no budget spent, as on the general path */
    } else if (gr_json_parse(line, len, &doc, &err) != 0) {
        gr_api_error_reply(&err, out);
        count_reply(run, out);
    } else {
        run_node(svc, run, &doc, doc.root, out);
        gr_json_free(&doc);
    }
}

bool gr_batch_run_fast(const gr_service *svc, gr_batch_run *run, const char *line, size_t len, gr_buf *out)
{
    const gr_game *game = run->left ? gr_api_fast(&svc->limits, line, len, out) : NULL;
    if (!game)
        return false;
    count_reply(run, &(gr_reply){ 200, NULL, 0, game, NULL });
    return true;
}

void gr_batch_run_too_long(const gr_service *svc, gr_batch_run *run, gr_reply *out)
{
    gr_api_line_too_long(svc, out);
    count_reply(run, out);
}

/* ---- the JSON form ------------------------------------------------------ */

/* A growing string; `failed` once an allocation failed. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
    bool failed;
} strbuf;

static void sb_add(strbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n + 1)
            cap *= 2;
        char *p = gr_realloc(b->s, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* The "queries" array of the body, or NULL with *out holding the 422. */
static const cJSON *queries_of(const gr_service *svc, const cJSON *root, gr_reply *out)
{
    const char *dup;
    if (!cJSON_IsObject(root)) {
        fail_reply(out, GR_E_INVALID_QUERY, "queries",
                   "the body must be a JSON object {\"queries\": [q1, q2, ...]} with up to %llu "
                   "queries, each as POST /v1/analyze takes it",
                   (unsigned long long)svc->limits.max_batch);
        return NULL;
    }
    int rc = gr_json_duplicate_member(root, &dup);
    if (rc < 0 || (rc > 0 && strcmp(dup, "queries") == 0)) {
        if (rc < 0)
            fail_reply(out, GR_E_OVERLOADED, "", "out of memory reading the body; retry later");
        else
            fail_reply(out, GR_E_INVALID_FIELD, "queries",
                       "the member \"queries\" appears more than once; send it once");
        return NULL;
    }
    const cJSON *qs = cJSON_GetObjectItemCaseSensitive(root, "queries");
    if (!qs)
        fail_reply(out, GR_E_MISSING_FIELD, "queries",
                   "the field \"queries\" is required: an array of up to %llu queries",
                   (unsigned long long)svc->limits.max_batch);
    else if (!cJSON_IsArray(qs))
        fail_reply(out, GR_E_INVALID_FIELD, "queries",
                   "\"queries\" must be an array of up to %llu queries",
                   (unsigned long long)svc->limits.max_batch);
    else if ((uint64_t)cJSON_GetArraySize(qs) > svc->limits.max_batch)
        fail_reply(out, GR_E_TOO_MANY, "queries",
                   "\"queries\" has more entries than the limit of %llu queries in one batch "
                   "(max_batch); split it into several batches, or stream the queries as NDJSON "
                   "(Content-Type: application/x-ndjson, one query per line), which has no such "
                   "limit",
                   (unsigned long long)svc->limits.max_batch);
    else
        return qs;
    return NULL;
}

/* Appends each entry's answer to b, separated by commas. */
static void answer_all(const gr_service *svc, gr_batch_run *run, const gr_json_doc *doc,
                       const cJSON *qs, strbuf *b)
{
    const cJSON *q;
    bool first = true;
    cJSON_ArrayForEach(q, qs) {
        gr_reply r;
        bool scoped = gr_scratch_begin(); /* each answer's scratch memory, released once copied */
        run_node(svc, run, doc, q, &r);
        if (!first)
            sb_add(b, ",", 1);
        first = false;
        if (r.body)
            sb_add(b, r.body, r.len);
        else
            sb_add(b, gr_oom_error_json, gr_oom_error_json_len);
        gr_scratch_free(r.body);
        if (scoped)
            gr_scratch_end();
    }
}

void gr_api_batch_run(const gr_service *svc, gr_batch_run *run, const char *body, size_t len,
                      gr_reply *out)
{
    gr_api_error err = { 0 };
    gr_json_doc doc;
    if (gr_json_parse(body, len, &doc, &err) != 0) {
        gr_api_error_reply(&err, out);
        return;
    }
    const cJSON *qs = queries_of(svc, doc.root, out);
    if (qs) {
        strbuf b = { 0 };
        sb_add(&b, "{\"results\":[", 12);
        answer_all(svc, run, &doc, qs, &b);
        sb_add(&b, "]}", 2);
        if (b.failed) {
            gr_free(b.s);
            fail_reply(out, GR_E_OVERLOADED, "", "out of memory rendering the answers; retry later");
        } else {
            *out = (gr_reply){ 200, b.s, b.len, NULL, NULL };
        }
    }
    gr_json_free(&doc);
}

void gr_api_batch(const gr_service *svc, const char *body, size_t len, gr_reply *out,
                  gr_batch_stats *stats)
{
    gr_batch_run run;
    gr_batch_run_init(&run, svc);
    gr_api_batch_run(svc, &run, body, len, out);
    if (stats)
        *stats = out->status == 200 ? run.stats : (gr_batch_stats){ 0 };
}

/* ---- lines from a stream ------------------------------------------------ */

int gr_line_reader_init(gr_line_reader *r, size_t max_line)
{
    memset(r, 0, sizeof *r);
    r->max_line = max_line ? max_line : 1;
    return 0;
}

void gr_line_reader_fini(gr_line_reader *r)
{
    gr_free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Makes room for `need` bytes (at most max_line) in buf, growing it by
 * doubling; false when memory runs out. */
static bool reserve(gr_line_reader *r, size_t need)
{
    if (need <= r->cap)
        return true;
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < need && cap <= SIZE_MAX / 2)
        cap *= 2;
    if (cap < need || cap > r->max_line)
        cap = r->max_line; /* need <= max_line: the caller checked */
    char *p = gr_realloc(r->buf, cap);
    if (!p)
        return false;
    r->buf = p;
    r->cap = cap;
    return true;
}

void gr_line_reader_feed(gr_line_reader *r, const char *data, size_t len)
{
    r->in = data;
    r->in_len = len;
}

static void consume(gr_line_reader *r, size_t n)
{
    r->in += n;
    r->in_len -= n;
}

static gr_line_kind line_ok(const char *p, size_t n, const char **line, size_t *len)
{
    if (n && p[n - 1] == '\r')
        n--;
    *line = p;
    *len = n;
    return GR_LINE_OK;
}

gr_line_kind gr_line_reader_next(gr_line_reader *r, const char **line, size_t *len)
{
    while (r->in_len) {
        const char *nl = memchr(r->in, '\n', r->in_len);
        size_t take = nl ? (size_t)(nl - r->in) : r->in_len;
        size_t eat = nl ? take + 1 : take;
        if (r->skipping) {
            consume(r, eat);
            r->skipping = !nl;
            continue;
        }
        bool whole = nl && r->len == 0; /* all in this chunk: returned uncopied */
        if (take > r->max_line - r->len || (!whole && !reserve(r, r->len + take))) {
            consume(r, eat);
            r->len = 0;
            r->skipping = !nl;
            return GR_LINE_TOO_LONG;
        }
        if (whole) {
            const char *p = r->in;
            consume(r, eat);
            return line_ok(p, take, line, len);
        }
        memcpy(r->buf + r->len, r->in, take);
        r->len += take;
        consume(r, eat);
        if (nl) {
            size_t n = r->len;
            r->len = 0;
            return line_ok(r->buf, n, line, len);
        }
    }
    return GR_LINE_NONE;
}

gr_line_kind gr_line_reader_finish(gr_line_reader *r, const char **line, size_t *len)
{
    size_t n = r->len;
    bool have = !r->skipping && n > 0;
    r->len = 0;
    r->skipping = false;
    r->in_len = 0;
    return have ? line_ok(r->buf, n, line, len) : GR_LINE_NONE;
}
