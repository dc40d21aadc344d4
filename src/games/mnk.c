/* SPDX-License-Identifier: MIT */
/* tictactoe and m,n,k-games: alpha-beta search with a symmetry-reduced
 * transposition table. value is +1, 0 or -1 for the player to move. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "mnk_board.h"
#include "score_why.h"
#include "why.h"
#include "grundy/mnk.h"

static const char *player_name(gr_mnk_player p)
{
    return p == GR_MNK_X ? "X" : "O";
}

static int read_dimension(gr_query *q, const char *name, unsigned *out)
{
    uint64_t v;
    if (gr_q_u64(q, name, NULL, &v))
        return -1;
    if (v < 1 || v > GR_MNK_MAX_CELLS)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, name, "\"%s\" must be between 1 and %u", name,
                       GR_MNK_MAX_CELLS);
    *out = (unsigned)v;
    return 0;
}

static int read_board(gr_query *q, const gr_mnk *g, gr_mnk_position *pos)
{
    const char *why = NULL;
    const cJSON *b = gr_q_get(q, "board");
    if (!b || !cJSON_IsString(b))
        return gr_fail(q->err, b ? GR_E_INVALID_FIELD : GR_E_MISSING_FIELD, "board",
                       "\"board\" must be a string of %u characters 'X', 'O' or '.', row by row",
                       g->rows * g->cols);
    if (gr_mnk_check(g, b->valuestring, strlen(b->valuestring), pos, &why) != GR_OK)
        return gr_fail(q->err, GR_E_ILLEGAL_POSITION, "board", "this board cannot arise in play: %s",
                       why ? why : "it is not a legal position");
    return 0;
}

static int mnk_move(gr_query *q, const gr_mnk *g, const gr_mnk_position *pos, unsigned cell)
{
    gr_mnk_position after;
    char board[GR_MNK_MAX_CELLS + 1];
    if (gr_mnk_play(g, pos, cell, &after) != GR_OK || gr_mnk_render(g, &after, board, sizeof board) != GR_OK)
        return gr_fail(q->err, GR_E_INTERNAL, "board", "a move could not be played; please report this query");
    gr_jw_node *move = gr_ans_move(q);
    gr_jw_node *next = move ? gr_ans_next(q) : NULL;
    if (!next)
        return gr_oom(q);
    gr_jw_u64(move, "cell", cell);
    gr_jw_u64(move, "row", cell / g->cols);
    gr_jw_u64(move, "col", cell % g->cols);
    gr_jw_str(move, "player", player_name(pos->to_move));
    gr_text t = { .len = 0 };
    gr_text_add(&t, "%s plays row %u, column %u (cell %u, counting from 0).", player_name(pos->to_move),
                cell / g->cols, cell % g->cols, cell);
    gr_jw_str(move, "text", t.buf);
    gr_jw_str(next, "board", board);
    return 0;
}

static void mnk_explain(gr_query *q, const gr_mnk *g, const gr_mnk_position *pos, const gr_mnk_result *r)
{
    gr_jw_node *step = gr_why_step(q, "rule");
    if (pos->over) {
        if (pos->winner)
            gr_why_say(q, step, "The game is over: %s has %u in a row.", player_name(pos->winner), g->k);
        else
            gr_why_say(q, step, "The game is over: the board is full without %u in a row.", g->k);
        return;
    }
    gr_text t = { .len = 0 };
    if (r->value)
        gr_text_add(&t, "%s in %u move%s (both players' moves counted)", r->value > 0 ? "wins" : "loses",
                    r->plies, r->plies == 1 ? "" : "s");
    else
        gr_text_add(&t, "draws");
    gr_why_say(q, step, "Alpha-beta search over the whole game tree (%ux%u board, %u in a row) with a "
               "transposition table keyed by the board up to symmetry. With best play %s %s.", g->rows,
               g->cols, g->k, player_name(pos->to_move), t.buf);
}

/* ---- the account: a board as the score games walk it ------------------ */

