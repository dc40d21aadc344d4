/* The playground: a static page served at GET / with its script, style sheet
 * and icon under /static/, all compiled into the binary from web/ by
 * scripts/embed.py (src/server/meson.build), so they cannot go missing or
 * drift from the daemon that serves them. */
#ifndef GRUNDY_SERVER_STATIC_H
#define GRUNDY_SERVER_STATIC_H

#include <microhttpd.h>

typedef struct gr_asset {
    const char *path;           /* the request path: "/", "/static/app.js", ... */
    const char *type;           /* its Content-Type */
    const unsigned char *data;  /* the embedded bytes */
    const unsigned long *len;
} gr_asset;

/* The asset served at PATH (exact match, no query string), or NULL. */
const gr_asset *gr_static_find(const char *path);

/* The response for asset A: 200 with the body, or 304 without one when
 * IF_NONE_MATCH (the request header, or NULL) names its entity tag. Either
 * carries ETag, Cache-Control (no-cache: revalidate every time, cheap with
 * the tag), X-Content-Type-Options: nosniff, Referrer-Policy and a
 * Content-Security-Policy that allows scripts, styles, images and fetches
 * from the page's own origin only (no inline script or style). The status is
 * stored in *STATUS. NULL when out of memory. */
struct MHD_Response *gr_static_response(const gr_asset *a, const char *if_none_match, int *status);

#endif
