/* SPDX-License-Identifier: MIT */
#include "cli/render.h"

#include <stdbool.h>
#include <string.h>

#include "json.h"
#include "scratch.h"

#define LABEL_WIDTH 15 /* "Winning move:  " */
#define LINE_WIDTH 79
#define PERIOD_GROUPS 4  /* distinct periods listed; more are summed up */
#define PERIOD_NAMES 6   /* components named per period before "..." */

/* Writes text after a label, wrapped at LINE_WIDTH with continuation lines
 * indented to the label column. A word longer than a line stays whole. */
static void put_wrapped(FILE *out, const char *label, const char *text)
{
    fprintf(out, "%-*s", LABEL_WIDTH, label);
    size_t col = LABEL_WIDTH;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t word = strcspn(p, " ");
        if (word == 0)
            break;
        if (col > LABEL_WIDTH && col + 1 + word > LINE_WIDTH) {
            fprintf(out, "\n%*s", LABEL_WIDTH, "");
            col = LABEL_WIDTH;
        } else if (col > LABEL_WIDTH) {
            putc(' ', out);
            col++;
        }
        fwrite(p, 1, word, out);
        col += word;
        p += word;
    }
    putc('\n', out);
}

/* The node as exact compact JSON, or a string's own characters. */
static void put_value(gr_buf *b, const gr_json_doc *doc, const cJSON *v)
{
    if (cJSON_IsString(v))
        gr_buf_str(b, v->valuestring);
    else
        gr_json_print_exact(b, doc, v);
}

/* A labelled line of one member's value (nothing when it is absent); null
 * reads as if_null. */
static void put_member(FILE *out, const gr_json_doc *doc, const cJSON *obj, const char *key,
                       const char *label, const char *suffix, const char *if_null)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        return;
    gr_buf b = { 0 };
    if (cJSON_IsNull(v))
        gr_buf_str(&b, if_null);
    else {
        put_value(&b, doc, v);
        gr_buf_str(&b, suffix);
    }
    if (!b.oom && b.data)
        put_wrapped(out, label, b.data);
    gr_scratch_free(b.data);
}

static const char *string_member(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void put_verdict(FILE *out, const cJSON *root)
{
    const char *winner = string_member(root, "winner"), *game = string_member(root, "game");
    const char *conv = string_member(root, "convention"), *compound = string_member(root, "compound");
    const char *verdict = !winner                      ? "The outcome is not given"
                          : strcmp(winner, "first") == 0  ? "The player to move wins"
                          : strcmp(winner, "second") == 0 ? "The player to move loses"
                                                          : "A draw with best play";
    fprintf(out, "%s (%s, %s play%s%s).\n", verdict, game ? game : "?", conv ? conv : "normal",
            compound ? ", " : "", compound ? compound : "");
}

/* "piles [1,4,5]; stones [3]": the position after the move. */
static void put_next(FILE *out, const gr_json_doc *doc, const cJSON *root)
{
    const cJSON *next = cJSON_GetObjectItemCaseSensitive(root, "next");
    if (!cJSON_IsObject(next))
        return;
    gr_buf b = { 0 };
    for (const cJSON *m = next->child; m; m = m->next) {
        if (m != next->child)
            gr_buf_str(&b, "; ");
        gr_buf_str(&b, m->string);
        gr_buf_str(&b, " ");
        put_value(&b, doc, m);
    }
    if (!b.oom && b.data)
        put_wrapped(out, "Then:", b.data);
    gr_scratch_free(b.data);
}

/* The component's index member (pile, token, stair) as "pile 3", or "". */
static void component_name(gr_buf *b, const gr_json_doc *doc, const cJSON *c)
{
    static const char *const keys[] = { "pile", "token", "stair" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, keys[i]);
        if (v) {
            gr_buf_str(b, keys[i]);
            gr_buf_str(b, " ");
            gr_json_print_exact(b, doc, v);
            return;
        }
    }
}

