/* SPDX-License-Identifier: MIT */
#include "stream_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define IN_BYTES (64u * 1024u)
/* Receives per call, so that answering is not starved by a fast client. */
#define IN_BURST 4
/* Waits are cut into slices this long, to see a stop between them. */
#define SLICE_MS 100
/* The spool is emptied once answering has caught up and it holds this much. */
#define RESET_BYTES (1u << 20)

static bool fail(gr_sock_io *io)
{
    io->failed = true;
    return false;
}

static bool stopping(const gr_sock_io *io)
{
    return io->stop && atomic_load(io->stop);
}

bool gr_sock_open(gr_sock_io *io, int fd, int spool, off_t spooled, uint64_t left, unsigned idle_ms,
                  const _Atomic bool *stop)
{
    memset(io, 0, sizeof *io);
    io->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    io->in = malloc(IN_BYTES);
    if (io->fd < 0 || !io->in) {
        if (io->fd >= 0)
            close(io->fd);
        free(io->in);
        io->in = NULL;
        io->fd = -1;
        return false;
    }
    /* Answers go out as the job stages them: no wait for an ACK under
     * Nagle's rule (a failure, on a socket that is not TCP, changes nothing). */
    int one = 1;
    (void)setsockopt(io->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    io->spool = spool;
    io->received = spooled;
    io->left = left;
    io->idle_ms = idle_ms;
    io->stop = stop;
    return true;
}

void gr_sock_close(gr_sock_io *io)
{
    if (io->fd >= 0) {
        shutdown(io->fd, SHUT_RDWR);
        close(io->fd);
    }
    free(io->in);
    io->fd = -1;
    io->in = NULL;
}

void gr_sock_discard(gr_sock_io *io, unsigned ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    shutdown(io->fd, SHUT_WR);
    while (io->left > 0) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long spent = (long)(t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        struct pollfd p = { .fd = io->fd, .events = POLLIN };
        if (spent >= (long)ms || poll(&p, 1, (int)(ms - (unsigned long)spent)) <= 0)
            return;
        size_t want = io->left < IN_BYTES ? (size_t)io->left : IN_BYTES;
        ssize_t n = recv(io->fd, io->in, want, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            return;
        if (n > 0)
            io->left -= (uint64_t)n;
    }
}

static bool spool_write(gr_sock_io *io, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = pwrite(io->spool, p, n, io->received);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
        io->received += k;
    }
    return true;
}

/* Receives what has arrived (up to IN_BURST buffers) into the spool without
 * waiting; false when the client closed before the end of the body or the
 * spool cannot take it. */
static bool receive_ready(gr_sock_io *io)
{
    for (int i = 0; i < IN_BURST && io->left > 0; i++) {
        size_t want = io->left < IN_BYTES ? (size_t)io->left : IN_BYTES;
        ssize_t n = recv(io->fd, io->in, want, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || !spool_write(io, io->in, (size_t)n))
            return fail(io);
        io->left -= (uint64_t)n;
    }
    return true;
}

/* The body straight from the socket into buf, when nothing waits in the
 * spool: no copy through the file while answering keeps up. */
static size_t receive_direct(gr_sock_io *io, char *buf, size_t max)
{
    size_t want = io->left < max ? (size_t)io->left : max;
    ssize_t n;
    do
        n = recv(io->fd, buf, want, MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    if (n <= 0) {
        fail(io);
        return 0;
    }
    io->left -= (uint64_t)n;
    return (size_t)n;
}

size_t gr_sock_take(gr_sock_io *io, char *buf, size_t max)
{
    if (io->failed)
        return 0;
    if (io->answered == io->received)
        return io->left ? receive_direct(io, buf, max) : 0;
    size_t n = (size_t)(io->received - io->answered);
    n = n < max ? n : max;
    ssize_t got;
    do
        got = pread(io->spool, buf, n, io->answered);
    while (got < 0 && errno == EINTR);
    if (got <= 0) {
        fail(io);
        return 0;
    }
    io->answered += got;
    if (io->answered == io->received && io->received >= (off_t)RESET_BYTES && ftruncate(io->spool, 0) == 0)
        io->answered = io->received = 0;
    return (size_t)got;
}

bool gr_sock_wait_body(gr_sock_io *io)
{
    unsigned waited = 0;
    while (!io->failed && io->left > 0) {
        if (stopping(io))
            return false;
        struct pollfd p = { .fd = io->fd, .events = POLLIN };
        int rc = poll(&p, 1, SLICE_MS);
        if (rc < 0 && errno != EINTR)
            return fail(io);
        if (rc > 0)
            return true; /* gr_sock_take reads it, or finds the end or the error */
        if (rc == 0 && (waited += SLICE_MS) >= io->idle_ms) {
            return fail(io);
        }
    }
    return !io->failed;
}

/* Sends all n bytes (flags: MSG_MORE when more follows at once), receiving
 * the body whenever the client is not reading. */
static bool send_all(gr_sock_io *io, const char *p, size_t n, int flags)
{
    unsigned waited = 0;
    while (n > 0 && !io->failed) {
        ssize_t k = send(io->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL | flags);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
            waited = 0;
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if ((k < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || stopping(io))
            return fail(io);
        struct pollfd pf = { .fd = io->fd, .events = (short)(POLLOUT | (io->left ? POLLIN : 0)) };
        int rc = poll(&pf, 1, SLICE_MS);
        if (rc < 0 && errno != EINTR)
            return fail(io);
        if (rc > 0 && (pf.revents & POLLIN) && !receive_ready(io))
            return false;
        if (rc == 0 && (waited += SLICE_MS) >= io->idle_ms)
            return fail(io);
    }
    return !io->failed;
}

bool gr_sock_send(gr_sock_io *io, const char *p, size_t n, bool raw)
{
    if (raw)
        return send_all(io, p, n, 0);
    if (n == 0)
        return !io->failed;
    char size[24];
    int k = snprintf(size, sizeof size, "%zx\r\n", n);
    return send_all(io, size, (size_t)k, MSG_MORE) && send_all(io, p, n, MSG_MORE) &&
           send_all(io, "\r\n", 2, 0);
}
