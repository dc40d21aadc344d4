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
`scripts/record-twin.py --show N OLD_GRUNDY TABLES`. When recorded, the
queries were answered alike from the default table file and from the
sanitizer builds' small one (0.16, whose period needs the default, is left
out of them)."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import twin_queries  # noqa: E402

RECORD = os.path.join(harness.REPO_ROOT, "tests", "data", "twin-answers.txt")


def read_record():
    """The recorded catalogue examples, the queries' hash and, per query,
    (hash, marks)."""
    examples, digest, rows = [], None, []
    with open(RECORD) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if line.startswith("example "):
                examples.append(json.loads(line[len("example "):]))
            elif line.startswith("queries "):
                digest = line.split()[1]
            else:
                fields = line.split()
                rows.append((fields[0], twin_queries.read_marks(fields[1:])))
    return examples, digest, rows


def answer_all(grundy, tables, queries):
    """Today's answers, or a sentence saying why there are none."""
    out = twin_queries.answer_lines(grundy, tables, queries)
    lines = out.stdout.splitlines()
    if len(lines) != len(queries):
        return None, "%d answers to %d queries; grundy batch exited %d: %s" % (
            len(lines), len(queries), out.returncode, out.stderr[-1500:])
    try:
        return [twin_queries.strict_parse(line) for line in lines], None
    except ValueError as e:
        return None, "an answer line does not parse: %s" % e


def examples_recorded(grundy, examples):
    today = twin_queries.catalogue_examples(grundy)
    missing = [json.dumps(q) for q in today if q not in examples]
    return ["not in the record (record again): " + q for q in missing]


SHOWN = 10  # failures printed per game


def compare(queries, rows, answers, first, last):
    bad = [i for i in range(first, last) if twin_queries.digest(answers[i], rows[i][1]) != rows[i][0]]
    problems = ["query %d: %s\n  today: %s" % (i, json.dumps(queries[i]), json.dumps(answers[i])[:1500])
                for i in bad[:SHOWN]]
    if len(bad) > SHOWN:
        problems.append("... %d queries differ in all" % len(bad))
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
        examples, digest, rows = read_record()
        tap.run("the record holds every catalogue example", examples_recorded, grundy, examples)
        queries = twin_queries.queries(examples)
        same = twin_queries.queries_digest(queries) == digest and len(rows) == len(queries)
        tap.result(same, "the queries are the recorded ones, a hash each", [] if same else
                   ["the query lines hash to %s, recorded %s; %d queries, %d hashes (this Python draws other "
                    "positions: record again)" % (twin_queries.queries_digest(queries), digest, len(queries),
                                                  len(rows))])
        answers, why = answer_all(grundy, tables, queries)
        tap.result(answers is not None, "an answer per query, each member once", [why] if why else [])
        if answers is None or len(rows) != len(queries):
            return
        for name, first, last in spans(examples):
            tap.run("%s (%d queries): the writer's answers parse equal to the tree renderer's"
                    % (name, last - first), compare, queries, rows, answers, first, last)

    sys.exit(harness.run_main(tap, "test_twin.py", 280, body))


main()
