/* The HTTP daemon: libmicrohttpd with an epoll thread pool, routes for the
 * API, limits on bodies and connections, and a graceful drain on SIGTERM. */
#ifndef GRUNDY_SERVER_H
#define GRUNDY_SERVER_H

#include <stdint.h>

#include "api/query.h"

typedef struct gr_server_config {
    const char *host;          /* address to bind, numeric or a name */
    uint16_t port;             /* 0 picks a free port (logged when ready) */
    unsigned threads;          /* worker threads in the pool */
    uint64_t max_body;         /* bytes; larger bodies get 413 */
    unsigned conn_limit;       /* simultaneous connections */
    unsigned conn_timeout;     /* seconds a connection may stay idle */
    unsigned drain_timeout;    /* seconds to let in-flight requests finish on SIGTERM */
    uint64_t cache_bytes;      /* bound of the cache of sequences computed on demand */
    const char *tables_path;   /* table file; NULL: the default locations */
    gr_service service;        /* per-query limits and the mapped tables */
} gr_server_config;

/* Defaults: 127.0.0.1:8080, one thread per online CPU, 1 MiB bodies, 1024
 * connections, 30 s idle timeout, 10 s drain. */
void gr_server_config_default(gr_server_config *c);

/* Parses options and GRUNDYD_* environment variables (options win).
 * Returns 0 to run, 1 when --help/--version was printed, -1 on a bad value
 * (with a message on stderr). */
int gr_server_config_parse(gr_server_config *c, int argc, char **argv);

/* Maps the table file (refusing to start, with a logged reason, when it is
 * missing or bad), serves until SIGTERM or SIGINT, then stops accepting,
 * drains in-flight requests (up to drain_timeout) and returns 0; non-zero
 * when it cannot start. The caller must have blocked SIGTERM and SIGINT in every thread. */
int gr_server_run(gr_server_config *c);

#endif
