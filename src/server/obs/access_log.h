/* SPDX-License-Identifier: MIT */
/* The access log: one line per answered request, as key=value text or as a
 * JSON object, queued through the buffered writer of log.h. */
#ifndef GRUNDY_SERVER_ACCESS_LOG_H
#define GRUNDY_SERVER_ACCESS_LOG_H

#include <stdint.h>

/* --access-log: off, text (key=value, the default) or json. */
typedef enum gr_access_format { GR_ACCESS_OFF, GR_ACCESS_TEXT, GR_ACCESS_JSON } gr_access_format;

typedef struct gr_access {
    const char *client;     /* the peer's address, or NULL */
    const char *request_id; /* or NULL */
    const char *route;      /* the route's path, or "other" */
    const char *game;       /* or NULL */
    int status;
    uint64_t bytes, duration_us;
} gr_access;

/* Text: ts=... level=info event=access client=... request_id=... route=...
 * status=... game=... bytes=... duration_us=... ("-" for what is missing).
 * JSON: {"ts":...,"level":"info","event":"access","client":...,
 * "request_id":...,"route":...,"status":N,"game":...,"bytes":N,
 * "duration_us":N} (null for what is missing), strings escaped. */
void gr_access_log(gr_access_format format, const gr_access *a);

#endif
