/* SPDX-License-Identifier: MIT */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int status;
} error_codes[] = {
#define GR_ERROR_ENTRY(id, name, status) [GR_E_##id] = { name, status },
    GR_ERROR_CODES(GR_ERROR_ENTRY)
#undef GR_ERROR_ENTRY
};

const char gr_oom_error_json[] =
    "{\"error\":{\"code\":\"overloaded\",\"message\":\"out of memory; retry later\",\"field\":null}}";
const size_t gr_oom_error_json_len = sizeof gr_oom_error_json - 1;

const char *gr_error_name(gr_error_code code)
{
    return error_codes[code].name;
}

int gr_error_status(gr_error_code code)
{
    return error_codes[code].status;
}

gr_error_code gr_error_find(const char *name)
{
    unsigned i = 0;
    while (name && i < GR_NERROR_CODES && strcmp(error_codes[i].name, name) != 0)
        i++;
    return name ? (gr_error_code)i : GR_NERROR_CODES;
}

int gr_fail(gr_api_error *e, gr_error_code code, const char *field,
            const char *fmt, ...)
{
    va_list ap;
    e->status = error_codes[code].status;
    e->code = error_codes[code].name;
    snprintf(e->field, sizeof e->field, "%s", field ? field : "");
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return -1;
}

int gr_fail_engine(gr_api_error *e, gr_status s, const char *field, const char *what)
{
    switch (s) {
    case GR_ELIMIT:
        return gr_fail(e, GR_E_LIMIT_EXCEEDED, field,
                       "%s needs more work than the per-query compute budget allows; "
                       "ask for a smaller position (the daemon's --budget sets the budget)", what);
    case GR_EBOUND:
        return gr_fail(e, GR_E_BEYOND_BOUND, field,
                       "%s is past the bound up to which values are known", what);
    case GR_ERANGE:
        return gr_fail(e, GR_E_OUT_OF_RANGE, field,
                       "%s produces a value too large to represent", what);
    case GR_ECYCLE:
        return gr_fail(e, GR_E_CYCLE, field, "%s", what);
    case GR_ENOMEM:
        return gr_fail(e, GR_E_OVERLOADED, field,
                       "not enough memory to compute %s; retry later", what);
    case GR_EINVAL:
    case GR_OK:
        break;
    }
    return gr_fail(e, GR_E_INVALID_FIELD, field, "%s is not a valid position", what);
}

void gr_printable(const char *text, char *out, unsigned n)
{
    unsigned j = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && j + 4 < n; p++)
        out[j++] = (*p >= 0x20 && *p < 0x7f) ? (char)*p : '?';
    if (j + 4 >= n && text[j]) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = '\0';
}
