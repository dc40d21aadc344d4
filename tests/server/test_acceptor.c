/* SPDX-License-Identifier: MIT */
/* The acceptor (src/server/front/acceptor.h) on a real listening socket on
 * loopback, with no libmicrohttpd behind it (no test sends a good head):
 * the header deadline's 408, a refused first head and a bad first chunk
 * answered at once, the full table's 503, and the drain's step that closes
 * the listener. Every answer must be one whole HTTP/1.1 response with a
 * JSON error body, then the end of the connection. */
#define _GNU_SOURCE /* strcasestr */
#include <check.h>
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "acceptor.h"
#include "admission.h"

static gr_server_config cfg;
static unsigned port;

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* An upper time bound of ms, stretched by CK_TIMEOUT_MULTIPLIER where a
 * sanitizer build sets it: such a build answers the same, only slower. */
static int slack(int ms)
{
    const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
    int k = m ? atoi(m) : 1;
    return ms * (k >= 1 && k <= 100 ? k : 1);
}

static void pause_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* The configuration with quick closes; the caller overrides the rest
 * before start(). */
static void configure(void)
{
    gr_server_config_default(&cfg);
    cfg.host = "127.0.0.1";
    cfg.port = 0;
    cfg.linger_time = 1;
}

static gr_acceptor *start(void)
{
    REQUIRE_EQ(gr_admission_start(&cfg), 0);
    int fd = gr_listen_socket(&cfg, &port);
    REQUIRE(fd >= 0);
    REQUIRE(port != 0);
    gr_acceptor *a = gr_acceptor_start(&cfg, NULL, fd);
    REQUIRE(a != NULL);
    return a;
}

static void stop(gr_acceptor *a)
{
    gr_acceptor_stop(a);
    gr_admission_stop();
}

static struct sockaddr_in server_addr(void)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return sa;
}

static int dial(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    struct sockaddr_in sa = server_addr();
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
        ck_abort_msg("connect to 127.0.0.1:%u: %s", port, strerror(errno));
    return fd;
}

static void say(int fd, const char *s)
{
    REQUIRE_EQ(send(fd, s, strlen(s), MSG_NOSIGNAL), (long long)strlen(s));
}

/* What a client read: its bytes, when the first came and when the server
 * ended the connection (ms after t0; -1: not within the bound). */
typedef struct got {
    int fd;
    char buf[4096];
    size_t len;
    int64_t first_ms, eof_ms;
} got;

/* Reads every client until each has seen the end of its connection, or
 * bound_ms after t0 have passed. */
static void collect(got *g, int n, int64_t t0, int bound_ms)
{
    for (int i = 0; i < n; i++) {
        g[i].len = 0;
        g[i].first_ms = g[i].eof_ms = -1;
    }
    for (;;) {
        struct pollfd p[8];
        int idx[8], k = 0;
        for (int i = 0; i < n; i++)
            if (g[i].eof_ms < 0) {
                p[k] = (struct pollfd){ .fd = g[i].fd, .events = POLLIN };
                idx[k++] = i;
            }
        int64_t left = t0 + bound_ms - now_ms();
        if (k == 0 || left <= 0)
            return;
        int rc = poll(p, (nfds_t)k, (int)left);
        REQUIRE(rc >= 0 || errno == EINTR);
        for (int j = 0; j < k && rc > 0; j++) {
            if (!p[j].revents)
                continue;
            got *c = &g[idx[j]];
            ssize_t r = recv(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len, MSG_DONTWAIT);
            if (r > 0) {
                if (c->first_ms < 0)
                    c->first_ms = now_ms() - t0;
                c->len += (size_t)r;
                c->buf[c->len] = '\0';
                REQUIRE(c->len < sizeof c->buf - 1);
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                c->eof_ms = now_ms() - t0; /* an end, or a reset: the test's checks then fail */
                if (r < 0)
                    ck_abort_msg("client %d: %s after %zu bytes", idx[j], strerror(errno), c->len);
            }
        }
    }
}

/* One whole HTTP/1.1 response with a JSON error body, nothing after it. */
typedef struct reply {
    int status;
    char head[2048];
    char code[64];
    char message[512];
} reply;

