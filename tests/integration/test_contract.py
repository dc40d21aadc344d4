#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The request contract, driven by the live catalogue (GET /v1/games).

Usage: test_contract.py path/to/grundyd path/to/grundy

For every game the catalogue lists, starting from the game's `example`:

- each field: missing (and null) when required is a 422 missing_field
  naming it, while an optional one may be absent or null alike; a value of
  the wrong type is a 422 naming it (or a path into it); a value just past
  its bounds (integers past minimum/maximum, arrays past min_items/max_items
  or with an element out of range, strings past their lengths or pattern, a
  misspelt choice with its suggestion) is a 422 naming it; a member one
  letter away from its name is a 422 unknown_field suggesting it;
- the common members (`convention`, and `compound` where the game takes it)
  the same way;
- every member that only other games take is a 422 inapplicable_field.

Then one misspelt member through every door (POST /v1/analyze, a JSON batch,
an NDJSON line, `grundy query`), and openapi.yaml's request schemas held to
the catalogue field by field by scripts/compare-openapi-catalogue.mjs (with
its self-test: deliberate breaks of the document are reported), when node
and the npm modules are there. The daemon runs with the default limits (the
GRUNDYD_* limit variables are cleared), so bounds that follow a limit are
those openapi.yaml documents. Prints TAP; Python 3 stdlib only.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import REPO_ROOT, Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 55
INT_MAX = 2**63 - 1
# Counts above this are not sent entry by entry (the element case covers them).
MAX_COUNT_CASE = 5000
COMPARE = os.path.join(REPO_ROOT, "scripts", "compare-openapi-catalogue.mjs")
HEADLINE = {"game": "nim", "piles": [1, 2], "convetion": "misere"}

TAP = Tap()


