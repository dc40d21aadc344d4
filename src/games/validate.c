/* SPDX-License-Identifier: MIT */
#include "validate.h"
#include "registry.h"

#include <inttypes.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

/* Room for every member name one query may carry: the common members, the
 * largest game's fields and an endpoint's extras. */
enum { MAX_NAMES = 32 };

/* ---- names and suggestions ------------------------------------------------ */

int gr_fail_unknown_name(gr_api_error *e, gr_error_code code, const char *field, const char *what,
                         const char *word, const char *const *names, size_t n)
{
    char shown[48], list[256] = "";
    size_t used = 0;
    gr_printable(word, shown, sizeof shown);
    for (size_t i = 0; i < n && used + 1 < sizeof list; i++) {
        int k = snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "", names[i]);
        used += k > 0 ? (size_t)k : 0;
    }
    const char *near = gr_suggest(word, names, n);
    if (near)
        return gr_fail(e, code, field, "unknown %s \"%s\"; did you mean \"%s\"? Valid: %s",
                       what, shown, near, list);
    return gr_fail(e, code, field, "unknown %s \"%s\"; valid: %s", what, shown, list);
}

static size_t choices_count(const char *const *choices)
{
    size_t n = 0;
    while (choices[n])
        n++;
    return n;
}

/* Whether `game` takes the common member c (convention for every game,
 * compound only where more than the disjunctive compound is answered). */
static bool common_applies(const gr_field *c, const gr_game *game)
{
    return strcmp(c->name, "compound") != 0 || (game->compounds & ~GR_COMPOUND_BIT(GR_DISJUNCTIVE));
}

/* Every member name `game` accepts, in the order the catalogue lists them. */
static size_t member_names(const gr_game *game, const char *const *extra, const char **names)
{
    size_t n = 0;
    names[n++] = "game";
    for (size_t i = 0; i < game->nfields && n < MAX_NAMES; i++)
        names[n++] = game->fields[i].name;
    for (size_t i = 0; i < gr_ncommon_fields && n < MAX_NAMES; i++)
        if (common_applies(&gr_common_fields[i], game))
            names[n++] = gr_common_fields[i].name;
    for (size_t i = 0; extra && extra[i] && n < MAX_NAMES; i++)
        names[n++] = extra[i];
    return n;
}

static bool game_takes(const gr_game *g, const char *member)
{
    if (gr_game_has_field(g, member))
        return true;
    for (size_t i = 0; i < gr_ncommon_fields; i++)
        if (strcmp(gr_common_fields[i].name, member) == 0 && common_applies(&gr_common_fields[i], g))
            return true;
    return false;
}

/* The 422 for a member some other game takes: which games those are. */
static int fail_inapplicable(gr_query *q, const gr_game *game, const char *member)
{
    char takers[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < gr_ngames && used + 1 < sizeof takers; i++) {
        if (!game_takes(gr_games[i], member))
            continue;
        int k = snprintf(takers + used, sizeof takers - used, "%s%s", used ? ", " : "", gr_games[i]->name);
        used += k > 0 ? (size_t)k : 0;
    }
    if (!used)
        return 1;
    if (game->compound_note && strcmp(member, "compound") == 0)
        return gr_fail(q->err, GR_E_INAPPLICABLE_FIELD, member,
                       "\"compound\" does not apply to %s (%s); drop it. It is taken by %s",
                       game->name, game->compound_note, takers);
    return gr_fail(q->err, GR_E_INAPPLICABLE_FIELD, member,
                   "\"%s\" does not apply to %s; it is taken by %s. Drop it, or choose one of those "
                   "games", member, game->name, takers);
}

static int check_members(gr_query *q, const gr_game *game, const char *const *extra)
{
    const char *names[MAX_NAMES];
    size_t n = member_names(game, extra, names);
    const cJSON *m;
    cJSON_ArrayForEach(m, q->obj) {
        bool known = false;
        for (size_t i = 0; i < n && !known; i++)
            known = strcmp(m->string, names[i]) == 0;
        if (known)
            continue;
        if (strcmp(m->string, "id") == 0 && q->batch)
            continue; /* the batch's own member, not listed among the query's */
        if (strcmp(m->string, "id") == 0)
            return gr_fail(q->err, GR_E_INAPPLICABLE_FIELD, "id",
                           "\"id\" is taken only by the queries of a batch (POST /v1/batch, JSON or "
                           "NDJSON), where each answer echoes it; drop it here");
        if (fail_inapplicable(q, game, m->string) < 0)
            return -1;
        char what[64];
        snprintf(what, sizeof what, "%s member", game->name);
        char field[64];
        gr_printable(m->string, field, sizeof field);
        return gr_fail_unknown_name(q->err, GR_E_UNKNOWN_FIELD, field, what, m->string, names, n);
    }
    return 0;
}

