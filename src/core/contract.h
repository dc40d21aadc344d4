/* SPDX-License-Identifier: MIT */
/* A game's contract, stated once: its fields (type, required or default,
 * bounds, choices, description), its conventions and compounds, an example,
 * and its hooks, with the positions and sinks the hooks trade in. Each game
 * is one file of src/games/ defining its gr_game; registry.h lists them.
 * The validator (validate.h), the catalogue (GET /v1/games, catalog.h) and
 * openapi.yaml's agreement test all read these tables. An entry without
 * its description fails test_catalog. */
#ifndef GRUNDY_CORE_CONTRACT_H
#define GRUNDY_CORE_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "query.h"

/* What a field holds, named in the catalogue as given. Integers are the
 * API's exact integers: a JSON number of plain digits or a decimal string. */
typedef enum gr_field_type {
    GR_FIELD_INTEGER = 1,       /* "integer": 0 .. 2^63 - 1 */
    GR_FIELD_INTEGER_ARRAY,     /* "integer_array": [integer, ...] */
    GR_FIELD_SIGNED_ARRAY,      /* "signed_integer_array": each -(2^63 - 1) .. 2^63 - 1 */
    GR_FIELD_INTEGER_PAIRS,     /* "integer_pairs": [[a, b], ...] of integers */
    GR_FIELD_SIGNED_PAIRS,      /* "signed_integer_pairs": [[a, b], ...] of signed integers */
    GR_FIELD_STRING,            /* "string": one of `choices` when given */
    GR_FIELD_BOARD,             /* "board": a string of 'X', 'O', '.', row by row */
    GR_FIELD_MOVES,             /* "moves": an integer_array, or {"rule": R}, R in `choices` */
    GR_FIELD_BOOLEAN,           /* "boolean": true or false */
    GR_NFIELD_TYPES
} gr_field_type;

/* Each field type: its catalogue name, what it holds, whether it counts
 * entries ("items"), characters ("length") or neither (NULL), and whether
 * it holds integers. */
typedef struct gr_field_type_info {
    const char *name, *doc, *count;
    bool integers;
} gr_field_type_info;

extern const gr_field_type_info gr_field_types[GR_NFIELD_TYPES];

/* The configurable limits (members of gr_limits) a bound may follow. */
typedef enum gr_limit_id {
    GR_LIMIT_NONE,
    GR_LIMIT_BUDGET,
    GR_LIMIT_MAX_ITEMS,
    GR_LIMIT_MAX_MOVES,
    GR_LIMIT_MAX_MOVE,
    GR_LIMIT_MAX_NODES,
    GR_LIMIT_MAX_EDGES,
    GR_LIMIT_OCTAL_MAX_VALUES,
    GR_LIMIT_GRUNDYS_MAX_HEAP,
    GR_LIMIT_MAX_BATCH,
    GR_LIMIT_BATCH_BUDGET,
    GR_LIMIT_MAX_LINE,
    GR_LIMIT_QUERY_CPU_MS,
    GR_LIMIT_BATCH_CPU_MS,
    GR_LIMIT_QUERY_MEMORY,
    GR_NLIMITS
} gr_limit_id;

/* The live value of limit `id` (not GR_LIMIT_NONE), and its name as the
 * catalogue's "limits" and "*_limit" members give it. */
uint64_t gr_limit_value(const gr_limits *l, gr_limit_id id);
const char *gr_limit_name(gr_limit_id id);

/* An inclusive range min .. max. With `limit` set the upper end is the
 * smaller of `max` and that limit's live value. */
typedef struct gr_range {
    int64_t min, max;
    gr_limit_id limit;
} gr_range;

/* The upper end of r in force under `l`, as unsigned (r->max >= 0). */
uint64_t gr_range_max(const gr_range *r, const gr_limits *l);

/* One member of a query that a game reads. */
typedef struct gr_field {
    const char *name;
    gr_field_type type;
    bool required;              /* absent is a 422 missing_field naming it */
    const char *dflt;           /* JSON text used when absent or null; NULL: none, or
                                   derived from other fields (the description says how) */
    const char *description;
    const char *const *choices; /* NULL-terminated allowed strings (rules for "moves"), or NULL */
    const char *pattern;        /* POSIX extended regex a string matches, or NULL */
    gr_range count;             /* entries of an array, characters of a string */
    gr_range value;             /* each integer the field holds */
} gr_field;

/* A limit that spans fields, such as rows * cols <= max_nodes. */
typedef struct gr_constraint {
    const char *rule;           /* what is bounded, in words */
    gr_range bound;
} gr_constraint;

