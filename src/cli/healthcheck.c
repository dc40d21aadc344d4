/* SPDX-License-Identifier: MIT */
#include "cli/healthcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli/http_client.h"

/* The probe is for container HEALTHCHECKs and service managers on a machine
 * with no HTTP client: one GET on a loopback address, bounded in time by one
 * deadline that covers connect, send and the status line. It never resolves
 * names (only numeric addresses and "localhost"), so nothing can stretch that
 * bound. The body is not read: the status code is the answer. */

enum { HC_OK = 0, HC_FAIL = 1, HC_USAGE = 2 };

/* Sends the whole request before the deadline; 0 or -1. */
static int send_all(int fd, const char *buf, size_t len, int64_t deadline)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n > 0) {
            buf += n;
            len -= (size_t)n;
        } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            return -1;
        } else if (gr_net_wait(fd, POLLOUT, deadline) <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
    }
    return 0;
}

/* Reads until the status line is complete (or the peer closes, or the
 * buffer is full); returns the status code, or -1 with errno set. */
static int read_status(int fd, int64_t deadline)
{
    char buf[256];
    size_t used = 0;
    while (used < sizeof buf - 1 && !memchr(buf, '\n', used)) {
        ssize_t n = recv(fd, buf + used, sizeof buf - 1 - used, 0);
        if (n > 0) {
            used += (size_t)n;
        } else if (n == 0) {
            break;
        } else if (errno != EAGAIN && errno != EINTR) {
            return -1;
        } else if (gr_net_wait(fd, POLLIN, deadline) <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
    }
    buf[used] = '\0';
    /* "HTTP/1.x SSS reason" */
    if (strncmp(buf, "HTTP/1.", 7) != 0 || used < 12 || buf[8] != ' ') {
        errno = EPROTO;
        return -1;
    }
    int code = 0;
    for (int i = 9; i < 12; i++) {
        if (buf[i] < '0' || buf[i] > '9') {
            errno = EPROTO;
            return -1;
        }
        code = code * 10 + (buf[i] - '0');
    }
    return code;
}

static int usage(void)
{
    fprintf(stderr, "Usage: grundy healthcheck [--host ADDR] [--port N] [--path /PATH] [--timeout S]\n"
                    "  see grundy healthcheck --help\n");
    return HC_USAGE;
}

/* A decimal integer from text within 1..max; 0 when invalid. */
static unsigned parse_positive(const char *s, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    return errno || end == s || *end || s[0] == '-' || v < 1 || v > max ? 0 : (unsigned)v;
}

/* The address the probe connects to for a daemon bound to `host`: a wildcard
 * bind (0.0.0.0, ::, empty) is probed on the loopback of its family. */
static const char *probe_address(const char *host)
{
    if (!host || !*host || strcmp(host, "0.0.0.0") == 0 || strcasecmp(host, "localhost") == 0)
        return "127.0.0.1";
    if (strcmp(host, "::") == 0 || strcmp(host, "[::]") == 0)
        return "::1";
    return host;
}

int gr_cli_healthcheck(int argc, char **argv)
{
    const char *host = getenv("GRUNDYD_HOST"), *port_text = getenv("GRUNDYD_PORT"), *path = "/healthz";
    const char *timeout_text = "2";
    for (int i = 2; i < argc; i++) {
        const char **dst = strcmp(argv[i], "--host") == 0      ? &host
                           : strcmp(argv[i], "--port") == 0    ? &port_text
                           : strcmp(argv[i], "--path") == 0    ? &path
                           : strcmp(argv[i], "--timeout") == 0 ? &timeout_text
                                                               : NULL;
        if (!dst || i + 1 >= argc)
            return usage();
        *dst = argv[++i];
    }
    unsigned port = port_text && *port_text ? parse_positive(port_text, 65535) : 8080;
    unsigned timeout = parse_positive(timeout_text, 60);
    if (port == 0 || timeout == 0) {
        fprintf(stderr, "grundy healthcheck: the port must be 1 to 65535 and the timeout 1 to 60 seconds\n");
        return HC_USAGE;
    }
    /* The path goes into the request line as it is: no spaces, no controls. */
    bool path_ok = path[0] == '/' && strlen(path) < 1024;
    for (const char *p = path; path_ok && *p; p++)
        path_ok = *p > ' ' && *p != 0x7f;
    if (!path_ok) {
        fprintf(stderr, "grundy healthcheck: --path must start with / and hold no spaces or control characters\n");
        return HC_USAGE;
    }

    const char *addr = probe_address(host);
    char port_str[8];
    snprintf(port_str, sizeof port_str, "%u", port);
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
    struct addrinfo *ai = NULL;
    if (getaddrinfo(addr, port_str, &hints, &ai) != 0) {
        fprintf(stderr, "grundy healthcheck: \"%s\" is not a numeric address (names are not resolved)\n", addr);
        return HC_USAGE;
    }
    bool v6 = ai->ai_family == AF_INET6;

    int64_t deadline = gr_net_now_ms() + (int64_t)timeout * 1000;
    int err;
    int fd = gr_net_connect(ai, deadline, &err);
    freeaddrinfo(ai);
    int code = -1;
    if (fd >= 0) {
        char req[1280];
        int len = snprintf(req, sizeof req,
                           "GET %s HTTP/1.0\r\nHost: %s%s%s:%u\r\nUser-Agent: grundy-healthcheck\r\n"
                           "Connection: close\r\n\r\n",
                           path, v6 ? "[" : "", addr, v6 ? "]" : "", port);
        if (len > 0 && (size_t)len < sizeof req && send_all(fd, req, (size_t)len, deadline) == 0)
            code = read_status(fd, deadline);
        err = errno;
        close(fd);
    }
    char where[1200];
    snprintf(where, sizeof where, "%s%s%s:%u%s", v6 ? "[" : "", addr, v6 ? "]" : "", port, path);
    if (code == 200) {
        printf("grundy healthcheck: 200 from %s\n", where);
        return HC_OK;
    }
    if (code > 0)
        fprintf(stderr, "grundy healthcheck: %d from %s\n", code, where);
    else
        fprintf(stderr, "grundy healthcheck: %s: %s\n", where,
                err == ETIMEDOUT ? "no answer within the timeout" : strerror(err));
    return HC_FAIL;
}
