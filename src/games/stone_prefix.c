/* SPDX-License-Identifier: MIT */
/* stone_prefix: take the first x piles, 1 <= x <= 2M, then M = max(M, x). */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "score_common.h"
#include "score_why.h"
#include "grundy/score.h"

static int prefix_move(gr_query *q, const int64_t *stones, size_t n, uint64_t m, uint64_t take)
{
    gr_jw_node *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_jw_u64(move, "take", take);
    gr_jw_i128(move, "stones", gr_score_sum(stones, (size_t)take));
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take the first %" PRIu64 " pile%s.", take, take == 1 ? "" : "s");
    gr_jw_str(move, "text", t.buf);
    if (gr_score_next_stones(q, stones, (size_t)take, n - (size_t)take))
        return -1;
    gr_jw_u64(&q->ans.next.node[1], "m", take > m ? take : m);
    return 0;
}

/* Reads "stones" (at most GR_STONE_PREFIX_MAX_N piles, *stones malloc'd) and
 * "m"; 0, or -1 with q->err filled and nothing to free. */
static int read_prefix(gr_query *q, int64_t **stones, size_t *n, uint64_t *m)
{
    uint64_t one = 1;
    if (gr_score_read_stones(q, false, stones, n))
        return -1;
    if (*n > GR_STONE_PREFIX_MAX_N) {
        gr_fail(q->err, GR_E_TOO_MANY, "stones", "stone_prefix takes at most %u piles; "
                "this row has %zu", GR_STONE_PREFIX_MAX_N, *n);
    } else if (gr_q_u64(q, "m", &one, m) == 0) {
        if (*m > 0)
            return 0;
        gr_fail(q->err, GR_E_OUT_OF_RANGE, "m", "\"m\" must be at least 1");
    }
    gr_free(*stones);
    *stones = NULL;
    return -1;
}

/* ---- the account: the row stones[at .. n) with M = m ---------------------- */

typedef struct prefix_row {
    const int64_t *stones;
    size_t n;
} prefix_row;

typedef struct prefix_state {
    size_t at;
    uint64_t m;
} prefix_state;

/* min(2M, piles) without overflowing 2M. */
static uint64_t prefix_count(uint64_t m, size_t piles)
{
    return m >= (piles + 1) / 2 ? piles : 2 * m;
}

static size_t prefix_moves(const void *ctx, const void *state, gr_score_entry *e, size_t cap)
{
    const prefix_row *r = ctx;
    const prefix_state *s = state;
    size_t n = 0, count = (size_t)prefix_count(s->m, r->n - s->at);
    for (size_t take = 1; take <= count && n < cap; take++) {
        char sum[48];
        gr_json_format_i128(gr_score_sum(r->stones + s->at, take), sum);
        gr_score_entry *one = gr_score_entry_add(e, &n, "take %zu (%s)", take, sum);
        if (!one) {
            gr_score_entries_free(e, n);
            return SIZE_MAX;
        }
        gr_jw_u64(one->move, "take", take);
    }
    return n;
}

static int prefix_value(const void *ctx, const void *state, size_t i, gr_budget *b, gr_i128 *v)
{
    const prefix_row *r = ctx;
    const prefix_state *s = state;
    size_t take = i + 1, from = s->at + take;
    gr_i128 rest = 0;
    uint64_t best;
    if (gr_stone_prefix(r->stones + from, r->n - from, take > s->m ? take : s->m, b, &rest, &best) != GR_OK)
        return -1;
    *v = gr_score_sum(r->stones + s->at, take) + gr_score_sum(r->stones + from, r->n - from) - rest;
    return 0;
}

static int prefix_best(const void *ctx, const void *state, gr_budget *b, size_t *i, gr_i128 *v)
{
    const prefix_row *r = ctx;
    const prefix_state *s = state;
    uint64_t take = 0;
    if (gr_stone_prefix(r->stones + s->at, r->n - s->at, s->m, b, v, &take) != GR_OK)
        return -1;
    *i = (size_t)take - 1;
    return 0;
}

static void prefix_play(const void *ctx, void *state, size_t i)
{
    prefix_state *s = state;
    (void)ctx;
    s->at += i + 1;
    s->m = i + 1 > s->m ? i + 1 : s->m;
}

