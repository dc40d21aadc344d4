/* SPDX-License-Identifier: MIT */
/* The steps of "why" the score games share: the value of every legal move
 * ("move_values") and the principal variation, the line both sides play
 * with best play ("principal_variation"). A value is what the game's
 * "value" means (a score difference, the stones collected, or +1/0/-1),
 * for the player who makes the move. The account runs on a share of the
 * query's budget (gr_score_why_budget): when that share runs out, a step
 * says it is incomplete, and the answer itself is never cut short. */
#ifndef GRUNDY_API_GAMES_SCORE_WHY_H
#define GRUNDY_API_GAMES_SCORE_WHY_H

#include <stdbool.h>
#include <stddef.h>

#include "contract.h"
#include "query.h"
#include "why.h"
#include "grundy/score.h"

/* Plies a principal variation lists at most. */
#define GR_SCORE_LINE_CAP 32

/* One move of a position with its value for its mover: `move` holds the
 * move's key members as the game's "move" writes them ({"cell": 4},
 * {"take": "first"}), `label` names it in a sentence ("row 1, column 1"). */
typedef struct gr_score_entry {
    gr_jw w;          /* move's writer, which owns its text */
    gr_jw_node *move; /* its root, while the game fills it */
    gr_i128 value;
    char label[48];
} gr_score_entry;

/* A share of q's budget for the account: as many steps as the answer's
 * own search spent (`spent`), or GR_WINNING_MIN_STEPS when that is more,
 * and at most half of what is left; none on a slim query. So an explained
 * answer costs a bounded multiple of a slim one. gr_score_why_settle
 * charges what the share spent to q. */
typedef struct gr_score_share {
    gr_budget budget;
    uint64_t given;
} gr_score_share;
gr_score_share gr_score_why_budget(gr_query *q, uint64_t spent);
void gr_score_why_settle(gr_query *q, const gr_score_share *share);

/* entries[0 .. n): a new move with `label` (printf format) and an empty
 * "move" object; the caller fills value and the object's members. */
gr_score_entry *gr_score_entry_add(gr_score_entry *entries, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void gr_score_entries_free(gr_score_entry *entries, size_t n);

/* "move_values": {moves: [{move, value}], legal, best, complete}: every
 * legal move in canonical order (the first `n` when not `complete`), best
 * the position's value. `unit` names what a value counts ("score
 * difference"). Takes the entries' move objects. */
void gr_score_why_moves(gr_query *q, gr_score_entry *entries, size_t n, size_t legal, bool complete,
                        gr_i128 best, const char *unit);

/* "principal_variation": {plies: [{ply, move, value}], length, complete}:
 * the line from the position, each move with its value for its mover;
 * complete is false when the line stops before the end of the game (the
 * cap, or the account's budget). Takes the entries' move objects. */
void gr_score_why_line(gr_query *q, gr_score_entry *line, size_t n, bool complete, const char *unit);

/* A score game as the account walks it. A state is the game's own struct
 * of `state_size` bytes (at most GR_SCORE_STATE_MAX), copied to walk a
 * line. Moves are indexed in the game's canonical order. */
#define GR_SCORE_STATE_MAX 64
typedef struct gr_score_game {
    size_t state_size;
    const char *unit; /* what a value counts, for the sentences */
    /* The legal moves of s: at most `cap` entries, added with
     * gr_score_entry_add; returns their number (0: the game is over), or
     * SIZE_MAX when memory runs out. */
    size_t (*moves)(const void *ctx, const void *s, gr_score_entry *e, size_t cap);
    /* The value of move i for its mover; 0, or -1 when b runs out. */
    int (*value)(const void *ctx, const void *s, size_t i, gr_budget *b, gr_i128 *v);
    /* The move the game's solver plays (index) and the position's value;
     * 0, or -1 when b runs out. Called only when moves remain. */
    int (*best)(const void *ctx, const void *s, gr_budget *b, size_t *i, gr_i128 *v);
    void (*play)(const void *ctx, void *s, size_t i);
    /* Renders move i of s into q->ans.move and q->ans.next as the moves
     * hook does; 0, or -1 with q->err filled. */
    int (*render)(gr_query *q, const void *ctx, const void *s, size_t i);
    size_t max_moves; /* the most legal moves a state has */
} gr_score_game;

/* Writes "move_values" and "principal_variation" for state s of value
 * `value`, on a share of q's budget (gr_score_why_budget; `spent`: the
 * steps the answer's search took). Nothing on a slim query. */
void gr_score_why_account(gr_query *q, const gr_score_game *g, const void *ctx, const void *s,
                          gr_i128 value, uint64_t spent);

/* The winning hook of a game whose moves score (contract.h): lists the
 * optimal moves of s, those whose value equals the position's, in
 * canonical order. 0, or -1 (budget, memory) with q->err filled. */
int gr_score_optimal_moves(gr_query *q, const gr_score_game *g, const void *ctx, const void *s,
                           gr_move_sink *sink);

#endif
