/* SPDX-License-Identifier: MIT */
/* Subtraction games whose moves are a rule: "squares", "powers_of_two",
 * "primes". The sets are infinite, so values come from the table file's
 * precomputed Grundy values and win/loss bits, up to their documented
 * bounds, or are computed on demand to the same on-demand bounds. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "subtraction_rules.h"
#include "heap_sum.h"
#include "why.h"
#include "grundy/heapplay.h"
#include "grundy/rules.h"
#include "tables/format.h"
#include "tables/tables.h"

/* Without a table file: computed per query within the budget. */
#define ON_DEMAND_GRUNDY UINT64_C(16384)
#define ON_DEMAND_OUTCOME UINT64_C(1) << 20

typedef struct rule_ctx {
    gr_rule rule;
    gr_seq grundy;          /* g(0 .. grundy.count); owned when computed */
    gr_outcome_bits outcome; /* computed win/loss, when no table has them */
    const gr_tables *tables;
    char outcome_name[GR_TF_NAME_LEN];
    gr_budget *budget;
} rule_ctx;

static int read_rule(gr_query *q, const cJSON *moves, gr_rule *rule)
{
    const char *twice;
    int dup = gr_json_duplicate_member(moves, &twice);
    if (dup < 0)
        return gr_oom(q);
    if (dup > 0 && strcmp(twice, "rule") == 0)
        return gr_fail(q->err, GR_E_INVALID_FIELD, "moves.rule",
                       "\"rule\" appears more than once in \"moves\"; send it once");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(moves, "rule");
    if (r && cJSON_IsString(r) && gr_rule_parse(r->valuestring, rule) == GR_OK)
        return 0;
    return gr_fail(q->err, GR_E_INVALID_FIELD, "moves.rule",
                   "\"moves\" must be an array of positive integers or {\"rule\": R} with R one of "
                   "\"squares\", \"powers_of_two\", \"primes\"");
}

static void load_grundy(gr_query *q, rule_ctx *c, uint64_t need)
{
    char name[GR_TF_NAME_LEN];
    snprintf(name, sizeof name, GR_TN_RULE_PREFIX "%s:grundy", gr_rule_name(c->rule));
    if (q->tables && gr_tables_sequence(q->tables, name, &c->grundy))
        return;
    if (need < ON_DEMAND_GRUNDY && gr_rule_grundy(c->rule, need, &q->budget, &c->grundy) != GR_OK)
        memset(&c->grundy, 0, sizeof c->grundy);
}

static gr_status rule_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    uint16_t v;
    gr_status s = gr_seq_value(&((const rule_ctx *)ctx)->grundy, n, &v);
    *g = v;
    return s;
}

static void rule_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    gr_rule rule = *(const gr_rule *)ctx;
    for (uint64_t take = 0; gr_rule_next(rule, take, &take) && take <= n;) {
        gr_heap_move mv = gr_heap_take(n, take);
        emit(arg, &mv);
    }
}

static gr_status rule_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                             gr_heap_move *mv)
{
    (void)pile;
    gr_heap_game game = { &((const rule_ctx *)ctx)->rule, rule_options };
    return gr_heap_remoteness(&game, n, b, r, mv);
}

static gr_status rule_misere(const void *ctx, uint64_t n, gr_budget *b, bool *win, gr_heap_move *mv)
{
    gr_heap_game game = { ctx, rule_options };
    return gr_heap_misere(&game, n, b, win, mv);
}

static gr_status rule_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    const rule_ctx *c = ctx;
    uint64_t take;
    gr_status s = gr_rule_move_grundy(c->rule, &c->grundy, n, (uint16_t)target, c->budget, &take);
    if (s == GR_OK) {
        *mv = gr_heap_take(n, take);
    }
    return s;
}

