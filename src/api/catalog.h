/* Descriptions of what the service holds, for GET /v1/tables and
 * `grundy tables info`. */
#ifndef GRUNDY_API_CATALOG_H
#define GRUNDY_API_CATALOG_H

#include "tables/tables.h"

/* {"path", "bytes", "sections": [{name, kind, bound, periodic, preperiod,
 * period, max_value, checksum, bytes, ...}]} as malloc'd JSON; NULL when out
 * of memory. `t` may be NULL (no table file: an empty list). */
char *gr_api_tables_json(const gr_tables *t);

#endif
