/* SPDX-License-Identifier: MIT */
/* A libFuzzer target for the request head (method, URL, headers, length
 * fields and what follows) through the real daemon: gr_server_run, with
 * the acceptor, admission, libmicrohttpd and every head's checks, serves on
 * loopback in a thread of this process, and each input is written as it is
 * on a new connection, which is then half-closed. It aborts when:
 *
 * - the daemon neither answers (the first answer is read) nor closes within
 *   5 s of the input's end
 *   (a Transfer-Encoding it cannot read once hung until the idle timeout);
 * - what comes back does not start with an HTTP/1.x status line;
 * - a JSON answer (Content-Type application/json, with a Content-Length)
 *   is not one object, "{...}", of that length, unless it has no body (it
 *   answers HEAD, or is a 204 or 304: RFC 9112, section 6.3);
 * - every 64 inputs, and at the last, GET /healthz on a new connection is
 *   not a 200 (the daemon is wedged or lost its slots).
 *
 * - the answer to the first request is libmicrohttpd's own (its HTML error
 *   page, or a second status line where the body should start, as after a
 *   bad Content-Length; not looked for after an answer without a body,
 *   where the next bytes are the next request's answer): the acceptor
 *   answers those heads itself. The one
 *   exception is a chunked body, whose chunks past the bytes the acceptor
 *   peeked are libmicrohttpd's to judge (README.md, "The front door").
 *
 * libmicrohttpd's answers to a later request on the connection are not
 * read (the first answer is).
 *
 * The table file is $GRUNDYD_TABLES (meson's test sets it). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "server.h"

static gr_server_config cfg;
static uint16_t port;

static void check_alive(void);

static uint16_t free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(s, (struct sockaddr *)&a, &len))
        abort();
    close(s);
    return ntohs(a.sin_port);
}

static void *serve(void *arg)
{
    (void)arg;
    if (gr_server_run(&cfg) != 0) {
        fprintf(stderr, "fuzz_http_head: the daemon did not start (GRUNDYD_TABLES=%s)\n",
                cfg.tables_path ? cfg.tables_path : "(unset)");
        abort();
    }
    return NULL;
}

static int dial(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct timeval tv = { 5, 0 };
    if (s < 0)
        abort();
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        int err = errno;
        close(s);
        errno = err;
        return -1;
    }
    return s;
}

/* Starts the daemon once: small limits so that every path is quick. */
static void start_once(void)
{
    static bool started;
    if (started)
        return;
    started = true;
    signal(SIGPIPE, SIG_IGN);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    gr_server_config_default(&cfg);
    cfg.host = "127.0.0.1";
    cfg.port = port = free_port();
    cfg.threads = 2;
    cfg.compute_threads = 1;
    cfg.tables_path = getenv("GRUNDYD_TABLES");
    cfg.access_log = 0;
    cfg.header_timeout = 2;
    cfg.conn_timeout = 1;
    cfg.max_body = 4096;
    cfg.max_url = 1024;
    cfg.max_header = 2048;
    cfg.linger_bytes = 65536;
    cfg.service.limits.budget = 100000;
    pthread_t t;
    if (pthread_create(&t, NULL, serve, NULL) != 0)
        abort();
    pthread_detach(t);
    for (int i = 0; i < 500; i++) {
        int s = dial();
        if (s >= 0) {
            close(s);
            atexit(check_alive); /* the last inputs too */
            return;
        }
        usleep(20000);
    }
    abort();
}

static const char *header(const char *head, const char *end, const char *name, size_t *vlen);

/* Whether the head [p, end) has a status code starting with code (" 1",
 * " 204 "): what follows "HTTP/1.x" on its status line. */
static bool status_is(const char *p, const char *end, const char *code)
{
    size_t n = strlen(code);
    return (size_t)(end - p) >= 8 + n && strncmp(p + 8, code, n) == 0;
}

/* Whether the answer whose head is [p, end) has no body whatever its
 * headers say (RFC 9112, section 6.3): a 204 or a 304. What follows its head
 * on the connection is the answer to the next request. */
static bool bodiless_status(const char *p, const char *end)
{
    return status_is(p, end, " 204 ") || status_is(p, end, " 304 ");
}

/* Whether out holds a whole final answer framed by its Content-Length
 * (just its head when it answers HEAD or has no body): the daemon may keep
 * the connection open for the next request after it, up to its idle
 * timeout. */
static bool answer_complete(const char *out, size_t len, bool head_request)
{
    const char *p = out;
    for (;;) {
        const char *end = strstr(p, "\r\n\r\n");
        if (!end)
            return false;
        if (status_is(p, end, " 1")) {
            p = end + 4; /* 100 Continue: the answer follows */
            continue;
        }
        if (head_request || bodiless_status(p, end))
            return true;
        size_t vlen;
        const char *clen = header(p, end, "Content-Length", &vlen);
        if (!clen)
            return false;
        return len - (size_t)(end + 4 - out) >= strtoul(clen, NULL, 10);
    }
}

/* Reads until the daemon closes or one whole answer came; aborts past the
 * receive timeout. */
static size_t read_answer(int s, char *out, size_t cap, bool head_request)
{
    size_t len = 0;
    for (;;) {
        ssize_t n = recv(s, out + len, cap - len, 0);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                fprintf(stderr, "fuzz_http_head: no answer and no close within 5 s\n");
                abort();
            }
            break; /* reset: the daemon dropped the connection */
        }
        len += (size_t)n;
        out[len] = '\0';
        if (len == cap || answer_complete(out, len, head_request))
            break;
    }
    return len;
}

