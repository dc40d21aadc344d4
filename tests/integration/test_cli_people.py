#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests for the grundy CLI as people use it: answers in words,
JSON when piped, --help of every command, usage errors, --version of both
tools, the table build's progress on a terminal, and the bash completion.

Usage: test_cli_people.py path/to/grundy path/to/grundyd MESON_VERSION [path/to/grundy-tables-default]

MESON_VERSION is meson.project_version(); both tools must print it, or
`git describe --tags --dirty` of the checkout when that succeeds. Terminals
are pseudo-terminals (the pty module), read with bounded waits. Prints TAP;
Python 3 stdlib only; a watchdog ends the run if it overruns.
"""

import fcntl
import json
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import REPO_ROOT, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 300
TAP = Tap(timing=False)
LABEL_WIDTH = 15  # src/cli/render.c


def run(args, stdin=b"", timeout=30, env=None):
    """(exit status, stdout text, stderr text), stdout and stderr piped."""
    p = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_pty(args, timeout=60, stdout_tty=True, stderr_tty=True, cols=0):
    """(exit status, terminal bytes, piped stdout bytes) with stdout and/or
    stderr on a pseudo-terminal (cols wide; 0: a width it does not tell);
    killed after `timeout` seconds."""
    master, slave = pty.openpty()
    if cols:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                         stdout=slave if stdout_tty else subprocess.PIPE,
                         stderr=slave if stderr_tty else subprocess.DEVNULL)
    os.close(slave)
    seen, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every writer has closed the terminal
                break
            if not data:
                break
            seen += data
        elif p.poll() is not None:
            break
    piped = p.stdout.read() if p.stdout else b""
    try:
        rc = p.wait(max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        rc = None
    os.close(master)
    return rc, seen, piped


def parse_human(text):
    """The answer in words as (verdict line, {label: text}), continuation
    lines joined to their label's text with one space."""
    lines = text.rstrip("\n").split("\n")
    fields, label = {}, None
    for line in lines[1:]:
        if line.startswith(" " * LABEL_WIDTH) and label:
            fields[label] += " " + line.strip()
        else:
            label, _, rest = line.partition(":")
            fields[label] = rest.strip()
    return lines[0], fields


HUMAN_QUERIES = [
    {"game": "nim", "piles": [3, 4, 5]},
    {"game": "nim", "piles": [1, 2, 3]},
    {"game": "subtraction", "moves": [1, 4, 7, 11, 15], "piles": [10**18, 12]},
    {"game": "octal", "code": "0.77", "piles": [10**18]},
    {"game": "tictactoe", "board": "X.O......"},
    {"game": "stone_front3", "stones": [2**63 - 1, 2**63 - 1, -5, 2**63 - 1]},
    {"game": "wythoff", "piles": [10**18, 1618033988749894848]},
    {"game": "graph", "edges": [[0, 1], [1, 0], [1, 2]], "tokens": [0, 1]},
    {"game": "grid", "rows": 4, "cols": 5, "steps": [[0, 1], [0, -1], [1, 0]], "tokens": [[0, 0], [2, 3]]},
    {"game": "nim", "piles": [3, 5, 2], "compound": "selective_proper"},
    {"game": "nim", "piles": list(range(1, 21))},
    {"game": "nim", "piles": list(range(1, 71))},
    {"game": "nim", "piles": [3, 4, 7, 7]},
    {"game": "grundys_game", "piles": [7, 13, 20]},
    {"game": "coins", "rule": "ruler", "heads": [3, 5, 6]},
    {"game": "staircase", "stairs": [0, 3, 2, 5]},
    {"game": "octal", "code": "0.77", "piles": [5, 7, 12], "convention": "misere"},
]
VERDICTS = {"first": "The player to move wins", "second": "The player to move loses",
            "draw": "A draw with best play"}


