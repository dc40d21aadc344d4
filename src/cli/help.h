/* SPDX-License-Identifier: MIT */
/* The help texts of `grundy`: one entry per command, the one place that
 * documents its options and exit statuses (the man page follows them). */
#ifndef GRUNDY_CLI_HELP_H
#define GRUNDY_CLI_HELP_H

#include <stdio.h>

typedef struct gr_cli_help_entry {
    const char *command; /* "query", "tables build", ... */
    const char *summary; /* one line for `grundy --help` */
    const char *text;    /* `grundy COMMAND --help` */
} gr_cli_help_entry;

/* The entry of `command`, or NULL. */
const gr_cli_help_entry *gr_cli_help_find(const char *command);

/* `grundy --help`: the commands with their summaries, and the global options. */
void gr_cli_help_all(FILE *to);

/* `grundy --version`: "grundy VERSION". */
void gr_cli_version(FILE *to);

#endif
