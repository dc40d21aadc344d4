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
};

const size_t gr_ngames = sizeof gr_games / sizeof gr_games[0];

const gr_game *gr_game_find(const char *name)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (strcmp(gr_games[i].name, name) == 0)
            return &gr_games[i];
    return NULL;
}
