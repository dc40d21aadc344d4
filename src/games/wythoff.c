/* SPDX-License-Identifier: MIT */
/* wythoff: exact P-positions at any size; Grundy values where the dynamic
 * programme fits the budget. */
#include <inttypes.h>
#include <stdlib.h>

#include "game.h"
#include "why.h"
#include "grundy/wythoff.h"
#include "tables/tables.h"

static int wythoff_move(gr_query *q, const uint64_t p[2], const uint64_t to[2])
{
    uint64_t take[2] = { p[0] - to[0], p[1] - to[1] };
    gr_jw_node *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_jw_u64s(move, "take", take, 2);
    gr_text t = { .len = 0 };
    if (take[0] && take[1])
        gr_text_add(&t, "Take %" PRIu64 " from both piles (%" PRIu64 ", %" PRIu64 " -> %" PRIu64
                    ", %" PRIu64 ").", take[0], p[0], p[1], to[0], to[1]);
    else
        gr_text_add(&t, "Take %" PRIu64 " from pile %d (%" PRIu64 ", %" PRIu64 " -> %" PRIu64
                    ", %" PRIu64 ").", take[0] ? take[0] : take[1], take[0] ? 0 : 1, p[0], p[1],
                    to[0], to[1]);
    gr_jw_str(move, "text", t.buf);
    gr_jw_node *next = gr_ans_next(q);
    if (!next)
        return -1;
    gr_jw_u64s(next, "piles", to, 2);
    return 0;
}

static int wythoff_grundy(gr_query *q, const uint64_t p[2])
{
    uint64_t g = 0;
    uint16_t small;
    gr_status s = GR_OK;
    if (q->tables && gr_tables_grid(q->tables, GR_TN_WYTHOFF, p[0], p[1], &small))
        g = small;
    else
        s = gr_wythoff_grundy(p[0], p[1], &q->budget, &g);
    gr_jw_node *c = gr_ans_single(q, s, g, "piles", "the Grundy value of this Wythoff position");
    if (!c)
        return -1;
    gr_jw_u64s(c, "piles", p, 2);
    gr_add_grundy(q, c);
    return 0;
}

/* The two piles of "piles". 0, or -1 with q->err filled. */
static int read_piles(gr_query *q, uint64_t p[2])
{
    uint64_t *piles;
    size_t n;
    if (gr_q_u64_list(q, "piles", q->limits->max_items, false, &piles, &n))
        return -1;
    p[0] = piles[0];
    p[1] = n == 2 ? piles[1] : 0;
    gr_scratch_free(piles);
    return n == 2 ? 0 : gr_fail(q->err, GR_E_INVALID_FIELD, "piles", "wythoff takes exactly two piles");
}

/* The pile p with (p, v) a losing position: every v >= 1 lies in exactly
 * one losing pair, as a_k or as a_k + k (v = 0 in (0, 0)). */
static uint64_t partner(uint64_t v)
{
    uint64_t k0 = gr_wythoff_floor_div_phi(v);
    for (uint64_t k = k0 ? k0 - 1 : 0; k <= k0 + 1; k++) {
        if (gr_wythoff_lower(k) == v)
            return v + k;
    }
    for (uint64_t a = k0 ? k0 - 1 : 0; a <= k0 + 1 && a < v; a++) {
        if (gr_wythoff_is_p(a, v))
            return a;
    }
    return UINT64_MAX; /* not reached: the pairs cover every v */
}

/* "wythoff_pair": {piles, k, a_k, b_k, losing, grundy (when computed)}. */
static void explain_pair(gr_query *q, const uint64_t p[2], bool win)
{
    uint64_t k = p[0] < p[1] ? p[1] - p[0] : p[0] - p[1], a = gr_wythoff_lower(k);
    gr_jw_node *step = gr_why_step(q, "wythoff_pair");
    gr_jw_u64s(step, "piles", p, 2);
    gr_jw_u64(step, "k", k);
    gr_jw_u64(step, "a_k", a);
    gr_jw_u64(step, "b_k", a + k);
    gr_jw_bool(step, "losing", !win);
    if (q->ans.grundy_known)
        gr_jw_u64(step, "grundy", q->ans.grundy);
    gr_why_say(q, step, "The losing positions are (a_k, b_k) = (floor(k * phi), floor(k * phi^2)) = (a_k, "
               "a_k + k), computed exactly with integer square roots. Here k = %" PRIu64 " (the "
               "difference), a_k = %" PRIu64 " and b_k = %" PRIu64 ", so (%" PRIu64 ", %" PRIu64 ") is %s.%s",
               k, a, a + k, p[0], p[1], win ? "not that pair: a winning position" :
               "that pair: a losing position for the player to move",
               q->ans.grundy_known ? "" : " The Grundy value is not computed at this size.");
}