/* ---- integers ------------------------------------------------------------- */

static bool is_signed(const gr_field *f)
{
    return f->type == GR_FIELD_SIGNED_ARRAY || f->type == GR_FIELD_SIGNED_PAIRS || f->value.min < 0;
}

/* Any integer outside its field's range, the live limits included, is
 * "out_of_range"; "too_many" is kept for counts of entries. */
static int fail_range(gr_query *q, const char *field, const gr_field *f, const char *got)
{
    uint64_t max = gr_range_max(&f->value, q->limits);
    bool limited = f->value.limit != GR_LIMIT_NONE && max < (uint64_t)f->value.max;
    return gr_fail(q->err, GR_E_OUT_OF_RANGE, field, "%s must be between %" PRId64 " and %" PRIu64
                   "%s%s%s; got %s", field, f->value.min, max, limited ? " (the service's limit " : "",
                   limited ? gr_limit_name(f->value.limit) : "", limited ? ")" : "", got);
}

/* One integer of field f at path `field` (built by the caller only when
 * this fails: see element_path). */
static int check_integer(gr_query *q, const cJSON *node, const char *field, const gr_field *f)
{
    char got[24];
    if (is_signed(f)) {
        int64_t v;
        if (gr_json_i64(q->doc, node, field, &v, q->err))
            return -1;
        if (v >= f->value.min && (v < 0 || (uint64_t)v <= gr_range_max(&f->value, q->limits)))
            return 0;
        snprintf(got, sizeof got, "%" PRId64, v);
        return fail_range(q, field, f, got);
    } else {
        uint64_t v;
        if (gr_json_u64(q->doc, node, field, &v, q->err))
            return -1;
        if (v >= (uint64_t)f->value.min && v <= gr_range_max(&f->value, q->limits))
            return 0;
        snprintf(got, sizeof got, "%" PRIu64, v);
        return fail_range(q, field, f, got);
    }
}

/* ---- arrays --------------------------------------------------------------- */

/* "one of "a", "b", "c"" for a field's choices. */
static void choices_text(const char *const *choices, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "one of ");
    for (size_t i = 0; choices[i] && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s\"%s\"", i ? ", " : "", choices[i]);
}

/* What a field of f's type must hold, in words: its type's description,
 * with a string's or a rule's choices spelt out. */
static int fail_type(gr_query *q, const char *field, const gr_field *f)
{
    char choices[160] = "";
    if (f->choices)
        choices_text(f->choices, choices, sizeof choices);
    switch (f->type) {
    case GR_FIELD_STRING:
        return gr_fail(q->err, GR_E_INVALID_FIELD, field, "\"%s\" must be a string%s%s", field,
                       *choices ? ": " : "", choices);
    case GR_FIELD_BOARD:
        return gr_fail(q->err, GR_E_INVALID_FIELD, field, "\"%s\" must be a string of 'X', 'O' and "
                       "'.' cells, row by row", field);
    case GR_FIELD_MOVES:
        return gr_fail(q->err, GR_E_INVALID_FIELD, field, "\"%s\" must be an array of positive "
                       "integers, or an object {\"rule\": R} with R %s", field, choices);
    case GR_FIELD_BOOLEAN:
        return gr_fail(q->err, GR_E_INVALID_FIELD, field, "\"%s\" must be true or false (a JSON "
                       "boolean, not a string or a number)", field);
    default:
        return gr_fail(q->err, GR_E_INVALID_FIELD, field, "\"%s\" must be %s", field,
                       gr_field_types[f->type].doc);
    }
}

/* unit: "entry" or "character", made plural as count needs. */
static int check_count(gr_query *q, const gr_field *f, size_t count, const char *unit)
{
    const char *code_unit = unit;
    const char *plural = count == 1 ? "" : strcmp(unit, "entry") == 0 ? "ies" : "s";
    char units[16];
    snprintf(units, sizeof units, "%.*s%s", (int)(strlen(unit) - (*plural == 'i')), unit, plural);
    unit = units;
    uint64_t max = gr_range_max(&f->count, q->limits);
    if (count > max)
        return gr_fail(q->err, *code_unit == 'e' ? GR_E_TOO_MANY : GR_E_INVALID_FIELD, f->name, "\"%s\" has %zu %s; the limit is %" PRIu64 "%s",
                       f->name, count, unit, max, f->count.limit != GR_LIMIT_NONE && max < (uint64_t)f->count.max
                       ? " (the service's max_items or like limit, in GET /v1/games)" : "");
    if (count < (uint64_t)f->count.min)
        return gr_fail(q->err, GR_E_INVALID_FIELD, f->name, "\"%s\" has %zu %s; it needs at least %" PRId64,
                       f->name, count, unit, f->count.min);
    return 0;
}

