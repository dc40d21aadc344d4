/* SPDX-License-Identifier: MIT */
/* grundy healthcheck: a bounded HTTP probe of a running grundyd. */
#ifndef GRUNDY_CLI_HEALTHCHECK_H
#define GRUNDY_CLI_HEALTHCHECK_H

/* Runs `grundy healthcheck [--host ADDR] [--port N] [--path /PATH]
 * [--timeout S]` (argv[1] is "healthcheck"): one GET of PATH (default
 * /healthz) with HTTP/1.0, answered within S seconds (default 2, 1..60) from
 * the first byte of connect to the status line. ADDR and N default to
 * $GRUNDYD_HOST and $GRUNDYD_PORT, as the daemon reads them, else 127.0.0.1
 * and 8080; a wildcard address (0.0.0.0, ::) is probed on loopback. Only
 * numeric addresses and "localhost" are accepted: no name is resolved.
 * Returns 0 when the status is 200, 1 for any other status, a refused or
 * reset connection, a malformed answer or the timeout (a line on stderr says
 * which), 2 for misuse. */
int gr_cli_healthcheck(int argc, char **argv);

#endif