/* A position held in memory, with the function that answers it as the
 * game's analyze hook would answer it written out: a moves hook hands the
 * position after each move this way, so that its outcome is found without
 * writing it to JSON and reading it back. */
typedef struct gr_position {
    int (*solve)(gr_query *q, const void *pos); /* fills q->ans; 0, or -1 with q->err */
    const void *pos;
} gr_position;

/* A position that is a list of integers (stairs; n and limit; the two
 * piles of Wythoff's game), answered by the game's `solve` as its analyze
 * hook answers them once read. `v` is the caller's and must hold room for
 * the position. gr_int_position returns p's position. */
typedef struct gr_int_position {
    int (*solve)(gr_query *q, const uint64_t *v, size_t n);
    uint64_t *v;
    size_t n;
    gr_position position;
} gr_int_position;

const gr_position *gr_int_position_of(gr_int_position *p);

/* Where a game's moves hook hands over the legal moves of a position
 * (POST /v1/moves, api/moves.c). */
typedef struct gr_move_sink {
    gr_u128 from;   /* in: the canonical index of the first move to hand over */
    gr_u128 total;  /* out: the exact number of legal moves, set before the first put */
    /* Takes the move and next the game rendered into q->ans, exactly as its
     * analyze hook renders a winning move, and clears them; `after` is the
     * position next writes, in memory, valid during the call only (NULL
     * from a winning hook, whose moves win by construction). false:
     * no more moves are wanted (or memory ran out: q->err then says so). */
    bool (*put)(struct gr_move_sink *s, gr_query *q, const gr_position *after);
    void *ctx;
} gr_move_sink;

/* The room, in bytes, that any answer of a fast hook fits in. */
#define GR_FAST_MAX_ANSWER 32768u

typedef enum gr_game_kind {
    GR_KIND_IMPARTIAL = 1, /* "impartial": Sprague-Grundy values, "grundy" answered */
    GR_KIND_SCORE,         /* "score": "value" for the player to move, "grundy" null */
} gr_game_kind;

typedef struct gr_game {
    const char *name;
    const char *summary;
    bool misere;                  /* answers convention "misere" (some for one component only) */
    unsigned compounds;           /* GR_COMPOUND_BIT set of the compounds it answers */
    int (*analyze)(gr_query *q);  /* 0, or -1 with q->err filled */
    /* Lists the legal moves of q's validated position (its convention and
     * compound read) in the game's canonical order, from sink->from: sets
     * sink->total, then renders each move into q->ans.move and q->ans.next
     * and calls sink->put, until put returns false or the moves run out.
     * Moves before sink->from are skipped without being built. 0, or -1
     * with q->err filled. */
    int (*moves)(gr_query *q, gr_move_sink *sink);
    /* Optional: lists only the winning moves of q's validated position (one
     * the player to move wins), as `moves` lists all of them and in the same
     * order: sets sink->total to their exact number first. For positions
     * too large to search move by move (winning.h); 0, or -1 with q->err
     * filled (the count is then reported unknown, never guessed), or 1 with
     * nothing listed: this position (a convention or compound the hook does
     * not count) is searched move by move as if there were no hook. */
    int (*winning)(gr_query *q, gr_move_sink *sink);
    /* Optional: answers a body in the one plain form it knows (the
     * commonest query) without parsing it into a tree, appending the very
     * bytes the general path writes for it (at most GR_FAST_MAX_ANSWER:
     * a caller with that much room never sees out grow), and spending no
     * compute budget; false, out unchanged, for any other body. */
    bool (*fast)(const gr_limits *limits, const char *body, size_t len, gr_buf *out);
    /* The catalogue's description; every entry sets all of these but the notes. */
    gr_game_kind kind;
    /* A move itself scores (the stone rows): whether it wins for its mover
     * is not the outcome of the position after it, so a listing of moves
     * gives that outcome without "winning". */
    bool move_scores;
    bool misere_any;              /* misere for any position, not one heap or token only */
    const char *misere_note;      /* what misere covers, for the catalogue, or NULL */
    const char *compound_note;    /* conditions on the compounds beyond `compounds`, or NULL */
    const gr_field *fields;       /* every member analyze reads but game, convention, compound */
    size_t nfields;
    const gr_constraint *constraints;
    size_t nconstraints;
    const char *example;          /* a query answered 200 without a table file, as JSON */
} gr_game;

/* Members every query may carry besides "game": convention and compound
 * (compound only for games that answer more than the disjunctive one). */
extern const gr_field gr_common_fields[];
extern const size_t gr_ncommon_fields;

/* The choice a string names: itself, or the choice it is an accepted other
 * spelling of ("misère" for "misere"). */
const char *gr_choice_canonical(const char *s);

#endif
