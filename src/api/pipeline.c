/* SPDX-License-Identifier: MIT */
#include "pipeline.h"

#include <string.h>

#include "contract.h"
#include "registry.h"
#include "validate.h"
#include "grundy/alloc.h"

/* The 422 for misere play of a game that has no misere answer, naming the
 * games that have one, from the registry. */
static int misere_refused(gr_query *q, const gr_game *game)
{
    gr_text any = { .len = 0 }, one = { .len = 0 };
    for (size_t i = 0; i < gr_ngames; i++) {
        gr_text *t = gr_games[i]->misere_any ? &any : &one;
        if (gr_games[i]->misere)
            gr_text_add(t, "%s%s", t->len ? ", " : "", gr_games[i]->name);
    }
    return gr_fail(q->err, GR_E_UNSUPPORTED_CONVENTION, "convention",
                   "misere play is not answered for %s: the Sprague-Grundy sum rule does not "
                   "hold under misere play; misere is answered for %s, and for one heap or token "
                   "of %s. Use \"convention\": \"normal\"", game->name, any.buf, one.buf);
}

/* convention and compound are validated (validate.h); what is left is
 * whether this game answers them together. */
static int read_convention(gr_query *q, const gr_game *game)
{
    const cJSON *c = gr_q_get(q, "convention");
    if (!c || cJSON_IsNull(c) || strcmp(gr_choice_canonical(c->valuestring), "misere") != 0)
        return 0;
    if (!game->misere)
        return misere_refused(q, game);
    q->misere = true;
    return 0;
}

static int read_compound(gr_query *q, const gr_game *game)
{
    const cJSON *c = gr_q_get(q, "compound");
    if (!c || cJSON_IsNull(c))
        return 0;
    for (unsigned i = 0; i <= GR_CONJUNCTIVE; i++) {
        if (strcmp(c->valuestring, gr_compound_name((gr_compound)i)) != 0)
            continue;
        if (!(game->compounds & GR_COMPOUND_BIT(i)))
            return gr_fail(q->err, GR_E_UNSUPPORTED_COMPOUND, "compound",
                           "the %s compound is not answered for %s: %s; drop \"compound\"",
                           gr_compound_name((gr_compound)i), game->name,
                           game->compound_note ? game->compound_note : "not among its compounds");
        if (i != GR_DISJUNCTIVE && q->misere)
            return gr_fail(q->err, GR_E_UNSUPPORTED_COMPOUND, "compound",
                           "the %s compound is answered under normal play only; use "
                           "\"convention\": \"normal\"", gr_compound_name((gr_compound)i));
        q->compound = (gr_compound)i;
        return 0;
    }
    return 0;
}

/* "explain" is validated (validate.h): absent, null or true explain. */
static void read_explain(gr_query *q)
{
    q->slim = q->outcome_only || cJSON_IsFalse(gr_q_get(q, "explain"));
    q->ans.explanation.muted = q->slim;
}

/* A member named twice is refused rather than read as either value: clients
 * merging {...request, ...next} keep the last, cJSON would keep the first. */
static int reject_duplicates(gr_query *q)
{
    const char *name;
    int rc = gr_json_duplicate_member(q->obj, &name);
    if (rc < 0)
        return gr_oom(q);
    if (rc == 0)
        return 0;
    char shown[64];
    gr_printable(name, shown, sizeof shown);
    return gr_fail(q->err, GR_E_INVALID_FIELD, name,
                   "the member \"%s\" appears more than once; send each member once", shown);
}

static int read_game(gr_query *q, const gr_game **out)
{
    const cJSON *g = gr_q_get(q, "game");
    if (g && cJSON_IsString(g) && (*out = gr_game_find(g->valuestring)) != NULL)
        return 0;
    gr_text names = { .len = 0 };
    gr_game_names(&names);
    if (!g || cJSON_IsNull(g))
        return gr_fail(q->err, GR_E_MISSING_FIELD, "game",
                       "the field \"game\" is required: one of %s", names.buf);
    if (!cJSON_IsString(g))
        return gr_fail(q->err, GR_E_INVALID_FIELD, "game", "\"game\" must be a string such as \"nim\"");
    const char *list[64];
    size_t n = 0;
    for (size_t i = 0; i < gr_ngames && n < sizeof list / sizeof *list; i++)
        list[n++] = gr_games[i]->name;
    return gr_fail_unknown_name(q->err, GR_E_UNKNOWN_GAME, "game", "game", g->valuestring, list, n);
}

