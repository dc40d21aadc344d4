/* SPDX-License-Identifier: MIT */
/* Bodies fixed for the life of the daemon (the catalogue, openapi.yaml,
 * the playground's files), kept with their gzip form, both made once at
 * startup, and each representation's entity tag: a hash of its bytes, so
 * the tags differ between gzip and identity and stay the same across
 * restarts for the same bytes. */
#ifndef GRUNDY_SERVER_ENTITY_H
#define GRUNDY_SERVER_ENTITY_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "encoding.h"

typedef struct gr_entity {
    const unsigned char *plain; /* not owned: must outlive the entity */
    size_t plain_len;
    unsigned char *gz;          /* owned; NULL when gzip is not smaller */
    size_t gz_len;
    char plain_tag[24], gz_tag[24]; /* quoted */
} gr_entity;

/* Makes the entity of len bytes at data; -1 when out of memory. */
int gr_entity_make(gr_entity *e, const void *data, size_t len);

void gr_entity_free(gr_entity *e);

/* Whether an If-None-Match value (NULL: absent) matches the quoted tag:
 * "*", or any entry of its list by the weak comparison (W/ ignored). */
bool gr_etag_matches(const char *if_none_match, const char *tag);

/* The response to a GET or HEAD of e: the representation the codings
 * choose, 200 with its body, or 304 with none when if_none_match names
 * its tag. Either carries ETag and Cache-Control: no-cache (revalidate
 * every time, cheap with the tag); a gzip body Content-Encoding: gzip.
 * Sets *status and *bytes (the length of the body sent: 0 for a 304);
 * NULL when out of memory. */
struct MHD_Response *gr_entity_response(const gr_entity *e, const gr_codings *codings,
                                        const char *if_none_match, int *status, uint64_t *bytes);

#endif
