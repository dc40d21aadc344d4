/* SPDX-License-Identifier: MIT */
/* The socket side of a duplex NDJSON stream (src/server/ndjson/stream_socket.h)
 * on a socketpair: answers framed as chunks (or sent raw), the body taken
 * in order in pieces of any size (the bytes spooled before first, and
 * those spooled while a send waited for the client), a body cut short, an
 * idle client and a stop, and the close that ends the connection both
 * ways. */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "stream_socket.h"

enum { CLIENT, SERVER };

static int sv[2];
static FILE *spool;

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void pair(void)
{
    REQUIRE_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    spool = tmpfile();
    REQUIRE(spool != NULL);
}

static void unpair(void)
{
    if (sv[CLIENT] >= 0)
        close(sv[CLIENT]);
    close(sv[SERVER]);
    fclose(spool);
}

static void client_writes(const char *p, size_t n)
{
    REQUIRE_EQ(send(sv[CLIENT], p, n, MSG_NOSIGNAL), (long long)n);
}

/* Exactly n bytes from the client's end within 2 s. */
static void client_reads_exactly(const char *want, size_t n)
{
    char *buf = malloc(n + 1);
    REQUIRE(buf != NULL);
    size_t got = 0;
    int64_t t0 = now_ms();
    while (got < n) {
        struct pollfd p = { .fd = sv[CLIENT], .events = POLLIN };
        int64_t left = t0 + 2000 - now_ms();
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            ck_abort_msg("read %zu of %zu bytes", got, n);
        ssize_t r = recv(sv[CLIENT], buf + got, n - got, MSG_DONTWAIT);
        if (r <= 0)
            ck_abort_msg("read %zu of %zu bytes, then %s", got, n, r ? strerror(errno) : "EOF");
        got += (size_t)r;
    }
    if (memcmp(buf, want, n) != 0) {
        buf[n] = '\0';
        ck_abort_msg("read \"%s\"", buf);
    }
    free(buf);
}

/* Nothing more for the client to read (not even an end) within ms. */
static void client_reads_nothing(int ms)
{
    struct pollfd p = { .fd = sv[CLIENT], .events = POLLIN };
    REQUIRE_EQ(poll(&p, 1, ms), 0);
}

static void open_io(gr_sock_io *io, off_t spooled, uint64_t left, unsigned idle_ms, const _Atomic bool *stop)
{
    REQUIRE(gr_sock_open(io, sv[SERVER], fileno(spool), spooled, left, idle_ms, stop));
    REQUIRE(io->fd >= 0 && io->fd != sv[SERVER]);
    REQUIRE(!io->failed);
}

/* Takes the body until io->left is 0 (or it fails), in pieces of at most
 * max bytes, waiting between them; the bytes taken. */
static size_t take_all(gr_sock_io *io, char *out, size_t cap, size_t max)
{
    size_t got = 0;
    for (;;) {
        REQUIRE(got <= cap);
        size_t n = gr_sock_take(io, out + got, max < cap - got ? max : cap - got);
        REQUIRE(n <= max);
        got += n;
        if (n > 0)
            continue;
        if (io->failed || io->left == 0)
            return got;
        if (!gr_sock_wait_body(io))
            return got;
    }
}

START_TEST(test_answer_framing)
{
    pair();
    gr_sock_io io;
    open_io(&io, 0, 0, 2000, NULL);
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
                               "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    REQUIRE(gr_sock_send(&io, head, sizeof head - 1, true));
    client_reads_exactly(head, sizeof head - 1);
    client_reads_nothing(0);
    REQUIRE(gr_sock_send(&io, "abc\n", 4, false));
    client_reads_exactly("4\r\nabc\n\r\n", 9);
    client_reads_nothing(0);
    REQUIRE(gr_sock_send(&io, "ignored", 0, false)); /* an empty chunk would end the body */
    client_reads_nothing(20);
    /* A size in lowercase hex, the data as it is. */
    char line[301], want[320];
    memset(line, 'x', 299);
    line[299] = '\n';
    line[300] = '\0';
    REQUIRE(gr_sock_send(&io, line, 300, false));
    int k = snprintf(want, sizeof want, "12c\r\n%s\r\n", line);
    client_reads_exactly(want, (size_t)k);
    client_reads_nothing(0);
    REQUIRE(gr_sock_send(&io, "{\"a\":1}\n{\"b\":2}\n", 16, false));
    REQUIRE(gr_sock_send(&io, "0\r\n\r\n", 5, true));
    client_reads_exactly("10\r\n{\"a\":1}\n{\"b\":2}\n\r\n0\r\n\r\n", 27);
    client_reads_nothing(0);
    REQUIRE(!io.failed);
    gr_sock_close(&io);
    unpair();
}
END_TEST