/* "wythoff_target": {to, k, a_k, b_k}: the losing pair the move goes to. */
static void explain_target(gr_query *q, const uint64_t to[2])
{
    uint64_t k = to[0] < to[1] ? to[1] - to[0] : to[0] - to[1], a = gr_wythoff_lower(k);
    gr_jw_node *step = gr_why_step(q, "wythoff_target");
    gr_jw_u64s(step, "to", to, 2);
    gr_jw_u64(step, "k", k);
    gr_jw_u64(step, "a_k", a);
    gr_jw_u64(step, "b_k", a + k);
    gr_why_say(q, step, "Move to the losing position (%" PRIu64 ", %" PRIu64 "): the pair for k = %" PRIu64
               ", a_k = %" PRIu64 ".", to[0], to[1], k, a);
}

/* Answers the two piles p[0], p[1] in memory (n is 2). */
static int answer_piles(gr_query *q, const uint64_t *p, size_t n)
{
    (void)n;
    if (wythoff_grundy(q, p))
        return -1;
    uint64_t to[2];
    bool win = gr_wythoff_move(p[0], p[1], &to[0], &to[1]);
    q->ans.winner = win ? "first" : "second";
    explain_pair(q, p, win);
    if (!win)
        return 0;
    explain_target(q, to);
    return wythoff_move(q, p, to);
}

static int analyze_wythoff(gr_query *q)
{
    uint64_t p[2];
    return read_piles(q, p) ? -1 : answer_piles(q, p, 2);
}

/* Every move to a losing pair, in the canonical order below: to (partner
 * of y, y), to (x, partner of x), and along the diagonal to the pair of
 * the same difference. At most three, each found in O(1). */
static int winning_wythoff(gr_query *q, gr_move_sink *sink)
{
    uint64_t p[2];
    if (read_piles(q, p))
        return -1;
    uint64_t to[3][2], n = 0, d = p[0] < p[1] ? p[1] - p[0] : p[0] - p[1], a = gr_wythoff_lower(d);
    uint64_t lo = p[0] < p[1] ? p[0] : p[1];
    if (partner(p[1]) < p[0]) {
        to[n][0] = partner(p[1]);
        to[n++][1] = p[1];
    }
    if (partner(p[0]) < p[1]) {
        to[n][0] = p[0];
        to[n++][1] = partner(p[0]);
    }
    if (a < lo) {
        to[n][0] = p[0] - (lo - a);
        to[n++][1] = p[1] - (lo - a);
    }
    sink->total = n;
    for (uint64_t i = sink->from < n ? (uint64_t)sink->from : n; i < n; i++) {
        if (wythoff_move(q, p, to[i]))
            return -1;
        if (!sink->put(sink, q, NULL)) /* a winning move's outcome is known */
            return q->err->code ? -1 : 0;
    }
    return 0;
}

/* Canonical order: take 1, 2, ..., x from pile 0; then 1, 2, ..., y from
 * pile 1; then 1, 2, ..., min(x, y) from both. Counts: x + y + min(x, y),
 * below 2^65. */
static int moves_wythoff(gr_query *q, gr_move_sink *sink)
{
    uint64_t p[2];
    if (read_piles(q, p))
        return -1;
    uint64_t both = p[0] < p[1] ? p[0] : p[1];
    const uint64_t count[3] = { p[0], p[1], both };
    sink->total = (gr_u128)p[0] + p[1] + both;
    gr_u128 skip = sink->from;
    for (int kind = 0; kind < 3; kind++) {
        if (skip >= count[kind]) {
            skip -= count[kind];
            continue;
        }
        for (uint64_t t = (uint64_t)skip + 1; t <= count[kind]; t++) {
            uint64_t to[2] = { p[0] - (kind != 1 ? t : 0), p[1] - (kind != 0 ? t : 0) };
            if (wythoff_move(q, p, to))
                return -1;
            gr_int_position after = { .solve = answer_piles, .v = to, .n = 2 };
            if (!sink->put(sink, q, gr_int_position_of(&after)))
                return q->err->code ? -1 : 0;
        }
        skip = 0;
    }
    return 0;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field wythoff_fields[] = {
    { .name = "piles", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Exactly two piles.", .count = { 2, 2, GR_LIMIT_MAX_ITEMS }, .value = ANY_U },
};

const gr_game gr_game_wythoff = { .name = "wythoff", .summary = "Two piles: take from one pile, or the same number from both.",
    .compounds = ONE, .analyze = analyze_wythoff, .moves = moves_wythoff, .winning = winning_wythoff,
    .kind = GR_KIND_IMPARTIAL, FIELDS(wythoff_fields),
    .example = "{\"game\":\"wythoff\",\"piles\":[5,9]}"
};
