/* SPDX-License-Identifier: MIT */
/* accept4 is a Linux extension. */
#define _GNU_SOURCE
#include "server/drain.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
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

/* Has the kernel drop new connection attempts (a TCP segment with SYN and
 * not ACK) on the listener, while the handshakes already under way still
 * complete into its queue. A dropped SYN is retried by the client about a
 * second later, finds the listener closed and is refused: never accepted,
 * so never reset with its request unanswered. The filter sees the TCP
 * header at offset 0 (the IP header is already pulled). */
static bool refuse_new_handshakes(int listener)
{
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),           /* the TCP flags */
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),         /* SYN and ACK */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1),   /* SYN alone: a new handshake */
        BPF_STMT(BPF_RET | BPF_K, 0),                      /* dropped */
        BPF_STMT(BPF_RET | BPF_K, 0xFFFFFFFFu),            /* kept */
    };
    struct sock_fprog prog = { .len = sizeof code / sizeof code[0], .filter = code };
    return setsockopt(listener, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog) == 0;
}

/* Step 3. New handshakes are refused first; the queue is taken, then taken
 * again once the handshakes under way (GR_DRAIN_SETTLE_MS) have landed in
 * it, and only then is the listener closed. */
static void stop_accepting(struct MHD_Daemon *d, gr_drain_counts *out)
{
    MHD_socket listener = MHD_quiesce_daemon(d);
    if (listener == MHD_INVALID_SOCKET) {
        gr_log("warn", "event=draining error=\"the listener could not be taken from libmicrohttpd\"");
        return;
    }
    bool filtered = refuse_new_handshakes(listener);
    out->backlog = take_backlog(d, listener);
    if (filtered) {
        sleep_ms(GR_DRAIN_SETTLE_MS);
        out->backlog += take_backlog(d, listener);
    }
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
