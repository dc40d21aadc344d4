#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Records the writer's twin (tests/integration/test_twin.py): the answers of
# the renderer that built every answer as a cJSON tree (d02212c, before
# answers were written straight out), carried over to today's format by the
# format changes listed in convert() below, one hash per query.
#
# Usage: scripts/record-twin.py OLD_GRUNDY TABLES [OUT]
#   OLD_GRUNDY: grundy built from d02212c, e.g.
#     git worktree add /tmp/old d02212c && meson setup /tmp/old/b -Dbuildtype=release \
#       && ninja -C /tmp/old/b grundy
#   TABLES: the table file both are answered from (the normal build's grundy.tables)
#   OUT: default tests/data/twin-answers.txt
# With --show N it prints query N's converted old answer instead.
import json, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "tests", "integration"))
import twin_queries  # noqa: E402

OTHERS = 15  # winning moves listed besides the answer's own
SHOWN, SHOWN_WIDTH = 4, 16  # a nim-sum is written term by term up to these


def move_facts(move):
    return {k: v for k, v in move.items() if k != "text"}


def convert_winning(answer):
    """{total, moves[{move, next}]} became {total, others[move]}: the
    winning moves other than the answer's own (left out once, recognised by
    its members other than its text), at most 15."""
    old = answer["winning_moves"]
    own = move_facts(answer["move"]) if isinstance(answer.get("move"), dict) else None
    others = []
    for m in old.get("moves", []):
        if own is not None and move_facts(m["move"]) == own:
            own = None
            continue
        others.append(m["move"])
    new = {"total": old["total"], "others": others[:OTHERS]}
    if "note" in old:
        new["note"] = old["note"]
    return new


def convert_step(step):
    """Each step keeps its facts and loses its text (the explanation holds
    each sentence once); the heap steps lose what another member states."""
    kind = step["step"]
    step = {k: v for k, v in step.items() if k != "text"}
    if kind == "nim_sum":
        kept = {"step": kind, "name": step["name"]}
        if step["listed"] < step["components"]:
            kept["components"] = step["components"]
        kept["binary"] = step["binary"]
        kept["nim_sum_binary"] = step["nim_sum_binary"]
        return kept
    if kind == "target":
        return {"step": kind, "component": step["component"], "high_bit": step["high_bit"], "to": step["to"]}
    if kind == "mex" and "size" in step:  # a heap's options (a token's keep their shape)
        kept = {"step": kind, "component": step["component"], "options_total": step["options_total"]}
        if step["listed"] == "all":
            kept.update(listed="all", options=step["options"], mex=step["mex"])
        else:
            kept["listed"] = "move"
        return kept
    return step


TARGET = re.compile(r"(\w+ \d+) has the nim-sum's highest bit \(bit (\d+)\), so it moves from value \d+ to "
                    r"\d+ \^ \d+ = (\d+), which is smaller: an option of that value exists, as a value is the "
                    r"mex of its options' values\.")
NIM_SUM = re.compile(r"Nim-sum, column by column \(a bit is 1 when an odd number of ([\w ]+?)s have it\): "
                     r"[^:]*= (\d+): ")
WITNESSES = re.compile(r" ?\w+ \d+ \(\d+\) has (?:many|\d+) options, one of each value below its Grundy value "
                       r"\d+ and none of that value; of values \d+ to \d+: [^.]*(?:\.\.\. \(\d+ listed\)\.|\.)")


def convert_explanation(text, steps):
    """The target sentence was reworded; a nim-sum of more than 4 values or
    wider than 16 bits is stated by its value, not term by term; a heap's
    options are no longer listed one per value below its Grundy value."""
    text = TARGET.sub(lambda m: "%s holds its highest bit (bit %s), so its value XOR the nim-sum, %s, is "
                      "smaller; a value is the mex of its options' values, so an option of that value "
                      "exists, and moving there makes the nim-sum 0." % m.groups(), text)
    for step in steps:
        if step["step"] == "nim_sum" and not (step["width"] <= SHOWN_WIDTH and step["components"] <= SHOWN):
            text = NIM_SUM.sub(lambda m: "The nim-sum of the %d %ss' values is %s: "
                               % (step["components"], m.group(1), m.group(2)), text, count=1)
        if step["step"] == "mex" and step.get("listed") == "witnesses" and "size" in step:
            text = WITNESSES.sub("", text, count=1)
    return text.strip()


TEXT_ROOM = 1023  # an explanation's bytes: the old renderer cut what came after, ending it "..."


def convert(answer):
    """The old answer in today's format, and its marks: what of it the twin
    can know (twin_queries.projection). An explanation that filled the old
    renderer's 1,023 bytes is known up to its last whole sentence: a
    sentence that ran past them was cut ("..."), and every later one left
    out. Every other explanation is compared whole.
    Winning moves the old search stopped listing when its budget ran out
    are not known."""
    answer = dict(answer)
    marks = {}
    if "winning_moves" in answer:
        if answer["winning_moves"].get("note", "").startswith(twin_queries.BUDGET_NOTE):
            marks["winning"] = "budget"
        answer["winning_moves"] = convert_winning(answer)
    if "why" in answer:
        old_steps = answer["why"]["steps"]
        answer["why"] = dict(answer["why"], steps=[convert_step(s) for s in old_steps])
        if "explanation" in answer:
            old = answer["explanation"]
            text = convert_explanation(old, old_steps)
            if len(old.encode()) == TEXT_ROOM:
                if old.endswith("..."):
                    text = text[:text.rfind(". ") + 1]
                marks["explanation"] = len(text)
            answer["explanation"] = text
    return answer, marks


def answers(grundy, tables, queries):
    out = twin_queries.answer_lines(grundy, tables, queries).stdout.splitlines()
    if len(out) != len(queries):
        sys.exit("record-twin.py: %d answers to %d queries" % (len(out), len(queries)))
    return [twin_queries.strict_parse(line) for line in out]


def main():
    args = sys.argv[1:]
    show = None
    if args[:1] == ["--show"]:
        show, args = int(args[1]), args[2:]
    if len(args) not in (2, 3):
        sys.exit(__doc__ or "usage: record-twin.py [--show N] OLD_GRUNDY TABLES [OUT]")
    grundy, tables = args[0], args[1]
    out = args[2] if len(args) > 2 else os.path.join(root, "tests", "data", "twin-answers.txt")
    examples = twin_queries.catalogue_examples(grundy)
    queries = twin_queries.queries(examples)
    old = answers(grundy, tables, queries)
    if show is not None:
        print(json.dumps(convert(old[show])[0], indent=1))
        return
    with open(out, "w") as f:
        f.write("# The writer's twin, recorded by scripts/record-twin.py from d02212c's answers:\n"
                "# the catalogue examples, then one hash per query of twin_queries.queries().\n")
        for q in examples:
            f.write("example %s\n" % json.dumps(q, separators=(",", ":")))
        f.write("queries %s\n" % twin_queries.queries_digest(queries))
        for a in old:
            new, marks = convert(a)
            f.write(" ".join([twin_queries.digest(new, marks)] + ["%s:%s" % m for m in sorted(marks.items())]) + "\n")
    print("record-twin.py: %d queries, %d errors, written to %s"
          % (len(queries), sum("error" in a for a in old), out))


if __name__ == "__main__":
    main()
