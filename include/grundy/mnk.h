/* SPDX-License-Identifier: MIT */
/* m,n,k-games (tic-tac-toe is 3,3,3): a rows x cols board, X and O
 * alternate placing a mark on an empty cell, X first; the first to own k
 * cells in a row (horizontal, vertical or either diagonal) wins; a full
 * board with no line is a draw.
 *
 * A board is given as rows * cols characters in row-major order, each 'X',
 * 'O' or '.' (empty). Cell (r, c) is index r * cols + c, and bit
 * r * cols + c of the bitboards below. At most 64 cells.
 *
 * Values are for the player to move: +1 win, 0 draw, -1 loss, with best
 * play by both sides. A best move wins soonest, or loses latest, or keeps
 * the draw. The solver is exact (alpha-beta over win/draw/loss with
 * distance-to-end scores, a transposition table over positions reduced by
 * the board's symmetries, and only pruning that provably keeps the value). */
#ifndef GRUNDY_MNK_H
#define GRUNDY_MNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

#define GR_MNK_MAX_CELLS 64u /* rows * cols at most this */

/* The rules: 1 <= rows, 1 <= cols, rows * cols <= GR_MNK_MAX_CELLS,
 * 1 <= k <= max(rows, cols). */
typedef struct gr_mnk {
    unsigned rows, cols, k;
} gr_mnk;

typedef enum gr_mnk_player {
    GR_MNK_NONE = 0,
    GR_MNK_X = 1,
    GR_MNK_O = 2,
} gr_mnk_player;

/* A legal position: one that play from the empty board can reach, stopping
 * at the first line. Made by gr_mnk_check or gr_mnk_play; the derived fields
 * always agree with x and o. */
typedef struct gr_mnk_position {
    uint64_t x;              /* cells holding X */
    uint64_t o;              /* cells holding O (disjoint from x) */
    unsigned empty;          /* number of empty cells */
    gr_mnk_player to_move;   /* X when the counts are equal, else O (even when over) */
    gr_mnk_player winner;    /* the player who owns a k-line, or GR_MNK_NONE */
    bool over;               /* a player has won, or the board is full */
} gr_mnk_position;

/* What gr_mnk_solve found. */
typedef struct gr_mnk_result {
    int value;         /* +1 / 0 / -1 for the player to move */
    int best_cell;     /* a best move (cell index), or -1 when the game is over */
    unsigned plies;    /* value != 0: moves (both players', the winning one
                        * included) until the game ends when the winner wins
                        * soonest and the loser loses latest; 0 when over.
                        * value == 0: 0. */
} gr_mnk_result;

/* GR_OK when g satisfies the rules above; else GR_EINVAL with *why (when
 * why is non-NULL) set to a short, stable English sentence. */
gr_status gr_mnk_game_check(const gr_mnk *g, const char **why);

/* Reads board[0 .. len) into *pos and checks that it is a legal position:
 * len == rows * cols, only 'X', 'O', '.', X count equal to O count or one
 * more, and no play after a win (a winner made the last move, the other
 * player has no line, and one cell lies on every line of the winner, so a
 * single move made them all). Returns GR_OK, or GR_EINVAL with *why (when
 * why is non-NULL) set to a short, stable sentence such as
 * "both players have a line"; *pos is written only on success.
 * board need not be NUL-terminated. */
gr_status gr_mnk_check(const gr_mnk *g, const char *board, size_t len,
                       gr_mnk_position *pos, const char **why);

/* Writes the board of pos to out[0 .. rows * cols) and a NUL after it;
 * GR_EINVAL when g is invalid or outlen < rows * cols + 1. */
gr_status gr_mnk_render(const gr_mnk *g, const gr_mnk_position *pos, char *out,
                        size_t outlen);

/* The position after the player to move marks `cell`. GR_EINVAL when g or
 * *pos is invalid, the game is over, or cell is not an empty cell.
 * next may alias pos; it is written only on success. */
gr_status gr_mnk_play(const gr_mnk *g, const gr_mnk_position *pos, unsigned cell,
                      gr_mnk_position *next);

/* Solves *pos (re-checked: GR_EINVAL when it is not a legal position of g).
 * A finished game costs nothing: value -1 when the previous player won,
 * 0 on a full board, best_cell -1. Otherwise every search node visited
 * spends one step per k-line of the board (a node scans every line: 8 on
 * 3,3,3, 28 on 5,5,4, 96 on 8,8,5); GR_ELIMIT (budget emptied) when the
 * budget runs out first. The search is deterministic and its step count
 * depends only on g and the position, so a budget of at least that count
 * always succeeds. Rough costs from the empty board at -O2: 4,4,4 0.3
 * million steps; 5,5,4 20 million (0.2 s); 5,5,5 190 million (2.5 s);
 * about 100 million steps a second on larger boards.
 * The search allocates a transposition table of at most 2^20 entries of
 * 24 bytes (fewer when few cells are empty) and a symmetry table of at most
 * 128 KiB, and frees both before returning; GR_ENOMEM when it cannot have
 * them. *res is written only on GR_OK. */
gr_status gr_mnk_solve(const gr_mnk *g, const gr_mnk_position *pos, gr_budget *b,
                       gr_mnk_result *res);

#endif
