/* SPDX-License-Identifier: MIT */
/* grundy-tables-default: builds the default table file during `meson
 * compile`. It links only the engine and the table code, so changes to the
 * API, server or CLI do not force the (minutes-long) table build again;
 * `grundy tables build` runs the same gr_tables_build for users.
 * Usage: grundy-tables-default FILE GRUNDYS_VALUES OCTAL_VALUES [RULE_VALUES]
 * (RULE_VALUES 0 or absent: the rule-defined sets' own bounds). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tables/build.h"

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: grundy-tables-default FILE GRUNDYS_VALUES OCTAL_VALUES [RULE_VALUES]\n");
        return 2;
    }
    gr_build_options o;
    gr_build_options_default(&o);
    o.grundys_values = strtoull(argv[2], NULL, 10);
    o.octal_values = strtoull(argv[3], NULL, 10);
    uint64_t rule_values = argc == 5 ? strtoull(argv[4], NULL, 10) : 0;
    if (rule_values)
        gr_build_options_cap_rules(&o, rule_values);
    /* progress on a terminal (meson runs this in the console pool, so a
     * first `ninja` or scripts/run.sh shows it); quiet in CI and logs */
    o.progress_live = isatty(STDERR_FILENO);
    o.progress = o.progress_live ? stderr : NULL;
    char why[512];
    if (gr_tables_build(argv[1], &o, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "grundy-tables-default: building %s: %s\n", argv[1], why);
    return 1;
}
