/* SPDX-License-Identifier: MIT */
/* Every request head, judged in its first callback, the first of a
 * connection (which the acceptor judged already, acceptor.h) and each
 * later one on a keep-alive connection alike: a URL that decodes to a
 * control byte (400), a URL over --max-url (414), a head over --max-header
 * (431), a transfer coding other than chunked alone (501), or both
 * Transfer-Encoding and Content-Length, or Content-Length twice (400). These are the limits and
 * codings libmicrohttpd lets through; what it refuses itself in a later
 * head it answers itself (README.md, "The front door"). */
#ifndef GRUNDY_SERVER_EVERY_HEAD_H
#define GRUNDY_SERVER_EVERY_HEAD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#include "errors.h"
#include "request.h"

/* libmicrohttpd's per-connection memory for c: room for a head of
 * --max-url plus --max-header bytes, so that our own 414 and 431 come
 * before libmicrohttpd's. */
size_t gr_every_head_mhd_memory(const gr_server_config *c);

/* libmicrohttpd's MHD_OPTION_URI_LOG_CALLBACK and MHD_OPTION_UNESCAPE_CALLBACK:
 * they record in the connection's request (rq->head_marks) the raw request
 * target's length and whether any decoded part of the URL holds a control
 * byte, before the request's first callback. */
void *gr_every_head_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn);
size_t gr_every_head_unescape(void *cls, struct MHD_Connection *conn, char *s);

/* Judges the head of rq (its first callback): the error to answer with
 * message, or GR_NERROR_CODES when the head is fine. *in_doubt says that
 * the body's framing is in doubt (a coding it cannot read, a length beside
 * a coding, two lengths): the answer then goes at once, before the body,
 * and libmicrohttpd closes the connection after it (Connection: close),
 * since no byte after this head can be trusted to start a request.
 * The other errors are answered after the body, read and dropped. */
gr_error_code gr_every_head_check(request *rq, bool *in_doubt, char *message, size_t size);

#endif
