/* SPDX-License-Identifier: MIT */
#include "moves.h"
#include "grundy/alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "registry.h"

/* Positions listed whole, every outcome evaluated, are bounded in moves and
 * in the bytes their moves and next positions take; so is a page (it ends
 * early, its cursor saying where the next one starts). */
#define WHOLE_MAX_BYTES ((size_t)16 << 20)

/* One listed move: its rendered move and next, and the outcome of next. */
typedef struct listed {
    gr_buf move, next;
    bool known;
    const char *winner;
    bool grundy_known;
    uint64_t grundy;
    bool has_value;
    gr_json_i128 value;
} listed;

typedef struct collector {
    listed *items;
    size_t n, max;
    size_t bytes, max_bytes;
    bool whole;   /* listing the whole position: stop at once when it has more than max */
    bool stopped; /* a move was refused: there are more than were kept */
} collector;

typedef struct paging {
    uint64_t limit;
    gr_u128 cursor;
} paging;

/* ---- outcomes ----------------------------------------------------------------- */

/* Answers the position after move m, held in memory by the game's hook,
 * within an equal share of what q's budget has left for the moves still to
 * come; leaves m unknown when the budget, the service's bounds or memory
 * do not allow it. */
static void evaluate(gr_query *q, const gr_position *after, size_t still_to_come, listed *m)
{
    if (!after || q->budget.left == 0)
        return;
    gr_api_error err = { 0 };
    gr_query sub = *q;
    memset(&sub.ans, 0, sizeof sub.ans);
    sub.slim = sub.outcome_only = true;
    sub.ans.explanation.muted = true;
    sub.err = &err;
    sub.budget = gr_budget_share(&q->budget, q->budget.left / (still_to_come ? still_to_come : 1));
    uint64_t given = sub.budget.left;
    if (after->solve(&sub, after->pos) == 0 && sub.ans.winner) {
        m->known = true;
        m->winner = sub.ans.winner;
        m->grundy_known = sub.ans.grundy_known;
        m->grundy = sub.ans.grundy;
        m->has_value = sub.ans.has_value;
        m->value = sub.ans.value;
    }
    q->budget.left -= given - sub.budget.left;
    gr_budget_stop why = gr_budget_stopped(&sub.budget);
    if (why == GR_STOP_CPU || why == GR_STOP_CANCEL)
        q->budget.left = 0; /* the deadline is the whole query's */
    gr_answer_free(&sub.ans);
}

/* ---- collecting what the game's hook lists --------------------------------- */

static bool collect(gr_move_sink *s, gr_query *q, const gr_position *after)
{
    collector *c = s->ctx;
    if (c->n == c->max || c->bytes > c->max_bytes || (c->whole && s->total > c->max)) {
        c->stopped = true;
        gr_ans_clear_move(&q->ans);
        return false;
    }
    listed *m = &c->items[c->n];
    memset(m, 0, sizeof *m);
    gr_jw_append(&m->move, &q->ans.move, "null");
    gr_jw_append(&m->next, &q->ans.next, "null");
    gr_ans_clear_move(&q->ans);
    gr_u128 listable = s->total - s->from < c->max ? s->total - s->from : c->max;
    evaluate(q, after, (size_t)(listable - c->n), m);
    c->n++;
    c->bytes += m->move.len + m->next.len;
    if (m->move.oom || m->next.oom) {
        gr_oom(q);
        return false;
    }
    return true;
}

/* Frees what c holds and leaves it empty (freeing it again is harmless). */
static void free_listed(collector *c)
{
    for (size_t i = 0; i < c->n; i++) {
        gr_scratch_free(c->items[i].move.data);
        gr_scratch_free(c->items[i].next.data);
    }
    gr_free(c->items);
    c->items = NULL;
    c->n = 0;
}

/* Runs the game's hook from canonical index `from`, keeping at most `max`
 * moves, each with the outcome of the position after it. 0, or -1 with
 * q->err filled. */