void gr_answer_free(gr_answer *a)
{
    gr_jw_free(&a->components);
    gr_jw_free(&a->move);
    gr_jw_free(&a->next);
    gr_jw_free(&a->why);
    gr_scratch_free(a->winning.moves.data);
    bool muted = a->explanation.muted; /* the query's, not the answer's */
    memset(a, 0, sizeof *a);
    a->explanation.muted = muted;
}

void gr_render_head(gr_buf *b, const gr_query *q, const gr_game *game)
{
    gr_buf_str(b, "{\"game\":");
    gr_buf_json_string(b, game->name);
    gr_buf_str(b, q->misere ? ",\"convention\":\"misere\"" : ",\"convention\":\"normal\"");
    if (q->compound != GR_DISJUNCTIVE) {
        gr_buf_str(b, ",\"compound\":");
        gr_buf_json_string(b, gr_compound_name(q->compound));
    }
}

void gr_api_error_reply(const gr_api_error *e, gr_reply *out)
{
    out->game = NULL;
    out->error = e->code;
    out->status = e->status;
    out->body = gr_error_json(e, &out->len);
}

int gr_query_prepare(gr_query *q, const gr_game **game, const char *const *extra)
{
    if (!cJSON_IsObject(q->obj))
        return gr_fail(q->err, GR_E_INVALID_QUERY, "",
                       "the body must be a JSON object such as {\"game\":\"nim\",\"piles\":[3,4,5]}");
    if (reject_duplicates(q) || read_game(q, game) || gr_validate(q, *game, extra) ||
        read_convention(q, *game) || read_compound(q, *game))
        return -1;
    read_explain(q);
    return 0;
}

int gr_query_answer(gr_query *q, const gr_game **game)
{
    if (gr_query_prepare(q, game, NULL))
        return -1;
    if ((*game)->analyze(q))
        return -1;
    if (q->ans.winner && strcmp(q->ans.winner, "second") == 0)
        gr_ans_clear_move(&q->ans);
    return 0;
}

void gr_explain_stop(const gr_limits *limits, const gr_budget *budget, bool batch, gr_api_error *err)
{
    if (!err->code || strcmp(err->code, gr_error_name(GR_E_LIMIT_EXCEEDED)) != 0 || !budget->deadline)
        return;
    gr_budget_stop why = gr_budget_stopped(budget);
    char field[sizeof err->field];
    memcpy(field, err->field, sizeof field);
    if (why == GR_STOP_CANCEL)
        gr_fail(err, GR_E_SHUTTING_DOWN, field,
                "the query was cancelled before an answer was certain (the service is stopping, or "
                "the client went away); send it again");
    else if (why == GR_STOP_CPU && !batch)
        gr_fail(err, GR_E_LIMIT_EXCEEDED, field,
                "the query used its %llu ms of CPU time before an answer was certain; ask for a "
                "smaller position (grundyd's --query-cpu-ms or GRUNDYD_QUERY_CPU_MS sets the limit)",
                (unsigned long long)limits->query_cpu_ms);
    else if (why == GR_STOP_CPU)
        gr_fail(err, GR_E_LIMIT_EXCEEDED, field,
                "the query used the %llu ms of CPU time it was given before an answer was certain "
                "(the least of --query-cpu-ms, %llu ms, and what the queries before it left of the "
                "batch's --batch-cpu-ms, %llu ms, but at least a thousandth of --query-cpu-ms); ask "
                "for a smaller position, or send it in a batch of its own",
                (unsigned long long)((budget->deadline->limit_ns + 500000) / 1000000),
                (unsigned long long)limits->query_cpu_ms, (unsigned long long)limits->batch_cpu_ms);
}

void gr_explain_memory(const gr_limits *limits, const gr_mem_account *mem, gr_api_error *err)
{
    gr_mem_stop why = gr_mem_stopped(mem);
    if (why == GR_MEM_OK || !err->code || strcmp(err->code, gr_error_name(GR_E_OVERLOADED)) != 0)
        return;
    char field[sizeof err->field];
    memcpy(field, err->field, sizeof field);
    if (why == GR_MEM_QUERY)
        gr_fail(err, GR_E_MEMORY_LIMIT, field,
                "the query needed more than its %llu bytes of memory before an answer was certain; ask "
                "for a smaller position (grundyd's --query-memory or GRUNDYD_QUERY_MEMORY sets the limit)",
                (unsigned long long)limits->query_memory);
    else
        gr_fail(err, GR_E_OVERLOADED, field,
                "the queries in flight hold all of the %llu bytes of memory the service gives queries "
                "together (--query-memory-total); retry later",
                (unsigned long long)gr_mem_total_limit());
}

const gr_game *gr_api_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (gr_games[i]->fast && gr_games[i]->fast(limits, body, len, out))
            return gr_games[i];
    return NULL;
}