/* A batch of NDJSON lines of about 30 bytes each, nearly cap in all. */
static size_t body_text(char *out, size_t cap)
{
    size_t n = 0;
    for (int i = 0; n + 64 < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "{\"game\":\"nim\",\"piles\":[%d,%d]}\n", i, 7 * i + 1);
    return n;
}

START_TEST(test_body_in_pieces)
{
    pair();
    static char body[1200];
    size_t len = body_text(body, sizeof body);
    REQUIRE(len > 1000);
    gr_sock_io io;
    open_io(&io, 0, len, 2000, NULL);
    char got[sizeof body + 16];
    size_t have = 0;
    /* Nothing sent yet: nothing taken, and no failure. */
    REQUIRE_EQ(gr_sock_take(&io, got, sizeof got), 0);
    REQUIRE(!io.failed);
    static const size_t sizes[] = { 1, 7, 300, 2, 33 }; /* lines split mid-line */
    static const size_t maxes[] = { 5, 3, 4096, 1, 16 };
    size_t sent = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        client_writes(body + sent, sizes[i]);
        sent += sizes[i];
        REQUIRE(gr_sock_wait_body(&io));
        size_t n;
        while ((n = gr_sock_take(&io, got + have, maxes[i])) > 0) {
            REQUIRE(n <= maxes[i]);
            have += n;
        }
        REQUIRE(!io.failed);
        REQUIRE_EQ(have, sent);
        REQUIRE_EQ(io.left, len - sent);
    }
    /* The rest, with bytes past the body's end behind it: those are not
     * the body's and stay in the socket. */
    char rest[sizeof body + 8];
    memcpy(rest, body + sent, len - sent);
    memcpy(rest + len - sent, "GET /x", 6);
    client_writes(rest, len - sent + 6);
    have += take_all(&io, got + have, sizeof got - have, 64);
    REQUIRE(!io.failed);
    REQUIRE_EQ(io.left, 0);
    REQUIRE_EQ(have, len);
    REQUIRE(memcmp(got, body, len) == 0);
    REQUIRE_EQ(gr_sock_take(&io, got, sizeof got), 0);
    REQUIRE(gr_sock_wait_body(&io)); /* nothing left to wait for */
    char after[8];
    REQUIRE_EQ(recv(sv[SERVER], after, sizeof after, MSG_DONTWAIT), 6);
    REQUIRE(memcmp(after, "GET /x", 6) == 0);
    gr_sock_close(&io);
    unpair();
}
END_TEST

START_TEST(test_body_cut_short)
{
    pair();
    gr_sock_io io;
    open_io(&io, 0, 100, 2000, NULL);
    client_writes("{\"game\":\"nim\",\"piles\":[1]}\n{\"ga", 31);
    close(sv[CLIENT]);
    sv[CLIENT] = -1;
    char got[128];
    int64_t t0 = now_ms();
    size_t n = take_all(&io, got, sizeof got, sizeof got);
    REQUIRE(now_ms() - t0 < 1000); /* the end is seen at once, not after idle_ms */
    REQUIRE_EQ(n, 31);
    REQUIRE(memcmp(got, "{\"game\":\"nim\",\"piles\":[1]}\n{\"ga", 31) == 0);
    REQUIRE(io.failed);
    REQUIRE_EQ(gr_sock_take(&io, got, sizeof got), 0);
    REQUIRE(!gr_sock_wait_body(&io));
    REQUIRE(!gr_sock_send(&io, "x\n", 2, false));
    gr_sock_close(&io);
    unpair();
}
END_TEST