def check_human(query, answer, text):
    """Problems of the words for one answer (the JSON the same query gets)."""
    p = []
    verdict, f = parse_human(text)
    want = "%s (%s, %s play%s)." % (VERDICTS[answer["winner"]], answer["game"], answer["convention"],
                                     ", " + answer["compound"] if "compound" in answer else "")
    if verdict != want:
        p.append("verdict %r, want %r" % (verdict, want))
    if "value" in answer:
        if f.get("Value") != "%d (for the player to move)" % answer["value"]:
            p.append("Value %r for %r" % (f.get("Value"), answer["value"]))
    elif answer["grundy"] is not None and f.get("Grundy value") != str(answer["grundy"]):
        p.append("Grundy value %r for %r" % (f.get("Grundy value"), answer["grundy"]))
    elif answer["grundy"] is None:
        undefined = answer["convention"] == "misere" or answer.get("compound", "disjunctive") != "disjunctive"
        infinite = any(c.get("infinite") is True for c in answer.get("components", []))
        want = ("none: " if undefined else "infinite: " if infinite else "not computed at this size")
        if not f.get("Grundy value", "").startswith(want):
            p.append("Grundy value %r, want it to start %r" % (f.get("Grundy value"), want))
    move = answer.get("move")
    if move and f.get("Winning move" if answer["winner"] == "first" else "Best move") != move["text"]:
        p.append("move %r, want %r" % (f, move["text"]))
    if answer["winner"] == "second" and "none" not in f.get("Winning move", ""):
        p.append("a lost position does not say there is no winning move: %r" % f)
    if answer.get("next"):
        want_next = "; ".join("%s %s" % (k, v if isinstance(v, str) else json.dumps(v, separators=(",", ":")))
                              for k, v in answer["next"].items())
        if f.get("Then") != want_next:
            p.append("Then %r, want %r" % (f.get("Then"), want_next))
    for c in answer.get("components", []):
        if "period" in c:
            want_period = "%d from heap %d" % (c["period"]["period"], c["period"]["preperiod"])
            if not f.get("Period", "").startswith(want_period):
                p.append("Period %r, want %r" % (f.get("Period"), want_period))
    if f.get("Why") != answer["explanation"]:
        p.append("Why %r, want %r" % (f.get("Why"), answer["explanation"]))
    p += check_why_words(answer, f, text)
    if any(len(line) > 79 for line in text.split("\n") if " " in line.strip()):
        p.append("a wrapped line is wider than 79 columns: %r" % text)
    return [("%s: " % json.dumps(query)) + x for x in p]


def nim_sum_rows(step):
    """The rows of the nim-sum table `grundy query` prints for a nim_sum step
    (none when it is wider than 32 bits), whitespace collapsed: from its
    binary strings (the first 16), the count of ones per column when every
    component is listed and every count is a digit, and the nim-sum."""
    total = step["nim_sum_binary"]
    if len(total) > 32:
        return []
    n = step.get("components", len(step["binary"]))
    shown = step["binary"][:16]
    rows = ["%s %d %s %d" % (step["name"], i, b, int(b, 2)) for i, b in enumerate(shown)]
    if n > len(shown):
        rows.append("... and %d more" % (n - len(shown)))
    ones = [sum(b[k] == "1" for b in shown) for k in range(len(total))]
    if n == len(shown) and all(c <= 9 for c in ones):
        rows.append("ones " + "".join(str(c) for c in ones))
    rows.append("nim-sum %s %d" % (total, int(total, 2)))
    return rows


def wrapped(label, text, width=79):
    """The lines `grundy query` writes for text under a label: words filled
    greedily to `width` columns, continuation lines indented to the label
    column (src/cli/render.c's put_wrapped)."""
    lines, line, col = [], label.ljust(LABEL_WIDTH), LABEL_WIDTH
    for word in text.split():
        if col > LABEL_WIDTH and col + 1 + len(word) > width:
            lines.append(line)
            line, col = " " * LABEL_WIDTH, LABEL_WIDTH
        elif col > LABEL_WIDTH:
            line, col = line + " ", col + 1
        line, col = line + word, col + len(word)
    return lines + [line]


def has_block(lines, block):
    return any(lines[i:i + len(block)] == block for i in range(len(lines) - len(block) + 1))


