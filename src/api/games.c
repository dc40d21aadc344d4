#include "api/games.h"

#include <string.h>

/* Heap and token games are sums of components and answer every compound;
 * the others are one position each. */
#define SUMS GR_COMPOUNDS_ALL
#define ONE GR_COMPOUND_BIT(GR_DISJUNCTIVE)

const gr_game gr_games[] = {
    { "nim", "Take any positive number of tokens from one pile.", true, SUMS, gr_analyze_nim },
    { "subtraction", "Take s tokens from one pile, s from a finite set of moves.", true, SUMS,
      gr_analyze_subtraction },
    { "staircase", "Move one or more coins from stair i >= 1 down to stair i - 1.", false, ONE,
      gr_analyze_staircase },
    { "wythoff", "Two piles: take from one pile, or the same number from both.", false, ONE,
      gr_analyze_wythoff },
    { "fibonacci", "Take 1..limit tokens; the opponent's limit becomes twice the take.", false, ONE,
      gr_analyze_fibonacci },
    { "divisor", "Replace n by n - x for a proper divisor x of n.", false, ONE, gr_analyze_divisor },
    { "octal", "Octal game 0.d1d2...: remove k tokens, leaving 0, 1 or 2 heaps as digit k allows.",
      true, SUMS, gr_analyze_octal },
    { "grundys_game", "Split one heap into two non-empty heaps of different sizes.", true, SUMS,
      gr_analyze_grundys_game },
    { "strange_nim", "Piles [x, k]: take between 1 and floor(x / k) tokens from one pile.", false,
      SUMS, gr_analyze_strange_nim },
    { "graph", "Move one token along an edge of a directed graph (cycles allowed).", true, SUMS,
      gr_analyze_graph },
    { "grid", "Move one token by one of the steps on a rows x cols board.", true, SUMS,
      gr_analyze_grid },
    { "coins", "Coin turning: turning_turtles, mock_turtles or ruler; the rightmost turned coin "
      "goes from heads to tails.", false, ONE, gr_analyze_coins },
    { "tictactoe", "Noughts and crosses on a 3x3 board; the side to move follows from the counts.",
      false, ONE, gr_analyze_tictactoe },
    { "mnk", "An m,n,k-game: k in a row on a rows x cols board wins.", false, ONE, gr_analyze_mnk },
    { "stone_row", "Take the first or the last pile of a row; most stones wins.", false, ONE,
      gr_analyze_stone_row },
    { "stone_prefix", "Take the first x piles, 1 <= x <= 2M, then M = max(M, x); most stones wins.",
      false, ONE, gr_analyze_stone_prefix },
    { "stone_front3", "Take 1 to 3 piles from the front (values may be negative); most wins.",
      false, ONE, gr_analyze_stone_front3 },
    { "can_i_win", "Pick unused numbers 1..max_choosable; reaching desired_total first wins.",
      false, ONE, gr_analyze_can_i_win },
};

const size_t gr_ngames = sizeof gr_games / sizeof gr_games[0];

const gr_game *gr_game_find(const char *name)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (strcmp(gr_games[i].name, name) == 0)
            return &gr_games[i];
    return NULL;
}

void gr_game_names(gr_text *t)
{
    for (size_t i = 0; i < gr_ngames; i++)
        gr_text_add(t, "%s%s", i ? ", " : "", gr_games[i].name);
}