static void parse_reply(const got *g, reply *r)
{
    memset(r, 0, sizeof *r);
    const char *end = strstr(g->buf, "\r\n\r\n");
    if (!end)
        ck_abort_msg("no whole response head in %zu bytes: \"%s\"", g->len, g->buf);
    size_t hlen = (size_t)(end - g->buf) + 2;
    REQUIRE(hlen < sizeof r->head);
    memcpy(r->head, g->buf, hlen);
    if (sscanf(g->buf, "HTTP/1.1 %3d ", &r->status) != 1)
        ck_abort_msg("status line: \"%s\"", g->buf);
    const char *cl = strcasestr(r->head, "\r\nContent-Length: ");
    REQUIRE(cl != NULL);
    size_t length = strtoul(cl + 18, NULL, 10);
    const char *body = end + 4;
    if (strlen(body) != length || g->len != (size_t)(body - g->buf) + length)
        ck_abort_msg("body of %zu bytes, Content-Length %zu: \"%s\"", strlen(body), length, body);
    REQUIRE(strcasestr(r->head, "\r\nContent-Type: application/json\r\n") != NULL);
    cJSON *j = cJSON_Parse(body);
    if (!j)
        ck_abort_msg("body is not JSON: \"%s\"", body);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(e, "message");
    REQUIRE(cJSON_IsString(code) && cJSON_IsString(message));
    snprintf(r->code, sizeof r->code, "%s", code->valuestring);
    snprintf(r->message, sizeof r->message, "%s", message->valuestring);
    cJSON_Delete(j);
}

static bool has_header(const reply *r, const char *line)
{
    char want[128];
    snprintf(want, sizeof want, "\r\n%s\r\n", line);
    return strcasestr(r->head, want) != NULL;
}

/* Waits, within a second, until the acceptor holds `pending` connections
 * waiting for their head. */
static void await_pending(gr_acceptor *a, long pending)
{
    int64_t t0 = now_ms();
    while (gr_acceptor_pending(a) != pending && now_ms() - t0 < slack(1000))
        pause_ms(2);
    REQUIRE_EQ(gr_acceptor_pending(a), pending);
}

/* The same for the connections counted by admission: an answered one
 * is counted until it closes, within its linger. */
static void await_open_count(unsigned n)
{
    int64_t t0 = now_ms();
    while (gr_admission_open_count() != n && now_ms() - t0 < slack(1000))
        pause_ms(2);
    REQUIRE_EQ(gr_admission_open_count(), n);
}

START_TEST(test_header_deadline)
{
    configure();
    cfg.header_timeout = 1;
    gr_acceptor *a = start();
    int64_t t0 = now_ms();
    got g[2];
    g[0].fd = dial();                          /* sends nothing */
    g[1].fd = dial();
    say(g[1].fd, "GET / HTTP/1.1\r\nHost:");   /* half a head */
    collect(g, 2, t0, slack(4000));
    for (int i = 0; i < 2; i++) {
        if (g[i].first_ms < 900 || g[i].first_ms > slack(3000) || g[i].eof_ms < 0)
            ck_abort_msg("client %d: answered after %lld ms, ended after %lld ms", i, (long long)g[i].first_ms,
                         (long long)g[i].eof_ms);
        reply r;
        parse_reply(&g[i], &r);
        REQUIRE_EQ(r.status, 408);
        REQUIRE(strncmp(g[i].buf, "HTTP/1.1 408 Request Timeout\r\n", 30) == 0);
        REQUIRE(strcmp(r.code, "request_timeout") == 0);
        REQUIRE(strstr(r.message, "--header-timeout") != NULL);
        REQUIRE(has_header(&r, "Connection: close"));
        REQUIRE(strcasestr(r.head, "\r\nX-Request-Id: ") != NULL);
        close(g[i].fd);
    }
    await_open_count(0);
    stop(a);
}
END_TEST

