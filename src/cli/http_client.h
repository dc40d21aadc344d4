/* SPDX-License-Identifier: MIT */
/* A small HTTP/1.1 client for `grundy --url`: one request per connection
 * (Connection: close) to an http:// service, over POSIX sockets.
 *
 * Bounded: every wait (connect, each send, each receive) ends after the
 * timeout; the response head may hold at most 16 KiB; chunk-size lines are
 * bounded; the body goes to a sink as it arrives, so the caller decides how
 * much of it to keep. A response with Content-Length, chunked, or delimited
 * by the close of the connection is read whole. */
#ifndef GRUNDY_CLI_HTTP_CLIENT_H
#define GRUNDY_CLI_HTTP_CLIENT_H

#include <netdb.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* http://HOST[:PORT][/PREFIX]: HOST a name, an IPv4 address or [IPv6];
 * PORT 1..65535 (default 80); PREFIX, without a trailing slash, goes before
 * every request path (a service behind a path-routing proxy). */
typedef struct gr_http_url {
    char host[256]; /* without the brackets of an IPv6 address */
    char port[6];
    char prefix[512];
    char authority[272]; /* HOST:PORT as the Host header writes it */
} gr_http_url;

/* 0, or -1 with a sentence in why[0 .. n) naming what to change. */
int gr_http_url_parse(const char *text, gr_http_url *u, char *why, size_t n);

/* Where a request body comes from: `data` and `len` in memory, or, when
 * `read` is set, pieces from read(ctx, buf, cap) (> 0 bytes, 0 at the end,
 * -1 on an error with errno set), sent with Transfer-Encoding: chunked. */
typedef struct gr_http_body {
    const char *data;
    size_t len;
    ssize_t (*read)(void *ctx, char *buf, size_t cap);
    void *ctx;
} gr_http_body;

/* Takes each piece of the response body as it arrives; returns 0, or -1 to
 * stop (the exchange then fails with why "stopped by the reader"). */
typedef int gr_http_sink(void *ctx, const char *data, size_t len);

typedef struct gr_http_response {
    int status;             /* 100 .. 599 */
    char content_type[128]; /* the Content-Type header, or "" */
} gr_http_response;

typedef enum gr_http_result {
    GR_HTTP_OK,          /* a whole response was read */
    GR_HTTP_UNREACHABLE, /* resolve, connect or send failed, or a timeout before the head */
    GR_HTTP_PROTOCOL,    /* the answer was not well-formed HTTP/1.x, or it broke off */
    GR_HTTP_STOPPED,     /* the sink or the body's reader asked to stop */
} gr_http_result;

/* Sends METHOD PREFIX+path with the body (NULL: none) and content_type, and
 * reads the response: its head into *resp before the first call of the sink,
 * its body through the sink. Each wait lasts at most timeout_ms. When the
 * service answers before the request body is sent whole (a refusal), the
 * sending stops and the answer is read. On failure why[0 .. n) says what
 * happened in words a user can act on. */
gr_http_result gr_http_exchange(const gr_http_url *u, const char *method, const char *path,
                                const char *content_type, const gr_http_body *body,
                                int timeout_ms, gr_http_response *resp, gr_http_sink *sink,
                                void *ctx, char *why, size_t n);

/* ---- socket primitives, shared with `grundy healthcheck` ----------------- */

int64_t gr_net_now_ms(void);

/* Waits for `events` on fd until the deadline (gr_net_now_ms time): 1
 * ready, 0 timed out, -1 error. */
int gr_net_wait(int fd, short events, int64_t deadline);

/* A connected non-blocking socket to the first address of `ai` that takes
 * the connection, or -1 with *err set (ETIMEDOUT when the deadline passed). */
int gr_net_connect(const struct addrinfo *ai, int64_t deadline, int *err);

#endif
