/* SPDX-License-Identifier: MIT */
#include "catalog.h"
#include "registry.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "contract.h"
#include "json.h"

static cJSON *section_json(const gr_table_info *info)
{
    cJSON *s = cJSON_CreateObject();
    char sum[24];
    snprintf(sum, sizeof sum, "%016" PRIx64, info->checksum);
    cJSON_AddStringToObject(s, "name", info->name);
    cJSON_AddStringToObject(s, "kind", info->kind);
    if (info->kind[0] == 'f') {
        gr_json_add_u64(s, "members", info->count);
        gr_json_add_u64(s, "values", info->param);
    } else if (info->kind[0] == 'b') {
        gr_json_add_u64(s, "bits", info->count);
        gr_json_add_u64(s, "set", info->param);
    } else if (info->kind[0] == 'm') {
        gr_json_add_u64(s, "order", info->count);
        gr_json_add_u64(s, "p_portion_size", info->max_value);
        gr_json_add_u64(s, "heap_bound", info->param);
    } else if (info->kind[0] == 'g') {
        gr_json_add_u64(s, "rows", info->param);
        gr_json_add_u64(s, "cols", info->count / info->param);
    } else {
        gr_json_add_u64(s, "bound", info->count);
    }
    if (info->kind[0] == 's' || info->kind[0] == 'm') {
        cJSON_AddBoolToObject(s, "periodic", info->periodic);
        if (info->periodic) {
            gr_json_add_u64(s, "preperiod", info->preperiod);
            gr_json_add_u64(s, "period", info->period);
        } else {
            cJSON_AddNullToObject(s, "preperiod");
            cJSON_AddNullToObject(s, "period");
        }
    }
    if (info->kind[0] == 's' || info->kind[0] == 'g')
        gr_json_add_u64(s, "max_value", info->max_value);
    cJSON_AddStringToObject(s, "checksum", sum);
    gr_json_add_u64(s, "bytes", info->bytes);
    return s;
}

char *gr_api_tables_json(const gr_tables *t)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    /* The file by base name and checksum: where it lives on the host is
     * the operator's business, not the client's. */
    if (t) {
        char sum[24];
        snprintf(sum, sizeof sum, "%016" PRIx64, gr_tables_checksum(t));
        cJSON_AddStringToObject(root, "file", gr_tables_file_name(t));
        cJSON_AddStringToObject(root, "checksum", sum);
        gr_json_add_u64(root, "bytes", gr_tables_bytes(t));
    } else {
        cJSON_AddNullToObject(root, "file");
        cJSON_AddNullToObject(root, "checksum");
        gr_json_add_u64(root, "bytes", 0);
    }
    cJSON *list = cJSON_AddArrayToObject(root, "sections");
    for (size_t i = 0; t && list && i < gr_tables_count(t); i++) {
        gr_table_info info;
        gr_tables_info(t, i, &info);
        cJSON_AddItemToArray(list, section_json(&info));
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* ---- the game catalogue ------------------------------------------------- */

/* Building state: `oom` is set by the first allocation that fails, after
 * which the result is discarded. */
typedef struct builder {
    const gr_limits *limits;
    bool oom;
} builder;

static cJSON *put(builder *b, cJSON *obj, const char *key, cJSON *item)
{
    if (!item || !cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        b->oom = true;
        return NULL;
    }
    return item;
}

static void push(builder *b, cJSON *arr, cJSON *item)
{
    if (!item || !cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        b->oom = true;
    }
}

static void put_str(builder *b, cJSON *obj, const char *key, const char *s)
{
    put(b, obj, key, cJSON_CreateString(s));
}

/* Exact integers: gr_json's raw number text, signed where needed. */
static void put_int(builder *b, cJSON *obj, const char *key, int64_t v)
{
    if (!(v >= 0 ? gr_json_add_u64(obj, key, (uint64_t)v) : gr_json_add_i128(obj, key, v)))
        b->oom = true;
}

/* Adds `min_key`, `max_key` and, when a limit applies, `max_key`_limit. */
static void put_range(builder *b, cJSON *obj, const char *min_key, const char *max_key,
                      const gr_range *r)
{
    int64_t max = r->max;
    if (r->limit != GR_LIMIT_NONE) {
        uint64_t live = gr_limit_value(b->limits, r->limit);
        if (live < (uint64_t)max)
            max = (int64_t)live;
    }
    put_int(b, obj, min_key, r->min);
    put_int(b, obj, max_key, max);
    if (r->limit != GR_LIMIT_NONE) {
        char key[32];
        snprintf(key, sizeof key, "%s_limit", max_key);
        put_str(b, obj, key, gr_limit_name(r->limit));
    }
}

static cJSON *string_array(builder *b, const char *const *s)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && s[i]; i++)
        push(b, arr, cJSON_CreateString(s[i]));
    if (!arr)
        b->oom = true;
    return arr;
}

static void put_counts(builder *b, cJSON *o, const gr_field *f)
{
    const char *count = gr_field_types[f->type].count;
    if (!count || (f->type == GR_FIELD_STRING && f->choices))
        return;
    char min_key[16], max_key[16];
    snprintf(min_key, sizeof min_key, "min_%s", count);
    snprintf(max_key, sizeof max_key, "max_%s", count);
    put_range(b, o, min_key, max_key, &f->count);
}

