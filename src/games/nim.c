/* SPDX-License-Identifier: MIT */
/* nim: normal play through the shared heap sum; misere by Bouton's rule. */
#include <inttypes.h>
#include <stdlib.h>

#include "game.h"
#include "nim_fast.h"
#include "heap_sum.h"
#include "heap_why.h"
#include "why.h"
#include "grundy/nim.h"

static gr_status nim_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    (void)ctx;
    *g = n;
    return GR_OK;
}

static gr_status nim_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    (void)ctx;
    mv->take = n - target;
    mv->nparts = target ? 1 : 0;
    mv->part[0] = target;
    return GR_OK;
}

/* Steinhaus remoteness: 1 for a non-empty heap (take it all), 0 for empty. */
static gr_status nim_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                            gr_heap_move *mv)
{
    (void)ctx;
    (void)pile;
    (void)b;
    *r = n > 0;
    mv->take = n;
    mv->nparts = 0;
    return GR_OK;
}


/* The "misere_nim" step: {big, ones, nim_sum, win}, Bouton's misere rule. */
static void misere_explain(gr_query *q, const uint64_t *piles, size_t n, bool win)
{
    size_t big = 0, ones = 0;
    for (size_t i = 0; i < n; i++) {
        big += piles[i] > 1;
        ones += piles[i] == 1;
    }
    gr_jw_node *step = gr_why_step(q, "misere_nim");
    if (!step)
        return;
    gr_jw_u64(step, "big", big);
    gr_jw_u64(step, "ones", ones);
    gr_jw_u64(step, "nim_sum", gr_nim_sum(piles, n));
    gr_jw_bool(step, "win", win);
    gr_text text = { .len = 0 }, *t = &text;
    gr_text_add(t, "Misere nim (the player who cannot move wins). ");
    if (big == 0)
        gr_text_add(t, "Every pile has at most one token and %zu piles are non-empty: the player to "
                    "move wins iff that count is even.", ones);
    else
        gr_text_add(t, "Some pile has more than one token, so the player to move wins iff the "
                    "nim-sum %" PRIu64 " is non-zero, playing as in normal nim except that a move "
                    "leaving only piles of size <= 1 must leave an odd number of 1s.",
                    gr_nim_sum(piles, n));
    gr_text_add(t, win ? " The player to move wins." : " The player to move loses.");
    gr_why_say(q, step, "%s", t->buf);
}

static int analyze_misere(gr_query *q, const uint64_t *piles, size_t n)
{
    gr_pile_move pm = { 0, 0 };
    bool win = gr_nim_misere(piles, n, &pm);
    q->ans.winner = win ? "first" : "second";
    if (gr_pile_components(q, piles, n, piles))
        return -1;
    misere_explain(q, piles, n, win);
    bool has_move = false;
    for (size_t i = 0; i < n; i++)
        has_move |= piles[i] > 0;
    if (!win || !has_move)
        return 0;
    gr_heap_move mv = { .take = piles[pm.pile] - pm.to, .nparts = pm.to ? 1 : 0, .part = { pm.to, 0 } };
    return gr_heap_answer_move(q, piles, n, pm.pile, &mv);
}

/* Heap n's options: take 1, 2, ..., n. */
static gr_u128 nim_count(void *ctx, size_t pile, uint64_t n)
{
    (void)ctx;
    (void)pile;
    return n;
}

static void nim_at(void *ctx, size_t pile, uint64_t n, gr_u128 k, gr_heap_move *mv)
{
    (void)ctx;
    (void)pile;
    *mv = gr_heap_take(n, (uint64_t)k + 1);
}

#define NIM_RULE "Nim: a pile's Grundy value is its size"

/* The answer (sink NULL) or the winning moves into sink, for piles in memory. */
static int solve_piles(gr_query *q, const uint64_t *piles, size_t n, gr_move_sink *sink)
{
    gr_heap_options o = { .count = nim_count, .at = nim_at };
    gr_heap_rules rules = { .value = nim_value, .move = nim_move,
                            .name = NIM_RULE, .remote = nim_remote,
                            .options = &o, .one_option_per_value = true };
    if (q->misere)
        return sink ? 1 : analyze_misere(q, piles, n);
    return sink ? gr_heap_winning(q, piles, n, &rules, sink) : gr_heap_sum(q, piles, n, &rules);
}

static int answer_piles(gr_query *q, const void *ctx, const uint64_t *piles, size_t n)
{
    (void)ctx;
    return solve_piles(q, piles, n, NULL);
}

static int solve_nim(gr_query *q, gr_move_sink *sink)
{
    uint64_t *piles;
    size_t n;
    if (gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &n))
        return -1;
    int rc = solve_piles(q, piles, n, sink);
    gr_scratch_free(piles);
    return rc;
}

static int analyze_nim(gr_query *q)
{
    return solve_nim(q, NULL);
}

static int winning_nim(gr_query *q, gr_move_sink *sink)
{
    return solve_nim(q, sink);
}

static int moves_nim(gr_query *q, gr_move_sink *sink)
{
    uint64_t *piles;
    size_t n;
    if (gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &n))
        return -1;
    gr_heap_options o = { .count = nim_count, .at = nim_at };
    gr_heap_solver solver = { answer_piles, NULL };
    int rc = gr_heap_moves(q, piles, n, NULL, &o, &solver, sink);
    gr_scratch_free(piles);
    return rc;
}

static bool nim_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out)
{
    return gr_nim_fast(limits, body, len, out);
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field nim_fields[] = {
    PILES("Tokens in each pile; may be empty.", ANY_U),
};

const gr_game gr_game_nim = { .name = "nim", .summary = "Take any positive number of tokens from one pile.",
    .misere = true, .misere_any = true, .compounds = SUMS, .analyze = analyze_nim, .moves = moves_nim,
    .winning = winning_nim, .fast = nim_fast,
    .kind = GR_KIND_IMPARTIAL, FIELDS(nim_fields),
    .example = "{\"game\":\"nim\",\"piles\":[3,4,5]}"
};
