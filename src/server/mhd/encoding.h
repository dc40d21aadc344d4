/* SPDX-License-Identifier: MIT */
/* Content codings: what a request's Accept-Encoding allows (RFC 9110
 * section 12.5.3) and gzip compression with zlib. Only gzip is offered;
 * identity is always available. Quality values are read as exact
 * thousandths, never as floating point. */
#ifndef GRUNDY_SERVER_ENCODING_H
#define GRUNDY_SERVER_ENCODING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The qualities (0 to 1000) a request gives gzip and identity. */
typedef struct gr_codings {
    uint16_t gzip;
    uint16_t identity;
} gr_codings;

/* Reads an Accept-Encoding value (NULL: the header is absent). gzip takes
 * its own entry ("gzip" or "x-gzip"), else that of "*", else 0; identity
 * its own, else that of "*", else 1: acceptable, as always unless refused,
 * but not preferred to a coding the client names ("gzip;q=0.5" asks for
 * gzip). An absent or empty header asks for identity only. An entry with a
 * malformed q is ignored. */
void gr_codings_parse(gr_codings *c, const char *accept_encoding);

/* Whether to send gzip: the client accepts it (q > 0), a gzip form exists
 * (have_gzip: it was smaller), and the client does not prefer identity
 * (refused identity, or gave gzip at least its quality). */
bool gr_codings_choose_gzip(const gr_codings *c, bool have_gzip);

/* The gzip form of len bytes at data, in *out (malloc'd, *out_len bytes),
 * deterministic for given bytes (no name, time 0). Returns 0; 1 when it
 * would not be smaller than the input; -1 when out of memory (nothing is
 * allocated unless it returns 0). */
int gr_gzip(const void *data, size_t len, unsigned char **out, size_t *out_len);

#endif
