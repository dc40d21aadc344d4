/* SPDX-License-Identifier: MIT */
/* The acceptor (acceptor.h). One thread owns the listener, an epoll set
 * and the relay with its connections (relay.h); it alone touches them, so
 * they need no lock. The thread wakes at least every TICK_MS to enforce
 * the deadlines. */
#define _GNU_SOURCE
#include "server/acceptor.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/drain.h"
#include "server/http_guard.h"
#include "server/log.h"
#include "server/relay.h"

enum {
    TICK_MS = 50,
    ACCEPT_BURST = 256,      /* connections accepted per wake, so that heads are read between bursts */
    EVENTS = 128,
};

struct gr_acceptor {
    server_state *st;
    int listener, epfd, wake;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, close_asked, closed; /* under mu */
    int64_t close_at;               /* thread's own: when the listener closes (0: not asked) */
    int64_t listen_paused_until;    /* thread's own: out of descriptors, accept waits */
    unsigned long backlog;          /* accepted from close_asked on */
    gr_relay *relay;
};

/* ---- the listening socket --------------------------------------------------- */

int gr_listen_socket(const gr_server_config *c, unsigned *port)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
    struct addrinfo *res = NULL;
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)c->port);
    int rc = getaddrinfo(c->host, service, &hints, &res);
    if (rc != 0 || !res) {
        gr_log("error", "event=start error=\"cannot resolve host %s: %s\"", c->host, gai_strerror(rc));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    bool ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
              (res->ai_family != AF_INET6 || setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) == 0) &&
              bind(fd, res->ai_addr, res->ai_addrlen) == 0 && listen(fd, 1024) == 0;
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (ok && getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
        *port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                               : ((struct sockaddr_in *)&ss)->sin_port);
    if (!ok) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* ---- accepting ------------------------------------------------------------------ */

/* Accepts what the listener's queue holds, up to `most`; false when it
 * is out of descriptors (accepting then pauses a tick). */
static bool accept_burst(gr_acceptor *a, unsigned most)
{
    for (unsigned i = 0; i < most && a->listener >= 0; i++) {
        struct sockaddr_storage addr;
        socklen_t len = sizeof addr;
        int fd = accept4(a->listener, (struct sockaddr *)&addr, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
            continue;
        if (fd < 0)
            return errno != EMFILE && errno != ENFILE && errno != ENOBUFS && errno != ENOMEM;
        if (a->close_at)
            a->backlog++;
        gr_relay_accept(a->relay, fd, &addr, len);
    }
    return true;
}

static void set_listening(gr_acceptor *a, bool on)
{
    struct epoll_event ev = { .events = on ? EPOLLIN : 0, .data.ptr = &a->listener };
    epoll_ctl(a->epfd, EPOLL_CTL_MOD, a->listener, &ev);
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

/* ---- the thread ------------------------------------------------------------------ */

/* Deadlines: the relay's; accepting resumes after a pause; the listener
 * closes when due. */
static void tick(gr_acceptor *a, int64_t now)
{
    gr_relay_tick(a->relay, now);
    if (a->listen_paused_until && now >= a->listen_paused_until && a->listener >= 0) {
        a->listen_paused_until = 0;
        set_listening(a, true);
    }
    if (a->close_at && now >= a->close_at && a->listener >= 0) {
        accept_burst(a, UINT32_MAX);
        close(a->listener);
        a->listener = -1;
        pthread_mutex_lock(&a->mu);
        a->closed = true;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->mu);
    }
}

/* The wake descriptor: a stop, or the drain asking to close the listener. */
static bool woken(gr_acceptor *a)
{
    uint64_t v;
    (void)!read(a->wake, &v, sizeof v);
    pthread_mutex_lock(&a->mu);
    bool stop = a->stop, close_asked = a->close_asked;
    pthread_mutex_unlock(&a->mu);
    if (close_asked && !a->close_at && a->listener >= 0)
        a->close_at = gr_now_ms() + (refuse_new_handshakes(a->listener) ? GR_DRAIN_SETTLE_MS : 0);
    return !stop;
}

static void *acceptor_thread(void *arg)
{
    gr_acceptor *a = arg;
    struct epoll_event ev[EVENTS];
    int64_t last_tick = gr_now_ms();
    bool ready = false;
    for (;;) {
        int n = epoll_wait(a->epfd, ev, EVENTS, ready ? 0 : TICK_MS);
        for (int i = 0; i < n; i++) {
            if (ev[i].data.ptr == &a->wake) {
                if (!woken(a))
                    return NULL;
            } else if (ev[i].data.ptr == &a->listener) {
                if (!accept_burst(a, ACCEPT_BURST)) {
                    set_listening(a, false);
                    a->listen_paused_until = gr_now_ms() + TICK_MS;
                }
            } else {
                gr_relay_event(a->relay, ev[i].data.ptr, ev[i].events);
            }
        }
        ready = gr_relay_run_ready(a->relay);
        int64_t now = gr_now_ms();
        if (now - last_tick >= TICK_MS || (a->close_at && now >= a->close_at)) {
            tick(a, now);
            last_tick = now;
        }
        gr_relay_reap(a->relay);
    }
}

static void poke(gr_acceptor *a)
{
    uint64_t one = 1;
    (void)!write(a->wake, &one, sizeof one);
}

static void free_acceptor(gr_acceptor *a)
{
    gr_relay_free(a->relay);
    if (a->listener >= 0)
        close(a->listener);
    if (a->epfd >= 0)
        close(a->epfd);
    if (a->wake >= 0)
        close(a->wake);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a);
}

gr_acceptor *gr_acceptor_start(server_state *st, struct MHD_Daemon *d, int listener)
{
    gr_acceptor *a = calloc(1, sizeof *a);
    if (!a) {
        close(listener);
        return NULL;
    }
    a->st = st;
    a->listener = listener;
    a->epfd = epoll_create1(EPOLL_CLOEXEC);
    a->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    a->relay = a->epfd >= 0 ? gr_relay_new(st, d, a->epfd) : NULL;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    struct epoll_event lev = { .events = EPOLLIN, .data.ptr = &a->listener };
    struct epoll_event wev = { .events = EPOLLIN, .data.ptr = &a->wake };
    if (!a->relay || a->wake < 0 || epoll_ctl(a->epfd, EPOLL_CTL_ADD, listener, &lev) != 0 ||
        epoll_ctl(a->epfd, EPOLL_CTL_ADD, a->wake, &wev) != 0 ||
        pthread_create(&a->thread, NULL, acceptor_thread, a) != 0) {
        free_acceptor(a);
        return NULL;
    }
    return a;
}

unsigned long gr_acceptor_close_listener(gr_acceptor *a)
{
    pthread_mutex_lock(&a->mu);
    a->close_asked = true;
    poke(a);
    while (!a->closed)
        pthread_cond_wait(&a->cv, &a->mu);
    pthread_mutex_unlock(&a->mu);
    return a->backlog;
}

long gr_acceptor_pending(gr_acceptor *a)
{
    return gr_relay_busy(a->relay) + (long)gr_guard_handing();
}

void gr_acceptor_stop(gr_acceptor *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = true;
    poke(a);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    free_acceptor(a);
}
