/* SPDX-License-Identifier: MIT */
/* The acceptor (acceptor.h). One thread owns the listener, an epoll set
 * and the connections accepted whose first head has not arrived; it alone
 * touches them, so they need no lock. The thread wakes at least every
 * TICK_MS to enforce the deadlines. */
#define _GNU_SOURCE
#include "acceptor.h"

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

#include "admission.h"
#include "bg_thread.h"
#include "body_framing.h"
#include "first_head.h"
#include "log.h"
#include "request_id.h"

enum {
    TICK_MS = 50,
    REFUSED_LINGER_MS = 200, /* a 503 or 408: the client's bytes are drained this long, so no reset hides it */
    ACCEPT_BURST = 256,      /* connections accepted per wake, so that heads are read between bursts */
    EVENTS = 128,
};

typedef enum conn_phase { WAITING_HEAD, LINGERING } conn_phase;

typedef struct conn {
    struct conn *prev, *next;
    int fd;
    conn_phase phase;
    int64_t deadline_ms;     /* WAITING_HEAD: the head's (--header-timeout); LINGERING: the close */
    uint64_t dropped;        /* LINGERING: bytes read and dropped */
    bool counted;            /* holds its admission (admission.h) until closed or handed over */
    struct ip_slot *ip;
    size_t peek_limit;       /* bytes the socket's receive buffer surely holds unread */
    socklen_t addr_len;
    struct sockaddr_storage addr;
} conn;

struct gr_acceptor {
    const gr_server_config *cfg;
    struct MHD_Daemon *d;
    int listener, epfd, wake;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, close_asked, closed; /* under mu */
    int64_t close_at;               /* thread's own: when the listener closes (0: not asked) */
    int64_t listen_paused_until;    /* thread's own: out of descriptors, accept waits */
    unsigned long backlog;          /* accepted from close_asked on */
    atomic_long waiting;            /* connections in WAITING_HEAD */
    conn *head;
    gr_head_limits lim;
    size_t cap;
    char *buf;
};

/* ---- answers written on the socket itself --------------------------------- */

/* Writes a whole JSON error with Connection: close, for a connection that
 * libmicrohttpd has not answered and will not: a new socket's buffer holds
 * it, so one non-blocking send suffices (a short one is dropped). message
 * is JSON string content already (no quote or backslash unescaped). */
static void send_error(int fd, gr_error_code code, const char *message)
{
    char body[640], head[512], id[GR_REQUEST_ID_MAX + 1];
    int blen = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\",\"field\":null}}",
                        gr_error_name(code), message);
    gr_request_id_take(id, NULL);
    char date[64];
    struct tm tm;
    time_t now = time(NULL);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", gmtime_r(&now, &tm));
    int status = gr_error_status(code);
    int hlen = snprintf(head, sizeof head,
                        "HTTP/1.1 %d %s\r\nDate: %s\r\nContent-Type: application/json\r\n"
                        "Content-Length: %d\r\n%sX-Request-Id: %s\r\nConnection: close\r\n\r\n",
                        status, gr_head_reason(status), date, blen, status == 503 ? "Retry-After: 1\r\n" : "", id);
    if (blen <= 0 || hlen <= 0 || (size_t)blen >= sizeof body || (size_t)hlen >= sizeof head)
        return;
    char out[sizeof head + sizeof body];
    memcpy(out, head, (size_t)hlen);
    memcpy(out + hlen, body, (size_t)blen);
    (void)!send(fd, out, (size_t)hlen + (size_t)blen, MSG_NOSIGNAL | MSG_DONTWAIT);
}

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

/* ---- connections ---------------------------------------------------------------- */

static void unlink_conn(gr_acceptor *a, conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        a->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (c->phase == WAITING_HEAD)
        atomic_fetch_sub(&a->waiting, 1);
}

static void close_conn(gr_acceptor *a, conn *c)
{
    unlink_conn(a, c);
    close(c->fd); /* also leaves the epoll set */
    if (c->counted)
        gr_admission_forget(c->ip);
    free(c);
}

/* Lists c and watches it: edge-triggered, since a peek leaves the bytes
 * readable; an edge comes with each new segment. */
static bool watch_conn(gr_acceptor *a, conn *c)
{
    struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = c };
    if (epoll_ctl(a->epfd, EPOLL_CTL_ADD, c->fd, &ev) != 0)
        return false;
    c->next = a->head;
    if (a->head)
        a->head->prev = c;
    a->head = c;
    if (c->phase == WAITING_HEAD)
        atomic_fetch_add(&a->waiting, 1);
    return true;
}

/* Answered: the connection drains what the client still sends for
 * `ms`, then closes. Its answer and the end of our side are sent first. */
