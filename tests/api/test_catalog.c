/* SPDX-License-Identifier: MIT */
/* The game catalogue (GET /v1/games) against the service that answers the
 * queries: it lists exactly the registry, each game's example is answered,
 * the fields it calls required are required, the optional ones default as
 * it says, its bounds are the ones enforced under the live limits, and no
 * member it leaves out is read. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "registry.h"
#include "catalog.h"
#include "contract.h"
#include "check_main.h"

/* ---- the catalogue, read exactly ------------------------------------------ */

typedef struct catalog {
    char *text;
    gr_json_doc doc;
} catalog;

static void catalog_load(catalog *c, const gr_limits *l)
{
    gr_api_error e = { 0 };
    c->text = gr_api_games_json(l);
    ck_assert_ptr_nonnull(c->text);
    if (gr_json_parse(c->text, strlen(c->text), &c->doc, &e) != 0)
        ck_abort_msg("the catalogue is not JSON: %s", e.message);
    ck_assert(cJSON_IsObject(c->doc.root));
}

static void catalog_free(catalog *c)
{
    gr_json_free(&c->doc);
    free(c->text);
}

static const cJSON *member(const cJSON *o, const char *key)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!m)
        ck_abort_msg("no member \"%s\"", key);
    return m;
}

static const char *text_of(const cJSON *o, const char *key)
{
    const cJSON *m = member(o, key);
    ck_assert(cJSON_IsString(m));
    return m->valuestring;
}

/* An exact integer of the catalogue (gr_json keeps every digit). */
static int64_t int_of(const catalog *c, const cJSON *o, const char *key)
{
    gr_api_error e = { 0 };
    int64_t v;
    if (gr_json_i64(&c->doc, member(o, key), key, &v, &e) != 0)
        ck_abort_msg("\"%s\" is not an exact integer: %s", key, e.message);
    return v;
}

static const cJSON *game_entry(const catalog *c, size_t i)
{
    const cJSON *g = cJSON_GetArrayItem(member(c->doc.root, "games"), (int)i);
    ck_assert_ptr_nonnull(g);
    ck_assert_str_eq(text_of(g, "name"), gr_games[i]->name);
    return g;
}

static const cJSON *field_entry(const cJSON *game, const char *name)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, member(game, "fields"))
        if (strcmp(text_of(f, "name"), name) == 0)
            return f;
    return NULL;
}

static bool is_common(const char *name)
{
    return strcmp(name, "game") == 0 || strcmp(name, "convention") == 0 ||
           strcmp(name, "compound") == 0;
}

/* ---- asking the service ---------------------------------------------------- */

static void small_limits(gr_limits *l)
{
    gr_limits_default(l);
    l->max_items = 7;
    l->max_moves = 5;
    l->max_move = 1000;
    l->max_nodes = 64;
    l->max_edges = 100;
    l->octal_max_values = 512;
    l->grundys_max_heap = 100;
}

/* Status and malloc'd body of `query` under limits `l` (NULL: defaults). */
static char *ask(const gr_limits *l, const char *query, int *status)
{
    gr_service svc = { .tables = NULL };
    if (l)
        svc.limits = *l;
    else
        gr_limits_default(&svc.limits);
    gr_reply r;
    gr_api_analyze(&svc, query, strlen(query), &r);
    ck_assert_ptr_nonnull(r.body);
    *status = r.status;
    return r.body;
}

/* The error of a refused query; fails unless the status is 422. */
static void expect_422(const gr_limits *l, const char *query, char *code, size_t ncode,
                       char *field, size_t nfield)
{
    int status;
    char *body = ask(l, query, &status);
    if (status != 422)
        ck_abort_msg("%s: status %d, want 422: %s", query, status, body);
    cJSON *root = cJSON_Parse(body);
    const cJSON *err = member(root, "error");
    snprintf(code, ncode, "%s", text_of(err, "code"));
    const cJSON *f = member(err, "field");
    snprintf(field, nfield, "%s", cJSON_IsString(f) ? f->valuestring : "");
    cJSON_Delete(root);
    free(body);
}

/* Whether an error's field path is `name` or inside it ("piles[2]"). */
static bool names_field(const char *path, const char *name)
{
    size_t n = strlen(name);
    return strncmp(path, name, n) == 0 && (path[n] == '\0' || path[n] == '[' || path[n] == '.');
}

