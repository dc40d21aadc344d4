/* SPDX-License-Identifier: MIT */
/* grid: tokens on a rows x cols board, each moved by one of the steps and
 * staying on the board; several tokens may share a square. The board is a
 * graph whose node r * cols + c is square (r, c), so it answers exactly as
 * graph does, cycles included. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>

#include "game.h"
#include "token_sum.h"

#define GRID_DEFAULT_SIDE 15
#define GRID_MAX_STEPS 64

static const int64_t default_steps[][2] = { { -2, 1 }, { -2, -1 }, { 1, -2 }, { -1, -2 } };

typedef struct grid {
    uint64_t rows, cols;
    int64_t (*steps)[2];
    size_t nsteps;
    uint32_t *at; /* token squares as nodes */
    size_t ntokens;
} grid;

static int read_side(gr_query *q, const char *name, uint64_t *out)
{
    const uint64_t dflt = GRID_DEFAULT_SIDE;
    if (gr_q_u64(q, name, &dflt, out))
        return -1;
    if (*out >= 1 && *out <= q->limits->max_nodes)
        return 0;
    return gr_fail(q->err, GR_E_OUT_OF_RANGE, name, "\"%s\" must be between 1 and %" PRIu64, name,
                   q->limits->max_nodes);
}

static bool same_step(const int64_t a[2], const int64_t b[2])
{
    return a[0] == b[0] && a[1] == b[1];
}

/* Reads "steps" (default: the four knight-like steps), dropping repeats. */
static int read_steps(gr_query *q, grid *g)
{
    const cJSON *arr = gr_q_get(q, "steps");
    size_t n = arr && !cJSON_IsNull(arr) ? (size_t)cJSON_GetArraySize(arr) : 4;
    if (arr && !cJSON_IsNull(arr) && (!cJSON_IsArray(arr) || n == 0 || n > GRID_MAX_STEPS))
        return gr_fail(q->err, GR_E_INVALID_FIELD, "steps",
                       "\"steps\" must be an array of 1 to %d pairs [dr, dc]", GRID_MAX_STEPS);
    g->steps = gr_malloc(n * sizeof *g->steps);
    if (!g->steps)
        return gr_oom(q);
    const cJSON *item = arr && !cJSON_IsNull(arr) ? arr->child : NULL;
    for (size_t i = 0; i < n; i++, item = item ? item->next : NULL) {
        int64_t st[2] = { default_steps[i % 4][0], default_steps[i % 4][1] };
        if (item && gr_q_i64_pair(q, item, "steps", i, "each entry of \"steps\" must be a pair [dr, dc]", st))
            return -1;
        if (st[0] == 0 && st[1] == 0) {
            char field[32];
            snprintf(field, sizeof field, "steps[%zu]", i);
            return gr_fail(q->err, GR_E_INVALID_FIELD, field, "a step must move the token: [0, 0] "
                           "is not a step");
        }
        bool seen = false;
        for (size_t j = 0; j < g->nsteps; j++)
            seen |= same_step(g->steps[j], st);
        if (!seen) {
            g->steps[g->nsteps][0] = st[0];
            g->steps[g->nsteps++][1] = st[1];
        }
    }
    return 0;
}

