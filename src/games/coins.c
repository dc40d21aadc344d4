/* SPDX-License-Identifier: MIT */
/* coins: coin-turning games on a row numbered from 1 at the left. The
 * position is the set of heads; a move turns over a set of coins whose
 * rightmost goes from heads to tails. Each head is a component. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "heap_sum.h"
#include "sum_why.h"
#include "why.h"
#include "grundy/coins.h"

static const struct {
    const char *name;
    gr_coins_rule rule;
    const char *summary;
} rules[] = {
    { "turning_turtles", GR_COINS_TURNING_TURTLES,
      "turn one coin from heads to tails and optionally one coin to its left; g(p) = p" },
    { "mock_turtles", GR_COINS_MOCK_TURTLES,
      "turn up to three coins, the rightmost from heads to tails; g(p) = the p-th odious number" },
    { "ruler", GR_COINS_RULER,
      "turn a run of consecutive coins, the rightmost from heads to tails; g(p) = the largest "
      "power of 2 dividing p" },
};

typedef struct coins_pos {
    uint64_t *heads;  /* request order */
    uint64_t *sorted; /* ascending, for lookups */
    size_t n;
} coins_pos;

static int read_rule(gr_query *q, size_t *which)
{
    const cJSON *r = gr_q_get(q, "rule");
    for (size_t i = 0; cJSON_IsString(r) && i < sizeof rules / sizeof *rules; i++) {
        if (strcmp(r->valuestring, rules[i].name) == 0) {
            *which = i;
            return 0;
        }
    }
    return gr_fail(q->err, r ? GR_E_INVALID_FIELD : GR_E_MISSING_FIELD, "rule",
                   "\"rule\" must be \"turning_turtles\", \"mock_turtles\" or \"ruler\"");
}

static int read_heads(gr_query *q, coins_pos *p)
{
    if (gr_q_u64_list(q, "heads", q->limits->max_items, true, &p->heads, &p->n))
        return -1;
    for (size_t i = 0; i < p->n; i++) {
        if (p->heads[i] >= 1 && p->heads[i] <= GR_COINS_MAX_POS)
            continue;
        char field[40];
        snprintf(field, sizeof field, "heads[%zu]", i);
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, field, "coin positions run from 1 (the leftmost "
                       "coin) to 10^18; got %" PRIu64, p->heads[i]);
    }
    p->sorted = gr_malloc((p->n + 1) * sizeof *p->sorted);
    if (!p->sorted)
        return gr_oom(q);
    memcpy(p->sorted, p->heads, p->n * sizeof *p->heads);
    qsort(p->sorted, p->n, sizeof *p->sorted, gr_cmp_u64);
    for (size_t i = 1; i < p->n; i++)
        if (p->sorted[i] == p->sorted[i - 1])
            return gr_fail(q->err, GR_E_INVALID_FIELD, "heads", "position %" PRIu64 " is listed "
                           "twice; list each head once", p->sorted[i]);
    return 0;
}

static bool is_head(const coins_pos *p, uint64_t c)
{
    return bsearch(&c, p->sorted, p->n, sizeof c, gr_cmp_u64) != NULL;
}

/* Whether coin c is among those the move turns over. */
static bool turned(const gr_coins_move *mv, gr_coins_rule rule, uint64_t c)
{
    if (c == mv->pos)
        return true;
    if (rule == GR_COINS_RULER)
        return c >= mv->run_from && c < mv->pos;
    for (unsigned i = 0; i < mv->nothers; i++)
        if (mv->others[i] == c)
            return true;
    return false;
}

/* Heads at positions lo .. hi (inclusive), by binary search. */
static uint64_t heads_between(const coins_pos *p, uint64_t lo, uint64_t hi)
{
    size_t a = 0, b = p->n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (p->sorted[mid] < lo)
            a = mid + 1;
        else
            b = mid;
    }
    size_t first = a;
    b = p->n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (p->sorted[mid] <= hi)
            a = mid + 1;
        else
            b = mid;
    }
    return a - first;
}

/* Heads the position has after the move: every turned coin flips. */
static uint64_t heads_after(const coins_pos *p, const gr_coins_move *mv, gr_coins_rule rule)
{
    uint64_t turned = 1 + (rule == GR_COINS_RULER ? mv->pos - mv->run_from : mv->nothers), were = 1;
    if (rule == GR_COINS_RULER)
        were = heads_between(p, mv->run_from, mv->pos);
    else
        for (unsigned i = 0; i < mv->nothers; i++)
            were += is_head(p, mv->others[i]);
    return p->n - were + (turned - were);
}

/* The heads after the move, as next lists them: the request's heads in
 * order, less those turned to tails, then the coins turned to heads,
 * ascending. out has room for heads_after(p, mv, rule); their count. */
