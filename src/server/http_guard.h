/* SPDX-License-Identifier: MIT */
/* The front door's guards, which libmicrohttpd does not give: the
 * admission of each connection (--conn-limit, --per-ip-limit: a 503 with
 * Retry-After instead of silence when the table is full, once no
 * keep-alive connection idles to make room), the head of every request
 * judged in its first callback (a URL that decodes to a control byte, a URL
 * or head over its limit, a transfer coding other than chunked), and
 * lingering: the body after an early error is read and dropped, within a
 * byte and a time bound, so that a client that writes its whole body
 * before reading sees the answer.
 *
 * A connection's first head is the acceptor's (acceptor.h,
 * request_head.h): it is peeked and judged before libmicrohttpd reads a
 * byte, so whatever libmicrohttpd 0.9.75 would answer itself to it is
 * answered in JSON. Later heads on a keep-alive connection are
 * libmicrohttpd's to parse: what it refuses there it answers itself, in
 * HTML with Connection: close (a head over its connection memory: 414 in
 * the request line, 431 in the headers; a request line it cannot parse:
 * 400; an HTTP version other than 1.0 and 1.1: 505; a Content-Length that
 * is not digits: 400, or past 2^64: 413), as does a bad chunk in body bytes
 * that arrive after the first head's (400). Each closes the connection and
 * none reaches the routes (README.md, "The front door").
 *
 * Deadlines are two, one per phase: the first head's (--header-timeout,
 * the acceptor's) and libmicrohttpd's own idle timeout (--conn-timeout,
 * MHD_OPTION_CONNECTION_TIMEOUT) for everything after it. */
#ifndef GRUNDY_SERVER_HTTP_GUARD_H
#define GRUNDY_SERVER_HTTP_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "server/request.h"

/* Sizes the hand-over table by the descriptor limit. 0 or -1. */
int gr_guard_start(server_state *st);
void gr_guard_stop(void);

/* libmicrohttpd's connection limit and per-connection memory for cfg: a
 * few slots above --conn-limit, whose connections are answered 503, and
 * room for a head of --max-url plus --max-header bytes, so that our own
 * 414 and 431 come before libmicrohttpd's. */
unsigned gr_guard_mhd_conn_limit(const gr_server_config *c);
size_t gr_guard_mhd_memory(const gr_server_config *c);

/* A connection opened (NOTIFY_STARTED; rq is its socket context): it
 * takes over the counts the acceptor handed over with its descriptor.
 * gr_guard_close undoes gr_guard_open (NOTIFY_CLOSED, before the socket is
 * closed, so that a connection shut down to make room is always the one
 * chosen). */
void gr_guard_open(request *rq, struct MHD_Connection *conn);
void gr_guard_close(request *rq);

/* The acceptor's side (acceptor.h), before libmicrohttpd has the
 * connection. gr_guard_admit counts a new connection from sa against
 * --conn-limit and --per-ip-limit (closing an idle keep-alive connection to
 * make room), or refuses it with msg (answer 503, count nothing);
 * gr_guard_forget uncounts one closed before libmicrohttpd had it.
 * gr_guard_hand_over passes the counts of fd on to its NOTIFY_STARTED
 * (false: fd is past the table; the connection is refused);
 * gr_guard_take_back undoes it when MHD_add_connection fails;
 * gr_guard_handing counts those handed over and not yet opened. */
struct sockaddr;
struct ip_slot;
bool gr_guard_admit(const struct sockaddr *sa, struct ip_slot **ip, char *msg, size_t size);
void gr_guard_forget(struct ip_slot *ip);
bool gr_guard_hand_over(int fd, struct ip_slot *ip);
void gr_guard_take_back(int fd);
unsigned gr_guard_handing(void);

/* A JSON error with Connection: close written on the socket fd, for a
 * connection libmicrohttpd does not answer; message is JSON string content. */
void gr_guard_send_error(int fd, gr_error_code code, const char *message);

/* The head arrived (the first callback of a request): false when the
 * connection was shut down to make room, so that the caller drops it. */
bool gr_guard_head_arrived(request *rq);

/* A request ended: the connection idles from now on, and may make room
 * for a new one until its next head arrives. */
void gr_guard_request_ended(request *rq);

/* libmicrohttpd's MHD_OPTION_URI_LOG_CALLBACK and MHD_OPTION_UNESCAPE_CALLBACK:
 * they record the raw request target's length and whether any decoded part
 * of the URL holds a control byte. */
void *gr_guard_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn);
size_t gr_guard_unescape(void *cls, struct MHD_Connection *conn, char *s);

/* Judges the head of rq (its first callback): the error to answer at once
 * with message, or GR_NERROR_CODES when the head is fine. */
gr_error_code gr_guard_check_head(request *rq, char *message, size_t size);

/* Whether n more bytes of a body that is being dropped (after an early
 * error, or past the body limit) are still read; false once the bytes or
 * the time of lingering are spent, when the connection is closed. */
bool gr_guard_linger(request *rq, size_t n);

/* Whether a declared body over its limit is read to its end (and dropped)
 * to answer after it, rather than at once: when it is within --linger-bytes. */
bool gr_guard_linger_declared(const request *rq, uint64_t declared);

#endif
