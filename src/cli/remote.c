/* SPDX-License-Identifier: MIT */
#include "cli/remote.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "cli/local.h"
#include "cli/render.h"

#define COLLECT_MAX ((size_t)256 << 20) /* bytes of an answer held whole */
#define SCAN_DEPTH 64                   /* the service nests JSON no deeper */

int gr_remote_init(gr_remote *r, const char *url, const char *timeout_text)
{
    char why[512];
    if (gr_http_url_parse(url, &r->url, why, sizeof why) != 0) {
        fprintf(stderr, "grundy: %s\n", why);
        return 2;
    }
    r->text = url;
    r->timeout_ms = 60 * 1000;
    if (timeout_text) {
        char *end;
        errno = 0;
        unsigned long s = strtoul(timeout_text, &end, 10);
        if (errno || end == timeout_text || *end || timeout_text[0] == '-' || s < 1 || s > 86400) {
            fprintf(stderr, "grundy: --timeout \"%s\" must be a whole number of seconds from 1 to 86400\n",
                    timeout_text);
            return 2;
        }
        r->timeout_ms = (int)s * 1000;
    }
    return 0;
}

/* ---- counting error answers in a stream ---------------------------------- */

/* Counts the objects at depth `target` that have an "error" member, from
 * JSON fed in pieces: the NDJSON answer lines (depth 1) or the results of a
 * JSON batch (depth 3). */
typedef struct error_scan {
    int target, depth;
    uint64_t objects; /* bit d: the container at depth d + 1 is an object */
    bool in_string, escape, is_key, expect_key;
    char key[6];
    size_t key_len;
    unsigned long errors;
} error_scan;

static void scan_string_byte(error_scan *s, char c)
{
    if (s->escape) {
        s->escape = false;
        s->key_len = sizeof s->key; /* an escaped key is not "error" */
    } else if (c == '\\') {
        s->escape = true;
    } else if (c == '"') {
        s->in_string = false;
        if (s->is_key && s->depth == s->target && s->key_len == 5 && memcmp(s->key, "error", 5) == 0)
            s->errors++;
        s->is_key = false;
    } else if (s->is_key && s->key_len < sizeof s->key) {
        s->key[s->key_len++] = c;
    }
}

static void scan_feed(error_scan *s, const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = data[i];
        if (s->in_string) {
            scan_string_byte(s, c);
            continue;
        }
        bool object = s->depth > 0 && s->depth <= SCAN_DEPTH && (s->objects >> (s->depth - 1)) & 1;
        if (c == '"') {
            s->in_string = true;
            s->is_key = s->expect_key;
            s->key_len = 0;
            s->expect_key = false;
        } else if (c == '{' || c == '[') {
            s->depth++;
            if (s->depth <= SCAN_DEPTH)
                s->objects = c == '{' ? s->objects | UINT64_C(1) << (s->depth - 1)
                                      : s->objects & ~(UINT64_C(1) << (s->depth - 1));
            s->expect_key = c == '{';
        } else if (c == '}' || c == ']') {
            s->depth -= s->depth > 0;
        } else if (c == ',') {
            s->expect_key = object;
        }
    }
}

/* ---- bodies -------------------------------------------------------------- */

typedef struct collect {
    char *data;
    size_t len, cap;
    bool too_big;
} collect;

static int collect_sink(void *ctx, const char *data, size_t len)
{
    collect *c = ctx;
    if (c->len + len + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (cap < c->len + len + 1 && cap <= COLLECT_MAX)
            cap *= 2;
        char *bigger = cap <= COLLECT_MAX ? realloc(c->data, cap) : NULL;
        if (!bigger) {
            c->too_big = true;
            return -1;
        }
        c->data = bigger;
        c->cap = cap;
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    c->data[c->len] = '\0';
    return 0;
}

static void say(const gr_remote *r, const char *what)
{
    fprintf(stderr, "grundy: %s: %s\n", r->text, what);
}

/* A non-2xx answer: the service's JSON error passed through (exit 1), or a
 * line about a status that is not the service's (exit 3). */
static int refused(const gr_remote *r, const gr_http_response *resp, const collect *body, bool human)
{
    const char *b = body->data ? body->data : "";
    bool json_error = strncmp(resp->content_type, "application/json", 16) == 0 && strstr(b, "\"error\"");
    if (json_error)
        return gr_render_reply(resp->status, b, body->len, human, false, stdout, stderr);
    char what[512];
    snprintf(what, sizeof what, "HTTP %d without a JSON error body (is this grundyd?): %.200s",
             resp->status, b);
    for (char *p = what; *p; p++)
        *p = *p == '\n' || *p == '\r' ? ' ' : *p;
    say(r, what);
    return GR_EXIT_UNREACHABLE;
}

/* One request whose answer is held whole, then printed as the local
 * command prints it. */
static int exchange_whole(const gr_remote *r, const char *path, const char *content_type,
                          const gr_http_body *body, bool human, bool separate)
{
    collect c = { 0 };
    gr_http_response resp;
    char why[512];
    gr_http_result res = gr_http_exchange(&r->url, "POST", path, content_type, body, r->timeout_ms, &resp,
                                          collect_sink, &c, why, sizeof why);
    int rc;
    if (res != GR_HTTP_OK) {
        say(r, c.too_big ? "the answer is larger than 256 MiB" : why);
        rc = GR_EXIT_UNREACHABLE;
    } else if (resp.status < 200 || resp.status > 299) {
        rc = refused(r, &resp, &c, human);
    } else {
        rc = gr_render_reply(200, c.data ? c.data : "", c.len, human, separate, stdout, stderr);
        if (rc == 0 && strcmp(path, "/v1/batch") == 0) {
            error_scan s = { .target = 3 };
            scan_feed(&s, c.data ? c.data : "", c.len);
            rc = s.errors > 0;
        }
    }
    free(c.data);
    return rc;
}

int gr_remote_query(const gr_remote *r, const char *query, size_t len, bool human, bool separate)
{
    gr_http_body body = { .data = query, .len = len };
    return exchange_whole(r, "/v1/analyze", "application/json", &body, human, separate);
}

/* "NAME  summary" per game of the catalogue; -1 when it has no games list. */
static int print_game_lines(const char *body, size_t len)
{
    gr_json_doc doc;
    gr_api_error e;
    if (gr_json_parse(body, len, &doc, &e) != 0)
        return -1;
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(doc.root, "games");
    int rc = cJSON_IsArray(games) ? 0 : -1;
    for (const cJSON *g = cJSON_IsArray(games) ? games->child : NULL; g; g = g->next) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(g, "name");
        const cJSON *summary = cJSON_GetObjectItemCaseSensitive(g, "summary");
        if (cJSON_IsString(name))
            printf("%-14s %s\n", name->valuestring, cJSON_IsString(summary) ? summary->valuestring : "");
    }
    gr_json_free(&doc);
    return rc;
}

