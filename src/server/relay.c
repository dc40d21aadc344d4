/* SPDX-License-Identifier: MIT */
/* The relay (relay.h). A connection's life:
 *
 *   AWAITING_HEAD --good head--> IN_FLIGHT --body and answer ended--> AWAITING_HEAD
 *        |                           |
 *        +--bad head, 408, 503-------+--bad chunk, libmicrohttpd closed--> CLOSING --sent--> LINGERING --> closed
 *
 * The client's bytes wait in `in`: the first `pass` of them are judged
 * good and go to libmicrohttpd, the rest are not judged yet (a head still
 * coming, or a pipelined request). libmicrohttpd's bytes wait in `out` for
 * the client. The buffers are allocated while a request is on its way. */
#define _GNU_SOURCE
#include "server/relay.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "server/http_body.h"
#include "server/http_guard.h"
#include "server/request_head.h"

enum {
    OUT_CAP = 65536,         /* bytes of answers read ahead of the client */
    BODY_ROOM = 65536,       /* bytes of a body read ahead of libmicrohttpd */
    REFUSED_LINGER_MS = 200, /* a 503 or 408: the client's bytes are drained this long, so no reset hides it */
    TURN_ROUNDS = 16,        /* reads and writes a connection gets per turn before others have theirs */
    EARLY_END_MS = 500,      /* a body the client ended early: how long libmicrohttpd has to answer it */
};

typedef enum conn_phase { AWAITING_HEAD, IN_FLIGHT, CLOSING, LINGERING } conn_phase;

typedef struct side {
    struct conn *c;
    int fd;
    bool readable, writable; /* as the last edge and the last short read or EAGAIN left them */
    bool ended;              /* the peer's end was seen (EPOLLRDHUP): read on to the 0 */
    bool want_out;           /* EPOLLOUT is watched: a send would have blocked */
} side;

typedef struct bytes {
    char *p;
    size_t start, len, cap;
} bytes;

typedef struct conn {
    struct conn *prev, *next, *ready_next;
    side client, up;
    conn_phase phase;
    int64_t deadline_ms;     /* AWAITING_HEAD: the head's (0: none); CLOSING, LINGERING: the close's */
    int64_t linger_ms;       /* LINGERING's length once CLOSING has sent `out` */
    int64_t stall_ms;        /* `out` waits for a client that does not read: closed at this time (0: none) */
    bytes in, out;
    size_t pass;             /* in.p[in.start, in.start + pass) are judged and go to libmicrohttpd */
    gr_body body;            /* IN_FLIGHT: the request's body */
    gr_reply_scan reply;     /* libmicrohttpd's answers */
    bool body_done, answer_done, body_bad;
    bool client_eof, up_shut, dead, on_ready, busy;
    uint64_t dropped;        /* CLOSING, LINGERING: client bytes read and dropped */
    bool counted;            /* holds its admission (http_guard.h) until libmicrohttpd has it */
    struct ip_slot *ip;
    socklen_t addr_len;
    struct sockaddr_storage addr;
} conn;

struct gr_relay {
    server_state *st;
    struct MHD_Daemon *d;
    int epfd;
    gr_head_limits lim;
    size_t in_cap;           /* a head over its limits fits, so it can be told from one still coming */
    conn *head, *ready;
    conn *graveyard;         /* closed, freed once no event of the batch can name them */
    atomic_long busy;
    char scratch[16384];     /* dropped bytes */
};

int64_t gr_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* ---- buffers -------------------------------------------------------------------- */

/* Room for at least one more byte at the end of b, which grows (from 4 KiB,
 * doubling) up to cap; false when it holds cap bytes or memory is out. */
static bool make_room(bytes *b, size_t cap)
{
    if (b->start && b->len == b->cap) {
        memmove(b->p, b->p + b->start, b->len - b->start);
        b->len -= b->start;
        b->start = 0;
    }
    if (b->len < b->cap)
        return true;
    if (b->cap >= cap)
        return false;
    size_t grown = b->cap ? b->cap * 2 : 4096;
    char *p = realloc(b->p, grown < cap ? grown : cap);
    if (!p)
        return false;
    b->p = p;
    b->cap = grown < cap ? grown : cap;
    return true;
}

static void consumed(bytes *b, size_t n)
{
    b->start += n;
    if (b->start == b->len)
        b->start = b->len = 0;
}

/* An idle connection keeps no buffer: most of them are idle. */
static void release(bytes *b)
{
    free(b->p);
    *b = (bytes){ 0 };
}

/* ---- the connection's states ---------------------------------------------------- */

