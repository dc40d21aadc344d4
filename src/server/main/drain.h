/* SPDX-License-Identifier: MIT */
/* The drain on SIGTERM or SIGINT, in four steps:
 *
 *   1. At once: /readyz answers 503 and every reply carries
 *      Connection: close (st->draining, set by the caller).
 *   2. For --drain-grace seconds the daemon still accepts and answers,
 *      while load balancers notice /readyz and stop sending.
 *   3. It stops accepting (gr_acceptor_close_listener): new handshakes
 *      are dropped (a socket filter on the listener), the connections the
 *      kernel completed in its backlog, and those whose handshake was under
 *      way, are still accepted and served, and the listener is closed, so
 *      that a client connecting later is refused, not reset.
 *   4. It waits up to --drain-timeout for the requests in flight (and
 *      the heads of connections accepted, within --header-timeout). Past it
 *      it cancels what still runs or waits on the compute pool (each
 *      answered 503 shutting_down within GR_DRAIN_CANCEL_MS) and ends NDJSON
 *      streams with an error line.
 *
 * Counts, for event=stopped: `answered`, requests answered from the signal
 * on; `cancelled`, those of them answered 503 shutting_down by step 4 (or
 * because their client went); `abandoned`, requests read in full that were
 * still without an answer when the daemon stopped (0 unless a cancelled
 * query overran GR_DRAIN_CANCEL_MS). */
#ifndef GRUNDY_SERVER_DRAIN_H
#define GRUNDY_SERVER_DRAIN_H

#include "request.h"

struct gr_acceptor;

#define GR_DRAIN_CANCEL_MS 2000

typedef struct gr_drain_counts {
    unsigned long answered, cancelled, backlog; /* backlog: connections taken from the listener's queue */
    unsigned cancelled_running;                 /* requests on the compute pool when step 4 cancelled */
    long abandoned;
} gr_drain_counts;

/* Steps 2 to 4; the caller then stops the pool and the daemon. */
void gr_drain(server_state *st, struct gr_acceptor *acc, gr_drain_counts *out);

#endif
