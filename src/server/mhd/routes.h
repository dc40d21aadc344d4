/* SPDX-License-Identifier: MIT */
/* Every route of the daemon, once: its id, its path (also its metrics and
 * access-log label), the one method it answers (OPTIONS too, and HEAD
 * for GET) and what, besides the URL, chooses its answer (for Vary):
 * Accept-Encoding on the routes that may answer gzip, Accept on the
 * cacheable JSON documents whose integers= form Accept may choose. The playground's files under /static/ are the ones
 * gr_static_find knows, served on the playground's route. The route enum,
 * the router, the metrics labels and the 404 message all come from here. */
#ifndef GRUNDY_SERVER_ROUTES_H
#define GRUNDY_SERVER_ROUTES_H

enum { VARIES_NONE = 0, VARIES_ENCODING = 1, VARIES_ACCEPT = 2 };

#define GR_ROUTES(X)                                                  \
    X(ANALYZE, "/v1/analyze", POST, VARIES_NONE)                       \
    X(BATCH, "/v1/batch", POST, VARIES_ENCODING)                       \
    X(MOVES, "/v1/moves", POST, VARIES_NONE)                           \
    X(GAMES, "/v1/games", GET, VARIES_ENCODING | VARIES_ACCEPT)        \
    X(TABLES, "/v1/tables", GET, VARIES_ACCEPT)                        \
    X(HEALTHZ, "/healthz", GET, VARIES_NONE)                           \
    X(READYZ, "/readyz", GET, VARIES_NONE)                             \
    X(METRICS, "/metrics", GET, VARIES_NONE)                           \
    X(OPENAPI, "/openapi.yaml", GET, VARIES_ENCODING)                  \
    X(PLAYGROUND, "/", GET, VARIES_ENCODING)

typedef enum route_id {
#define GR_ROUTE_ENUM(id, path, method, varies) ROUTE_##id,
    GR_ROUTES(GR_ROUTE_ENUM)
#undef GR_ROUTE_ENUM
    ROUTE_NONE /* no route: labelled "other" */
} route_id;

/* The VARIES_ flags of route r (none for ROUTE_NONE). */
static inline unsigned route_varies(route_id r)
{
    static const unsigned char varies[] = {
#define GR_ROUTE_VARIES(id, path, method, v) v,
        GR_ROUTES(GR_ROUTE_VARIES)
#undef GR_ROUTE_VARIES
    };
    return r < ROUTE_NONE ? varies[r] : VARIES_NONE;
}

#endif