static size_t heads_after_move(const coins_pos *p, const gr_coins_move *mv, gr_coins_rule rule, uint64_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!turned(mv, rule, p->heads[i]))
            out[n++] = p->heads[i];
    if (rule != GR_COINS_RULER) {
        for (unsigned i = 0; i < mv->nothers; i++)
            if (!is_head(p, mv->others[i]))
                out[n++] = mv->others[i];
        return n;
    }
    for (uint64_t c = mv->run_from; c < mv->pos; c++)
        if (!is_head(p, c))
            out[n++] = c;
    return n;
}

/* The position after the move, in memory (heads from gr_malloc). */
static int position_after(gr_query *q, const coins_pos *p, const gr_coins_move *mv, gr_coins_rule rule,
                          coins_pos *after)
{
    size_t count = (size_t)heads_after(p, mv, rule);
    after->heads = gr_malloc((count + 1) * sizeof *after->heads);
    after->sorted = gr_malloc((count + 1) * sizeof *after->sorted);
    if (!after->heads || !after->sorted)
        return gr_oom(q);
    after->n = heads_after_move(p, mv, rule, after->heads);
    memcpy(after->sorted, after->heads, after->n * sizeof *after->heads);
    qsort(after->sorted, after->n, sizeof *after->sorted, gr_cmp_u64);
    return 0;
}

static int next_heads(gr_query *q, const coins_pos *p, const gr_coins_move *mv, gr_coins_rule rule)
{
    coins_pos after = { 0 };
    int rc = position_after(q, p, mv, rule, &after);
    if (rc == 0)
        gr_jw_u64s(gr_ans_next(q), "heads", after.heads, after.n);
    gr_free(after.heads);
    gr_free(after.sorted);
    return rc;
}

static void move_fields(gr_jw_node *move, const gr_coins_move *mv, gr_coins_rule rule)
{
    gr_text t = { .len = 0 };
    gr_jw_u64(move, "coin", mv->pos);
    if (rule == GR_COINS_RULER) {
        uint64_t run[2] = { mv->run_from, mv->pos };
        gr_jw_u64s(move, "run", run, 2);
        if (mv->run_from < mv->pos)
            gr_text_add(&t, "Turn over coins %" PRIu64 " to %" PRIu64 " (coin %" PRIu64 " from heads "
                        "to tails).", mv->run_from, mv->pos, mv->pos);
        else
            gr_text_add(&t, "Turn coin %" PRIu64 " from heads to tails.", mv->pos);
    } else {
        gr_jw_u64s(move, "others", mv->others, mv->nothers);
        gr_text_add(&t, "Turn coin %" PRIu64 " from heads to tails", mv->pos);
        for (unsigned i = 0; i < mv->nothers; i++)
            gr_text_add(&t, "%s %" PRIu64, i ? " and" : mv->nothers > 1 ? ", and turn over coins" : ", and turn over coin",
                        mv->others[i]);
        gr_text_add(&t, ".");
    }
    gr_jw_str(move, "text", t.buf);
}

/* The move and, when it has at most max_items heads, the position after
 * it (else "next" stays null and the explanation says why). */
static int answer_move(gr_query *q, const coins_pos *p, const gr_coins_move *mv, gr_coins_rule rule)
{
    gr_jw_node *move = gr_ans_move(q);
    if (!move)
        return -1;
    move_fields(move, mv, rule);
    uint64_t after = heads_after(p, mv, rule);
    if (after <= q->limits->max_items)
        return next_heads(q, p, mv, rule);
    gr_jw_node *step = gr_why_step(q, "next_omitted");
    gr_jw_u64(step, "heads", after);
    gr_jw_u64(step, "max_items", q->limits->max_items);
    gr_why_say(q, step, "The position after the move has %" PRIu64 " heads, more than the limit of %"
               PRIu64 ", so \"next\" is omitted.", after, q->limits->max_items);
    return 0;
}

/* ---- listing every move (POST /v1/moves) ----------------------------------- */

/* Moves on the head at p: turtles turn it alone or with one of coins
 * 1 .. p - 1; mock turtles also with two of them; the ruler turns a run
 * a .. p for a = 1 .. p. Below 2^119 for p <= 10^18. */
static gr_u128 head_move_count(gr_coins_rule rule, uint64_t p)
{
    if (rule == GR_COINS_MOCK_TURTLES)
        return p + (gr_u128)(p - 1) * (p - 2) / 2;
    return p;
}

/* Mock turtles' pairs {a, b}, 1 <= a < b < p, that come before those with
 * first coin a in lexicographic order: (p - 2) + (p - 3) + ... + (p - a). */
