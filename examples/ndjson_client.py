#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Streams queries to grundyd's POST /v1/batch as NDJSON and prints the
answers as they arrive. Python 3 standard library only.

Usage:
    ndjson_client.py URL              a few example queries, and a Nim pile of
                                      10^18 + 1 checked to come back exact
    ndjson_client.py URL FILE|-       the queries of FILE (- for stdin), one
                                      JSON object per line
    ndjson_client.py --raw URL FILE|- print the answer lines as the service
                                      sends them (NDJSON out)

URL is the service, e.g. http://127.0.0.1:8080.

The request body is sent with chunked transfer encoding from a generator,
so the queries never have to be held in memory or counted first: a pipe
that produces a million lines is streamed as it is read. The service
answers one line per query, in order, each either an answer or
{"error": {...}}, and the answers are read line by line as it streams them.

Python's int is exact at any size, so json.loads keeps every integer of an
answer as the service wrote it: 1000000000000000001 stays 1000000000000000001
(a float, as JavaScript's JSON.parse would make it, is 1000000000000000000).

Exit status: 0 when every query was answered, 1 when some line was an error
or the service refused the request, 2 for misuse or when the service could
not be reached.
"""

import http.client
import json
import sys
import urllib.parse

BIG_PILE = 10**18 + 1


def example_queries():
    """A few queries built as Python objects; json.dumps writes an int as
    its exact decimal digits."""
    yield {"game": "nim", "piles": [BIG_PILE, 3]}
    yield {"game": "nim", "piles": [3, 4, 5]}
    yield {"game": "subtraction", "moves": [1, 4, 7, 11, 15], "piles": [10**18, 12]}
    yield {"game": "wythoff", "piles": [10**18, 1618033988749894848]}
    yield {"game": "octal", "code": "0.77", "piles": [10**18]}
    yield {"game": "stone_front3", "stones": [2**63 - 1, 2**63 - 1, 2**63 - 1, -5]}


def ndjson_lines(queries):
    """One encoded line per query object."""
    for q in queries:
        yield (json.dumps(q, separators=(",", ":")) + "\n").encode("utf-8")


def file_lines(stream):
    """The lines of a binary stream, read lazily, each ending in a newline;
    blank lines are left out (the service answers one with an error)."""
    for line in stream:
        if line.strip():
            yield line if line.endswith(b"\n") else line + b"\n"


def connect(url):
    """An HTTPConnection to URL (http://HOST:PORT[/PREFIX]) and the batch path."""
    u = urllib.parse.urlsplit(url)
    if u.scheme != "http" or not u.hostname:
        raise ValueError("URL must look like http://HOST:PORT, not %r" % url)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=60)
    return conn, u.path.rstrip("/") + "/v1/batch"


def post_stream(conn, path, body_lines):
    """POSTs the lines as one chunked NDJSON body; returns the response,
    whose body is then read line by line."""
    conn.request("POST", path, body=body_lines, encode_chunked=True,
                 headers={"Content-Type": "application/x-ndjson",
                          "Transfer-Encoding": "chunked",
                          "Accept": "application/x-ndjson"})
    return conn.getresponse()


def summary(n, answer):
    """One readable line for answer number n."""
    tag = "#%d%s" % (n, " id=%s" % json.dumps(answer["id"]) if "id" in answer else "")
    if "error" in answer:
        e = answer["error"]
        return "%s error %s (field %s): %s" % (tag, e.get("code"), e.get("field"), e.get("message"))
    value = answer.get("grundy") if answer.get("grundy") is not None else answer.get("value")
    move = (answer.get("move") or {}).get("text", "no winning move")
    return "%s %s: winner %s, value %s; %s" % (tag, answer.get("game"), answer.get("winner"),
                                               json.dumps(value), move)


def check_big_pile(answer):
    """Lines showing that the 10^18 + 1 pile came back exactly."""
    size = answer["components"][0]["size"]
    exact = type(size) is int and size == BIG_PILE
    return ["exact: pile %d came back as %d (%s, %d digits): %s"
            % (BIG_PILE, size, type(size).__name__, len(str(size)), "equal" if exact else "DIFFERENT"),
            "       as a float it would have been %d" % int(float(BIG_PILE))], exact


def read_answers(resp, raw, out):
    """Prints each answer line as it arrives; returns (answers, errors,
    lines about the big pile, whether it was exact)."""
    n = errors = 0
    big_lines, big_exact = [], None
    while True:
        line = resp.readline()
        if not line:
            break
        answer = json.loads(line)
        if "error" in answer:
            errors += 1
        if raw:
            out.write(line.decode("utf-8"))
        else:
            out.write(summary(n, answer) + "\n")
            comps = answer.get("components") or []
            if answer.get("game") == "nim" and comps and comps[0].get("size") == BIG_PILE:
                big_lines, big_exact = check_big_pile(answer)
        out.flush()
        n += 1
    return n, errors, big_lines, big_exact


def run(url, body, raw, out=sys.stdout):
    """The whole exchange for the encoded query lines `body`; returns the
    exit status."""
    conn, path = connect(url)
    try:
        resp = post_stream(conn, path, body)
        if resp.status != 200:
            sys.stderr.write("ndjson_client: %s %d %s: %s\n"
                             % (url, resp.status, resp.reason, resp.read().decode("utf-8", "replace")))
            return 1
        n, errors, big_lines, big_exact = read_answers(resp, raw, out)
    finally:
        conn.close()
    if not raw:
        for line in big_lines:
            out.write(line + "\n")
        out.write("answered %d queries, %d errors\n" % (n, errors))
    if big_exact is False:
        return 1
    return 1 if errors else 0


def run_source(url, source, raw):
    """run() over the example queries (source None), stdin ("-") or a file."""
    if source is None:
        return run(url, ndjson_lines(example_queries()), raw)
    if source == "-":
        return run(url, file_lines(sys.stdin.buffer), raw)
    try:
        f = open(source, "rb")
    except OSError as e:
        sys.stderr.write("ndjson_client: %s\n" % e)
        return 2
    with f:
        return run(url, file_lines(f), raw)


def main(argv):
    args = argv[1:]
    raw = "--raw" in args
    args = [a for a in args if a != "--raw"]
    if len(args) not in (1, 2) or args[0] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    if raw and len(args) == 1:
        sys.stderr.write("ndjson_client: --raw needs a FILE or -\n")
        return 2
    try:
        return run_source(args[0], args[1] if len(args) == 2 else None, raw)
    except ValueError as e:
        sys.stderr.write("ndjson_client: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("ndjson_client: %s: %s\n" % (args[0], e))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
