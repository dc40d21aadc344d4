/* SPDX-License-Identifier: MIT */
/* The daemon's own listening socket and its acceptor thread, in front of
 * libmicrohttpd (started with MHD_USE_NO_LISTEN_SOCKET).
 *
 * The thread accepts connections and runs the relay (relay.h), which
 * admits each against --conn-limit and --per-ip-limit (http_guard.h: a 503
 * with Retry-After otherwise), judges every request head and chunk before
 * libmicrohttpd reads it, and answers in JSON, once, what libmicrohttpd
 * would answer itself. On a drain it refuses new handshakes, then closes
 * the listener. */
#ifndef GRUNDY_SERVER_ACCEPTOR_H
#define GRUNDY_SERVER_ACCEPTOR_H

#include <microhttpd.h>

#include "server/request.h"

typedef struct gr_acceptor gr_acceptor;

/* A non-blocking socket listening on --host and --port, its port in
 * *port; -1 (logged) when it cannot be had. */
int gr_listen_socket(const gr_server_config *c, unsigned *port);

/* Starts the thread that accepts on listener (which it then owns) and
 * hands connections to d; NULL when it cannot start (listener closed). */
gr_acceptor *gr_acceptor_start(server_state *st, struct MHD_Daemon *d, int listener);

/* The drain's step 3 (drain.h): new handshakes are refused (a socket
 * filter), the connections already completed or under way are still
 * accepted for GR_DRAIN_SETTLE_MS, then the listener is closed. Returns
 * how many were accepted in that time. */
unsigned long gr_acceptor_close_listener(gr_acceptor *a);

/* Connections with a request on its way through the relay (relay.h,
 * gr_relay_busy), or handed to libmicrohttpd and not yet opened. */
long gr_acceptor_pending(gr_acceptor *a);

/* Stops the thread and closes every connection. After the drain (none
 * has a request on its way then, or its time is up); before
 * MHD_stop_daemon. */
void gr_acceptor_stop(gr_acceptor *a);

#endif
