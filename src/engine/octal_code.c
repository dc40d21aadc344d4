/* SPDX-License-Identifier: MIT */
/* Octal codes: parsing, the canonical text, and the validity the solver
 * and the move finder check (octal.h). */
#include "grundy/octal.h"

#include <string.h>

#include "octal_solver.h"

/* d0 may only split without removing (bit 4): see octal.h. */
static bool d0_defined(unsigned d0)
{
    return d0 == 0 || d0 == 4;
}

gr_status gr_octal_parse(const char *text, gr_octal_code *code)
{
    if (text == NULL || code == NULL)
        return GR_EINVAL;
    gr_octal_code c;
    memset(&c, 0, sizeof c);
    if (text[0] < '0' || text[0] > '7' || !d0_defined((unsigned)(text[0] - '0')) || text[1] != '.')
        return GR_EINVAL;
    c.digit[0] = (uint8_t)(text[0] - '0');
    unsigned k = 0;
    for (const char *p = text + 2; *p != '\0'; p++) {
        if (*p < '0' || *p > '7' || k == GR_OCTAL_MAX_DIGITS)
            return GR_EINVAL;
        c.digit[++k] = (uint8_t)(*p - '0');
        if (c.digit[k] != 0)
            c.t = k;
    }
    if (k == 0 || (c.t == 0 && c.digit[0] == 0)) /* no digits, or all zero */
        return GR_EINVAL;
    *code = c;
    return GR_OK;
}

void gr_octal_format(const gr_octal_code *code, char buf[16])
{
    size_t i = 0;
    buf[i++] = (char)('0' + (code->digit[0] & 7));
    buf[i++] = '.';
    for (unsigned k = 1; k <= code->t && k <= GR_OCTAL_MAX_DIGITS; k++)
        buf[i++] = (char)('0' + (code->digit[k] & 7));
    if (code->t == 0)
        buf[i++] = '0';
    buf[i] = '\0';
}

bool octal_code_valid(const gr_octal_code *code)
{
    if (code == NULL || code->t > GR_OCTAL_MAX_DIGITS || !d0_defined(code->digit[0]))
        return false;
    if (code->t == 0 ? code->digit[0] == 0 : code->digit[code->t] == 0)
        return false;
    for (unsigned k = 1; k <= GR_OCTAL_MAX_DIGITS; k++)
        if (code->digit[k] > 7 || (k > code->t && code->digit[k] != 0))
            return false;
    return true;
}
