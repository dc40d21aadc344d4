/* SPDX-License-Identifier: MIT */
#include "cli/local.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "registry.h"
#include "catalog.h"
#include "contract.h"
#include "scratch.h"
#include "moves.h"
#include "cli/render.h"
#include "tables/locate.h"
#include "tables/tables.h"

#define CLI_CACHE_BYTES (UINT64_C(64) << 20) /* as the daemon's default */
#define CLI_CHUNK ((size_t)1 << 16)          /* bytes read from the input at a time */

/* Opens `path`, or the default table file when path is NULL and one exists. */
static int open_tables(const char *path, gr_tables **t)
{
    char paths[4][4096], searched[256], why[512];
    *t = NULL;
    if (!path)
        path = gr_tables_locate(paths, 4, searched, sizeof searched);
    if (!path)
        return 0;
    if (gr_tables_open(path, t, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "grundy: table file %s: %s\n", path, why);
    return -1;
}

/* Reads the variable name (`unit`, from 0 to max, as grundyd takes it)
 * into *v; false, with a message, when it is set but not such a number. */
static bool u64_from_env(const char *name, const char *unit, uint64_t max, uint64_t *v)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return true;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || errno || x > max) {
        fprintf(stderr, "grundy: %s=%s: want %s from 0 to %llu\n", name, text, unit, (unsigned long long)max);
        return false;
    }
    *v = x;
    return true;
}

static bool cpu_ms_from_env(const char *name, uint64_t *ms)
{
    return u64_from_env(name, "milliseconds", UINT64_C(86400000), ms);
}

/* Local answers keep a default daemon's limits, with the daemon's two
 * CPU-time variables applied as grundyd applies them (a batch gets four
 * times a query's unless its own is set), so that a slower machine (or a
 * sanitizer build) can give queries the time a default daemon there gets;
 * and GRUNDYD_QUERY_MEMORY, the bytes one query may hold. */
static bool apply_env_limits(gr_limits *l)
{
    uint64_t query = l->query_cpu_ms, batch = 0;
    bool batch_set = getenv("GRUNDYD_BATCH_CPU_MS") && *getenv("GRUNDYD_BATCH_CPU_MS");
    if (!cpu_ms_from_env("GRUNDYD_QUERY_CPU_MS", &query) || !cpu_ms_from_env("GRUNDYD_BATCH_CPU_MS", &batch) ||
        !u64_from_env("GRUNDYD_QUERY_MEMORY", "bytes", UINT64_C(1) << 48, &l->query_memory))
        return false;
    if (batch_set)
        l->batch_cpu_ms = batch;
    else if (l->query_cpu_ms)
        l->batch_cpu_ms = l->batch_cpu_ms / l->query_cpu_ms * query;
    l->query_cpu_ms = query;
    return true;
}

int gr_local_open(gr_local *l, const char *tables_path)
{
    if (open_tables(tables_path, &l->tables))
        return -1;
    if (gr_service_init(&l->svc, l->tables, CLI_CACHE_BYTES) == 0) {
        if (apply_env_limits(&l->svc.limits))
            return 0;
        gr_local_close(l);
        return -1;
    }
    gr_tables_close(l->tables);
    fprintf(stderr, "grundy: out of memory\n");
    return -1;
}

void gr_local_close(gr_local *l)
{
    gr_service_fini(&l->svc);
    gr_tables_close(l->tables);
}

/* ---- reading the input ---------------------------------------------------- */

/* Up to cap bytes of `in`: 0 at its end, -1 on a read error. Answers
 * written so far are flushed first. Reads the descriptor directly (a pipe
 * yields what is there), and through stdio for streams without one. */
static ssize_t read_chunk(FILE *in, char *buf, size_t cap, FILE *out)
{
    fflush(out);
    int fd = fileno(in);
    if (fd < 0) {
        size_t n = fread(buf, 1, cap, in);
        return n ? (ssize_t)n : ferror(in) ? -1 : 0;
    }
    ssize_t n;
    do
        n = read(fd, buf, cap);
    while (n < 0 && errno == EINTR);
    return n;
}

int gr_cli_lines(FILE *in, FILE *out, size_t max_line, gr_line_fn *fn, void *ctx)
{
    gr_line_reader r;
    char *chunk = malloc(CLI_CHUNK);
    if (!chunk || gr_line_reader_init(&r, max_line) != 0) {
        free(chunk);
        fprintf(stderr, "grundy: out of memory\n");
        return 1;
    }
    int status = 0, got = 0;
    const char *line;
    size_t len;
    gr_line_kind k;
    ssize_t n = 0;
    while (got >= 0 && (n = read_chunk(in, chunk, CLI_CHUNK, out)) > 0) {
        gr_line_reader_feed(&r, chunk, (size_t)n);
        while (got >= 0 && (k = gr_line_reader_next(&r, &line, &len)) != GR_LINE_NONE)
            status |= (got = fn(ctx, k, line, len)) > 0;
    }
    if (got >= 0 && (k = gr_line_reader_finish(&r, &line, &len)) != GR_LINE_NONE)
        status |= (got = fn(ctx, k, line, len)) > 0;
    if (n < 0) {
        fprintf(stderr, "grundy: reading the input: %s\n", strerror(errno));
        status = 1;
    }
    fflush(out);
    gr_line_reader_fini(&r);
    free(chunk);
    return got < 0 ? -got : status;
}