static void close_up(gr_relay *r, conn *c)
{
    (void)r;
    if (c->up.fd >= 0)
        close(c->up.fd); /* also leaves the epoll set; libmicrohttpd sees the end */
    c->up.fd = -1;
}

/* Nothing more goes to libmicrohttpd; what `out` holds is sent, then the
 * connection lingers for linger_ms. */
static void start_closing(gr_relay *r, conn *c, int64_t linger_ms)
{
    close_up(r, c);
    unsigned t = r->st->cfg->linger_time;
    c->phase = CLOSING;
    c->linger_ms = linger_ms;
    c->deadline_ms = gr_now_ms() + (t ? (int64_t)t * 1000 : 1000);
    release(&c->in);
    c->pass = 0;
}

/* Answers code with message (JSON string content) and closes. */
static void refuse(gr_relay *r, conn *c, gr_error_code code, const char *message, int64_t linger_ms)
{
    char err[GR_GUARD_ERROR_MAX];
    size_t n = gr_guard_format_error(code, message, err, sizeof err);
    start_closing(r, c, linger_ms);
    if (!n)
        return;
    bytes *b = &c->out; /* after any answer it holds, whatever room that left */
    if (b->start) {
        memmove(b->p, b->p + b->start, b->len - b->start);
        b->len -= b->start;
        b->start = 0;
    }
    if (b->cap - b->len < n) {
        char *p = realloc(b->p, b->len + n);
        if (!p)
            return;
        b->p = p;
        b->cap = b->len + n;
    }
    memcpy(b->p + b->len, err, n);
    b->len += n;
}

static int64_t linger_time_ms(const gr_relay *r)
{
    return (int64_t)r->st->cfg->linger_time * 1000;
}

static bool watch(gr_relay *r, side *s)
{
    struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = s };
    return epoll_ctl(r->epfd, EPOLL_CTL_ADD, s->fd, &ev) == 0;
}

/* libmicrohttpd's end of a new socket pair takes the connection, with
 * the client's address and admission; false (answered 503) when it cannot. */
static bool connect_up(gr_relay *r, conn *c)
{
    int sv[2];
    char msg[160];
    snprintf(msg, sizeof msg, "the server holds its limit of %u connections (--conn-limit); retry later",
             r->st->cfg->conn_limit);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0) {
        refuse(r, c, GR_E_OVERLOADED, msg, REFUSED_LINGER_MS);
        return false;
    }
    bool handed = gr_guard_hand_over(sv[1], c->ip);
    if (!handed)
        gr_guard_forget(c->ip); /* counted anew when libmicrohttpd opens it */
    c->counted = false;
    c->up = (side){ .c = c, .fd = sv[0], .writable = true };
    if (MHD_add_connection(r->d, sv[1], (struct sockaddr *)&c->addr, c->addr_len) != MHD_YES) {
        if (handed)
            gr_guard_take_back(sv[1]); /* libmicrohttpd closed its end */
        refuse(r, c, GR_E_OVERLOADED, msg, REFUSED_LINGER_MS);
        return false;
    }
    if (!watch(r, &c->up)) {
        close_up(r, c);
        start_closing(r, c, 0);
        return false;
    }
    return true;
}

/* A head in[start, len): passed on, refused, or waited for. */
static bool judge_head(gr_relay *r, conn *c)
{
    if (c->in.start == c->in.len)
        return false;
    gr_head_shape shape;
    gr_error_code code = GR_NERROR_CODES;
    char message[384];
    switch (gr_head_judge(c->in.p + c->in.start, c->in.len - c->in.start, &r->lim, &shape, &code, message,
                          sizeof message)) {
    case GR_HEAD_INCOMPLETE:
        if (!c->deadline_ms)
            c->deadline_ms = gr_now_ms() + (int64_t)r->st->cfg->header_timeout * 1000;
        return false;
    case GR_HEAD_REFUSED:
        refuse(r, c, code, message, linger_time_ms(r));
        return true;
    case GR_HEAD_GOOD:
        break;
    }
    if (c->up.fd < 0 && !connect_up(r, c))
        return true;
    c->phase = IN_FLIGHT;
    c->deadline_ms = 0;
    c->pass = shape.len;
    gr_body_start(&c->body, shape.body, shape.length, r->lim.max_header);
    c->body_done = shape.body == GR_BODY_NONE;
    c->answer_done = c->body_bad = false;
    gr_reply_expect(&c->reply, shape.head_method);
    return true;
}

/* The body's bytes after the judged ones, as far as they are good. A broken chunk
 * is answered here when libmicrohttpd has not begun to answer; else its
 * answer ends the connection. */
