/* SPDX-License-Identifier: MIT */
/* The daemon's own listening socket and its acceptor thread, in front of
 * libmicrohttpd (started with MHD_USE_NO_LISTEN_SOCKET).
 *
 * Each new connection is admitted against --conn-limit and --per-ip-limit
 * (admission.h: a 503 with Retry-After otherwise), then waited on until
 * its first request head has arrived, within --header-timeout (else a 408).
 * The head is read with MSG_PEEK, so its bytes stay in the socket for
 * libmicrohttpd, and judged (first_head.h): a head libmicrohttpd would
 * answer itself in HTML is answered here with the service's JSON error,
 * once, with Connection: close, then the connection lingers (the bytes the
 * client still sends are read and dropped within --linger-bytes and
 * --linger-time) and closes. A good head's connection goes to
 * libmicrohttpd (MHD_add_connection); if it refuses it (its table full),
 * the client is answered 503 here.
 *
 * Only a connection's first head passes here: the next ones of a
 * keep-alive connection are read by libmicrohttpd (README.md, "The front door", says what
 * it answers itself). */
#ifndef GRUNDY_SERVER_ACCEPTOR_H
#define GRUNDY_SERVER_ACCEPTOR_H

#include <microhttpd.h>

#include "server_config.h"

/* After the drain asks the listener to close, handshakes already under way
 * still complete and are accepted for this long. */
#define GR_ACCEPT_SETTLE_MS 100

typedef struct gr_acceptor gr_acceptor;

/* A non-blocking socket listening on --host and --port, its port in
 * *port; -1 (logged) when it cannot be had. */
int gr_listen_socket(const gr_server_config *c, unsigned *port);

/* Starts the thread that accepts on listener (which it then owns) and
 * hands connections to d; NULL when it cannot start (listener closed). */
gr_acceptor *gr_acceptor_start(const gr_server_config *cfg, struct MHD_Daemon *d, int listener);

/* The drain's step 3 (drain.h): new handshakes are refused (a socket
 * filter), the connections already completed or under way are still
 * accepted for GR_ACCEPT_SETTLE_MS, then the listener is closed. Returns
 * how many were accepted in that time. */
unsigned long gr_acceptor_close_listener(gr_acceptor *a);

/* Connections accepted whose first request has not reached libmicrohttpd
 * yet: waiting for their head, or handed over and not yet opened. */
long gr_acceptor_pending(gr_acceptor *a);

/* Stops the thread and closes every connection still waiting for its
 * head (none of them has sent a whole request). Before MHD_stop_daemon. */
void gr_acceptor_stop(gr_acceptor *a);

#endif