static void expect_refused(const gr_limits *l, const char *query, const char *name)
{
    char code[32], field[128];
    expect_422(l, query, code, sizeof code, field, sizeof field);
    if (!names_field(field, name))
        ck_abort_msg("%s: refused with %s naming \"%s\", not \"%s\"", query, code, field, name);
}

/* The body of an answered query (status 200), malloc'd. */
static char *answer(const gr_limits *l, const char *query)
{
    int status;
    char *body = ask(l, query, &status);
    if (status != 200)
        ck_abort_msg("%s: status %d, want 200: %s", query, status, body);
    return body;
}

/* ---- variants of an example -------------------------------------------------- */

/* The example with member `name` replaced by `value` (owned; NULL removes
 * it), as malloc'd text. */
static char *variant(const char *example, const char *name, cJSON *value)
{
    cJSON *root = cJSON_Parse(example);
    ck_assert_ptr_nonnull(root);
    cJSON_DeleteItemFromObjectCaseSensitive(root, name);
    if (value)
        cJSON_AddItemToObject(root, name, value);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* A copy of the example's member `name`. */
static cJSON *example_value(const char *example, const char *name)
{
    cJSON *root = cJSON_Parse(example);
    cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(root, name);
    cJSON_Delete(root);
    if (!v)
        ck_abort_msg("the example %s has no \"%s\"", example, name);
    return v;
}

/* Replaces the first integer in `node` (a number, or the first entry of an
 * array, recursively) by the string `text`; the caller owns `node`. */
static cJSON *with_first_integer(cJSON *node, const char *text)
{
    if (cJSON_IsNumber(node)) {
        cJSON_Delete(node);
        return cJSON_CreateString(text);
    }
    ck_assert(cJSON_IsArray(node) && node->child);
    cJSON *first = cJSON_DetachItemViaPointer(node, node->child);
    cJSON_InsertItemInArray(node, 0, with_first_integer(first, text));
    return node;
}

/* n copies of the first entry of array `node` (which it frees). */
static cJSON *repeated(cJSON *node, int64_t n)
{
    ck_assert(cJSON_IsArray(node) && node->child);
    cJSON *arr = cJSON_CreateArray();
    for (int64_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, cJSON_Duplicate(node->child, true));
    cJSON_Delete(node);
    return arr;
}

/* String `node` cut or padded with its last character to n characters. */
static cJSON *resized(cJSON *node, int64_t n)
{
    ck_assert(cJSON_IsString(node) && node->valuestring[0]);
    const char *s = node->valuestring;
    size_t len = strlen(s);
    char *buf = malloc((size_t)n + 1);
    for (size_t i = 0; i < (size_t)n; i++)
        buf[i] = i < len ? s[i] : s[len - 1];
    buf[n] = '\0';
    cJSON *out = cJSON_CreateString(buf);
    free(buf);
    cJSON_Delete(node);
    return out;
}

/* ---- the registry ------------------------------------------------------------ */

/* Every entry carries the catalogue's description: a game added without it
 * fails here. */
START_TEST(test_registry_described)
{
    const gr_game *g = gr_games[_i];
    ck_assert(g->kind == GR_KIND_IMPARTIAL || g->kind == GR_KIND_SCORE);
    ck_assert_ptr_nonnull(g->example);
    ck_assert_ptr_nonnull(g->fields);
    ck_assert_uint_ge(g->nfields, 1);
    ck_assert(g->compounds & GR_COMPOUND_BIT(GR_DISJUNCTIVE));
    ck_assert(!g->misere_any || g->misere);
    for (size_t k = 0; k < g->nfields; k++) {
        const gr_field *f = &g->fields[k];
        ck_assert_ptr_nonnull(f->name);
        ck_assert(!is_common(f->name));
        ck_assert(f->type >= GR_FIELD_INTEGER && f->type <= GR_FIELD_MOVES);
        ck_assert(f->description && strlen(f->description) > 5);
        ck_assert(!(f->required && f->dflt));
        for (size_t j = 0; j < k; j++)
            ck_assert_str_ne(g->fields[j].name, f->name);
    }
    for (size_t k = 0; k < g->nconstraints; k++)
        ck_assert_ptr_nonnull(g->constraints[k].rule);
}
END_TEST

START_TEST(test_lists_the_registry)
{
    gr_limits l;
    gr_limits_default(&l);
    catalog c;
    catalog_load(&c, &l);
    const cJSON *games = member(c.doc.root, "games");
    ck_assert_int_eq(cJSON_GetArraySize(games), (int)gr_ngames);
    for (size_t i = 0; i < gr_ngames; i++) {
        const cJSON *g = game_entry(&c, i);
        ck_assert_str_eq(text_of(g, "summary"), gr_games[i]->summary);
        ck_assert_str_eq(text_of(g, "kind"), gr_games[i]->kind == GR_KIND_SCORE ? "score" : "impartial");
        ck_assert_int_eq(cJSON_GetArraySize(member(g, "fields")), (int)gr_games[i]->nfields);
        ck_assert(cJSON_IsObject(member(g, "example")));
        ck_assert_str_eq(text_of(member(g, "example"), "game"), gr_games[i]->name);
    }
    const cJSON *common = member(c.doc.root, "common_fields"), *names = NULL, *f;
    cJSON_ArrayForEach(f, common)
        if (strcmp(text_of(f, "name"), "game") == 0)
            names = member(f, "enum");
    ck_assert_ptr_nonnull(names);
    ck_assert_int_eq(cJSON_GetArraySize(names), (int)gr_ngames);
    for (size_t i = 0; i < gr_ngames; i++)
        ck_assert_str_eq(cJSON_GetArrayItem(names, (int)i)->valuestring, gr_games[i]->name);
    catalog_free(&c);
}
END_TEST

/* Misere `query` (the example's) is answered for any position, or for one
 * component only: refused when the example has several. */
static void check_misere_scope(const gr_game *game, const char *query)
{
    char *normal = answer(NULL, game->example);
    cJSON *root = cJSON_Parse(normal);
    int n = cJSON_GetArraySize(member(root, "components"));
    cJSON_Delete(root);
    free(normal);
    if (game->misere_any || n <= 1) {
        free(answer(NULL, query));
        return;
    }
    char code[32], field[64];
    expect_422(NULL, query, code, sizeof code, field, sizeof field);
    ck_assert_str_eq(code, "unsupported_convention");
}

/* Conventions and compounds as the registry has them, and as analyze
 * enforces them on the example. */
START_TEST(test_conventions_and_compounds)
{
    const gr_game *game = gr_games[_i];
    gr_limits l;
    gr_limits_default(&l);
    catalog c;
    catalog_load(&c, &l);
    const cJSON *g = game_entry(&c, _i), *conv = member(g, "conventions");
    ck_assert_int_eq(cJSON_GetArraySize(conv), game->misere ? 2 : 1);
    ck_assert_str_eq(text_of(cJSON_GetArrayItem(conv, 0), "name"), "normal");
    char *q = variant(game->example, "convention", cJSON_CreateString("misere"));
    if (game->misere) {
        const cJSON *m = cJSON_GetArrayItem(conv, 1);
        ck_assert_str_eq(text_of(m, "name"), "misere");
        ck_assert_str_eq(text_of(m, "scope"), game->misere_any ? "any" : "one_component");
        check_misere_scope(game, q);
    } else {
        char code[32], field[64];
        expect_422(NULL, q, code, sizeof code, field, sizeof field);
        ck_assert_str_eq(code, "unsupported_convention");
    }
    free(q);
    const cJSON *listed = member(g, "compounds");
    int n = 0;
    for (unsigned k = GR_DISJUNCTIVE; k <= GR_CONJUNCTIVE; k++) {
        const char *name = gr_compound_name((gr_compound)k);
        bool in = game->compounds & GR_COMPOUND_BIT(k);
        if (in)
            ck_assert_str_eq(cJSON_GetArrayItem(listed, n++)->valuestring, name);
        q = variant(game->example, "compound", cJSON_CreateString(name));
        int status;
        char *body = ask(NULL, q, &status);
        /* A game of one compound takes no "compound" member at all. */
        bool takes_member = game->compounds != GR_COMPOUND_BIT(GR_DISJUNCTIVE);
        if (!takes_member) {
            if (status != 422 || !strstr(body, "\"code\":\"inapplicable_field\""))
                ck_abort_msg("%s: compound %s is not refused as inapplicable: %s", game->name, name, body);
            free(body);
            free(q);
            continue;
        }
        bool refused = status == 422 && strstr(body, "\"code\":\"unsupported_compound\"");
        if (refused == in && !(in && game->compound_note))
            ck_abort_msg("%s: compound %s is %slisted but %s: %s", game->name, name, in ? "" : "not ",
                         refused ? "refused" : "not refused", body);
        free(body);
        free(q);
    }
    ck_assert_int_eq(cJSON_GetArraySize(listed), n);
    catalog_free(&c);
}
END_TEST

/* ---- the examples and the fields ------------------------------------------------ */

/* The example is answered, names only described members, and shows every
 * field the game reads. */
START_TEST(test_example_answered)
{
    const gr_game *game = gr_games[_i];
    free(answer(NULL, game->example));
    gr_limits l;
    small_limits(&l);
    free(answer(&l, game->example));
    catalog c;
    catalog_load(&c, &l);
    const cJSON *g = game_entry(&c, _i), *example = member(g, "example"), *m;
    cJSON_ArrayForEach(m, example)
        if (!is_common(m->string) && !field_entry(g, m->string))
            ck_abort_msg("%s: the example's \"%s\" is not described", game->name, m->string);
    for (size_t k = 0; k < game->nfields; k++)
        if (!cJSON_GetObjectItemCaseSensitive(example, game->fields[k].name))
            ck_abort_msg("%s: the example does not show \"%s\"", game->name, game->fields[k].name);
    catalog_free(&c);
}
END_TEST

/* Every field called required is: the example without it is a 422
 * missing_field naming it. */
START_TEST(test_required_fields)
{
    const gr_game *game = gr_games[_i];
    for (size_t k = 0; k < game->nfields; k++) {
        const gr_field *f = &game->fields[k];
        if (!f->required)
            continue;
        char *q = variant(game->example, f->name, NULL), code[32], field[64];
        expect_422(NULL, q, code, sizeof code, field, sizeof field);
        ck_assert_str_eq(code, "missing_field");
        ck_assert_str_eq(field, f->name);
        free(q);
    }
}
END_TEST

/* Every optional field may be left out or sent as null, and its default
 * (when constant) answers as its absence does. */
START_TEST(test_optional_fields)
{
    const gr_game *game = gr_games[_i];
    for (size_t k = 0; k < game->nfields; k++) {
        const gr_field *f = &game->fields[k];
        if (f->required)
            continue;
        char *absent = variant(game->example, f->name, NULL);
        char *null = variant(game->example, f->name, cJSON_CreateNull());
        char *want = answer(NULL, absent), *got = answer(NULL, null);
        ck_assert_str_eq(got, want);
        free(got);
        if (f->dflt) {
            char *dflt = variant(game->example, f->name, cJSON_Parse(f->dflt));
            got = answer(NULL, dflt);
            if (strcmp(got, want) != 0)
                ck_abort_msg("%s: \"%s\": %s answers %s; absent it answers %s", game->name, f->name,
                             f->dflt, got, want);
            free(got);
            free(dflt);
        }
        free(want);
        free(absent);
        free(null);
    }
}
END_TEST

static bool matches(const char *pattern, const char *s)
{
    regex_t re;
    ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    bool ok = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* Types are among those documented; patterns hold for the example; every
 * allowed string is answered and another is refused naming the field. */
START_TEST(test_types_and_choices)
{
    const gr_game *game = gr_games[_i];
    gr_limits l;
    gr_limits_default(&l);
    catalog c;
    catalog_load(&c, &l);
    const cJSON *g = game_entry(&c, _i), *types = member(c.doc.root, "types"), *f;
    cJSON_ArrayForEach(f, member(g, "fields")) {
        const char *name = text_of(f, "name");
        ck_assert(cJSON_IsString(member(types, text_of(f, "type"))));
        ck_assert(cJSON_IsBool(member(f, "required")));
        ck_assert(strlen(text_of(f, "description")) > 5);
        const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(f, "pattern");
        cJSON *v = example_value(game->example, name);
        if (pattern)
            ck_assert(matches(pattern->valuestring, v->valuestring));
        cJSON_Delete(v);
        const cJSON *choices = cJSON_GetObjectItemCaseSensitive(f, "enum"), *choice;
        bool rule = strcmp(text_of(f, "type"), "moves") == 0;
        cJSON_ArrayForEach(choice, choices) {
            cJSON *value = cJSON_CreateString(choice->valuestring);
            if (rule) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddItemToObject(o, "rule", value);
                value = o;
            }
            char *q = variant(game->example, name, value);
            free(answer(NULL, q));
            free(q);
        }
        if (choices) {
            cJSON *bad = cJSON_CreateString("no_such_choice");
            if (rule) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddItemToObject(o, "rule", bad);
                bad = o;
            }
            char *q = variant(game->example, name, bad);
            expect_refused(NULL, q, name);
            free(q);
        }
    }
    catalog_free(&c);
}
END_TEST