def check_why_words(answer, f, text):
    """The explanation wrapped under Why: (the last lines), the nim-sum as a
    table of binary columns from the step's strings (its decimals their
    values, the nim-sum the answer's Grundy value), and the winning moves
    besides the one above, each on its own lines, after their count."""
    p = []
    steps = answer["why"]["steps"]
    lines = text.rstrip("\n").split("\n")
    why = wrapped("Why:", answer["explanation"])
    if lines[-len(why):] != why:
        p.append("Why: lines %r, want the explanation wrapped %r" % (lines[-len(why):], why))
    sums = [s for s in steps if s["step"] == "nim_sum"]
    rows = nim_sum_rows(sums[0]) if sums else []
    if rows and " ".join(f.get("Nim-sum", "").split()) != " ".join(rows):
        p.append("Nim-sum table %r, want rows %r" % (f.get("Nim-sum"), rows))
    if not rows and "Nim-sum" in f:
        p.append("a Nim-sum table %r without a nim_sum step to draw it from" % f["Nim-sum"])
    if sums and isinstance(answer.get("grundy"), int) and int(sums[0]["nim_sum_binary"], 2) != answer["grundy"]:
        p.append("nim_sum_binary %r is not the Grundy value %d" % (sums[0]["nim_sum_binary"], answer["grundy"]))
    w = answer["winning_moves"]
    others = w["others"]
    if w["total"] is not None and w["total"] <= 1 and not others:
        if "Winning moves" in f:
            p.append("Winning moves %r, though no move wins besides the one above" % f["Winning moves"])
        return p
    head = ("not counted" if w["total"] is None else str(w["total"])) + " in all"
    if others:
        every = w["total"] is not None and w["total"] <= len(others) + 1
        head += "; besides the move above" + (":" if every else ", the first of them:")
    block = wrapped("Winning moves:", head)
    for t in [m["text"] for m in others] + ([w["note"]] if "note" in w else []):
        block += wrapped("", t)
    if not has_block(lines, block):
        p.append("Winning moves %r, want the lines %r" % (f.get("Winning moves"), block))
    return p


def t_human(grundy):
    p = []
    for q in HUMAN_QUERIES:
        rc, out, err = run([grundy, "query", "--json", json.dumps(q)])
        answer = json.loads(out)
        rc_h, words, err_h = run([grundy, "query", "--human", json.dumps(q)])
        if rc_h != 0 or err_h:
            p.append("%s: --human exit %d, stderr %r" % (json.dumps(q), rc_h, err_h))
        p += check_human(q, answer, words)
    return p


def t_human_errors_and_lines(grundy):
    p = []
    rc, out, err = run([grundy, "query", "--human", '{"game":"nim","piles":[1],"convetion":"misere"}'])
    if rc != 1 or out or not re.fullmatch(r"grundy: unknown_field: .*\"convention\".* \(field: convetion\)\n", err):
        p.append("error in words: exit %d, stdout %r, stderr %r" % (rc, out, err))
    lines = b'{"game":"nim","piles":[3,4,5]}\n\n{"game":"chess"}\n{"game":"divisor","n":12}\n'
    rc, out, err = run([grundy, "query", "--human", "-"], stdin=lines)
    blocks = out.split("\n\n")
    if rc != 1 or len(blocks) != 2 or not blocks[0].startswith("The player to move wins (nim"):
        p.append("query - in words: exit %d, blocks %r" % (rc, blocks))
    elif not blocks[1].startswith("The player to move wins (divisor"):
        p.append("query - in words: second answer %r" % blocks[1])
    if err.count("\n") != 1 or "unknown_game" not in err:
        p.append("query - in words: stderr %r, want one unknown_game line" % err)
    return p


def t_json_when_piped(grundy):
    """Piped (no flag) and --json give the JSON line; a terminal gets words."""
    p = []
    q = json.dumps({"game": "nim", "piles": [10**18 + 1, 10**18]})
    _, plain, _ = run([grundy, "query", q])
    _, forced, _ = run([grundy, "query", "--json", q])
    if plain != forced or json.loads(plain)["winner"] != "first" or plain.count("\n") != 1:
        p.append("piped output %r differs from --json %r" % (plain, forced))
    rc, tty, _ = run_pty([grundy, "query", q], timeout=20)
    tty = tty.decode("utf-8", "replace").replace("\r\n", "\n")
    _, words, _ = run([grundy, "query", "--human", q])
    if rc != 0 or tty != words:
        p.append("on a terminal: exit %r, output %r, want the words %r" % (rc, tty, words))
    if "Winning move:  Take 1 from pile 0 (1000000000000000001 -> 1000000000000000000)." not in tty:
        p.append("on a terminal the move is not in words with every digit: %r" % tty)
    rc, tty, _ = run_pty([grundy, "query", "--json", q], timeout=20)
    if rc != 0 or tty.decode().replace("\r\n", "\n") != plain:
        p.append("--json on a terminal: exit %r, %r" % (rc, tty))
    rc, tty, _ = run_pty([grundy, "query", json.dumps({"game": "nim", "piles": [3, 4, 5]})], timeout=20)
    table = ("Nim-sum:       pile 0   011  3\n               pile 1   100  4\n               pile 2   101  5\n"
             "               ones     212\n               nim-sum  010  2\n")
    tty = tty.decode("utf-8", "replace").replace("\r\n", "\n")
    # its one winning move is the move above: no Winning moves line
    if rc != 0 or table not in tty or "Winning move:  Take 2 from pile 0 (3 -> 1).\n" not in tty \
            or "Winning moves" in tty or "\nWhy:           Nim: a pile's Grundy value is its size." not in tty:
        p.append("on a terminal, nim (3, 4, 5) lacks the nim-sum table or the move, or lists the move twice: %r"
                 % tty)
    rc, tty, _ = run_pty([grundy, "query", json.dumps({"game": "nim", "piles": [3, 4, 7, 7]})], timeout=20)
    listed = ("Winning move:  Take 1 from pile 1 (4 -> 3).\nThen:          piles [3,3,7,7]\n"
              "Winning moves: 3 in all; besides the move above:\n               Take 7 from pile 2 (7 -> 0).\n"
              "               Take 7 from pile 3 (7 -> 0).\nNim-sum:       pile 0   011  3\n")
    tty = tty.decode("utf-8", "replace").replace("\r\n", "\n")
    if rc != 0 or listed not in tty:
        p.append("on a terminal, nim (3, 4, 7, 7) does not list the two other winning moves: %r" % tty)
    return p