static int read_tokens(gr_query *q, grid *g)
{
    const cJSON *arr = gr_q_get(q, "tokens");
    if (!cJSON_IsArray(arr))
        return gr_fail(q->err, arr ? GR_E_INVALID_FIELD : GR_E_MISSING_FIELD, "tokens",
                       "\"tokens\" must be an array of squares [row, col], 0-indexed");
    g->ntokens = (size_t)cJSON_GetArraySize(arr);
    if (g->ntokens > q->limits->max_items)
        return gr_fail(q->err, GR_E_TOO_MANY, "tokens", "\"tokens\" has %zu entries; the limit is %"
                       PRIu64, g->ntokens, q->limits->max_items);
    g->at = gr_malloc((g->ntokens + 1) * sizeof *g->at);
    if (!g->at)
        return gr_oom(q);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, arr) {
        int64_t rc[2];
        if (gr_q_i64_pair(q, item, "tokens", i, "each entry of \"tokens\" must be a pair [row, col]", rc))
            return -1;
        if (rc[0] < 0 || rc[1] < 0 || (uint64_t)rc[0] >= g->rows || (uint64_t)rc[1] >= g->cols) {
            char field[32];
            snprintf(field, sizeof field, "tokens[%zu]", i);
            return gr_fail(q->err, GR_E_OUT_OF_RANGE, field, "square [%" PRId64 ", %" PRId64 "] is off "
                           "the %" PRIu64 " x %" PRIu64 " board; rows and columns count from 0",
                           rc[0], rc[1], g->rows, g->cols);
        }
        g->at[i++] = (uint32_t)((uint64_t)rc[0] * g->cols + (uint64_t)rc[1]);
    }
    return 0;
}

static int read_grid(gr_query *q, grid *g)
{
    if (read_side(q, "rows", &g->rows) || read_side(q, "cols", &g->cols))
        return -1;
    if (g->rows * g->cols > q->limits->max_nodes)
        return gr_fail(q->err, GR_E_TOO_MANY, "rows", "the board has %" PRIu64 " squares; the limit "
                       "is %" PRIu64, g->rows * g->cols, q->limits->max_nodes);
    if (read_steps(q, g))
        return -1;
    if (g->rows * g->cols * g->nsteps > q->limits->max_edges)
        return gr_fail(q->err, GR_E_TOO_MANY, "steps", "squares times steps is %" PRIu64 "; the "
                       "limit on moves is %" PRIu64, g->rows * g->cols * g->nsteps, q->limits->max_edges);
    return read_tokens(q, g);
}

/* The step is range-checked before it is added: a step as long as the
 * board or longer never stays on it, and any shorter one added to a square
 * stays far inside int64_t. */
static bool on_board(const grid *g, uint64_t r, uint64_t c, const int64_t st[2], uint32_t *to)
{
    if (st[0] <= -(int64_t)g->rows || st[0] >= (int64_t)g->rows || st[1] <= -(int64_t)g->cols ||
        st[1] >= (int64_t)g->cols)
        return false;
    int64_t r2 = (int64_t)r + st[0], c2 = (int64_t)c + st[1];
    if (r2 < 0 || c2 < 0 || (uint64_t)r2 >= g->rows || (uint64_t)c2 >= g->cols)
        return false;
    *to = (uint32_t)((uint64_t)r2 * g->cols + (uint64_t)c2);
    return true;
}

static gr_status build_board(const grid *g, gr_graph *out)
{
    size_t cap = (size_t)(g->rows * g->cols * g->nsteps) + 1;
    uint32_t *from = gr_malloc(cap * sizeof *from), *to = gr_malloc(cap * sizeof *to), m = 0;
    gr_status s = GR_ENOMEM;
    if (from && to) {
        for (uint64_t r = 0; r < g->rows; r++)
            for (uint64_t c = 0; c < g->cols; c++)
                for (size_t k = 0; k < g->nsteps; k++)
                    if (on_board(g, r, c, g->steps[k], &to[m]))
                        from[m++] = (uint32_t)(r * g->cols + c);
        s = gr_graph_build((uint32_t)(g->rows * g->cols), from, to, m, out);
    }
    gr_free(from);
    gr_free(to);
    return s;
}

static void square_put(const void *ctx, uint32_t v, gr_jw_node *n, const char *key)
{
    const grid *g = ctx;
    uint64_t rc[2] = { v / g->cols, v % g->cols };
    gr_jw_u64s(n, key, rc, 2);
}

static void square_text(const void *ctx, uint32_t v, gr_text *t)
{
    const grid *g = ctx;
    gr_text_add(t, "[%" PRIu64 ", %" PRIu64 "]", v / g->cols, v % g->cols);
}

