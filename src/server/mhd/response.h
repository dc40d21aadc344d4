/* SPDX-License-Identifier: MIT */
/* Sending a request's reply: every response gets its X-Request-Id, the CORS
 * headers its Origin allows, Vary, Retry-After on 503 and Connection: close
 * while the server drains, and records its status in rq->status (for
 * metrics and the access log). Every JSON answer is written with the
 * integers the request asked for (rq->int_form): as numbers, or each as a
 * decimal string. */
#ifndef GRUNDY_SERVER_REPLY_H
#define GRUNDY_SERVER_REPLY_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#include "analyze.h"
#include "errors.h"
#include "request.h"

/* Queues resp (which it destroys) with Content-Type type (NULL: none) and
 * Allow allow (NULL: none); MHD_NO when resp is NULL (out of memory). */
enum MHD_Result response_queue(request *rq, int status, struct MHD_Response *resp, const char *type,
                            const char *allow);

/* Sends r's JSON, taking its body; a NULL body (out of memory) is sent as
 * a fixed 503 overloaded error. Records r's error code in rq->error. */
enum MHD_Result response_send(request *rq, gr_reply *r, const char *allow);

/* Records in rq, without sending anything, the status and error code
 * response_send would send r with: for a reply libmicrohttpd never asked for
 * (its client went first). */
void response_record_unsent(request *rq, const gr_reply *r);

/* response_send for a body that is gzip when gzipped (Content-Encoding). */
enum MHD_Result response_send_coded(request *rq, gr_reply *r, const char *allow, bool gzipped);

/* Rewrites r's body in the integer form the request asked for, before
 * anything (gzip) makes it opaque; false when memory runs out. */
bool response_put_ints(request *rq, gr_reply *r);

/* Sends the error code with message as its JSON error body. */
enum MHD_Result response_error(request *rq, gr_error_code code, const char *allow, const char *message);

/* The same with `field` as the error's field (a query parameter's name). */
enum MHD_Result response_field_error(request *rq, gr_error_code code, const char *field, const char *message);

/* Sends text, which must outlive the response (a constant or the server's). */
enum MHD_Result response_static(request *rq, int status, const char *text, size_t len, const char *type);

/* Sends a copy of text: for text that may go before the response is sent. */
enum MHD_Result response_copy(request *rq, int status, const char *text, const char *type);

/* 503: the compute pool's queue is full (counted in the metrics). */
enum MHD_Result response_busy(request *rq);

/* 204 to a CORS preflight; allow lists the path's methods, sent as Allow
 * and, when the Origin is allowed, as Access-Control-Allow-Methods. */
enum MHD_Result response_preflight(request *rq, const char *allow);

/* Sends the fixed body e as type, in the coding Accept-Encoding prefers,
 * or 304 when If-None-Match names it (gr_entity_response);
 * extra_headers (NULL: none) adds the route's own headers. */
enum MHD_Result response_entity(request *rq, const gr_entity *e, const char *type,
                             void (*extra_headers)(struct MHD_Response *));

/* Copies r's body into the connection's own buffer (rq->out), so that the
 * inline answer's arena can be freed at once; false when memory runs out. */
bool response_keep(request *rq, const gr_reply *r);

/* Sends the len bytes response_keep stored, as JSON. */
enum MHD_Result response_send_kept(request *rq, int status, size_t len);

/* The status line and headers of a response that the server sends on the
 * socket itself (a duplex stream, ndjson/stream.h): chunked,
 * Connection: close and the headers response_queue adds to every response;
 * for status 200 an NDJSON stream, with Content-Encoding: gzip when gzip is
 * set, for 503 a JSON error with Retry-After. Its length in out (NUL-
 * terminated), 0 when it does not fit in cap bytes or memory runs out. The
 * caller records the status when it is sent. */
size_t response_stream_head(request *rq, int status, bool gzip, char *out, size_t cap);

#endif