/* The cell of the i-th empty cell of pos. */
static unsigned nth_empty(const gr_mnk_position *pos, size_t i)
{
    uint64_t taken = pos->x | pos->o;
    unsigned cell = 0;
    while ((taken >> cell & 1) || i-- > 0)
        cell++;
    return cell;
}

static size_t board_moves(const void *ctx, const void *state, gr_score_entry *e, size_t cap)
{
    const gr_mnk *g = ctx;
    const gr_mnk_position *pos = state;
    size_t n = 0, count = pos->over ? 0 : pos->empty;
    for (size_t i = 0; i < count && n < cap; i++) {
        unsigned cell = nth_empty(pos, i);
        gr_score_entry *one = gr_score_entry_add(e, &n, "%s row %u, column %u", player_name(pos->to_move),
                                                 cell / g->cols, cell % g->cols);
        if (!one) {
            gr_score_entries_free(e, n);
            return SIZE_MAX;
        }
        gr_jw_u64(one->move, "cell", cell);
    }
    return n;
}

static int board_value(const void *ctx, const void *state, size_t i, gr_budget *b, gr_i128 *v)
{
    const gr_mnk *g = ctx;
    gr_mnk_position after;
    gr_mnk_result r;
    if (gr_mnk_play(g, state, nth_empty(state, i), &after) != GR_OK ||
        gr_mnk_solve(g, &after, b, &r) != GR_OK)
        return -1;
    *v = -r.value;
    return 0;
}

static int board_best(const void *ctx, const void *state, gr_budget *b, size_t *i, gr_i128 *v)
{
    const gr_mnk *g = ctx;
    const gr_mnk_position *pos = state;
    gr_mnk_result r;
    if (gr_mnk_solve(g, pos, b, &r) != GR_OK || r.best_cell < 0)
        return -1;
    uint64_t below = (pos->x | pos->o) & ((UINT64_C(1) << r.best_cell) - 1);
    *i = (size_t)r.best_cell - (size_t)__builtin_popcountll(below);
    *v = r.value;
    return 0;
}

static void board_play(const void *ctx, void *state, size_t i)
{
    gr_mnk_position after;
    if (gr_mnk_play(ctx, state, nth_empty(state, i), &after) == GR_OK)
        *(gr_mnk_position *)state = after;
}

static int board_render(gr_query *q, const void *ctx, const void *state, size_t i)
{
    return mnk_move(q, ctx, state, nth_empty(state, i));
}

static const gr_score_game board_game = { .state_size = sizeof(gr_mnk_position),
    .unit = "value (+1 win, 0 draw, -1 loss)", .moves = board_moves, .value = board_value,
    .best = board_best, .play = board_play, .render = board_render, .max_moves = GR_MNK_MAX_CELLS };

/* The rules g checked and "board" read into *pos; 0, or -1 with q->err. */
static int read_position(gr_query *q, const gr_mnk *g, gr_mnk_position *pos)
{
    const char *why = NULL;
    if (gr_mnk_game_check(g, &why) != GR_OK)
        return gr_fail(q->err, GR_E_INVALID_FIELD, "k", "%s", why ? why : "invalid board dimensions");
    return read_board(q, g, pos);
}

/* Answers the board in memory. */
static int answer_position(gr_query *q, const gr_mnk *g, const gr_mnk_position *board)
{
    uint64_t before = q->budget.left; /* the search's cost bounds the account */
    gr_mnk_position pos = *board;
    gr_mnk_result r;
    gr_status s = gr_mnk_solve(g, &pos, &q->budget, &r);
    if (s != GR_OK)
        return gr_fail_engine(q->err, s, "board", "solving this board");
    q->ans.winner = r.value > 0 ? "first" : r.value < 0 ? "second" : "draw";
    q->ans.has_value = true;
    q->ans.value = r.value;
    gr_ans_components(q);
    mnk_explain(q, g, &pos, &r);
    gr_score_why_account(q, &board_game, g, &pos, r.value, before - q->budget.left);
    return r.best_cell >= 0 ? mnk_move(q, g, &pos, (unsigned)r.best_cell) : 0;
}

