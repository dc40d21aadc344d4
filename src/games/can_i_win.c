/* SPDX-License-Identifier: MIT */
/* can_i_win: pick unused numbers 1..max_choosable; reaching desired_total
 * first wins. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "score_common.h"
#include "score_why.h"
#include "grundy/alloc.h"
#include "grundy/score.h"

/* ---- Can I Win ------------------------------------------------------------ */

static int read_used(gr_query *q, uint64_t max, uint32_t *mask, uint64_t **list, size_t *n)
{
    const cJSON *u = gr_q_get(q, "used");
    *mask = 0;
    *list = NULL;
    *n = 0;
    if (u && !cJSON_IsNull(u) && gr_q_u64_list(q, "used", max, true, list, n))
        return -1;
    for (size_t i = 0; i < *n; i++) {
        uint64_t v = (*list)[i];
        if (v < 1 || v > max || (*mask & (UINT32_C(1) << (v - 1)))) {
            char field[32];
            snprintf(field, sizeof field, "used[%zu]", i);
            return gr_fail(q->err, GR_E_INVALID_FIELD, field,
                           "each used number must be between 1 and max_choosable (%" PRIu64
                           ") and appear once; got %" PRIu64, max, v);
        }
        *mask |= UINT32_C(1) << (v - 1);
    }
    return 0;
}

static int can_i_win_move(gr_query *q, const uint64_t *used, size_t n, unsigned pick)
{
    gr_jw_node *move = gr_ans_move(q);
    gr_jw_node *next = move ? gr_ans_next(q) : NULL;
    gr_jw_node *arr = next ? gr_jw_array(next, "used") : NULL;
    if (!arr)
        return gr_oom(q);
    gr_jw_u64(move, "pick", pick);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Pick %u.", pick);
    gr_jw_str(move, "text", t.buf);
    for (size_t i = 0; i < n; i++)
        gr_jw_u64(arr, NULL, used[i]);
    gr_jw_u64(arr, NULL, pick);
    return 0;
}

/* A position: the pool 1 .. max, the target, and the numbers used so far
 * (in the request's order, malloc'd) with their bitmask. */
typedef struct pool {
    uint64_t max, target, *used;
    size_t nused;
    uint32_t mask;
} pool;

/* Reads "max_choosable", "desired_total" and "used"; 0, or -1 with q->err
 * filled. p->used is freed by the caller either way. */
static int read_pool(gr_query *q, pool *p)
{
    p->used = NULL;
    p->nused = 0;
    if (gr_q_u64(q, "max_choosable", NULL, &p->max) || gr_q_u64(q, "desired_total", NULL, &p->target))
        return -1;
    if (p->max < 1 || p->max > GR_CAN_I_WIN_MAX)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "max_choosable",
                       "\"max_choosable\" must be between 1 and %u", GR_CAN_I_WIN_MAX);
    return read_used(q, p->max, &p->mask, &p->used, &p->nused);
}

/* ---- the account: a state is the mask of used numbers --------------------- */

/* The sum of the numbers in mask. */
static uint64_t mask_sum(uint32_t mask)
{
    uint64_t sum = 0;
    for (unsigned k = 1; mask; k++, mask >>= 1)
        sum += mask & 1 ? k : 0;
    return sum;
}

/* The i-th unused number of the pool. */
static unsigned nth_unused(const pool *p, uint32_t mask, size_t i)
{
    unsigned k = 1;
    while (k <= p->max && ((mask >> (k - 1) & 1) || i-- > 0))
        k++;
    return k;
}

static size_t pool_moves(const void *ctx, const void *state, gr_score_entry *e, size_t cap)
{
    const pool *p = ctx;
    uint32_t mask = *(const uint32_t *)state;
    size_t n = 0;
    if (mask_sum(mask) >= p->target)
        return 0;
    for (unsigned k = 1; k <= p->max && n < cap; k++) {
        if (mask >> (k - 1) & 1)
            continue;
        gr_score_entry *one = gr_score_entry_add(e, &n, "pick %u", k);
        if (!one) {
            gr_score_entries_free(e, n);
            return SIZE_MAX;
        }
        gr_jw_u64(one->move, "pick", k);
    }
    return n;
}

static int pool_value(const void *ctx, const void *state, size_t i, gr_budget *b, gr_i128 *v)
{
    const pool *p = ctx;
    uint32_t mask = *(const uint32_t *)state;
    unsigned pick = nth_unused(p, mask, i), next_pick;
    int outcome = 0;
    if (mask_sum(mask) + pick >= p->target) {
        *v = 1;
        return 0;
    }
    if (gr_can_i_win((unsigned)p->max, mask | UINT32_C(1) << (pick - 1), (int64_t)p->target, b, &outcome,
                     &next_pick) != GR_OK)
        return -1;
    *v = -outcome;
    return 0;
}

static int pool_best(const void *ctx, const void *state, gr_budget *b, size_t *i, gr_i128 *v)
{
    const pool *p = ctx;
    uint32_t mask = *(const uint32_t *)state;
    int outcome = 0;
    unsigned pick = 0;
    if (gr_can_i_win((unsigned)p->max, mask, (int64_t)p->target, b, &outcome, &pick) != GR_OK || !pick)
        return -1;
    *i = (size_t)__builtin_popcount(~mask & ((UINT32_C(1) << (pick - 1)) - 1));
    *v = outcome;
    return 0;
}

