#include "cli/cli.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/analyze.h"
#include "api/batch.h"
#include "api/catalog.h"
#include "api/moves.h"
#include "api/seq_cache.h"
#include "cli/healthcheck.h"
#include "tables/build.h"
#include "tables/locate.h"
#include "tables/tables.h"

#define CLI_CACHE_BYTES (UINT64_C(64) << 20) /* as the daemon's default */

static void usage(FILE *to)
{
    fprintf(to,
            "Usage:\n"
            "  grundy query [--tables FILE] 'JSON'  answer one query, as POST /v1/analyze would\n"
            "  grundy query [--tables FILE] -       answer one JSON query per line of stdin (NDJSON);\n"
            "                                        blank lines are skipped\n"
            "  grundy moves [--tables FILE] 'JSON'  list the legal moves of a position, as POST /v1/moves would\n"
            "  grundy batch [--tables FILE] [--json] FILE|-\n"
            "                                        answer the queries of FILE (- for stdin):\n"
            "                                        one JSON query per line (NDJSON), one answer\n"
            "                                        line per input line, streamed in bounded\n"
            "                                        memory; an empty line, or one over 1 MiB,\n"
            "                                        gets an error line. --json: FILE holds\n"
            "                                        {\"queries\": [...]}, answered with one\n"
            "                                        {\"results\": [...]} as POST /v1/batch would\n"
            "  grundy tables build FILE [--grundys-values N] [--octal-values N]\n"
            "                         [--wythoff N] [--divisor N] [--quiet]\n"
            "                                        compute the table file, written atomically\n"
            "  grundy tables info FILE               validate a table file and list its sections\n"
            "  grundy healthcheck [--host ADDR] [--port N] [--path /PATH] [--timeout S]\n"
            "                                        GET /healthz (or PATH) from a running grundyd;\n"
            "                                        exit 0 only on 200 within S seconds (default 2);\n"
            "                                        ADDR and N default to $GRUNDYD_HOST, $GRUNDYD_PORT\n"
            "                                        (a wildcard address is probed on loopback)\n"
            "  grundy --help\n\n"
            "Queries are described in the README and openapi.yaml. `query` and `batch` use\n"
            "the table file the daemon would (--tables, $GRUNDYD_TABLES, beside the\n"
            "executable, or the installed one) when it exists, and compute on demand otherwise.\n"
            "Exit status: 0 success (for query and batch: every query answered); 1 some query\n"
            "got an error, the input could not be read, or a table file is bad (healthcheck:\n"
            "no 200 in time); 2 misuse.\n");
}

#define CLI_CHUNK ((size_t)1 << 16) /* bytes read from the input at a time */

/* Writes the reply as one line; returns 1 for an error reply, else 0. */
static int print_reply(FILE *out, const gr_reply *r)
{
    static const char oom[] =
        "{\"error\":{\"code\":\"overloaded\",\"message\":\"out of memory\",\"field\":null}}";
    if (r->body)
        fwrite(r->body, 1, r->len, out);
    else
        fwrite(oom, 1, sizeof oom - 1, out);
    putc('\n', out);
    return r->status == 200 ? 0 : 1;
}

static int answer_one(const gr_service *svc, const char *text, size_t len, FILE *out)
{
    gr_reply r;
    gr_api_analyze(svc, text, len, &r);
    int failed = print_reply(out, &r);
    gr_mem_free(r.body);
    return failed;
}

static bool blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            return false;
    return true;
}

/* Answers what the line reader yielded: 1 for an error line, else 0. With
 * skip_blank (`query -`) a blank line gets no answer. */
static int answer_line(const gr_service *svc, gr_line_kind k, const char *line, size_t len,
                       bool skip_blank, FILE *out)
{
    if (k == GR_LINE_OK && skip_blank && blank(line, len))
        return 0;
    gr_reply r;
    bool scoped = gr_mem_begin(); /* the line's scratch memory, released once printed */
    if (k == GR_LINE_TOO_LONG)
        gr_api_line_too_long(svc, &r);
    else
        gr_api_batch_line(svc, line, len, &r);
    int failed = print_reply(out, &r);
    gr_mem_free(r.body);
    if (scoped)
        gr_mem_end();
    return failed;
}

/* Up to cap bytes of `in`: 0 at its end, -1 on a read error. Answers
 * written so far are flushed first, since reading may wait for the writer
 * of a pipe that waits for them. Reads the descriptor directly (a pipe
 * yields what is there), and through stdio for streams without one. */
