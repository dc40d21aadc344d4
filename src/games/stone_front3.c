/* SPDX-License-Identifier: MIT */
/* stone_front3: take 1 to 3 piles from the front; values may be negative. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "score_common.h"
#include "score_why.h"
#include "grundy/score.h"

/* The move taking the first `take` piles (1 <= take <= n) and the row after it. */
static int front3_move(gr_query *q, const int64_t *stones, size_t n, unsigned take)
{
    gr_jw_node *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_jw_u64(move, "take", take);
    gr_jw_i128(move, "stones", gr_score_sum(stones, take));
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take the first %u pile%s.", take, take == 1 ? "" : "s");
    gr_jw_str(move, "text", t.buf);
    return gr_score_next_stones(q, stones, take, n - take);
}

/* ---- the account: the row stones[at .. n) --------------------------------- */

typedef struct front3_row {
    const int64_t *stones;
    size_t n;
} front3_row;

static size_t front3_moves(const void *ctx, const void *state, gr_score_entry *e, size_t cap)
{
    const front3_row *r = ctx;
    size_t at = *(const size_t *)state, n = 0;
    (void)cap;
    for (unsigned take = 1; take <= 3 && at + take <= r->n; take++) {
        char sum[48];
        gr_json_format_i128(gr_score_sum(r->stones + at, take), sum);
        gr_score_entry *one = gr_score_entry_add(e, &n, "take %u (%s)", take, sum);
        if (!one) {
            gr_score_entries_free(e, n);
            return SIZE_MAX;
        }
        gr_jw_u64(one->move, "take", take);
    }
    return n;
}

static int front3_value(const void *ctx, const void *state, size_t i, gr_budget *b, gr_i128 *v)
{
    const front3_row *r = ctx;
    size_t at = *(const size_t *)state, take = i + 1;
    gr_i128 rest = 0;
    unsigned best;
    if (gr_stone_front3(r->stones + at + take, r->n - at - take, b, &rest, &best) != GR_OK)
        return -1;
    *v = gr_score_sum(r->stones + at, take) - rest;
    return 0;
}

static int front3_best(const void *ctx, const void *state, gr_budget *b, size_t *i, gr_i128 *v)
{
    const front3_row *r = ctx;
    size_t at = *(const size_t *)state;
    unsigned take = 0;
    if (gr_stone_front3(r->stones + at, r->n - at, b, v, &take) != GR_OK)
        return -1;
    *i = take - 1;
    return 0;
}

static void front3_play(const void *ctx, void *state, size_t i)
{
    (void)ctx;
    *(size_t *)state += i + 1;
}

static int front3_render(gr_query *q, const void *ctx, const void *state, size_t i)
{
    const front3_row *r = ctx;
    size_t at = *(const size_t *)state;
    return front3_move(q, r->stones + at, r->n - at, (unsigned)i + 1);
}

static const gr_score_game front3_game = { .state_size = sizeof(size_t), .unit = "score difference",
    .moves = front3_moves, .value = front3_value, .best = front3_best, .play = front3_play,
    .render = front3_render, .max_moves = 3 };

/* The optimal moves: those whose score difference equals the row's. */
static int winning_stone_front3(gr_query *q, gr_move_sink *sink)
{
    front3_row r;
    if (gr_score_read_stones(q, true, (int64_t **)&r.stones, &r.n))
        return -1;
    size_t at = 0;
    int rc = gr_score_optimal_moves(q, &front3_game, &r, &at, sink);
    gr_free((void *)r.stones);
    return rc;
}

/* Answers the row in memory. */
static int answer_row(gr_query *q, const int64_t *stones, size_t n, uint64_t m)
{
    (void)m;
    uint64_t before = q->budget.left; /* the search's cost bounds the account */
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
        front3_row r = { stones, n };
        size_t at = 0;
        gr_score_why_account(q, &front3_game, &r, &at, value, before - q->budget.left);
        if (take)
            rc = front3_move(q, stones, n, take);
    }
    return rc;
}

static int analyze_stone_front3(gr_query *q)
{
    int64_t *stones;
    size_t n;
    if (gr_score_read_stones(q, true, &stones, &n))
        return -1;
    int rc = answer_row(q, stones, n, 0);
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
        gr_stones_position after = { .solve = answer_row, .stones = stones + take, .n = n - take };
        if (front3_move(q, stones, n, take))
            rc = -1;
        else if (!sink->put(sink, q, gr_stones_position_of(&after)))
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
    .winning = winning_stone_front3,
    .kind = GR_KIND_SCORE, .move_scores = true, FIELDS(stone_front3_fields),
    .example = "{\"game\":\"stone_front3\",\"stones\":[1,2,3,-9]}"
};
