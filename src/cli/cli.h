/* The grundy command-line tool: the daemon's answers without a server. */
#ifndef GRUNDY_CLI_H
#define GRUNDY_CLI_H

#include <stdio.h>

#include "api/query.h"

/* Runs `grundy ARGS...`; returns the process exit status. */
int gr_cli_main(int argc, char **argv);

/* Answers one JSON query per line of `in` on `out`, one answer per line.
 * Blank lines are skipped. Returns the number of lines answered with an error. */
unsigned long gr_cli_query_lines(const gr_service *svc, FILE *in, FILE *out);

#endif
