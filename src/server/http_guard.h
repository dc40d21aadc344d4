/* SPDX-License-Identifier: MIT */
/* The front door's guards, which libmicrohttpd does not give: the
 * admission of each connection (--conn-limit, --per-ip-limit: a 503 with
 * Retry-After instead of silence when the table is full, once no
 * keep-alive connection idles to make room), a URL that decodes to a
 * control byte refused, and lingering: the body after an early error is
 * read and dropped, within a byte and a time bound, so that a client that
 * writes its whole body before reading sees the answer.
 *
 * Every request head and chunk is judged by the relay (relay.h,
 * request_head.h, http_body.h) before libmicrohttpd reads it: whatever
 * libmicrohttpd 0.9.75 would answer itself (in HTML, or with its head sent
 * twice) is answered there in JSON. What is left to the first callback
 * is what needs libmicrohttpd's decoding: a control byte in the URL. */
#ifndef GRUNDY_SERVER_HTTP_GUARD_H
#define GRUNDY_SERVER_HTTP_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "server/request.h"

/* Starts the thread that ends request heads past their deadline. 0 or -1. */
int gr_guard_start(server_state *st);
void gr_guard_stop(void);

/* libmicrohttpd's connection limit and per-connection memory for cfg: a
 * few slots above --conn-limit, whose connections are answered 503, and
 * room for a head of --max-url plus --max-header bytes, so that our own
 * 414 and 431 come before libmicrohttpd's. */
unsigned gr_guard_mhd_conn_limit(const gr_server_config *c);
size_t gr_guard_mhd_memory(const gr_server_config *c);

/* A connection opened (NOTIFY_STARTED; rq is its socket context): starts
 * its head deadline. One the relay did not admit (one added by other
 * means, or a descriptor past the hand-over table) is admitted here: past
 * --conn-limit or --per-ip-limit it is answered 503 and closed.
 * gr_guard_close undoes gr_guard_open (NOTIFY_CLOSED, before the socket is
 * closed, so the deadline thread never touches a reused descriptor). */
void gr_guard_open(request *rq, struct MHD_Connection *conn);
void gr_guard_close(request *rq);

/* The relay's side (relay.h), before libmicrohttpd has the
 * connection. gr_guard_admit counts a new connection from sa against
 * --conn-limit and --per-ip-limit (closing an idle keep-alive connection to
 * make room), or refuses it with msg (answer 503, count nothing);
 * gr_guard_forget uncounts one closed before libmicrohttpd had it.
 * gr_guard_hand_over passes the counts of fd on to its NOTIFY_STARTED
 * (false: fd is past the table, forget it, it is counted there anew);
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
 * connection libmicrohttpd does not answer; message is JSON string content.
 * gr_guard_format_error writes the same into out instead: its length, 0
 * when it does not fit in size (GR_GUARD_ERROR_MAX always does). */
#define GR_GUARD_ERROR_MAX 1152
void gr_guard_send_error(int fd, gr_error_code code, const char *message);
size_t gr_guard_format_error(gr_error_code code, const char *message, char *out, size_t size);

/* The head arrived (the first callback of a request): false when the
 * connection was already answered 503 or its deadline passed, so that the
 * caller drops it. */
bool gr_guard_head_arrived(request *rq);

/* A request ended: the next head on the connection must arrive within the
 * idle time (--conn-timeout). */
void gr_guard_request_ended(request *rq);

/* libmicrohttpd's MHD_OPTION_UNESCAPE_CALLBACK: it records whether any
 * decoded part of the URL holds a control byte. */
size_t gr_guard_unescape(void *cls, struct MHD_Connection *conn, char *s);

/* Judges the decoded URL of rq (its first callback): the error to answer
 * at once with message, or GR_NERROR_CODES when it is fine. The head's
 * grammar and limits were judged by the relay before libmicrohttpd read it. */
gr_error_code gr_guard_check_head(request *rq, char *message, size_t size);

/* Whether n more bytes of a body that is being dropped (after an early
 * error, or past the body limit) are still read; false once the bytes or
 * the time of lingering are spent, when the connection is closed. */
bool gr_guard_linger(request *rq, size_t n);

/* Whether a declared body over its limit is read to its end (and dropped)
 * to answer after it, rather than at once: when it is within --linger-bytes. */
bool gr_guard_linger_declared(const request *rq, uint64_t declared);

#endif