typedef struct period_group {
    gr_buf text;  /* "8 from heap 47" */
    gr_buf names; /* "pile 0, pile 1" (the first PERIOD_NAMES) */
    size_t count;
} period_group;

static void group_add(period_group *g, const gr_json_doc *doc, const cJSON *c)
{
    if (g->count < PERIOD_NAMES) {
        if (g->count)
            gr_buf_str(&g->names, ", ");
        component_name(&g->names, doc, c);
    } else if (g->count == PERIOD_NAMES) {
        gr_buf_str(&g->names, ", ...");
    }
    g->count++;
}

/* "Period: P from heap N (pile 0, ...)" for each distinct period of the
 * components (the certified periods of subtraction and octal games). */
static void put_periods(FILE *out, const gr_json_doc *doc, const cJSON *root)
{
    const cJSON *comps = cJSON_GetObjectItemCaseSensitive(root, "components");
    period_group g[PERIOD_GROUPS];
    size_t ng = 0, total = 0, others = 0;
    memset(g, 0, sizeof g);
    for (const cJSON *c = cJSON_IsArray(comps) ? comps->child : NULL; c; c = c->next, total++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, "period");
        const cJSON *len = cJSON_GetObjectItemCaseSensitive(p, "period");
        const cJSON *pre = cJSON_GetObjectItemCaseSensitive(p, "preperiod");
        if (!len || !pre)
            continue;
        gr_buf t = { 0 };
        gr_json_print_exact(&t, doc, len);
        gr_buf_str(&t, " from heap ");
        gr_json_print_exact(&t, doc, pre);
        size_t i = 0;
        while (i < ng && (t.oom || g[i].text.oom || strcmp(g[i].text.data, t.data) != 0))
            i++;
        if (i == ng && ng < PERIOD_GROUPS)
            g[ng++].text = t;
        else
            gr_scratch_free(t.data);
        if (i < ng)
            group_add(&g[i], doc, c);
        else
            others++;
    }
    for (size_t i = 0; i < ng; i++) {
        bool every = g[i].count == total && total > 1;
        bool named = g[i].names.data && g[i].names.len && !g[i].names.oom;
        if (every)
            gr_buf_str(&g[i].text, " (every component)");
        else if (named) {
            gr_buf_str(&g[i].text, " (");
            gr_buf_str(&g[i].text, g[i].names.data);
            gr_buf_str(&g[i].text, ")");
        }
        if (!g[i].text.oom && g[i].text.data)
            put_wrapped(out, "Period:", g[i].text.data);
        gr_scratch_free(g[i].text.data);
        gr_scratch_free(g[i].names.data);
    }
    if (others)
        fprintf(out, "%-*s%zu more components with other periods\n", LABEL_WIDTH, "Period:", others);
}

