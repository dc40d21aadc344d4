/* SPDX-License-Identifier: MIT */
#include "analyze.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "validate.h"
#include "winning.h"
#include "grundy/alloc.h"

/* ,"key": then the member as the game wrote it, or `absent`. */
static void put_member(gr_buf *b, const char *key, gr_jw *w, const char *absent)
{
    gr_buf_put(b, ",\"", 2);
    gr_buf_str(b, key);
    gr_buf_put(b, "\":", 2);
    gr_jw_append(b, w, absent);
}

/* Writes the answer in the contract's key order. */
static char *render(gr_query *q, const gr_game *game, size_t *len)
{
    gr_answer *a = &q->ans;
    gr_buf b = { 0 };
    gr_render_head(&b, q, game);
    gr_buf_str(&b, ",\"winner\":");
    gr_buf_json_string(&b, a->winner);
    gr_buf_str(&b, ",\"grundy\":");
    if (a->grundy_known)
        gr_buf_u64(&b, a->grundy);
    else
        gr_buf_put(&b, "null", 4);
    if (a->has_value) {
        char v[48];
        gr_json_format_i128(a->value, v);
        gr_buf_str(&b, ",\"value\":");
        gr_buf_str(&b, v);
    }
    put_member(&b, "components", &a->components, "[]");
    put_member(&b, "move", &a->move, "null");
    put_member(&b, "next", &a->next, "null");
    if (!q->slim) {
        if (a->winning.listed)
            gr_winning_render(&b, &a->winning);
        put_member(&b, "why", &a->why, "{\"steps\":[]}");
        gr_buf_str(&b, ",\"explanation\":");
        gr_buf_json_string(&b, a->explanation.buf);
    }
    gr_buf_put(&b, "}", 1);
    if (b.oom) {
        gr_scratch_free(b.data);
        return NULL;
    }
    *len = b.len;
    return b.data;
}

static void answer_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node, bool batch,
                        gr_budget *budget, gr_api_error *err, gr_reply *out)
{
    gr_query q = { .doc = doc, .obj = node, .limits = &svc->limits, .tables = svc->tables,
                   .cache = svc->cache, .grundys_rare = &svc->grundys_rare, .budget = *budget,
                   .batch = batch, .err = err };
    const gr_game *game = NULL;
    gr_mem_account mem;
    bool own = gr_mem_open(&mem, svc->limits.query_memory);
    int rc = gr_query_answer(&q, &game);
    if (rc == 0 && !q.slim)
        gr_winning_moves(&q, game, budget->left - q.budget.left);
    *budget = q.budget;
    if (rc != 0)
        gr_explain_stop(&svc->limits, budget, batch, err);
    if (rc == 0) {
        out->status = 200;
        out->error = NULL;
        out->body = render(&q, game, &out->len);
    }
    gr_answer_free(&q.ans);
    if (rc == 0 && !out->body)
        gr_fail(err, GR_E_OVERLOADED, "", "out of memory rendering the answer; retry later");
    if (own) {
        gr_explain_memory(&svc->limits, &mem, err);
        gr_mem_close(&mem);
    }
    if (rc != 0 || !out->body)
        gr_api_error_reply(err, out);
    out->game = game;
}

void gr_api_answer_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node,
                        gr_budget *budget, gr_api_error *err, gr_reply *out)
{
    answer_node(svc, doc, node, false, budget, err, out);
}

void gr_api_answer_batch_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node,
                              gr_budget *budget, gr_api_error *err, gr_reply *out)
{
    answer_node(svc, doc, node, true, budget, err, out);
}

bool gr_api_answer_fast(const gr_service *svc, const char *body, size_t len, gr_reply *out)
{
    gr_buf b = { 0 };
    const gr_game *game = gr_api_fast(&svc->limits, body, len, &b);
    if (!game) {
        gr_scratch_free(b.data);
        return false;
    }
    *out = (gr_reply){ 200, b.data, b.len, game, NULL };
    return true;
}

bool gr_api_attempt(const gr_service *svc, const char *body, size_t len, gr_attempt *a, gr_reply *out)
{
    if (gr_api_answer_fast(svc, body, len, out))
        return true;
    uint64_t total = gr_ms_to_ns(svc->limits.query_cpu_ms);
    uint64_t used = a->cpu_used_ns < total ? a->cpu_used_ns : total;
    gr_deadline deadline;
    gr_deadline_start(&deadline, total == UINT64_MAX ? total : total - used, a->cancel);
    gr_api_error err = { 0 };
    gr_json_doc doc;
    if (gr_json_parse(body, len, &doc, &err) != 0) {
        gr_api_error_reply(&err, out);
        return true;
    }
    bool limited = a->steps < svc->limits.budget;
    gr_budget budget = gr_budget_make_deadline(limited ? a->steps : svc->limits.budget, &deadline);
    gr_api_answer_node(svc, &doc, doc.root, &budget, &err, out);
    gr_json_free(&doc);
    if (!limited || budget.left > 0 || gr_budget_stopped(&budget) != GR_STOP_STEPS)
        return true;
    a->cpu_used_ns += gr_deadline_elapsed(&deadline);
    gr_scratch_free(out->body);
    *out = (gr_reply){ 0, NULL, 0, out->game, NULL };
    return false;
}

bool gr_api_answer_within(const gr_service *svc, const char *body, size_t len,
                          uint64_t inline_budget, gr_reply *out)
{
    gr_attempt a = { .steps = inline_budget };
    return gr_api_attempt(svc, body, len, &a, out);
}

void gr_api_analyze(const gr_service *svc, const char *body, size_t len, gr_reply *out)
{
    gr_api_answer_within(svc, body, len, UINT64_MAX, out);
}
