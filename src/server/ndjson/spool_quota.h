/* SPDX-License-Identifier: MIT */
/* The bound on NDJSON spools, all requests together (--max-spool). Each
 * spool is an unlinked temporary file, and /tmp is often a tmpfs, so the
 * bytes are memory: --max-stream bounds one request and this the sum. A
 * stream with a Content-Length takes its whole length when its headers
 * arrive; a chunked one takes bytes as they arrive. Past the bound the
 * request is answered 503 with Retry-After. */
#ifndef GRUNDY_SERVER_SPOOL_QUOTA_H
#define GRUNDY_SERVER_SPOOL_QUOTA_H

#include <stdbool.h>
#include <stdint.h>

/* Sets the bound (once, before serving); 0 means none. */
void gr_spool_quota_set(uint64_t max);
uint64_t gr_spool_quota_max(void);
uint64_t gr_spool_quota_used(void);

/* Takes n bytes of the bound; false (nothing taken) when they do not fit. */
bool gr_spool_quota_take(uint64_t n);
void gr_spool_quota_give(uint64_t n);

#endif
