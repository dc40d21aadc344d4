/* SPDX-License-Identifier: MIT */
/* X-Request-Id: the id that links a client's request to its access-log
 * line. A client's own id is kept when it is sane: 1 to 128 characters of
 * [A-Za-z0-9._:-], so it can go into a header and a key=value log line
 * untouched. Otherwise the daemon makes one: a random 64-bit prefix drawn
 * once per process and a counter, in hex ("9f3c0a1b2c3d4e5f-1a"), unique
 * within the process and cheap. */
#ifndef GRUNDY_SERVER_REQUEST_ID_H
#define GRUNDY_SERVER_REQUEST_ID_H

#include <stdbool.h>

#define GR_REQUEST_ID_MAX 128

bool gr_request_id_sane(const char *id);

/* Writes the client's id when it is sane (NULL: none), else a new one. */
void gr_request_id_take(char out[GR_REQUEST_ID_MAX + 1], const char *client_id);

#endif
