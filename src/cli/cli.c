/* SPDX-License-Identifier: MIT */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "cli/healthcheck.h"
#include "cli/help.h"
#include "cli/local.h"
#include "cli/remote.h"
#include "tables/build.h"
#include "tables/tables.h"

enum { EXIT_MISUSE = 2 };

/* Long options' ids: past every character, so none is mistaken for a short option. */
enum {
    OPT_TABLES = 256, OPT_URL, OPT_TIMEOUT, OPT_JSON, OPT_HUMAN, OPT_QUIET, OPT_PROGRESS,
    OPT_GRUNDYS, OPT_OCTAL, OPT_WYTHOFF, OPT_DIVISOR, OPT_RULES,
};

#define HELP_OPTIONS { "help", no_argument, NULL, 'h' }
#define END_OPTIONS { NULL, 0, NULL, 0 }

static int misuse(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A line on stderr naming what to change; returns the misuse status. */
static int misuse(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "grundy %s: ", command);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "; see grundy %s --help\n", command);
    va_end(ap);
    return EXIT_MISUSE;
}

static void print_help(const char *command)
{
    fputs(gr_cli_help_find(command)->text, stdout);
}

/* The next option of argv (argv[0] is the command's last word), as
 * getopt_long returns it; -1 at the end. 'h' after printing the help, '?'
 * after saying what is wrong. */
static int next_option(const char *command, int argc, char **argv, const struct option *lo)
{
    int ch = getopt_long(argc, argv, ":h", lo, NULL);
    const char *word = argv[optind - 1];
    if (ch == 'h')
        print_help(command);
    else if (ch == '?' && optopt && optopt < 256)
        misuse(command, "unknown option \"-%c\"", optopt);
    else if (ch == '?')
        misuse(command, "unknown option \"%s\"", word);
    else if (ch == ':')
        misuse(command, "option \"%s\" needs a value", word);
    return ch == ':' ? '?' : ch;
}

static const char *option_name(const struct option *lo, int id)
{
    while (lo->name && lo->val != id)
        lo++;
    return lo->name ? lo->name : "?";
}

/* The options `query`, `moves` and `batch` share. */
typedef struct common_opts {
    const char *tables, *url, *timeout;
    bool json, human;
    const char *operand; /* 'JSON', - or FILE */
} common_opts;

/* 0 parsed, 1 help printed (exit 0), 2 misuse. */
static int parse_common(const char *command, int argc, char **argv, const struct option *lo,
                        common_opts *o)
{
    memset(o, 0, sizeof *o);
    optind = 1;
    opterr = 0;
    int ch;
    unsigned seen = 0; /* bit per option id: each may be given once */
    while ((ch = next_option(command, argc, argv, lo)) != -1) {
        if (ch == 'h' || ch == '?')
            return ch == 'h' ? 1 : EXIT_MISUSE;
        if (seen & (1u << (ch - OPT_TABLES)))
            return misuse(command, "option \"--%s\" given twice", option_name(lo, ch));
        seen |= 1u << (ch - OPT_TABLES);
        switch (ch) {
        case OPT_TABLES: o->tables = optarg; break;
        case OPT_URL: o->url = optarg; break;
        case OPT_TIMEOUT: o->timeout = optarg; break;
        case OPT_JSON: o->json = true; break;
        default: o->human = true; break;
        }
    }
    if (optind >= argc)
        return misuse(command, "missing argument (%s)", strcmp(command, "batch") == 0 ? "FILE or -" : "'JSON' or -");
    if (optind + 1 < argc)
        return misuse(command, "unexpected argument \"%s\" (one argument only)", argv[optind + 1]);
    o->operand = argv[optind];
    if (o->json && o->human)
        return misuse(command, "--json and --human exclude each other");
    if (o->tables && o->url)
        return misuse(command, "--tables and --url exclude each other (the service uses its own tables)");
    if (o->timeout && !o->url)
        return misuse(command, "--timeout applies to --url only");
    return 0;
}

#define COMMON_OPTIONS                                                              \
    { "tables", required_argument, NULL, OPT_TABLES },                              \
    { "url", required_argument, NULL, OPT_URL },                                    \
    { "timeout", required_argument, NULL, OPT_TIMEOUT }, HELP_OPTIONS

