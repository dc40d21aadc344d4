#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/server.h"

#ifndef GRUNDY_VERSION
#define GRUNDY_VERSION "unknown"
#endif

void gr_server_config_default(gr_server_config *c)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c->host = "127.0.0.1";
    c->port = 8080;
    c->threads = cpus > 0 ? (unsigned)cpus : 1;
    c->max_body = 1u << 20;
    c->conn_limit = 1024;
    c->conn_timeout = 30;
    c->drain_timeout = 10;
    c->cache_bytes = UINT64_C(64) << 20;
    c->tables_path = NULL;
    gr_limits_default(&c->service.limits);
    c->service.tables = NULL;
}

/* A numeric option: name for messages, where to store, and its range. */
typedef struct num_opt {
    const char *name, *env;
    int kind; /* 'u' unsigned, 'U' uint64_t, 'p' port */
    void *dst;
    uint64_t min, max;
    const char *help;
} num_opt;

static int parse_num(const num_opt *o, const char *text, const char *source)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < o->min || v > o->max) {
        fprintf(stderr, "grundyd: %s %s=\"%s\" must be an integer from %" PRIu64 " to %" PRIu64 "\n",
                source, o->name, text, o->min, o->max);
        return -1;
    }
    if (o->kind == 'u')
        *(unsigned *)o->dst = (unsigned)v;
    else if (o->kind == 'p')
        *(uint16_t *)o->dst = (uint16_t)v;
    else
        *(uint64_t *)o->dst = (uint64_t)v;
    return 0;
}

static void usage(const num_opt *opts, size_t n)
{
    printf("Usage: grundyd [OPTIONS]\n"
           "Serves combinatorial-game analysis over HTTP/JSON (POST /v1/analyze, GET /healthz).\n\n"
           "  --host ADDR            address to bind (GRUNDYD_HOST; default 127.0.0.1)\n"
           "  --tables FILE          table file (GRUNDYD_TABLES; default: grundy.tables beside\n"
           "                         the executable, then the installed data directory)\n");
    for (size_t i = 0; i < n; i++)
        printf("  --%-20s %s (%s)\n", opts[i].name, opts[i].help, opts[i].env);
    printf("  --help                 this text\n  --version              the version\n\n"
           "Options win over environment variables. SIGTERM or SIGINT stops accepting\n"
           "connections, lets in-flight requests finish, and exits 0.\n");
}

int gr_server_config_parse(gr_server_config *c, int argc, char **argv)
{
    const num_opt opts[] = {
        { "port", "GRUNDYD_PORT", 'p', &c->port, 0, 65535, "TCP port; 0 picks a free one; default 8080" },
        { "threads", "GRUNDYD_THREADS", 'u', &c->threads, 1, 1024, "worker threads; default: online CPUs" },
        { "max-body", "GRUNDYD_MAX_BODY", 'U', &c->max_body, 64, UINT64_C(1) << 30, "largest request body in bytes; default 1048576" },
        { "conn-limit", "GRUNDYD_CONN_LIMIT", 'u', &c->conn_limit, 1, 1000000, "simultaneous connections; default 1024" },
        { "conn-timeout", "GRUNDYD_CONN_TIMEOUT", 'u', &c->conn_timeout, 1, 86400, "idle connection timeout in seconds; default 30" },
        { "drain-timeout", "GRUNDYD_DRAIN_TIMEOUT", 'u', &c->drain_timeout, 0, 3600, "seconds to drain on SIGTERM; default 10" },
        { "cache-bytes", "GRUNDYD_CACHE_BYTES", 'U', &c->cache_bytes, 0, UINT64_C(1) << 40, "bytes of computed sequences kept for reuse; default 67108864" },
        { "budget", "GRUNDYD_BUDGET", 'U', &c->service.limits.budget, 1000, UINT64_C(1) << 40, "compute steps per query; default 500000000" },
        { "max-items", "GRUNDYD_MAX_ITEMS", 'U', &c->service.limits.max_items, 1, 100000000, "entries in piles, stairs or tokens; default 100000" },
    };
    enum { NOPTS = sizeof opts / sizeof opts[0] };
    const char *host_env = getenv("GRUNDYD_HOST");
    if (host_env && *host_env)
        c->host = host_env;
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = getenv(opts[i].env);
        if (v && *v && parse_num(&opts[i], v, "environment variable"))
            return -1;
    }
    struct option lopts[NOPTS + 5];
    for (size_t i = 0; i < NOPTS; i++)
        lopts[i] = (struct option){ opts[i].name, required_argument, NULL, (int)(256 + i) };
    lopts[NOPTS] = (struct option){ "host", required_argument, NULL, 'H' };
    lopts[NOPTS + 1] = (struct option){ "help", no_argument, NULL, 'h' };
    lopts[NOPTS + 2] = (struct option){ "version", no_argument, NULL, 'V' };
    lopts[NOPTS + 3] = (struct option){ "tables", required_argument, NULL, 'T' };
    lopts[NOPTS + 4] = (struct option){ NULL, 0, NULL, 0 };
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(opts, NOPTS);
            return 1;
        }
        if (ch == 'V') {
            printf("grundyd %s\n", GRUNDY_VERSION);
            return 1;
        }
        if (ch == 'H' || ch == 'T') {
            *(ch == 'H' ? &c->host : &c->tables_path) = optarg;
            continue;
        }
        if (ch >= 256 && ch < 256 + (int)NOPTS && parse_num(&opts[ch - 256], optarg, "option") == 0)
            continue;
        if (ch == '?')
            fprintf(stderr, "grundyd: see grundyd --help\n");
        return -1;
    }
    if (optind < argc) {
        fprintf(stderr, "grundyd: unexpected argument \"%s\"; see grundyd --help\n", argv[optind]);
        return -1;
    }
    return 0;
}
