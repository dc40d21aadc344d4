/* SPDX-License-Identifier: MIT */
/* What the score games share: reading a row of stones, the winner from a
 * score, the answer's head and its next row. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score_common.h"
#include "why.h"
#include "grundy/score.h"

/* winner from the sign of a score difference (or outcome). */
const char *gr_score_winner(gr_i128 diff)
{
    return diff > 0 ? "first" : diff < 0 ? "second" : "draw";
}

/* Reads "stones": non-negative unless `signed_ok`. *out is malloc'd. */
int gr_score_read_stones(gr_query *q, bool signed_ok, int64_t **out, size_t *n)
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
    int64_t *v = gr_malloc((count ? count : 1) * sizeof *v);
    if (!v)
        return gr_oom(q);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, arr) {
        uint64_t u = 0;
        int rc = signed_ok ? gr_q_i64_entry(q, item, "stones", i, &v[i]) : gr_q_u64_entry(q, item, "stones", i, &u);
        if (rc) {
            gr_free(v);
            return -1;
        }
        if (!signed_ok && u > (uint64_t)INT64_MAX) { /* checked before the cast */
            gr_free(v);
            char field[40];
            snprintf(field, sizeof field, "stones[%zu]", i);
            return gr_fail(q->err, GR_E_OUT_OF_RANGE, field, "%s is %" PRIu64 "; a pile holds at most "
                           "9223372036854775807 stones", field, u);
        }
        if (!signed_ok)
            v[i] = (int64_t)u;
        i++;
    }
    *out = v;
    *n = count;
    return 0;
}

/* Sets winner and value, the empty components, and the "rule" step. */
void gr_score_answer(gr_query *q, gr_i128 value, const char *what)
{
    q->ans.has_value = true;
    q->ans.value = value;
    gr_ans_components(q);
    gr_why_say(q, gr_why_step(q, "rule"), "%s", what);
}

/* next.stones = stones[from .. from + n). */
int gr_score_next_stones(gr_query *q, const int64_t *stones, size_t from, size_t n)
{
    gr_jw_node *arr = gr_jw_array(gr_ans_next(q), "stones");
    for (size_t i = from; i < from + n; i++)
        gr_jw_i128(arr, NULL, stones[i]);
    return 0;
}

gr_i128 gr_score_sum(const int64_t *v, size_t n)
{
    gr_i128 s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

static int solve_stones(gr_query *q, const void *pos)
{
    const gr_stones_position *p = pos;
    return p->solve(q, p->stones, p->n, p->m);
}

const gr_position *gr_stones_position_of(gr_stones_position *p)
{
    p->position = (gr_position){ solve_stones, p };
    return &p->position;
}