static int cmd_query(int argc, char **argv)
{
    static const struct option lo[] = {
        COMMON_OPTIONS, { "json", no_argument, NULL, OPT_JSON }, { "human", no_argument, NULL, OPT_HUMAN },
        END_OPTIONS,
    };
    common_opts o;
    int rc = parse_common("query", argc, argv, lo, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    bool human = o.human || (!o.json && isatty(STDOUT_FILENO));
    bool lines = strcmp(o.operand, "-") == 0;
    if (o.url) {
        gr_remote r;
        if ((rc = gr_remote_init(&r, o.url, o.timeout)) != 0)
            return rc;
        return lines ? gr_remote_query_lines(&r, stdin, human)
                     : gr_remote_query(&r, o.operand, strlen(o.operand), human, false);
    }
    gr_local l;
    if (gr_local_open(&l, o.tables))
        return 1;
    rc = lines ? gr_local_query_lines(&l, stdin, human) : gr_local_query(&l, o.operand, human);
    gr_local_close(&l);
    return rc;
}

static int cmd_moves(int argc, char **argv)
{
    static const struct option lo[] = { COMMON_OPTIONS, END_OPTIONS };
    common_opts o;
    int rc = parse_common("moves", argc, argv, lo, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (o.url) {
        gr_remote r;
        return (rc = gr_remote_init(&r, o.url, o.timeout)) != 0 ? rc : gr_remote_moves(&r, o.operand);
    }
    gr_local l;
    if (gr_local_open(&l, o.tables))
        return 1;
    rc = gr_local_moves(&l, o.operand);
    gr_local_close(&l);
    return rc;
}

/* `games [--json] [--url URL [--timeout S]]`: the catalogue. */
static int cmd_games(int argc, char **argv)
{
    static const struct option lo[] = {
        { "url", required_argument, NULL, OPT_URL }, { "timeout", required_argument, NULL, OPT_TIMEOUT },
        { "json", no_argument, NULL, OPT_JSON }, HELP_OPTIONS, END_OPTIONS,
    };
    common_opts o = { 0 };
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = next_option("games", argc, argv, lo)) != -1) {
        if (ch == 'h' || ch == '?')
            return ch == 'h' ? 0 : EXIT_MISUSE;
        if (ch == OPT_JSON)
            o.json = true;
        else
            *(ch == OPT_URL ? &o.url : &o.timeout) = optarg;
    }
    if (optind < argc)
        return misuse("games", "unexpected argument \"%s\"", argv[optind]);
    if (o.timeout && !o.url)
        return misuse("games", "--timeout applies to --url only");
    if (!o.url)
        return gr_local_games(o.json);
    gr_remote r;
    int rc = gr_remote_init(&r, o.url, o.timeout);
    return rc ? rc : gr_remote_games(&r, o.json);
}

static int batch_remote(const common_opts *o, FILE *in)
{
    gr_remote r;
    int rc = gr_remote_init(&r, o->url, o->timeout);
    if (rc || !o->json)
        return rc ? rc : gr_remote_batch_ndjson(&r, in);
    size_t len;
    char *body = gr_cli_read_all(in, &len);
    rc = body ? gr_remote_batch_json(&r, body, len) : 1;
    free(body);
    return rc;
}

static int cmd_batch(int argc, char **argv)
{
    static const struct option lo[] = { COMMON_OPTIONS, { "json", no_argument, NULL, OPT_JSON }, END_OPTIONS };
    common_opts o;
    int rc = parse_common("batch", argc, argv, lo, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    FILE *in = strcmp(o.operand, "-") == 0 ? stdin : fopen(o.operand, "rb");
    if (!in) {
        fprintf(stderr, "grundy: %s: %s\n", o.operand, strerror(errno));
        return 1;
    }
    gr_local l;
    if (o.url)
        rc = batch_remote(&o, in);
    else if (gr_local_open(&l, o.tables) == 0) {
        rc = gr_local_batch(&l, in, o.json);
        gr_local_close(&l);
    } else
        rc = 1;
    if (in != stdin)
        fclose(in);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "grundy: writing the answers: %s\n", strerror(errno));
        rc = rc ? rc : 1;
    }
    return rc;
}