/* The example with `name` replaced by `value`: refused naming the field. */
static void refused_with(const gr_limits *l, const gr_game *game, const char *name, cJSON *value)
{
    char *q = variant(game->example, name, value);
    expect_refused(l, q, name);
    free(q);
}

/* The example with `name` replaced by `value`: answered, or refused for
 * another field or, when `codes` (space-separated) is given, with another
 * code. A bound reached here may break a rule that spans fields, such as
 * rows * cols <= max_nodes, reported on the field the rule is checked on. */
static void not_refused_with(const gr_limits *l, const gr_game *game, const char *name, cJSON *value,
                             const char *codes)
{
    char *q = variant(game->example, name, value);
    int status;
    char *body = ask(l, q, &status);
    if (status != 200) {
        cJSON *root = cJSON_Parse(body);
        const cJSON *err = member(root, "error");
        char code[40];
        snprintf(code, sizeof code, " %s ", text_of(err, "code"));
        char all[128];
        snprintf(all, sizeof all, " %s ", codes ? codes : "");
        if (names_field(text_of(err, "field"), name) && (!codes || strstr(all, code)))
            ck_abort_msg("%s: refused at the catalogue's bound: %s", q, body);
        cJSON_Delete(root);
    }
    free(body);
    free(q);
}

/* Just past each end of the integer range: refused naming the field. The
 * lower end itself is not, nor the upper end as out of range when a limit
 * sets it (a constant upper end may be unreachable through the other fields
 * of the example, such as node ids below "nodes"). */