/* Entry i of field f: an integer, or a pair [a, b] of integers. */
static int check_entry(gr_query *q, const gr_field *f, const cJSON *item, size_t i)
{
    bool pairs = f->type == GR_FIELD_INTEGER_PAIRS || f->type == GR_FIELD_SIGNED_PAIRS;
    char path[64];
    snprintf(path, sizeof path, "%s[%zu]", f->name, i);
    if (!pairs)
        return check_integer(q, item, path, f);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2)
        return gr_fail(q->err, GR_E_INVALID_FIELD, path, "%s must be a pair [a, b] of integers", path);
    char sub[72];
    for (int k = 0; k < 2; k++) {
        snprintf(sub, sizeof sub, "%s[%d]", path, k);
        if (check_integer(q, cJSON_GetArrayItem(item, k), sub, f))
            return -1;
    }
    return 0;
}

/* Integers are read once without a path (the common case, cheap) and only
 * a failing one is read again to name it: building "piles[i]" or
 * "edges[i][k]" for every entry would cost more than reading it. */
static bool integer_quietly_ok(gr_query *q, const gr_field *f, const cJSON *item, uint64_t max)
{
    gr_api_error quiet;
    if (is_signed(f)) {
        int64_t v;
        return gr_json_i64(q->doc, item, "", &v, &quiet) == 0 && v >= f->value.min &&
               (v < 0 || (uint64_t)v <= max);
    }
    uint64_t v;
    return gr_json_u64(q->doc, item, "", &v, &quiet) == 0 && v >= (uint64_t)f->value.min && v <= max;
}

/* A pair field's entry that is not an array passes here as an integer
 * would: the game's own reader refuses it, in the game's words. */
static bool entry_quietly_ok(gr_query *q, const gr_field *f, const cJSON *item, uint64_t max)
{
    bool pairs = f->type == GR_FIELD_INTEGER_PAIRS || f->type == GR_FIELD_SIGNED_PAIRS;
    if (!cJSON_IsArray(item))
        return integer_quietly_ok(q, f, item, max);
    if (!pairs)
        return false;
    const cJSON *a = item->child;
    const cJSON *b = a ? a->next : NULL;
    return b && !b->next && !cJSON_IsArray(a) && !cJSON_IsArray(b) && integer_quietly_ok(q, f, a, max) &&
           integer_quietly_ok(q, f, b, max);
}

static int check_array(gr_query *q, const gr_field *f, const cJSON *arr)
{
    if (!cJSON_IsArray(arr))
        return fail_type(q, f->name, f);
    if (check_count(q, f, (size_t)cJSON_GetArraySize(arr), "entry"))
        return -1;
    uint64_t max = gr_range_max(&f->value, q->limits);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, arr) {
        if (!entry_quietly_ok(q, f, item, max) && check_entry(q, f, item, i))
            return -1;
        i++;
    }
    return 0;
}

/* ---- strings -------------------------------------------------------------- */

/* Field patterns, compiled once: the registry's fields are static. */
enum { MAX_PATTERNS = 8 };
static struct {
    const char *source;
    regex_t re;
    bool ok;
} patterns[MAX_PATTERNS];
static size_t npatterns;
static pthread_once_t patterns_once = PTHREAD_ONCE_INIT;

static void compile_pattern(const char *source)
{
    for (size_t i = 0; i < npatterns; i++)
        if (strcmp(patterns[i].source, source) == 0)
            return;
    if (npatterns == MAX_PATTERNS)
        return;
    patterns[npatterns].source = source;
    patterns[npatterns].ok = regcomp(&patterns[npatterns].re, source, REG_EXTENDED | REG_NOSUB) == 0;
    npatterns++;
}

static void compile_patterns(void)
{
    for (size_t g = 0; g < gr_ngames; g++)
        for (size_t i = 0; i < gr_games[g]->nfields; i++)
            if (gr_games[g]->fields[i].pattern)
                compile_pattern(gr_games[g]->fields[i].pattern);
}

