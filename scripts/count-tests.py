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
Otherwise prints "LABEL: N passed, N failed" per label, the logs of one
label (tests run beside each other) counted together (a missing log, from a
build that failed, counts as one failure and names its path) and a closing line
"total: N passed, N failed". Before these, each failed case gets a line
"failed: LABEL: TEST: its TAP line" (at most MAX_NAMED of them), so that
the tail of a long run says what failed, followed by the first MAX_DIAG
diagnostic lines ("# ...") its test printed after it, indented. Exits 1
when any failed."""
import json
import os
import re
import sys

MAX_NAMED = 20
MAX_DIAG = 6


def tap_results(text):
    """[(verdict, rest)] of the TAP lines in text, and their (passed, failed, skipped)."""
    oks = re.findall(r"^(not ok|ok)\b(.*)$", text, re.M)
    # A "# TODO" test is a known gap (TAP): reported, not failed; counted
    # with the skipped ones whatever its verdict.
    skipped = sum("# SKIP" in rest.upper() or "# TODO" in rest.upper() for _, rest in oks)
    passed = sum(v == "ok" and "# SKIP" not in rest.upper() and "# TODO" not in rest.upper() for v, rest in oks)
    return oks, (passed, len(oks) - passed - skipped, skipped)


def failures(text):
    """Each failed case's "not ok" line, with the diagnostic lines after it
    (up to a "# took" line, where tests/integration/harness.py ends them)."""
    named = []
    text = text.replace("\r\n", "\n")
    for m in re.finditer(r"^not ok\b(.*)$((?:\n#.*$)*)", text, re.M):
        if "# TODO" in m.group(1).upper() or "# SKIP" in m.group(1).upper():
            continue
        diags = []
        for d in m.group(2).split("\n")[1:]:
            if d.startswith("# took "):
                break
            diags.append(d)
        named.append("not ok" + m.group(1) + "".join("\n    " + d[:200] for d in diags[:MAX_DIAG]) +
                     ("\n    # ... %d more line(s)" % (len(diags) - MAX_DIAG) if len(diags) > MAX_DIAG else ""))
    return named


def count(path):
    """(passed, failed, skipped, [what failed]) of one testlog.json."""
    passed = failed = skipped = 0
    named = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            t = json.loads(line)
            name, result = t.get("name", "?"), t.get("result")
            oks, (p, f, s) = tap_results(t.get("stdout") or "")
            if result in ("SKIP",):
                skipped += 1
                continue
            if not oks:
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                else:
                    failed += 1
                    named.append(f"{name}: {result}, no TAP output")
                continue
            passed, failed, skipped = passed + p, failed + f, skipped + s
            named += [f"{name}: {f}" for f in failures(t.get("stdout") or "")]
            if result not in ("OK", "EXPECTEDFAIL") and not any(v == "not ok" for v, _ in oks):
                failed += 1  # crashed or timed out after its last TAP line
                named.append(f"{name}: {result} after its last TAP line")
    return passed, failed, skipped, named


def count_tap(path):
    """(passed, failed, skipped, [what failed]) of one TAP file."""
    with open(path, encoding="utf-8") as tap:
        text = tap.read()
    oks, (passed, failed, skipped) = tap_results(text)
    named = failures(text)
    plan = re.search(r"^1\.\.(\d+)", text, re.M)
    missing = int(plan.group(1)) - (passed + failed + skipped) if plan else 1  # no plan: it stopped early
    if not plan:
        named.append("no plan line: the run stopped early")
    elif missing > 0:
        named.append(f"{missing} planned test(s) never ran")
    return passed, failed + max(missing, 0), skipped, named


def line(passed, failed, skipped):
    return f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")


def main(args):
    if not args:
        sys.exit("usage: count-tests.py [LABEL=]testlog.json ...")
    runs = [a.split("=", 1) if "=" in a and not os.path.exists(a) else [None, a] for a in args]
    total = [0, 0, 0]
    width = max(len(label or path) for label, path in runs)
    # one line per label: the logs of a label (tests run beside each other)
    # are counted together
    per_label, named = {}, []
    for label, path in runs:
        if os.path.exists(path):
            *c, failed = count_tap(path) if path.endswith(".tap") else count(path)
            missing = False
        else:
            c, failed, missing = (0, 1, 0), ["no test log " + path], True
        named += [f"failed: {label or path}: {f}" for f in failed]
        total = [a + b for a, b in zip(total, c)]
        seen = per_label.setdefault(label or path, [[0, 0, 0], False])
        seen[0] = [a + b for a, b in zip(seen[0], c)]
        seen[1] = seen[1] or missing
    lines = []
    if len(runs) > 1 or runs[0][0]:
        for name, (c, missing) in per_label.items():
            text = ("no test log (the build or its setup failed): " if missing else "") + line(*c)
            lines.append(f"{name + ':':<{width + 1}} {text}")
    for n in named[:MAX_NAMED]:
        print("\n".join(part[:300] for part in n.split("\n")))
    if len(named) > MAX_NAMED:
        print(f"failed: ... and {len(named) - MAX_NAMED} more")
    print("\n".join(lines + [("total: " if len(runs) > 1 or runs[0][0] else "") + line(*total)]))
    sys.exit(1 if total[1] else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
