/* SPDX-License-Identifier: MIT */
/* stone_row: take the first or the last pile; most stones wins. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/games/game.h"
#include "api/games/score_common.h"
#include "grundy/score.h"

static int row_move(gr_query *q, const int64_t *stones, size_t n, gr_row_end end)
{
    size_t pile = end == GR_ROW_FIRST ? 0 : n - 1;
    cJSON *move = gr_ans_move(q);
    if (!move)
        return -1;
    cJSON_AddStringToObject(move, "take", end == GR_ROW_FIRST ? "first" : "last");
    gr_json_add_u64(move, "pile", pile);
    gr_json_add_i128(move, "stones", stones[pile]);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take the %s pile (%" PRId64 " %s).", end == GR_ROW_FIRST ? "first" : "last",
                stones[pile], stones[pile] == 1 ? "stone" : "stones");
    cJSON_AddStringToObject(move, "text", t.buf);
    return gr_score_next_stones(q, stones, end == GR_ROW_FIRST ? 1 : 0, n - 1);
}

static int analyze_stone_row(gr_query *q)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, false, &stones, &n))
        return -1;
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
        if (end != GR_ROW_NONE)
            rc = row_move(q, stones, n, end);
    }
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
        if (row_move(q, stones, n, ends[i]))
            rc = -1;
        else if (!sink->put(sink, q))
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
    .kind = GR_KIND_SCORE, .move_scores = true, FIELDS(stone_row_fields),
    .example = "{\"game\":\"stone_row\",\"stones\":[3,9,1,2]}"
};