/* The value of header `name` in the head [head, end), or NULL. */
static const char *header(const char *head, const char *end, const char *name, size_t *vlen)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(head, "\r\n"); p && p + 2 < end; p = strstr(p + 2, "\r\n")) {
        const char *line = p + 2;
        if ((size_t)(end - line) > nl + 1 && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (*v == ' ')
                v++;
            const char *e = strstr(v, "\r\n");
            *vlen = e ? (size_t)(e - v) : 0;
            return v;
        }
    }
    return NULL;
}

/* Where the first request line of the input [data, data + size) starts:
 * after the empty lines (LF or CRLF) a server ignores before it (RFC 9112,
 * section 2.2), as the acceptor skips them. */
static size_t request_start(const uint8_t *data, size_t size)
{
    size_t i = 0;
    for (;;) {
        if (i < size && data[i] == '\n')
            i++;
        else if (i + 1 < size && data[i] == '\r' && data[i + 1] == '\n')
            i += 2;
        else
            return i;
    }
}

/* Whether the first head of the input [data, data + size) names a
 * chunked body. */
static bool first_head_chunked(const uint8_t *data, size_t size)
{
    static const char name[] = "chunked";
    const uint8_t *end = data + size;
    for (const uint8_t *p = data; p + 1 < end; p++) {
        if ((p[0] == '\n' && p[1] == '\n') || (p + 3 < end && memcmp(p, "\r\n\r\n", 4) == 0)) {
            end = p;
            break;
        }
    }
    for (const uint8_t *p = data; p + sizeof name - 1 <= end; p++)
        if (strncasecmp((const char *)p, name, sizeof name - 1) == 0)
            return true;
    return false;
}

/* Aborts when the final answer in out (after any 1xx) is libmicrohttpd's
 * own, which the acceptor should have answered. */
static void check_not_mhd_own(const char *out, bool chunked, bool head_request)
{
    const char *p = out, *end;
    while ((end = strstr(p, "\r\n\r\n")) && status_is(p, end, " 1"))
        p = end + 4;
    if (!end || head_request || bodiless_status(p, end))
        return; /* a bodiless answer's next bytes are the next request's */
    const char *body = end + 4;
    if (strncmp(body, "HTTP/1.", 7) == 0) {
        fprintf(stderr, "fuzz_http_head: the answer's head was sent twice: %.80s\n", out);
        abort();
    }
    if (!chunked && strncmp(body, "<html><head><title>", 19) == 0) {
        fprintf(stderr, "fuzz_http_head: libmicrohttpd's own answer to a first head: %.80s\n", p);
        abort();
    }
}

static void check_answer(const char *out, size_t len, bool head_request)
{
    if (len == 0)
        return; /* closed without an answer: a head cut short by the input's end */
    if (len < 13 || (strncmp(out, "HTTP/1.1 ", 9) != 0 && strncmp(out, "HTTP/1.0 ", 9) != 0) ||
        out[9] < '1' || out[9] > '5') {
        fprintf(stderr, "fuzz_http_head: not a status line: %.40s\n", out);
        abort();
    }
    const char *end = strstr(out, "\r\n\r\n");
    size_t tlen, clen_len;
    const char *type = end ? header(out, end, "Content-Type", &tlen) : NULL;
    const char *clen = end ? header(out, end, "Content-Length", &clen_len) : NULL;
    if (head_request || (end && bodiless_status(out, end)) || !type ||
        strncmp(type, "application/json", 16) != 0 || !clen)
        return; /* no body to check (a 304 keeps its 200's Content-Type and length) */
    size_t n = strtoul(clen, NULL, 10), have = len - (size_t)(end + 4 - out);
    const char *body = end + 4;
    if (n == 0 || have < n || body[0] != '{' || body[n - 1] != '}') {
        fprintf(stderr, "fuzz_http_head: a JSON answer of %zu bytes is not one object: %.80s\n", n, body);
        abort();
    }
}

static void check_alive(void)
{
    int s = dial();
    static const char get[] = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    if (s < 0 || send(s, get, sizeof get - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof get - 1)) {
        fprintf(stderr, "fuzz_http_head: the daemon takes no connection: %s\n", strerror(errno));
        abort();
    }
    char out[1024];
    size_t len = read_answer(s, out, sizeof out - 1, false);
    out[len] = '\0';
    close(s);
    if (strncmp(out, "HTTP/1.1 200 ", 13) != 0) {
        fprintf(stderr, "fuzz_http_head: GET /healthz: %.60s\n", out);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned runs;
    static char out[1 << 20];
    start_once();
    if (size > 65536)
        return 0;
    int s = dial();
    if (s < 0) {
        fprintf(stderr, "fuzz_http_head: connecting to the daemon failed: %s\n", strerror(errno));
        abort();
    }
    size_t sent = 0;
    while (sent < size) {
        ssize_t n = send(s, data + sent, size - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break; /* the daemon answered early and closed */
        sent += (size_t)n;
    }
    shutdown(s, SHUT_WR);
    size_t start = request_start(data, size);
    bool head_request = size - start >= 5 && memcmp(data + start, "HEAD ", 5) == 0;
    size_t len = read_answer(s, out, sizeof out - 1, head_request);
    out[len] = '\0';
    close(s);
    check_answer(out, len, head_request);
    check_not_mhd_own(out, first_head_chunked(data + start, size - start), head_request);
    if (++runs % 64 == 0)
        check_alive();
    return 0;
}