static const cJSON *member(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* An exact integer member (the answer's integers are not doubles); false
 * when it is not one. */
static bool exact_u64(const gr_json_doc *doc, const cJSON *node, uint64_t *v)
{
    gr_api_error e;
    return node && gr_json_u64(doc, node, "", v, &e) == 0;
}

/* "Winning moves: N in all" and the text of each one besides the answer's
 * own move on its own line. */
static void put_winning_moves(FILE *out, const gr_json_doc *doc, const cJSON *root)
{
    const cJSON *w = member(root, "winning_moves"), *total = member(w, "total");
    const cJSON *others = member(w, "others");
    uint64_t count = 0;
    bool counted = exact_u64(doc, total, &count);
    if (!cJSON_IsObject(w) || !cJSON_IsArray(others) || (counted && count <= 1 && !others->child))
        return;
    gr_buf b = { 0 };
    if (!counted)
        gr_buf_str(&b, "not counted");
    else
        gr_json_print_exact(&b, doc, total);
    gr_buf_str(&b, " in all");
    if (others->child)
        gr_buf_str(&b, counted && count <= (uint64_t)cJSON_GetArraySize(others) + 1 ? "; besides the move above:"
                                                                                : "; besides the move above, the first of them:");
    if (!b.oom && b.data)
        put_wrapped(out, "Winning moves:", b.data);
    gr_scratch_free(b.data);
    for (const cJSON *m = others->child; m; m = m->next) {
        const char *text = string_member(m, "text");
        if (text)
            put_wrapped(out, "", text);
    }
    const char *note = string_member(w, "note");
    if (note)
        put_wrapped(out, "", note);
}

#define TABLE_WIDTH 32 /* binary digits a nim-sum table shows; wider sums are in words only */
#define TABLE_ROWS 16  /* components a nim-sum table lists */

static void table_row(FILE *out, const char *label, int name_width, const char *name, const char *bits,
                      const char *value)
{
    fprintf(out, "%-*s%-*s  %s%s%s\n", LABEL_WIDTH, label, name_width, name, bits, value[0] ? "  " : "",
            value);
}

/* v's binary digits as a number (at most 64 of them). */
static uint64_t binary_value(const char *digits)
{
    uint64_t v = 0;
    for (; *digits; digits++)
        v = v << 1 | (uint64_t)(*digits == '1');
    return v;
}

/* The nim-sum as columns: each value in binary with its decimal, the count
 * of ones in each column (when every count is a digit), and the sum. */
static void put_nim_sum_table(FILE *out, const gr_json_doc *doc, const cJSON *step)
{
    const cJSON *binary = member(step, "binary");
    const char *name = string_member(step, "name"), *sum = string_member(step, "nim_sum_binary");
    size_t bits = sum ? strlen(sum) : 0;
    uint64_t n = 0;
    if (!cJSON_IsArray(binary) || !name || !sum || bits > TABLE_WIDTH || cJSON_GetArraySize(binary) == 0)
        return;
    if (!exact_u64(doc, member(step, "components"), &n))
        n = (uint64_t)cJSON_GetArraySize(binary);
    char names[TABLE_ROWS][48], ones[TABLE_WIDTH + 1] = { 0 }, value[24];
    unsigned count[TABLE_WIDTH] = { 0 };
    int rows = 0, name_width = (int)strlen("nim-sum");
    for (const cJSON *b = binary->child; b && rows < TABLE_ROWS; b = b->next, rows++) {
        snprintf(names[rows], sizeof names[rows], "%s %d", name, rows);
        if ((int)strlen(names[rows]) > name_width)
            name_width = (int)strlen(names[rows]);
    }
    const char *label = "Nim-sum:";
    const cJSON *b = binary->child;
    for (int i = 0; i < rows; i++, b = b->next, label = "") {
        const char *digits = cJSON_IsString(b) && strlen(b->valuestring) == bits ? b->valuestring : NULL;
        for (size_t k = 0; digits && k < bits; k++)
            count[k] += digits[k] == '1';
        snprintf(value, sizeof value, "%llu", digits ? (unsigned long long)binary_value(digits) : 0ULL);
        table_row(out, label, name_width, names[i], digits ? digits : "?", digits ? value : "");
    }
    if (n > (uint64_t)rows)
        fprintf(out, "%*s... and %llu more\n", LABEL_WIDTH, "", (unsigned long long)(n - (uint64_t)rows));
    bool digits = n == (uint64_t)rows;
    for (size_t k = 0; k < bits; k++) {
        digits &= count[k] <= 9;
        ones[k] = (char)('0' + (int)(count[k] % 10));
    }
    if (digits)
        table_row(out, "", name_width, "ones", ones, "");
    snprintf(value, sizeof value, "%llu", (unsigned long long)binary_value(sum));
    table_row(out, "", name_width, "nim-sum", sum, value);
}

/* "Why:": the nim-sum table, when a step has one, then the explanation. */
static void put_why(FILE *out, const gr_json_doc *doc, const cJSON *root)
{
    const cJSON *steps = member(member(root, "why"), "steps");
    for (const cJSON *s = cJSON_IsArray(steps) ? steps->child : NULL; s; s = s->next) {
        const char *kind = string_member(s, "step");
        if (kind && strcmp(kind, "nim_sum") == 0)
            put_nim_sum_table(out, doc, s);
    }
    const char *explanation = string_member(root, "explanation");
    if (explanation && explanation[0])
        put_wrapped(out, "Why:", explanation);
}

/* Why an answer's grundy is null: it is not defined for misère play or a
 * sum other than the disjunctive one, infinite for a loopy token, else the
 * position is beyond what the service computes. */
static const char *grundy_null_text(const cJSON *root)
{
    const char *convention = string_member(root, "convention");
    const char *compound = string_member(root, "compound");
    if (convention && strcmp(convention, "misere") == 0)
        return "none: misere play is not decided by Grundy values (see Why)";
    if (compound && strcmp(compound, "disjunctive") != 0)
        return "none: this sum is not decided by a nim-sum (see Why)";
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "components"))
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "infinite")))
            return "infinite: a token can be moved forever (see Why)";
    return "not computed at this size (see Why)";
}