static cJSON *field_json(builder *b, const gr_field *f)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->oom = true;
        return NULL;
    }
    put_str(b, o, "name", f->name);
    put_str(b, o, "type", gr_field_types[f->type].name);
    put(b, o, "required", cJSON_CreateBool(f->required));
    if (f->dflt)
        put(b, o, "default", cJSON_CreateRaw(f->dflt));
    if (f->choices)
        put(b, o, "enum", string_array(b, f->choices));
    if (f->pattern)
        put_str(b, o, "pattern", f->pattern);
    put_counts(b, o, f);
    if (gr_field_types[f->type].integers)
        put_range(b, o, "minimum", "maximum", &f->value);
    put_str(b, o, "description", f->description);
    return o;
}

static cJSON *convention_json(builder *b, const char *name, const char *scope, const char *note)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->oom = true;
        return NULL;
    }
    put_str(b, o, "name", name);
    put_str(b, o, "scope", scope);
    if (note)
        put_str(b, o, "note", note);
    return o;
}

static cJSON *conventions_json(builder *b, const gr_game *g)
{
    cJSON *arr = cJSON_CreateArray();
    if (!arr) {
        b->oom = true;
        return NULL;
    }
    push(b, arr, convention_json(b, "normal", "any", NULL));
    if (!g->misere)
        return arr;
    if (g->misere_any)
        push(b, arr, convention_json(b, "misere", "any", g->misere_note ? g->misere_note :
                                     "answered for any position, under the disjunctive compound "
                                     "only"));
    else
        push(b, arr, convention_json(b, "misere", "one_component", "answered for one heap or "
                                     "token only (a misere sum of two or more is a 422 "
                                     "unsupported_convention), under the disjunctive compound "
                                     "only"));
    return arr;
}

static cJSON *compounds_json(builder *b, unsigned bits)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned c = GR_DISJUNCTIVE; arr && c <= GR_CONJUNCTIVE; c++)
        if (bits & GR_COMPOUND_BIT(c))
            push(b, arr, cJSON_CreateString(gr_compound_name((gr_compound)c)));
    if (!arr)
        b->oom = true;
    return arr;
}

static cJSON *constraint_json(builder *b, const gr_constraint *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->oom = true;
        return NULL;
    }
    put_str(b, o, "rule", c->rule);
    put_range(b, o, "minimum", "maximum", &c->bound);
    return o;
}

static void put_list(builder *b, cJSON *o, const char *key, size_t n, const void *items, size_t size,
                     cJSON *(*one)(builder *, const void *))
{
    cJSON *arr = put(b, o, key, cJSON_CreateArray());
    for (size_t i = 0; arr && i < n; i++)
        push(b, arr, one(b, (const char *)items + i * size));
}

static cJSON *one_field(builder *b, const void *f) { return field_json(b, f); }
static cJSON *one_constraint(builder *b, const void *c) { return constraint_json(b, c); }

static cJSON *game_json(builder *b, const gr_game *g)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->oom = true;
        return NULL;
    }
    put_str(b, o, "name", g->name);
    put_str(b, o, "summary", g->summary);
    put_str(b, o, "kind", g->kind == GR_KIND_SCORE ? "score" : "impartial");
    put(b, o, "conventions", conventions_json(b, g));
    put(b, o, "compounds", compounds_json(b, g->compounds));
    if (g->compound_note)
        put_str(b, o, "compounds_note", g->compound_note);
    put_list(b, o, "fields", g->nfields, g->fields, sizeof *g->fields, one_field);
    put_list(b, o, "constraints", g->nconstraints, g->constraints, sizeof *g->constraints,
             one_constraint);
    put(b, o, "example", cJSON_CreateRaw(g->example));
    return o;
}

/* ---- members every query may carry ---------------------------------------- */

static cJSON *game_field_json(builder *b)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        b->oom = true;
        return NULL;
    }
    put_str(b, o, "name", "game");
    put_str(b, o, "type", "string");
    put(b, o, "required", cJSON_CreateBool(true));
    cJSON *names = put(b, o, "enum", cJSON_CreateArray());
    for (size_t i = 0; names && i < gr_ngames; i++)
        push(b, names, cJSON_CreateString(gr_games[i]->name));
    put_str(b, o, "description", "The game, one of the names in \"games\".");
    return o;
}

static void put_common(builder *b, cJSON *root)
{
    cJSON *arr = put(b, root, "common_fields", cJSON_CreateArray());
    if (!arr)
        return;
    push(b, arr, game_field_json(b));
    for (size_t i = 0; i < gr_ncommon_fields; i++)
        push(b, arr, field_json(b, &gr_common_fields[i]));
}

static void put_types(builder *b, cJSON *root)
{
    cJSON *o = put(b, root, "types", cJSON_CreateObject());
    for (size_t t = 1; o && t < GR_NFIELD_TYPES; t++)
        put_str(b, o, gr_field_types[t].name, gr_field_types[t].doc);
}

static void put_limits(builder *b, cJSON *root)
{
    cJSON *o = put(b, root, "limits", cJSON_CreateObject());
    for (size_t id = 1; o && id < GR_NLIMITS; id++) {
        uint64_t v = gr_limit_value(b->limits, (gr_limit_id)id);
        if (!gr_json_add_u64(o, gr_limit_name((gr_limit_id)id), v))
            b->oom = true;
    }
}

char *gr_api_games_json(const gr_limits *limits)
{
    builder b = { .limits = limits, .oom = false };
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON *games = put(&b, root, "games", cJSON_CreateArray());
    for (size_t i = 0; games && i < gr_ngames; i++)
        push(&b, games, game_json(&b, gr_games[i]));
    put_common(&b, root);
    put_types(&b, root);
    put_limits(&b, root);
    char *text = b.oom ? NULL : cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}