static int list_moves(gr_query *q, const gr_game *game, gr_u128 from, size_t max, bool whole,
                      collector *c, gr_u128 *total)
{
    memset(c, 0, sizeof *c);
    c->max = max;
    c->max_bytes = WHOLE_MAX_BYTES;
    c->whole = whole;
    c->items = gr_calloc(max ? max : 1, sizeof *c->items);
    if (!c->items)
        return gr_oom(q);
    gr_move_sink sink = { .from = from, .total = 0, .put = collect, .ctx = c };
    int rc = game->moves(q, &sink);
    *total = sink.total;
    if (rc == 0 && q->err->code)
        rc = -1; /* put ran out of memory */
    return rc;
}

static size_t known_count(const collector *c)
{
    size_t known = 0;
    for (size_t i = 0; i < c->n; i++)
        known += c->items[i].known;
    return known;
}

static bool winning(const listed *m)
{
    return m->known && strcmp(m->winner, "second") == 0;
}

/* Winning moves first, each part in canonical order. */
static void order_winning_first(collector *c)
{
    listed *sorted = gr_malloc((c->n ? c->n : 1) * sizeof *sorted);
    if (!sorted)
        return; /* canonical order stays; the answer says which it is */
    size_t k = 0;
    for (int pass = 1; pass >= 0; pass--)
        for (size_t i = 0; i < c->n; i++)
            if (winning(&c->items[i]) == (pass == 1))
                sorted[k++] = c->items[i];
    memcpy(c->items, sorted, c->n * sizeof *sorted);
    gr_free(sorted);
}

int gr_moves_scan(gr_query *q, const gr_game *game, size_t max_moves, gr_moves_keep keep, void *ctx,
                  gr_u128 *total)
{
    collector c;
    int rc = list_moves(q, game, 0, max_moves, true, &c, total);
    if (rc == 0 && c.stopped)
        rc = 1;
    if (rc == 0) {
        for (size_t i = 0; i < c.n; i++)
            keep(ctx, &c.items[i].move, &c.items[i].next, c.items[i].known, winning(&c.items[i]));
    }
    free_listed(&c);
    return rc;
}

/* ---- paging ---------------------------------------------------------------------- */