static void put_answer(FILE *out, const gr_json_doc *doc, const cJSON *root)
{
    put_verdict(out, root);
    if (cJSON_GetObjectItemCaseSensitive(root, "value"))
        put_member(out, doc, root, "value", "Value:", " (for the player to move)",
                   "not computed at this size (see Why)");
    else
        put_member(out, doc, root, "grundy", "Grundy value:", "", grundy_null_text(root));
    const cJSON *move = cJSON_GetObjectItemCaseSensitive(root, "move");
    const char *winner = string_member(root, "winner");
    bool wins = winner && strcmp(winner, "first") == 0;
    const char *text = string_member(move, "text");
    if (text)
        put_wrapped(out, wins ? "Winning move:" : "Best move:", text);
    else if (winner && strcmp(winner, "second") == 0)
        put_wrapped(out, "Winning move:", "none: every move leaves the opponent a win");
    put_next(out, doc, root);
    put_winning_moves(out, doc, root);
    put_periods(out, doc, root);
    const char *note = string_member(root, "note");
    if (note)
        put_wrapped(out, "Note:", note);
    put_why(out, doc, root);
}

static void put_error(FILE *err, const cJSON *e)
{
    const char *code = string_member(e, "code"), *message = string_member(e, "message");
    const char *field = string_member(e, "field");
    fprintf(err, "grundy: %s: %s", code ? code : "error", message ? message : "(no message)");
    if (field)
        fprintf(err, " (field: %s)", field);
    putc('\n', err);
}

static int render(const char *body, size_t len, bool separate, FILE *out, FILE *err)
{
    gr_json_doc doc;
    gr_api_error e;
    if (gr_json_parse(body, len, &doc, &e) != 0) {
        fprintf(err, "grundy: the answer is not JSON: %.*s\n", (int)(len > 200 ? 200 : len), body);
        return -1;
    }
    int rc = -1;
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc.root, "error");
    if (cJSON_IsObject(error)) {
        put_error(err, error);
        rc = 1;
    } else if (cJSON_IsObject(doc.root) && cJSON_GetObjectItemCaseSensitive(doc.root, "winner")) {
        if (separate)
            putc('\n', out);
        put_answer(out, &doc, doc.root);
        rc = 0;
    } else {
        fprintf(err, "grundy: the answer has neither \"winner\" nor \"error\": %.*s\n",
                (int)(len > 200 ? 200 : len), body);
    }
    gr_json_free(&doc);
    return rc;
}

int gr_render_reply(int status, const char *body, size_t len, bool human, bool separate, FILE *out,
                    FILE *err)
{
    if (human)
        return render(body, len, separate, out, err) == 0 && status == 200 ? 0 : 1;
    fwrite(body, 1, len, out);
    putc('\n', out);
    return status == 200 ? 0 : 1;
}
