/* SPDX-License-Identifier: MIT */
#include "winning.h"

#include <string.h>

#include "moves.h"
#include "why.h"

typedef struct kept {
    struct gr_winning *w;
    const gr_buf *answered; /* the answer's own move, which "others" leaves out */
    bool answered_seen;     /* left out once: a graph's twin edges are two moves */
    size_t listed;
    bool all_known;
} kept;

/* The length of a move's facts: the object up to its "text", which the
 * answer's move may end with a reason the listing leaves out. */
static size_t facts_len(const char *move, size_t len)
{
    for (size_t i = 0; i + 8 <= len; i++)
        if (memcmp(move + i, ",\"text\":", 8) == 0)
            return i;
    return len;
}

/* Whether move is the answer's own (the first time it is met). */
static bool is_answered(kept *k, const char *move, size_t len)
{
    if (k->answered_seen || !k->answered->len)
        return false;
    size_t a = facts_len(k->answered->data, k->answered->len), m = facts_len(move, len);
    k->answered_seen = a == m && memcmp(k->answered->data, move, a) == 0;
    return k->answered_seen;
}

static void keep_entry(kept *k, const char *move, size_t len)
{
    if (k->listed == GR_WINNING_MOVES_CAP - 1 || is_answered(k, move, len))
        return;
    gr_buf *b = &k->w->moves;
    if (k->listed++)
        gr_buf_put(b, ",", 1);
    gr_buf_put(b, move, len);
}

static void keep_scanned(void *ctx, const gr_buf *move, const gr_buf *next, bool known, bool winning)
{
    kept *k = ctx;
    k->all_known &= known;
    if (!winning)
        return;
    k->w->total++;
    keep_entry(k, move->data, move->len);
}

static bool keep_hooked(gr_move_sink *s, gr_query *q, const gr_position *after)
{
    (void)after; /* the hook counts winning moves itself */
    kept *k = s->ctx;
    gr_jw_end(&q->ans.move);
    bool oom = q->ans.move.out.oom;
    if (!oom)
        keep_entry(k, q->ans.move.out.data, q->ans.move.out.len);
    gr_ans_clear_move(&q->ans);
    return k->listed < GR_WINNING_MOVES_CAP - 1 && !oom;
}

static void scan(gr_query *lq, const gr_game *game, kept *k)
{
    gr_u128 legal = 0;
    int rc = gr_moves_scan(lq, game, GR_WINNING_SCAN_MOVES, keep_scanned, k, &legal);
    if (rc == 1) {
        k->w->note = "the position has more legal moves than the 1000 searched one by one, so the "
                     "winning ones are not counted; POST /v1/moves pages through them";
        k->w->total = 0;
    } else if (rc != 0 || !k->all_known) {
        k->w->note = "the positions after some moves were not answered within the compute budget, so "
                     "the winning moves listed may not be all of them";
    } else {
        k->w->total_known = true;
    }
}

/* false: the hook leaves this position to the move-by-move search. */
static bool hooked(gr_query *lq, const gr_game *game, kept *k)
{
    gr_move_sink sink = { .from = 0, .total = 0, .put = keep_hooked, .ctx = k };
    int rc = game->winning(lq, &sink);
    if (rc == 1)
        return false;
    if (rc == 0 && !lq->err->code) {
        k->w->total = sink.total;
        k->w->total_known = true;
    } else {
        k->w->note = "the winning moves were not all found within the compute budget or the "
                     "service's limits, so their number is not given";
    }
    return true;
}

void gr_winning_moves(gr_query *q, const gr_game *game, uint64_t spent)
{
    struct gr_winning *w = &q->ans.winning;
    memset(w, 0, sizeof *w);
    w->listed = true;
    /* A game whose moves score lists its optimal moves, whoever wins. */
    bool optimal = game->move_scores && game->winning;
    if (game->move_scores)
        w->note = optimal ? "a move of this game scores by itself: the moves listed are the optimal "
                            "ones, whose value (\"why\" gives every move's) equals the position's"
                          : "a move of this game scores by itself, so no move is winning or losing "
                            "by the outcome after it; \"why\" gives the value of every move";
    bool first_wins = q->ans.winner && strcmp(q->ans.winner, "first") == 0;
    if (!optimal && (game->move_scores || !first_wins)) {
        w->total_known = !game->move_scores;
        return;
    }
    /* The listing renders moves into an answer of its own: q's stays whole. */
    gr_api_error err = { 0 };
    gr_query lq = *q;
    memset(&lq.ans, 0, sizeof lq.ans);
    lq.slim = true;
    lq.ans.explanation.muted = true;
    lq.err = &err;
    uint64_t allowance = spent > GR_WINNING_MIN_STEPS ? spent : GR_WINNING_MIN_STEPS;
    lq.budget = gr_budget_share(&q->budget, allowance < q->budget.left ? allowance : q->budget.left);
    uint64_t given = lq.budget.left;
    gr_jw_end(&q->ans.move);
    kept k = { .w = w, .answered = &q->ans.move.out, .all_known = true };
    if (!game->winning || !hooked(&lq, game, &k))
        scan(&lq, game, &k);
    q->budget.left -= given - lq.budget.left;
    gr_answer_free(&lq.ans);
    if (w->moves.oom) {
        w->total_known = false;
        w->total = 0;
        w->moves.len = 0;
        w->note = "out of memory listing the winning moves";
    }
}

void gr_winning_render(gr_buf *b, const struct gr_winning *w)
{
    gr_buf_str(b, ",\"winning_moves\":{\"total\":");
    if (w->total_known)
        gr_buf_u128(b, w->total);
    else
        gr_buf_put(b, "null", 4);
    gr_buf_str(b, ",\"others\":[");
    if (w->moves.len) /* no moves: data is NULL, and memcpy from NULL is undefined even for 0 bytes */
        gr_buf_put(b, w->moves.data, w->moves.len);
    gr_buf_put(b, "]", 1);
    if (w->note) {
        gr_buf_str(b, ",\"note\":");
        gr_buf_json_string(b, w->note);
    }
    gr_buf_put(b, "}", 1);
}
