#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integers as strings: ?integers=string and Accept: application/json;
integers=string on every route that answers JSON (analyze, moves, JSON and
NDJSON batches, the catalogue, the tables, health, errors). Each string
answer must be the number answer with every integer replaced by its
decimal string, and hold no number token at all; the number answers hold
no number that is not an integer. Other values of integers= are a 400
naming `integers`. With node: JSON.parse keeps 2^63 - 1 and 10^18 + 1 of a
string answer exact (and loses them from the number answer), and
examples/fetch.mjs prints the exact answer of a 10^18 + 1 pile.

Usage: test_integers.py path/to/grundyd [path/to/node]. Prints TAP."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import REPO_ROOT, Client, Daemon, Tap, bad_number_tokens, run_main  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 100
INT_MAX = 2**63 - 1
E18_1 = 10**18 + 1
ACCEPT_STRING = {"Accept": "application/json; integers=string"}

# Number tokens outside strings (any form).
NUMBER_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|(-?[0-9][0-9.eE+-]*)')

# (method, path, body, content type) of requests that answer JSON, errors included.
JSON_REQUESTS = [
    ("POST", "/v1/analyze", {"game": "nim", "piles": [INT_MAX, E18_1, 5]}, None),
    ("POST", "/v1/analyze", {"game": "stone_front3", "stones": [INT_MAX, INT_MAX, -5, INT_MAX]}, None),
    ("POST", "/v1/analyze", {"game": "grid", "tokens": [[7, 7], [3, 12]]}, None),
    ("POST", "/v1/analyze", {"game": "subtraction", "moves": [1, 4, 7, 11, 15], "piles": [10**18, 12]}, None),
    ("POST", "/v1/analyze", {"game": "graph", "edges": [[0, 1], [1, 0], [1, 2]], "tokens": [0, 1]}, None),
    ("POST", "/v1/analyze", {"game": "nim", "piles": [1, -2]}, None),
    ("POST", "/v1/analyze", "{not json", None),
    ("POST", "/v1/moves", {"game": "nim", "piles": [3, 4, 5], "limit": 2}, None),
    ("POST", "/v1/moves", {"game": "octal", "code": "0.77", "piles": [10**18], "limit": 3}, None),
    ("POST", "/v1/batch", {"queries": [{"game": "nim", "piles": [1, 2]}, {"game": "chess"},
                                       {"game": "divisor", "n": 12}]}, None),
    ("GET", "/v1/games", None, None),
    ("GET", "/v1/tables", None, None),
    ("GET", "/healthz", None, None),
    ("GET", "/readyz", None, None),
    ("GET", "/v1/nothing", None, None),
    ("PUT", "/v1/games", None, None),
]

NDJSON_LINES = [{"game": "nim", "piles": [3, INT_MAX]}, {"game": "divisor", "n": 12}, {"game": "nmi"},
                {"game": "stone_row", "stones": [5, 3, 4, 5]}]


def with_query(path, query):
    return path + ("&" if "?" in path else "?") + query