START_TEST(test_refused_heads_answered_at_once)
{
    configure();
    gr_acceptor *a = start();
    static const struct {
        const char *send;
        int status;
        const char *code;
    } CASES[] = {
        { "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505, "http_version_not_supported" },
        { "POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "bad_request" },
        /* A quote from the client's bytes must not break the JSON. */
        { "GET /healthz HTTP/1.1\r\nX\"y\\: z\r\n\r\n", 400, "bad_request" },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int64_t t0 = now_ms();
        got g = { .fd = dial() };
        say(g.fd, CASES[i].send);
        collect(&g, 1, t0, slack(3000));
        /* The answer and the end of our side come at once; the server
         * lingers for the client's bytes behind them. */
        if (g.first_ms < 0 || g.first_ms > slack(500) || g.eof_ms < 0 || g.eof_ms > slack(500))
            ck_abort_msg("head %zu: answered after %lld ms, ended after %lld ms", i, (long long)g.first_ms,
                         (long long)g.eof_ms);
        reply r;
        parse_reply(&g, &r);
        if (r.status != CASES[i].status || strcmp(r.code, CASES[i].code) != 0)
            ck_abort_msg("head %zu: %d %s, want %d %s", i, r.status, r.code, CASES[i].status, CASES[i].code);
        REQUIRE(has_header(&r, "Connection: close"));
        REQUIRE(!has_header(&r, "Retry-After: 1"));
        REQUIRE(r.message[0] != '\0');
        close(g.fd);
    }
    stop(a);
}
END_TEST

START_TEST(test_full_table)
{
    configure();
    cfg.conn_limit = 1;
    gr_acceptor *a = start();
    int silent = dial();
    await_pending(a, 1);
    REQUIRE_EQ(gr_admission_open_count(), 1);
    int64_t t0 = now_ms();
    got g = { .fd = dial() };
    collect(&g, 1, t0, slack(3000));
    if (g.first_ms < 0 || g.first_ms > slack(500) || g.eof_ms < 0)
        ck_abort_msg("answered after %lld ms, ended after %lld ms", (long long)g.first_ms, (long long)g.eof_ms);
    reply r;
    parse_reply(&g, &r);
    REQUIRE_EQ(r.status, 503);
    REQUIRE(strcmp(r.code, "overloaded") == 0);
    REQUIRE(has_header(&r, "Retry-After: 1"));
    REQUIRE(has_header(&r, "Connection: close"));
    if (!strstr(r.message, "--conn-limit"))
        ck_abort_msg("message: \"%s\"", r.message);
    close(g.fd);
    /* The refused one counted nothing; the silent one still waits,
     * unanswered (the refused one leaves the count of those waiting just
     * after its answer is sent: a moment later). */
    REQUIRE_EQ(gr_admission_open_count(), 1);
    await_pending(a, 1);
    struct pollfd p = { .fd = silent, .events = POLLIN };
    REQUIRE_EQ(poll(&p, 1, 0), 0);
    /* Once it leaves, its room is free again. */
    close(silent);
    await_pending(a, 0);
    await_open_count(0);
    int again = dial();
    await_pending(a, 1);
    p.fd = again;
    REQUIRE_EQ(poll(&p, 1, 50), 0);
    close(again);
    stop(a);
}
END_TEST

START_TEST(test_close_listener)
{
    configure();
    gr_acceptor *a = start();
    REQUIRE_EQ(gr_acceptor_pending(a), 0);
    int silent = dial();
    await_pending(a, 1);
    int64_t t0 = now_ms();
    unsigned long backlog = gr_acceptor_close_listener(a);
    int64_t took = now_ms() - t0;
    if (took < GR_ACCEPT_SETTLE_MS - 5 || took > GR_ACCEPT_SETTLE_MS + slack(400))
        ck_abort_msg("the listener closed after %lld ms", (long long)took);
    REQUIRE_EQ(backlog, 0);
    /* The port is closed: a new connection is refused. */
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    struct sockaddr_in sa = server_addr();
    errno = 0;
    REQUIRE_EQ(connect(fd, (struct sockaddr *)&sa, sizeof sa), -1);
    if (errno != ECONNREFUSED)
        ck_abort_msg("connect after the close: %s", strerror(errno));
    close(fd);
    /* The connection that was waiting for its head still is. */
    REQUIRE_EQ(gr_acceptor_pending(a), 1);
    close(silent);
    await_pending(a, 0);
    stop(a);
}
END_TEST

static Suite *acceptor_suite(void)
{
    Suite *s = suite_create("acceptor");
    TCase *tc = tcase_create("loopback");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_header_deadline);
    tcase_add_test(tc, test_refused_heads_answered_at_once);
    tcase_add_test(tc, test_full_table);
    tcase_add_test(tc, test_close_listener);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(acceptor_suite());
}