def daemon_env():
    """The environment without the variables that change grundyd's limits
    (GRUNDYD_TABLES kept)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GRUNDYD_") or k == "GRUNDYD_TABLES"}


# ---- names and suggestions, as src/core/suggest.c computes them -------------


def distance(a, b):
    """Optimal string alignment distance, case-insensitive."""
    a, b = a.lower(), b.lower()
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def misspelling(word, names, avoid):
    """A word one edit from `word` (a letter changed, else dropped) to which
    `word` is the only name of `names` within one edit, and not in `avoid`."""
    cands = []
    for i in range(len(word)):
        for ch in "xqzjv":
            if ch != word[i]:
                cands.append(word[:i] + ch + word[i + 1:])
    cands += [word[:i] + word[i + 1:] for i in range(len(word)) if len(word) > 2]
    for c in cands:
        if c in avoid or c in names:
            continue
        if all(n == word or distance(c, n) > 1 for n in names):
            return c
    raise AssertionError("no misspelling of %r stands apart from %r" % (word, names))


# ---- requests and expectations ---------------------------------------------


class Checker:
    """Sends queries over one keep-alive connection; collects problems."""

    def __init__(self, client):
        self.c = client
        self.sent = 0

    def post(self, body):
        self.sent += 1
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        return self.c.post(body)

    def error(self, what, body, codes, field=None, field_prefix=None, message=None):
        """Problems of the answer to `body` against a 422 with a code among
        `codes`, naming `field` (or a path into field_prefix), whose message
        holds `message`."""
        r = self.post(body)
        shown = json.dumps(body)
        if len(shown) > 200:
            shown = shown[:200] + "..."
        if r.status != 422:
            return ["%s: %s answered %d, want 422: %r" % (what, shown, r.status, r.raw[:300])]
        e = (r.json or {}).get("error") or {}
        p = []
        if e.get("code") not in codes:
            p.append("code %r, want %s" % (e.get("code"), " or ".join(codes)))
        got = e.get("field")
        if field is not None and got != field:
            p.append("field %r, want %r" % (got, field))
        if field_prefix is not None and not (isinstance(got, str) and (
                got == field_prefix or got.startswith(field_prefix + "[") or got.startswith(field_prefix + "."))):
            p.append("field %r, want %r or a path into it" % (got, field_prefix))
        if message is not None and message not in (e.get("message") or ""):
            p.append("message %r lacks %r" % (e.get("message"), message))
        return ["%s: %s: %s" % (what, shown, "; ".join(p))] if p else []

    def ok(self, what, body):
        r = self.post(body)
        if r.status != 200:
            return None, ["%s: %s answered %d: %r" % (what, json.dumps(body)[:200], r.status, r.raw[:300])]
        return r.raw, []


def with_member(example, name, value):
    q = dict(example)
    q[name] = value
    return q


def without(example, name):
    return {k: v for k, v in example.items() if k != name}


# ---- values just past a field's bounds ---------------------------------------


def integer_cases(f):
    """(label, value, codes) just outside [minimum, maximum]."""
    lo, hi = f["minimum"], f["maximum"]
    cases = []
    if hi < INT_MAX:
        cases.append(("maximum + 1", hi + 1, ["out_of_range"]))
    else:
        cases.append(("2^63 (past every integer)", INT_MAX + 1, ["invalid_integer"]))
    if lo > 0:
        cases.append(("minimum - 1", lo - 1, ["out_of_range"]))
    elif lo == 0:
        cases.append(("-1 (negative, unsigned)", -1, ["invalid_integer"]))
    else:
        cases.append(("minimum - 1 (past every integer)", lo - 1, ["invalid_integer"]))
    return cases


def in_range(f):
    return max(f["minimum"], min(f["maximum"], 1))


def entry(f, v):
    """One entry of an array field with every integer v."""
    return [v, v] if "pairs" in f["type"] else v


def array_cases(f, example_value):
    """(label, value, codes, the field or path the error must name)."""
    name = f["name"]
    base = list(example_value) if isinstance(example_value, list) and example_value else [entry(f, in_range(f))]
    cases = []
    for label, v, codes in integer_cases(f):
        bad = list(base)
        if "pairs" in f["type"]:
            bad[0] = [v, in_range(f)]
            path = "%s[0][0]" % name
        else:
            bad[0] = v
            path = "%s[0]" % name
        cases.append(("an entry at " + label, bad, codes, path))
    if f["max_items"] <= MAX_COUNT_CASE:
        n = f["max_items"] + 1
        # the count is checked before the entries: repeats are fine
        cases.append(("max_items + 1 entries", [entry(f, in_range(f))] * n, ["too_many"], name))
    if f["min_items"] > 0:
        cases.append(("min_items - 1 entries", base[:f["min_items"] - 1], ["invalid_field"], name))
    return cases


def string_cases(f, example_value):
    """(label, value, codes, field, message) for a string or board field."""
    name = f["name"]
    cases = []
    if "enum" in f:
        for choice in f["enum"]:
            wrong = misspelling(choice, f["enum"], avoid=set())
            cases.append(("the misspelt choice %r" % wrong, wrong, ["invalid_field"], name,
                          'did you mean "%s"?' % choice))
        return cases
    s = example_value if isinstance(example_value, str) and example_value else "1"
    if "max_length" in f:
        cases.append(("max_length + 1 characters", (s + s[-1] * f["max_length"])[:f["max_length"] + 1],
                      ["invalid_field"], name, None))
    if f.get("min_length", 0) > 0:
        cases.append(("min_length - 1 characters", s[:f["min_length"] - 1], ["invalid_field"], name, None))
    if "pattern" in f:
        for ch in "?Z9 ":
            bad = s[:-1] + ch
            if not re.search(f["pattern"], bad):
                cases.append(("%r, not matching the pattern" % bad, bad, ["invalid_field"], name, None))
                break
    return cases


# ---- one field of one game -------------------------------------------------------


def t_field(chk, game, f, all_names):
    ex = game["example"]
    name = f["name"]
    p = []
    # missing
    if f["required"]:
        p += chk.error("missing", without(ex, name), ["missing_field"], field=name)
        p += chk.error("null", with_member(ex, name, None), ["missing_field"], field=name)
    else:
        absent, q1 = chk.ok("absent", without(ex, name))
        null, q2 = chk.ok("null", with_member(ex, name, None))
        p += q1 + q2
        if absent is not None and null is not None and absent != null:
            p.append("null is not answered as absent: %r vs %r" % (null[:200], absent[:200]))
    # wrong type
    wrong = [{}, True]
    t = f["type"]
    if t in ("string", "board"):
        wrong += [7, ["x"]]
    elif t == "integer":
        wrong += ["12x", 1.5, [1]]
    elif t == "moves":
        wrong += ["squares", [{}], {"rule": 7}]
    else:
        wrong += ["1", [{}], [True]]
        if "pairs" in t:
            wrong += [[[1]], [1]]
    for v in wrong:
        p += chk.error("wrong type %s" % json.dumps(v), with_member(ex, name, v),
                       ["invalid_field", "invalid_integer"], field_prefix=name)
    # out of range
    if t == "integer":
        for label, v, codes in integer_cases(f):
            p += chk.error(label, with_member(ex, name, v), codes, field=name)
    elif t in ("string", "board"):
        for label, v, codes, field, msg in string_cases(f, ex.get(name)):
            p += chk.error(label, with_member(ex, name, v), codes, field=field, message=msg)
    else:
        example_value = ex.get(name) if isinstance(ex.get(name), list) else None
        for label, v, codes, field in array_cases(f, example_value):
            p += chk.error(label, with_member(ex, name, v), codes, field=field)
        if t == "moves":
            for choice in f["enum"]:
                wrong_rule = misspelling(choice, f["enum"], avoid=set())
                p += chk.error("the misspelt rule %r" % wrong_rule, with_member(ex, name, {"rule": wrong_rule}),
                               ["invalid_field"], field=name + ".rule", message='did you mean "%s"?' % choice)
            p += chk.error("a member of the rule object besides rule",
                           with_member(ex, name, {"rule": f["enum"][0], "rules": 1}), ["unknown_field"],
                           field=name + ".rules")
    # an unknown member one letter away
    takes = game_members(game)
    typo = misspelling(name, takes, all_names)
    q = with_member(ex, typo, ex.get(name, 1))
    p += chk.error("unknown member %r" % typo, q, ["unknown_field"], field=typo,
                   message='did you mean "%s"?' % name)
    return p


def game_members(game):
    """Every member the game takes, as the validator lists them."""
    names = ["game"] + [f["name"] for f in game["fields"]] + ["convention"]
    if any(c != "disjunctive" for c in game["compounds"]):
        names.append("compound")
    return names


def t_common(chk, game, common, all_names):
    """convention and compound (where taken): wrong type, misspelt choices,
    a neighbour name; null and absent alike; game itself misspelt."""
    ex = game["example"]
    p = []
    takes = game_members(game)
    for f in common:
        name = f["name"]
        if name == "game" or name not in takes:
            continue
        for v in ({}, True, 7):
            p += chk.error("%s %s" % (name, json.dumps(v)), with_member(ex, name, v), ["invalid_field"], field=name)
        for label, v, codes, field, msg in string_cases(f, None):
            p += chk.error("%s: %s" % (name, label), with_member(ex, name, v), codes, field=field, message=msg)
        typo = misspelling(name, takes, all_names)
        p += chk.error("unknown member %r" % typo, with_member(ex, typo, f["default"]), ["unknown_field"],
                       field=typo, message='did you mean "%s"?' % name)
        absent, q1 = chk.ok("%s absent" % name, ex)
        null, q2 = chk.ok("%s null" % name, with_member(ex, name, None))
        dflt, q3 = chk.ok("%s %s" % (name, f["default"]), with_member(ex, name, f["default"]))
        p += q1 + q2 + q3
        if absent is not None and null is not None and absent != null:
            p.append("%s null is not answered as absent" % name)
        if absent is not None and dflt is not None and absent != dflt:
            p.append("%s %r is not answered as absent" % (name, f["default"]))
    # the game's own name, misspelt, and game missing
    games = [g for g in common if g["name"] == "game"][0]["enum"]
    wrong = misspelling(game["name"], games, set())
    p += chk.error("game %r" % wrong, with_member(ex, "game", wrong), ["unknown_game"], field="game",
                   message='did you mean "%s"?' % game["name"])
    p += chk.error("game missing", without(ex, "game"), ["missing_field"], field="game")
    p += chk.error("game 7", with_member(ex, "game", 7), ["invalid_field"], field="game")
    return p


def t_inapplicable(chk, game, others):
    """Every member some other game takes and this one does not."""
    ex = game["example"]
    takes = game_members(game)
    p = []
    n = 0
    for name, value in sorted(others.items()):
        if name in takes:
            continue
        n += 1
        p += chk.error("member %r" % name, with_member(ex, name, value), ["inapplicable_field"], field=name,
                       message="does not apply to %s" % game["name"])
    if n == 0:
        p.append("no member of another game to try")
    return p


# ---- the headline case through every door ------------------------------------------


def headline_problems(raw, where):
    try:
        e = json.loads(raw)["error"]
    except (ValueError, KeyError, TypeError):
        return ["%s: not an error body: %r" % (where, raw[:300])]
    p = []
    if e.get("code") != "unknown_field":
        p.append("%s: code %r, want unknown_field" % (where, e.get("code")))
    if e.get("field") != "convetion":
        p.append("%s: field %r, want convetion" % (where, e.get("field")))
    if 'did you mean "convention"?' not in (e.get("message") or ""):
        p.append("%s: message %r does not suggest convention" % (where, e.get("message")))
    return p


def analyze_headline(c):
    r = c.post(json.dumps(HEADLINE))
    return r


def t_door_analyze(c):
    r = analyze_headline(c)
    if r.status != 422:
        return ["POST /v1/analyze answered %d, want 422: %r" % (r.status, r.raw[:300])]
    return headline_problems(r.raw, "POST /v1/analyze")


def t_door_batch(c):
    alone = analyze_headline(c).raw
    good = {"game": "nim", "piles": [1, 2]}
    r = c.request("POST", "/v1/batch", json.dumps({"queries": [good, HEADLINE, good]}))
    if r.status != 200:
        return ["POST /v1/batch answered %d, want 200: %r" % (r.status, r.raw[:300])]
    results = (r.json or {}).get("results")
    if not isinstance(results, list) or len(results) != 3:
        return ["results: %r" % r.raw[:300]]
    p = headline_problems(json.dumps(results[1]), "results[1]")
    if results[1] != json.loads(alone):
        p.append("results[1] %r is not the body POST /v1/analyze gives: %r" % (results[1], alone))
    if alone not in r.raw:
        p.append("the entry is not the analyze body byte for byte: %r" % r.raw[:400])
    for k in (0, 2):
        if "error" in results[k]:
            p.append("results[%d], a good query, is an error: %r" % (k, results[k]))
    return p


def t_door_ndjson(c):
    alone = analyze_headline(c).raw
    good = json.dumps({"game": "nim", "piles": [1, 2]}).encode()
    body = b"\n".join([good, json.dumps(HEADLINE).encode(), good]) + b"\n"
    r = c.request("POST", "/v1/batch", body, headers={"Content-Type": "application/x-ndjson"})
    if r.status != 200:
        return ["NDJSON POST /v1/batch answered %d, want 200: %r" % (r.status, r.raw[:300])]
    lines = r.raw.split(b"\n")
    if len(lines) != 4 or lines[3] != b"":
        return ["want 3 lines, each ending in a newline: %r" % r.raw[:600]]
    p = headline_problems(lines[1], "line 2")
    if lines[1] != alone:
        p.append("line 2 %r is not the body POST /v1/analyze gives: %r" % (lines[1], alone))
    for k in (0, 2):
        if lines[k].startswith(b'{"error"'):
            p.append("line %d, a good query, is an error: %r" % (k + 1, lines[k][:200]))
    return p


def t_door_cli(c, grundy):
    alone = analyze_headline(c).raw
    p = []
    proc = subprocess.run([grundy, "query", json.dumps(HEADLINE)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=30)
    if proc.returncode != 1:
        p.append("grundy query 'JSON' exited %d, want 1; stderr %r" % (proc.returncode, proc.stderr[:300]))
    out = proc.stdout.rstrip(b"\n")
    p += headline_problems(out, "grundy query 'JSON'")
    if out != alone:
        p.append("grundy query 'JSON' printed %r, the daemon answers %r" % (proc.stdout[:300], alone))
    proc = subprocess.run([grundy, "query", "-"], input=json.dumps(HEADLINE).encode() + b"\n",
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    if proc.returncode != 1:
        p.append("grundy query - exited %d, want 1; stderr %r" % (proc.returncode, proc.stderr[:300]))
    if proc.stdout != alone + b"\n":
        p.append("grundy query - printed %r, the daemon answers %r" % (proc.stdout[:300], alone))
    return p


# ---- openapi.yaml against the catalogue -----------------------------------------------


def compare_missing():
    why = harness.validator_missing()
    if why is None and not os.path.isfile(COMPARE):
        why = "%s is missing" % os.path.relpath(COMPARE, REPO_ROOT)
    return why


def run_compare(catalogue_raw, *args):
    """The checks of compare-openapi-catalogue.mjs on the catalogue, or
    raises with its output."""
    with tempfile.NamedTemporaryFile(prefix="grundy-catalogue-", suffix=".json") as f:
        f.write(catalogue_raw)
        f.flush()
        p = subprocess.run(["node", COMPARE] + list(args) + [f.name], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
    if p.returncode not in (0, 1):
        raise RuntimeError("compare-openapi-catalogue.mjs exited %d: %s" % (
            p.returncode, (p.stderr or p.stdout).decode("utf-8", "replace")[:2000]))
    return json.loads(p.stdout)["checks"]


def openapi_tests(catalogue_raw):
    why = compare_missing()
    if why is not None:
        TAP.skip("openapi.yaml's request schemas agree with GET /v1/games", why)
        return
    for chk in run_compare(catalogue_raw):
        TAP.result(not chk["problems"], "openapi.yaml vs catalogue: " + chk["name"], chk["problems"])
    breaks = run_compare(catalogue_raw, "--self-test")
    missed = ["%s: %s" % (b["name"], "; ".join(b["problems"])) for b in breaks if b["problems"]]
    TAP.result(not missed and len(breaks) > 0,
               "openapi.yaml vs catalogue: each of %d deliberate breaks of the document is reported" % len(breaks),
               missed)


# ---- main --------------------------------------------------------------------------------


def main():
    if len(sys.argv) != 3:
        print("usage: test_contract.py path/to/grundyd path/to/grundy", file=sys.stderr)
        return 2
    grundyd, grundy = sys.argv[1], sys.argv[2]

    def body():
        d = Daemon(grundyd, env=daemon_env())
        c = Client(d.port)
        r = c.request("GET", "/v1/games")
        cat = r.json
        if r.status != 200 or not isinstance(cat, dict) or not cat.get("games"):
            TAP.result(False, "GET /v1/games answers the catalogue", ["%r" % r])
            return
        games = cat["games"]
        common = cat["common_fields"]
        TAP.result(True, "GET /v1/games answers the catalogue (%d games)" % len(games))

        all_names = {f["name"] for g in games for f in g["fields"]} | {f["name"] for f in common}
        # a value for each member, from an example that has it
        values = {}
        for g in games:
            for f in g["fields"]:
                values.setdefault(f["name"], g["example"].get(f["name"], 1))
        values.setdefault("compound", "disjunctive")

        chk = Checker(c)
        for g in games:
            TAP.run("%s: the example %s is answered 200" % (g["name"], json.dumps(g["example"])),
                    lambda g=g: chk.ok("example", g["example"])[1])
            for f in g["fields"]:
                TAP.run("%s.%s (%s%s): missing, wrong type, out of range, unknown neighbour"
                        % (g["name"], f["name"], f["type"], ", required" if f["required"] else ""),
                        t_field, chk, g, f, all_names)
            TAP.run("%s: common members (%s) and game" % (g["name"], ", ".join(
                n for n in game_members(g) if n in ("convention", "compound"))),
                t_common, chk, g, common, all_names)
            TAP.run("%s: members only other games take are inapplicable_field" % g["name"],
                    t_inapplicable, chk, g, {k: v for k, v in values.items()})
        TAP.diag("%d queries for the field cases" % chk.sent)

        TAP.run("misspelt member via POST /v1/analyze: 422 unknown_field convetion, suggests convention",
                t_door_analyze, c)
        TAP.run("misspelt member in a JSON batch: the entry is the analyze error, the others answered",
                t_door_batch, c)
        TAP.run("misspelt member as an NDJSON line: the line is the analyze error, the others answered",
                t_door_ndjson, c)
        TAP.run("misspelt member via grundy query 'JSON' and query -: exit 1, the daemon's error body",
                t_door_cli, c, grundy)

        openapi_tests(r.raw)
        c.close()
        d.stop()

    return run_main(TAP, "test_contract.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
