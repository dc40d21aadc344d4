#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

#include "api/analyze.h"

static void usage(FILE *to)
{
    fprintf(to,
            "Usage:\n"
            "  grundy query 'JSON'   answer one query, as POST /v1/analyze would\n"
            "  grundy query -        answer one JSON query per line of stdin (NDJSON)\n"
            "  grundy --help\n\n"
            "Queries are described in the README and openapi.yaml. The exit status is 0\n"
            "when every query was answered, 1 when some query got an error, 2 on misuse.\n");
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

static int answer_one(const gr_limits *l, const char *text, size_t len, FILE *out)
{
    gr_reply r;
    gr_api_analyze(l, text, len, &r);
    int failed = print_reply(out, &r);
    free(r.body);
    return failed;
}

unsigned long gr_cli_query_lines(FILE *in, FILE *out)
{
    gr_limits limits;
    gr_limits_default(&limits);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long failed = 0;
    while ((n = getline(&line, &cap, in)) >= 0) {
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (strspn(line, " \t") == len)
            continue;
        failed += (unsigned long)answer_one(&limits, line, len, out);
        fflush(out);
    }
    free(line);
    return failed;
}

int gr_cli_main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "query") != 0) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[2], "-") == 0)
        return gr_cli_query_lines(stdin, stdout) ? 1 : 0;
    gr_limits limits;
    gr_limits_default(&limits);
    return answer_one(&limits, argv[2], strlen(argv[2]), stdout);
}