static ssize_t read_chunk(FILE *in, char *buf, size_t cap, FILE *out)
{
    fflush(out);
    int fd = fileno(in);
    if (fd < 0) {
        size_t n = fread(buf, 1, cap, in);
        return n ? (ssize_t)n : ferror(in) ? -1 : 0;
    }
    ssize_t n;
    do
        n = read(fd, buf, cap);
    while (n < 0 && errno == EINTR);
    return n;
}

/* The NDJSON loop of `query -` and `batch`: reads `in` in chunks through a
 * gr_line_reader and writes one answer line per line as soon as it is
 * complete, so memory stays bounded by the chunk, max_line and one answer
 * (a longer line gets a line_too_long error line). Returns the number of
 * error lines, plus 1 when `in` could not be read to its end or memory ran
 * out. */
static unsigned long answer_stream(const gr_service *svc, FILE *in, FILE *out, bool skip_blank,
                                   size_t max_line)
{
    gr_line_reader r;
    char *chunk = malloc(CLI_CHUNK);
    if (!chunk || gr_line_reader_init(&r, max_line) != 0) {
        free(chunk);
        fprintf(stderr, "grundy: out of memory\n");
        return 1;
    }
    unsigned long failed = 0;
    const char *line;
    size_t len;
    gr_line_kind k;
    ssize_t n;
    while ((n = read_chunk(in, chunk, CLI_CHUNK, out)) > 0) {
        gr_line_reader_feed(&r, chunk, (size_t)n);
        while ((k = gr_line_reader_next(&r, &line, &len)) != GR_LINE_NONE)
            failed += (unsigned long)answer_line(svc, k, line, len, skip_blank, out);
    }
    if ((k = gr_line_reader_finish(&r, &line, &len)) != GR_LINE_NONE)
        failed += (unsigned long)answer_line(svc, k, line, len, skip_blank, out);
    if (n < 0) {
        fprintf(stderr, "grundy: reading the input: %s\n", strerror(errno));
        failed++;
    }
    fflush(out);
    gr_line_reader_fini(&r);
    free(chunk);
    return failed;
}

/* `query -` takes lines of any length (a line is one whole query, as
 * `query 'JSON'` would take it); `batch` holds them to limits.max_line. */
unsigned long gr_cli_query_lines(const gr_service *svc, FILE *in, FILE *out)
{
    return answer_stream(svc, in, out, true, SIZE_MAX);
}

/* Opens `path`, or the default table file when path is NULL and one exists. */
static int open_tables(const char *path, gr_tables **t)
{
    char paths[4][4096], searched[256], why[512];
    *t = NULL;
    if (!path)
        path = gr_tables_locate(paths, 4, searched, sizeof searched);
    if (!path)
        return 0;
    if (gr_tables_open(path, t, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "grundy: table file %s: %s\n", path, why);
    return -1;
}

/* A service over the table file (see open_tables); 0, or -1 after saying why. */
static int open_service(const char *tables_path, gr_service *svc, gr_tables **t)
{
    if (open_tables(tables_path, t))
        return -1;
    if (gr_service_init(svc, *t, CLI_CACHE_BYTES) == 0)
        return 0;
    gr_tables_close(*t);
    fprintf(stderr, "grundy: out of memory\n");
    return -1;
}

static void close_service(gr_service *svc, gr_tables *t)
{
    gr_service_fini(svc);
    gr_tables_close(t);
}

/* `COMMAND [--tables FILE] ARG`: the service over FILE (or none) and ARG;
 * 2 after printing the usage when the words are off, 1 when the service
 * cannot be opened, else 0. */
static int open_with_arg(int argc, char **argv, gr_service *svc, gr_tables **t, const char **arg)
{
    const char *tables_path = NULL;
    int i = 2;
    if (argc >= 4 && strcmp(argv[2], "--tables") == 0) {
        tables_path = argv[3];
        i = 4;
    }
    if (argc != i + 1) {
        usage(stderr);
        return 2;
    }
    *arg = argv[i];
    return open_service(tables_path, svc, t) ? 1 : 0;
}

static int cmd_query(int argc, char **argv)
{
    gr_service svc;
    gr_tables *t;
    const char *arg;
    int rc = open_with_arg(argc, argv, &svc, &t, &arg);
    if (rc)
        return rc;
    rc = strcmp(arg, "-") == 0 ? (gr_cli_query_lines(&svc, stdin, stdout) ? 1 : 0)
                               : answer_one(&svc, arg, strlen(arg), stdout);
    close_service(&svc, t);
    return rc;
}

/* `moves [--tables FILE] 'JSON'`: the legal moves, as POST /v1/moves. */
static int cmd_moves(int argc, char **argv)
{
    gr_service svc;
    gr_tables *t;
    const char *arg;
    int rc = open_with_arg(argc, argv, &svc, &t, &arg);
    if (rc)
        return rc;
    gr_reply r;
    gr_api_moves(&svc, arg, strlen(arg), NULL, &r);
    rc = print_reply(stdout, &r);
    gr_mem_free(r.body);
    close_service(&svc, t);
    return rc;
}

/* All of `in` as one malloc'd buffer; NULL after saying why. */
static char *read_all(FILE *in, size_t *len)
{
    size_t cap = CLI_CHUNK, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (n < cap) {
            if (!ferror(in)) {
                *len = n;
                return buf;
            }
            fprintf(stderr, "grundy: reading the input: %s\n", strerror(errno));
            free(buf);
            return NULL;
        }
        char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    fprintf(stderr, "grundy: out of memory reading the input\n");
    return NULL;
}

/* `batch --json`: 0 when the batch and every query in it were answered. */
static int answer_json_batch(const gr_service *svc, FILE *in, FILE *out)
{
    size_t len;
    char *body = read_all(in, &len);
    if (!body)
        return 1;
    gr_reply r;
    gr_batch_stats stats;
    gr_api_batch(svc, body, len, &r, &stats);
    free(body);
    int failed = print_reply(out, &r) || stats.errors;
    gr_mem_free(r.body);
    return failed;
}

static int cmd_batch(int argc, char **argv)
{
    const char *tables_path = NULL, *path = NULL;
    bool json = false;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--tables") == 0 && i + 1 < argc && !tables_path)
            tables_path = argv[++i];
        else if (strcmp(argv[i], "--json") == 0 && !json)
            json = true;
        else if (!path && (strcmp(argv[i], "-") == 0 || argv[i][0] != '-'))
            path = argv[i];
        else {
            usage(stderr);
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "grundy: %s: %s\n", path, strerror(errno));
        return 1;
    }
    gr_service svc;
    gr_tables *t;
    int rc = 1;
    if (open_service(tables_path, &svc, &t) == 0) {
        size_t max_line = (size_t)svc.limits.max_line;
        rc = json ? answer_json_batch(&svc, in, stdout)
                  : answer_stream(&svc, in, stdout, false, max_line) ? 1 : 0;
        close_service(&svc, t);
    }
    if (in != stdin)
        fclose(in);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "grundy: writing the answers: %s\n", strerror(errno));
        rc = 1;
    }
    return rc;
}

