/* SPDX-License-Identifier: MIT */
/* The daemon's configuration: every option, its default and where the
 * defaults came from. Every folder of the server reads it; config.c parses
 * it from options and GRUNDYD_* variables, container.c sizes the defaults. */
#ifndef GRUNDY_SERVER_CONFIG_H
#define GRUNDY_SERVER_CONFIG_H

#include <stdint.h>

#include "query.h"
#include "container.h"

typedef struct gr_server_config {
    const char *host;          /* address to bind, numeric or a name */
    uint16_t port;             /* 0 picks a free port (logged when ready) */
    unsigned threads;          /* worker threads in the pool */
    uint64_t max_body;         /* bytes; larger bodies get 413 */
    unsigned conn_limit;       /* simultaneous connections */
    unsigned conn_timeout;     /* seconds a connection may stay idle */
    unsigned header_timeout;   /* seconds from a connection's opening to its first request head's end */
    unsigned per_ip_limit;     /* simultaneous connections from one address; 0: no limit */
    unsigned max_url;          /* bytes of the request target; longer ones get 414 */
    unsigned max_header;       /* bytes of the request line and headers; more get 431 */
    uint64_t linger_bytes;     /* bytes of a refused body read and dropped before the answer */
    unsigned linger_time;      /* seconds the same may take */
    unsigned drain_timeout;    /* seconds to let in-flight requests finish on SIGTERM, once accepting stopped */
    unsigned drain_grace;      /* seconds SIGTERM keeps accepting (with Connection: close) before that */
    uint64_t max_spool;        /* bytes of NDJSON bodies spooled at once, all requests together */
    unsigned verify_interval;  /* seconds between checksums of the mapped table file; 0: on SIGHUP only */
    uint64_t cache_bytes;      /* bound of the cache of sequences computed on demand */
    uint64_t query_memory_total; /* bytes all queries in flight may hold together (grundy/alloc.h); 0: none */
    const char *tables_path;   /* table file; NULL: the default locations */
    uint64_t inline_budget;    /* steps a query may take on an HTTP thread before it moves to the pool */
    unsigned compute_threads;  /* threads of the compute pool */
    unsigned queue;            /* heavy queries waiting for the pool; more get 503 */
    uint64_t queue_wait_ms;    /* a job that waited longer for the pool gets 503 instead of running; 0: none */
    uint64_t max_stream;       /* bytes of an NDJSON batch body (spooled to a temporary file) */
    const char *cors_origins;  /* comma-separated allowed origins, "*", or NULL for no CORS */
    unsigned access_log;       /* a gr_access_format: off, text or json */
    gr_container box;          /* the CPUs and memory the process may use */
    /* Where threads, compute_threads, cache_bytes and the two memory
     * limits came from: the option or variable that set them, or what the
     * default followed. */
    char threads_from[64], compute_threads_from[64], cache_bytes_from[64];
    char query_memory_from[64], query_memory_total_from[64];
    gr_service service;        /* per-query limits and the mapped tables */
} gr_server_config;

/* Defaults: 127.0.0.1:8080, one HTTP thread and one compute thread per
 * CPU the process may use (its affinity mask and cgroup cpu.max quota), a
 * cache of 64 MiB or an eighth of cgroup memory.max if less, 1 MiB bodies,
 * 1024 connections, 30 s idle timeout, 5 s to send a request head, no
 * per-address limit, 8 KiB URLs, 16 KiB heads, 16 MiB or 10 s of a refused
 * body read before the answer, 10 s drain, a queue of 64 heavy
 * queries waited on for at most 2 s, access log on, no CORS; query memory
 * of 256 MiB per query and 1 GiB in all, or an eighth and a half of cgroup
 * memory.max when there is one. */
void gr_server_config_default(gr_server_config *c);

/* Parses options and GRUNDYD_* environment variables (options win).
 * Returns 0 to run, 1 when --help/--version was printed, -1 on a bad value
 * (with a message on stderr). */
int gr_server_config_parse(gr_server_config *c, int argc, char **argv);

/* The version `--version` prints and grundyd_build_info reports. */
const char *gr_server_version(void);

#endif