static void start_linger(gr_acceptor *a, conn *c, int64_t ms)
{
    shutdown(c->fd, SHUT_WR);
    if (c->phase == WAITING_HEAD)
        atomic_fetch_sub(&a->waiting, 1);
    c->phase = LINGERING;
    c->deadline_ms = gr_monotonic_ms() + ms;
}

static void drop_input(gr_acceptor *a, conn *c)
{
    const gr_server_config *cfg = a->cfg;
    for (;;) {
        ssize_t n = recv(c->fd, a->buf, a->cap, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0 || (c->dropped += (uint64_t)n) > cfg->linger_bytes) {
            close_conn(a, c);
            return;
        }
    }
}

/* A connection refused at its opening, or whose head is refused or
 * overdue: answered (unless code is GR_NERROR_CODES), then lingering. */
static void refuse_conn(gr_acceptor *a, conn *c, gr_error_code code, const char *message, int64_t linger_ms)
{
    if (code != GR_NERROR_CODES)
        send_error(c->fd, code, message);
    start_linger(a, c, linger_ms);
}

/* Refuses c with the full table's 503 after all; fd is its descriptor. */
static void refuse_full(gr_acceptor *a, conn *c, int fd)
{
    char msg[160];
    snprintf(msg, sizeof msg, "the server holds its limit of %u connections (--conn-limit); retry later",
             a->cfg->conn_limit);
    *c = (conn){ .fd = fd, .phase = LINGERING };
    send_error(fd, GR_E_OVERLOADED, msg);
    if (!watch_conn(a, c)) {
        close(fd);
        free(c);
        return;
    }
    start_linger(a, c, REFUSED_LINGER_MS);
}

/* libmicrohttpd takes the connection with its counts (gr_admission_hand_over);
 * past its own table it closes the socket, so a duplicate descriptor is
 * kept to answer 503 on. */
static void hand_over(gr_acceptor *a, conn *c)
{
    epoll_ctl(a->epfd, EPOLL_CTL_DEL, c->fd, NULL);
    unlink_conn(a, c);
    int fd = c->fd;
    if (!gr_admission_hand_over(fd, c->ip)) { /* a descriptor past the table: never admitted elsewhere */
        gr_admission_forget(c->ip);
        refuse_full(a, c, fd);
        return;
    }
    int spare = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (MHD_add_connection(a->d, fd, (struct sockaddr *)&c->addr, c->addr_len) == MHD_YES) {
        if (spare >= 0)
            close(spare);
        free(c);
        return;
    }
    gr_admission_take_back(fd);
    if (spare < 0)
        free(c);
    else
        refuse_full(a, c, spare);
}

/* Whether the chunks among the n bytes after a chunked first head are well
 * formed so far (else why holds the refusal): the rest are libmicrohttpd's
 * to judge, as are a later request's. */
static bool chunks_good(const gr_acceptor *a, const char *p, size_t n, const char **why)
{
    gr_body b;
    size_t used;
    gr_body_start(&b, GR_BODY_CHUNKED, 0, a->lim.max_header);
    return gr_body_scan(&b, p, n, &used, why) != GR_BODY_BAD;
}

/* New bytes on a connection waiting for its head: judged on a peek. */
static void head_bytes(gr_acceptor *a, conn *c, uint32_t events)
{
    ssize_t n = recv(c->fd, a->buf, a->cap, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        close_conn(a, c); /* the client left before a request: nothing to answer */
        return;
    }
    gr_error_code code = GR_NERROR_CODES;
    char message[384];
    gr_head_shape shape;
    const char *why;
    switch (gr_first_head_judge(a->buf, (size_t)n, &a->lim, &shape, &code, message, sizeof message)) {
    case GR_HEAD_GOOD:
        if (shape.body == GR_BODY_CHUNKED && !chunks_good(a, a->buf + shape.len, (size_t)n - shape.len, &why))
            refuse_conn(a, c, GR_E_BAD_REQUEST, why, (int64_t)a->cfg->linger_time * 1000);
        else
            hand_over(a, c);
        return;
    case GR_HEAD_REFUSED:
        refuse_conn(a, c, code, message, (int64_t)a->cfg->linger_time * 1000);
        return;
    case GR_HEAD_INCOMPLETE:
        if (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
            close_conn(a, c); /* the client's side ended within a head */
        else if ((size_t)n >= c->peek_limit)
            hand_over(a, c); /* no more can be peeked: libmicrohttpd reads it, within its memory */
        return;
    }
}

/* ---- accepting ------------------------------------------------------------------ */

/* What can be peeked on fd before the client stops for want of window:
 * a quarter of its receive buffer (the kernel counts its own overhead in
 * it), grown to hold a whole head within the limits where the system
 * allows. With the default limits the buffer holds them several times. */
static size_t peek_limit(int fd, size_t cap)
{
    int rb = 0;
    socklen_t l = sizeof rb;
    if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rb, &l) == 0 && (size_t)rb / 4 < cap) {
        int want = cap > INT32_MAX / 4 ? INT32_MAX : (int)cap * 4;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want);
        getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rb, &l);
    }
    size_t limit = rb > 0 ? (size_t)rb / 4 : 4096;
    return limit < 4096 ? 4096 : limit > cap ? cap : limit;
}

