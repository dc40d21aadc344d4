/* Score games decided by dynamic programming over their positions:
 * stone rows (either end, a growing prefix, up to three from the front) and
 * Can I Win. "value" is from the mover's point of view; grundy is null. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/games.h"
#include "grundy/score.h"

/* winner from the sign of a score difference (or outcome). */
static const char *winner_of(gr_i128 diff)
{
    return diff > 0 ? "first" : diff < 0 ? "second" : "draw";
}

/* Reads "stones": non-negative unless `signed_ok`. *out is malloc'd. */
static int read_stones(gr_query *q, bool signed_ok, int64_t **out, size_t *n)
{
    const cJSON *arr = gr_q_get(q, "stones");
    *out = NULL;
    *n = 0;
    if (!arr || !cJSON_IsArray(arr))
        return gr_fail(q->err, arr ? GR_E_INVALID_FIELD : GR_E_MISSING_FIELD, "stones",
                       "\"stones\" must be an array of integers (pile sizes in row order)");
    size_t count = (size_t)cJSON_GetArraySize(arr);
    if (count > q->limits->max_items)
        return gr_fail(q->err, GR_E_TOO_MANY, "stones", "\"stones\" has %zu entries; the limit is %"
                       PRIu64, count, q->limits->max_items);
    int64_t *v = malloc((count ? count : 1) * sizeof *v);
    if (!v)
        return gr_oom(q);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, arr) {
        char field[40];
        snprintf(field, sizeof field, "stones[%zu]", i);
        uint64_t u;
        int rc = signed_ok ? gr_json_i64(q->doc, item, field, &v[i], q->err)
                           : gr_q_u64_at(q, item, field, &u);
        if (rc) {
            free(v);
            return -1;
        }
        if (!signed_ok)
            v[i] = (int64_t)u;
        i++;
    }
    *out = v;
    *n = count;
    return 0;
}

/* Sets winner and value, the empty components, and the explanation head. */
static void score_answer(gr_query *q, gr_i128 value, const char *what)
{
    q->ans.has_value = true;
    q->ans.value = value;
    q->ans.components = cJSON_CreateArray();
    gr_text_add(&q->ans.explanation, "%s", what);
}

/* next.stones = stones[from .. from + n). */
static int next_stones(gr_query *q, const int64_t *stones, size_t from, size_t n)
{
    cJSON *next = gr_ans_next(q);
    cJSON *arr = next ? cJSON_AddArrayToObject(next, "stones") : NULL;
    if (!arr)
        return gr_oom(q);
    for (size_t i = from; i < from + n; i++)
        cJSON_AddItemToArray(arr, gr_json_i128_item(stones[i]));
    return 0;
}

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
    gr_text_add(&t, "Take the %s pile (%" PRId64 " stones).", end == GR_ROW_FIRST ? "first" : "last",
                stones[pile]);
    cJSON_AddStringToObject(move, "text", t.buf);
    return next_stones(q, stones, end == GR_ROW_FIRST ? 1 : 0, n - 1);
}

int gr_analyze_stone_row(gr_query *q)
{
    int64_t *stones;
    size_t n;
    if (read_stones(q, false, &stones, &n))
        return -1;
    gr_i128 value = 0;
    gr_row_end end = GR_ROW_NONE;
    gr_status s = gr_stone_row(stones, n, &q->budget, &value, &end);
    int rc = 0;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "stones", "this stone row");
    } else {
        q->ans.winner = winner_of(value);
        score_answer(q, value, "Interval dynamic programming over every contiguous row: the best "
                               "score difference for the player to move is the larger of "
                               "first - best(rest) and last - best(rest).");
        if (end != GR_ROW_NONE)
            rc = row_move(q, stones, n, end);
    }
    free(stones);
    return rc;
}