static bool judge_body(gr_relay *r, conn *c)
{
    size_t judged = c->in.start + c->pass;
    if (c->body_done || c->body_bad || judged == c->in.len)
        return false;
    size_t used;
    const char *why;
    gr_body_step st = gr_body_scan(&c->body, c->in.p + judged, c->in.len - judged, &used, &why);
    c->pass += used;
    if (st == GR_BODY_ENDED)
        c->body_done = true;
    if (st == GR_BODY_BAD) {
        c->body_bad = true;
        c->in.len = c->in.start + c->pass; /* the rest is never passed on */
        if (c->reply.bytes == 0 && !c->answer_done)
            refuse(r, c, GR_E_BAD_REQUEST, why, linger_time_ms(r));
    }
    return true;
}

/* What the client's bytes and libmicrohttpd's answers allow next. */
static bool advance(gr_relay *r, conn *c)
{
    bool moved = false;
    if (c->phase == AWAITING_HEAD && !(moved = judge_head(r, c)))
        return false;
    if (c->phase != IN_FLIGHT)
        return moved;
    if (c->answer_done && c->body_bad) {
        start_closing(r, c, linger_time_ms(r));
        return true;
    }
    if (c->answer_done && c->body_done) {
        c->phase = AWAITING_HEAD; /* the next request, if one waits */
        return true;
    }
    if (c->answer_done && c->client_eof && !c->body_done) {
        start_closing(r, c, 0); /* answered early, and the rest of the body never comes */
        return true;
    }
    moved |= judge_body(r, c);
    if (c->client_eof && !c->body_done && !c->body_bad && !c->pass && !c->up_shut && c->up.fd >= 0) {
        /* The body can never end. libmicrohttpd may have answered early
         * (a 413) and is told the end; but it may not notice a half close
         * while it waits for the body, so it has EARLY_END_MS to answer. */
        shutdown(c->up.fd, SHUT_WR);
        c->up_shut = true;
        c->deadline_ms = gr_now_ms() + EARLY_END_MS;
        return true;
    }
    if (c->client_eof && !c->up_shut && c->in.start == c->in.len && c->up.fd >= 0) {
        shutdown(c->up.fd, SHUT_WR); /* the client's end, seen as libmicrohttpd would have seen it */
        c->up_shut = true;
    }
    return moved;
}

/* ---- input and output ----------------------------------------------------------- */

/* recv's outcome on a side: >0 bytes, 0 at the end, -1 when it would
 * wait (the side is not readable any more), -2 on an error. A short read
 * emptied the socket: the next bytes bring a new edge, unless its end was
 * seen already. */
static ssize_t receive(side *s, char *p, size_t n)
{
    ssize_t k = recv(s->fd, p, n, 0);
    if (k > 0 && (size_t)k < n && !s->ended)
        s->readable = false;
    if (k >= 0)
        return k;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        s->readable = false;
        return -1;
    }
    return errno == EINTR ? -1 : -2;
}

/* EPOLLOUT is watched only while a send waits for room: else every ACK
 * and every read of the peer would wake the thread. */
static void watch_out(gr_relay *r, side *s, bool on)
{
    if (s->want_out == on)
        return;
    struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET | (on ? EPOLLOUT : 0), .data.ptr = s };
    if (epoll_ctl(r->epfd, EPOLL_CTL_MOD, s->fd, &ev) == 0)
        s->want_out = on;
}

