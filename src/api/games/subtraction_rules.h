/* Subtraction games whose set is a rule ({"rule": R}), answered for
 * api/games/subtraction.c. */
#ifndef GRUNDY_API_GAMES_SUBTRACTION_RULES_H
#define GRUNDY_API_GAMES_SUBTRACTION_RULES_H

#include "api/query.h"

/* Answers q, whose "moves" is the object `moves` = {"rule": R}. */
int gr_analyze_subtraction_rule(gr_query *q, const cJSON *moves);

#endif