def as_strings(v):
    """v with every integer replaced by its decimal string."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return [as_strings(x) for x in v]
    if isinstance(v, dict):
        return {k: as_strings(x) for k, x in v.items()}
    return v


def number_tokens(raw):
    return [m.group(1).decode() for m in NUMBER_TOKEN.finditer(raw) if m.group(1) is not None]


def compare(what, plain_raw, string_raw, p):
    """The string answer is the number answer with integers as strings."""
    bad = bad_number_tokens(plain_raw, signed=True)
    if bad:
        p.append("%s: numbers that are not integers in the answer: %r" % (what, bad[:5]))
    left = number_tokens(string_raw)
    if left:
        p.append("%s: number tokens left with integers=string: %r" % (what, left[:5]))
    try:
        plain, quoted = json.loads(plain_raw), json.loads(string_raw)
    except ValueError as e:
        p.append("%s: not JSON: %s" % (what, e))
        return
    if as_strings(plain) != quoted:
        p.append("%s: the string answer is not the number answer with integers as strings:\n%s\n%s"
                 % (what, plain_raw[:400], string_raw[:400]))


def encode(body):
    return body if isinstance(body, str) or body is None else json.dumps(body)


def t_every_route(port):
    c = Client(port)
    p = []
    for method, path, body, _ in JSON_REQUESTS:
        plain = c.request(method, path, encode(body))
        for how, req_path, headers in (("?integers=string", with_query(path, "integers=string"), {}),
                                       ("Accept", path, ACCEPT_STRING)):
            r = c.request(method, req_path, encode(body), headers)
            what = "%s %s (%s)" % (method, path, how)
            if r.status != plain.status:
                p.append("%s: status %d, %d without it" % (what, r.status, plain.status))
            if (r.header("Content-Type") or "") != "application/json":
                p.append("%s: Content-Type %r" % (what, r.header("Content-Type")))
            compare(what, plain.raw, r.raw, p)
        explicit = c.request(method, with_query(path, "integers=number"), encode(body))
        if explicit.raw != plain.raw:
            p.append("%s %s?integers=number differs from the default" % (method, path))
    return p


def t_catalogue_caching(port):
    """The catalogue's two integer forms are two representations: each has
    its own ETag, a tag revalidates only its own form, and Vary names Accept
    (the header that may choose the form)."""
    c = Client(port)
    p = []
    plain = c.request("GET", "/v1/games")
    quoted = c.request("GET", "/v1/games", None, ACCEPT_STRING)
    tag_plain, tag_quoted = plain.header("ETag"), quoted.header("ETag")
    if not tag_plain or tag_plain == tag_quoted:
        p.append("ETags %r and %r: the forms must differ" % (tag_plain, tag_quoted))
    for headers, tag, want in ((ACCEPT_STRING, tag_quoted, 304), (ACCEPT_STRING, tag_plain, 200),
                               ({}, tag_quoted, 200), ({}, tag_plain, 304)):
        r = c.request("GET", "/v1/games", None, dict(headers, **{"If-None-Match": tag or ""}))
        if r.status != want:
            p.append("If-None-Match %s with %r: %d, want %d" % (tag, headers, r.status, want))
    for r in (plain, quoted):
        if "Accept" not in [v.strip() for v in (r.header("Vary") or "").split(",")]:
            p.append("Vary %r does not name Accept" % r.header("Vary"))
    return p


def t_quoted_values(port):
    """The exact strings of a 2^63 - 1 answer, and of an answer past 64 bits."""
    c = Client(port)
    p = []
    r = c.request("POST", "/v1/analyze?integers=string", encode({"game": "nim", "piles": [INT_MAX, E18_1]}))
    j = r.json or {}
    if [x.get("size") for x in j.get("components", [])] != [str(INT_MAX), str(E18_1)]:
        p.append("nim sizes: %r" % r.raw[:300])
    if j.get("grundy") != str(INT_MAX ^ E18_1):
        p.append("nim grundy %r, want %r" % (j.get("grundy"), str(INT_MAX ^ E18_1)))
    query = encode({"game": "stone_front3", "stones": [INT_MAX, INT_MAX, -5, INT_MAX]})
    plain = (c.request("POST", "/v1/analyze", query).json or {}).get("value")
    r = c.request("POST", "/v1/analyze", query, {"Accept": "application/json;integers=\"string\""})
    j = r.json or {}
    if not isinstance(plain, int) or plain <= INT_MAX or j.get("value") != str(plain):
        p.append("stone_front3 value %r, %r as a number" % (j.get("value"), plain))
    if (j.get("next") or {}).get("stones") != ["-5", str(INT_MAX)]:
        p.append("stone_front3 next %r" % r.raw[:300])
    return p


def ndjson(port, path, headers=None):
    body = "".join(json.dumps(q) + "\n" for q in NDJSON_LINES)
    hdrs = {"Content-Type": "application/x-ndjson"}
    hdrs.update(headers or {})
    return Client(port).request("POST", path, body, hdrs)


def t_ndjson(port):
    p = []
    plain = ndjson(port, "/v1/batch")
    for how, path, headers in (("query", "/v1/batch?integers=string", {}),
                               ("Accept", "/v1/batch", {"Accept": "application/x-ndjson; integers=string"})):
        r = ndjson(port, path, headers)
        a, b = plain.raw.splitlines(), r.raw.splitlines()
        if r.status != 200 or len(a) != len(NDJSON_LINES) or len(b) != len(a):
            p.append("%s: %d, %d and %d lines" % (how, r.status, len(a), len(b)))
            continue
        for i, (x, y) in enumerate(zip(a, b)):
            compare("NDJSON line %d (%s)" % (i, how), x, y, p)
    return p


def t_refused(port):
    """Other values: 400 bad_request naming integers, on every JSON route."""
    c = Client(port)
    p = []
    cases = [("POST", "/v1/analyze?integers=big", {}), ("POST", "/v1/analyze?integers=", {}),
             ("POST", "/v1/analyze?integers=STRING", {}),
             ("POST", "/v1/moves", {"Accept": "application/json; integers=bigint"}),
             ("POST", "/v1/batch?integers=strings", {}),
             ("GET", "/v1/games?integers=1", {}), ("GET", "/v1/tables", {"Accept": "*/*; integers=yes"})]
    for method, path, headers in cases:
        r = c.request(method, path, encode({"game": "nim", "piles": [1]}) if method == "POST" else None, headers)
        err = (r.json or {}).get("error") or {}
        if r.status != 400 or err.get("code") != "bad_request" or err.get("field") != "integers" \
                or "integers=string" not in err.get("message", ""):
            p.append("%s %s %r: %r" % (method, path, headers, r))
    # A long value is cut in the message, the advice after it never.
    for path, headers in (("/v1/analyze?integers=" + "x" * 60, {}),
                          ("/v1/analyze", {"Accept": "application/json; integers=" + "y" * 60})):
        r = c.request("POST", path, encode({"game": "nim", "piles": [1]}), headers)
        message = ((r.json or {}).get("error") or {}).get("message", "")
        if r.status != 400 or not message.endswith("or integers=number (the default)"):
            p.append("a 60-character integers= value: %d %r" % (r.status, message))
    r = ndjson(port, "/v1/batch?integers=text")
    if r.status != 400 or ((r.json or {}).get("error") or {}).get("field") != "integers":
        p.append("NDJSON ?integers=text: %r" % r)
    # A path or method at fault is answered as such.
    r = c.request("GET", "/v1/nothing?integers=big")
    if r.status != 404:
        p.append("unknown path with integers=big: %r" % r)
    # The query parameter is read before Accept.
    r = c.request("POST", "/v1/analyze?integers=number", encode({"game": "nim", "piles": [3]}), ACCEPT_STRING)
    if r.status != 200 or (r.json or {}).get("grundy") != 3:
        p.append("?integers=number with Accept integers=string: %r" % r)
    return p


# ---------------------------------------------------------------------------
# node

NODE_ROUND_TRIP = r"""
const [url, body] = process.argv.slice(1);
const post = async (u) => (await fetch(u, { method: "POST", body })).text();
const exact = JSON.parse(await post(url + "?integers=string"));
const lossy = JSON.parse(await post(url));
console.log(JSON.stringify({
  sizes: exact.components.map((c) => c.size),
  types: exact.components.map((c) => typeof c.size),
  bigints: exact.components.map((c) => (BigInt(c.size) + 1n).toString()),
  grundy: exact.grundy,
  lossy: lossy.components.map((c) => String(c.size)),
}));
"""


def run_node(node, args, timeout=30):
    p = subprocess.run([node] + args, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def t_node_round_trip(node, port):
    body = json.dumps({"game": "nim", "piles": [INT_MAX, E18_1]})
    rc, out, err = run_node(node, ["--input-type=module", "-e", NODE_ROUND_TRIP,
                                   "http://127.0.0.1:%d/v1/analyze" % port, body])
    if rc != 0:
        return ["node exited %d: %s" % (rc, err[-800:])]
    got = json.loads(out)
    p = []
    if got["sizes"] != [str(INT_MAX), str(E18_1)] or got["types"] != ["string", "string"]:
        p.append("JSON.parse of the string answer: %r" % got)
    if got["bigints"] != [str(INT_MAX + 1), str(E18_1 + 1)]:
        p.append("BigInt of the strings: %r" % got["bigints"])
    if got["grundy"] != str(INT_MAX ^ E18_1):
        p.append("grundy %r" % got["grundy"])
    if got["lossy"] == [str(INT_MAX), str(E18_1)]:
        p.append("JSON.parse of the number answer kept every digit; the test shows nothing")
    return p


def t_fetch_example(node, port):
    """examples/fetch.mjs against the daemon: the exact answer of a 10^18 + 1 pile."""
    url = "http://127.0.0.1:%d" % port
    rc, out, err = run_node(node, [os.path.join(REPO_ROOT, "examples", "fetch.mjs"), url])
    if rc != 0:
        return ["examples/fetch.mjs exited %d: %s %s" % (rc, out[-400:], err[-800:])]
    p = []
    r = Client(port).request("POST", "/v1/analyze?integers=string",
                             encode({"game": "nim", "piles": [E18_1, 10**18, 7]}))
    j = r.json or {}
    for want in (str(E18_1), j.get("grundy"), (j.get("next") or {}).get("piles", [None])[0],
                 (j.get("move") or {}).get("text")):
        if not want or want not in out:
            p.append("the output lacks %r:\n%s" % (want, out))
    if "1000000000000000000" + "0" in out or "e+18" in out:
        p.append("the output has a rounded number:\n%s" % out)
    env = dict(os.environ, GRUNDYD_URL=url)
    second = subprocess.run([node, os.path.join(REPO_ROOT, "examples", "fetch.mjs")], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=30)
    if second.returncode != 0 or second.stdout.decode() != out:
        p.append("examples/fetch.mjs with GRUNDYD_URL: exit %d, %r" % (second.returncode, second.stdout[:300]))
    return p


def main(argv):
    if len(argv) < 2:
        print("usage: test_integers.py path/to/grundyd [path/to/node]", file=sys.stderr)
        return 2
    node = argv[2] if len(argv) > 2 and argv[2] else None

    def body():
        d = Daemon(argv[1], "--max-body", "65536")
        TAP.run("every JSON route: integers=string is the number answer with integers as strings",
                t_every_route, d.port)
        TAP.run("the catalogue's two integer forms have their own ETags; Vary names Accept",
                t_catalogue_caching, d.port)
        TAP.run("2^63 - 1, 10^18 + 1 and values past 64 bits as exact strings", t_quoted_values, d.port)
        TAP.run("NDJSON lines with integers=string", t_ndjson, d.port)
        TAP.run("other integers= values: 400 bad_request naming integers", t_refused, d.port)
        if node is None:
            TAP.skip("node: JSON.parse keeps 2^63 - 1 and 10^18 + 1 exact", "no node given")
            TAP.skip("examples/fetch.mjs", "no node given")
            return
        TAP.run("node: JSON.parse keeps 2^63 - 1 and 10^18 + 1 exact", t_node_round_trip, node, d.port)
        TAP.run("examples/fetch.mjs prints the exact answer", t_fetch_example, node, d.port)

    return run_main(TAP, "test_integers.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
