#include "server/reply.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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

/* Whether the route's answers depend on Accept-Encoding (a gzip form). */
static bool route_negotiates(route_id r)
{
    return r == ROUTE_GAMES || r == ROUTE_OPENAPI || r == ROUTE_PLAYGROUND || r == ROUTE_BATCH;
}

/* Vary names what chose this response besides the URL: the Origin, when
 * only some origins are allowed, and Accept-Encoding on the routes that
 * negotiate a content coding. */
static void add_vary(struct MHD_Response *resp, const request *rq)
{
    const char *list = rq->st->cfg->cors_origins;
    bool origin = list && *list && strcmp(list, "*") != 0;
    bool encoding = route_negotiates(rq->route);
    if (origin || encoding)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY,
                                origin && encoding ? "Origin, Accept-Encoding" : origin ? "Origin" : "Accept-Encoding");
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

enum MHD_Result reply_queue(request *rq, int status, struct MHD_Response *resp, const char *type,
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

enum MHD_Result reply_send(request *rq, gr_reply *r, const char *allow)
{
    return reply_send_coded(rq, r, allow, false);
}

enum MHD_Result reply_send_coded(request *rq, gr_reply *r, const char *allow, bool gzipped)
{
    static const char fallback[] =
        "{\"error\":{\"code\":\"overloaded\",\"message\":\"out of memory; retry later\",\"field\":null}}";
    struct MHD_Response *resp;
    rq->error = r->error;
    if (r->body) {
        resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
        rq->bytes = r->len;
    } else {
        r->status = MHD_HTTP_SERVICE_UNAVAILABLE;
        rq->error = gr_error_name(GR_E_OVERLOADED);
        resp = MHD_create_response_from_buffer(sizeof fallback - 1, (void *)fallback,
                                               MHD_RESPMEM_PERSISTENT);
    }
    if (!resp)
        free(r->body);
    else if (gzipped && r->body)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    r->body = NULL;
    return reply_queue(rq, r->status, resp, "application/json", allow);
}

enum MHD_Result reply_error(request *rq, gr_error_code code, const char *allow, const char *message)
{
    gr_api_error e;
    gr_fail(&e, code, "", "%s", message);
    gr_reply r;
    gr_api_error_reply(&e, &r);
    return reply_send(rq, &r, allow);
}

enum MHD_Result reply_static(request *rq, int status, const char *text, size_t len, const char *type)
{
    rq->bytes = len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)text, MHD_RESPMEM_PERSISTENT);
    return reply_queue(rq, status, resp, type, NULL);
}

enum MHD_Result reply_copy(request *rq, int status, const char *text, const char *type)
{
    gr_reply r = { status, strdup(text), strlen(text), NULL, NULL };
    if (strcmp(type, "application/json") == 0)
        return reply_send(rq, &r, NULL);
    if (!r.body)
        return reply_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    rq->bytes = r.len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(r.body);
    return reply_queue(rq, status, resp, type, NULL);
}

enum MHD_Result reply_busy(request *rq)
{
    atomic_fetch_add(&rq->st->metrics.pool_rejected, 1);
    return reply_error(rq, GR_E_OVERLOADED, NULL, "the compute queue is full; retry after a second");
}

enum MHD_Result reply_preflight(request *rq, const char *allow)
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
    return reply_queue(rq, MHD_HTTP_NO_CONTENT, resp, NULL, allow);
}

bool reply_keep(request *rq, const gr_reply *r)
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
enum MHD_Result reply_send_kept(request *rq, int status, size_t len)
{
    rq->bytes = len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, rq->out, MHD_RESPMEM_PERSISTENT);
    return reply_queue(rq, status, resp, "application/json", NULL);
}

enum MHD_Result reply_entity(request *rq, const gr_entity *e, const char *type,
                             void (*extra_headers)(struct MHD_Response *))
{
    const char *inm = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    int status = MHD_HTTP_OK;
    struct MHD_Response *resp = gr_entity_response(e, &rq->codings, inm, &status, &rq->bytes);
    if (resp && extra_headers)
        extra_headers(resp);
    return reply_queue(rq, status, resp, type, NULL);
}