char *gr_cli_read_all(FILE *in, size_t *len)
{
    size_t cap = CLI_CHUNK, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (n < cap) {
            if (!ferror(in)) {
                *len = n;
                return buf;
            }
            fprintf(stderr, "grundy: reading the input: %s\n", strerror(errno));
            free(buf);
            return NULL;
        }
        char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    fprintf(stderr, "grundy: out of memory reading the input\n");
    return NULL;
}

/* ---- answering ----------------------------------------------------------- */

/* Prints the reply (in words: after a blank line when `separate`) and
 * frees its body; 1 for an error reply, else 0. */
static int emit(gr_reply *r, bool human, bool separate)
{
    int failed = r->body ? gr_render_reply(r->status, r->body, r->len, human, separate, stdout, stderr)
                         : gr_render_reply(503, gr_oom_error_json, gr_oom_error_json_len, human, separate, stdout, stderr);
    gr_scratch_free(r->body);
    return failed;
}

int gr_local_query(const gr_local *l, const char *query, bool human)
{
    gr_reply r;
    gr_api_analyze(&l->svc, query, strlen(query), &r);
    return emit(&r, human, false);
}

int gr_local_moves(const gr_local *l, const char *query)
{
    gr_reply r;
    gr_api_moves(&l->svc, query, strlen(query), NULL, &r);
    return emit(&r, false, false);
}

typedef struct line_ctx {
    const gr_local *local;
    /* `query -`: blank lines skipped, each other line answered as POST
     * /v1/analyze answers it ("id" refused). `batch`: each line a batch
     * query (blank lines an error, "id" echoed). */
    bool query;
    bool human;
    unsigned long answered;
} line_ctx;

static bool blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            return false;
    return true;
}

static int answer_line(void *ctx, gr_line_kind k, const char *line, size_t len)
{
    line_ctx *c = ctx;
    if (k == GR_LINE_OK && c->query && blank(line, len))
        return 0;
    gr_reply r;
    bool scoped = gr_scratch_begin(); /* the line's scratch memory, released once printed */
    if (k == GR_LINE_TOO_LONG)
        gr_api_line_too_long(&c->local->svc, &r);
    else if (c->query)
        gr_api_analyze(&c->local->svc, line, len, &r);
    else
        gr_api_batch_line(&c->local->svc, line, len, &r);
    int failed = emit(&r, c->human, c->answered > 0); /* a blank line between answers in words */
    c->answered += !failed;
    if (scoped)
        gr_scratch_end();
    return failed;
}

/* `query -` takes lines of any length (a line is one whole query, as
 * `query 'JSON'` would take it); `batch` holds them to limits.max_line. */
int gr_local_query_lines(const gr_local *l, FILE *in, bool human)
{
    line_ctx c = { .local = l, .query = true, .human = human };
    return gr_cli_lines(in, stdout, SIZE_MAX, answer_line, &c);
}

/* `batch --json`: 0 when the batch and every query in it were answered. */
static int answer_json_batch(const gr_local *l, FILE *in)
{
    size_t len;
    char *body = gr_cli_read_all(in, &len);
    if (!body)
        return 1;
    gr_reply r;
    gr_batch_stats stats;
    gr_api_batch(&l->svc, body, len, &r, &stats);
    free(body);
    return emit(&r, false, false) || stats.errors;
}

int gr_local_batch(const gr_local *l, FILE *in, bool json)
{
    if (json)
        return answer_json_batch(l, in);
    line_ctx c = { .local = l };
    return gr_cli_lines(in, stdout, (size_t)l->svc.limits.max_line, answer_line, &c);
}

int gr_local_games(bool json)
{
    if (!json) {
        for (size_t i = 0; i < gr_ngames; i++)
            printf("%-14s %s\n", gr_games[i]->name, gr_games[i]->summary);
        return 0;
    }
    gr_limits limits;
    gr_limits_default(&limits);
    if (!apply_env_limits(&limits))
        return 1;
    char *text = gr_api_games_json(&limits);
    if (text)
        printf("%s\n", text);
    else
        fprintf(stderr, "grundy: out of memory\n");
    free(text);
    return text ? 0 : 1;
}
