/* SPDX-License-Identifier: MIT */
/* stone_front3: take 1 to 3 piles from the front; values may be negative. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/games/game.h"
#include "api/games/score_common.h"
#include "grundy/score.h"

/* The move taking the first `take` piles (1 <= take <= n) and the row after it. */
static int front3_move(gr_query *q, const int64_t *stones, size_t n, unsigned take)
{
    cJSON *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_json_add_u64(move, "take", take);
    gr_json_add_i128(move, "stones", gr_score_sum(stones, take));
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take the first %u pile%s.", take, take == 1 ? "" : "s");
    cJSON_AddStringToObject(move, "text", t.buf);
    return gr_score_next_stones(q, stones, take, n - take);
}

static int analyze_stone_front3(gr_query *q)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, true, &stones, &n))
        return -1;
    gr_i128 value = 0;
    unsigned take = 0;
    gr_status s = gr_stone_front3(stones, n, &q->budget, &value, &take);
    int rc = 0;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "stones", "this stone row");
    } else {
        q->ans.winner = gr_score_winner(value);
        gr_score_answer(q, value, "Dynamic programming from the back of the row: the best score "
                               "difference is the largest of (the next 1, 2 or 3 piles) - best(rest).");
        if (take)
            rc = front3_move(q, stones, n, take);
    }
    gr_free(stones);
    return rc;
}

/* Canonical order: take 1, 2, then 3 piles (as many of them as the row has). */
static int moves_stone_front3(gr_query *q, gr_move_sink *sink)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, true, &stones, &n))
        return -1;
    unsigned count = n < 3 ? (unsigned)n : 3;
    sink->total = count;
    int rc = 0;
    for (unsigned take = 1; take <= count && rc == 0; take++) {
        if (take - 1 < sink->from)
            continue;
        if (front3_move(q, stones, n, take))
            rc = -1;
        else if (!sink->put(sink, q))
            break;
    }
    gr_free(stones);
    return (rc == 0 && q->err->code) ? -1 : rc; /* put ran out of memory */
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field stone_front3_fields[] = {
    { .name = "stones", .type = GR_FIELD_SIGNED_ARRAY, .required = true,
      .description = "Stones in each pile, in row order, which may be negative; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_S },
};

const gr_game gr_game_stone_front3 = { .name = "stone_front3",
    .summary = "Take 1 to 3 piles from the front (values may be negative); most wins.",
    .compounds = ONE, .analyze = analyze_stone_front3, .moves = moves_stone_front3,
    .kind = GR_KIND_SCORE, .move_scores = true, FIELDS(stone_front3_fields),
    .example = "{\"game\":\"stone_front3\",\"stones\":[1,2,3,-9]}"
};