static void check_values(const catalog *c, const gr_limits *l, const gr_game *game, const cJSON *f)
{
    const char *name = text_of(f, "name");
    int64_t lo = int_of(c, f, "minimum"), hi = int_of(c, f, "maximum");
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, lo);
    not_refused_with(l, game, name, with_first_integer(example_value(game->example, name), text), NULL);
    if (cJSON_GetObjectItemCaseSensitive(f, "maximum_limit")) {
        snprintf(text, sizeof text, "%" PRId64, hi);
        not_refused_with(l, game, name, with_first_integer(example_value(game->example, name), text),
                         "out_of_range beyond_bound invalid_integer");
    }
    snprintf(text, sizeof text, "%" PRId64, lo - 1);
    refused_with(l, game, name, with_first_integer(example_value(game->example, name), text));
    snprintf(text, sizeof text, "%" PRIu64, (uint64_t)hi + 1);
    refused_with(l, game, name, with_first_integer(example_value(game->example, name), text));
}

/* One entry or character too few or too many: refused naming the field.
 * The fewest entries are not, nor the most as too many when a limit sets
 * them (the shortest string may not fit the other fields, as a board must
 * have rows * cols cells). */
static void check_counts(const catalog *c, const gr_limits *l, const gr_game *game, const cJSON *f,
                         const char *what)
{
    const char *name = text_of(f, "name");
    char min_key[16], max_key[16];
    snprintf(min_key, sizeof min_key, "min_%s", what);
    snprintf(max_key, sizeof max_key, "max_%s", what);
    int64_t lo = int_of(c, f, min_key), hi = int_of(c, f, max_key);
    cJSON *(*resize)(cJSON *, int64_t) = what[0] == 'i' ? repeated : resized;
    ck_assert_int_le(hi, 100000); /* every count is bounded by a limit or a constant */
    refused_with(l, game, name, resize(example_value(game->example, name), hi + 1));
    if (lo > 0)
        refused_with(l, game, name, resize(example_value(game->example, name), lo - 1));
    if (what[0] == 'i')
        not_refused_with(l, game, name, resize(example_value(game->example, name), lo), NULL);
    char limit_key[24];
    snprintf(limit_key, sizeof limit_key, "%s_limit", max_key);
    if (cJSON_GetObjectItemCaseSensitive(f, limit_key))
        not_refused_with(l, game, name, resize(example_value(game->example, name), hi), "too_many");
}

