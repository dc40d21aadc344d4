#include "api/games.h"

#include <string.h>

const gr_game gr_games[] = {
    { "nim", "Take any positive number of tokens from one pile.", true, gr_analyze_nim },
    { "subtraction", "Take s tokens from one pile, s from a finite set of moves.", false,
      gr_analyze_subtraction },
    { "staircase", "Move one or more coins from stair i >= 1 down to stair i - 1.", false,
      gr_analyze_staircase },
    { "wythoff", "Two piles: take from one pile, or the same number from both.", false,
      gr_analyze_wythoff },
    { "fibonacci", "Take 1..limit tokens; the opponent's limit becomes twice the take.", false,
      gr_analyze_fibonacci },
    { "divisor", "Replace n by n - x for a proper divisor x of n.", false, gr_analyze_divisor },
    { "octal", "Octal game 0.d1d2...: remove k tokens, leaving 0, 1 or 2 heaps as digit k allows.",
      false, gr_analyze_octal },
    { "grundys_game", "Split one heap into two non-empty heaps of different sizes.", false,
      gr_analyze_grundys_game },
    { "graph", "Move one token along an edge of a directed acyclic graph.", false,
      gr_analyze_graph },
    { "tictactoe", "Noughts and crosses on a 3x3 board; the side to move follows from the counts.",
      false, gr_analyze_tictactoe },
    { "mnk", "An m,n,k-game: k in a row on a rows x cols board wins.", false, gr_analyze_mnk },
    { "stone_row", "Take the first or the last pile of a row; most stones wins.", false,
      gr_analyze_stone_row },
    { "stone_prefix", "Take the first x piles, 1 <= x <= 2M, then M = max(M, x); most stones wins.",
      false, gr_analyze_stone_prefix },
    { "stone_front3", "Take 1 to 3 piles from the front (values may be negative); most wins.",
      false, gr_analyze_stone_front3 },
    { "can_i_win", "Pick unused numbers 1..max_choosable; reaching desired_total first wins.",
      false, gr_analyze_can_i_win },
};

const size_t gr_ngames = sizeof gr_games / sizeof gr_games[0];

const gr_game *gr_game_find(const char *name)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (strcmp(gr_games[i].name, name) == 0)
            return &gr_games[i];
    return NULL;
}
