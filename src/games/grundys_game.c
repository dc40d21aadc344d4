/* SPDX-License-Identifier: MIT */
/* grundys_game: split one heap into two unequal heaps; values from the
 * table file's sections or computed to grundys_max_heap. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "heap_sum.h"
#include "misere_sum.h"
#include "seq_cache.h"
#include "grundy/heapplay.h"
#include "grundy/octal.h"
#include "grundy/subtraction.h"
#include "tables/tables.h"

/* ---- Grundy's game ------------------------------------------------------ */

typedef struct grundys_ctx {
    gr_seq seq;
    const gr_rare_index *rare; /* of seq, or NULL when computed on demand */
} grundys_ctx;

static gr_status grundys_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    return gr_heap_seq_value(&((const grundys_ctx *)ctx)->seq, n, g);
}

static gr_status grundys_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    const grundys_ctx *c = ctx;
    if (c->rare)
        return gr_grundys_move_indexed(&c->seq, c->rare, n, (uint16_t)target, mv);
    return gr_grundys_move(&c->seq, n, (uint16_t)target, mv);
}

static gr_status grundys_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                                gr_heap_move *mv)
{
    (void)ctx;
    (void)pile;
    gr_heap_game game = gr_heap_game_grundys();
    return gr_heap_remoteness(&game, n, b, r, mv);
}

/* From the table file up to its bound; without one, computed on demand up
 * to the grundys_max_heap limit. */
static gr_status grundys_values(gr_query *q, uint64_t need, grundys_ctx *c)
{
    gr_seq *seq = &c->seq;
    if (q->tables && gr_tables_sequence(q->tables, GR_TN_GRUNDYS, seq)) {
        c->rare = q->grundys_rare && q->grundys_rare->count ? q->grundys_rare : NULL;
        if (need < seq->count)
            return GR_OK;
        gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                "Grundy's game is answered for heaps below %" PRIu64 ", the bound of the table "
                "file; heap %" PRIu64 " is past it. Build a larger table with 'grundy tables "
                "build FILE --grundys-values N' and start grundyd with --tables FILE",
                seq->count, need);
        return GR_EBOUND;
    }
    if (need > q->limits->grundys_max_heap) {
        gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                "Grundy's game is answered for heaps up to %" PRIu64 " without its table; heap %"
                PRIu64 " is larger. Build one with 'grundy tables build FILE' and start grundyd "
                "with --tables FILE", q->limits->grundys_max_heap, need);
        return GR_EBOUND;
    }
    return gr_grundys_solve(need, &q->budget, seq);
}

/* ---- listing moves: heap n splits into (a, n - a), 1 <= a < n - a, a ascending */

static gr_u128 grundys_count(void *ctx, size_t pile, uint64_t n)
{
    (void)ctx;
    (void)pile;
    return n >= 3 ? (n - 1) / 2 : 0;
}

static void grundys_at(void *ctx, size_t pile, uint64_t n, gr_u128 k, gr_heap_move *mv)
{
    (void)ctx;
    (void)pile;
    uint64_t a = (uint64_t)k + 1;
    *mv = (gr_heap_move){ .take = 0, .nparts = 2, .part = { a, n - a } };
}

/* The answer (sink NULL) or the winning moves into sink, for piles in memory. */
static int solve_piles(gr_query *q, const uint64_t *piles, size_t npiles, gr_move_sink *sink)
{
    if (q->misere && sink)
        return 1;
    if (q->misere) {
        gr_heap_game game = gr_heap_game_grundys();
        gr_mq_rules rules = gr_mq_grundys();
        return npiles > 1 ? gr_heap_misere_sum(q, piles, npiles, &rules, "Grundy's game")
                          : gr_heap_misere_single(q, piles, npiles, gr_heap_game_misere, &game,
                                                  "Grundy's game");
    }
    uint64_t need = gr_max_u64(piles, npiles);
    int rc;
    grundys_ctx ctx = { .rare = NULL };
    gr_status s = grundys_values(q, need, &ctx);
    if (s == GR_EBOUND)
        return -1;
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "piles", "the Grundy values of Grundy's game");
    } else {
        gr_heap_options o = { .count = grundys_count, .at = grundys_at };
        gr_heap_rules rules = { .ctx = &ctx, .value = grundys_value, .move = grundys_move,
                                .name = "Grundy's game (split a heap into two unequal heaps)",
                                .remote = grundys_remote, .splits = true, .options = &o };
        rc = sink ? gr_heap_winning(q, piles, npiles, &rules, sink) : gr_heap_sum(q, piles, npiles, &rules);
    }
    gr_seq_free(&ctx.seq);
    return rc;
}

static int answer_piles(gr_query *q, const void *ctx, const uint64_t *piles, size_t n)
{
    (void)ctx;
    return solve_piles(q, piles, n, NULL);
}

static int solve_grundys_game(gr_query *q, gr_move_sink *sink)
{
    uint64_t *piles = NULL;
    size_t npiles;
    if (gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        return -1;
    int rc = solve_piles(q, piles, npiles, sink);
    gr_scratch_free(piles);
    return rc;
}

static int analyze_grundys_game(gr_query *q)
{
    return solve_grundys_game(q, NULL);
}

static int winning_grundys_game(gr_query *q, gr_move_sink *sink)
{
    return solve_grundys_game(q, sink);
}

static int moves_grundys_game(gr_query *q, gr_move_sink *sink)
{
    uint64_t *piles = NULL;
    size_t npiles;
    if (gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        return -1;
    gr_heap_options o = { .count = grundys_count, .at = grundys_at };
    gr_heap_solver solver = { answer_piles, NULL };
    int rc = gr_heap_moves(q, piles, npiles, NULL, &o, &solver, sink);
    gr_scratch_free(piles);
    return rc;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field grundys_fields[] = {
    PILES("Tokens in each pile; may be empty. Heaps below the table file's bound when one is "
          "loaded, else below grundys_max_heap, are answered; a larger one is a 422 beyond_bound.",
          ANY_U),
};

static const gr_constraint grundys_constraints[] = {
    { "largest heap computed on demand (a table file's bound replaces it when larger)",
      UPTO(GR_LIMIT_GRUNDYS_MAX_HEAP) },
};

const gr_game gr_game_grundys_game = { .name = "grundys_game", .summary = "Split one heap into two non-empty heaps of different sizes.",
    .misere = true, .misere_any = true, .misere_note = GR_MISERE_SUM_NOTE, .compounds = ONE, .analyze = analyze_grundys_game, .moves = moves_grundys_game,
    .winning = winning_grundys_game,
    .compound_note = "every move splits a heap, and the two heaps would remain one component, "
                     "which \"piles\" cannot express",
    .kind = GR_KIND_IMPARTIAL, FIELDS(grundys_fields), CONSTRAINTS(grundys_constraints),
    .example = "{\"game\":\"grundys_game\",\"piles\":[7,13]}"
};
