/* SPDX-License-Identifier: MIT */
/* A libFuzzer target for the request head (method, URL, headers, length
 * fields and what follows) through the real daemon: gr_server_run, with
 * libmicrohttpd and every guard of http_guard.c, serves on loopback in a
 * thread of this process, and each input is written as it is on a new
 * connection, which is then half-closed. It aborts when:
 *
 * - the daemon neither answers (the first answer is read) nor closes within
 *   5 s of the input's end
 *   (a Transfer-Encoding it cannot read once hung until the idle timeout);
 * - what comes back does not start with an HTTP/1.x status line;
 * - a JSON answer (Content-Type application/json, with a Content-Length)
 *   is not one object, "{...}", of that length, unless it answers HEAD;
 * - every 64 inputs, and at the last, GET /healthz on a new connection is
 *   not a 200 (the daemon is wedged or lost its slots).
 *
 * - any answer on the connection, to the first request or a later one, is
 *   libmicrohttpd's own (its HTML error page, or a head sent twice where
 *   the body should start, as after a bad Content-Length): the relay
 *   answers those heads and chunks itself;
 * - the answers are not one after another, each framed by its status
 *   (1xx, 204, 304: no body), Content-Length or chunks, up to the close
 *   (a chunked NDJSON stream may end without its last chunk: that is how
 *   it reports a failure after its head, such as a body the input cut
 *   short).
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

#include "server/server.h"

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
        close(s);
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

/* Reads until the daemon closes (it does once the half-closed input is
 * answered); aborts past the receive timeout. */
static size_t read_answers(int s, char *out, size_t cap)
{
    size_t len = 0;
    while (len < cap) {
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
    }
    out[len] = '\0';
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

static void fail(const char *what, const char *at)
{
    fprintf(stderr, "fuzz_http_head: %s: %.80s\n", what, at);
    abort();
}

/* The end of the chunked body at p (within end), or NULL when cut short. */
static const char *chunked_end(const char *p, const char *end)
{
    for (;;) {
        char *after;
        unsigned long n = strtoul(p, &after, 16);
        const char *lf = memchr(after, '\n', (size_t)(end - after));
        if (!lf || after == p)
            return NULL;
        p = lf + 1;
        if (n == 0)
            return end - p >= 2 && memcmp(p, "\r\n", 2) == 0 ? p + 2 : NULL;
        if ((size_t)(end - p) < n + 2)
            return NULL;
        p += n + 2;
    }
}

/* The end of the answer at p (within end), after checking it: a status
 * line, a head, a body framed as its head says (none after HEAD), a JSON
 * body that is one object, never libmicrohttpd's own HTML error page.
 * heads: the input asked HEAD somewhere, so a body-less answer with a
 * Content-Length may be one. */
static const char *check_one_answer(const char *p, const char *end, bool heads)
{
    if (end - p < 13 || (strncmp(p, "HTTP/1.1 ", 9) != 0 && strncmp(p, "HTTP/1.0 ", 9) != 0) || p[9] < '1' ||
        p[9] > '5')
        fail("not a status line", p);
    const char *head_end = strstr(p, "\r\n\r\n");
    if (!head_end)
        fail("an answer's head is cut short", p);
    const char *body = head_end + 4;
    int status = atoi(p + 9);
    if (status < 200 || status == 204 || status == 304)
        return body;
    size_t vlen;
    const char *clen = header(p, head_end, "Content-Length", &vlen);
    const char *coding = header(p, head_end, "Transfer-Encoding", &vlen);
    const char *type = header(p, head_end, "Content-Type", &vlen);
    if (strncmp(body, "HTTP/1.", 7) == 0 && !(heads && clen))
        fail("the answer's head was sent twice", p);
    if (strncmp(body, "<html><head><title>", 19) == 0)
        fail("libmicrohttpd's own answer", p);
    if (heads && clen && (body == end || strncmp(body, "HTTP/1.", 7) == 0))
        return body; /* an answer to HEAD */
    bool chunked = coding && strncasecmp(coding, "chunked", 7) == 0;
    const char *stop = chunked ? chunked_end(body, end)
                       : clen ? (size_t)(end - body) >= strtoul(clen, NULL, 10) ? body + strtoul(clen, NULL, 10) : NULL
                              : end;
    if (!stop && chunked)
        return end; /* a stream that failed after its head (its body cut short by the input) ends so */
    if (!stop)
        fail("an answer's body is cut short", p);
    if (type && strncmp(type, "application/json", 16) == 0 && clen &&
        (stop == body || body[0] != '{' || stop[-1] != '}'))
        fail("a JSON answer is not one object", body);
    return stop;
}

static void check_answers(const char *out, size_t len, bool heads)
{
    const char *p = out, *end = out + len;
    while (p < end)
        p = check_one_answer(p, end, heads);
}

/* Whether the input holds "HEAD " anywhere: a request may start right
 * after the previous one's body, not only at the start of a line. */
static bool asks_head(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 5 <= size; i++)
        if (memcmp(data + i, "HEAD ", 5) == 0)
            return true;
    return false;
}

static void check_alive(void)
{
    int s = dial();
    static const char get[] = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    if (s < 0 || send(s, get, sizeof get - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof get - 1)) {
        fprintf(stderr, "fuzz_http_head: the daemon takes no connection\n");
        abort();
    }
    char out[1024];
    read_answers(s, out, sizeof out - 1);
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
    if (s < 0)
        abort();
    size_t sent = 0;
    while (sent < size) {
        ssize_t n = send(s, data + sent, size - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break; /* the daemon answered early and closed */
        sent += (size_t)n;
    }
    shutdown(s, SHUT_WR);
    size_t len = read_answers(s, out, sizeof out - 1);
    close(s);
    check_answers(out, len, asks_head(data, size));
    if (++runs % 64 == 0)
        check_alive();
    return 0;
}