/* Under small limits, the bounds the catalogue states are the ones enforced. */
START_TEST(test_bounds_enforced)
{
    const gr_game *game = gr_games[_i];
    gr_limits l;
    small_limits(&l);
    catalog c;
    catalog_load(&c, &l);
    const cJSON *f;
    cJSON_ArrayForEach(f, member(game_entry(&c, _i), "fields")) {
        if (cJSON_GetObjectItemCaseSensitive(f, "minimum"))
            check_values(&c, &l, game, f);
        if (cJSON_GetObjectItemCaseSensitive(f, "max_items"))
            check_counts(&c, &l, game, f, "items");
        if (cJSON_GetObjectItemCaseSensitive(f, "max_length"))
            check_counts(&c, &l, game, f, "length");
    }
    catalog_free(&c);
}
END_TEST

static bool own_field(const gr_game *g, const char *name)
{
    for (size_t k = 0; k < g->nfields; k++)
        if (strcmp(g->fields[k].name, name) == 0)
            return true;
    return is_common(name);
}

/* The example plus member `name` holding nonsense is a 422 `code` naming
 * the member; for a misspelling of the game's own field `near`, the message
 * suggests that field. */
static void check_refused(const gr_game *game, const char *name, const char *code, const char *near)
{
    if (own_field(game, name))
        return;
    char *q = variant(game->example, name, cJSON_Parse("{\"x\":[-1,\"y\",null]}"));
    int status;
    char *body = ask(NULL, q, &status);
    cJSON *root = cJSON_Parse(body);
    const cJSON *err = member(root, "error");
    const cJSON *f = err ? member(err, "field") : NULL;
    if (status != 422 || strcmp(text_of(err, "code"), code) != 0 || !cJSON_IsString(f) ||
        strcmp(f->valuestring, name) != 0)
        ck_abort_msg("%s with member \"%s\": %d %s, want 422 %s naming it", game->name, name, status,
                     body, code);
    char quoted[80];
    snprintf(quoted, sizeof quoted, "did you mean \\\"%s\\\"?", near ? near : "");
    if (near && !strstr(body, quoted))
        ck_abort_msg("%s with member \"%s\": no suggestion of \"%s\": %s", game->name, name, near, body);
    cJSON_Delete(root);
    free(body);
    free(q);
}

