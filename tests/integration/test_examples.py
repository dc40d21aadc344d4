#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests for examples/ndjson_client.py, the Python NDJSON batch
client, against a spawned grundyd and against a recording loopback server.

Usage: test_examples.py path/to/grundyd

- the built-in example queries: every one answered, the 10^18 + 1 pile and
  the stone_front3 value past 2^64 printed exactly, exit 0;
- --raw with queries on stdin: one answer line per query, in order, each
  byte-equal to what POST /v1/analyze answers for it; an error line gives
  exit 1;
- 20,000 queries from a producing pipe, streamed: every answer in order;
- on the wire: POST /v1/batch, Content-Type application/x-ndjson, the body
  chunked and holding the queries with their integers as digits;
- a non-200 answer exits 1, an unreachable service or misuse 2.
Prints TAP; Python 3 stdlib only; every subprocess has a timeout.
"""

import json
import os
import socket
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 100
TAP = Tap()
CLIENT = os.path.join(harness.REPO_ROOT, "examples", "ndjson_client.py")
BIG = 10**18 + 1


def client(args, stdin=b"", timeout=60):
    """(exit status, stdout, stderr) of the example client."""
    p = subprocess.run([sys.executable, CLIENT] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check_examples(url):
    rc, out, err = client([url])
    problems = [] if rc == 0 else ["exit %d, stderr %r" % (rc, err)]
    lines = out.splitlines()
    answers = [line for line in lines if line.startswith("#")]
    if len(answers) != 6 or any(" error " in line for line in answers):
        problems.append("expected 6 answers without errors: %r" % lines)
    wanted = ["exact: pile %d came back as %d (int, 19 digits): equal" % (BIG, BIG),
              "as a float it would have been 1000000000000000000",
              "value 27670116110564327426",  # 3 * (2^63 - 1) + 5, past 2^64
              "answered 6 queries, 0 errors"]
    problems += ["output lacks %r: %r" % (w, out) for w in wanted if w not in out]
    return problems


def check_raw(url, port):
    queries = [{"game": "nim", "piles": [BIG, 3]}, {"game": "divisor", "n": 12},
               {"game": "nim", "piles": [-1]}, {"game": "octal", "code": "0.77", "piles": [10**18]}]
    body = "".join(json.dumps(q) + "\n" for q in queries).encode()
    rc, out, err = client(["--raw", url, "-"], body)
    problems = [] if rc == 1 else ["exit %d with an error line, expected 1; stderr %r" % (rc, err)]
    got = out.splitlines()
    http = Client(port)
    try:
        want = [http.post(json.dumps(q)).raw.decode() for q in queries]
    finally:
        http.close()
    if got != want:
        problems.append("answer lines differ from /v1/analyze's bodies:\n%r\n%r" % (got, want))
    if len(got) > 2 and json.loads(got[2])["error"]["field"] != "piles[0]":
        problems.append("the third line should be the error naming piles[0]: %r" % got[2])
    return problems


def check_many(url):
    """20,000 queries from a producer process through a pipe."""
    n = 20000
    producer = subprocess.Popen(
        [sys.executable, "-c",
         "import sys\nfor i in range(%d): sys.stdout.write('{\"game\":\"nim\",\"piles\":[%%d]}\\n' %% (%d + i))"
         % (n, BIG)], stdout=subprocess.PIPE)
    try:
        p = subprocess.run([sys.executable, CLIENT, "--raw", url, "-"], stdin=producer.stdout,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    finally:
        producer.stdout.close()
        producer.wait(10)
    problems = [] if p.returncode == 0 else ["exit %d: %r" % (p.returncode, p.stderr[-500:])]
    lines = p.stdout.splitlines()
    if len(lines) != n:
        return problems + ["%d answer lines for %d queries" % (len(lines), n)]
    for i, line in enumerate(lines):
        size = json.loads(line)["components"][0]["size"]
        if size != BIG + i:
            return problems + ["answer %d has pile %r, expected %d" % (i, size, BIG + i)]
    return problems


class Recorder:
    """A loopback server that reads one request head and its chunked body,
    records both and answers `reply`."""

    def __init__(self, reply):
        self.reply = reply
        self.head = b""
        self.body = b""
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.sock.settimeout(20)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        conn, _ = self.sock.accept()
        conn.settimeout(20)
        data = b""
        with conn:
            while b"\r\n0\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            self.head, _, rest = data.partition(b"\r\n\r\n")
            self.body = dechunk(rest)
            conn.sendall(self.reply)
        self.sock.close()


def dechunk(data):
    """The payload of a chunked body (raises ValueError when malformed)."""
    out = b""
    while True:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return out
        out += data[:size]
        if data[size:size + 2] != b"\r\n":
            raise ValueError("chunk of %d bytes not followed by CRLF" % size)
        data = data[size + 2:]


def check_wire():
    answer = b'{"game":"nim","grundy":1}\n'
    rec = Recorder(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: %d\r\n"
                   b"Connection: close\r\n\r\n%s" % (len(answer), answer))
    rc, out, err = client(["--raw", "http://127.0.0.1:%d" % rec.port, "-"],
                          b'{"game":"nim","piles":[1000000000000000001]}\n\n{"game":"divisor","n":12}\n')
    rec.thread.join(20)
    head = rec.head.decode("latin-1").lower()
    problems = [] if rc == 0 and out == answer.decode() else ["exit %d, stdout %r, stderr %r" % (rc, out, err)]
    for want in ("post /v1/batch http/1.1", "content-type: application/x-ndjson", "transfer-encoding: chunked"):
        if want not in head:
            problems.append("request head lacks %r: %r" % (want, rec.head))
    if "content-length" in head:
        problems.append("a streamed body has no Content-Length: %r" % rec.head)
    if rec.body != b'{"game":"nim","piles":[1000000000000000001]}\n{"game":"divisor","n":12}\n':
        problems.append("body as received: %r" % rec.body)
    return problems


def check_refused(port):
    """A 413 from the service: its error body on stderr, exit 1."""
    rec = Recorder(b"HTTP/1.1 413 Content Too Large\r\nContent-Type: application/json\r\nContent-Length: 17\r\n"
                   b"Connection: close\r\n\r\n{\"error\":\"big\"}\r\n")
    rc, out, err = client(["--raw", "http://127.0.0.1:%d" % rec.port, "-"], b'{"game":"nim","piles":[1]}\n')
    rec.thread.join(20)
    problems = [] if rc == 1 else ["exit %d for a 413, expected 1" % rc]
    if "413" not in err or "big" not in err:
        problems.append("stderr should name the status and body: %r" % err)
    rc, out, err = client(["http://127.0.0.1:%d" % port])
    if rc != 2 or "refused" not in err.lower():
        problems.append("unreachable: exit %d, stderr %r" % (rc, err))
    for args in ([], ["ftp://x"], ["--raw", "http://127.0.0.1:1"], ["a", "b", "c"],
                 ["http://127.0.0.1:%d" % port, "/nonexistent/queries.ndjson"]):
        rc, _, err = client(args)
        if rc != 2:
            problems.append("misuse %r: exit %d, expected 2" % (args, rc))
    return problems


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    grundyd = sys.argv[1]

    def body():
        d = Daemon(grundyd)
        url = "http://127.0.0.1:%d" % d.port
        TAP.run("the example queries: all answered, 10^18 + 1 and a value past 2^64 exact", check_examples, url)
        TAP.run("--raw from stdin: each line equals /v1/analyze's answer, an error line exits 1",
                check_raw, url, d.port)
        TAP.run("20,000 queries streamed from a pipe, answered in order", check_many, url)
        TAP.run("the request: POST /v1/batch, application/x-ndjson, chunked, integers as digits", check_wire)
        TAP.run("a refused batch exits 1; unreachable and misuse exit 2", check_refused, closed_port())

    return run_main(TAP, "test_examples.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
