/* staircase: Nim on the odd-numbered stairs. */
#include <inttypes.h>
#include <stdlib.h>

#include "api/games.h"
#include "api/heap_sum.h"
#include "grundy/staircase.h"

static int stair_components(gr_query *q, const uint64_t *stairs, size_t n)
{
    if (gr_ans_components(q))
        return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *c = gr_ans_component(q);
        if (!c)
            return -1;
        gr_json_add_u64(c, "stair", i);
        gr_json_add_u64(c, "coins", stairs[i]);
        gr_json_add_u64(c, "grundy", (i & 1) ? stairs[i] : 0);
    }
    return 0;
}

static int stair_move(gr_query *q, const uint64_t *stairs, size_t n, const gr_stair_move *m)
{
    cJSON *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_json_add_u64(move, "from", m->from);
    gr_json_add_u64(move, "to", m->from - 1);
    gr_json_add_u64(move, "count", m->count);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Move %" PRIu64 " coin%s from stair %zu down to stair %zu.", m->count,
                m->count == 1 ? "" : "s", m->from, m->from - 1);
    cJSON_AddStringToObject(move, "text", t.buf);
    cJSON *next = gr_ans_next(q);
    cJSON *arr = next ? cJSON_AddArrayToObject(next, "stairs") : NULL;
    if (!arr)
        return gr_oom(q);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = stairs[i];
        if (i == m->from)
            v -= m->count;
        else if (i + 1 == m->from)
            v += m->count; /* cannot overflow: total coins fit, see gr_analyze_staircase */
        cJSON_AddItemToArray(arr, gr_json_u64_item(v));
    }
    return 0;
}

/* The total is checked so that moving coins down never overflows a stair. */
static int check_total(gr_query *q, const uint64_t *stairs, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (stairs[i] > GR_INT_MAX - total)
            return gr_fail(q->err, 422, "out_of_range", "stairs",
                           "the coins on all stairs together must not exceed 9223372036854775807");
        total += stairs[i];
    }
    return 0;
}

int gr_analyze_staircase(gr_query *q)
{
    uint64_t *stairs;
    size_t n;
    if (gr_q_u64_list(q, "stairs", q->limits->max_items, true, &stairs, &n))
        return -1;
    int rc = check_total(q, stairs, n);
    gr_stair_move m = { 0, 0 };
    bool win = rc == 0 && gr_staircase_normal(stairs, n, &m);
    if (rc == 0)
        rc = stair_components(q, stairs, n);
    if (rc == 0) {
        uint64_t x = gr_staircase_value(stairs, n);
        q->ans.winner = win ? "first" : "second";
        q->ans.grundy_known = true;
        q->ans.grundy = x;
        gr_text_add(&q->ans.explanation,
                    "Staircase nim is nim on the odd-numbered stairs (stair 0 is the floor): "
                    "coins moved from an even stair to an odd one can be moved straight on. "
                    "Nim-sum of the odd stairs = %" PRIu64 "%s", x,
                    win ? ", non-zero: the player to move wins by moving coins off an odd stair."
                        : ", zero: the player to move loses.");
        if (win)
            rc = stair_move(q, stairs, n, &m);
    }
    free(stairs);
    return rc;
}