/* Win/loss of heap n from the table's bits or bits computed on demand. */
static gr_status outcome_of(gr_query *q, rule_ctx *c, uint64_t n, bool *win)
{
    snprintf(c->outcome_name, sizeof c->outcome_name, GR_TN_RULE_PREFIX "%s:outcome",
             gr_rule_name(c->rule));
    if (q->tables && gr_tables_bit(q->tables, c->outcome_name, n, win))
        return GR_OK;
    if (q->tables && gr_tables_bits(q->tables, c->outcome_name))
        return GR_EBOUND;
    if (n >= ON_DEMAND_OUTCOME)
        return GR_EBOUND;
    if (n >= c->outcome.count) { /* computed once, for the largest heap asked first */
        gr_outcome_bits_free(&c->outcome);
        gr_status s = gr_rule_outcomes(c->rule, n, &q->budget, &c->outcome);
        if (s != GR_OK)
            return s;
    }
    return gr_outcome_bits_get(&c->outcome, n, win);
}

/* The winning move from heap n: to the least n - s that is a P-position. */
static gr_status winning_take(gr_query *q, rule_ctx *c, uint64_t n, uint64_t *take)
{
    for (uint64_t s = 0; gr_rule_next(c->rule, s, &s) && s <= n;) {
        bool win;
        if (!gr_budget_spend(&q->budget, 1))
            return GR_ELIMIT;
        gr_status st = outcome_of(q, c, n - s, &win);
        if (st != GR_OK)
            return st;
        if (!win) {
            *take = s;
            return GR_OK;
        }
    }
    return GR_EINVAL;
}

static int beyond(gr_query *q, rule_ctx *c, uint64_t n, bool single)
{
    uint64_t bits = q->tables ? gr_tables_bits(q->tables, c->outcome_name) : ON_DEMAND_OUTCOME;
    if (!single)
        return gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                       "a sum of several %s subtraction games needs Grundy values, known for heaps "
                       "below %" PRIu64 "; heap %" PRIu64 " is past them", gr_rule_name(c->rule),
                       c->grundy.count, n);
    return gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                   "the %s subtraction game is decided for heaps below %" PRIu64 "; heap %" PRIu64
                   " is past that bound", gr_rule_name(c->rule), bits, n);
}

/* One heap past the Grundy values: win/loss and a winning move from the bits. */
static int single_heap(gr_query *q, rule_ctx *c, const uint64_t *piles)
{
    bool win;
    gr_status s = outcome_of(q, c, piles[0], &win);
    if (s == GR_EBOUND)
        return beyond(q, c, piles[0], true);
    if (s != GR_OK)
        return gr_fail_engine(q->err, s, "piles[0]", "the outcome of this heap");
    q->ans.winner = win ? "first" : "second";
    if (gr_pile_components(q, piles, 1, NULL))
        return -1;
    gr_jw_node *step = gr_why_step(q, "outcome_table");
    gr_jw_str(step, "rule", gr_rule_name(c->rule));
    gr_jw_u64(step, "heap", piles[0]);
    gr_jw_u64(step, "grundy_bound", c->grundy.count);
    gr_jw_bool(step, "win", win);
    gr_why_say(q, step, "Subtraction game with S = the %s. Heap %" PRIu64 " is past the "
                "precomputed Grundy values (heaps below %" PRIu64 "), so it is decided from the "
                "precomputed win/loss table: it is %s.", gr_rule_name(c->rule), piles[0],
                c->grundy.count, win ? "a win for the player to move "
                "(move to a losing heap)" : "a loss for the player to move");
    if (!win)
        return 0;
    uint64_t take;
    s = winning_take(q, c, piles[0], &take);
    if (s != GR_OK)
        return gr_fail_engine(q->err, s, "piles[0]", "finding the winning move");
    gr_heap_move mv = gr_heap_take(piles[0], take);
    return gr_heap_answer_move(q, piles, 1, 0, &mv);
}

/* A heap's options are the prefix of the rule's elements up to it, found
 * once per query up to the largest heap (gr_rule_set_make). */
static gr_u128 rule_count(void *ctx, size_t pile, uint64_t n)
{
    (void)pile;
    const gr_rule_set *set = ctx;
    return gr_sorted_count_upto(set->s, set->count, n);
}

static void rule_at(void *ctx, size_t pile, uint64_t n, gr_u128 k, gr_heap_move *mv)
{
    (void)pile;
    *mv = gr_heap_take(n, ((const gr_rule_set *)ctx)->s[(size_t)k]);
}

