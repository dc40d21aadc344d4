/* SPDX-License-Identifier: MIT */
/* The guard against SIGBUS in mapped table files. A file truncated (or a
 * disk gone) under the mapping makes any read of a page past its end a
 * SIGBUS, which would kill the daemon. The handler looks the fault address
 * up among the mapped files: inside one, gr_tables_fault maps a page of
 * zeros over it (the read completes) and turns its sections off; anywhere
 * else the default action is restored and the fault repeats, fatally, as
 * before. Mappings are registered by gr_tables_open and removed by
 * gr_tables_close; the handler is installed by the first registration. */
#ifndef GRUNDY_TABLES_GUARD_H
#define GRUNDY_TABLES_GUARD_H

#include "tables/tables.h"

#define GR_TABLES_GUARD_SLOTS 16 /* files mapped at once: the current one and those of SIGHUPs in flight */

void gr_tables_guard_add(gr_tables *t);
void gr_tables_guard_remove(gr_tables *t);

#endif