static gr_u128 pairs_before(uint64_t p, uint64_t a)
{
    return (gr_u128)(a - 1) * (p - 1) - (gr_u128)a * (a - 1) / 2;
}

/* The move at index k < head_move_count(rule, p) on the head at p, in the
 * canonical order: turtles and mock turtles turn the head alone, then with
 * one coin c = 1 .. p - 1, then (mock turtles) with two coins {a, b} in
 * lexicographic order; the ruler's runs go by length, shortest first
 * (a = p, p - 1, ..., 1). */
static void head_move_at(gr_coins_rule rule, uint64_t p, gr_u128 k, gr_coins_move *mv)
{
    *mv = (gr_coins_move){ .pos = p, .nothers = 0, .others = { 0, 0 }, .run_from = p };
    if (rule == GR_COINS_RULER) {
        mv->run_from = p - (uint64_t)k;
        return;
    }
    if (k == 0)
        return;
    if (k < p) {
        mv->nothers = 1;
        mv->others[0] = (uint64_t)k;
        return;
    }
    k -= p;
    uint64_t lo = 1, hi = p - 2; /* the largest a with pairs_before(p, a) <= k */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (pairs_before(p, mid) <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    mv->nothers = 2;
    mv->others[0] = lo;
    mv->others[1] = lo + 1 + (uint64_t)(k - pairs_before(p, lo));
}

/* Renders the move as answer_move does, refusing one whose next would not
 * fit the item limit (a long ruler run), and spending a step of the budget
 * for each coin of a run, so that paging through long runs stays bounded. */
static int list_move(gr_query *q, const coins_pos *p, const gr_coins_move *mv, gr_coins_rule rule)
{
    uint64_t after = heads_after(p, mv, rule);
    if (after > q->limits->max_items)
        return gr_fail(q->err, GR_E_LIMIT_EXCEEDED, "heads", "turning coin %" PRIu64 " this way leaves "
                       "%" PRIu64 " heads, more than the limit of %" PRIu64 ", so its next could not "
                       "be sent back; ask for the moves before it", mv->pos, after,
                       q->limits->max_items);
    if (rule == GR_COINS_RULER && !gr_budget_spend(&q->budget, mv->pos - mv->run_from))
        return gr_fail_engine(q->err, GR_ELIMIT, "heads", "listing runs of this many coins");
    return answer_move(q, p, mv, rule);
}

static int coins_answer(gr_query *q, const coins_pos *p, size_t which);

/* A position after a move, in memory for a sink. */
typedef struct coins_after {
    coins_pos p;
    size_t which;
} coins_after;

static int solve_after(gr_query *q, const void *pos)
{
    const coins_after *a = pos;
    return coins_answer(q, &a->p, a->which);
}

/* Lists the moves on head i from index k on. 1 when the sink wants no
 * more, 0 to go on, -1 on error. */
static int list_head(gr_query *q, const coins_pos *p, size_t which, size_t i, gr_u128 k,
                     gr_u128 count, gr_move_sink *sink)
{
    gr_coins_rule rule = rules[which].rule;
    for (; k < count; k++) {
        gr_coins_move mv;
        head_move_at(rule, p->heads[i], k, &mv);
        coins_after after = { .which = which };
        if (list_move(q, p, &mv, rule) || position_after(q, p, &mv, rule, &after.p)) {
            gr_free(after.p.heads);
            gr_free(after.p.sorted);
            return -1;
        }
        bool more = sink->put(sink, q, &(gr_position){ solve_after, &after });
        gr_free(after.p.heads);
        gr_free(after.p.sorted);
        if (!more)
            return q->err->code ? -1 : 1;
    }
    return 0;
}

/* Canonical order: head by head in the request's order, and on each head
 * as head_move_at says. The count of a position of many far heads under
 * mock turtles can pass 2^128: a 422 then. */
static int coins_list(gr_query *q, const coins_pos *p, size_t which, gr_move_sink *sink)
{
    gr_coins_rule rule = rules[which].rule;
    gr_u128 total = 0;
    for (size_t i = 0; i < p->n; i++) {
        gr_u128 c = head_move_count(rule, p->heads[i]);
        if (total + c < total)
            return gr_fail(q->err, GR_E_LIMIT_EXCEEDED, "heads", "the position has more than 2^128 - 1 "
                           "moves, more than can be counted; send fewer heads");
        total += c;
    }
    sink->total = total;
    gr_u128 skip = sink->from;
    int rc = 0;
    for (size_t i = 0; i < p->n && rc == 0; i++) {
        gr_u128 count = head_move_count(rule, p->heads[i]);
        if (skip >= count) {
            skip -= count;
            continue;
        }
        rc = list_head(q, p, which, i, skip, count, sink);
        skip = 0;
    }
    return rc < 0 ? -1 : 0;
}

static int moves_coins(gr_query *q, gr_move_sink *sink)
{
    coins_pos p = { 0 };
    size_t which = 0;
    int rc = read_rule(q, &which) || read_heads(q, &p) ? -1 : coins_list(q, &p, which, sink);
    gr_scratch_free(p.heads);
    gr_free(p.sorted);
    return rc;
}

/* "coins": every head is a heap of the value its position has alone (the
 * first GR_WHY_LISTED heads listed with their values). */
static void explain_heads(gr_query *q, const coins_pos *p, const uint64_t *v, size_t which)
{
    gr_jw_node *step = gr_why_step(q, "coins");
    size_t listed = p->n < GR_WHY_LISTED ? p->n : GR_WHY_LISTED;
    gr_jw_str(step, "rule", rules[which].name);
    gr_jw_u64(step, "heads_total", p->n);
    gr_jw_u64s(step, "heads", p->heads, listed);
    gr_jw_u64s(step, "values", v, listed);
    gr_why_say(q, step, "Coin turning, %s (%s); coins are numbered from 1 at the left. Each head is a "
               "heap whose Grundy value is that of the position with it alone, and the value of a "
               "position is the nim-sum over its heads.", rules[which].name, rules[which].summary);
}

static int coins_answer(gr_query *q, const coins_pos *p, size_t which)
{
    gr_coins_rule rule = rules[which].rule;
    uint64_t *v = gr_malloc((p->n + 1) * sizeof *v), x = 0;
    if (!v)
        return gr_oom(q);
    gr_ans_components(q);
    for (size_t i = 0; i < p->n; i++) {
        v[i] = gr_coins_value(rule, p->heads[i]);
        x ^= v[i];
        gr_jw_node *c = gr_ans_component(q);
        if (!c) {
            gr_free(v);
            return -1;
        }
        gr_jw_u64(c, "position", p->heads[i]);
        gr_jw_u64(c, "grundy", v[i]);
    }
    q->ans.grundy_known = true;
    q->ans.grundy = x;
    q->ans.winner = x ? "first" : "second";
    explain_heads(q, p, v, which);
    gr_why_nim_sum(q, v, p->n, x, "head");
    int rc = 0;
    for (size_t i = 0; x && i < p->n; i++) {
        gr_coins_move mv;
        if ((v[i] ^ x) >= v[i] || gr_coins_move_to(rule, p->heads[i], v[i] ^ x, &mv) != GR_OK)
            continue;
        gr_why_target(q, i, v[i], x, "head");
        gr_jw_node *step = gr_why_step(q, "coin_turn");
        gr_jw_u64(step, "coin", p->heads[i]);
        gr_jw_u64(step, "from", v[i]);
        gr_jw_u64(step, "to", v[i] ^ x);
        gr_why_say(q, step, "Turning at coin %" PRIu64 " changes its contribution from %" PRIu64 " to %"
                   PRIu64 ".", p->heads[i], v[i], v[i] ^ x);
        rc = answer_move(q, p, &mv, rule);
        x = 0;
    }
    if (x)
        rc = gr_fail(q->err, GR_E_INTERNAL, "heads", "no winning move found; please report this query");
    gr_free(v);
    return rc;
}

static int analyze_coins(gr_query *q)
{
    coins_pos p = { 0 };
    size_t which = 0;
    int rc = read_rule(q, &which) || read_heads(q, &p) ? -1 : coins_answer(q, &p, which);
    gr_scratch_free(p.heads);
    gr_free(p.sorted);
    return rc;
}

/* ---- contract ------------------------------------------------------------ */

static const char *const coins_rules[] = { "turning_turtles", "mock_turtles", "ruler", NULL };

static const gr_field coins_fields[] = {
    { .name = "rule", .type = GR_FIELD_STRING, .required = true, .choices = coins_rules,
      .description = "turning_turtles: turn one coin and optionally one to its left; mock_turtles: "
                     "up to three coins; ruler: a run of consecutive coins. The rightmost coin "
                     "turned goes from heads to tails." },
    { .name = "heads", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "The positions of the coins showing heads, numbered from 1 at the left, each "
                     "listed once; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = SPAN(1, (int64_t)GR_COINS_MAX_POS) },
};

const gr_game gr_game_coins = { .name = "coins", .summary = "Coin turning: turning_turtles, mock_turtles or ruler; the rightmost "
    "turned coin goes from heads to tails.",
    .compounds = ONE, .analyze = analyze_coins, .moves = moves_coins,
    .kind = GR_KIND_IMPARTIAL, FIELDS(coins_fields),
    .example = "{\"game\":\"coins\",\"rule\":\"mock_turtles\",\"heads\":[3,10]}"
};
