#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The answer writer's twin: every catalogue example and 2,000 seeded random
positions of each game (twin_queries.py), explained, through `grundy batch -`,
must parse equal to what the renderer that built each answer as a cJSON tree
(d02212c) answered, carried over to today's format by the listed format
changes (scripts/record-twin.py, which recorded tests/data/twin-answers.txt:
one hash of each converted answer's parse).

Usage: test_twin.py path/to/grundy path/to/grundy.tables. Prints TAP: a
test that the record holds today's catalogue examples, then one per game.
A failure names the query and prints today's answer; the old one is
`scripts/record-twin.py --show N OLD_GRUNDY TABLES`. The queries' answers do
not depend on the table file's size (the sanitizer builds' small one
answers them alike)"""

import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import twin_queries  # noqa: E402

RECORD = os.path.join(harness.REPO_ROOT, "tests", "data", "twin-answers.txt")


def read_record():
    """The recorded catalogue examples and, per query, (hash, marks)."""
    examples, rows = [], []
    with open(RECORD) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if line.startswith("example "):
                examples.append(json.loads(line[len("example "):]))
                continue
            fields = line.split()
            rows.append((fields[0], twin_queries.read_marks(fields[1:])))
    return examples, rows


def answer_all(grundy, tables, queries):
    lines = "".join(json.dumps(q, separators=(",", ":")) + "\n" for q in queries)
    out = subprocess.run([grundy, "batch", "--tables", tables, "-"], input=lines, capture_output=True,
                         text=True, timeout=240).stdout.splitlines()
    return [json.loads(line) for line in out]


def examples_recorded(grundy, examples):
    out = subprocess.run([grundy, "games", "--json"], capture_output=True, text=True, check=True).stdout
    today = [g["example"] for g in json.loads(out)["games"]]
    missing = [json.dumps(q) for q in today if q not in examples]
    return ["not in the record (record again): " + q for q in missing]


def compare(queries, rows, answers, first, last):
    problems = []
    for i in range(first, last):
        if twin_queries.digest(answers[i], rows[i][1]) != rows[i][0]:
            problems.append("query %d: %s\n  today: %s" % (i, json.dumps(queries[i]), json.dumps(answers[i])[:1500]))
    return problems


def spans(examples):
    """The record's parts: the examples, then each game's random queries."""
    out = [("catalogue examples", 0, len(examples))]
    for k, make in enumerate(twin_queries.GAMES):
        start = len(examples) + k * twin_queries.COUNT
        out.append((make.__name__, start, start + twin_queries.COUNT))
    return out


def main():
    grundy, tables = sys.argv[1], sys.argv[2]
    tap = harness.Tap()

    def body():
        examples, rows = read_record()
        tap.run("the record holds every catalogue example", examples_recorded, grundy, examples)
        queries = twin_queries.queries(examples)
        answers = answer_all(grundy, tables, queries)
        tap.result(len(rows) == len(queries) == len(answers), "a recorded hash and an answer per query",
                   ["%d queries, %d hashes, %d answers" % (len(queries), len(rows), len(answers))])
        if not len(rows) == len(queries) == len(answers):
            return
        for name, first, last in spans(examples):
            tap.run("%s (%d queries): the writer's answers parse equal to the tree renderer's"
                    % (name, last - first), compare, queries, rows, answers, first, last)

    sys.exit(harness.run_main(tap, "test_twin.py", 280, body))


main()
