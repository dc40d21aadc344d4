/* SPDX-License-Identifier: MIT */
/* accept4 is a Linux extension. */
#define _GNU_SOURCE
#include "server/drain.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/log.h"

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Waits until no request is in flight, twice in a row 20 ms apart (a request
 * whose bytes just arrived gets its chance to start), or `ms` have passed.
 * Returns the requests still in flight. */
static long wait_quiet(server_state *st, long ms)
{
    long waited = 0, quiet = 0;
    while (waited < ms && quiet < 2) {
        quiet = atomic_load(&st->in_flight) == 0 ? quiet + 1 : 0;
        sleep_ms(20);
        waited += 20;
    }
    return atomic_load(&st->in_flight);
}

/* Step 3: the connections the kernel completed before the listener closes
 * are libmicrohttpd's like any other, rather than reset by the close. */
static unsigned long take_backlog(struct MHD_Daemon *d, int listener)
{
    unsigned long taken = 0;
    int flags = fcntl(listener, F_GETFL);
    if (flags < 0 || fcntl(listener, F_SETFL, flags | O_NONBLOCK) != 0)
        return 0;
    for (;;) {
        struct sockaddr_storage addr;
        socklen_t len = sizeof addr;
        int fd = accept4(listener, (struct sockaddr *)&addr, &len, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            break; /* EAGAIN: the queue is empty */
        }
        if (MHD_add_connection(d, fd, (struct sockaddr *)&addr, len) == MHD_YES)
            taken++;
        /* On failure libmicrohttpd has closed fd (the connection table is full). */
    }
    return taken;
}

static void stop_accepting(struct MHD_Daemon *d, gr_drain_counts *out)
{
    MHD_socket listener = MHD_quiesce_daemon(d);
    if (listener == MHD_INVALID_SOCKET) {
        gr_log("warn", "event=draining error=\"the listener could not be taken from libmicrohttpd\"");
        return;
    }
    out->backlog = take_backlog(d, listener);
    close(listener);
}

void gr_drain(server_state *st, struct MHD_Daemon *d, gr_drain_counts *out)
{
    const gr_server_config *c = st->cfg;
    *out = (gr_drain_counts){ 0 };
    sleep_ms((long)c->drain_grace * 1000);
    stop_accepting(d, out);
    gr_log("info", "event=draining step=closed backlog_taken=%lu in_flight=%ld", out->backlog,
           atomic_load(&st->in_flight));
    long left = wait_quiet(st, (long)c->drain_timeout * 1000);
    if (left) {
        out->cancelled_running = gr_watch_cancel_all(st->watch);
        gr_stream_abort_all();
        gr_log("info", "event=draining step=cancel in_flight=%ld cancelled=%u", left, out->cancelled_running);
        left = wait_quiet(st, GR_DRAIN_CANCEL_MS);
    }
    out->abandoned = left;
    out->answered = atomic_load(&st->drain_answered);
    out->cancelled = atomic_load(&st->drain_cancelled);
}
