/* SPDX-License-Identifier: MIT */
/* Every route of the daemon, once: its id, its path (also its metrics and
 * access-log label) and the one method it answers (OPTIONS too, and HEAD
 * for GET). The playground's files under /static/ are the ones
 * gr_static_find knows, served on the playground's route. The route enum,
 * the router, the metrics labels and the 404 message all come from here. */
#ifndef GRUNDY_SERVER_ROUTES_H
#define GRUNDY_SERVER_ROUTES_H

#define GR_ROUTES(X)                          \
    X(ANALYZE, "/v1/analyze", POST)            \
    X(BATCH, "/v1/batch", POST)                \
    X(MOVES, "/v1/moves", POST)                \
    X(GAMES, "/v1/games", GET)                 \
    X(TABLES, "/v1/tables", GET)               \
    X(HEALTHZ, "/healthz", GET)                \
    X(READYZ, "/readyz", GET)                  \
    X(METRICS, "/metrics", GET)                \
    X(OPENAPI, "/openapi.yaml", GET)           \
    X(PLAYGROUND, "/", GET)

typedef enum route_id {
#define GR_ROUTE_ENUM(id, path, method) ROUTE_##id,
    GR_ROUTES(GR_ROUTE_ENUM)
#undef GR_ROUTE_ENUM
    ROUTE_NONE /* no route: labelled "other" */
} route_id;

#endif
