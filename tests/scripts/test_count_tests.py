#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/count-tests.py, the verdict of the README's test command: counts
of passed, failed and skipped cases from meson logs and TAP files, the
"failed:" lines naming each failure, and the exit status."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from harness import REPO_ROOT, Tap  # noqa: E402

COUNTER = os.path.join(REPO_ROOT, "scripts", "count-tests.py")


def run(*args):
    p = subprocess.run([sys.executable, COUNTER, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout.splitlines()


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def meson_log(d, tests):
    """A testlog.json of (name, result, stdout) rows."""
    return write(d, "testlog.json", "".join(
        json.dumps({"name": n, "result": r, "stdout": o}) + "\n" for n, r, o in tests))


def t_all_pass(d):
    log = meson_log(d, [("unit", "OK", ""), ("tap", "OK", "ok 1 - a\nok 2 - b # SKIP no clang\n1..2\n")])
    rc, out = run("gcc=" + log)
    return [] if (rc, out) == (0, ["gcc: 2 passed, 0 failed, 1 skipped", "total: 2 passed, 0 failed, 1 skipped"]) \
        else ["got %r %r" % (rc, out)]


def t_failures_named(d):
    log = meson_log(d, [
        ("front", "FAIL", "ok 1 - a\nnot ok 2 - stalled reader\n# detail\n1..2\n"),
        ("crashes", "FAIL", ""),
        ("dies-late", "TIMEOUT", "ok 1 - a\n"),
        ("known-gap", "OK", "not ok 1 - gap # TODO later\n1..1\n"),
    ])
    tap = write(d, "stage.tap", "1..3\nok 1 - x\nnot ok 2 - page loads\n")
    rc, out = run("gcc=" + log, "browser=" + tap, "gone=" + os.path.join(d, "missing.json"))
    want = [
        "failed: gcc: front: not ok 2 - stalled reader",
        "    # detail",
        "failed: gcc: crashes: FAIL, no TAP output",
        "failed: gcc: dies-late: TIMEOUT after its last TAP line",
        "failed: browser: not ok 2 - page loads",
        "failed: browser: 1 planned test(s) never ran",
        "failed: gone: no test log " + os.path.join(d, "missing.json"),
        "gcc:     2 passed, 3 failed, 1 skipped",
        "browser: 1 passed, 2 failed",
        "gone:    no test log (the build or its setup failed): 0 passed, 1 failed",
        "total: 3 passed, 6 failed, 1 skipped",
    ]
    return [] if (rc, out) == (1, want) else ["got %r" % rc] + out


def t_names_bounded(d):
    log = meson_log(d, [("many", "FAIL", "".join("not ok %d - case\n" % i for i in range(1, 31)) + "1..30\n")])
    rc, out = run("gcc=" + log)
    named = [line for line in out if line.startswith("failed: gcc")]
    problems = [] if rc == 1 and len(named) == 20 else ["rc %r, %d named" % (rc, len(named))]
    if "failed: ... and 10 more" not in out or out[-1] != "total: 0 passed, 30 failed":
        problems.append("got %r" % out[-3:])
    return problems


def t_diagnostics_bounded(d):
    out_text = ("not ok 1 - fds\n" + "".join("# line %d\n" % i for i in range(1, 10)) + "ok 2 - b\n# not this\n"
                "not ok 3 - short\r\n# why\r\n# took 1.2 s\n# the next test's\nok 4 - c\n1..4\n")
    rc, out = run("gcc=" + meson_log(d, [("metrics", "FAIL", out_text)]))
    want = ["failed: gcc: metrics: not ok 1 - fds"] + ["    # line %d" % i for i in range(1, 7)] + [
        "    # ... 3 more line(s)", "failed: gcc: metrics: not ok 3 - short", "    # why",
        "gcc: 2 passed, 2 failed", "total: 2 passed, 2 failed"]
    return [] if (rc, out) == (1, want) else ["got %r %r" % (rc, out)]


def t_no_plan(d):
    tap = write(d, "stage.tap", "ok 1 - x\n")
    rc, out = run("browser=" + tap)
    want = ["failed: browser: no plan line: the run stopped early", "browser: 1 passed, 1 failed",
            "total: 1 passed, 1 failed"]
    return [] if (rc, out) == (1, want) else ["got %r %r" % (rc, out)]


def t_label_merged(d):
    """Two logs of one label (tests run beside each other) make one line."""
    first = meson_log(d, [("service", "OK", "ok 1 - a\nok 2 - b\n1..2\n")])
    second = write(d, "testlog-front.json", json.dumps(
        {"name": "front", "result": "FAIL", "stdout": "not ok 1 - c\n1..1\n"}) + "\n")
    rc, out = run("tsan=" + first, "tsan=" + second)
    want = ["failed: tsan: front: not ok 1 - c", "tsan: 2 passed, 1 failed", "total: 2 passed, 1 failed"]
    problems = [] if (rc, out) == (1, want) else ["got %r %r" % (rc, out)]
    gone = os.path.join(d, "testlog-gone.json")
    rc, out = run("tsan=" + first, "tsan=" + gone)
    want = ["failed: tsan: no test log " + gone,
            "tsan: no test log (the build or its setup failed): 2 passed, 1 failed", "total: 2 passed, 1 failed"]
    return problems + ([] if (rc, out) == (1, want) else ["one log missing: got %r %r" % (rc, out)])


def main():
    tap = Tap()
    for name, fn in [("every case passes: counts, no failed lines, exit 0", t_all_pass),
                     ("each failure is named before the counts, exit 1", t_failures_named),
                     ("at most 20 failures are named, the rest counted", t_names_bounded),
                     ("a failure's first 6 diagnostic lines follow its name, up to its # took line", t_diagnostics_bounded),
                     ("a TAP stage with no plan line stopped early: one failure", t_no_plan),
                     ("the logs of one label are counted on one line, a missing one named", t_label_merged)]:
        with tempfile.TemporaryDirectory() as d:
            tap.run(name, fn, d)
    tap.finish()
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
