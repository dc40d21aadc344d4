/* SPDX-License-Identifier: MIT */
/* subtraction: take s tokens from one pile, s from a finite set (or a rule:
 * subtraction_rules.c). Values and periods from the table file,
 * the cache, or a period search within the budget. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "subtraction_rules.h"
#include "heap_sum.h"
#include "misere_sum.h"
#include "seq_cache.h"
#include "grundy/heapplay.h"
#include "grundy/octal.h"
#include "grundy/rules.h"
#include "grundy/subtraction.h"
#include "tables/tables.h"

/* ---- subtraction -------------------------------------------------------- */

typedef struct subtraction_ctx {
    const uint64_t *moves;
    size_t nmoves;
    gr_seq_ref ref;
} subtraction_ctx;

static gr_status subtraction_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    return gr_heap_seq_value(&((const subtraction_ctx *)ctx)->ref.seq, n, g);
}

static gr_status subtraction_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    const subtraction_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_subtraction_move(c->moves, c->nmoves, &c->ref.seq, n, (uint16_t)target, &take);
    if (s != GR_OK)
        return s;
    *mv = gr_heap_take(n, take);
    return GR_OK;
}

static gr_status subtraction_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b,
                                    uint64_t *r, gr_heap_move *mv)
{
    (void)pile;
    const subtraction_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_subtraction_remoteness(c->moves, c->nmoves, n, b, r, &take);
    *mv = gr_heap_take(n, take);
    return s;
}

static gr_status subtraction_misere(const void *ctx, uint64_t n, gr_budget *b, bool *win,
                                    gr_heap_move *mv)
{
    const subtraction_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_subtraction_misere(c->moves, c->nmoves, n, b, win, &take);
    *mv = gr_heap_take(n, take);
    return s;
}

static int check_moves(gr_query *q, const uint64_t *moves, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (moves[i] >= 1 && moves[i] <= q->limits->max_move)
            continue;
        char field[40];
        snprintf(field, sizeof field, "moves[%zu]", i);
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, field,
                       "each move must be between 1 and %" PRIu64 "; got %" PRIu64,
                       q->limits->max_move, moves[i]);
    }
    return 0;
}