static ssize_t transmit(gr_relay *r, side *s, const char *p, size_t n)
{
    ssize_t k = send(s->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (k >= 0) {
        if ((size_t)k == n)
            watch_out(r, s, false);
        return k;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        s->writable = false;
        watch_out(r, s, true);
        return -1;
    }
    return errno == EINTR ? -1 : -2;
}

/* CLOSING and LINGERING read and drop, within --linger-bytes. */
static bool drop_client_input(gr_relay *r, conn *c)
{
    ssize_t n = receive(&c->client, r->scratch, sizeof r->scratch);
    if (n == -1)
        return false;
    if (n <= 0 || (c->dropped += (uint64_t)n) > r->st->cfg->linger_bytes) {
        if (n == 0 && c->phase == CLOSING)
            c->client_eof = true; /* it may still read what `out` holds */
        else
            c->dead = true;
    }
    return true;
}

static bool read_client(gr_relay *r, conn *c)
{
    if (!c->client.readable || c->client_eof)
        return false;
    if (c->phase >= CLOSING)
        return drop_client_input(r, c);
    /* A body streams through; anything else (a head, a pipelined request)
     * is held to the head's limit. */
    size_t cap = c->phase == IN_FLIGHT && !c->body_done ? BODY_ROOM : r->in_cap;
    if (!make_room(&c->in, cap))
        return false;
    ssize_t n = receive(&c->client, c->in.p + c->in.len, c->in.cap - c->in.len);
    if (n == -1)
        return false;
    if (n == -2)
        c->dead = true;
    else if (n == 0)
        c->client_eof = true;
    else
        c->in.len += (size_t)n;
    return true;
}

static bool write_up(gr_relay *r, conn *c)
{
    if (c->up.fd < 0 || !c->up.writable || !c->pass)
        return false;
    ssize_t n = transmit(r, &c->up, c->in.p + c->in.start, c->pass);
    if (n == -1)
        return false;
    if (n == -2) {
        c->pass = 0; /* libmicrohttpd has gone: its end is read to the close */
        return true;
    }
    c->pass -= (size_t)n;
    consumed(&c->in, (size_t)n);
    return true;
}

/* libmicrohttpd's bytes p[0, n) have arrived: where an answer ended. */
static void scan_answers(conn *c, const char *p, size_t n)
{
    while (n) {
        size_t used;
        if (!gr_reply_scan_bytes(&c->reply, p, n, &used))
            return;
        if (c->phase == IN_FLIGHT)
            c->answer_done = true;
        gr_reply_expect(&c->reply, false); /* what follows is unasked: a close's notice */
        p += used;
        n -= used;
    }
}

static bool read_up(gr_relay *r, conn *c)
{
    if (c->up.fd < 0 || !c->up.readable || !make_room(&c->out, OUT_CAP) || c->out.len == c->out.cap)
        return false;
    ssize_t n = receive(&c->up, c->out.p + c->out.len, c->out.cap - c->out.len);
    if (n == -1)
        return false;
    if (n <= 0) {
        /* libmicrohttpd closed: after its answer, or with none to give. A
         * body still coming is drained within the bounds; else briefly. */
        start_closing(r, c, c->phase == IN_FLIGHT && !c->body_done ? linger_time_ms(r) : REFUSED_LINGER_MS);
        return true;
    }
    scan_answers(c, c->out.p + c->out.len, (size_t)n);
    c->out.len += (size_t)n;
    return true;
}

static bool write_client(gr_relay *r, conn *c)
{
    if (c->out.start == c->out.len || !c->client.writable)
        return false;
    ssize_t n = transmit(r, &c->client, c->out.p + c->out.start, c->out.len - c->out.start);
    if (n == -1) {
        if (!c->stall_ms) /* the client must go on reading within the idle time */
            c->stall_ms = gr_now_ms() + (int64_t)r->st->cfg->conn_timeout * 1000;
        return false;
    }
    c->stall_ms = 0;
    if (n == -2)
        c->dead = true;
    else
        consumed(&c->out, (size_t)n);
    return true;
}

/* ---- a connection's turn -------------------------------------------------------- */

static void unlink_conn(gr_relay *r, conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        r->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
}

static void free_conn(gr_relay *r, conn *c)
{
    unlink_conn(r, c);
    close(c->client.fd);
    close_up(r, c);
    if (c->counted)
        gr_guard_forget(c->ip);
    if (c->busy)
        atomic_fetch_sub(&r->busy, 1);
    release(&c->in);
    release(&c->out);
    c->dead = true;
    c->next = r->graveyard;
    r->graveyard = c;
}

void gr_relay_reap(gr_relay *r)
{
    while (r->graveyard) {
        conn *c = r->graveyard;
        r->graveyard = c->next;
        free(c);
    }
}

/* Whether c has a request on its way (relay.h, gr_relay_busy). */
static bool is_busy(const conn *c)
{
    if (c->out.start < c->out.len || c->phase == IN_FLIGHT || c->phase == LINGERING)
        return true; /* lingering: closed before its time, the answer could be lost to a reset */
    return c->phase == AWAITING_HEAD && (c->up.fd < 0 || c->in.start < c->in.len);
}

/* After a turn: the end of an answered client, CLOSING's end, the count. */
static void settle(gr_relay *r, conn *c)
{
    if (!c->dead && c->client_eof && c->phase == AWAITING_HEAD && c->out.start == c->out.len)
        c->dead = true; /* the client ended between requests, or within a head: nothing to answer */
    if (!c->dead && c->phase == CLOSING && c->out.start == c->out.len) {
        if (c->client_eof || c->linger_ms <= 0) {
            c->dead = true;
        } else {
            shutdown(c->client.fd, SHUT_WR);
            c->phase = LINGERING;
            c->deadline_ms = gr_now_ms() + c->linger_ms;
        }
    }
    if (c->dead) {
        free_conn(r, c);
        return;
    }
    if (c->phase == AWAITING_HEAD && c->in.start == c->in.len && c->out.start == c->out.len) {
        release(&c->in);
        release(&c->out);
    }
    bool busy = is_busy(c);
    if (busy != c->busy)
        atomic_fetch_add(&r->busy, busy ? 1 : -1);
    c->busy = busy;
}

/* Moves what can move, for at most TURN_ROUNDS rounds; a connection that
 * could still move waits on the ready list. */
static void turn(gr_relay *r, conn *c)
{
    bool moved = true;
    for (int round = 0; moved && round < TURN_ROUNDS && !c->dead; round++) {
        moved = read_client(r, c);
        moved |= !c->dead && advance(r, c);
        moved |= !c->dead && write_up(r, c);
        moved |= !c->dead && read_up(r, c);
        moved |= !c->dead && write_client(r, c);
    }
    if (moved && !c->dead && !c->on_ready) {
        c->on_ready = true;
        c->ready_next = r->ready;
        r->ready = c;
    }
    if (!c->on_ready || c->dead)
        settle(r, c);
}

bool gr_relay_run_ready(gr_relay *r)
{
    conn *list = r->ready;
    r->ready = NULL;
    while (list) {
        conn *c = list;
        list = c->ready_next;
        c->on_ready = false;
        turn(r, c);
    }
    return r->ready != NULL;
}

void gr_relay_event(gr_relay *r, void *tag, uint32_t events)
{
    side *s = tag;
    if (s->c->dead)
        return; /* closed earlier in the batch */
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        s->readable = true;
    if (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        s->ended = true;
    if (events & (EPOLLOUT | EPOLLHUP | EPOLLERR))
        s->writable = true;
    if (!s->c->on_ready)
        turn(r, s->c);
}

/* ---- accepting, deadlines -------------------------------------------------------- */

void gr_relay_accept(gr_relay *r, int fd, const struct sockaddr_storage *addr, socklen_t len)
{
    conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* answers go out as they pass */
    *c = (conn){ .client = { .c = c, .fd = fd, .writable = true }, .up = { .c = c, .fd = -1 },
                 .phase = AWAITING_HEAD, .addr_len = len, .addr = *addr };
    c->client.c = c;
    c->up.c = c;
    c->deadline_ms = gr_now_ms() + (int64_t)r->st->cfg->header_timeout * 1000;
    char msg[160];
    c->counted = gr_guard_admit((const struct sockaddr *)addr, &c->ip, msg, sizeof msg);
    c->next = r->head;
    if (r->head)
        r->head->prev = c;
    r->head = c;
    if (!watch(r, &c->client)) {
        c->dead = true;
        settle(r, c);
        return;
    }
    if (c->counted) {
        settle(r, c);
        return;
    }
    refuse(r, c, GR_E_OVERLOADED, msg, REFUSED_LINGER_MS);
    turn(r, c); /* the 503 goes out now, before the client says anything */
}

void gr_relay_tick(gr_relay *r, int64_t now)
{
    for (conn *c = r->head, *next; c; c = next) {
        next = c->next;
        if (c->on_ready)
            continue;
        if (c->stall_ms && now >= c->stall_ms) {
            c->dead = true; /* its answer waited --conn-timeout for it to read */
            settle(r, c);
            continue;
        }
        if (!c->deadline_ms || now < c->deadline_ms)
            continue;
        if (c->phase == IN_FLIGHT && c->reply.bytes) {
            c->deadline_ms = now + EARLY_END_MS; /* the early answer is under way */
            continue;
        }
        if (c->phase != AWAITING_HEAD) {
            c->dead = true;
            settle(r, c);
            continue;
        }
        char msg[160];
        snprintf(msg, sizeof msg, "the request line and headers did not arrive within %u s "
                 "(--header-timeout); send them at once", r->st->cfg->header_timeout);
        refuse(r, c, GR_E_REQUEST_TIMEOUT, msg, REFUSED_LINGER_MS);
        turn(r, c);
    }
}

long gr_relay_busy(const gr_relay *r)
{
    return atomic_load(&r->busy);
}

gr_relay *gr_relay_new(server_state *st, struct MHD_Daemon *d, int epfd)
{
    gr_relay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->st = st;
    r->d = d;
    r->epfd = epfd;
    r->lim = (gr_head_limits){ .max_url = st->cfg->max_url, .max_header = st->cfg->max_header };
    r->in_cap = gr_head_judge_size(&r->lim) + 1;
    atomic_init(&r->busy, 0);
    return r;
}

void gr_relay_free(gr_relay *r)
{
    if (!r)
        return;
    while (r->head)
        free_conn(r, r->head);
    gr_relay_reap(r);
    free(r);
}
