/* SPDX-License-Identifier: MIT */
/* The registry: the one list of the games the service answers
 * (registry.c), and lookups over it. */
#ifndef GRUNDY_GAMES_REGISTRY_H
#define GRUNDY_GAMES_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "contract.h"

/* Every game, in catalogue order. */
extern const gr_game *const gr_games[];
extern const size_t gr_ngames;

/* Whether `game` has a field named `name` (the common members aside). */
bool gr_game_has_field(const gr_game *game, const char *name);

/* The position of `game` in gr_games (gr_ngames when it is not there). */
size_t gr_game_index(const gr_game *game);

/* The entry named `name`, or NULL. */
const gr_game *gr_game_find(const char *name);

/* Appends every game's name, comma-separated, in registry order. */
void gr_game_names(gr_text *t);

#endif
