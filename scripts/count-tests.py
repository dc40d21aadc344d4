#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counts individual test cases from meson's testlog.json: TAP "ok"/"not ok"
lines of each test, or the test itself when it printed no TAP. A file named
*.tap is counted as one TAP stream (the stages that run outside meson: the
container build, the manifests, the browser tests); a plan line "1..N" with
fewer results than N counts the missing ones as failed. A TODO test (TAP's
known gap) counts as skipped, passing or not.

    count-tests.py [LABEL=]testlog.json|stage.tap ...

With one log and no label, prints the closing line "N passed, N failed".
Otherwise prints "LABEL: N passed, N failed" per log (a missing log, from a
build that failed, counts as one failure) and a closing line
"total: N passed, N failed". Exits 1 when any failed."""
import json
import os
import re
import sys


def tap_results(text):
    """[(verdict, rest)] of the TAP lines in text, and their (passed, failed, skipped)."""
    oks = re.findall(r"^(not ok|ok)\b(.*)$", text, re.M)
    # A "# TODO" test is a known gap (TAP): reported, not failed; counted
    # with the skipped ones whatever its verdict.
    skipped = sum("# SKIP" in rest.upper() or "# TODO" in rest.upper() for _, rest in oks)
    passed = sum(v == "ok" and "# SKIP" not in rest.upper() and "# TODO" not in rest.upper() for v, rest in oks)
    return oks, (passed, len(oks) - passed - skipped, skipped)


def count(path):
    """(passed, failed, skipped) of one testlog.json."""
    passed = failed = skipped = 0
    with open(path, encoding="utf-8") as log:
        for line in log:
            t = json.loads(line)
            oks, (p, f, s) = tap_results(t.get("stdout") or "")
            if t.get("result") in ("SKIP",):
                skipped += 1
                continue
            if not oks:
                if t.get("result") in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                else:
                    failed += 1
                continue
            passed, failed, skipped = passed + p, failed + f, skipped + s
            if t.get("result") not in ("OK", "EXPECTEDFAIL") and not any(v == "not ok" for v, _ in oks):
                failed += 1  # crashed or timed out after its last TAP line
    return passed, failed, skipped


def count_tap(path):
    """(passed, failed, skipped) of one TAP file."""
    with open(path, encoding="utf-8") as tap:
        text = tap.read()
    _, (passed, failed, skipped) = tap_results(text)
    plan = re.search(r"^1\.\.(\d+)", text, re.M)
    missing = int(plan.group(1)) - (passed + failed + skipped) if plan else 1  # no plan: it stopped early
    return passed, failed + max(missing, 0), skipped


def line(passed, failed, skipped):
    return f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")


def main(args):
    if not args:
        sys.exit("usage: count-tests.py [LABEL=]testlog.json ...")
    runs = [a.split("=", 1) if "=" in a and not os.path.exists(a) else [None, a] for a in args]
    total = [0, 0, 0]
    width = max(len(label or path) for label, path in runs)
    for label, path in runs:
        if os.path.exists(path):
            c = count_tap(path) if path.endswith(".tap") else count(path)
            text = line(*c)
        else:
            c = (0, 1, 0)
            text = "no test log (the build or its setup failed): " + line(*c)
        total = [a + b for a, b in zip(total, c)]
        if len(runs) > 1 or label:
            print(f"{(label or path) + ':':<{width + 1}} {text}")
    print(("total: " if len(runs) > 1 or runs[0][0] else "") + line(*total))
    sys.exit(1 if total[1] else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
