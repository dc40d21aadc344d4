/* SPDX-License-Identifier: MIT */
#include "cli/help.h"

#include <string.h>

#include "grundy_version.h"

#define REMOTE_OPTIONS                                                                          \
    "  --url http://HOST:PORT  send the queries to a running grundyd instead of answering\n"   \
    "                          in-process (http:// only; a path after the port is put\n"       \
    "                          before every request path)\n"                                    \
    "  --timeout S             with --url: give up when the service takes more than S seconds\n" \
    "                          to connect, to take a piece of the request or to send the next\n" \
    "                          piece of its answer (1 to 86400; default 60)\n"

#define TABLES_OPTION                                                                           \
    "  --tables FILE           answer from this table file (default: $GRUNDYD_TABLES, else\n"  \
    "                          grundy.tables beside the executable, else the installed one;\n" \
    "                          without any, values are computed on demand)\n"

#define HELP_OPTION "  -h, --help              print this help and exit\n"

#define EXIT_REMOTE                                                                             \
    "  3  with --url: the service could not be reached or answered outside HTTP/1.1\n"         \
    "     (refused, unreachable, timed out, a broken answer, or an error status without\n"      \
    "     a JSON error body); a line on stderr says which\n"

static const gr_cli_help_entry entries[] = {
    { "query", "answer queries as POST /v1/analyze does",
      "Usage: grundy query [OPTIONS] 'JSON'\n"
      "       grundy query [OPTIONS] -\n"
      "Answers one query (the JSON argument), or one JSON query per line of stdin (-;\n"
      "blank lines are skipped), as POST /v1/analyze answers it.\n\n"
      "Output: on a terminal, the answer in words: who wins, the Grundy value (or the\n"
      "value of a score game), the winning move and the position after it, how many\n"
      "moves win and the others (up to 15), certified periods, the nim-sum as binary\n"
      "columns, and why, in sentences; an error is one line on stderr.\n"
      "Piped or redirected, the answer's JSON, one line per query (an error as its\n"
      "error body).\n\n"
      "Options:\n"
      "  --json                  JSON output, even on a terminal\n"
      "  --human                 the answer in words, even when piped\n" TABLES_OPTION
      REMOTE_OPTIONS HELP_OPTION "\n"
      "Exit status:\n"
      "  0  every query answered\n"
      "  1  some query got an error, or the input could not be read\n"
      "  2  misuse (unknown option, missing or extra argument)\n" EXIT_REMOTE },
    { "moves", "list the legal moves of a position as POST /v1/moves does",
      "Usage: grundy moves [OPTIONS] 'JSON'\n"
      "Lists the legal moves of the position, as POST /v1/moves answers the same body\n"
      "(\"limit\" and \"cursor\" in the body page through a long list). Prints the JSON\n"
      "answer, or the error body.\n\n"
      "Options:\n" TABLES_OPTION REMOTE_OPTIONS HELP_OPTION "\n"
      "Exit status:\n"
      "  0  answered\n"
      "  1  the query got an error\n"
      "  2  misuse\n" EXIT_REMOTE },
    { "batch", "answer many queries: NDJSON streamed, or one JSON batch",
      "Usage: grundy batch [OPTIONS] FILE|-\n"
      "Answers the queries of FILE (- for stdin).\n"
      "  NDJSON (the default): one JSON query per line in, one answer line per input\n"
      "  line out, in order, streamed in bounded memory; an empty line, or one over\n"
      "  1 MiB, gets an error line. With --url the lines are streamed to POST /v1/batch\n"
      "  (Content-Type: application/x-ndjson) and the answers streamed out as they come.\n"
      "  --json: FILE holds {\"queries\": [...]}, answered with one {\"results\": [...]}\n"
      "  as POST /v1/batch answers it.\n\n"
      "Options:\n"
      "  --json                  FILE is one JSON batch, not NDJSON\n" TABLES_OPTION REMOTE_OPTIONS
      HELP_OPTION "\n"
      "Exit status:\n"
      "  0  every query answered\n"
      "  1  some query got an error, the batch was refused, or FILE could not be read\n"
      "  2  misuse\n" EXIT_REMOTE },
    { "games", "list the games, or the whole catalogue as GET /v1/games does",
      "Usage: grundy games [OPTIONS]\n"
      "Lists the games one per line: the name a query's \"game\" takes, and a summary.\n"
      "With --json, the whole catalogue (fields, defaults, limits, an example query per\n"
      "game) as GET /v1/games answers it.\n\n"
      "Options:\n"
      "  --json                  the catalogue as JSON\n" REMOTE_OPTIONS HELP_OPTION "\n"
      "Exit status: 0 listed; 2 misuse; 3 with --url, the service could not be reached.\n" },
    { "tables build", "compute a table file",
      "Usage: grundy tables build [OPTIONS] FILE\n"
      "Computes the precomputed tables and writes FILE atomically (a temporary file\n"
      "renamed over FILE). On a terminal, stderr shows the progress: percent done,\n"
      "the rate of the part in progress, the time so far and the estimated time left;\n"
      "elsewhere the build is silent unless --progress is given.\n\n"
      "Options:\n"
      "  --grundys-values N      heaps 0 .. N-1 of Grundy's game (2 to 2^32; default 2^22)\n"
      "  --octal-values N        values per octal game without a certified period\n"
      "                          (64 to 2^24; default 2^16); 0.127 0.16 0.56 0.376,\n"
      "                          whose periods start later, get 128 times as many\n"
      "  --wythoff N             Wythoff values for both piles below N (1 to 8192; default 1024)\n"
      "  --divisor N             divisor-game values up to N (1 to 2^31; default 10^6)\n"
      "  --rule-values N         each section of the rule-defined subtraction sets up to\n"
      "                          heap N at most (64 to 2^24; default: squares and\n"
      "                          powers_of_two 2^20 Grundy values and 2^24 win/loss,\n"
      "                          primes 2^17 and 2^20); these parts take most of a small\n"
      "                          build's time\n"
      "  --progress              progress lines on stderr even when it is not a terminal\n"
      "                          (one line per finished part and one status line a second)\n"
      "  --quiet                 no progress, even on a terminal\n" HELP_OPTION "\n"
      "Exit status: 0 written; 1 the build or the write failed; 2 misuse.\n" },
    { "tables info", "validate a table file and list its sections",
      "Usage: grundy tables info FILE\n"
      "Validates FILE as grundyd does at startup and prints its sections and their\n"
      "facts as JSON (as GET /v1/tables answers).\n\n"
      "Options:\n" HELP_OPTION "\n"
      "Exit status: 0 valid; 1 missing or invalid (a line on stderr says why); 2 misuse.\n" },
    { "healthcheck", "probe a running grundyd",
      "Usage: grundy healthcheck [--host ADDR] [--port N] [--path /PATH] [--timeout S]\n"
      "Sends GET /healthz (or PATH) to a running grundyd and succeeds on a 200 answered\n"
      "within S seconds, counted from the start of the connection to the status line.\n\n"
      "Options:\n"
      "  --host ADDR             numeric address (or localhost; no name is resolved);\n"
      "                          default $GRUNDYD_HOST, else 127.0.0.1; a wildcard\n"
      "                          address (0.0.0.0, ::) is probed on loopback\n"
      "  --port N                default $GRUNDYD_PORT, else 8080\n"
      "  --path /PATH            default /healthz\n"
      "  --timeout S             1 to 60 seconds; default 2\n" HELP_OPTION "\n"
      "Exit status: 0 a 200 in time; 1 any other status, a refused connection, a broken\n"
      "answer or the timeout; 2 misuse.\n" },
};

const gr_cli_help_entry *gr_cli_help_find(const char *command)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (strcmp(entries[i].command, command) == 0)
            return &entries[i];
    return NULL;
}

void gr_cli_help_all(FILE *to)
{
    fprintf(to, "Usage: grundy COMMAND [OPTIONS] [ARGUMENTS]\n"
                "Combinatorial-game analysis from the command line: the answers of grundyd\n"
                "(in-process, or from a running service with --url).\n\n"
                "Commands:\n");
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        fprintf(to, "  %-14s %s\n", entries[i].command, entries[i].summary);
    fprintf(to, "\n"
                "Options:\n"
                "  -h, --help     print this help and exit\n"
                "  -V, --version  print the version and exit\n\n"
                "`grundy COMMAND --help` describes a command and its options. Queries are\n"
                "described in the README and openapi.yaml; `grundy query '{\"game\":\"nim\",\n"
                "\"piles\":[3,4,5]}'` is a first one.\n\n"
                "Exit status: 0 success; 1 a query got an error or a file is bad; 2 misuse;\n"
                "3 with --url, the service could not be reached (see each command's --help).\n");
}

void gr_cli_version(FILE *to)
{
    fprintf(to, "grundy %s\n", GRUNDY_VERSION);
}
