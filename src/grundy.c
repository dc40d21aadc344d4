/* SPDX-License-Identifier: MIT */
/* grundy: the command-line tool; all work is in src/cli. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return gr_cli_main(argc, argv);
}
