/* SPDX-License-Identifier: MIT */
/* tictactoe: noughts and crosses, the m,n,k-game 3,3,3 (mnk.c). */
#include "game.h"
#include "mnk_board.h"

static int analyze_tictactoe(gr_query *q)
{
    gr_mnk g = { 3, 3, 3 };
    return gr_mnk_answer(q, &g);
}

/* The empty cells by index, as mnk lists them. */
static int moves_tictactoe(gr_query *q, gr_move_sink *sink)
{
    gr_mnk g = { 3, 3, 3 };
    return gr_mnk_moves(q, &g, sink);
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field tictactoe_fields[] = {
    { .name = "board", .type = GR_FIELD_BOARD, .required = true, .pattern = BOARD_PATTERN,
      .description = "Nine cells row by row: 'X', 'O' or '.'. X moves first, so the side to move "
                     "follows from the counts; a board play cannot reach is a 422 illegal_position.",
      .count = SPAN(9, 9) },
};

const gr_game gr_game_tictactoe = { .name = "tictactoe",
    .summary = "Noughts and crosses on a 3x3 board; the side to move follows from the counts.",
    .compounds = ONE, .analyze = analyze_tictactoe, .moves = moves_tictactoe,
    .kind = GR_KIND_SCORE, FIELDS(tictactoe_fields),
    .example = "{\"game\":\"tictactoe\",\"board\":\"XX.OO....\"}"
};