def commands_of(grundy):
    """The commands `grundy --help` lists, as argument lists."""
    _, out, _ = run([grundy, "--help"])
    section = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[:2] if line.split()[0] == "tables" else line.split()[:1]
            for line in section.splitlines()]


def t_help(grundy):
    p = []
    cmds = commands_of(grundy)
    want = [["query"], ["moves"], ["batch"], ["games"], ["tables", "build"], ["tables", "info"],
            ["healthcheck"]]
    if cmds != want:
        p.append("grundy --help lists %r, want %r" % (cmds, want))
    for cmd in cmds + [["tables"]]:
        for flag in ("--help", "-h"):
            rc, out, err = run([grundy] + cmd + [flag])
            name = " ".join(cmd)
            if rc != 0 or err or not out.startswith("Usage: grundy %s" % name):
                p.append("grundy %s %s: exit %d, stdout %r, stderr %r" % (name, flag, rc, out[:80], err))
            if name not in ("tables", "tables info") and "Options:" not in out:
                p.append("grundy %s %s does not list options" % (name, flag))
        if cmd != ["tables"] and cmd != ["healthcheck"]:
            rc, out, err = run([grundy] + cmd + ["--help", "x"])
            if rc != 0 or not out.startswith("Usage:"):
                p.append("grundy %s --help x: exit %d" % (" ".join(cmd), rc))
    rc, out, err = run([grundy, "query", "--help"])
    for opt in ("--json", "--human", "--tables", "--url", "--timeout", "Exit status"):
        if opt not in out:
            p.append("grundy query --help does not mention %s" % opt)
    return p


def t_usage_errors(grundy):
    p = []
    cases = [
        (["query", "--bogus", "{}"], "grundy query", "--bogus"),
        (["query", "-x", "{}"], "grundy query", "-x"),
        (["moves", "--human", "{}"], "grundy moves", "--human"),
        (["batch", "--wythoff", "3", "-"], "grundy batch", "--wythoff"),
        (["games", "--tables", "x"], "grundy games", "--tables"),
        (["tables", "build", "--json", "f"], "grundy tables build", "--json"),
        (["tables", "info", "--quiet", "f"], "grundy tables info", "--quiet"),
        (["query", "--tables"], "grundy query", "--tables"),
        (["query", "--json", "--human", "{}"], "grundy query", "--json and --human"),
        (["query", "--tables", "f", "--url", "http://127.0.0.1:1", "{}"], "grundy query", "--url"),
        (["query", "--timeout", "3", "{}"], "grundy query", "--timeout"),
        (["query", "--url", "https://127.0.0.1:1", "{}"], "--url", "https"),
        (["query", "--url", "http://127.0.0.1:99999", "{}"], "--url", "port"),
        (["query", "--url", "http://127.0.0.1:1", "--timeout", "0", "{}"], "--timeout", "86400"),
        (["tables"], "grundy tables", "build or info"),
        (["tables", "bogus"], "grundy tables", "build or info"),
        (["bogus"], "grundy", "bogus"),
        (["--bogus"], "grundy", "--bogus"),
        ([], "grundy", "missing command"),
    ]
    for args, who, what in cases:
        rc, out, err = run([grundy] + args)
        if rc != 2 or out or who not in err or what not in err or err.count("\n") != 1:
            p.append("grundy %s: exit %d (want 2), stdout %r, stderr %r" % (" ".join(args), rc, out, err))
    return p