START_TEST(test_idle_client_and_stop)
{
    pair();
    gr_sock_io io;
    open_io(&io, 0, 10, 300, NULL);
    client_writes("ab", 2);
    char got[16];
    REQUIRE(gr_sock_wait_body(&io));
    REQUIRE_EQ(gr_sock_take(&io, got, sizeof got), 2);
    REQUIRE_EQ(gr_sock_take(&io, got, sizeof got), 0);
    REQUIRE(!io.failed);
    /* Then the client sends nothing: after idle_ms the wait gives up. */
    int64_t t0 = now_ms();
    REQUIRE(!gr_sock_wait_body(&io));
    int64_t took = now_ms() - t0;
    if (took < 250 || took > 1500)
        ck_abort_msg("the idle wait ended after %lld ms", (long long)took);
    REQUIRE(io.failed);
    gr_sock_close(&io);

    /* A stop ends the waits at once, however long idle_ms is. */
    static _Atomic bool stop = false;
    open_io(&io, 0, 10, 60000, &stop);
    atomic_store(&stop, true);
    t0 = now_ms();
    REQUIRE(!gr_sock_wait_body(&io));
    REQUIRE(now_ms() - t0 < 500);
    gr_sock_close(&io);
    unpair();
}
END_TEST

START_TEST(test_spooled_bytes_first)
{
    pair();
    static const char pre[] = "{\"game\":\"nim\",\"piles\":[1]}\n{\"game\":\"ni";
    static const char post[] = "m\",\"piles\":[2]}\n";
    size_t k = sizeof pre - 1, m = sizeof post - 1;
    REQUIRE_EQ(fwrite(pre, 1, k, spool), k);
    REQUIRE_EQ(fflush(spool), 0);
    gr_sock_io io;
    open_io(&io, (off_t)k, m, 2000, NULL);
    /* The socket's bytes are there already: the spool's still come first. */
    client_writes(post, m);
    struct pollfd p = { .fd = sv[SERVER], .events = POLLIN };
    REQUIRE_EQ(poll(&p, 1, 1000), 1);
    char got[128];
    REQUIRE_EQ(gr_sock_take(&io, got, 10), 10);
    REQUIRE(memcmp(got, pre, 10) == 0);
    REQUIRE_EQ(io.left, m); /* nothing read from the socket yet */
    size_t n = 10 + take_all(&io, got + 10, sizeof got - 10, 7);
    REQUIRE(!io.failed);
    REQUIRE_EQ(n, k + m);
    REQUIRE(memcmp(got, pre, k) == 0);
    REQUIRE(memcmp(got + k, post, m) == 0);
    gr_sock_close(&io);
    unpair();
}
END_TEST

START_TEST(test_close_ends_both_ways)
{
    pair();
    gr_sock_io io;
    open_io(&io, 0, 5, 2000, NULL);
    REQUIRE(gr_sock_send(&io, "0\r\n\r\n", 5, true));
    gr_sock_close(&io);
    REQUIRE_EQ(io.fd, -1);
    /* The caller's own descriptor is still open, yet the client sees the
     * end: the socket was shut down, not only our duplicate closed. */
    client_reads_exactly("0\r\n\r\n", 5);
    struct pollfd p = { .fd = sv[CLIENT], .events = POLLIN };
    REQUIRE_EQ(poll(&p, 1, 1000), 1);
    char b[4];
    REQUIRE_EQ(recv(sv[CLIENT], b, sizeof b, MSG_DONTWAIT), 0);
    errno = 0;
    REQUIRE_EQ(send(sv[CLIENT], "x", 1, MSG_NOSIGNAL | MSG_DONTWAIT), -1);
    REQUIRE_EQ(errno, EPIPE);
    unpair();
}
END_TEST

/* While a send waits for the client to read, the body that arrives is
 * received into the spool (the client is never held back by the server's
 * own sending), then answered from there in order; once answering caught
 * up with a spool past 1 MiB, the spool is emptied. */
enum { BIG_BODY = 1536 * 1024, BIG_ANSWER = 2 * 1024 * 1024, CLIENT_SNDBUF = 64 * 1024 };

