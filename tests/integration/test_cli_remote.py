#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests for `grundy --url`: the same commands answered by a
running grundyd over HTTP, through the CLI's own HTTP/1.1 client
(src/cli/http_client.c).

Usage: test_cli_remote.py path/to/grundy path/to/grundyd

Against a spawned grundyd: query, moves, games and batch (JSON and NDJSON,
from a file and streamed from stdin) answer byte for byte what the same
command answers in-process, with the same exit status. Against scripted
loopback servers: the request the client sends (chunked NDJSON with its
Content-Type), responses with Content-Length, chunked with extensions and
trailers, or delimited by the close, and the failures: refused, silent
past --timeout, a broken or non-HTTP answer, an error status without a
JSON body (exit 3), a JSON error passed through (exit 1). Prints TAP;
Python 3 stdlib only; every wait is bounded.
"""

import json
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 150
TAP = Tap(timing=False)


def run(args, stdin=b"", timeout=60):
    """(exit status, stdout bytes, stderr text, seconds)."""
    t0 = time.monotonic()
    p = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"), time.monotonic() - t0


QUERIES = [
    '{"game":"nim","piles":[3,4,5]}',
    '{"game":"nim","piles":[1000000000000000001,"1000000000000000000"]}',
    '{"game":"subtraction","moves":[1,4,7,11,15],"piles":[1000000000000000000,12]}',
    '{"game":"octal","code":"0.77","piles":[1000000000000000000]}',
    '{"game":"tictactoe","board":"X.O......"}',
    '{"game":"stone_front3","stones":[9223372036854775807,9223372036854775807,-5,9223372036854775807]}',
    '{"game":"graph","edges":[[0,1],[1,0],[1,2]],"tokens":[0,1]}',
    '{"game":"nmi","piles":[1]}',
    '{"game":"nim","piles":[1],"convetion":"misere"}',
    '{"game":"nim","piles":[9223372036854775808]}',
    'not json',
]


def t_query_same_as_local(grundy, url):
    p = []
    for q in QUERIES:
        for mode in ("--json", "--human"):
            local = run([grundy, "query", mode, q])
            remote = run([grundy, "query", mode, "--url", url, q])
            if local[:3] != remote[:3]:
                p.append("query %s %s: in-process %r, --url %r" % (mode, q, local[:3], remote[:3]))
    return p


def t_query_lines(grundy, url):
    # "id" belongs to batch queries: a line of `query -` is refused for it as
    # POST /v1/analyze and `query 'JSON'` refuse it, in-process as well.
    with_id = '{"id":7,"game":"nim","piles":[3]}'
    lines = "\n".join(QUERIES[:4] + ["", "  ", QUERIES[7], with_id, QUERIES[4]]).encode() + b"\n"
    p = []
    one = run([grundy, "query", "--json", with_id])
    each = run([grundy, "query", "--json", "-"], stdin=with_id.encode() + b"\n")
    if one[:3] != each[:3] or b"inapplicable_field" not in one[1]:
        p.append("query 'JSON' %r, query - %r for a query with an id" % (one[:3], each[:3]))
    for mode in ("--json", "--human"):
        local = run([grundy, "query", mode, "-"], stdin=lines)
        remote = run([grundy, "query", mode, "--url", url, "-"], stdin=lines)
        if local[:3] != remote[:3] or local[0] != 1:
            p.append("query %s -: in-process %r, --url %r" % (mode, local[:3], remote[:3]))
    return p


def t_moves_and_games(grundy, url):
    p = []
    for q in ('{"game":"nim","piles":[3,4,5],"limit":4}', '{"game":"nim","piles":[3,4,5],"limit":2,"cursor":"2"}',
              '{"game":"octal","code":"0.77","piles":[1000000000000000000],"limit":3}', '{"game":"chess"}'):
        local, remote = run([grundy, "moves", q]), run([grundy, "moves", "--url", url, q])
        if local[:3] != remote[:3]:
            p.append("moves %s: in-process %r, --url %r" % (q, local[:3], remote[:3]))
    for args in (["games"], ["games", "--json"]):
        local, remote = run([grundy] + args), run([grundy] + args + ["--url", url])
        if local[:3] != remote[:3] or local[0] != 0:
            p.append("%s: in-process %r, --url %r" % (" ".join(args), local[:3][:2], remote[:3][:2]))
    return p


def ndjson_lines(n, seed):
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        r = rnd.random()
        if r < 0.01:
            out.append("")
        elif r < 0.02:
            out.append('{"game":"chess"}')
        elif r < 0.5:
            out.append('{"game":"nim","piles":[%d,%d]}' % (rnd.randrange(2**63), i))
        else:
            out.append('{"game":"subtraction","moves":[1,3,4],"piles":[%d]}' % rnd.randrange(10**18))
    return ("\n".join(out) + "\n").encode()


def t_batch_ndjson(grundy, url, tmp):
    p = []
    data = ndjson_lines(20000, 7)
    path = os.path.join(tmp, "in.ndjson")
    with open(path, "wb") as f:
        f.write(data)
    local = run([grundy, "batch", path])
    if local[0] != 1 or local[1].count(b"\n") != 20000:
        return ["in-process batch: exit %d, %d lines" % (local[0], local[1].count(b"\n"))]
    for args, stdin in ((["batch", "--url", url, path], b""), (["batch", "--url", url, "-"], data)):
        remote = run([grundy] + args, stdin=stdin)
        if remote[:3] != local[:3]:
            p.append("%s: exit %d, %d bytes, stderr %r; in-process %d bytes"
                     % (" ".join(args[:1] + args[3:]), remote[0], len(remote[1]), remote[2], len(local[1])))
    good = b'{"game":"nim","piles":[1,2]}\n' * 500
    local, remote = run([grundy, "batch", "-"], stdin=good), run([grundy, "batch", "--url", url, "-"], stdin=good)
    if local[:3] != remote[:3] or remote[0] != 0:
        p.append("all good lines: in-process exit %d, --url exit %d" % (local[0], remote[0]))
    empty = run([grundy, "batch", "--url", url, "-"], stdin=b"")
    if empty[:3] != (0, b"", ""):
        p.append("empty input: %r" % (empty[:3],))
    return p


def t_batch_json(grundy, url):
    p = []
    bodies = [
        '{"queries":[{"game":"nim","piles":[1,2]},{"game":"chess"},{"game":"divisor","n":12}]}',
        '{"queries":[{"game":"nim","piles":[1,2]},{"game":"error","error":1}]}',
        '{"queries":[{"game":"nim","piles":[1,2]}]}',
        '{"queries":{}}',
        '[1,2',
    ]
    for body in bodies:
        local = run([grundy, "batch", "--json", "-"], stdin=body.encode())
        remote = run([grundy, "batch", "--json", "--url", url, "-"], stdin=body.encode())
        if local[:3] != remote[:3]:
            p.append("batch --json %s: in-process %r, --url %r" % (body, local[:3], remote[:3]))
    return p


# ---------------------------------------------------------------------------
# Scripted servers


class Scripted:
    """A loopback listener that, for each connection, reads the request
    (head and body, chunked or with Content-Length) and then runs
    respond(conn, request) in a thread. Records every request."""

    def __init__(self, respond):
        self.respond = respond
        self.requests = []
        self.sock = socket.socket()
        self.sock.bind((harness.HOST, 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.url = "http://%s:%d" % (harness.HOST, self.port)
        self.stopping = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stopping:
            try:
                conn, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn):
        conn.settimeout(10)
        try:
            req = read_request(conn)
            self.requests.append(req)
            self.respond(conn, req)
        except (OSError, ValueError):
            pass
        finally:
            conn.close()

    def close(self):
        self.stopping = True
        self.sock.close()
        self.thread.join(2)


def read_request(conn):
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = conn.recv(65536)
        if not d:
            raise ValueError("closed before the head")
        buf += d
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    body = b""
    if headers.get("transfer-encoding") == "chunked":
        while True:
            while b"\r\n" not in rest:
                rest += conn.recv(65536)
            size_line, rest = rest.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            while len(rest) < size + 2:
                rest += conn.recv(65536)
            body += rest[:size]
            rest = rest[size + 2:]
            if size == 0:
                break
    else:
        n = int(headers.get("content-length", "0"))
        while len(rest) < n:
            rest += conn.recv(65536)
        body = rest[:n]
    return {"line": lines[0], "headers": headers, "body": body}


def replying(raw):
    def respond(conn, req):
        for piece in raw if isinstance(raw, list) else [raw]:
            conn.sendall(piece)
            time.sleep(0.05)
    return respond


def t_request_and_framing(grundy):
    """The NDJSON request is chunked with its Content-Type; every framing of
    the answer is read whole."""
    p = []
    answer = b'{"game":"nim"}\n{"error":{"code":"x","message":"m","field":null}}\n'
    chunked = [b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n",
               b"5;ext=1\r\n" + answer[:5] + b"\r\n", b"%x\r\n" % (len(answer) - 5) + answer[5:] + b"\r\n",
               b"0\r\nX-Trailer: 1\r\n\r\n"]
    s = Scripted(replying(chunked))
    try:
        data = b"".join(b'{"game":"nim","piles":[%d]}\n' % i for i in range(30000))
        rc, out, err, _ = run([grundy, "batch", "--url", s.url + "/base/", "-"], stdin=data)
        req = s.requests[0] if s.requests else {}
        if rc != 1 or out != answer:
            p.append("chunked answer: exit %d (want 1: one error line), stdout %r, stderr %r" % (rc, out, err))
        if req.get("line") != "POST /base/v1/batch HTTP/1.1":
            p.append("request line %r" % req.get("line"))
        h = req.get("headers", {})
        if h.get("content-type") != "application/x-ndjson" or h.get("transfer-encoding") != "chunked":
            p.append("request headers %r" % h)
        if h.get("host") != "%s:%d" % (harness.HOST, s.port) or not h.get("user-agent", "").startswith("grundy/"):
            p.append("Host or User-Agent: %r" % h)
        if req.get("body") != data:
            p.append("the chunked request body differs from the input (%d of %d bytes)"
                     % (len(req.get("body", b"")), len(data)))
    finally:
        s.close()
    ok = b'{"game":"nim","convention":"normal","winner":"second","grundy":0,"components":[],"move":null,' \
         b'"next":null,"explanation":"e"}'
    for name, raw in (
            ("Content-Length", [b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                                % len(ok), ok[:10], ok[10:]]),
            ("close-delimited", [b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n", ok]),
            ("after a 100 Continue", [b"HTTP/1.1 100 Continue\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
                                      b"Content-Type: application/json\r\n\r\n" % len(ok) + ok])):
        s = Scripted(replying(raw))
        try:
            rc, out, err, _ = run([grundy, "query", "--json", "--url", s.url, '{"game":"nim","piles":[]}'])
            if rc != 0 or out != ok + b"\n":
                p.append("%s: exit %d, stdout %r, stderr %r" % (name, rc, out, err))
            req = s.requests[0] if s.requests else {}
            if req.get("headers", {}).get("content-length") != "25" or req.get("line") != "POST /v1/analyze HTTP/1.1":
                p.append("%s: the query went as %r" % (name, req))
        finally:
            s.close()
    return p


def t_streamed_out(grundy):
    """Answer lines reach stdout as they arrive, before the answer ends."""
    release = threading.Event()

    def respond(conn, req):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
                     b"6\r\n{\"a\":1\r\n")
        conn.sendall(b"2\r\n}\n\r\n")
        release.wait(10)
        conn.sendall(b"8\r\n{\"b\":2}\n\r\n0\r\n\r\n")

    s = Scripted(respond)
    p = []
    try:
        proc = subprocess.Popen([grundy, "batch", "--url", s.url, "-"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdin.write(b'{"game":"nim","piles":[1]}\n')
        proc.stdin.close()
        first, deadline = b"", time.monotonic() + 5
        while b"\n" not in first and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.2)
            piece = os.read(proc.stdout.fileno(), 100) if ready else b""
            first += piece
            if ready and not piece:
                break
        release.set()
        proc.stdin = None  # closed above; communicate() must not flush it
        rest, err = proc.communicate(timeout=10)
        if first != b'{"a":1}\n':
            p.append("the first answer line was not out before the answer ended: %r" % first)
        if rest != b'{"b":2}\n' or proc.returncode != 0:
            p.append("the rest: %r, exit %d, stderr %r" % (rest, proc.returncode, err))
    finally:
        release.set()
        s.close()
    return p


def t_failures(grundy):
    p = []
    q = '{"game":"nim","piles":[1]}'
    # refused: a port nobody listens on
    probe = socket.socket()
    probe.bind((harness.HOST, 0))
    dead = "http://%s:%d" % (harness.HOST, probe.getsockname()[1])
    probe.close()
    for args in (["query", "--url", dead, q], ["moves", "--url", dead, q], ["batch", "--url", dead, "-"],
                 ["games", "--url", dead]):
        rc, out, err, _ = run([grundy] + args, stdin=b"{}\n")
        if rc != 3 or out or "connection refused" not in err or dead not in err:
            p.append("%s refused: exit %d, stdout %r, stderr %r" % (args[0], rc, out, err))
    cases = [
        ("silent", None, 3, "timeout"),
        ("not HTTP", [b"SSH-2.0-OpenSSH\r\n\r\n"], 3, "not an HTTP"),
        ("broken body", [b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"game\""], 3, "middle of the answer"),
        ("bad chunk", [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"], 3, "chunk size"),
        # a chunk size is hex digits only (RFC 9112 section 7.1): no sign, blank or 0x
        ("negative chunk", [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n{}\r\n"], 3, "chunk size"),
        ("0x chunk", [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\n{}\r\n0\r\n\r\n"], 3,
         "chunk size"),
        ("blank chunk", [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n 2\r\n{}\r\n0\r\n\r\n"], 3,
         "chunk size"),
        ("HTML 502", [b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<h1>x</h1"],
         3, "HTTP 502"),
        ("JSON 422", [b"HTTP/1.1 422 Unprocessable\r\nContent-Type: application/json\r\nContent-Length: 53\r\n\r\n"
                      b'{"error":{"code":"x","message":"named","field":"f"}}\n'], 1, None),
        ("huge head", [b"HTTP/1.1 200 OK\r\n" + b"X: " + b"y" * 20000 + b"\r\n\r\n"], 3, "16 KiB"),
    ]
    for name, raw, want_rc, needle in cases:
        hold = threading.Event()
        s = Scripted(replying(raw) if raw else (lambda conn, req: hold.wait(10)))
        try:
            rc, out, err, dt = run([grundy, "query", "--json", "--url", s.url, "--timeout", "1", q])
            if rc != want_rc or (needle and needle not in err) or dt > 8:
                p.append("%s: exit %d (want %d), %.1f s, stdout %r, stderr %r" % (name, rc, want_rc, dt, out, err))
            if name == "JSON 422" and out != b'{"error":{"code":"x","message":"named","field":"f"}}\n\n':
                p.append("the JSON error is not passed through: %r" % out)
        finally:
            hold.set()
            s.close()
    return p


def main():
    if len(sys.argv) != 3:
        print("usage: test_cli_remote.py path/to/grundy path/to/grundyd", file=sys.stderr)
        return 2
    grundy, grundyd = sys.argv[1:]

    def body():
        import tempfile
        d = harness.Daemon(grundyd)
        url = "http://%s:%d" % (harness.HOST, d.port)
        TAP.result(True, "grundyd started at %s" % url)
        TAP.run("query --url: same bytes and exit status as in-process (JSON and words)",
                t_query_same_as_local, grundy, url)
        TAP.run("query --url -: one POST /v1/analyze per line, blank lines skipped", t_query_lines, grundy, url)
        TAP.run("moves --url and games --url: same as in-process", t_moves_and_games, grundy, url)
        with tempfile.TemporaryDirectory(prefix="grundy-remote-") as tmp:
            TAP.run("batch --url NDJSON (file and stdin, 20000 lines): same as in-process",
                    t_batch_ndjson, grundy, url, tmp)
        TAP.run("batch --json --url: same as in-process", t_batch_json, grundy, url)
        TAP.run("the client's request (chunked NDJSON, Host, path prefix) and every answer framing",
                t_request_and_framing, grundy)
        TAP.run("batch --url writes each answer line as it arrives", t_streamed_out, grundy)
        TAP.run("refused, silent, broken and non-grundyd answers exit 3; a JSON error passes through (1)",
                t_failures, grundy)
        rc = d.stop()
        TAP.result(rc == 0, "grundyd stopped with SIGTERM, exit 0", () if rc == 0 else ["exit %r" % rc])

    return run_main(TAP, "test_cli_remote.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
