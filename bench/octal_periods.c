/* SPDX-License-Identifier: MIT */
/* The long octal periods of the default table file (Flammenkamp's table,
 * Czajka's solver): CPU time to certify each by the solver's rare/common
 * method, and the recomputed preperiod and period against the published
 * ones. Usage: octal_periods [CODE ...] (default the four). Exit 1 on a
 * mismatch. Built by bench/octal_periods.sh. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "grundy/octal.h"

static const struct {
    const char *code;
    uint64_t pre, period;
} published[] = {
    { "0.127", 46578, 4 }, { "0.16", 105351, 149459 }, { "0.56", 326640, 144 },
    { "0.376", 2268248, 4 },
};
#define NPUB (sizeof published / sizeof published[0])

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int certify(size_t i)
{
    gr_octal_code code;
    if (gr_octal_parse(published[i].code, &code) != GR_OK)
        return 1;
    gr_budget b = gr_budget_make(UINT64_MAX);
    gr_seq s;
    double t0 = cpu_seconds();
    gr_status st = gr_octal_solve(&code, 0, UINT64_C(1) << 23, &b, &s);
    double t = cpu_seconds() - t0;
    bool ok = st == GR_OK && s.periodic && s.preperiod == published[i].pre &&
              s.period == published[i].period;
    printf("%-6s %9llu values  preperiod %8llu  period %6llu  max value %3u  %7.2f s CPU  %s\n",
           published[i].code, (unsigned long long)s.count, (unsigned long long)s.preperiod,
           (unsigned long long)s.period, s.max_value, t, ok ? "= published" : "MISMATCH");
    gr_seq_free(&s);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (size_t i = 0; i < NPUB; i++) {
        bool wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted = wanted || strcmp(argv[a], published[i].code) == 0;
        if (wanted)
            bad |= certify(i);
    }
    return bad;
}
