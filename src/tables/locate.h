/* SPDX-License-Identifier: MIT */
/* Where the table file is looked for when no path is given. */
#ifndef GRUNDY_TABLES_LOCATE_H
#define GRUNDY_TABLES_LOCATE_H

#include <stddef.h>

#define GR_TABLES_FILE "grundy.tables"
#define GR_TABLES_ENV "GRUNDYD_TABLES"

/* Writes the candidate paths in order of preference into paths[0 .. max)
 * (each up to `len` bytes): $GRUNDYD_TABLES when set (then only it), else
 * grundy.tables beside the running executable (the build tree), and the
 * installed data directory. Returns how many were written. */
size_t gr_tables_candidates(char paths[][4096], size_t max);

/* The first candidate that exists, or NULL; `searched` gets a
 * comma-separated list of every candidate for error messages. */
const char *gr_tables_locate(char paths[][4096], size_t max, char *searched, size_t len);

#endif