def expected_version(meson_version):
    try:
        g = subprocess.run(["git", "describe", "--tags", "--dirty"], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=20)
        if g.returncode == 0 and g.stdout.strip():
            return g.stdout.decode().strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    return meson_version


def t_version(grundy, grundyd, meson_version):
    p = []
    want = expected_version(meson_version)
    for prog, name in ((grundy, "grundy"), (grundyd, "grundyd")):
        for flag in ("--version", "-V") if prog == grundy else ("--version",):
            rc, out, err = run([prog, flag])
            if rc != 0 or out != "%s %s\n" % (name, want) or err:
                p.append("%s %s: exit %d, %r, want %r" % (name, flag, rc, out, "%s %s\n" % (name, want)))
    return p


# A build of a few seconds that still shows every part's progress; the
# rule-defined sets' parts alone take seconds at their default sizes.
SMALL_BUILD = ["--grundys-values", "300000", "--octal-values", "256", "--wythoff", "64", "--divisor", "1000",
               "--rule-values", "4096"]
STATUS = re.compile(r"tables +(\d+)% \| ([a-z' ]+) (\d+)/(\d+) [0-9.]+k?M?/s \| Grundy (\d+)% [0-9.]+[kM]?/s \| "
                    r"\d+ s, ETA (\d+ s|\d+ min \d\d s|--)")


def t_build_progress_tty(grundy, tmp):
    p = []
    path = os.path.join(tmp, "tty.tables")
    # 120 columns: each status line whole (at the 79 of a terminal that does
    # not tell its width, a long one is cut, and the pattern would miss it)
    rc, seen, _ = run_pty([grundy, "tables", "build", path] + SMALL_BUILD, timeout=90, stdout_tty=False,
                          cols=120)
    text = seen.decode("utf-8", "replace")
    if rc != 0 or not os.path.exists(path):
        return ["build on a terminal: exit %r, %r" % (rc, text[-500:])]
    redraws = text.count("\r\x1b[K")
    statuses = [m for m in STATUS.finditer(text)]
    if redraws < 5 or len(statuses) < 3:
        p.append("%d redraws and %d status lines (percent, rates, ETA) on the terminal: %r"
                 % (redraws, len(statuses), text[-800:]))
    percents = [int(m.group(1)) for m in statuses]
    if percents != sorted(percents):
        p.append("the percent went backwards: %r" % percents)
    for a, b in zip(statuses, statuses[1:]):
        if a.group(2) == b.group(2) and int(b.group(3)) < int(a.group(3)):
            p.append("%s went back from %s to %s" % (a.group(2), a.group(3), b.group(3)))
        if int(b.group(3)) > int(b.group(4)):
            p.append("%s: %s done of %s" % (b.group(2), b.group(3), b.group(4)))
        if a.group(2) != b.group(2) and a.group(3) != a.group(4):
            p.append("%s ended showing %s done of %s" % (a.group(2), a.group(3), a.group(4)))
    if not re.search(r"tables 100% \| done in \d+ s\r?\n?$", text):
        p.append("no final '100%% | done in' line: %r" % text[-200:])
    for part in ("octal games 0.d1d2d3 (511 games)", "Grundy's game", "written"):
        if "tables: " + part not in text:
            p.append("no line for the finished part %r" % part)
    for line in text.replace("\r", "\n").split("\n"):
        if len(line.replace("\x1b[K", "")) > 119:
            p.append("a line wider than the terminal's 120 columns less one: %r" % line)
            break
    return p


