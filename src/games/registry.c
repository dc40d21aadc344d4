/* SPDX-License-Identifier: MIT */
/* The registry: the one list of the games the service answers, in the
 * order the catalogue lists them. Each game's contract and hooks are in its
 * own file of this folder. */
#include <string.h>

#include "registry.h"

#include "game.h"

extern const gr_game gr_game_nim;
extern const gr_game gr_game_subtraction;
extern const gr_game gr_game_staircase;
extern const gr_game gr_game_wythoff;
extern const gr_game gr_game_fibonacci;
extern const gr_game gr_game_divisor;
extern const gr_game gr_game_octal;
extern const gr_game gr_game_grundys_game;
extern const gr_game gr_game_strange_nim;
extern const gr_game gr_game_graph;
extern const gr_game gr_game_grid;
extern const gr_game gr_game_coins;
extern const gr_game gr_game_tictactoe;
extern const gr_game gr_game_mnk;
extern const gr_game gr_game_stone_row;
extern const gr_game gr_game_stone_prefix;
extern const gr_game gr_game_stone_front3;
extern const gr_game gr_game_can_i_win;

const gr_game *const gr_games[] = {
    &gr_game_nim,
    &gr_game_subtraction,
    &gr_game_staircase,
    &gr_game_wythoff,
    &gr_game_fibonacci,
    &gr_game_divisor,
    &gr_game_octal,
    &gr_game_grundys_game,
    &gr_game_strange_nim,
    &gr_game_graph,
    &gr_game_grid,
    &gr_game_coins,
    &gr_game_tictactoe,
    &gr_game_mnk,
    &gr_game_stone_row,
    &gr_game_stone_prefix,
    &gr_game_stone_front3,
    &gr_game_can_i_win,
};

const size_t gr_ngames = sizeof gr_games / sizeof gr_games[0];

const gr_game *gr_game_find(const char *name)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (strcmp(gr_games[i]->name, name) == 0)
            return gr_games[i];
    return NULL;
}

bool gr_game_has_field(const gr_game *game, const char *name)
{
    for (size_t i = 0; i < game->nfields; i++)
        if (strcmp(game->fields[i].name, name) == 0)
            return true;
    return false;
}

size_t gr_game_index(const gr_game *game)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (gr_games[i] == game)
            return i;
    return gr_ngames;
}

void gr_game_names(gr_text *t)
{
    for (size_t i = 0; i < gr_ngames; i++)
        gr_text_add(t, "%s%s", i ? ", " : "", gr_games[i]->name);
}

