/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "grundy_version.h"
#include "access_log.h"
#include "server_config.h"

/* The version from grundy_version.h (meson's vcs_tag), for --version and
 * grundyd_build_info. */
const char *gr_server_version(void)
{
    return GRUNDY_VERSION;
}

/* Query memory: 256 MiB a query and 1 GiB in all, or, in a cgroup with
 * memory.max, an eighth of it a query and half of it in all, which leaves
 * the other half for the cache (an eighth), the table file's pages, the
 * connections and the allocator's slack. */
static void memory_defaults(gr_server_config *c)
{
    gr_limits *l = &c->service.limits;
    l->query_memory = GR_QUERY_MEMORY_DEFAULT;
    c->query_memory_total = 4 * GR_QUERY_MEMORY_DEFAULT;
    snprintf(c->query_memory_from, sizeof c->query_memory_from, "default");
    snprintf(c->query_memory_total_from, sizeof c->query_memory_total_from, "default");
    if (c->box.memory_max && c->box.memory_max / 2 < c->query_memory_total) {
        l->query_memory = c->box.memory_max / 8 ? c->box.memory_max / 8 : 1;
        c->query_memory_total = c->box.memory_max / 2 ? c->box.memory_max / 2 : 1;
        snprintf(c->query_memory_from, sizeof c->query_memory_from, "1/8 of cgroup memory.max");
        snprintf(c->query_memory_total_from, sizeof c->query_memory_total_from, "1/2 of cgroup memory.max");
    }
}

void gr_server_config_default(gr_server_config *c)
{
    memset(c, 0, sizeof *c);
    gr_container_probe(&c->box);
    gr_limits_default(&c->service.limits);
    c->host = "127.0.0.1";
    c->port = 8080;
    c->threads = c->box.cpus;
    c->compute_threads = c->box.cpus;
    snprintf(c->threads_from, sizeof c->threads_from, "%s", c->box.cpus_from);
    snprintf(c->compute_threads_from, sizeof c->compute_threads_from, "%s", c->box.cpus_from);
    c->max_body = 1u << 20;
    c->conn_limit = 1024;
    c->conn_timeout = 30;
    c->header_timeout = 5;
    c->max_url = 8192;
    c->max_header = 16384;
    c->linger_bytes = UINT64_C(16) << 20;
    c->linger_time = 10;
    c->drain_timeout = 10;
    c->drain_grace = 0;
    c->verify_interval = 60;
    c->cache_bytes = UINT64_C(64) << 20;
    snprintf(c->cache_bytes_from, sizeof c->cache_bytes_from, "default");
    if (c->box.memory_max && c->box.memory_max / 8 < c->cache_bytes) {
        c->cache_bytes = c->box.memory_max / 8;
        snprintf(c->cache_bytes_from, sizeof c->cache_bytes_from, "1/8 of cgroup memory.max");
    }
    memory_defaults(c);
    c->inline_budget = 200000;
    c->queue = 64;
    c->queue_wait_ms = 2000;
    c->max_stream = UINT64_C(1) << 30;
    c->max_spool = UINT64_C(2) << 30;
    c->access_log = GR_ACCESS_TEXT;
}

/* An option: its name, environment variable, where it goes and its range.
 * kind: 'u' unsigned, 'U' uint64_t, 'p' port, 'b' on/off, 's' string,
 * 'a' the access log's format. */
typedef struct opt {
    const char *name, *env;
    int kind;
    void *dst;
    uint64_t min, max;
    const char *help;
} opt;

static int parse_switch(const opt *o, const char *text, const char *source)
{
    static const char *const on[] = { "on", "1", "true", "yes" }, *const off[] = { "off", "0", "false", "no" };
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(text, on[i]) == 0 || strcasecmp(text, off[i]) == 0) {
            *(unsigned *)o->dst = strcasecmp(text, on[i]) == 0;
            return 0;
        }
    }
    fprintf(stderr, "grundyd: %s %s=\"%s\" must be on or off\n", source, o->name, text);
    return -1;
}