static void pool_play(const void *ctx, void *state, size_t i)
{
    uint32_t *mask = state;
    *mask |= UINT32_C(1) << (nth_unused(ctx, *mask, i) - 1);
}

static const gr_score_game pool_game = { .state_size = sizeof(uint32_t),
    .unit = "value (+1 win, 0 draw, -1 loss)", .moves = pool_moves, .value = pool_value,
    .best = pool_best, .play = pool_play, .max_moves = GR_CAN_I_WIN_MAX };

/* Answers the pool in memory. */
static int answer_pool(gr_query *q, const pool *in)
{
    uint64_t before = q->budget.left; /* the search's cost bounds the account */
    pool p = *in;
    int rc = 0;
    int outcome = 0;
    unsigned pick = 0;
    gr_status s = rc ? GR_OK : gr_can_i_win((unsigned)p.max, p.mask, (int64_t)p.target, &q->budget,
                                            &outcome, &pick);
    if (rc == 0 && s != GR_OK)
        rc = gr_fail_engine(q->err, s, "max_choosable", "this Can I Win position");
    if (rc == 0) {
        q->ans.winner = gr_score_winner(outcome);
        gr_score_answer(q, outcome, "Memoised search over the sets of used numbers (a bitmask): a "
                                 "position wins if some pick reaches the total or leaves a losing "
                                 "position; a draw when the remaining numbers cannot reach it. value "
                                 "is +1 win, 0 draw, -1 loss for the player to move.");
        gr_score_why_account(q, &pool_game, &p, &p.mask, outcome, before - q->budget.left);
        if (pick)
            rc = can_i_win_move(q, p.used, p.nused, pick);
    }
    return rc;
}

static int analyze_can_i_win(gr_query *q)
{
    pool p;
    int rc = read_pool(q, &p) ? -1 : answer_pool(q, &p);
    gr_scratch_free(p.used);
    return rc;
}

static int solve_after(gr_query *q, const void *pos)
{
    return answer_pool(q, pos);
}

/* Canonical order: the unused numbers ascending. When the used numbers
 * already reach desired_total the game is over and has no moves; when the
 * rest cannot reach it, every pick is still a move (the game ends drawn once
 * none are left). At most GR_CAN_I_WIN_MAX moves. */
static int moves_can_i_win(gr_query *q, gr_move_sink *sink)
{
    pool p;
    if (read_pool(q, &p)) {
        gr_scratch_free(p.used);
        return -1;
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < p.nused; i++)
        sum += p.used[i];
    sink->total = sum >= p.target ? 0 : p.max - p.nused;
    gr_u128 index = 0;
    pool after = p;
    after.used = gr_malloc((p.nused + 1) * sizeof *after.used);
    int rc = after.used ? 0 : gr_oom(q);
    if (rc == 0 && p.nused) /* no numbers used: p.used may be NULL */
        memcpy(after.used, p.used, p.nused * sizeof *p.used);
    after.nused = p.nused + 1;
    for (unsigned pick = 1; sink->total && pick <= p.max && rc == 0; pick++) {
        if (p.mask >> (pick - 1) & 1 || index++ < sink->from)
            continue;
        after.used[p.nused] = pick;
        after.mask = p.mask | (uint32_t)1 << (pick - 1);
        if (can_i_win_move(q, p.used, p.nused, pick))
            rc = -1;
        else if (!sink->put(sink, q, &(gr_position){ solve_after, &after }))
            break;
    }
    gr_free(after.used);
    gr_scratch_free(p.used);
    return (rc == 0 && q->err->code) ? -1 : rc; /* put ran out of memory */
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field can_i_win_fields[] = {
    { .name = "max_choosable", .type = GR_FIELD_INTEGER, .required = true,
      .description = "The pool is the numbers 1 .. max_choosable.", .value = SPAN(1, GR_CAN_I_WIN_MAX) },
    { .name = "desired_total", .type = GR_FIELD_INTEGER, .required = true,
      .description = "Whoever brings the running total to at least this wins.", .value = ANY_U },
    { .name = "used", .type = GR_FIELD_INTEGER_ARRAY, .dflt = "[]",
      .description = "Numbers already picked, each at most max_choosable and listed once; the "
                     "running total starts at their sum.",
      .count = SPAN(0, GR_CAN_I_WIN_MAX), .value = SPAN(1, GR_CAN_I_WIN_MAX) },
};

static const gr_constraint can_i_win_constraints[] = {
    { "entries of used (at most max_choosable)", SPAN(0, GR_CAN_I_WIN_MAX) },
};

const gr_game gr_game_can_i_win = { .name = "can_i_win",
    .summary = "Pick unused numbers 1..max_choosable; reaching desired_total first wins.",
    .compounds = ONE, .analyze = analyze_can_i_win, .moves = moves_can_i_win,
    .kind = GR_KIND_SCORE, FIELDS(can_i_win_fields),
    CONSTRAINTS(can_i_win_constraints),
    .example = "{\"game\":\"can_i_win\",\"max_choosable\":10,\"desired_total\":40,\"used\":[1]}"
};