typedef struct client_job {
    const char *body;
    size_t answer_len;
    size_t read;   /* answer bytes the client read */
    bool ok;
} client_job;

/* The client sends its whole body first, and only then reads. */
static void *client_thread(void *arg)
{
    client_job *j = arg;
    size_t sent = 0;
    while (sent < BIG_BODY) {
        ssize_t w = send(sv[CLIENT], j->body + sent, BIG_BODY - sent, MSG_NOSIGNAL);
        if (w <= 0)
            return NULL;
        sent += (size_t)w;
    }
    static char buf[65536];
    for (;;) {
        struct pollfd p = { .fd = sv[CLIENT], .events = POLLIN };
        if (poll(&p, 1, 3000) <= 0)
            return NULL;
        ssize_t r = recv(sv[CLIENT], buf, sizeof buf, 0);
        if (r <= 0)
            break;
        j->read += (size_t)r;
        if (j->read >= j->answer_len)
            break;
    }
    j->ok = j->read == j->answer_len;
    return NULL;
}

START_TEST(test_spool_while_send_waits)
{
    pair();
    char *body = malloc(BIG_BODY), *answer = malloc(BIG_ANSWER), *got = malloc(BIG_BODY);
    REQUIRE(body && answer && got);
    int sndbuf = CLIENT_SNDBUF;
    REQUIRE_EQ(setsockopt(sv[CLIENT], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf), 0);
    for (size_t i = 0; i < BIG_BODY; i++)
        body[i] = (i % 61 == 60) ? '\n' : (char)('a' + (i * 7 + i / 61) % 26);
    memset(answer, 'z', BIG_ANSWER);
    gr_sock_io io;
    open_io(&io, 0, BIG_BODY, 2000, NULL);
    char size_line[16];
    int sl = snprintf(size_line, sizeof size_line, "%x\r\n", (unsigned)BIG_ANSWER);
    client_job job = { .body = body, .answer_len = (size_t)sl + BIG_ANSWER + 2 };
    pthread_t t;
    REQUIRE_EQ(pthread_create(&t, NULL, client_thread, &job), 0);
    /* The client reads nothing until its body is sent; the send can only
     * finish because the body is spooled meanwhile. */
    REQUIRE(gr_sock_send(&io, answer, BIG_ANSWER, false));
    pthread_join(t, NULL);
    REQUIRE(job.ok);
    REQUIRE(!io.failed);
    /* The client's sends returned with at most its send buffer of the
     * body still in the socket; all the rest had to be spooled. */
    if (io.received + (off_t)io.left != BIG_BODY || io.received < BIG_BODY - 4 * CLIENT_SNDBUF)
        ck_abort_msg("%lld bytes spooled, %llu to come", (long long)io.received, (unsigned long long)io.left);
    struct stat st;
    REQUIRE_EQ(fstat(fileno(spool), &st), 0);
    REQUIRE_EQ(st.st_size, io.received);
    size_t n = take_all(&io, got, BIG_BODY, 100000);
    REQUIRE_EQ(n, BIG_BODY);
    REQUIRE(memcmp(got, body, BIG_BODY) == 0);
    /* Caught up with more than 1 MiB spooled: the spool is emptied (the
     * rest came straight from the socket). */
    REQUIRE_EQ(io.received, 0);
    REQUIRE_EQ(io.answered, 0);
    REQUIRE_EQ(fstat(fileno(spool), &st), 0);
    REQUIRE_EQ(st.st_size, 0);
    gr_sock_close(&io);
    free(body);
    free(answer);
    free(got);
    unpair();
}
END_TEST

static Suite *stream_socket_suite(void)
{
    Suite *s = suite_create("stream_socket");
    TCase *tc = tcase_create("socketpair");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_answer_framing);
    tcase_add_test(tc, test_body_in_pieces);
    tcase_add_test(tc, test_body_cut_short);
    tcase_add_test(tc, test_idle_client_and_stop);
    tcase_add_test(tc, test_spooled_bytes_first);
    tcase_add_test(tc, test_close_ends_both_ways);
    tcase_add_test(tc, test_spool_while_send_waits);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(stream_socket_suite());
}
