/* SPDX-License-Identifier: MIT */
/* The one validator: a query object is held to its game's declared contract
 * (contract.h) before any hook reads it. */
#ifndef GRUNDY_API_VALIDATE_H
#define GRUNDY_API_VALIDATE_H

#include "contract.h"

/* Checks q->obj against `game`'s contract:
 * - every member is a common member that applies to the game (game,
 *   convention; compound when the game answers more than the disjunctive
 *   compound), one of the game's fields, or one of `extra` (NULL-terminated
 *   names an endpoint adds, such as paging members; may be NULL). Anything
 *   else is a 422 `unknown_field` naming the member and the nearest valid
 *   name, or `inapplicable_field` naming the games that take it. "id" is
 *   accepted in a batch query (q->batch), and refused elsewhere as taken
 *   only by a batch; it is never listed among the valid names, so that a
 *   batch query's errors are the same bytes as its analyze errors;
 * - every required field is present and not null;
 * - every present field has its type, its entry or character count, each
 *   integer within its range (live limits included), and each string among
 *   its choices (with the nearest one suggested) and matching its pattern.
 * Constraints that span fields stay with the game's reader. Returns 0, or -1
 * with q->err filled. */
int gr_validate(gr_query *q, const gr_game *game, const char *const *extra);

/* The 422 for a name that is not among `names` (n of them): code `code`,
 * field `field`, "unknown WHAT \"word\"", the nearest name when one is close,
 * and the list. Returns -1. */
int gr_fail_unknown_name(gr_api_error *e, gr_error_code code, const char *field, const char *what,
                         const char *word, const char *const *names, size_t n);

#endif