/* Answers the position (sink NULL) or lists its moves (`list`) into sink. */
static int read_and_solve(gr_query *q, gr_move_sink *sink, gr_token_list_fn list)
{
    grid g = { .nsteps = 0 };
    gr_graph board = { 0 };
    int rc = read_grid(q, &g);
    if (rc == 0 && !gr_budget_spend(&q->budget, g.rows * g.cols * g.nsteps))
        rc = gr_fail_engine(q->err, GR_ELIMIT, "rows", "building this board");
    if (rc == 0) {
        gr_status s = build_board(&g, &board);
        rc = s == GR_OK ? 0 : gr_fail_engine(q->err, s, "rows", "building this board");
    }
    if (rc == 0) {
        char name[96];
        snprintf(name, sizeof name, "a board of %" PRIu64 " x %" PRIu64 " squares with %zu step%s", g.rows,
                 g.cols, g.nsteps, g.nsteps == 1 ? "" : "s");
        gr_token_board b = { .graph = &board, .at = g.at, .ntokens = g.ntokens, .ctx = &g,
                             .node_put = square_put, .node_text = square_text, .board = name };
        rc = sink ? list(q, &b, sink) : gr_token_sum(q, &b);
    }
    gr_graph_free(&board);
    gr_free(g.steps);
    gr_free(g.at);
    return rc;
}

static int analyze_grid(gr_query *q)
{
    return read_and_solve(q, NULL, NULL);
}

/* Canonical order: token by token as "tokens" lists them; a token's moves
 * follow "steps" in the order given, repeats dropped (as the reader drops
 * them), each step that keeps the token on the board once. */
static int moves_grid(gr_query *q, gr_move_sink *sink)
{
    return read_and_solve(q, sink, gr_token_moves);
}

/* The moves that make the nim-sum 0 (token_sum.h). */
static int winning_grid(gr_query *q, gr_move_sink *sink)
{
    return read_and_solve(q, sink, gr_token_winning);
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field grid_fields[] = {
    { .name = "rows", .type = GR_FIELD_INTEGER, .dflt = "15", .description = "Rows of the board.",
      .value = { 1, I63, GR_LIMIT_MAX_NODES } },
    { .name = "cols", .type = GR_FIELD_INTEGER, .dflt = "15", .description = "Columns of the board.",
      .value = { 1, I63, GR_LIMIT_MAX_NODES } },
    { .name = "steps", .type = GR_FIELD_SIGNED_PAIRS, .dflt = "[[-2,1],[-2,-1],[1,-2],[-1,-2]]",
      .description = "The moves of a token, [drow, dcol], not [0, 0]; repeats are ignored. A step "
                     "that would leave the board is not a move.",
      .count = SPAN(1, 64), .value = ANY_S },
    { .name = "tokens", .type = GR_FIELD_INTEGER_PAIRS, .required = true,
      .description = "The square [row, col] of each token, counting from 0: row below rows, col "
                     "below cols. Several may share a square. May be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

static const gr_constraint grid_constraints[] = {
    { "rows * cols (squares)", UPTO(GR_LIMIT_MAX_NODES) },
    { "rows * cols * distinct steps (moves)", UPTO(GR_LIMIT_MAX_EDGES) },
};

const gr_game gr_game_grid = { .name = "grid", .summary = "Move one token by one of the steps on a rows x cols board.",
    .misere = true, .compounds = SUMS, .compound_note = CYCLE_NOTE, .analyze = analyze_grid,
    .moves = moves_grid, .winning = winning_grid, .kind = GR_KIND_IMPARTIAL, FIELDS(grid_fields),
    CONSTRAINTS(grid_constraints),
    .example = "{\"game\":\"grid\",\"rows\":4,\"cols\":5,\"steps\":[[0,1],[0,-1],[1,0]],"
               "\"tokens\":[[0,0],[2,3]]}"
};
