#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/analyze.h"
#include "api/catalog.h"
#include "api/seq_cache.h"
#include "tables/build.h"
#include "tables/locate.h"
#include "tables/tables.h"

#define CLI_CACHE_BYTES (UINT64_C(64) << 20) /* as the daemon's default */

static void usage(FILE *to)
{
    fprintf(to,
            "Usage:\n"
            "  grundy query [--tables FILE] 'JSON'  answer one query, as POST /v1/analyze would\n"
            "  grundy query [--tables FILE] -       answer one JSON query per line of stdin (NDJSON)\n"
            "  grundy tables build FILE [--grundys-values N] [--octal-values N]\n"
            "                         [--wythoff N] [--divisor N] [--quiet]\n"
            "                                        compute the table file, written atomically\n"
            "  grundy tables info FILE               validate a table file and list its sections\n"
            "  grundy --help\n\n"
            "Queries are described in the README and openapi.yaml. `query` uses the table\n"
            "file the daemon would (--tables, $GRUNDYD_TABLES, beside the executable, or the\n"
            "installed one) when it exists, and computes on demand otherwise.\n"
            "Exit status: 0 success; 1 some query got an error or a table file is bad;\n"
            "2 misuse.\n");
}

/* Writes the reply as one line; returns 1 for an error reply, else 0. */
static int print_reply(FILE *out, const gr_reply *r)
{
    if (r->body)
        fprintf(out, "%s\n", r->body);
    else
        fprintf(out, "{\"error\":{\"code\":\"overloaded\",\"message\":\"out of memory\",\"field\":null}}\n");
    return r->status == 200 ? 0 : 1;
}

static int answer_one(const gr_service *svc, const char *text, size_t len, FILE *out)
{
    gr_reply r;
    gr_api_analyze(svc, text, len, &r);
    int failed = print_reply(out, &r);
    free(r.body);
    return failed;
}

unsigned long gr_cli_query_lines(const gr_service *svc, FILE *in, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long failed = 0;
    while ((n = getline(&line, &cap, in)) >= 0) {
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (strspn(line, " \t") >= len)
            continue;
        failed += (unsigned long)answer_one(svc, line, len, out);
        fflush(out);
    }
    free(line);
    return failed;
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

static int cmd_query(int argc, char **argv)
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
    gr_service svc;
    gr_tables *t;
    if (open_tables(tables_path, &t))
        return 1;
    if (gr_service_init(&svc, t, CLI_CACHE_BYTES) != 0) {
        gr_tables_close(t);
        fprintf(stderr, "grundy: out of memory\n");
        return 1;
    }
    int rc = strcmp(argv[i], "-") == 0 ? (gr_cli_query_lines(&svc, stdin, stdout) ? 1 : 0)
                                        : answer_one(&svc, argv[i], strlen(argv[i]), stdout);
    gr_service_fini(&svc);
    gr_tables_close(t);
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
    if (argc >= 3 && strcmp(argv[1], "tables") == 0 && strcmp(argv[2], "build") == 0)
        return cmd_tables_build(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "tables") == 0 && strcmp(argv[2], "info") == 0)
        return cmd_tables_info(argc, argv);
    usage(stderr);
    return 2;
}