/* Sorts and removes repeats, so that equal sets share one cache key. */
static size_t normalise_moves(uint64_t *moves, size_t n)
{
    size_t m = 0;
    qsort(moves, n, sizeof *moves, gr_cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (m == 0 || moves[m - 1] != moves[i])
            moves[m++] = moves[i];
    return m;
}

/* Sets within {1 .. 12} are in the table file: bit s-1 for each s. */
static bool subtraction_from_table(const gr_query *q, const uint64_t *moves, size_t n, gr_seq *seq)
{
    uint64_t key = 0;
    for (size_t i = 0; i < n; i++) {
        if (moves[i] > GR_TN_SUBTRACTION_MAX)
            return false;
        key |= UINT64_C(1) << (moves[i] - 1);
    }
    return q->tables && gr_tables_member(q->tables, GR_TN_SUBTRACTION_FAMILY, key, seq);
}

/* The table, then the cache, then a computation (kept when certified). The
 * cache key is the sorted set itself; element 0 of `key` is a tag. */
static gr_status subtraction_values(gr_query *q, subtraction_ctx *c, uint64_t need)
{
    if (subtraction_from_table(q, c->moves, c->nmoves, &c->ref.seq))
        return GR_OK;
    size_t keylen = (c->nmoves + 1) * sizeof(uint64_t);
    uint64_t *key = gr_malloc(keylen);
    if (!key)
        return GR_ENOMEM;
    key[0] = 'S';
    memcpy(key + 1, c->moves, c->nmoves * sizeof *key);
    gr_status s = GR_OK;
    if (!gr_seq_ref_lookup(q->cache, key, keylen, &c->ref)) {
        s = gr_subtraction_solve(c->moves, c->nmoves, need, &q->budget, &c->ref.seq);
        if (s == GR_OK && c->ref.seq.periodic)
            gr_seq_ref_offer(q->cache, key, keylen, &c->ref);
    }
    gr_free(key);
    return s;
}

static void describe_set(gr_text *t, const uint64_t *moves, size_t n)
{
    gr_text_add(t, "Subtraction game with S = {");
    for (size_t i = 0; i < n && i < 16; i++)
        gr_text_add(t, "%s%" PRIu64, i ? ", " : "", moves[i]);
    gr_text_add(t, n > 16 ? ", ...}" : "}");
}

/* Reads "moves" (a finite set, sorted without repeats) and "piles". */
static int read_set(gr_query *q, uint64_t **moves, size_t *nmoves, uint64_t **piles, size_t *npiles)
{
    *moves = *piles = NULL;
    if (gr_q_u64_list(q, "moves", q->limits->max_moves, false, moves, nmoves) ||
        check_moves(q, *moves, *nmoves) ||
        gr_q_u64_list(q, "piles", q->limits->max_items, true, piles, npiles))
        return -1;
    *nmoves = normalise_moves(*moves, *nmoves);
    return 0;
}

/* A misere sum: by the set's misere quotient, which takes up to
 * GR_MQ_MAX_SUB moves. */
static int subtraction_misere_sum(gr_query *q, const uint64_t *moves, size_t nmoves,
                                  const uint64_t *piles, size_t npiles)
{
    gr_mq_rules rules;
    if (gr_mq_subtraction(moves, nmoves, &rules) != GR_OK)
        return gr_fail(q->err, GR_E_UNSUPPORTED_CONVENTION, "moves",
                       "misere sums of subtraction games are answered for sets of at most %u "
                       "moves; send at most %u moves, one pile, or \"convention\": \"normal\"",
                       GR_MQ_MAX_SUB, GR_MQ_MAX_SUB);
    gr_text name = { .len = 0 };
    describe_set(&name, moves, nmoves);
    return gr_heap_misere_sum(q, piles, npiles, &rules, name.buf);
}

/* ---- listing moves: take s for each s in S with s <= n, s ascending ------ */

static gr_u128 set_count(void *ctx, size_t pile, uint64_t n)
{
    (void)pile;
    const subtraction_ctx *c = ctx;
    return gr_sorted_count_upto(c->moves, c->nmoves, n);
}

static void set_at(void *ctx, size_t pile, uint64_t n, gr_u128 k, gr_heap_move *mv)
{
    (void)pile;
    *mv = gr_heap_take(n, ((const subtraction_ctx *)ctx)->moves[(size_t)k]);
}

/* The answer (sink NULL) or the winning moves into sink. */
/* The answer (sink NULL) or the winning moves into sink, for piles in
 * memory and the set S held in `set` (moves and nmoves). */
static int solve_piles(gr_query *q, const subtraction_ctx *set, const uint64_t *piles, size_t npiles,
                       gr_move_sink *sink)
{
    subtraction_ctx ctx = { .moves = set->moves, .nmoves = set->nmoves };
    if (q->misere)
        return sink ? 1
               : npiles > 1 ? subtraction_misere_sum(q, ctx.moves, ctx.nmoves, piles, npiles)
                            : gr_heap_misere_single(q, piles, npiles, subtraction_misere, &ctx, "subtraction game");
    int rc = -1;
    gr_status s = subtraction_values(q, &ctx, gr_max_u64(piles, npiles));
    if (s == GR_OK) {
        gr_text name = { .len = 0 };
        describe_set(&name, ctx.moves, ctx.nmoves);
        gr_heap_options o = { .ctx = &ctx, .count = set_count, .at = set_at };
        gr_heap_rules rules = { .ctx = &ctx, .value = subtraction_value, .move = subtraction_move,
                                .seq = &ctx.ref.seq, .name = name.buf, .remote = subtraction_remote,
                                .options = &o };
        rc = sink ? gr_heap_winning(q, piles, npiles, &rules, sink) : gr_heap_sum(q, piles, npiles, &rules);
    } else {
        gr_fail_engine(q->err, s, "moves", "the Grundy values of this subtraction set");
    }
    gr_seq_ref_release(&ctx.ref);
    return rc;
}

static int answer_piles(gr_query *q, const void *set, const uint64_t *piles, size_t n)
{
    return solve_piles(q, set, piles, n, NULL);
}

static int solve_subtraction(gr_query *q, gr_move_sink *sink)
{
    uint64_t *moves = NULL, *piles = NULL;
    size_t nmoves, npiles;
    const cJSON *rule = gr_q_get(q, "moves");
    if (cJSON_IsObject(rule))
        return gr_solve_subtraction_rule(q, rule, sink);
    int rc = -1;
    if (read_set(q, &moves, &nmoves, &piles, &npiles) == 0)
        rc = solve_piles(q, &(subtraction_ctx){ .moves = moves, .nmoves = nmoves }, piles, npiles, sink);
    gr_scratch_free(moves);
    gr_scratch_free(piles);
    return rc;
}

static int analyze_subtraction(gr_query *q)
{
    return solve_subtraction(q, NULL);
}

static int winning_subtraction(gr_query *q, gr_move_sink *sink)
{
    return solve_subtraction(q, sink);
}

static int moves_subtraction(gr_query *q, gr_move_sink *sink)
{
    const cJSON *rule = gr_q_get(q, "moves");
    if (cJSON_IsObject(rule))
        return gr_subtraction_rule_moves(q, rule, sink);
    uint64_t *moves, *piles;
    size_t nmoves, npiles;
    int rc = -1;
    if (read_set(q, &moves, &nmoves, &piles, &npiles) == 0) {
        subtraction_ctx ctx = { .moves = moves, .nmoves = nmoves };
        gr_heap_options o = { .ctx = &ctx, .count = set_count, .at = set_at };
        gr_heap_solver solver = { answer_piles, &ctx };
        rc = gr_heap_moves(q, piles, npiles, NULL, &o, &solver, sink);
    }
    gr_scratch_free(moves);
    gr_scratch_free(piles);
    return rc;
}

/* ---- contract ------------------------------------------------------------ */

static const char *const subtraction_rules[] = { "squares", "powers_of_two", "primes", NULL };

static const gr_field subtraction_fields[] = {
    { .name = "moves", .type = GR_FIELD_MOVES, .required = true, .choices = subtraction_rules,
      .description = "The subtraction set S: an array of positive integers (repeats are ignored), "
                     "or {\"rule\": R} for an infinite set. Rule sets are answered from the table "
                     "file's values, or computed on demand for heaps below 16384 (a single heap: "
                     "below 2^20); past them a 422 beyond_bound.",
      .count = { 1, I63, GR_LIMIT_MAX_MOVES }, .value = { 1, I63, GR_LIMIT_MAX_MOVE } },
    PILES("Tokens in each pile; may be empty.", ANY_U),
};

const gr_game gr_game_subtraction = { .name = "subtraction", .summary = "Take s tokens from one pile, s from a finite set of moves.",
    .misere = true, .misere_any = true, .misere_note = GR_MISERE_SUM_NOTE, .compounds = SUMS, .analyze = analyze_subtraction, .moves = moves_subtraction,
    .winning = winning_subtraction,
    .kind = GR_KIND_IMPARTIAL, FIELDS(subtraction_fields),
    .example = "{\"game\":\"subtraction\",\"moves\":[1,3,4],\"piles\":[2,10]}"
};
