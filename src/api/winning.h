/* SPDX-License-Identifier: MIT */
/* "winning_moves" of an answer:
 *
 *   {"total": N | null, "others": [{...move...}, ...], ["note": "..."]}
 *
 * the exact number of moves that win for the player to move, and those
 * besides the answer's own `move` (which is not repeated), at most
 * GR_WINNING_MOVES_CAP - 1 of them, in the game's canonical move order
 * (the order of POST /v1/moves). Each is written exactly as /v1/analyze
 * writes a `move`; the position after it is what POST /v1/moves gives. A
 * position the player to move loses, or draws, has none: {"total": 0,
 * "others": []}. Where the count is not certain within
 * the query's budget, "total" is null, the moves listed are winning moves
 * (possibly not all) and "note" says why. Never guessed. */
#ifndef GRUNDY_API_WINNING_H
#define GRUNDY_API_WINNING_H

#include "pipeline.h"
#include "contract.h"

#define GR_WINNING_MOVES_CAP 16

/* Positions of at most this many legal moves, for games without a winning
 * hook, are searched move by move: each position after a move is answered
 * within an equal share of the budget left. */
#define GR_WINNING_SCAN_MOVES 1000


/* Fills q->ans.winning for q, which `game` has answered (q->ans.winner
 * set) after spending `spent` steps. Uses the game's winning hook when it
 * has one, else the scan above. Spends q's budget within the allowance
 * above; never fails the answer (memory or budget running out leave the
 * total unknown, with a note). */
void gr_winning_moves(gr_query *q, const gr_game *game, uint64_t spent);

/* ,"winning_moves":{...} as the contract above writes it. */
void gr_winning_render(gr_buf *b, const struct gr_winning *w);

#endif