int gr_remote_games(const gr_remote *r, bool json)
{
    collect c = { 0 };
    gr_http_response resp;
    char why[512];
    gr_http_result res = gr_http_exchange(&r->url, "GET", "/v1/games", NULL, NULL, r->timeout_ms, &resp,
                                          collect_sink, &c, why, sizeof why);
    int rc = GR_EXIT_UNREACHABLE;
    if (res != GR_HTTP_OK)
        say(r, c.too_big ? "the answer is larger than 256 MiB" : why);
    else if (resp.status != 200)
        rc = refused(r, &resp, &c, false);
    else if (json)
        rc = gr_render_reply(200, c.data ? c.data : "", c.len, false, false, stdout, stderr);
    else if ((rc = print_game_lines(c.data ? c.data : "", c.len)) != 0) {
        say(r, "the answer to GET /v1/games holds no list of games (is this grundyd?)");
        rc = GR_EXIT_UNREACHABLE;
    }
    free(c.data);
    return rc;
}

typedef struct remote_lines {
    const gr_remote *remote;
    bool human;
    unsigned long answered;
} remote_lines;

static int ask_line(void *ctx, gr_line_kind kind, const char *line, size_t len)
{
    remote_lines *c = ctx;
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
        i++;
    if (kind == GR_LINE_OK && i == len)
        return 0; /* blank lines are skipped, as in-process */
    if (kind != GR_LINE_OK) {
        fprintf(stderr, "grundy: a line too long to hold in memory\n");
        return 1;
    }
    int rc = gr_remote_query(c->remote, line, len, c->human, c->answered > 0);
    c->answered += rc == 0;
    fflush(stdout);
    return rc == GR_EXIT_UNREACHABLE ? -GR_EXIT_UNREACHABLE : rc;
}

int gr_remote_query_lines(const gr_remote *r, FILE *in, bool human)
{
    remote_lines c = { .remote = r, .human = human };
    return gr_cli_lines(in, stdout, SIZE_MAX, ask_line, &c);
}

int gr_remote_moves(const gr_remote *r, const char *query)
{
    gr_http_body body = { .data = query, .len = strlen(query) };
    return exchange_whole(r, "/v1/moves", "application/json", &body, false, false);
}

int gr_remote_batch_json(const gr_remote *r, const char *data, size_t len)
{
    gr_http_body body = { .data = data, .len = len };
    return exchange_whole(r, "/v1/batch", "application/json", &body, false, false);
}

/* ---- the NDJSON stream --------------------------------------------------- */

typedef struct stream_out {
    const gr_http_response *resp;
    error_scan scan;
    collect refusal; /* a non-2xx answer, held to pass it through */
    bool write_failed;
} stream_out;

/* 2xx: each piece goes out at once; else the body is held. */
static int stream_sink(void *ctx, const char *data, size_t len)
{
    stream_out *s = ctx;
    if (s->resp->status < 200 || s->resp->status > 299)
        return collect_sink(&s->refusal, data, len);
    scan_feed(&s->scan, data, len);
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
        s->write_failed = true;
        return -1;
    }
    return 0;
}

static ssize_t read_input(void *ctx, char *buf, size_t cap)
{
    int fd = *(const int *)ctx;
    ssize_t n;
    do
        n = read(fd, buf, cap);
    while (n < 0 && errno == EINTR);
    return n;
}

int gr_remote_batch_ndjson(const gr_remote *r, FILE *in)
{
    int fd = fileno(in);
    gr_http_response resp;
    stream_out s = { .resp = &resp, .scan = { .target = 1 } };
    gr_http_body body = { .read = read_input, .ctx = &fd };
    char why[512];
    gr_http_result res = gr_http_exchange(&r->url, "POST", "/v1/batch", "application/x-ndjson", &body,
                                          r->timeout_ms, &resp, stream_sink, &s, why, sizeof why);
    int rc;
    if (s.write_failed) {
        fprintf(stderr, "grundy: writing the answers: %s\n", strerror(errno));
        rc = 1;
    } else if (res == GR_HTTP_STOPPED && !s.refusal.too_big) {
        fprintf(stderr, "grundy: %s\n", why); /* the input could not be read */
        rc = 1;
    } else if (res != GR_HTTP_OK) {
        say(r, s.refusal.too_big ? "the refusal is larger than 256 MiB" : why);
        rc = GR_EXIT_UNREACHABLE;
    } else if (resp.status < 200 || resp.status > 299) {
        rc = refused(r, &resp, &s.refusal, false);
    } else {
        rc = s.scan.errors > 0;
    }
    free(s.refusal.data);
    return rc;
}
