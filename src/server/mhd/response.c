/* SPDX-License-Identifier: MIT */
#include "response.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "json_ints.h"

/* The Access-Control-Allow-Origin value for this request's Origin, or NULL. */
static const char *allowed_origin(const server_state *st, struct MHD_Connection *conn)
{
    const char *list = st->cfg->cors_origins;
    const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    if (!list || !*list || !origin)
        return NULL;
    if (strcmp(list, "*") == 0)
        return "*";
    size_t n = strlen(origin);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len && p[0] == ' ') {
            p++;
            len--;
        }
        while (len && p[len - 1] == ' ')
            len--;
        if (len == n && strncmp(p, origin, n) == 0)
            return origin;
        p = end ? end + 1 : p + strlen(p);
    }
    return NULL;
}

/* Vary names what chose this response besides the URL: the Origin,
 * whenever CORS is on (even with "*", an answer to a request without an
 * Origin carries no Access-Control-Allow-Origin, and a cache must not hand
 * it to a browser's page); and what the route's GR_ROUTES entry names. */
static void add_vary(struct MHD_Response *resp, const request *rq)
{
    const char *list = rq->st->cfg->cors_origins;
    bool origin = list && *list;
    bool encoding = route_varies(rq->route) & VARIES_ENCODING;
    bool accept = route_varies(rq->route) & VARIES_ACCEPT;
    char vary[48] = "";
    if (origin)
        strcat(vary, ", Origin");
    if (encoding)
        strcat(vary, ", Accept-Encoding");
    if (accept)
        strcat(vary, ", Accept");
    if (vary[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, vary + 2);
}

static void add_common_headers(struct MHD_Response *resp, request *rq, const char *allow)
{
    const char *origin = allowed_origin(rq->st, rq->conn);
    if (origin) {
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
        MHD_add_response_header(resp, "Access-Control-Expose-Headers", "X-Request-Id, ETag");
    }
    add_vary(resp, rq);
    if (rq->request_id[0])
        MHD_add_response_header(resp, "X-Request-Id", rq->request_id);
    if (allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    if (atomic_load(&rq->st->draining))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
}

enum MHD_Result response_queue(request *rq, int status, struct MHD_Response *resp, const char *type,
                            const char *allow)
{
    if (!resp)
        return MHD_NO;
    if (type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    add_common_headers(resp, rq, allow);
    rq->status = status;
    rq->answered = true;
    enum MHD_Result ok = MHD_queue_response(rq->conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* A copy of the len bytes of text with every integer a decimal string; its
 * length in *len. NULL when memory runs out. */
static char *quote_ints(const char *text, size_t *len)
{
    size_t n = gr_json_ints_quoted_len(text, *len);
    char *quoted = malloc(n ? n : 1);
    if (quoted)
        gr_json_ints_quote(text, *len, quoted);
    *len = n;
    return quoted;
}

bool response_put_ints(request *rq, gr_reply *r)
{
    if (rq->int_form != GR_INTS_STRING || rq->ints_quoted || !r->body)
        return true;
    size_t len = r->len;
    char *quoted = quote_ints(r->body, &len);
    if (!quoted)
        return false;
    free(r->body);
    r->body = quoted;
    r->len = len;
    rq->ints_quoted = true;
    return true;
}

/* Every JSON answer goes out here. With integers=string it sends a copy in
 * which every integer is a decimal string (json_ints.h); otherwise the text
 * as it is, at no cost. mode says who owns text: MUST_FREE passes it to the
 * response (freed here if that fails), PERSISTENT leaves it to the caller. A
 * gzipped text was put in the asked form before it was compressed
 * (response_put_ints), which rq->ints_quoted records. */
/* The status of a reply whose body could not be made (out of memory),
 * with its error code recorded in rq. */
static int unmade_reply(request *rq)
{
    rq->error = gr_error_name(GR_E_OVERLOADED);
    return MHD_HTTP_SERVICE_UNAVAILABLE;
}

void response_record_unsent(request *rq, const gr_reply *r)
{
    rq->error = r->error;
    rq->status = r->body ? r->status : unmade_reply(rq);
}

static enum MHD_Result send_json(request *rq, int status, char *text, size_t len,
                                 enum MHD_ResponseMemoryMode mode, const char *allow, bool gzipped)
{
    if (text && rq->int_form == GR_INTS_STRING && !rq->ints_quoted) {
        char *quoted = quote_ints(text, &len);
        if (mode == MHD_RESPMEM_MUST_FREE)
            free(text);
        text = quoted;
        mode = MHD_RESPMEM_MUST_FREE;
    }
    if (!text) {
        status = unmade_reply(rq);
        text = (char *)gr_oom_error_json;
        len = gr_oom_error_json_len;
        mode = MHD_RESPMEM_PERSISTENT;
        gzipped = false;
    }
    rq->bytes = len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, text, mode);
    if (!resp && mode == MHD_RESPMEM_MUST_FREE)
        free(text);
    else if (resp && gzipped)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    return response_queue(rq, status, resp, "application/json", allow);
}

enum MHD_Result response_send(request *rq, gr_reply *r, const char *allow)
{
    return response_send_coded(rq, r, allow, false);
}

enum MHD_Result response_send_coded(request *rq, gr_reply *r, const char *allow, bool gzipped)
{
    rq->error = r->error;
    char *body = r->body;
    r->body = NULL;
    return send_json(rq, r->status, body, r->len, MHD_RESPMEM_MUST_FREE, allow, gzipped);
}

static enum MHD_Result send_error(request *rq, gr_error_code code, const char *field, const char *allow,
                                  const char *message)
{
    gr_api_error e;
    gr_fail(&e, code, field, "%s", message);
    gr_reply r;
    gr_api_error_reply(&e, &r);
    return response_send(rq, &r, allow);
}

enum MHD_Result response_field_error(request *rq, gr_error_code code, const char *field, const char *message)
{
    return send_error(rq, code, field, NULL, message);
}

enum MHD_Result response_error(request *rq, gr_error_code code, const char *allow, const char *message)
{
    return send_error(rq, code, "", allow, message);
}

enum MHD_Result response_static(request *rq, int status, const char *text, size_t len, const char *type)
{
    if (strcmp(type, "application/json") == 0)
        return send_json(rq, status, (char *)text, len, MHD_RESPMEM_PERSISTENT, NULL, false);
    rq->bytes = len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)text, MHD_RESPMEM_PERSISTENT);
    return response_queue(rq, status, resp, type, NULL);
}

enum MHD_Result response_copy(request *rq, int status, const char *text, const char *type)
{
    gr_reply r = { status, strdup(text), strlen(text), NULL, NULL };
    if (strcmp(type, "application/json") == 0)
        return response_send(rq, &r, NULL);
    if (!r.body)
        return response_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    rq->bytes = r.len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(r.body);
    return response_queue(rq, status, resp, type, NULL);
}

enum MHD_Result response_busy(request *rq)
{
    atomic_fetch_add(&rq->st->metrics.pool_rejected, 1);
    return response_error(rq, GR_E_OVERLOADED, NULL, "the compute queue is full; retry after a second");
}

enum MHD_Result response_preflight(request *rq, const char *allow)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return MHD_NO;
    if (allowed_origin(rq->st, rq->conn)) {
        MHD_add_response_header(resp, "Access-Control-Allow-Methods", allow);
        MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                                "Content-Type, Accept, Accept-Encoding, X-Request-Id, If-None-Match");
        MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
    }
    return response_queue(rq, MHD_HTTP_NO_CONTENT, resp, NULL, allow);
}