/* The winning moves of heaps within the Grundy values, by their options. */
static int rule_winning(gr_query *q, rule_ctx *c, const uint64_t *piles, size_t n, gr_heap_rules *rules,
                        gr_move_sink *sink)
{
    gr_rule_set set = { NULL, 0, 0 };
    gr_status s = gr_rule_set_make(c->rule, gr_max_u64(piles, n), &q->budget, &set);
    int rc;
    if (s == GR_OK) {
        gr_heap_options o = { &set, rule_count, rule_at };
        rules->options = &o;
        rc = gr_heap_winning(q, piles, n, rules, sink);
        rules->options = NULL;
    } else {
        rc = gr_fail_engine(q->err, s, "piles", "finding the rule's elements up to the largest heap");
    }
    gr_rule_set_free(&set);
    return rc;
}

/* The answer (sink NULL) or the winning moves into sink, for piles in memory. */
static int solve_piles(gr_query *q, gr_rule rule, const uint64_t *piles, size_t n, gr_move_sink *sink)
{
    rule_ctx c = { .tables = q->tables, .budget = &q->budget, .rule = rule };
    if (q->misere && sink)
        return 1;
    if (q->misere) {
        char name[64];
        snprintf(name, sizeof name, "subtraction game with S = the %s", gr_rule_name(c.rule));
        return gr_heap_misere_single(q, piles, n, rule_misere, &c.rule, name);
    }
    uint64_t need = gr_max_u64(piles, n);
    load_grundy(q, &c, need);
    int rc;
    char name[64];
    snprintf(name, sizeof name, "Subtraction game with S = the %s", gr_rule_name(c.rule));
    if (need < c.grundy.count) {
        gr_heap_rules rules = { .ctx = &c, .value = rule_value, .move = rule_move, .name = name,
                                .remote = rule_remote };
        rc = sink ? rule_winning(q, &c, piles, n, &rules, sink) : gr_heap_sum(q, piles, n, &rules);
    } else if (sink) {
        rc = 1;
    } else {
        /* One heap past the Grundy values is decided from the win/loss bits;
         * a compound other than the disjunctive one needs the values. */
        rc = n == 1 && q->compound == GR_DISJUNCTIVE ? single_heap(q, &c, piles) : beyond(q, &c, need, false);
    }
    gr_seq_free(&c.grundy);
    gr_outcome_bits_free(&c.outcome);
    return rc;
}

static int answer_piles(gr_query *q, const void *rule, const uint64_t *piles, size_t n)
{
    return solve_piles(q, *(const gr_rule *)rule, piles, n, NULL);
}

int gr_solve_subtraction_rule(gr_query *q, const cJSON *moves, gr_move_sink *sink)
{
    gr_rule rule;
    uint64_t *piles = NULL;
    size_t n;
    if (read_rule(q, moves, &rule) || gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &n))
        return -1;
    int rc = solve_piles(q, rule, piles, n, sink);
    gr_scratch_free(piles);
    return rc;
}

/* ---- listing moves ---------------------------------------------------------- */

int gr_subtraction_rule_moves(gr_query *q, const cJSON *moves, gr_move_sink *sink)
{
    gr_rule rule;
    gr_rule_set set = { NULL, 0, 0 };
    uint64_t *piles = NULL;
    size_t n;
    if (read_rule(q, moves, &rule) || gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &n))
        return -1;
    uint64_t top = gr_max_u64(piles, n);
    int rc;
    if (top > ON_DEMAND_OUTCOME) {
        rc = gr_fail(q->err, GR_E_BEYOND_BOUND, "piles", "the moves of the %s are listed for heaps up to "
                     "%" PRIu64 "; send smaller heaps", gr_rule_name(rule), (uint64_t)ON_DEMAND_OUTCOME);
    } else {
        gr_status s = gr_rule_set_make(rule, top, &q->budget, &set);
        rc = s == GR_OK ? 0 : gr_fail_engine(q->err, s, "piles", "finding the rule's elements up to the "
                                             "largest heap");
    }
    if (rc == 0)
        rc = gr_heap_moves(q, piles, n, NULL, &(gr_heap_options){ &set, rule_count, rule_at },
                           &(gr_heap_solver){ answer_piles, &rule }, sink);
    gr_rule_set_free(&set);
    gr_scratch_free(piles);
    return rc;
}