/* Whether s matches `source`; a pattern that failed to compile (a defect
 * test_validate catches) or is unknown matches nothing. */
static bool matches(const char *source, const char *s)
{
    pthread_once(&patterns_once, compile_patterns);
    for (size_t i = 0; i < npatterns; i++)
        if (strcmp(patterns[i].source, source) == 0)
            return patterns[i].ok && regexec(&patterns[i].re, s, 0, NULL, 0) == 0;
    return false;
}

static int check_choice(gr_query *q, const char *field, const char *what, const char *s,
                        const char *const *choices)
{
    const char *canonical = gr_choice_canonical(s);
    for (size_t i = 0; choices[i]; i++)
        if (strcmp(canonical, choices[i]) == 0)
            return 0;
    return gr_fail_unknown_name(q->err, GR_E_INVALID_FIELD, field, what, s, choices,
                                choices_count(choices));
}

static int check_string(gr_query *q, const gr_field *f, const cJSON *node)
{
    if (!cJSON_IsString(node))
        return fail_type(q, f->name, f);
    const char *s = node->valuestring;
    if (f->choices)
        return check_choice(q, f->name, f->name, s, f->choices);
    if (check_count(q, f, strlen(s), "character"))
        return -1;
    if (f->pattern && !matches(f->pattern, s)) {
        char shown[48];
        gr_printable(s, shown, sizeof shown);
        return gr_fail(q->err, GR_E_INVALID_FIELD, f->name,
                       "\"%s\" is \"%s\", which does not match %s: %s", f->name, shown, f->pattern,
                       f->description);
    }
    return 0;
}

/* {"rule": R}: exactly that member, R among the field's choices. */
static int check_rule_object(gr_query *q, const gr_field *f, const cJSON *obj)
{
    static const char *const members[] = { "rule" };
    char path[64];
    const cJSON *m;
    cJSON_ArrayForEach(m, obj) {
        if (strcmp(m->string, "rule") == 0)
            continue;
        snprintf(path, sizeof path, "%s.%s", f->name, m->string);
        return gr_fail_unknown_name(q->err, GR_E_UNKNOWN_FIELD, path, "\"moves\" member", m->string,
                                    members, 1);
    }
    snprintf(path, sizeof path, "%s.rule", f->name);
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(obj, "rule");
    if (!cJSON_IsString(rule)) {
        char choices[160];
        choices_text(f->choices, choices, sizeof choices);
        return gr_fail(q->err, GR_E_INVALID_FIELD, path,
                       "\"%s\" must be a string: %s", path, choices);
    }
    return check_choice(q, path, "rule", rule->valuestring, f->choices);
}

/* ---- one field, then the query ---------------------------------------------- */

static int check_field(gr_query *q, const gr_field *f, const cJSON *node)
{
    switch (f->type) {
    case GR_FIELD_INTEGER:
        return check_integer(q, node, f->name, f);
    case GR_FIELD_INTEGER_ARRAY:
    case GR_FIELD_SIGNED_ARRAY:
    case GR_FIELD_INTEGER_PAIRS:
    case GR_FIELD_SIGNED_PAIRS:
        return check_array(q, f, node);
    case GR_FIELD_STRING:
    case GR_FIELD_BOARD:
        return check_string(q, f, node);
    case GR_FIELD_MOVES:
        return cJSON_IsObject(node) ? check_rule_object(q, f, node) : check_array(q, f, node);
    case GR_FIELD_BOOLEAN:
        return cJSON_IsBool(node) ? 0 : fail_type(q, f->name, f);
    case GR_NFIELD_TYPES:
        break;
    }
    return fail_type(q, f->name, f);
}

static int check_fields(gr_query *q, const gr_field *fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gr_field *f = &fields[i];
        const cJSON *node = gr_q_get(q, f->name);
        if (!node || cJSON_IsNull(node)) {
            if (!f->required)
                continue;
            return gr_fail(q->err, GR_E_MISSING_FIELD, f->name, "the field \"%s\" is required: %s",
                           f->name, f->description);
        }
        if (check_field(q, f, node))
            return -1;
    }
    return 0;
}

int gr_validate(gr_query *q, const gr_game *game, const char *const *extra)
{
    if (check_members(q, game, extra))
        return -1;
    for (size_t i = 0; i < gr_ncommon_fields; i++)
        if (common_applies(&gr_common_fields[i], game) && check_fields(q, &gr_common_fields[i], 1))
            return -1;
    return check_fields(q, game->fields, game->nfields);
}
