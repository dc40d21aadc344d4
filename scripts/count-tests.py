#!/usr/bin/env python3
"""Counts individual test cases from meson's testlog.json: TAP "ok"/"not ok"
lines of each test, or the test itself when it printed no TAP. Prints the
closing line "N passed, N failed"; exits 1 when any failed."""
import json
import re
import sys

passed = failed = skipped = 0
with open(sys.argv[1], encoding="utf-8") as log:
    for line in log:
        t = json.loads(line)
        out = t.get("stdout") or ""
        oks = re.findall(r"^(not ok|ok)\b(.*)$", out, re.M)
        if t.get("result") in ("SKIP",):
            skipped += 1
            continue
        if not oks:
            if t.get("result") in ("OK", "EXPECTEDFAIL"):
                passed += 1
            else:
                failed += 1
            continue
        for verdict, rest in oks:
            if "# SKIP" in rest.upper():
                skipped += 1
            elif verdict == "ok":
                passed += 1
            else:
                failed += 1
        if t.get("result") not in ("OK", "EXPECTEDFAIL") and not any(v == "not ok" for v, _ in oks):
            failed += 1  # crashed or timed out after its last TAP line
suffix = f", {skipped} skipped" if skipped else ""
print(f"{passed} passed, {failed} failed{suffix}")
sys.exit(1 if failed else 0)
