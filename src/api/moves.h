/* SPDX-License-Identifier: MIT */
/* POST /v1/moves: every legal move of a position, each with the outcome of
 * the position it leads to, winning moves first. */
#ifndef GRUNDY_API_MOVES_H
#define GRUNDY_API_MOVES_H

#include <stddef.h>

#include "pipeline.h"
#include "contract.h"

#define GR_MOVES_DEFAULT_LIMIT 200
#define GR_MOVES_MAX_LIMIT 10000

/* Paging given outside the body (the URL's ?limit=&cursor=), each NULL
 * when absent. The body's members "limit" and "cursor" take precedence for
 * games that have no field of that name; fibonacci's own "limit" is its
 * field, so its page size comes from the URL. */
typedef struct gr_page_args {
    const char *limit;
    const char *cursor;
    const atomic_bool *cancel; /* NULL, or a flag another thread raises to stop the query (503) */
} gr_page_args;

/* Answers one /v1/moves body:
 *   {"game", "convention", ["compound"], "total": N, "order", "moves": [
 *      {"move", "next", "winning", "winner", "grundy", ["value"]}, ...],
 *    "cursor": "K" | null, ["note"]}
 * `move` and `next` are exactly what /v1/analyze writes for that move; the
 * outcome members describe `next` for the player who moves there, and are
 * absent where the compute budget did not reach it (the note says so).
 * Positions of at most GR_MOVES_MAX_LIMIT moves (and a bounded size) are
 * listed with every outcome evaluated and winning moves first ("order":
 * "winning_first"); larger ones page in the game's canonical order
 * ("order": "canonical"). `total` is exact. Never fails: errors become
 * error bodies. */
void gr_api_moves(const gr_service *svc, const char *body, size_t len, const gr_page_args *page,
                  gr_reply *out);

/* For "winning_moves" (winning.h): lists every legal move of q's
 * validated position when it has at most max_moves, answers the position
 * after each (held in memory by the game's hook) within an equal share of
 * q's budget, and hands each to keep() in
 * canonical order: its move and next as /v1/analyze writes them, whether
 * its outcome is known, and whether it wins for the mover. *total is the
 * exact number of legal moves. 0; 1 when there are more than max_moves
 * (none handed over); -1 with q->err filled. q->ans is used as scratch. */
typedef void (*gr_moves_keep)(void *ctx, const gr_buf *move, const gr_buf *next, bool known, bool winning);
int gr_moves_scan(gr_query *q, const struct gr_game *game, size_t max_moves, gr_moves_keep keep, void *ctx,
                  gr_u128 *total);

#endif
