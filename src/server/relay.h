/* SPDX-License-Identifier: MIT */
/* The relay: every byte between a client and libmicrohttpd passes here, so
 * that every request head and every chunk of every request on a connection
 * is judged before libmicrohttpd reads it, and whatever libmicrohttpd 0.9.75
 * would answer itself (in HTML, or with its head sent twice) is answered
 * in the service's JSON instead, framed once (request_head.h, http_body.h).
 *
 * Each client connection gets a socket pair once its first head is good;
 * libmicrohttpd has one end (MHD_add_connection, with the client's address)
 * and the relay the other. One request at a time is passed on: its head,
 * then its body as it arrives, judged chunk by chunk; a pipelined request
 * waits here until the answer to the one before has passed back. So a bad
 * head or chunk always finds no answer under way, and its JSON error is the
 * next thing the client reads; then the connection closes, lingering (the
 * client's bytes are read and dropped within --linger-bytes and
 * --linger-time) so that a client that writes before it reads sees it.
 *
 * Deadlines: a head must arrive whole within --header-timeout of its first
 * byte (of the accept, for a connection's first): else a 408. Idle
 * keep-alive connections are libmicrohttpd's to time out (--conn-timeout);
 * its close reaches the client once the answer before it has.
 *
 * One thread (the acceptor's, acceptor.h) runs the relay: its connections
 * need no lock. Sockets are edge-triggered; a connection that moved many
 * bytes in one turn waits on the ready list for its next, so that one fast
 * client cannot hold the thread. */
#ifndef GRUNDY_SERVER_RELAY_H
#define GRUNDY_SERVER_RELAY_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "api/error.h"
#include "server/request.h"

typedef struct gr_relay gr_relay;

/* A relay adding its sockets to the epoll set epfd and its connections to
 * d; NULL when out of memory. */
gr_relay *gr_relay_new(server_state *st, struct MHD_Daemon *d, int epfd);

/* Closes every connection (none can be answered any more) and frees r. */
void gr_relay_free(gr_relay *r);

/* Takes a connection accepted on fd from addr. It is admitted against
 * --conn-limit and --per-ip-limit (http_guard.h), or answered 503. */
void gr_relay_accept(gr_relay *r, int fd, const struct sockaddr_storage *addr, socklen_t len);

/* An epoll event whose data.ptr a relay socket set. */
void gr_relay_event(gr_relay *r, void *tag, uint32_t events);

/* Frees the connections closed since the last call: after each batch of
 * events, none of which may name them any more. */
void gr_relay_reap(gr_relay *r);

/* The deadlines due by now (monotonic ms). */
void gr_relay_tick(gr_relay *r, int64_t now);

/* Runs the connections waiting on the ready list; whether any still wait
 * (the caller then polls without sleeping). */
bool gr_relay_run_ready(gr_relay *r);

/* Connections with a request on its way: a first head awaited, a head
 * partly here, a request passed on and not answered, or an answer not yet
 * sent whole. The drain waits for none (drain.h). Any thread may ask. */
long gr_relay_busy(const gr_relay *r);

/* Monotonic milliseconds. */
int64_t gr_now_ms(void);

#endif