static gr_i128 sum_of(const int64_t *v, size_t n)
{
    gr_i128 s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

static int prefix_move(gr_query *q, const int64_t *stones, size_t n, uint64_t m, uint64_t take)
{
    cJSON *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_json_add_u64(move, "take", take);
    gr_json_add_i128(move, "stones", sum_of(stones, (size_t)take));
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take the first %" PRIu64 " pile%s.", take, take == 1 ? "" : "s");
    cJSON_AddStringToObject(move, "text", t.buf);
    if (next_stones(q, stones, (size_t)take, n - (size_t)take))
        return -1;
    gr_json_add_u64(q->ans.next, "m", take > m ? take : m);
    return 0;
}

int gr_analyze_stone_prefix(gr_query *q)
{
    int64_t *stones;
    size_t n;
    uint64_t m, one = 1, take = 0;
    if (read_stones(q, false, &stones, &n))
        return -1;
    if (n > GR_STONE_PREFIX_MAX_N) {
        free(stones);
        return gr_fail(q->err, GR_E_TOO_MANY, "stones", "stone_prefix takes at most %u piles; "
                       "this row has %zu", GR_STONE_PREFIX_MAX_N, n);
    }
    if (gr_q_u64(q, "m", &one, &m) || (m == 0 && gr_fail(q->err, GR_E_OUT_OF_RANGE, "m",
                                                         "\"m\" must be at least 1"))) {
        free(stones);
        return -1;
    }
    gr_i128 value = 0, total = sum_of(stones, n);
    gr_status s = gr_stone_prefix(stones, n, m, &q->budget, &value, &take);
    int rc = 0;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "stones", "this stone row");
    } else {
        q->ans.winner = winner_of(2 * value - total);
        score_answer(q, value, "Dynamic programming over (piles taken, M): the player to move "
                               "collects the most of the remaining stones by taking x of the next "
                               "2M piles; the rest goes to the opponent. value is the stones the "
                               "player to move collects.");
        if (take)
            rc = prefix_move(q, stones, n, m, take);
    }
    free(stones);
    return rc;
}

int gr_analyze_stone_front3(gr_query *q)
{
    int64_t *stones;
    size_t n;
    if (read_stones(q, true, &stones, &n))
        return -1;
    gr_i128 value = 0;
    unsigned take = 0;
    gr_status s = gr_stone_front3(stones, n, &q->budget, &value, &take);
    int rc = 0;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "stones", "this stone row");
    } else {
        q->ans.winner = winner_of(value);
        score_answer(q, value, "Dynamic programming from the back of the row: the best score "
                               "difference is the largest of (the next 1, 2 or 3 piles) - best(rest).");
        cJSON *move = take ? gr_ans_move(q) : NULL;
        if (move) {
            gr_json_add_u64(move, "take", take);
            gr_json_add_i128(move, "stones", sum_of(stones, take));
            gr_text t = { .len = 0 };
            gr_text_add(&t, "Take the first %u pile%s.", take, take == 1 ? "" : "s");
            cJSON_AddStringToObject(move, "text", t.buf);
            rc = next_stones(q, stones, take, n - take);
        } else if (take) {
            rc = -1;
        }
    }
    free(stones);
    return rc;
}

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
        char field[32];
        snprintf(field, sizeof field, "used[%zu]", i);
        uint64_t v = (*list)[i];
        if (v < 1 || v > max || (*mask & (UINT32_C(1) << (v - 1))))
            return gr_fail(q->err, GR_E_INVALID_FIELD, field,
                           "each used number must be between 1 and max_choosable (%" PRIu64
                           ") and appear once; got %" PRIu64, max, v);
        *mask |= UINT32_C(1) << (v - 1);
    }
    return 0;
}

static int can_i_win_move(gr_query *q, const uint64_t *used, size_t n, unsigned pick)
{
    cJSON *move = gr_ans_move(q);
    cJSON *next = move ? gr_ans_next(q) : NULL;
    cJSON *arr = next ? cJSON_AddArrayToObject(next, "used") : NULL;
    if (!arr)
        return gr_oom(q);
    gr_json_add_u64(move, "pick", pick);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Pick %u.", pick);
    cJSON_AddStringToObject(move, "text", t.buf);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, gr_json_u64_item(used[i]));
    cJSON_AddItemToArray(arr, gr_json_u64_item(pick));
    return 0;
}

int gr_analyze_can_i_win(gr_query *q)
{
    uint64_t max, target, *used = NULL;
    size_t nused;
    uint32_t mask;
    if (gr_q_u64(q, "max_choosable", NULL, &max) || gr_q_u64(q, "desired_total", NULL, &target))
        return -1;
    if (max < 1 || max > GR_CAN_I_WIN_MAX)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "max_choosable",
                       "\"max_choosable\" must be between 1 and %u", GR_CAN_I_WIN_MAX);
    int rc = read_used(q, max, &mask, &used, &nused);
    int outcome = 0;
    unsigned pick = 0;
    gr_status s = rc ? GR_OK : gr_can_i_win((unsigned)max, mask, (int64_t)target, &q->budget,
                                            &outcome, &pick);
    if (rc == 0 && s != GR_OK)
        rc = gr_fail_engine(q->err, s, "max_choosable", "this Can I Win position");
    if (rc == 0) {
        q->ans.winner = winner_of(outcome);
        score_answer(q, outcome, "Memoised search over the sets of used numbers (a bitmask): a "
                                 "position wins if some pick reaches the total or leaves a losing "
                                 "position; a draw when the remaining numbers cannot reach it. value "
                                 "is +1 win, 0 draw, -1 loss for the player to move.");
        if (pick)
            rc = can_i_win_move(q, used, nused, pick);
    }
    gr_mem_free(used);
    return rc;
}
