/* SPDX-License-Identifier: MIT */
/* The grundy command-line tool: the daemon's answers without a server, or
 * from a running one (--url). */
#ifndef GRUNDY_CLI_H
#define GRUNDY_CLI_H

/* Runs `grundy ARGS...`; returns the process exit status. */
int gr_cli_main(int argc, char **argv);

#endif
