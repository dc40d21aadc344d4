/* SPDX-License-Identifier: MIT */
#include "drain.h"

#include <time.h>

#include "acceptor.h"
#include "bg_thread.h"
#include "log.h"

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* An upload that has moved no byte for this long does not hold the drain:
 * its client is gone or stalled (libmicrohttpd tells only at its timeout). */
enum { UPLOAD_STILL_MS = 200 };

/* Waits until no request is in flight, no body byte has arrived for
 * UPLOAD_STILL_MS (an upload still moving is a request to answer), and no
 * accepted connection waits for its first head at the acceptor (a head
 * still coming is one too; --header-timeout bounds it), twice in a row
 * 20 ms apart (a request whose bytes just arrived gets its chance to
 * start), or `ms` have passed. Returns the requests still in flight. */
static long wait_quiet(server_state *st, gr_acceptor *acc, long ms)
{
    long waited = 0, quiet = 0;
    while (waited < ms && quiet < 2) {
        int64_t body_ms = atomic_load(&st->drain_body_ms);
        bool uploads_stopped = !body_ms || gr_monotonic_ms() - body_ms >= UPLOAD_STILL_MS;
        bool idle = atomic_load(&st->in_flight) == 0 && uploads_stopped && gr_acceptor_pending(acc) == 0;
        quiet = idle ? quiet + 1 : 0;
        sleep_ms(20);
        waited += 20;
    }
    return atomic_load(&st->in_flight);
}

void gr_drain(server_state *st, gr_acceptor *acc, gr_drain_counts *out)
{
    const gr_server_config *c = st->cfg;
    *out = (gr_drain_counts){ 0 };
    sleep_ms((long)c->drain_grace * 1000);
    out->backlog = gr_acceptor_close_listener(acc);
    gr_log("info", "event=draining step=closed backlog_taken=%lu in_flight=%ld", out->backlog,
           atomic_load(&st->in_flight));
    long left = wait_quiet(st, acc, (long)c->drain_timeout * 1000);
    if (left) {
        out->cancelled_running = gr_watch_cancel_all(st->watch);
        gr_stream_abort_all();
        gr_log("info", "event=draining step=cancel in_flight=%ld cancelled=%u", left, out->cancelled_running);
        left = wait_quiet(st, acc, GR_DRAIN_CANCEL_MS);
    }
    out->abandoned = left;
    out->answered = atomic_load(&st->drain_answered);
    out->cancelled = atomic_load(&st->drain_cancelled);
}
