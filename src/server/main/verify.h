/* SPDX-License-Identifier: MIT */
/* The table file kept honest while the daemon runs. The file is meant to be
 * replaced by rename (a new inode; SIGHUP maps it), never edited in place:
 * the mapping shares the file's pages, so an edit in place changes them
 * under the daemon, and a truncation makes reading them a SIGBUS
 * (tables/guard.h turns that into a page of zeros and a fault count).
 *
 * The verifier thread re-checksums every section of the current tables
 * each --verify-interval seconds (and SIGHUP does so before it reloads),
 * and looks for new faults every GR_VERIFY_FAULT_MS. A section that changed
 * or faulted is no longer used (the games compute without it; a query
 * that read it while it faulted is answered 503), is logged
 * (event=tables_changed), listed by /readyz (tables_off) and counted by
 * /metrics; the verifier then tries to map the file again, which succeeds
 * only when it is a valid table file once more. So the window in which an
 * edit in place can change answers is at most --verify-interval; a
 * truncation is caught at its first read. */
#ifndef GRUNDY_SERVER_VERIFY_H
#define GRUNDY_SERVER_VERIFY_H

#include <stddef.h>

#include "request.h"

#define GR_VERIFY_FAULT_MS 100

typedef struct gr_verifier gr_verifier;

gr_verifier *gr_verifier_start(server_state *st);
void gr_verifier_stop(gr_verifier *v);

/* Re-checks the current tables now (SIGHUP); returns the sections turned
 * off by this check. */
size_t gr_verify_now(server_state *st);

#endif