/* Whether some game has a field `name`. */
static bool field_anywhere(const char *name)
{
    for (size_t i = 0; i < gr_ngames; i++)
        for (size_t k = 0; k < gr_games[i]->nfields; k++)
            if (strcmp(gr_games[i]->fields[k].name, name) == 0)
                return true;
    return false;
}

/* Members the catalogue does not list for a game, such as other games'
 * fields or misspellings of its own, are refused and named. */
START_TEST(test_unlisted_members_refused)
{
    const gr_game *game = gr_games[_i];
    for (size_t i = 0; i < gr_ngames; i++)
        for (size_t k = 0; k < gr_games[i]->nfields; k++)
            check_refused(game, gr_games[i]->fields[k].name, "inapplicable_field", NULL);
    for (size_t k = 0; k < game->nfields; k++) {
        const char *own = game->fields[k].name;
        char name[64];
        snprintf(name, sizeof name, "%ss", own);
        if (!field_anywhere(name))
            check_refused(game, name, "unknown_field", own);
        snprintf(name, sizeof name, "%s", own);
        name[0] = (char)(name[0] - 'a' + 'A');
        check_refused(game, name, "unknown_field", own);
        snprintf(name, sizeof name, "%s ", own);
        check_refused(game, name, "unknown_field", own);
    }
    static const char *const others[] = { "size", "heaps", "count", "xyzzy" };
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
        check_refused(game, others[k], "unknown_field", NULL);
}
END_TEST

/* ---- limits --------------------------------------------------------------------- */

static const cJSON *field_of(const catalog *c, const char *game, const char *field)
{
    const gr_game *g = gr_game_find(game);
    ck_assert_ptr_nonnull(g);
    const cJSON *f = field_entry(game_entry(c, gr_game_index(g)), field);
    ck_assert_ptr_nonnull(f);
    return f;
}