static int parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < min || v > max) {
        fprintf(stderr, "grundy: \"%s\" must be an integer from %llu to %llu\n", text,
                (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    *out = v;
    return 0;
}

static int build_option(gr_build_options *o, const char *name, const char *value)
{
    if (strcmp(name, "--grundys-values") == 0)
        return parse_count(value, 2, UINT64_C(1) << 32, &o->grundys_values);
    if (strcmp(name, "--octal-values") == 0)
        return parse_count(value, 64, UINT64_C(1) << 24, &o->octal_values);
    if (strcmp(name, "--wythoff") == 0)
        return parse_count(value, 1, 8192, &o->wythoff_size);
    if (strcmp(name, "--divisor") == 0)
        return parse_count(value, 1, UINT64_C(1) << 31, &o->divisor_max);
    fprintf(stderr, "grundy: unknown option %s\n", name);
    return -1;
}

static int cmd_tables_build(int argc, char **argv)
{
    gr_build_options o;
    gr_build_options_default(&o);
    o.progress = stderr;
    const char *path = NULL;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0)
            o.progress = NULL;
        else if (argv[i][0] == '-' && argv[i][1] == '-' && i + 1 < argc) {
            if (build_option(&o, argv[i], argv[i + 1]))
                return 2;
            i++;
        } else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            usage(stderr);
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    char why[512];
    if (gr_tables_build(path, &o, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "grundy: building %s: %s\n", path, why);
    return 1;
}

static int cmd_tables_info(int argc, char **argv)
{
    if (argc != 4) {
        usage(stderr);
        return 2;
    }
    gr_tables *t;
    char why[512];
    if (gr_tables_open(argv[3], &t, why, sizeof why) != 0) {
        fprintf(stderr, "grundy: table file %s: %s\n", argv[3], why);
        return 1;
    }
    char *text = gr_api_tables_json(t);
    if (text)
        printf("%s\n", text);
    free(text);
    gr_tables_close(t);
    return text ? 0 : 1;
}

int gr_cli_main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "query") == 0)
        return cmd_query(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "moves") == 0)
        return cmd_moves(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "batch") == 0)
        return cmd_batch(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "tables") == 0 && strcmp(argv[2], "build") == 0)
        return cmd_tables_build(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "tables") == 0 && strcmp(argv[2], "info") == 0)
        return cmd_tables_info(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "healthcheck") == 0)
        return gr_cli_healthcheck(argc, argv);
    usage(stderr);
    return 2;
}
