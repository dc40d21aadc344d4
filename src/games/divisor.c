/* SPDX-License-Identifier: MIT */
/* divisor: the mover wins iff n is even; Grundy values by a sieve where the
 * budget allows. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdlib.h>

#include "game.h"
#include "why.h"
#include "grundy/divisor.h"
#include "tables/tables.h"

static int divisor_component(gr_query *q, uint64_t n)
{
    uint64_t g = 0;
    uint16_t small;
    gr_seq seq;
    gr_status s = GR_OK;
    if (q->tables && gr_tables_sequence(q->tables, GR_TN_DIVISOR, &seq) && gr_seq_value(&seq, n, &small) == GR_OK)
        g = small;
    else
        s = gr_divisor_grundy(n, &q->budget, &g);
    gr_jw_node *c = gr_ans_single(q, s, g, "n", "the Grundy value of this divisor game");
    if (!c)
        return -1;
    gr_jw_u64(c, "n", n);
    gr_add_grundy(q, c);
    return 0;
}

/* The move that subtracts the divisor `take` of n: move {take, text} and
 * next {n}. */
static int divisor_move(gr_query *q, uint64_t n, uint64_t take)
{
    gr_jw_node *move = gr_ans_move(q);
    gr_jw_node *next = move ? gr_ans_next(q) : NULL;
    if (!next)
        return -1;
    gr_jw_u64(move, "take", take);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Subtract the divisor %" PRIu64 " (%" PRIu64 " -> %" PRIu64 ").", take, n, n - take);
    gr_jw_str(move, "text", t.buf);
    gr_jw_u64(next, "n", n - take);
    return 0;
}

/* Answers v[0] = n >= 1 in memory. */
static int answer_n(gr_query *q, const uint64_t *v, size_t count)
{
    (void)count;
    uint64_t n = v[0], take = 0;
    if (divisor_component(q, n))
        return -1;
    bool win = gr_divisor_move(n, &take);
    q->ans.winner = win ? "first" : "second";
    gr_jw_node *step = gr_why_step(q, "parity");
    gr_jw_u64(step, "n", n);
    gr_jw_bool(step, "even", win);
    if (q->ans.grundy_known)
        gr_jw_u64(step, "grundy", q->ans.grundy);
    gr_why_say(q, step, "From an odd number every divisor is odd, so every move leaves an even number; "
               "from an even number taking 1 leaves an odd one. The player to move wins iff n is even: "
               "%" PRIu64 " is %s.%s", n, win ? "even, so take 1 (any odd divisor leaves an odd number)" : "odd",
               q->ans.grundy_known ? "" : " The Grundy value is not computed at this size.");
    return win ? divisor_move(q, n, take) : 0;
}

static int analyze_divisor(gr_query *q)
{
    uint64_t n;
    if (gr_q_u64(q, "n", NULL, &n))
        return -1;
    if (n == 0)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "n", "\"n\" must be at least 1");
    return answer_n(q, &n, 1);
}

/* Canonical order: the divisor subtracted, ascending (1 first). The list
 * comes from factoring n within the query's budget: 422 limit_exceeded
 * beyond it. */
static int moves_divisor(gr_query *q, gr_move_sink *sink)
{
    uint64_t n, *divs = NULL;
    size_t count = 0;
    if (gr_q_u64(q, "n", NULL, &n))
        return -1;
    if (n == 0)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "n", "\"n\" must be at least 1");
    gr_status s = gr_divisor_list(n, &q->budget, &divs, &count);
    if (s != GR_OK)
        return gr_fail_engine(q->err, s, "n", "factoring n to list its divisors");
    int rc = 0;
    sink->total = count - 1; /* every divisor but n itself */
    for (gr_u128 k = sink->from; k + 1 < count; k++) {
        if (divisor_move(q, n, divs[k])) {
            rc = -1;
            break;
        }
        uint64_t after_n = n - divs[k];
        gr_int_position after = { .solve = answer_n, .v = &after_n, .n = 1 };
        if (!sink->put(sink, q, gr_int_position_of(&after))) {
            rc = q->err->code ? -1 : 0;
            break;
        }
    }
    gr_free(divs);
    return rc;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field divisor_fields[] = {
    { .name = "n", .type = GR_FIELD_INTEGER, .required = true,
      .description = "The number; a move subtracts a divisor x of n with 0 < x < n.",
      .value = FROM(1) },
};

const gr_game gr_game_divisor = { .name = "divisor", .summary = "Replace n by n - x for a proper divisor x of n.",
    .compounds = ONE, .analyze = analyze_divisor, .moves = moves_divisor,
    .kind = GR_KIND_IMPARTIAL, FIELDS(divisor_fields),
    .example = "{\"game\":\"divisor\",\"n\":12}"
};