START_TEST(test_limits_follow_the_service)
{
    gr_limits l;
    gr_limits_default(&l);
    catalog c;
    catalog_load(&c, &l);
    ck_assert_int_eq(int_of(&c, field_of(&c, "nim", "piles"), "max_items"), 100000);
    ck_assert_int_eq(int_of(&c, field_of(&c, "stone_prefix", "stones"), "max_items"), 2048);
    ck_assert_int_eq(int_of(&c, field_of(&c, "nim", "piles"), "maximum"), INT64_MAX);
    ck_assert_int_eq(int_of(&c, field_of(&c, "stone_front3", "stones"), "minimum"), -INT64_MAX);
    catalog_free(&c);

    l.max_items = 50;
    l.max_move = 77;
    l.budget = (UINT64_C(1) << 62) + 1; /* past a double's exact range */
    l.grundys_max_heap = 12345;
    catalog_load(&c, &l);
    const cJSON *piles = field_of(&c, "nim", "piles");
    ck_assert_int_eq(int_of(&c, piles, "max_items"), 50);
    ck_assert_str_eq(text_of(piles, "max_items_limit"), "max_items");
    ck_assert_int_eq(int_of(&c, field_of(&c, "stone_prefix", "stones"), "max_items"), 50);
    ck_assert_int_eq(int_of(&c, field_of(&c, "subtraction", "moves"), "maximum"), 77);
    const cJSON *grundys = game_entry(&c, gr_game_index(gr_game_find("grundys_game")));
    ck_assert_int_eq(int_of(&c, cJSON_GetArrayItem(member(grundys, "constraints"), 0), "maximum"), 12345);
    const cJSON *limits = member(c.doc.root, "limits");
    ck_assert_int_eq(int_of(&c, limits, "budget"), (int64_t)l.budget);
    ck_assert_int_eq(int_of(&c, limits, "max_items"), 50);
    ck_assert_int_eq(int_of(&c, limits, "max_moves"), (int64_t)l.max_moves);
    ck_assert_int_eq(int_of(&c, limits, "max_move"), 77);
    ck_assert_int_eq(int_of(&c, limits, "max_nodes"), (int64_t)l.max_nodes);
    ck_assert_int_eq(int_of(&c, limits, "max_edges"), (int64_t)l.max_edges);
    ck_assert_int_eq(int_of(&c, limits, "octal_max_values"), (int64_t)l.octal_max_values);
    ck_assert_int_eq(int_of(&c, limits, "grundys_max_heap"), 12345);
    ck_assert_int_eq(int_of(&c, limits, "max_batch"), (int64_t)l.max_batch);
    ck_assert_int_eq(int_of(&c, limits, "batch_budget"), (int64_t)l.batch_budget);
    ck_assert_int_eq(int_of(&c, limits, "max_line"), (int64_t)l.max_line);
    ck_assert_uint_eq((size_t)cJSON_GetArraySize(limits), sizeof l / sizeof l.budget);
    catalog_free(&c);
}
END_TEST

/* The members every query may carry name what analyze accepts. */
START_TEST(test_common_fields)
{
    gr_limits l;
    gr_limits_default(&l);
    catalog c;
    catalog_load(&c, &l);
    const cJSON *f, *compound = NULL;
    cJSON_ArrayForEach(f, member(c.doc.root, "common_fields"))
        if (strcmp(text_of(f, "name"), "compound") == 0)
            compound = member(f, "enum");
    ck_assert_ptr_nonnull(compound);
    ck_assert_int_eq(cJSON_GetArraySize(compound), GR_CONJUNCTIVE + 1);
    for (unsigned k = GR_DISJUNCTIVE; k <= GR_CONJUNCTIVE; k++)
        ck_assert_str_eq(cJSON_GetArrayItem(compound, (int)k)->valuestring,
                         gr_compound_name((gr_compound)k));
    catalog_free(&c);
}
END_TEST

static Suite *catalog_suite(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("catalog");
    tcase_set_timeout(tc, 120);
    int n = (int)gr_ngames;
    tcase_add_loop_test(tc, test_registry_described, 0, n);
    tcase_add_test(tc, test_lists_the_registry);
    tcase_add_loop_test(tc, test_conventions_and_compounds, 0, n);
    tcase_add_loop_test(tc, test_example_answered, 0, n);
    tcase_add_loop_test(tc, test_required_fields, 0, n);
    tcase_add_loop_test(tc, test_optional_fields, 0, n);
    tcase_add_loop_test(tc, test_types_and_choices, 0, n);
    tcase_add_loop_test(tc, test_bounds_enforced, 0, n);
    tcase_add_loop_test(tc, test_unlisted_members_refused, 0, n);
    tcase_add_test(tc, test_limits_follow_the_service);
    tcase_add_test(tc, test_common_fields);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(catalog_suite());
}
