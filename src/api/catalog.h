/* SPDX-License-Identifier: MIT */
/* Descriptions of what the service holds: the table file, for GET /v1/tables
 * and `grundy tables info`, and the games, for GET /v1/games. */
#ifndef GRUNDY_API_CATALOG_H
#define GRUNDY_API_CATALOG_H

#include "query.h"
#include "tables/tables.h"

/* {"path", "bytes", "sections": [{name, kind, bound, periodic, preperiod,
 * period, max_value, checksum, bytes, ...}]} as malloc'd JSON; NULL when out
 * of memory. `t` may be NULL (no table file: an empty list). */
char *gr_api_tables_json(const gr_tables *t);

/* The game catalogue as malloc'd JSON, NULL when out of memory. Generated
 * from the registry (contract.h), so it lists exactly the games the service
 * answers, in registry order; bounds that follow a configurable limit carry
 * its value in `limits` and name it in a "*_limit" member. Integers are
 * exact. Shape:
 *
 * {"games": [{
 *    "name", "summary", "kind": "impartial" | "score",
 *    "conventions": [{"name": "normal", "scope": "any"},
 *                    {"name": "misere", "scope": "any" | "one_component", "note"}],
 *    "compounds": ["disjunctive", ...], "compounds_note" (when the set has conditions),
 *    "fields": [{"name", "type", "required", "default" (JSON value, when constant),
 *                "enum" (allowed strings; rules for type "moves"), "pattern" (POSIX ERE),
 *                "min_items", "max_items" (arrays) | "min_length", "max_length" (strings),
 *                "minimum", "maximum" (each integer held),
 *                "max_items_limit" | "max_length_limit" | "maximum_limit" (gr_limits member),
 *                "description"}],
 *    "constraints": [{"rule", "minimum", "maximum", "maximum_limit"}],
 *    "example": {a query answered 200}}],
 *  "common_fields": [game, convention, compound, described as fields are],
 *  "types": {"integer": "...", ...: every field type and what it holds},
 *  "limits": {"budget", "max_items", ...: every member of gr_limits}}
 *
 * A query may carry only game, convention, the game's fields, and compound
 * where more than the disjunctive compound is listed; validate.h refuses
 * any other member. An optional field sent as null means its default. */
char *gr_api_games_json(const gr_limits *limits);

#endif