def t_build_quiet_unless_tty(grundy, builder, tmp):
    p = []
    path = os.path.join(tmp, "quiet.tables")
    rc, out, err = run([grundy, "tables", "build", path] + SMALL_BUILD, timeout=90)
    if rc != 0 or out or err:
        p.append("build with stderr piped: exit %d, stdout %r, stderr %r (want silence)" % (rc, out, err))
    rc, out, err = run([grundy, "tables", "build", path, "--progress"] + SMALL_BUILD, timeout=90)
    if rc != 0 or not re.search(r"^tables: written +[0-9]+\.[0-9]{2} s$", err, re.M) \
            or not err.endswith("\n") or "\r" in err or "\x1b" in err or "tables 100% | done in" not in err:
        p.append("--progress piped: exit %d, stderr %r" % (rc, err[-400:]))
    rc, out, err = run_pty([grundy, "tables", "build", path, "--quiet"] + SMALL_BUILD, timeout=90,
                           stdout_tty=False)
    if rc != 0 or out:
        p.append("--quiet on a terminal: exit %r, wrote %r" % (rc, out[-300:]))
    if builder:
        # ninja runs the default table build in its console pool, so that a
        # first `ninja` (scripts/run.sh) on a terminal shows the progress
        ninja_file = os.path.join(os.path.dirname(os.path.abspath(builder)), "build.ninja")
        with open(ninja_file, encoding="utf-8") as f:
            edge = f.read().split("\nbuild grundy.tables:", 1)[-1].split("\n\n", 1)[0]
        if "\n pool = console\n" not in edge + "\n":
            p.append("build.ninja does not run grundy.tables in the console pool: %r" % edge[:300])
        # the default table build, as meson runs it on a first build
        rc, seen, _ = run_pty([builder, os.path.join(tmp, "default.tables"), "300000", "256", "4096"], timeout=90)
        if rc != 0 or len(list(STATUS.finditer(seen.decode("utf-8", "replace")))) < 2:
            p.append("grundy-tables-default on a terminal: exit %r, %r" % (rc, seen[-400:]))
        # a terminal that does not tell its width gets lines of at most 79 columns
        wide = [x for x in seen.decode("utf-8", "replace").replace("\r", "\n").split("\n")
                if len(x.replace("\x1b[K", "")) > 79]
        if wide:
            p.append("grundy-tables-default: a line wider than 79 columns on a terminal of unknown width: %r"
                     % wide[0])
        rc, out, err = run([builder, os.path.join(tmp, "default.tables"), "300000", "256", "4096"], timeout=90)
        if rc != 0 or out or err:
            p.append("grundy-tables-default piped: exit %d, stderr %r (want silence)" % (rc, err[-300:]))
    return p


COMPLETION_SCRIPT = r'''
source "$1/completions/grundy"
source "$1/completions/grundyd"
c() {  # c PROGRAM WORDS...: the candidates for the last word, one per line
    COMP_WORDS=("${@:2}"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
    if [[ $1 == grundyd ]]; then _grundyd; else _grundy; fi
    printf '%s\n' "${COMPREPLY[@]}"; echo "--"
}
'''


def t_completion(grundy, grundyd, tmp):
    bash = shutil.which("bash")
    if bash is None:
        return ["bash is not installed"]
    open(os.path.join(tmp, "batch-input.ndjson"), "w").close()
    cases = [
        ("grundy", [grundy, ""], ["query", "moves", "batch", "games", "tables", "healthcheck"]),
        ("grundy", [grundy, "q"], ["query"]),
        ("grundy", [grundy, "--v"], ["--version"]),
        ("grundy", [grundy, "tables", ""], ["build", "info"]),
        ("grundy", [grundy, "tables", "build", "--o"], ["--octal-values"]),
        ("grundy", [grundy, "query", "--"], ["--json", "--human", "--tables", "--url", "--timeout", "--help"]),
        ("grundy", [grundy, "batch", "--j"], ["--json"]),
        ("grundy", [grundy, "query", "--url", ""], ["http://127.0.0.1:8080"]),
        ("grundy", [grundy, "query", "--tables", os.path.join(tmp, "quiet.tab")],
         [os.path.join(tmp, "quiet.tables")]),
        ("grundy", [grundy, "batch", os.path.join(tmp, "batch-in")], [os.path.join(tmp, "batch-input.ndjson")]),
        ("grundy", [grundy, "query", "'{"], ['{"game":"']),
        ("grundy", [grundy, "query", "'{\"game\":\"st"],
         ['{"game":"staircase"', '{"game":"strange_nim"', '{"game":"stone_row"', '{"game":"stone_prefix"',
          '{"game":"stone_front3"']),
        ("grundy", [grundy, "moves", '{"piles":[1], "game": "ni'], ['{"piles":[1], "game": "nim"']),
        ("grundyd", [grundyd, "--po"], ["--port"]),
        # the values --help lists for it ("--access-log on|off|json")
        ("grundyd", [grundyd, "--access-log", ""], ["on", "off", "json"]),
        ("grundyd", [grundyd, "--access-log", "j"], ["json"]),
        ("grundyd", [grundyd, "--tables", os.path.join(tmp, "quiet.tab")], [os.path.join(tmp, "quiet.tables")]),
    ]
    script = COMPLETION_SCRIPT
    for prog, words, _ in cases:
        script += "c %s %s\n" % (prog, " ".join("'%s'" % w.replace("'", "'\\''") for w in words))
    # every game of the catalogue, none from the script itself
    script += "c grundy %s query '{\"game\":\"'\n" % grundy
    rc, out, err = run([bash, "--norc", "--noprofile", "-c", script, "bash", REPO_ROOT], timeout=60)
    if rc != 0:
        return ["bash exit %d: %s" % (rc, err)]
    results = [r.split("\n") for r in out.split("--\n")][:-1]
    results = [[x for x in r if x] for r in results]
    p = []
    for (prog, words, want), got in zip(cases, results):
        if got != want:
            p.append("%s %r: COMPREPLY %r, want %r" % (prog, words[1:], got, want))
    _, games, _ = run([grundy, "games"])
    want_games = ['{"game":"%s"' % line.split()[0] for line in games.splitlines()]
    if len(results) != len(cases) + 1 or results[-1] != want_games or len(want_games) < 18:
        p.append("game names: %r, want those of grundy games: %r" % (results[-1:], want_games))
    if err:
        p.append("bash wrote to stderr: %r" % err)
    p += installed_completions(grundy)
    return p


