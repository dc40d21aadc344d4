/* SPDX-License-Identifier: MIT */
#include "cli/http_client.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "grundy_version.h"

#define HEAD_MAX 16384        /* bytes of a response head */
#define BUF_BYTES 65536       /* bytes read from the socket at a time */
#define SEND_PIECE 65536      /* bytes of a streamed request body per chunk */
#define CHUNK_LINE_MAX 1024   /* bytes of a chunk-size line (with extensions) */

int64_t gr_net_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gr_net_wait(int fd, short events, int64_t deadline)
{
    for (;;) {
        int64_t left = deadline - gr_net_now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = { .fd = fd, .events = events };
        int n = poll(&p, 1, (int)left);
        if (n > 0)
            return 1;
        if (n == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

int gr_net_connect(const struct addrinfo *ai, int64_t deadline, int *err)
{
    *err = ECONNREFUSED;
    for (; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            *err = errno;
            continue;
        }
        int e = 0;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            e = errno;
            if (e == EINPROGRESS) {
                int w = gr_net_wait(fd, POLLOUT, deadline);
                socklen_t len = sizeof e;
                if (w == 0)
                    e = ETIMEDOUT;
                else if (w < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
                    e = errno;
            }
        }
        if (e == 0)
            return fd;
        *err = e;
        close(fd);
        if (e == ETIMEDOUT)
            break;
    }
    return -1;
}

/* ---- the URL ------------------------------------------------------------- */

static int url_fail(char *why, size_t n, const char *text, const char *what)
{
    snprintf(why, n, "--url \"%s\": %s; write it as http://HOST:PORT", text, what);
    return -1;
}

/* HOST or [IPv6] of rest[0 .. len) into u->host; false when malformed. */
static bool take_host(const char *rest, size_t len, gr_http_url *u, bool *v6)
{
    *v6 = len > 0 && rest[0] == '[';
    if (*v6) {
        if (len < 3 || rest[len - 1] != ']')
            return false;
        rest++;
        len -= 2;
    }
    if (len == 0 || len >= sizeof u->host)
        return false;
    for (size_t i = 0; i < len; i++)
        if (rest[i] <= ' ' || rest[i] == 0x7f || rest[i] == '@' || (!*v6 && rest[i] == ':'))
            return false;
    memcpy(u->host, rest, len);
    u->host[len] = '\0';
    return true;
}

int gr_http_url_parse(const char *text, gr_http_url *u, char *why, size_t n)
{
    memset(u, 0, sizeof *u);
    if (strncasecmp(text, "https://", 8) == 0)
        return url_fail(why, n, text, "https is not supported (only http://)");
    if (strncasecmp(text, "http://", 7) != 0)
        return url_fail(why, n, text, "it must start with http://");
    const char *auth = text + 7, *slash = strchr(auth, '/');
    size_t alen = slash ? (size_t)(slash - auth) : strlen(auth);
    /* the port follows the last ':' after any [IPv6] bracket */
    const char *close = memchr(auth, ']', alen);
    const char *colon = NULL;
    for (const char *p = close ? close : auth; p < auth + alen; p++)
        if (*p == ':')
            colon = p;
    size_t hlen = colon ? (size_t)(colon - auth) : alen;
    bool v6;
    if (!take_host(auth, hlen, u, &v6))
        return url_fail(why, n, text, "the host is missing or malformed");
    unsigned long port = 80;
    if (colon) {
        char *end;
        errno = 0;
        port = strtoul(colon + 1, &end, 10);
        if (errno || end != auth + alen || end == colon + 1 || colon[1] == '-' || port < 1 || port > 65535)
            return url_fail(why, n, text, "the port must be a number from 1 to 65535");
    }
    snprintf(u->port, sizeof u->port, "%lu", port);
    snprintf(u->authority, sizeof u->authority, "%s%s%s:%lu", v6 ? "[" : "", u->host, v6 ? "]" : "", port);
    size_t plen = slash ? strlen(slash) : 0;
    while (plen > 0 && slash[plen - 1] == '/')
        plen--;
    if (plen >= sizeof u->prefix)
        return url_fail(why, n, text, "the path is too long");
    for (size_t i = 0; i < plen; i++)
        if (slash[i] <= ' ' || slash[i] == 0x7f || slash[i] == '?' || slash[i] == '#')
            return url_fail(why, n, text, "the path may hold no spaces, controls, '?' or '#'");
    memcpy(u->prefix, slash ? slash : "", plen);
    u->prefix[plen] = '\0';
    return 0;
}

/* ---- one connection ------------------------------------------------------ */

typedef struct conn {
    int fd;
    int timeout_ms;
    char *buf; /* received bytes buf[start .. end) not yet used */
    size_t start, end;
    bool answered; /* the service answered while the request was being sent */
    char *why;
    size_t n;
} conn;

static gr_http_result fail(conn *c, gr_http_result r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static gr_http_result fail(conn *c, gr_http_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->n, fmt, ap);
    va_end(ap);
    return r;
}

/* Sends data whole; stops early (answered set) once the service has
 * something to say. 0, or -1 with errno set. */
static int send_all(conn *c, const char *data, size_t len)
{
    while (len > 0 && !c->answered) {
        int64_t deadline = gr_net_now_ms() + c->timeout_ms;
        struct pollfd p = { .fd = c->fd, .events = POLLOUT | POLLIN };
        int w = poll(&p, 1, (int)(deadline - gr_net_now_ms()));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            errno = w == 0 ? ETIMEDOUT : errno;
            return -1;
        }
        if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
            c->answered = true;
            break;
        }
        ssize_t k = send(c->fd, data, len, MSG_NOSIGNAL);
        if (k > 0) {
            data += k;
            len -= (size_t)k;
        } else if (k < 0 && errno != EAGAIN && errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

/* Reads more into the buffer: > 0 bytes, 0 at the close, -1 on an error or
 * the timeout (errno ETIMEDOUT). Moves unused bytes to the front first. */
static ssize_t fill(conn *c)
{
    if (c->start > 0) {
        memmove(c->buf, c->buf + c->start, c->end - c->start);
        c->end -= c->start;
        c->start = 0;
    }
    if (c->end == BUF_BYTES) {
        errno = ENOBUFS;
        return -1;
    }
    for (;;) {
        ssize_t k = recv(c->fd, c->buf + c->end, BUF_BYTES - c->end, 0);
        if (k >= 0) {
            c->end += (size_t)k;
            return k;
        }
        if (errno != EAGAIN && errno != EINTR)
            return -1;
        int w = gr_net_wait(c->fd, POLLIN, gr_net_now_ms() + c->timeout_ms);
        if (w <= 0) {
            errno = w == 0 ? ETIMEDOUT : errno;
            return -1;
        }
    }
}

static const char *timeout_text(void)
{
    return errno == ETIMEDOUT ? "no answer within the timeout (--timeout)" : strerror(errno);
}

/* ---- the request --------------------------------------------------------- */

static int send_chunked(conn *c, const gr_http_body *body)
{
    char *piece = malloc(SEND_PIECE + 32);
    if (!piece) {
        errno = ENOMEM;
        return -1;
    }
    int rc = 0;
    while (rc == 0 && !c->answered) {
        ssize_t k = body->read(body->ctx, piece + 16, SEND_PIECE);
        if (k < 0) {
            rc = -2;
            break;
        }
        int h = snprintf(piece, 16, "%zx\r\n", (size_t)k);
        memmove(piece + 16 - h, piece, (size_t)h); /* the size line right before the data */
        memcpy(piece + 16 + k, k ? "\r\n" : "\r\n\r\n", k ? 2 : 4);
        rc = send_all(c, piece + 16 - h, (size_t)h + (size_t)k + (k ? 2 : 4));
        if (k == 0)
            break;
    }
    free(piece);
    return rc;
}

static gr_http_result send_request(conn *c, const gr_http_url *u, const char *method, const char *path,
                                   const char *content_type, const gr_http_body *body)
{
    char head[2048];
    int len = snprintf(head, sizeof head,
                       "%s %s%s HTTP/1.1\r\nHost: %s\r\nUser-Agent: grundy/" GRUNDY_VERSION "\r\n"
                       "Accept: application/json, application/x-ndjson\r\nConnection: close\r\n",
                       method, u->prefix, path, u->authority);
    if (body && content_type)
        len += snprintf(head + len, sizeof head - (size_t)len, "Content-Type: %s\r\n", content_type);
    if (body && body->read)
        len += snprintf(head + len, sizeof head - (size_t)len, "Transfer-Encoding: chunked\r\n\r\n");
    else
        len += snprintf(head + len, sizeof head - (size_t)len, "Content-Length: %zu\r\n\r\n",
                        body ? body->len : 0);
    if ((size_t)len >= sizeof head)
        return fail(c, GR_HTTP_UNREACHABLE, "the request head is too long");
    int rc = send_all(c, head, (size_t)len);
    if (rc == 0 && body)
        rc = body->read ? send_chunked(c, body) : send_all(c, body->data, body->len);
    if (rc == -2)
        return fail(c, GR_HTTP_STOPPED, "reading the input: %s", strerror(errno));
    /* a broken pipe may follow an early answer: read it before giving up */
    if (rc < 0 && (errno == EPIPE || errno == ECONNRESET))
        c->answered = true;
    else if (rc < 0)
        return fail(c, GR_HTTP_UNREACHABLE, "sending the request: %s", timeout_text());
    return GR_HTTP_OK;
}

/* ---- the response -------------------------------------------------------- */

typedef struct head_facts {
    bool chunked;
    bool has_length;
    uint64_t length;
} head_facts;

/* The value of header `name` on the line [line, eol), or NULL. */
static const char *header_value(const char *line, const char *eol, const char *name, size_t *vlen)
{
    size_t nlen = strlen(name);
    if ((size_t)(eol - line) <= nlen || strncasecmp(line, name, nlen) != 0 || line[nlen] != ':')
        return NULL;
    const char *v = line + nlen + 1;
    while (v < eol && (*v == ' ' || *v == '\t'))
        v++;
    const char *e = eol;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    *vlen = (size_t)(e - v);
    return v;
}

static bool parse_status(const char *h, int *status)
{
    if (strncmp(h, "HTTP/1.", 7) != 0 || (h[7] != '0' && h[7] != '1') || h[8] != ' ')
        return false;
    *status = 0;
    for (int i = 9; i < 12; i++) {
        if (h[i] < '0' || h[i] > '9')
            return false;
        *status = *status * 10 + (h[i] - '0');
    }
    return *status >= 100 && (h[12] == ' ' || h[12] == '\r' || h[12] == '\n');
}

static bool parse_headers(const char *h, const char *end, gr_http_response *resp, head_facts *f)
{
    const char *first_end = strchr(h, '\n'); /* NULL: the status line alone */
    for (const char *line = first_end ? first_end + 1 : end; line < end; ) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        eol = eol ? eol : end;
        size_t vlen;
        const char *v;
        if ((v = header_value(line, eol, "Content-Type", &vlen)) != NULL)
            snprintf(resp->content_type, sizeof resp->content_type, "%.*s", (int)vlen, v);
        else if ((v = header_value(line, eol, "Transfer-Encoding", &vlen)) != NULL)
            f->chunked = vlen >= 7 && strncasecmp(v + vlen - 7, "chunked", 7) == 0;
        else if ((v = header_value(line, eol, "Content-Length", &vlen)) != NULL) {
            uint64_t x = 0;
            for (size_t i = 0; i < vlen; i++) {
                if (v[i] < '0' || v[i] > '9' || x > UINT64_MAX / 10 - 1)
                    return false;
                x = x * 10 + (uint64_t)(v[i] - '0');
            }
            if (vlen == 0 || (f->has_length && f->length != x))
                return false;
            f->has_length = true;
            f->length = x;
        }
        line = eol + 1;
    }
    return true;
}

/* The first "\r\n\r\n" in p[0 .. len), or NULL. */
static char *head_end(char *p, size_t len)
{
    for (char *q = p; len >= 4 && (q = memchr(q, '\r', len - 3 - (size_t)(q - p))) != NULL; q++)
        if (memcmp(q, "\r\n\r\n", 4) == 0)
            return q;
    return NULL;
}

/* Reads the head (skipping 1xx answers). */
static gr_http_result read_head(conn *c, gr_http_response *resp, head_facts *f)
{
    for (;;) {
        char *end = NULL;
        while (!(end = head_end(c->buf + c->start, c->end - c->start))) {
            if (c->end - c->start >= HEAD_MAX)
                return fail(c, GR_HTTP_PROTOCOL, "the response head is longer than 16 KiB");
            ssize_t k = fill(c);
            if (k == 0)
                return fail(c, c->end == c->start ? GR_HTTP_UNREACHABLE : GR_HTTP_PROTOCOL,
                            "the connection closed before a complete response head");
            if (k < 0)
                return fail(c, GR_HTTP_UNREACHABLE, "reading the response: %s", timeout_text());
        }
        char *h = c->buf + c->start;
        if (end - h > HEAD_MAX)
            return fail(c, GR_HTTP_PROTOCOL, "the response head is longer than 16 KiB");
        *end = '\0';
        memset(f, 0, sizeof *f);
        resp->content_type[0] = '\0';
        if (!parse_status(h, &resp->status) || !parse_headers(h, end, resp, f))
            return fail(c, GR_HTTP_PROTOCOL, "the answer is not an HTTP/1.x response");
        c->start = (size_t)(end + 4 - c->buf);
        if (resp->status >= 200)
            return GR_HTTP_OK;
    }
}

/* Passes up to `want` bytes (UINT64_MAX: to the close) to the sink. */
static gr_http_result pass_body(conn *c, uint64_t want, gr_http_sink *sink, void *ctx)
{
    while (want > 0) {
        if (c->end == c->start) {
            ssize_t k = fill(c);
            if (k == 0 && want == UINT64_MAX)
                return GR_HTTP_OK;
            if (k == 0)
                return fail(c, GR_HTTP_PROTOCOL, "the connection closed in the middle of the answer");
            if (k < 0)
                return fail(c, GR_HTTP_PROTOCOL, "reading the answer: %s", timeout_text());
        }
        size_t take = c->end - c->start;
        if (want != UINT64_MAX && take > want)
            take = (size_t)want;
        if (sink(ctx, c->buf + c->start, take) != 0)
            return fail(c, GR_HTTP_STOPPED, "stopped by the reader");
        c->start += take;
        if (want != UINT64_MAX)
            want -= take;
    }
    return GR_HTTP_OK;
}

/* One CRLF-ended line of at most CHUNK_LINE_MAX bytes, consumed; *line points
 * into the buffer and is valid until the next read. */
static gr_http_result read_line(conn *c, const char **line)
{
    char *eol;
    while (!(eol = memchr(c->buf + c->start, '\n', c->end - c->start))) {
        if (c->end - c->start > CHUNK_LINE_MAX)
            return fail(c, GR_HTTP_PROTOCOL, "a chunk-size line is too long");
        ssize_t k = fill(c);
        if (k <= 0)
            return fail(c, GR_HTTP_PROTOCOL, "the chunked answer broke off");
    }
    *line = c->buf + c->start;
    c->start = (size_t)(eol + 1 - c->buf);
    return GR_HTTP_OK;
}

static int hex_digit(char ch)
{
    return ch >= '0' && ch <= '9'   ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}

/* The size of a chunk-size line: hex digits only (RFC 9112 section 7.1; no
 * sign, blank or 0x, which strtoull would take), then blanks, extensions or
 * the line end. At most 2^60 - 1, so never pass_body's "to the close". */
static bool chunk_size(const char *line, uint64_t *size)
{
    const char *p = line;
    uint64_t v = 0;
    for (int d; (d = hex_digit(*p)) >= 0; p++) {
        if (v >> 56)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *size = v;
    return p > line && (*p == ';' || *p == '\r' || *p == '\n' || *p == ' ' || *p == '\t');
}

static gr_http_result pass_chunked(conn *c, gr_http_sink *sink, void *ctx)
{
    for (;;) {
        const char *line;
        gr_http_result r = read_line(c, &line);
        if (r != GR_HTTP_OK)
            return r;
        uint64_t size;
        if (!chunk_size(line, &size))
            return fail(c, GR_HTTP_PROTOCOL, "a malformed chunk size in the answer");
        if (size == 0)
            break;
        if ((r = pass_body(c, size, sink, ctx)) != GR_HTTP_OK || (r = read_line(c, &line)) != GR_HTTP_OK)
            return r;
        if (line[0] != '\r' && line[0] != '\n')
            return fail(c, GR_HTTP_PROTOCOL, "a chunk of the answer is longer than its size");
    }
    for (;;) { /* trailers, up to the empty line */
        const char *line;
        gr_http_result r = read_line(c, &line);
        if (r != GR_HTTP_OK || line[0] == '\r' || line[0] == '\n')
            return r;
    }
}

static gr_http_result talk(conn *c, const gr_http_url *u, const char *method, const char *path,
                           const char *content_type, const gr_http_body *body,
                           gr_http_response *resp, gr_http_sink *sink, void *ctx)
{
    head_facts f;
    gr_http_result r = send_request(c, u, method, path, content_type, body);
    if (r == GR_HTTP_OK)
        r = read_head(c, resp, &f);
    if (r != GR_HTTP_OK)
        return r;
    bool bodiless = strcmp(method, "HEAD") == 0 || resp->status == 204 || resp->status == 304;
    if (bodiless)
        return GR_HTTP_OK;
    if (f.chunked)
        return pass_chunked(c, sink, ctx);
    return pass_body(c, f.has_length ? f.length : UINT64_MAX, sink, ctx);
}

gr_http_result gr_http_exchange(const gr_http_url *u, const char *method, const char *path,
                                const char *content_type, const gr_http_body *body,
                                int timeout_ms, gr_http_response *resp, gr_http_sink *sink,
                                void *ctx, char *why, size_t n)
{
    conn c = { .fd = -1, .timeout_ms = timeout_ms, .why = why, .n = n };
    memset(resp, 0, sizeof *resp);
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
    struct addrinfo *ai = NULL;
    int gai = getaddrinfo(u->host, u->port, &hints, &ai);
    if (gai != 0) {
        snprintf(why, n, "cannot resolve %s: %s", u->host, gai_strerror(gai));
        return GR_HTTP_UNREACHABLE;
    }
    int err;
    c.fd = gr_net_connect(ai, gr_net_now_ms() + timeout_ms, &err);
    freeaddrinfo(ai);
    if (c.fd < 0) {
        snprintf(why, n, "cannot connect to %s: %s", u->authority,
                 err == ECONNREFUSED ? "connection refused (is grundyd running there?)"
                 : err == ETIMEDOUT  ? "no answer within the timeout (--timeout)"
                                     : strerror(err));
        return GR_HTTP_UNREACHABLE;
    }
    c.buf = malloc(BUF_BYTES);
    gr_http_result r = c.buf ? talk(&c, u, method, path, content_type, body, resp, sink, ctx)
                             : fail(&c, GR_HTTP_UNREACHABLE, "out of memory");
    free(c.buf);
    close(c.fd);
    return r;
}
