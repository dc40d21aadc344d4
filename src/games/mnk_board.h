/* SPDX-License-Identifier: MIT */
/* The answer and the moves of an m,n,k board, shared by mnk and tictactoe. */
#ifndef GRUNDY_API_GAMES_MNK_BOARD_H
#define GRUNDY_API_GAMES_MNK_BOARD_H

#include "contract.h"
#include "query.h"
#include "grundy/mnk.h"

/* Reads "board" for the game g, solves it and fills the answer; 0, or -1
 * with q->err filled. */
int gr_mnk_answer(gr_query *q, const gr_mnk *g);

/* The moves hook for the game g (contract.h): reads "board" as
 * gr_mnk_answer does and lists every move, rendered as its best move is. */
int gr_mnk_moves(gr_query *q, const gr_mnk *g, gr_move_sink *sink);

#endif