int gr_mnk_answer(gr_query *q, const gr_mnk *g)
{
    gr_mnk_position pos;
    return read_position(q, g, &pos) ? -1 : answer_position(q, g, &pos);
}

/* A board after a move, in memory for a sink. */
typedef struct mnk_after {
    const gr_mnk *g;
    gr_mnk_position pos;
} mnk_after;

static int solve_after(gr_query *q, const void *after)
{
    const mnk_after *a = after;
    return answer_position(q, a->g, &a->pos);
}

/* Canonical order: the empty cells by index (row by row, left to right). A
 * finished game (a line made, or the board full) has no moves. At most 64
 * cells, so skipping to sink->from walks the board. */
int gr_mnk_moves(gr_query *q, const gr_mnk *g, gr_move_sink *sink)
{
    gr_mnk_position pos;
    if (read_position(q, g, &pos))
        return -1;
    sink->total = pos.over ? 0 : pos.empty;
    if (pos.over)
        return 0;
    unsigned cells = g->rows * g->cols;
    uint64_t taken = pos.x | pos.o;
    gr_u128 index = 0;
    for (unsigned cell = 0; cell < cells; cell++) {
        if (taken >> cell & 1)
            continue;
        if (index++ < sink->from)
            continue;
        if (mnk_move(q, g, &pos, cell))
            return -1;
        mnk_after after = { g, pos };
        if (gr_mnk_play(g, &pos, cell, &after.pos) != GR_OK)
            return gr_fail(q->err, GR_E_INTERNAL, "board", "an empty cell could not be played; please "
                           "report this query");
        if (!sink->put(sink, q, &(gr_position){ solve_after, &after }))
            return q->err->code ? -1 : 0;
    }
    return 0;
}

static int read_rules(gr_query *q, gr_mnk *g)
{
    if (read_dimension(q, "rows", &g->rows) || read_dimension(q, "cols", &g->cols) ||
        read_dimension(q, "k", &g->k))
        return -1;
    if ((uint64_t)g->rows * g->cols > GR_MNK_MAX_CELLS)
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, "rows",
                       "rows * cols must be at most %u cells", GR_MNK_MAX_CELLS);
    return 0;
}

static int analyze_mnk(gr_query *q)
{
    gr_mnk g;
    return read_rules(q, &g) ? -1 : gr_mnk_answer(q, &g);
}

static int moves_mnk(gr_query *q, gr_move_sink *sink)
{
    gr_mnk g;
    return read_rules(q, &g) ? -1 : gr_mnk_moves(q, &g, sink);
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field mnk_fields[] = {
    { .name = "rows", .type = GR_FIELD_INTEGER, .required = true, .description = "Rows of the board.",
      .value = SPAN(1, GR_MNK_MAX_CELLS) },
    { .name = "cols", .type = GR_FIELD_INTEGER, .required = true,
      .description = "Columns of the board.", .value = SPAN(1, GR_MNK_MAX_CELLS) },
    { .name = "k", .type = GR_FIELD_INTEGER, .required = true,
      .description = "Marks in a row (row, column or diagonal) to win; at most the longer side.",
      .value = SPAN(1, GR_MNK_MAX_CELLS) },
    { .name = "board", .type = GR_FIELD_BOARD, .required = true, .pattern = BOARD_PATTERN,
      .description = "rows * cols cells row by row: 'X', 'O' or '.'. X moves first; a board play "
                     "cannot reach is a 422 illegal_position.",
      .count = SPAN(1, GR_MNK_MAX_CELLS) },
};

static const gr_constraint mnk_constraints[] = {
    { "rows * cols (cells)", SPAN(1, GR_MNK_MAX_CELLS) },
};

const gr_game gr_game_mnk = { .name = "mnk", .summary = "An m,n,k-game: k in a row on a rows x cols board wins.",
    .compounds = ONE, .analyze = analyze_mnk, .moves = moves_mnk,
    .kind = GR_KIND_SCORE, FIELDS(mnk_fields),
    CONSTRAINTS(mnk_constraints),
    .example = "{\"game\":\"mnk\",\"rows\":3,\"cols\":4,\"k\":3,\"board\":\"............\"}"
};
