#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a C file defining `const unsigned char NAME[]` (NUL-terminated) and
`const unsigned long NAME_len` with the bytes of INPUT, so that a file the
daemon serves (openapi.yaml) is part of the binary and cannot go missing.
Usage: embed.py INPUT OUTPUT NAME"""

import sys


def main():
    src, dst, name = sys.argv[1:4]
    data = open(src, "rb").read()
    with open(dst, "w") as out:
        out.write("/* Generated from %s by scripts/embed.py; do not edit. */\n" % src.split("/")[-1])
        out.write("const unsigned long %s_len = %dUL;\n" % (name, len(data)))
        out.write("const unsigned char %s[] = {\n" % name)
        for i in range(0, len(data), 16):
            out.write("    " + ", ".join(str(b) for b in data[i:i + 16]) + ",\n")
        out.write("    0\n};\n")


if __name__ == "__main__":
    main()