bool response_keep(request *rq, const gr_reply *r)
{
    if (!r->body)
        return false;
    if (r->len > rq->out_cap) {
        size_t cap = r->len < 1024 ? 1024 : r->len;
        char *b = malloc(cap);
        if (!b)
            return false;
        free(rq->out);
        rq->out = b;
        rq->out_cap = cap;
    }
    memcpy(rq->out, r->body, r->len);
    return true;
}

/* The buffer outlives the response: the connection's next request, the
 * only one to reuse it, starts after this response has been sent. */
enum MHD_Result response_send_kept(request *rq, int status, size_t len)
{
    return send_json(rq, status, rq->out, len, MHD_RESPMEM_PERSISTENT, NULL, false);
}

enum MHD_Result response_entity(request *rq, const gr_entity *e, const char *type,
                             void (*extra_headers)(struct MHD_Response *))
{
    const char *inm = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    int status = MHD_HTTP_OK;
    struct MHD_Response *resp = gr_entity_response(e, &rq->codings, inm, &status, &rq->bytes);
    if (resp && extra_headers)
        extra_headers(resp);
    return response_queue(rq, status, resp, type, NULL);
}

/* ---- the head of a stream the server writes itself ----------------------- */

typedef struct head_text {
    char *out;
    size_t cap, len;
    bool full;
} head_text;

static void head_add(head_text *h, const char *key, const char *value)
{
    size_t room = h->cap - h->len;
    int n = h->full ? -1 : snprintf(h->out + h->len, room, "%s: %s\r\n", key, value);
    if (n < 0 || (size_t)n >= room)
        h->full = true;
    else
        h->len += (size_t)n;
}

static enum MHD_Result head_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONNECTION) != 0) /* the head says close already */
        head_add(cls, key, value);
    return MHD_YES;
}

size_t response_stream_head(request *rq, int status, bool gzip, char *out, size_t cap)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!resp || cap < 48)
        return 0;
    bool busy = status == MHD_HTTP_SERVICE_UNAVAILABLE;
    head_text h = { out, cap, 0, false };
    char date[64];
    struct tm tm;
    time_t now = time(NULL);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", gmtime_r(&now, &tm));
    h.len = (size_t)snprintf(out, cap, "HTTP/1.1 %d %s\r\n", status, busy ? "Service Unavailable" : "OK");
    head_add(&h, MHD_HTTP_HEADER_DATE, date);
    head_add(&h, MHD_HTTP_HEADER_CONNECTION, "close");
    head_add(&h, MHD_HTTP_HEADER_TRANSFER_ENCODING, "chunked");
    head_add(&h, MHD_HTTP_HEADER_CONTENT_TYPE, busy ? "application/json" : "application/x-ndjson");
    if (busy)
        head_add(&h, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    else if (gzip)
        head_add(&h, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    add_common_headers(resp, rq, NULL);
    MHD_get_response_headers(resp, head_header, &h);
    MHD_destroy_response(resp);
    if (h.full || cap - h.len < 3)
        return 0;
    memcpy(out + h.len, "\r\n", 3);
    return h.len + 2;
}