static int prefix_render(gr_query *q, const void *ctx, const void *state, size_t i)
{
    const prefix_row *r = ctx;
    const prefix_state *s = state;
    return prefix_move(q, r->stones + s->at, r->n - s->at, s->m, i + 1);
}

static const gr_score_game prefix_game = { .state_size = sizeof(prefix_state),
    .unit = "stones collected", .moves = prefix_moves, .value = prefix_value, .best = prefix_best,
    .play = prefix_play, .render = prefix_render, .max_moves = GR_STONE_PREFIX_MAX_N };

/* The optimal moves: those that collect as many stones as the row's value. */
static int winning_stone_prefix(gr_query *q, gr_move_sink *sink)
{
    int64_t *stones;
    prefix_row r;
    prefix_state s = { 0, 1 };
    if (read_prefix(q, &stones, &r.n, &s.m))
        return -1;
    r.stones = stones;
    int rc = gr_score_optimal_moves(q, &prefix_game, &r, &s, sink);
    gr_free(stones);
    return rc;
}

/* Answers the row and M in memory. */
static int answer_row(gr_query *q, const int64_t *stones, size_t n, uint64_t m)
{
    uint64_t before = q->budget.left; /* the search's cost bounds the account */
    uint64_t take = 0;
    gr_i128 value = 0, total = gr_score_sum(stones, n);
    gr_status s = gr_stone_prefix(stones, n, m, &q->budget, &value, &take);
    int rc = 0;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "stones", "this stone row");
    } else {
        q->ans.winner = gr_score_winner(2 * value - total);
        gr_score_answer(q, value, "Dynamic programming over (piles taken, M): the player to move "
                               "collects the most of the remaining stones by taking x of the next "
                               "2M piles; the rest goes to the opponent. value is the stones the "
                               "player to move collects.");
        prefix_row r = { stones, n };
        prefix_state start = { 0, m };
        gr_score_why_account(q, &prefix_game, &r, &start, value, before - q->budget.left);
        if (take)
            rc = prefix_move(q, stones, n, m, take);
    }
    return rc;
}

static int analyze_stone_prefix(gr_query *q)
{
    int64_t *stones;
    size_t n;
    uint64_t m;
    if (read_prefix(q, &stones, &n, &m))
        return -1;
    int rc = answer_row(q, stones, n, m);
    gr_free(stones);
    return rc;
}

/* Canonical order: x = 1, 2, ..., min(2M, piles). At most
 * GR_STONE_PREFIX_MAX_N moves, so skipping to sink->from is a start index. */
static int moves_stone_prefix(gr_query *q, gr_move_sink *sink)
{
    int64_t *stones;
    size_t n;
    uint64_t m;
    if (read_prefix(q, &stones, &n, &m))
        return -1;
    uint64_t count = m >= (n + 1) / 2 ? n : 2 * m; /* min(2M, n) without overflowing 2M */
    sink->total = count;
    int rc = 0;
    for (uint64_t take = 1; take <= count && rc == 0; take++) {
        if (take - 1 < sink->from)
            continue;
        gr_stones_position after = { .solve = answer_row, .stones = stones + take, .n = n - (size_t)take,
                                     .m = take > m ? take : m };
        if (prefix_move(q, stones, n, m, take))
            rc = -1;
        else if (!sink->put(sink, q, gr_stones_position_of(&after)))
            break;
    }
    gr_free(stones);
    return (rc == 0 && q->err->code) ? -1 : rc; /* put ran out of memory */
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field stone_prefix_fields[] = {
    { .name = "stones", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Stones in each pile, in row order; may be empty.",
      .count = { 0, GR_STONE_PREFIX_MAX_N, GR_LIMIT_MAX_ITEMS }, .value = ANY_U },
    { .name = "m", .type = GR_FIELD_INTEGER, .dflt = "1",
      .description = "M: the player to move takes the first x piles, 1 <= x <= 2M.",
      .value = FROM(1) },
};

const gr_game gr_game_stone_prefix = { .name = "stone_prefix",
    .summary = "Take the first x piles, 1 <= x <= 2M, then M = max(M, x); most stones wins.",
    .compounds = ONE, .analyze = analyze_stone_prefix, .moves = moves_stone_prefix,
    .winning = winning_stone_prefix,
    .kind = GR_KIND_SCORE, .move_scores = true, FIELDS(stone_prefix_fields),
    .example = "{\"game\":\"stone_prefix\",\"stones\":[1,2,3,4,5,100],\"m\":1}"
};
