/* SPDX-License-Identifier: MIT */
/* What a game file includes: the registry's types and the shorthands its
 * contract is written in. Each game file in this folder defines one
 * `const gr_game gr_game_NAME` (its fields, conventions, compounds,
 * example and hooks) and nothing else outside it; registry.c
 * lists them. */
#ifndef GRUNDY_API_GAMES_GAME_H
#define GRUNDY_API_GAMES_GAME_H

#include "contract.h"

/* Heap and token games are sums of components and answer every compound;
 * the others are one position each. */
#define SUMS GR_COMPOUNDS_ALL
#define ONE GR_COMPOUND_BIT(GR_DISJUNCTIVE)

#define I63 ((int64_t)GR_INT_MAX)
#define ANY_U { 0, I63, GR_LIMIT_NONE }       /* any API integer */
#define ANY_S { -I63, I63, GR_LIMIT_NONE }    /* any signed API integer */
#define FROM(lo) { lo, I63, GR_LIMIT_NONE }
#define SPAN(lo, hi) { lo, hi, GR_LIMIT_NONE }
#define UPTO(limit) { 0, I63, limit }
#define FIELDS(arr) .fields = arr, .nfields = sizeof arr / sizeof arr[0]
#define CONSTRAINTS(arr) .constraints = arr, .nconstraints = sizeof arr / sizeof arr[0]

/* An array of heap sizes, at most max_items of them, may be empty. */
#define PILES(desc, values)                                                              \
    { .name = "piles", .type = GR_FIELD_INTEGER_ARRAY, .required = true, .description = desc, \
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = values }

#define BOARD_PATTERN "^[XO.]*$"

#define SPLIT_NOTE "selective, selective_proper and conjunctive are answered only for codes " \
                   "without a digit that has bit 4 (a move that splits a heap); else a 422 " \
                   "unsupported_compound"
#define CYCLE_NOTE "selective and selective_proper are answered on acyclic boards only; else a " \
                   "422 cycle"

#endif
