/* SPDX-License-Identifier: MIT */
/* The playground: a static page served at GET / with its script, style sheet
 * and icon under /static/, all compiled into the binary from web/ by
 * scripts/embed.py (src/server/meson.build), so they cannot go missing or
 * drift from the daemon that serves them. */
#ifndef GRUNDY_SERVER_STATIC_H
#define GRUNDY_SERVER_STATIC_H

#include <microhttpd.h>
#include <stddef.h>

#include "entity.h"
#include "web_files.h" /* generated: GR_WEB_FILES, GR_WEB_FILE_COUNT */

#define GR_ASSET_COUNT GR_WEB_FILE_COUNT

typedef struct gr_asset {
    const char *path;           /* the request path: "/", "/static/app.js", ... */
    const char *type;           /* its Content-Type */
    const unsigned char *data;  /* the embedded bytes */
    const unsigned long *len;
} gr_asset;

/* The asset served at PATH (exact match, no query string), or NULL. */
const gr_asset *gr_static_find(const char *path);

/* A's place among the assets, below GR_ASSET_COUNT. */
size_t gr_static_index(const gr_asset *a);

/* Makes each asset's entity (its bytes, gzip form and tags) into out, in
 * gr_static_index order; -1 when out of memory (none is left made). */
int gr_static_entities(gr_entity out[GR_ASSET_COUNT]);

/* Adds what every playground file carries besides its entity headers:
 * X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer and a
 * Content-Security-Policy that allows scripts, styles, images and fetches
 * from the page's own origin only (no inline script or style). */
void gr_static_headers(struct MHD_Response *resp);

#endif
