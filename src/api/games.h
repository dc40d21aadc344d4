/* The registry of games: the one place that lists them. Each entry reads its
 * fields from the query, calls its engine module, and fills the answer. */
#ifndef GRUNDY_API_GAMES_H
#define GRUNDY_API_GAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "api/query.h"

typedef struct gr_game {
    const char *name;
    const char *summary;
    bool misere;                  /* answers convention "misere" (some for one component only) */
    unsigned compounds;           /* GR_COMPOUND_BIT set of the compounds it answers */
    int (*analyze)(gr_query *q);  /* 0, or -1 with q->err filled */
} gr_game;

extern const gr_game gr_games[];
extern const size_t gr_ngames;

/* The entry named `name`, or NULL. */
const gr_game *gr_game_find(const char *name);

/* Appends every game's name, comma-separated, in registry order. */
void gr_game_names(gr_text *t);

int gr_analyze_nim(gr_query *q);
int gr_analyze_subtraction(gr_query *q);
int gr_analyze_subtraction_rule(gr_query *q, const cJSON *moves); /* moves = {"rule": ...} */
int gr_analyze_staircase(gr_query *q);
int gr_analyze_wythoff(gr_query *q);
int gr_analyze_fibonacci(gr_query *q);
int gr_analyze_divisor(gr_query *q);
int gr_analyze_octal(gr_query *q);
int gr_analyze_grundys_game(gr_query *q);
int gr_analyze_strange_nim(gr_query *q);
int gr_analyze_graph(gr_query *q);
int gr_analyze_grid(gr_query *q);
int gr_analyze_coins(gr_query *q);
int gr_analyze_tictactoe(gr_query *q);
int gr_analyze_mnk(gr_query *q);
int gr_analyze_stone_row(gr_query *q);
int gr_analyze_stone_prefix(gr_query *q);
int gr_analyze_stone_front3(gr_query *q);
int gr_analyze_can_i_win(gr_query *q);

#endif
