#include "api/heap_sum.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int gr_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t gr_max_u64(const uint64_t *v, size_t n)
{
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

void gr_text_nim_sum(gr_text *t, const uint64_t *values, size_t n, uint64_t x)
{
    enum { SHOWN = 12 };
    if (n == 0) {
        gr_text_add(t, "(no piles) = 0");
        return;
    }
    for (size_t i = 0; i < n && i < SHOWN; i++)
        gr_text_add(t, "%s%" PRIu64, i ? " ^ " : "", values[i]);
    if (n > SHOWN)
        gr_text_add(t, " ^ ... (%zu values)", n);
    gr_text_add(t, " = %" PRIu64, x);
}

int gr_next_piles(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv)
{
    cJSON *next = gr_ans_next(q);
    cJSON *arr = next ? cJSON_AddArrayToObject(next, "piles") : NULL;
    if (!arr)
        return gr_oom(q);
    for (size_t k = 0; k < n; k++) {
        if (k != i) {
            cJSON_AddItemToArray(arr, gr_json_u64_item(piles[k]));
            continue;
        }
        if (mv->nparts == 0)
            cJSON_AddItemToArray(arr, gr_json_u64_item(0));
        for (unsigned j = 0; j < mv->nparts; j++)
            cJSON_AddItemToArray(arr, gr_json_u64_item(mv->part[j]));
    }
    return 0;
}

static int add_components(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                          const gr_heap_rules *r)
{
    if (gr_ans_components(q))
        return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *c = gr_ans_component(q);
        if (!c)
            return -1;
        gr_json_add_u64(c, "pile", i);
        gr_json_add_u64(c, "size", piles[i]);
        gr_json_add_u64(c, "grundy", values[i]);
        if (r->seq && r->seq->periodic) {
            cJSON *p = cJSON_AddObjectToObject(c, "period");
            gr_json_add_u64(p, "preperiod", r->seq->preperiod);
            gr_json_add_u64(p, "period", r->seq->period);
        }
    }
    return 0;
}

static void move_text(cJSON *move, size_t i, uint64_t n, const gr_heap_move *mv)
{
    gr_text t = { .len = 0 };
    if (mv->nparts == 2 && mv->take == 0)
        gr_text_add(&t, "Split pile %zu (%" PRIu64 ") into %" PRIu64 " and %" PRIu64 ".", i, n,
                    mv->part[0], mv->part[1]);
    else if (mv->nparts == 2)
        gr_text_add(&t, "Take %" PRIu64 " from pile %zu (%" PRIu64 ") and split the rest into %" PRIu64
                    " and %" PRIu64 ".", mv->take, i, n, mv->part[0], mv->part[1]);
    else
        gr_text_add(&t, "Take %" PRIu64 " from pile %zu (%" PRIu64 " -> %" PRIu64 ").", mv->take, i, n,
                    n - mv->take);
    cJSON_AddStringToObject(move, "text", t.buf);
}

int gr_heap_answer_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv)
{
    cJSON *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_json_add_u64(move, "pile", i);
    gr_json_add_u64(move, "take", mv->take);
    gr_json_add_u64(move, "from", piles[i]);
    if (mv->nparts == 2) {
        cJSON_AddItemToObject(move, "split", gr_json_u64_array(mv->part, 2));
    } else {
        gr_json_add_u64(move, "to", piles[i] - mv->take);
    }
    move_text(move, i, piles[i], mv);
    return gr_next_piles(q, piles, n, i, mv);
}

/* The first heap whose value can drop to value ^ x, and the game's move there. */
static int find_move(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                     uint64_t x, const gr_heap_rules *r)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t target = values[i] ^ x;
        if (target >= values[i])
            continue;
        gr_heap_move mv = { 0 };
        gr_status s = r->move(r->ctx, piles[i], target, &mv);
        if (s != GR_OK) {
            char field[40];
            snprintf(field, sizeof field, "piles[%zu]", i);
            return gr_fail_engine(q->err, s, field, "finding the winning move");
        }
        gr_text_add(&q->ans.explanation, " Move pile %zu from Grundy value %" PRIu64 " to %" PRIu64 ".",
                    i, values[i], target);
        return gr_heap_answer_move(q, piles, n, i, &mv);
    }
    return gr_fail(q->err, 500, "internal", "piles", "no winning move found; please report this query");
}

int gr_heap_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r)
{
    uint64_t *values = malloc((n ? n : 1) * sizeof *values);
    if (!values)
        return gr_oom(q);
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        gr_status s = r->value(r->ctx, piles[i], &values[i]);
        if (s != GR_OK) {
            char field[40];
            snprintf(field, sizeof field, "piles[%zu]", i);
            free(values);
            return gr_fail_engine(q->err, s, field, "the Grundy value of this pile");
        }
        x ^= values[i];
    }
    int rc = add_components(q, piles, values, n, r);
    q->ans.grundy_known = true;
    q->ans.grundy = x;
    q->ans.winner = x ? "first" : "second";
    gr_text *t = &q->ans.explanation;
    gr_text_add(t, "%s. ", r->name);
    if (r->seq && r->seq->periodic)
        gr_text_add(t, "Values are periodic with period %" PRIu64 " from heap %" PRIu64
                    " (certified). ", r->seq->period, r->seq->preperiod);
    gr_text_add(t, "Nim-sum of the Grundy values: ");
    gr_text_nim_sum(t, values, n, x);
    gr_text_add(t, x ? ", non-zero, so the player to move wins by making it 0."
                     : ", zero, so every move loses: the player to move loses.");
    if (rc == 0 && x)
        rc = find_move(q, piles, values, n, x, r);
    free(values);
    return rc;
}