/* The access log's format: json, text, or a switch (on is text). */
static int parse_access_format(const opt *o, const char *text, const char *source)
{
    static const char *const names[] = { "json", "text", "on", "1", "true", "yes", "off", "0", "false", "no" };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcasecmp(text, names[i]) == 0) {
            *(unsigned *)o->dst = i == 0 ? GR_ACCESS_JSON : i < 6 ? GR_ACCESS_TEXT : GR_ACCESS_OFF;
            return 0;
        }
    }
    fprintf(stderr, "grundyd: %s %s=\"%s\" must be on, off or json\n", source, o->name, text);
    return -1;
}

static int parse_value(const opt *o, const char *text, const char *source)
{
    if (o->kind == 's') {
        *(const char **)o->dst = text;
        return 0;
    }
    if (o->kind == 'b')
        return parse_switch(o, text, source);
    if (o->kind == 'a')
        return parse_access_format(o, text, source);
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

static void usage(const opt *opts, size_t n)
{
    printf("Usage: grundyd [OPTIONS]\n"
           "Serves combinatorial-game analysis over HTTP/JSON: POST /v1/analyze, POST /v1/batch\n"
           "(JSON, or NDJSON with Content-Type: application/x-ndjson), GET /v1/games,\n"
           "GET /v1/tables, GET /healthz, GET /readyz, GET /metrics, GET /openapi.yaml,\n"
           "and the playground page at GET /.\n\n");
    for (size_t i = 0; i < n; i++) {
        const char *arg = opts[i].kind == 'b' ? "on|off" : opts[i].kind == 'a' ? "on|off|json" : opts[i].kind == 's' ? "TEXT" : "N";
        printf("  --%s %s\n", opts[i].name, arg);
        printf("        %s (%s)\n", opts[i].help, opts[i].env);
    }
    printf("  --help     this text\n  --version  the version\n\n"
           "Options win over environment variables. SIGHUP re-maps the table file: requests in\n"
           "flight finish on the old tables, and a bad file is refused with a log line (the\n"
           "old tables stay). SIGTERM or SIGINT turns /readyz 503, keeps accepting for\n"
           "--drain-grace, then stops accepting, lets in-flight requests finish within\n"
           "--drain-timeout, answers those still running 503, and exits 0.\n\n"
           "Each connection's first request head is judged before libmicrohttpd reads it: a\n"
           "malformed one gets a JSON error. Later heads on a keep-alive connection are\n"
           "libmicrohttpd's to parse; what it refuses there it answers itself (its own HTML\n"
           "page, or none) and closes the connection.\n");
}

/* Every option; the table is the one place that documents them. */
static size_t options(gr_server_config *c, opt *o)
{
    gr_limits *l = &c->service.limits;
    const opt all[] = {
        { "host", "GRUNDYD_HOST", 's', &c->host, 0, 0, "address to bind; default 127.0.0.1" },
        { "port", "GRUNDYD_PORT", 'p', &c->port, 0, 65535, "TCP port; 0 picks a free one; default 8080" },
        { "tables", "GRUNDYD_TABLES", 's', &c->tables_path, 0, 0,
          "table file; default: grundy.tables beside the executable, then the installed data directory" },
        { "threads", "GRUNDYD_THREADS", 'u', &c->threads, 1, 1024,
          "HTTP threads; default: the CPUs the process may use (affinity, cgroup cpu.max)" },
        { "compute-threads", "GRUNDYD_COMPUTE_THREADS", 'u', &c->compute_threads, 1, 1024,
          "threads that run heavy queries; default: the CPUs the process may use" },
        { "queue", "GRUNDYD_QUEUE", 'u', &c->queue, 1, 1000000,
          "heavy queries that may wait for a compute thread; more get 503 with Retry-After; default 64" },
        { "inline-budget", "GRUNDYD_INLINE_BUDGET", 'U', &c->inline_budget, 0, UINT64_C(1) << 40,
          "compute steps a query may take on an HTTP thread; past them it moves to the compute pool; default 200000" },
        { "budget", "GRUNDYD_BUDGET", 'U', &l->budget, 1000, UINT64_C(1) << 40, "compute steps per query; default 500000000" },
        { "batch-budget", "GRUNDYD_BATCH_BUDGET", 'U', &l->batch_budget, 1000, UINT64_C(1) << 50,
          "compute steps per batch request, all its queries together; default 4 x --budget" },
        { "query-cpu-ms", "GRUNDYD_QUERY_CPU_MS", 'U', &l->query_cpu_ms, 0, UINT64_C(86400000),
          "CPU time per query in milliseconds, on the HTTP thread and the compute pool together; past it "
          "the query is a 422 limit_exceeded; 0: no limit; default 1000" },
        { "batch-cpu-ms", "GRUNDYD_BATCH_CPU_MS", 'U', &l->batch_cpu_ms, 0, UINT64_C(86400000),
          "CPU time per batch request in milliseconds, all its queries together; default 4 x --query-cpu-ms" },
        { "queue-wait-ms", "GRUNDYD_QUEUE_WAIT_MS", 'U', &c->queue_wait_ms, 0, UINT64_C(3600000),
          "milliseconds a query, batch or NDJSON stream may wait for a compute thread; past them it gets "
          "503 with Retry-After instead of running; 0: no limit; default 2000" },
        { "max-batch", "GRUNDYD_MAX_BATCH", 'U', &l->max_batch, 1, 1000000, "queries in a JSON batch; default 10000" },
        { "max-body", "GRUNDYD_MAX_BODY", 'U', &c->max_body, 64, UINT64_C(1) << 30,
          "largest request body in bytes (NDJSON batches excepted); default 1048576" },
        { "max-stream", "GRUNDYD_MAX_STREAM", 'U', &c->max_stream, 1024, UINT64_C(1) << 40,
          "largest NDJSON batch body in bytes, spooled to a temporary file; default 1073741824" },
        { "max-spool", "GRUNDYD_MAX_SPOOL", 'U', &c->max_spool, 1024, UINT64_C(1) << 44,
          "NDJSON bytes spooled at once, all requests together; past it 503 with Retry-After; at least "
          "--max-stream; default 2147483648" },
        { "max-line", "GRUNDYD_MAX_LINE", 'U', &l->max_line, 64, UINT64_C(1) << 30,
          "bytes in one NDJSON line; a longer line is answered with 413 line_too_long; default 1048576" },
        { "max-items", "GRUNDYD_MAX_ITEMS", 'U', &l->max_items, 1, 100000000, "entries in piles, stairs, tokens or heads; default 100000" },
        { "max-moves", "GRUNDYD_MAX_MOVES", 'U', &l->max_moves, 1, 65536, "entries in a subtraction set; default 4096" },
        { "max-move", "GRUNDYD_MAX_MOVE", 'U', &l->max_move, 1, 65536, "largest element of a subtraction set; default 65536" },
        { "max-nodes", "GRUNDYD_MAX_NODES", 'U', &l->max_nodes, 1, 100000000, "graph nodes and grid squares; default 1000000" },
        { "max-edges", "GRUNDYD_MAX_EDGES", 'U', &l->max_edges, 1, 100000000, "graph edges and grid moves; default 1000000" },
        { "conn-limit", "GRUNDYD_CONN_LIMIT", 'u', &c->conn_limit, 1, 1000000, "simultaneous connections; default 1024" },
        { "conn-timeout", "GRUNDYD_CONN_TIMEOUT", 'u', &c->conn_timeout, 1, 86400,
          "seconds a connection may stay idle, stall mid-request or leave its answer unread; default 30" },
        { "header-timeout", "GRUNDYD_HEADER_TIMEOUT", 'u', &c->header_timeout, 1, 3600,
          "seconds a new connection has to send its first request line and headers; then it is closed "
          "(408); later heads have --conn-timeout; default 5" },
        { "per-ip-limit", "GRUNDYD_PER_IP_LIMIT", 'u', &c->per_ip_limit, 0, 1000000,
          "simultaneous connections from one client address; more are answered 503 and closed; 0: no limit "
          "(the default: behind a proxy all clients share its address)" },
        { "max-url", "GRUNDYD_MAX_URL", 'u', &c->max_url, 256, 1u << 20,
          "bytes of a request's URL (path and query); longer ones get 414; default 8192" },
        { "max-header", "GRUNDYD_MAX_HEADER", 'u', &c->max_header, 1024, 1u << 20,
          "bytes of a request line and its headers together; more get 431; default 16384" },
        { "linger-bytes", "GRUNDYD_LINGER_BYTES", 'U', &c->linger_bytes, 0, UINT64_C(1) << 40,
          "bytes of a refused body (413, 404, ...) read and dropped so that the client sees the answer; "
          "past them the connection is closed; default 16777216" },
        { "linger-time", "GRUNDYD_LINGER_TIME", 'u', &c->linger_time, 0, 3600,
          "seconds the same may take; default 10" },
        { "drain-grace", "GRUNDYD_DRAIN_GRACE", 'u', &c->drain_grace, 0, 3600,
          "seconds SIGTERM keeps accepting and answering (with Connection: close, /readyz 503) before it "
          "stops accepting; default 0" },
        { "drain-timeout", "GRUNDYD_DRAIN_TIMEOUT", 'u', &c->drain_timeout, 0, 3600,
          "seconds SIGTERM waits for requests in flight once it stops accepting; past them they are "
          "cancelled and answered 503; default 10" },
        { "verify-interval", "GRUNDYD_VERIFY_INTERVAL", 'u', &c->verify_interval, 0, 86400,
          "seconds between checks of the table file's section checksums (SIGHUP checks too); a section "
          "that changed is no longer used; 0: on SIGHUP only; default 60" },
        { "cache-bytes", "GRUNDYD_CACHE_BYTES", 'U', &c->cache_bytes, 0, UINT64_C(1) << 40,
          "bytes of computed sequences and misere quotients kept for reuse; default 67108864, or 1/8 of "
          "cgroup memory.max if less" },
        { "query-memory", "GRUNDYD_QUERY_MEMORY", 'U', &l->query_memory, 0, UINT64_C(1) << 48,
          "bytes of memory one query may hold at once; past them it is a 422 memory_limit; 0: no limit; "
          "default 268435456, or 1/8 of cgroup memory.max if less, at most --query-memory-total" },
        { "query-memory-total", "GRUNDYD_QUERY_MEMORY_TOTAL", 'U', &c->query_memory_total, 0, UINT64_C(1) << 48,
          "bytes of memory all queries in flight may hold together; a query that would pass them is a 503 "
          "with Retry-After; 0: no limit; default 1073741824, or 1/2 of cgroup memory.max if less" },
        { "cors-origins", "GRUNDYD_CORS_ORIGINS", 's', &c->cors_origins, 0, 0,
          "origins allowed to call from a browser, comma-separated, or *; default none" },
        { "access-log", "GRUNDYD_ACCESS_LOG", 'a', &c->access_log, 0, 0,
          "one log line per request: on (key=value text), json (a JSON object per line) or off; default on" },
    };
    memcpy(o, all, sizeof all);
    return sizeof all / sizeof all[0];
}

enum { MAX_OPTS = 48 };

/* from[i]: where to note which option or variable set o[i], or NULL. */
enum { FROM_LEN = sizeof ((gr_server_config *)0)->threads_from };

static int parse_env(const opt *o, char *const *from, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *v = getenv(o[i].env);
        if (v && *v && parse_value(&o[i], v, "environment variable"))
            return -1;
        if (v && *v && from[i])
            snprintf(from[i], FROM_LEN, "%s", o[i].env);
    }
    return 0;
}