static void accept_one(gr_acceptor *a, int fd, const struct sockaddr_storage *addr, socklen_t len)
{
    conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    *c = (conn){ .fd = fd, .phase = WAITING_HEAD, .addr_len = len, .addr = *addr,
                 .peek_limit = peek_limit(fd, a->cap) };
    char msg[160];
    c->counted = gr_admission_admit((const struct sockaddr *)addr, &c->ip, msg, sizeof msg);
    c->deadline_ms = gr_monotonic_ms() + (int64_t)a->cfg->header_timeout * 1000;
    if (!watch_conn(a, c)) {
        if (c->counted)
            gr_admission_forget(c->ip);
        close(fd);
        free(c);
        return;
    }
    if (!c->counted)
        refuse_conn(a, c, GR_E_OVERLOADED, msg, REFUSED_LINGER_MS);
}

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
        accept_one(a, fd, &addr, len);
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

/* Deadlines: a head overdue is answered 408; a lingering connection is
 * closed; accepting resumes after a pause; the listener closes when due. */
static void tick(gr_acceptor *a, int64_t now)
{
    for (conn *c = a->head, *next; c; c = next) {
        next = c->next;
        if (now < c->deadline_ms)
            continue;
        if (c->phase == LINGERING) {
            close_conn(a, c);
            continue;
        }
        char msg[160];
        snprintf(msg, sizeof msg, "the request line and headers did not arrive within %u s "
                 "(--header-timeout); send them at once", a->cfg->header_timeout);
        refuse_conn(a, c, GR_E_REQUEST_TIMEOUT, msg, REFUSED_LINGER_MS);
    }
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
        a->close_at = gr_monotonic_ms() + (refuse_new_handshakes(a->listener) ? GR_ACCEPT_SETTLE_MS : 0);
    return !stop;
}

static void *acceptor_thread(void *arg)
{
    gr_acceptor *a = arg;
    struct epoll_event ev[EVENTS];
    int64_t last_tick = gr_monotonic_ms();
    for (;;) {
        int n = epoll_wait(a->epfd, ev, EVENTS, TICK_MS);
        for (int i = 0; i < n; i++) {
            if (ev[i].data.ptr == &a->wake) {
                if (!woken(a))
                    return NULL;
            } else if (ev[i].data.ptr == &a->listener) {
                if (!accept_burst(a, ACCEPT_BURST)) {
                    set_listening(a, false);
                    a->listen_paused_until = gr_monotonic_ms() + TICK_MS;
                }
            } else {
                conn *c = ev[i].data.ptr;
                if (c->phase == WAITING_HEAD)
                    head_bytes(a, c, ev[i].events);
                else
                    drop_input(a, c);
            }
        }
        int64_t now = gr_monotonic_ms();
        if (now - last_tick >= TICK_MS || (a->close_at && now >= a->close_at)) {
            tick(a, now);
            last_tick = now;
        }
    }
}

static void poke(gr_acceptor *a)
{
    uint64_t one = 1;
    (void)!write(a->wake, &one, sizeof one);
}

static void free_acceptor(gr_acceptor *a)
{
    while (a->head)
        close_conn(a, a->head);
    if (a->listener >= 0)
        close(a->listener);
    if (a->epfd >= 0)
        close(a->epfd);
    if (a->wake >= 0)
        close(a->wake);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a->buf);
    free(a);
}

gr_acceptor *gr_acceptor_start(const gr_server_config *cfg, struct MHD_Daemon *d, int listener)
{
    gr_acceptor *a = calloc(1, sizeof *a);
    if (!a) {
        close(listener);
        return NULL;
    }
    a->cfg = cfg;
    a->d = d;
    a->listener = listener;
    a->lim = (gr_head_limits){ .max_url = cfg->max_url, .max_header = cfg->max_header };
    a->cap = gr_first_head_size(&a->lim) + 1;
    a->buf = malloc(a->cap);
    a->epfd = epoll_create1(EPOLL_CLOEXEC);
    a->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    atomic_init(&a->waiting, 0);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    struct epoll_event lev = { .events = EPOLLIN, .data.ptr = &a->listener };
    struct epoll_event wev = { .events = EPOLLIN, .data.ptr = &a->wake };
    if (!a->buf || a->epfd < 0 || a->wake < 0 || epoll_ctl(a->epfd, EPOLL_CTL_ADD, listener, &lev) != 0 ||
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
    return atomic_load(&a->waiting) + (long)gr_admission_handing();
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
