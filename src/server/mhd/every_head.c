/* SPDX-License-Identifier: MIT */
/* Every request head, judged in its first callback (every_head.h). */
#include "every_head.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "first_head.h"

size_t gr_every_head_mhd_memory(const gr_server_config *c)
{
    return (size_t)c->max_url + c->max_header + 32768;
}

static request *request_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* The request line has arrived: the connection is busy from here on, so
 * that it is never closed to make room while its head comes. */
void *gr_every_head_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
    (void)cls;
    request *rq = request_of(conn);
    if (rq) {
        rq->head_marks.target_len = strlen(uri);
        gr_admission_busy(rq->admitted);
    }
    return NULL; /* no per-request context of libmicrohttpd's: dispatch.c makes its own */
}

/* libmicrohttpd calls this for the path, and for each name and value of
 * the query: a %00 would end the C string there, so that /healthz%00x
 * matched /healthz. */
size_t gr_every_head_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls;
    size_t n = MHD_http_unescape(s);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f) {
            request *rq = request_of(conn);
            if (rq)
                rq->head_marks.control_byte = true;
            break;
        }
    }
    return n;
}

/* ---- the head --------------------------------------------------------------- */

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    (void)value;
    unsigned *n = cls;
    if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0)
        n[0]++;
    else if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
        n[1]++;
    return MHD_YES;
}

/* The body's framing: Transfer-Encoding chunked alone, or one
 * Content-Length. Any other coding cannot be read (libmicrohttpd would wait
 * for the body's end until the timeout), and a length beside a coding, or
 * two lengths, make the body's end ambiguous (RFC 9112 6.3: request
 * smuggling behind a proxy that reads the other one). Each of these is
 * answered at once and the connection closed (*in_doubt). */
static gr_error_code check_framing(request *rq, bool *in_doubt, char *message, size_t size)
{
    unsigned n[2] = { 0, 0 };
    MHD_get_connection_values(rq->conn, MHD_HEADER_KIND, count_header, n);
    const char *te = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    *in_doubt = true;
    if (n[0] && (n[0] > 1 || !te || strcasecmp(te, "chunked") != 0)) {
        char shown[48];
        gr_printable(te ? te : "", shown, sizeof shown);
        snprintf(message, size, "Transfer-Encoding \"%s\" is not supported: send the body as it is, with a "
                 "Content-Length, or with Transfer-Encoding: chunked alone", n[0] > 1 ? "(several)" : shown);
        return GR_E_UNSUPPORTED_TRANSFER_CODING;
    }
    if (n[0] && n[1]) {
        snprintf(message, size, GR_HEAD_MSG_BOTH_FRAMINGS);
        return GR_E_BAD_REQUEST;
    }
    if (n[1] > 1) {
        snprintf(message, size, GR_HEAD_MSG_TWO_LENGTHS);
        return GR_E_BAD_REQUEST;
    }
    *in_doubt = false;
    return GR_NERROR_CODES;
}

gr_error_code gr_every_head_check(request *rq, bool *in_doubt, char *message, size_t size)
{
    gr_error_code framing = check_framing(rq, in_doubt, message, size);
    if (*in_doubt)
        return framing;
    const gr_server_config *c = rq->st->cfg;
    const gr_head_marks *m = &rq->head_marks;
    if (m->control_byte) {
        snprintf(message, size, "the URL holds a control character (such as %%00) once decoded; send the "
                 "path and query without them");
        return GR_E_BAD_REQUEST;
    }
    if (m->target_len > c->max_url) {
        snprintf(message, size, GR_HEAD_MSG_URL_TOO_LONG, m->target_len, (size_t)c->max_url);
        return GR_E_URL_TOO_LONG;
    }
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (ci && ci->header_size > c->max_header) {
        snprintf(message, size, GR_HEAD_MSG_HEAD_TOO_LARGE, ci->header_size, (size_t)c->max_header);
        return GR_E_HEADERS_TOO_LARGE;
    }
    return GR_NERROR_CODES;
}