static int parse_args(opt *o, char *const *from, size_t n, int argc, char **argv)
{
    if (parse_env(o, from, n))
        return -1;
    struct option lopts[MAX_OPTS + 3];
    for (size_t i = 0; i < n; i++)
        lopts[i] = (struct option){ o[i].name, required_argument, NULL, (int)(256 + i) };
    lopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
    lopts[n + 1] = (struct option){ "version", no_argument, NULL, 'V' };
    lopts[n + 2] = (struct option){ NULL, 0, NULL, 0 };
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
        if (ch == 'h' || ch == 'V') {
            if (ch == 'h')
                usage(o, n);
            else
                printf("grundyd %s\n", GRUNDY_VERSION);
            return 1;
        }
        if (ch >= 256 && ch < 256 + (int)n && parse_value(&o[ch - 256], optarg, "option") == 0) {
            if (from[ch - 256])
                snprintf(from[ch - 256], FROM_LEN, "--%s", o[ch - 256].name);
            continue;
        }
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

/* A batch budget left at its default follows a changed per-query budget;
 * the batch's CPU time alike. */
static void scale_batch_budget(gr_limits *l, uint64_t default_batch, uint64_t default_batch_cpu)
{
    gr_limits d;
    gr_limits_default(&d);
    if (l->batch_budget == default_batch && l->budget != d.budget)
        l->batch_budget = l->budget * (d.batch_budget / d.budget);
    if (l->batch_cpu_ms == default_batch_cpu && l->query_cpu_ms != d.query_cpu_ms)
        l->batch_cpu_ms = l->query_cpu_ms * (d.batch_cpu_ms / d.query_cpu_ms);
}

/* A per-query memory limit left at its default shrinks to a smaller total;
 * one set above the total is refused (0, no limit of its own, is allowed:
 * the total still bounds the query). */
static int fit_query_memory(gr_server_config *c)
{
    uint64_t *query = &c->service.limits.query_memory, total = c->query_memory_total;
    bool chosen = c->query_memory_from[0] == '-' || strncmp(c->query_memory_from, "GRUNDYD_", 8) == 0;
    if (total == 0 || *query <= total)
        return 0;
    if (!chosen) {
        *query = total;
        snprintf(c->query_memory_from, sizeof c->query_memory_from, "%s", c->query_memory_total_from);
        return 0;
    }
    fprintf(stderr, "grundyd: --query-memory (%" PRIu64 ", from %s) must be from 1 to --query-memory-total "
            "(%" PRIu64 ", from %s); raise the total, or set it to 0 for no limit\n",
            *query, c->query_memory_from, total, c->query_memory_total_from);
    return -1;
}

int gr_server_config_parse(gr_server_config *c, int argc, char **argv)
{
    opt o[MAX_OPTS];
    char *from[MAX_OPTS] = { 0 };
    size_t n = options(c, o);
    for (size_t i = 0; i < n; i++)
        from[i] = o[i].dst == &c->threads ? c->threads_from
                  : o[i].dst == &c->compute_threads ? c->compute_threads_from
                  : o[i].dst == &c->cache_bytes ? c->cache_bytes_from
                  : o[i].dst == &c->service.limits.query_memory ? c->query_memory_from
                  : o[i].dst == &c->query_memory_total ? c->query_memory_total_from : NULL;
    uint64_t default_batch = c->service.limits.batch_budget;
    uint64_t default_batch_cpu = c->service.limits.batch_cpu_ms;
    int rc = parse_args(o, from, n, argc, argv);
    if (rc == 0)
        scale_batch_budget(&c->service.limits, default_batch, default_batch_cpu);
    if (rc == 0 && c->max_spool < c->max_stream) {
        fprintf(stderr, "grundyd: --max-spool (%" PRIu64 ") must be at least --max-stream (%" PRIu64 "): "
                "a stream of the largest size must fit\n", c->max_spool, c->max_stream);
        return -1;
    }
    if (rc == 0)
        rc = fit_query_memory(c);
    return rc;
}
