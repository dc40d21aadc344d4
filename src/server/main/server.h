/* SPDX-License-Identifier: MIT */
/* The HTTP daemon: libmicrohttpd with an epoll thread pool, routes for the
 * API, limits on bodies and connections, and a graceful drain on SIGTERM.
 * Its configuration is server_config.h's. */
#ifndef GRUNDY_SERVER_H
#define GRUNDY_SERVER_H

#include "server_config.h"

/* Maps the table file (refusing to start, with a logged reason, when it is
 * missing or bad) and serves. SIGHUP re-maps the file (a bad one is refused
 * and logged; the old tables stay). SIGTERM or SIGINT stops accepting,
 * drains in-flight requests (up to drain_timeout) and returns 0; non-zero
 * when it cannot start. The caller must have blocked SIGTERM, SIGINT and
 * SIGHUP in every thread. */
int gr_server_run(gr_server_config *c);

#endif