static int parse_u128(const char *s, gr_u128 *out)
{
    gr_u128 v = 0;
    if (!*s || strlen(s) > 39)
        return -1;
    for (; *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (*s < '0' || *s > '9' || v > (~(gr_u128)0 - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* The page size: the body's "limit" unless the game has a field of that
 * name, else the URL's, else the default; 1 .. GR_MOVES_MAX_LIMIT. */
static int read_limit(gr_query *q, const gr_game *game, const gr_page_args *page, uint64_t *limit)
{
    const cJSON *member = gr_game_has_field(game, "limit") ? NULL : gr_q_get(q, "limit");
    *limit = GR_MOVES_DEFAULT_LIMIT;
    if (member && !cJSON_IsNull(member)) {
        if (gr_q_u64_at(q, member, "limit", limit))
            return -1;
    } else if (page && page->limit) {
        if (!all_digits(page->limit) || strlen(page->limit) > 19)
            return gr_fail(q->err, GR_E_INVALID_INTEGER, "limit", "?limit must be a decimal integer "
                           "from 1 to %d", GR_MOVES_MAX_LIMIT);
        *limit = strtoull(page->limit, NULL, 10);
    }
    if (*limit < 1 || *limit > GR_MOVES_MAX_LIMIT)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "limit", "limit must be between 1 and %d; got %" PRIu64,
                       GR_MOVES_MAX_LIMIT, *limit);
    return 0;
}

/* Where the page starts: the body's "cursor", else the URL's, else 0. */
static int read_cursor(gr_query *q, const gr_page_args *page, gr_u128 *cursor)
{
    const cJSON *member = gr_q_get(q, "cursor");
    const char *text = page ? page->cursor : NULL;
    *cursor = 0;
    if (member && !cJSON_IsNull(member) && !cJSON_IsString(member))
        return gr_fail(q->err, GR_E_INVALID_FIELD, "cursor", "\"cursor\" must be the string a previous "
                       "answer gave, or null");
    if (member && !cJSON_IsNull(member))
        text = member->valuestring;
    if (text && parse_u128(text, cursor))
        return gr_fail(q->err, GR_E_INVALID_FIELD, "cursor", "\"cursor\" must be the string a previous "
                       "answer gave (decimal digits)");
    return 0;
}

/* ---- the answer ------------------------------------------------------------------- */

static void put_entry(gr_buf *b, const listed *m, bool move_scores)
{
    gr_buf_str(b, "{\"move\":");
    gr_buf_put(b, m->move.data, m->move.len);
    gr_buf_str(b, ",\"next\":");
    gr_buf_put(b, m->next.data, m->next.len);
    if (m->known) {
        if (!move_scores)
            gr_buf_str(b, winning(m) ? ",\"winning\":true" : ",\"winning\":false");
        gr_buf_str(b, ",\"winner\":");
        gr_buf_json_string(b, m->winner);
        gr_buf_str(b, ",\"grundy\":");
        if (m->grundy_known)
            gr_buf_u64(b, m->grundy);
        else
            gr_buf_put(b, "null", 4);
        if (m->has_value) {
            char v[48];
            gr_json_format_i128(m->value, v);
            gr_buf_str(b, ",\"value\":");
            gr_buf_str(b, v);
        }
    }
    gr_buf_put(b, "}", 1);
}

typedef struct page_out {
    const listed *first;
    size_t count;
    gr_u128 total, next_cursor; /* next_cursor == total: none */
    bool winning_first;
    size_t unknown;
} page_out;

static char *render(const gr_query *q, const gr_game *game, const page_out *p, size_t *len)
{
    gr_buf b = { 0 };
    gr_render_head(&b, q, game);
    gr_buf_str(&b, ",\"total\":");
    gr_buf_u128(&b, p->total);
    gr_buf_str(&b, p->winning_first ? ",\"order\":\"winning_first\",\"moves\":["
                                    : ",\"order\":\"canonical\",\"moves\":[");
    for (size_t i = 0; i < p->count; i++) {
        if (i)
            gr_buf_put(&b, ",", 1);
        put_entry(&b, &p->first[i], game->move_scores);
    }
    gr_buf_str(&b, "],\"cursor\":");
    if (p->next_cursor < p->total) {
        gr_buf_put(&b, "\"", 1);
        gr_buf_u128(&b, p->next_cursor);
        gr_buf_put(&b, "\"", 1);
    } else {
        gr_buf_put(&b, "null", 4);
    }
    if (p->unknown)
        gr_buf_str(&b, ",\"note\":\"some outcomes are not given: /v1/analyze does not answer the "
                       "position after those moves within the compute budget or the service's limits; "
                       "their entries have no winner, grundy or value\"");
    else if (game->move_scores)
        gr_buf_str(&b, ",\"note\":\"a move of this game scores by itself, so whether it wins is not "
                       "the outcome after it: each entry gives the value of next for the player who "
                       "moves there; POST /v1/analyze gives the best move\"");
    else if (!p->winning_first)
        gr_buf_str(&b, ",\"note\":\"the position has more moves than are listed whole, so they page in "
                       "the game's canonical order; POST /v1/analyze gives a winning move\"");
    gr_buf_put(&b, "}", 1);
    if (b.oom) {
        gr_scratch_free(b.data);
        return NULL;
    }
    *len = b.len;
    return b.data;
}

/* Lists, evaluates, orders and renders one page. 0, or -1 with q->err. */
static int answer_moves(gr_query *q, const gr_game *game, const paging *pg, gr_reply *out)
{
    collector c;
    gr_u128 total = 0;
    /* First the whole list, when it is small enough to order. */
    int rc = list_moves(q, game, 0, GR_MOVES_MAX_LIMIT, true, &c, &total);
    bool whole = rc == 0 && !c.stopped;
    if (rc == 0 && !whole) {
        free_listed(&c);
        rc = pg->cursor <= total ? list_moves(q, game, pg->cursor, (size_t)pg->limit, false, &c, &total) : 0;
    }
    if (rc != 0) {
        free_listed(&c);
        return -1;
    }
    if (pg->cursor > total) {
        free_listed(&c);
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "cursor", "the cursor is past the position's moves; "
                       "send the cursor the previous answer gave");
    }
    page_out p = { .total = total, .winning_first = whole };
    size_t known = known_count(&c);
    p.winning_first = whole && known == c.n && !game->move_scores;
    if (p.winning_first)
        order_winning_first(&c);
    size_t start = whole ? (size_t)pg->cursor : 0;
    p.first = c.items + start;
    p.count = c.n - start < pg->limit ? c.n - start : (size_t)pg->limit;
    p.next_cursor = pg->cursor + p.count;
    for (size_t i = 0; i < p.count; i++)
        p.unknown += !p.first[i].known;
    out->status = 200;
    out->body = render(q, game, &p, &out->len);
    free_listed(&c);
    return out->body ? 0 : gr_fail(q->err, GR_E_OVERLOADED, "", "out of memory rendering the moves; retry later");
}

static int moves_query(gr_query *q, const gr_page_args *page, gr_reply *out,
                       const gr_game **game)
{
    static const char *const paging_members[] = { "limit", "cursor", NULL };
    static const char *const cursor_only[] = { "cursor", NULL };
    const char *name = NULL;
    const cJSON *g = cJSON_IsObject(q->obj) ? gr_q_get(q, "game") : NULL;
    if (cJSON_IsString(g))
        name = g->valuestring;
    const gr_game *named = name ? gr_game_find(name) : NULL;
    const char *const *extra = named && gr_game_has_field(named, "limit") ? cursor_only : paging_members;
    if (gr_query_prepare(q, game, extra))
        return -1;
    paging pg;
    if (read_limit(q, *game, page, &pg.limit) || read_cursor(q, page, &pg.cursor))
        return -1;
    return answer_moves(q, *game, &pg, out);
}

void gr_api_moves(const gr_service *svc, const char *body, size_t len, const gr_page_args *page,
                  gr_reply *out)
{
    gr_api_error err = { 0 };
    gr_json_doc doc;
    if (gr_json_parse(body, len, &doc, &err) != 0) {
        gr_api_error_reply(&err, out);
        return;
    }
    gr_deadline deadline;
    gr_deadline_start(&deadline, gr_ms_to_ns(svc->limits.query_cpu_ms), page ? page->cancel : NULL);
    gr_query q = { .doc = &doc, .obj = doc.root, .outcome_only = true, .limits = &svc->limits, .tables = svc->tables,
                   .cache = svc->cache, .grundys_rare = &svc->grundys_rare,
                   .budget = gr_budget_make_deadline(svc->limits.budget, &deadline), .err = &err };
    const gr_game *game = NULL;
    *out = (gr_reply){ 0, NULL, 0, NULL, NULL };
    gr_mem_account mem;
    bool own = gr_mem_open(&mem, svc->limits.query_memory);
    if (moves_query(&q, page, out, &game) != 0) {
        gr_explain_stop(&svc->limits, &q.budget, false, &err);
        if (own)
            gr_explain_memory(&svc->limits, &mem, &err);
        gr_api_error_reply(&err, out);
    }
    out->game = game;
    gr_answer_free(&q.ans);
    if (own)
        gr_mem_close(&mem);
    gr_json_free(&doc);
}
