/* SPDX-License-Identifier: MIT */
#include "json_ints.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "errors.h"

bool gr_int_form_parse(const char *value, size_t len, gr_int_form *form)
{
    if (len == 6 && memcmp(value, "string", 6) == 0)
        *form = GR_INTS_STRING;
    else if (len == 6 && memcmp(value, "number", 6) == 0)
        *form = GR_INTS_NUMBER;
    else
        return false;
    return true;
}

/* ---- Accept ------------------------------------------------------------ */

static bool is_ows(char c)
{
    return c == ' ' || c == '\t';
}

/* A parameter value ends at ';' or ',' (a token) or at its closing quote. */
static const char *param_value_end(const char *p, const char **value, size_t *len)
{
    if (*p == '"') {
        const char *q = p + 1;
        while (*q && *q != '"')
            q += q[0] == '\\' && q[1] ? 2 : 1;
        *value = p + 1;
        *len = (size_t)(q - p - 1);
        return *q ? q + 1 : q;
    }
    const char *q = p;
    while (*q && *q != ';' && *q != ',' && !is_ows(*q))
        q++;
    *value = p;
    *len = (size_t)(q - p);
    return q;
}

int gr_accept_int_form(const char *accept, gr_int_form *form, char *bad, size_t size)
{
    *form = GR_INTS_NUMBER;
    for (const char *p = accept ? accept : ""; *p;) {
        if (*p != ';') {
            p++;
            continue;
        }
        p++;
        while (is_ows(*p))
            p++;
        const char *name = p;
        while (*p && *p != '=' && *p != ';' && *p != ',' && !is_ows(*p))
            p++;
        size_t name_len = (size_t)(p - name);
        while (is_ows(*p))
            p++;
        if (*p != '=')
            continue;
        p++;
        while (is_ows(*p))
            p++;
        const char *value;
        size_t len;
        p = param_value_end(p, &value, &len);
        if (name_len != 8 || strncasecmp(name, "integers", 8) != 0)
            continue;
        gr_int_form f;
        if (!gr_int_form_parse(value, len, &f)) {
            char raw[64];
            snprintf(raw, sizeof raw, "%.*s", (int)(len < sizeof raw - 1 ? len : sizeof raw - 1), value);
            gr_printable(raw, bad, (unsigned)size);
            return -1;
        }
        if (f == GR_INTS_STRING)
            *form = GR_INTS_STRING;
    }
    return 0;
}

/* ---- the rewrite ----------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_number_char(char c)
{
    return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

static bool starts_number(char c)
{
    return c == '-' || is_digit(c);
}

/* The index just past the string that opens at json[i]. */
static size_t string_end(const char *json, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (json[i] == '\\')
            i++;
        else if (json[i] == '"')
            return i + 1;
    }
    return len;
}

/* The index just past the number that starts at json[i]; *integer tells
 * whether it is -?[0-9]+ (no fraction, no exponent). */
static size_t number_end(const char *json, size_t len, size_t i, bool *integer)
{
    size_t end = i + (json[i] == '-');
    while (end < len && is_digit(json[end]))
        end++;
    *integer = end == len || (json[end] != '.' && json[end] != 'e' && json[end] != 'E');
    while (!*integer && end < len && is_number_char(json[end]))
        end++;
    return end;
}

/* One pass for both the length and the text: with out NULL it only counts. */
static size_t rewrite(const char *json, size_t len, char *out)
{
    size_t n = 0;
#define EMIT(p, k)                         \
    do {                                   \
        if (out)                           \
            memcpy(out + n, (p), (k));     \
        n += (k);                          \
    } while (0)
    for (size_t i = 0; i < len;) {
        size_t end;
        bool integer = false;
        if (json[i] == '"') {
            end = string_end(json, len, i);
        } else if (starts_number(json[i])) {
            end = number_end(json, len, i, &integer);
        } else {
            end = i + 1;
            while (end < len && json[end] != '"' && !starts_number(json[end]))
                end++;
        }
        if (integer)
            EMIT("\"", 1);
        EMIT(json + i, end - i);
        if (integer)
            EMIT("\"", 1);
        i = end;
    }
#undef EMIT
    return n;
}

size_t gr_json_ints_quoted_len(const char *json, size_t len)
{
    return rewrite(json, len, NULL);
}

size_t gr_json_ints_quote(const char *json, size_t len, char *out)
{
    return rewrite(json, len, out);
}
