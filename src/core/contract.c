/* SPDX-License-Identifier: MIT */
/* The parts of every game's contract that are not one game's: the limits a
 * bound may follow, what each field type holds, and the members every query
 * may carry. The catalogue (catalog.c) describes them and the validator
 * (validate.c) enforces them, from these same tables. */
#include <stddef.h>
#include <string.h>

#include "contract.h"

static const struct {
    const char *name;
    size_t offset;
} limit_members[] = {
    [GR_LIMIT_BUDGET] = { "budget", offsetof(gr_limits, budget) },
    [GR_LIMIT_MAX_ITEMS] = { "max_items", offsetof(gr_limits, max_items) },
    [GR_LIMIT_MAX_MOVES] = { "max_moves", offsetof(gr_limits, max_moves) },
    [GR_LIMIT_MAX_MOVE] = { "max_move", offsetof(gr_limits, max_move) },
    [GR_LIMIT_MAX_NODES] = { "max_nodes", offsetof(gr_limits, max_nodes) },
    [GR_LIMIT_MAX_EDGES] = { "max_edges", offsetof(gr_limits, max_edges) },
    [GR_LIMIT_OCTAL_MAX_VALUES] = { "octal_max_values", offsetof(gr_limits, octal_max_values) },
    [GR_LIMIT_GRUNDYS_MAX_HEAP] = { "grundys_max_heap", offsetof(gr_limits, grundys_max_heap) },
    [GR_LIMIT_MAX_BATCH] = { "max_batch", offsetof(gr_limits, max_batch) },
    [GR_LIMIT_BATCH_BUDGET] = { "batch_budget", offsetof(gr_limits, batch_budget) },
    [GR_LIMIT_MAX_LINE] = { "max_line", offsetof(gr_limits, max_line) },
    [GR_LIMIT_QUERY_CPU_MS] = { "query_cpu_ms", offsetof(gr_limits, query_cpu_ms) },
    [GR_LIMIT_BATCH_CPU_MS] = { "batch_cpu_ms", offsetof(gr_limits, batch_cpu_ms) },
    [GR_LIMIT_QUERY_MEMORY] = { "query_memory", offsetof(gr_limits, query_memory) },
};

_Static_assert(sizeof limit_members / sizeof limit_members[0] == GR_NLIMITS,
               "limit_members must list every gr_limit_id");
/* "limits" in the catalogue reports every member: a new one must be added above. */
_Static_assert(sizeof(gr_limits) == (GR_NLIMITS - 1) * sizeof(uint64_t),
               "limit_members must list every member of gr_limits");

uint64_t gr_limit_value(const gr_limits *l, gr_limit_id id)
{
    return *(const uint64_t *)(const void *)((const char *)l + limit_members[id].offset);
}

const char *gr_limit_name(gr_limit_id id)
{
    return limit_members[id].name;
}

uint64_t gr_range_max(const gr_range *r, const gr_limits *l)
{
    uint64_t max = (uint64_t)r->max;
    if (r->max < 0 || r->limit == GR_LIMIT_NONE)
        return max;
    uint64_t live = gr_limit_value(l, r->limit);
    return live < max ? live : max;
}

const gr_field_type_info gr_field_types[GR_NFIELD_TYPES] = {
    [GR_FIELD_INTEGER] = { "integer", "an integer from 0 to 2^63 - 1: a JSON number of plain "
                           "digits or a string of decimal digits", NULL, true },
    [GR_FIELD_INTEGER_ARRAY] = { "integer_array", "an array of integers", "items", true },
    [GR_FIELD_SIGNED_ARRAY] = { "signed_integer_array", "an array of integers from -(2^63 - 1) to "
                                "2^63 - 1, each a JSON number or a decimal string with an optional "
                                "'-'", "items", true },
    [GR_FIELD_INTEGER_PAIRS] = { "integer_pairs", "an array of pairs [a, b] of integers", "items",
                                 true },
    [GR_FIELD_SIGNED_PAIRS] = { "signed_integer_pairs", "an array of pairs [a, b] of signed "
                                "integers", "items", true },
    [GR_FIELD_STRING] = { "string", "a string; one of \"enum\" when listed", "length", false },
    [GR_FIELD_BOARD] = { "board", "a string of cells row by row: 'X', 'O' or '.' (empty)", "length",
                         false },
    [GR_FIELD_MOVES] = { "moves", "an integer_array, or an object {\"rule\": R} with R one of "
                         "\"enum\"", "items", true },
    [GR_FIELD_BOOLEAN] = { "boolean", "true or false", NULL, false },
};

static const char *const convention_names[] = { "normal", "misere", NULL };
static const char *const compound_names[] = { "disjunctive", "selective", "selective_proper",
                                              "conjunctive", NULL };

const gr_field gr_common_fields[] = {
    { .name = "convention", .type = GR_FIELD_STRING, .dflt = "\"normal\"", .choices = convention_names,
      .description = "normal: the player who cannot move loses; misere (also accepted as "
                     "\"mis\xc3\xa8re\"): that player wins. misere only for the games whose "
                     "conventions list it, within its scope." },
    { .name = "compound", .type = GR_FIELD_STRING, .dflt = "\"disjunctive\"", .choices = compound_names,
      .description = "How the components combine, only for the games whose compounds list more "
                     "than disjunctive (any other game refuses the member): a move in exactly one "
                     "(disjunctive), in any non-empty set (selective), in any non-empty set but not "
                     "all (selective_proper), in every one (conjunctive). Normal play only." },
    { .name = "explain", .type = GR_FIELD_BOOLEAN, .dflt = "true",
      .description = "false: a slim answer, without \"winning_moves\", \"why\" and \"explanation\" "
                     "(the account for people, which is then never composed); every other member is "
                     "the same. Cheaper to compute and to send: for machines that read only the "
                     "verdict." },
};

/* Other spellings a choice is accepted under, each beside the choice it means. */
static const char *const choice_aliases[][2] = {
    { "mis\xc3\xa8re", "misere" },
};

const char *gr_choice_canonical(const char *s)
{
    for (size_t i = 0; i < sizeof choice_aliases / sizeof choice_aliases[0]; i++)
        if (strcmp(s, choice_aliases[i][0]) == 0)
            return choice_aliases[i][1];
    return s;
}

const size_t gr_ncommon_fields = sizeof gr_common_fields / sizeof gr_common_fields[0];

static int solve_ints(gr_query *q, const void *pos)
{
    const gr_int_position *p = pos;
    return p->solve(q, p->v, p->n);
}

const gr_position *gr_int_position_of(gr_int_position *p)
{
    p->position = (gr_position){ solve_ints, p };
    return &p->position;
}
