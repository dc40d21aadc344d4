/* SPDX-License-Identifier: MIT */
/* stone_row: take the first or the last pile; most stones wins. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "score_common.h"
#include "score_why.h"
#include "grundy/score.h"

static int row_move(gr_query *q, const int64_t *stones, size_t n, gr_row_end end)
{
    size_t pile = end == GR_ROW_FIRST ? 0 : n - 1;
    gr_jw_node *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_jw_str(move, "take", end == GR_ROW_FIRST ? "first" : "last");
    gr_jw_u64(move, "pile", pile);
    gr_jw_i128(move, "stones", stones[pile]);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take the %s pile (%" PRId64 " %s).", end == GR_ROW_FIRST ? "first" : "last",
                stones[pile], stones[pile] == 1 ? "stone" : "stones");
    gr_jw_str(move, "text", t.buf);
    return gr_score_next_stones(q, stones, end == GR_ROW_FIRST ? 1 : 0, n - 1);
}

/* ---- the account: the row stones[lo .. hi) -------------------------------- */

typedef struct row_state {
    size_t lo, hi;
} row_state;

static size_t row_moves(const void *ctx, const void *state, gr_score_entry *e, size_t cap)
{
    const int64_t *stones = ctx;
    const row_state *s = state;
    size_t n = 0, len = s->hi - s->lo;
    (void)cap;
    for (size_t i = 0; i < (len < 2 ? len : 2); i++) {
        size_t pile = i == 0 ? s->lo : s->hi - 1;
        gr_score_entry *one = gr_score_entry_add(e, &n, "take the %s pile (%" PRId64 ")",
                                                 i == 0 ? "first" : "last", stones[pile]);
        if (!one) {
            gr_score_entries_free(e, n);
            return SIZE_MAX;
        }
        gr_jw_str(one->move, "take", i == 0 ? "first" : "last");
    }
    return n;
}

static int row_value(const void *ctx, const void *state, size_t i, gr_budget *b, gr_i128 *v)
{
    const int64_t *stones = ctx;
    const row_state *s = state;
    size_t pile = i == 0 ? s->lo : s->hi - 1;
    gr_i128 rest = 0;
    gr_row_end end;
    if (gr_stone_row(stones + s->lo + (i == 0), s->hi - s->lo - 1, b, &rest, &end) != GR_OK)
        return -1;
    *v = stones[pile] - rest;
    return 0;
}

static int row_best(const void *ctx, const void *state, gr_budget *b, size_t *i, gr_i128 *v)
{
    const row_state *s = state;
    gr_row_end end = GR_ROW_NONE;
    if (gr_stone_row((const int64_t *)ctx + s->lo, s->hi - s->lo, b, v, &end) != GR_OK)
        return -1;
    *i = end == GR_ROW_LAST ? 1 : 0;
    return 0;
}

static void row_play(const void *ctx, void *state, size_t i)
{
    row_state *s = state;
    (void)ctx;
    if (i == 0)
        s->lo++;
    else
        s->hi--;
}

static int row_render(gr_query *q, const void *ctx, const void *state, size_t i)
{
    const row_state *s = state;
    return row_move(q, (const int64_t *)ctx + s->lo, s->hi - s->lo, i == 0 ? GR_ROW_FIRST : GR_ROW_LAST);
}

static const gr_score_game row_game = { .state_size = sizeof(row_state), .unit = "score difference",
    .moves = row_moves, .value = row_value, .best = row_best, .play = row_play, .render = row_render,
    .max_moves = 2 };

/* The optimal moves: those whose score difference equals the row's. */
static int winning_stone_row(gr_query *q, gr_move_sink *sink)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, false, &stones, &n))
        return -1;
    row_state s = { 0, n };
    int rc = gr_score_optimal_moves(q, &row_game, stones, &s, sink);
    gr_free(stones);
    return rc;
}

/* Answers the row in memory. */
static int answer_row(gr_query *q, const int64_t *stones, size_t n, uint64_t m)
{
    (void)m;
    uint64_t before = q->budget.left; /* the search's cost bounds the account */
    gr_i128 value = 0;
    gr_row_end end = GR_ROW_NONE;
    gr_status s = gr_stone_row(stones, n, &q->budget, &value, &end);
    int rc = 0;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "stones", "this stone row");
    } else {
        q->ans.winner = gr_score_winner(value);
        gr_score_answer(q, value, "Interval dynamic programming over every contiguous row: the best "
                               "score difference for the player to move is the larger of "
                               "first - best(rest) and last - best(rest).");
        row_state whole = { 0, n };
        gr_score_why_account(q, &row_game, stones, &whole, value, before - q->budget.left);
        if (end != GR_ROW_NONE)
            rc = row_move(q, stones, n, end);
    }
    return rc;
}

static int analyze_stone_row(gr_query *q)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, false, &stones, &n))
        return -1;
    int rc = answer_row(q, stones, n, 0);
    gr_free(stones);
    return rc;
}
/* Canonical order: take the first pile, then take the last. A row of one
 * pile has the one move (its first and last pile are the same pile). */
static int moves_stone_row(gr_query *q, gr_move_sink *sink)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, false, &stones, &n))
        return -1;
    static const gr_row_end ends[] = { GR_ROW_FIRST, GR_ROW_LAST };
    size_t count = n < 2 ? n : 2;
    sink->total = count;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        if (i < sink->from)
            continue;
        gr_stones_position after = { .solve = answer_row, .stones = stones + (i == 0), .n = n - 1 };
        if (row_move(q, stones, n, ends[i]))
            rc = -1;
        else if (!sink->put(sink, q, gr_stones_position_of(&after)))
            break;
    }
    gr_free(stones);
    return (rc == 0 && q->err->code) ? -1 : rc; /* put ran out of memory */
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field stone_row_fields[] = {
    { .name = "stones", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Stones in each pile, in row order; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

const gr_game gr_game_stone_row = { .name = "stone_row", .summary = "Take the first or the last pile of a row; most stones wins.",
    .compounds = ONE, .analyze = analyze_stone_row, .moves = moves_stone_row,
    .winning = winning_stone_row,
    .kind = GR_KIND_SCORE, .move_scores = true, FIELDS(stone_row_fields),
    .example = "{\"game\":\"stone_row\",\"stones\":[3,9,1,2]}"
};