static int parse_count(const char *name, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < min || v > max)
        return misuse("tables build", "%s \"%s\" must be an integer from %llu to %llu", name, text,
                      (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return 0;
}

static int build_option(gr_build_options *o, int ch, const char *value)
{
    switch (ch) {
    case OPT_GRUNDYS: return parse_count("--grundys-values", value, 2, UINT64_C(1) << 32, &o->grundys_values);
    case OPT_OCTAL: return parse_count("--octal-values", value, 64, UINT64_C(1) << 24, &o->octal_values);
    case OPT_WYTHOFF: return parse_count("--wythoff", value, 1, 8192, &o->wythoff_size);
    case OPT_RULES: {
        uint64_t n;
        if (parse_count("--rule-values", value, 64, UINT64_C(1) << 24, &n))
            return EXIT_MISUSE;
        gr_build_options_cap_rules(o, n);
        return 0;
    }
    default: return parse_count("--divisor", value, 1, UINT64_C(1) << 31, &o->divisor_max);
    }
}

static int cmd_tables_build(int argc, char **argv)
{
    static const struct option lo[] = {
        { "grundys-values", required_argument, NULL, OPT_GRUNDYS },
        { "octal-values", required_argument, NULL, OPT_OCTAL },
        { "wythoff", required_argument, NULL, OPT_WYTHOFF },
        { "divisor", required_argument, NULL, OPT_DIVISOR },
        { "rule-values", required_argument, NULL, OPT_RULES },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "progress", no_argument, NULL, OPT_PROGRESS },
        HELP_OPTIONS, END_OPTIONS,
    };
    gr_build_options o;
    gr_build_options_default(&o);
    bool quiet = false, forced = false;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = next_option("tables build", argc, argv, lo)) != -1) {
        if (ch == 'h')
            return 0;
        if (ch == OPT_QUIET || ch == OPT_PROGRESS)
            *(ch == OPT_QUIET ? &quiet : &forced) = true;
        else if (ch == '?' || build_option(&o, ch, optarg))
            return EXIT_MISUSE;
    }
    if (optind + 1 != argc)
        return misuse("tables build", optind >= argc ? "missing FILE" : "one FILE only");
    if (quiet && forced)
        return misuse("tables build", "--quiet and --progress exclude each other");
    o.progress_live = isatty(STDERR_FILENO);
    o.progress = !quiet && (forced || o.progress_live) ? stderr : NULL;
    char why[512];
    if (gr_tables_build(argv[optind], &o, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "grundy: building %s: %s\n", argv[optind], why);
    return 1;
}

static int cmd_tables_info(int argc, char **argv)
{
    static const struct option lo[] = { HELP_OPTIONS, END_OPTIONS };
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = next_option("tables info", argc, argv, lo)) != -1)
        return ch == 'h' ? 0 : EXIT_MISUSE;
    if (optind + 1 != argc)
        return misuse("tables info", optind >= argc ? "missing FILE" : "one FILE only");
    gr_tables *t;
    char why[512];
    if (gr_tables_open(argv[optind], &t, why, sizeof why) != 0) {
        fprintf(stderr, "grundy: table file %s: %s\n", argv[optind], why);
        return 1;
    }
    char *text = gr_api_tables_json(t);
    if (text)
        printf("%s\n", text);
    free(text);
    gr_tables_close(t);
    return text ? 0 : 1;
}

static bool is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* `grundy tables SUBCOMMAND ...` (argv[0] is "tables"). */
static int cmd_tables(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "build") == 0)
        return cmd_tables_build(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "info") == 0)
        return cmd_tables_info(argc - 1, argv + 1);
    if (argc == 2 && is_help(argv[1])) {
        print_help("tables build");
        putchar('\n');
        print_help("tables info");
        return 0;
    }
    fprintf(stderr, "grundy tables: %s; see grundy tables --help\n",
            argc < 2 ? "missing subcommand (build or info)" : "unknown subcommand (build or info)");
    return EXIT_MISUSE;
}

/* `grundy healthcheck ...`: --help here, the rest in healthcheck.c. */
static int cmd_healthcheck(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            print_help("healthcheck");
            return 0;
        }
    return gr_cli_healthcheck(argc + 1, argv - 1);
}

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
} commands[] = {
    { "query", cmd_query },     { "moves", cmd_moves },   { "batch", cmd_batch },
    { "games", cmd_games },     { "tables", cmd_tables },   { "healthcheck", cmd_healthcheck },
};

int gr_cli_main(int argc, char **argv)
{
    if (argc >= 2 && is_help(argv[1])) {
        gr_cli_help_all(stdout);
        return 0;
    }
    if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        gr_cli_version(stdout);
        return 0;
    }
    for (size_t i = 0; argc >= 2 && i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (argc < 2)
        fprintf(stderr, "grundy: missing command; see grundy --help\n");
    else
        fprintf(stderr, "grundy: unknown %s \"%s\"; see grundy --help\n",
                argv[1][0] == '-' ? "option" : "command", argv[1]);
    return EXIT_MISUSE;
}
