/* The answer for an m,n,k board, shared by mnk and tictactoe. */
#ifndef GRUNDY_API_GAMES_MNK_BOARD_H
#define GRUNDY_API_GAMES_MNK_BOARD_H

#include "api/query.h"
#include "grundy/mnk.h"

/* Reads "board" for the game g, solves it and fills the answer; 0, or -1
 * with q->err filled. */
int gr_mnk_answer(gr_query *q, const gr_mnk *g);

#endif
