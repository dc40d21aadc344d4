/* SPDX-License-Identifier: MIT */
/* fibonacci: Fibonacci nim, decided by the Zeckendorf representation. */
#include <inttypes.h>

#include "game.h"
#include "why.h"
#include "grundy/fibonacci.h"

static int read_state(gr_query *q, uint64_t *n, uint64_t *limit)
{
    if (gr_q_u64(q, "n", NULL, n))
        return -1;
    uint64_t opening = *n ? *n - 1 : 0;
    return gr_q_u64(q, "limit", &opening, limit);
}

static int fib_component(gr_query *q, uint64_t n, uint64_t limit, const uint64_t *terms, size_t nterms)
{
    uint64_t g = 0;
    gr_status s = gr_fibonacci_grundy(n, limit, &q->budget, &g);
    gr_jw_node *c = gr_ans_single(q, s, g, "n", "the Grundy value of this Fibonacci nim position");
    if (!c)
        return -1;
    gr_jw_u64(c, "n", n);
    gr_jw_u64(c, "limit", limit);
    gr_add_grundy(q, c);
    gr_jw_u64s(c, "zeckendorf", terms, nterms);
    return 0;
}

/* "zeckendorf": {n, terms[], smallest, limit, can_take}. */
static void fib_explain(gr_query *q, uint64_t n, uint64_t limit, const uint64_t *terms, size_t nterms,
                        bool win)
{
    gr_jw_node *step = gr_why_step(q, "zeckendorf");
    gr_jw_u64(step, "n", n);
    gr_jw_u64s(step, "terms", terms, nterms);
    if (nterms)
        gr_jw_u64(step, "smallest", terms[nterms - 1]);
    gr_jw_u64(step, "limit", limit);
    gr_jw_bool(step, "can_take", win);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Zeckendorf representation: %" PRIu64 " = ", n);
    for (size_t i = 0; i < nterms; i++)
        gr_text_add(&t, "%s%" PRIu64, i ? " + " : "", terms[i]);
    if (nterms == 0)
        gr_text_add(&t, "0 (no tokens: no move)");
    gr_text_add(&t, ". The player to move wins iff the smallest term is at most the limit %" PRIu64
                " (and at most n).", limit);
    if (win)
        gr_why_say(q, step, "%s It is (%" PRIu64 "): take it, leaving a number whose smallest term is "
                   "more than twice the take.", t.buf, terms[nterms - 1]);
    else
        gr_why_say(q, step, "%s It is not, so the player to move loses.", t.buf);
}

/* The move that takes `take` of n: move {take, text} and next {n, limit}. */
static int fib_move(gr_query *q, uint64_t n, uint64_t take)
{
    gr_jw_node *move = gr_ans_move(q);
    gr_jw_node *next = move ? gr_ans_next(q) : NULL;
    if (!next)
        return -1;
    gr_jw_u64(move, "take", take);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Take %" PRIu64 " (%" PRIu64 " -> %" PRIu64 "); the opponent may then take up to %"
                PRIu64 ".", take, n, n - take, 2 * take);
    gr_jw_str(move, "text", t.buf);
    gr_jw_u64(next, "n", n - take);
    /* 2t exceeds the API's integer range only when the take empties a heap
     * above 2^62; the limit then no longer matters. */
    gr_jw_u64(next, "limit", take > GR_INT_MAX / 2 ? GR_INT_MAX : 2 * take);
    return 0;
}

/* Answers the state v = {n, limit} in memory. */
static int answer_state(gr_query *q, const uint64_t *v, size_t count)
{
    (void)count;
    uint64_t n = v[0], limit = v[1], terms[GR_ZECKENDORF_MAX_TERMS];
    size_t nterms = gr_zeckendorf(n, terms);
    if (fib_component(q, n, limit, terms, nterms))
        return -1;
    uint64_t take = 0;
    bool win = gr_fibonacci_move(n, limit, &take);
    q->ans.winner = win ? "first" : "second";
    fib_explain(q, n, limit, terms, nterms, win);
    return win ? fib_move(q, n, take) : 0;
}

static int analyze_fibonacci(gr_query *q)
{
    uint64_t v[2];
    return read_state(q, &v[0], &v[1]) ? -1 : answer_state(q, v, 2);
}

/* Canonical order: take 1, 2, ..., min(limit, n). */
static int moves_fibonacci(gr_query *q, gr_move_sink *sink)
{
    uint64_t n, limit;
    if (read_state(q, &n, &limit))
        return -1;
    uint64_t most = limit < n ? limit : n;
    sink->total = most;
    for (uint64_t take = sink->from < most ? (uint64_t)sink->from + 1 : most + 1; take <= most; take++) {
        if (fib_move(q, n, take))
            return -1;
        uint64_t v[2] = { n - take, take > GR_INT_MAX / 2 ? GR_INT_MAX : 2 * take };
        gr_int_position after = { .solve = answer_state, .v = v, .n = 2 };
        if (!sink->put(sink, q, gr_int_position_of(&after)))
            return q->err->code ? -1 : 0;
    }
    return 0;
}

/* The winning takes: t wins iff the opponent's (n - t, 2t) loses, that is
 * n - t = 0 or its smallest Zeckendorf term exceeds 2t. Then t is below
 * half of every term of n - t, so Zeckendorf(n) is Zeckendorf(n - t) and
 * Zeckendorf(t) side by side: t is a sum of n's smallest terms. So the
 * candidates are those suffix sums (at most 46), ascending. */
static int winning_fibonacci(gr_query *q, gr_move_sink *sink)
{
    uint64_t n, limit, terms[GR_ZECKENDORF_MAX_TERMS], take[GR_ZECKENDORF_MAX_TERMS];
    if (read_state(q, &n, &limit))
        return -1;
    size_t k = gr_zeckendorf(n, terms), count = 0;
    uint64_t sum = 0;
    for (size_t j = k; j-- > 0;) { /* terms[j .. k) are the smallest k - j terms */
        sum += terms[j];
        bool leaves_loss = j == 0 || terms[j - 1] > 2 * sum; /* sum <= n < 2^63: no overflow */
        if (sum <= limit && leaves_loss)
            take[count++] = sum;
    }
    sink->total = count;
    for (size_t i = sink->from < count ? (size_t)sink->from : count; i < count; i++) {
        if (fib_move(q, n, take[i]))
            return -1;
        if (!sink->put(sink, q, NULL)) /* a winning move's outcome is known */
            return q->err->code ? -1 : 0;
    }
    return 0;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field fibonacci_fields[] = {
    { .name = "n", .type = GR_FIELD_INTEGER, .required = true, .description = "Tokens left.",
      .value = ANY_U },
    { .name = "limit", .type = GR_FIELD_INTEGER,
      .description = "The most the player to move may take; absent or null: n - 1 (the opening "
                     "move; 0 when n is 0).",
      .value = ANY_U },
};

const gr_game gr_game_fibonacci = { .name = "fibonacci",
    .summary = "Take 1..limit tokens; the opponent's limit becomes twice the take.",
    .compounds = ONE, .analyze = analyze_fibonacci, .moves = moves_fibonacci,
    .winning = winning_fibonacci,
    .kind = GR_KIND_IMPARTIAL, FIELDS(fibonacci_fields),
    .example = "{\"game\":\"fibonacci\",\"n\":12,\"limit\":11}"
};