def installed_completions(grundy):
    """meson install puts both scripts in share/bash-completion/completions."""
    meson = shutil.which("meson")
    if meson is None:
        return []
    rc, out, err = run([meson, "introspect", os.path.dirname(os.path.abspath(grundy)), "--installed"])
    if rc != 0:
        return ["meson introspect --installed: exit %d, %s" % (rc, err)]
    installed = json.loads(out)
    p = []
    for name in ("grundy", "grundyd"):
        src = os.path.join(REPO_ROOT, "completions", name)
        dest = installed.get(src, "")
        if not dest.endswith("/share/bash-completion/completions/" + name):
            p.append("meson install puts %s at %r" % (src, dest))
    return p


def t_games(grundy):
    p = []
    rc, out, err = run([grundy, "games"])
    names = [line.split()[0] for line in out.splitlines()]
    rc2, cat, _ = run([grundy, "games", "--json"])
    catalogue = json.loads(cat)
    if rc or rc2 or names != [g["name"] for g in catalogue["games"]]:
        p.append("grundy games %r differs from the catalogue's names" % names)
    for line, g in zip(out.splitlines(), catalogue["games"]):
        if line.split(None, 1)[1] != g["summary"]:
            p.append("summary of %s: %r" % (g["name"], line))
    return p


def main():
    if len(sys.argv) not in (4, 5):
        print("usage: test_cli_people.py grundy grundyd MESON_VERSION [grundy-tables-default]", file=sys.stderr)
        return 2
    grundy, grundyd, meson_version = sys.argv[1:4]
    builder = sys.argv[4] if len(sys.argv) == 5 else None

    def body():
        TAP.run("answers in words: verdict, value, move, position after it, periods, explanation",
                t_human, grundy)
        TAP.run("words: an error is one line on stderr (exit 1); query - separates answers",
                t_human_errors_and_lines, grundy)
        TAP.run("JSON when piped and with --json; words on a terminal (pty)", t_json_when_piped, grundy)
        TAP.run("--help and -h of every command grundy --help lists", t_help, grundy)
        TAP.run("usage errors exit 2 with one line naming the command and what to change",
                t_usage_errors, grundy)
        TAP.run("grundy --version and grundyd --version print meson's version", t_version, grundy, grundyd,
                meson_version)
        TAP.run("grundy games lists the catalogue's games", t_games, grundy)
        with tempfile.TemporaryDirectory(prefix="grundy-people-") as tmp:
            TAP.run("tables build on a terminal: percent, rates, ETA redrawn in place",
                    t_build_progress_tty, grundy, tmp)
            TAP.run("tables build is silent unless stderr is a terminal or --progress",
                    t_build_quiet_unless_tty, grundy, builder, tmp)
            TAP.run("bash completion: commands, options, files and game names", t_completion, grundy,
                    grundyd, tmp)

    return run_main(TAP, "test_cli_people.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
