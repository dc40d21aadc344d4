#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Slim answers and NDJSON answered while it uploads, against the real
grundyd on loopback.

- "explain": false drops "winning_moves", "why" and "explanation" and changes nothing else, on
  /v1/analyze (the Nim fast path and the general path, several games), in a
  JSON batch and on NDJSON lines, and through `grundy query`; /v1/moves takes
  it (its moves carry no explanation either way). Anything but true, false
  or null is a 422 invalid_field naming "explain" on every route. The
  catalogue lists it among the common fields (boolean, default true).
- NDJSON over a Content-Length body: the first answers arrive while the
  upload is half sent (raw socket: send half the lines, read an answer with
  a bounded wait, then send the rest); also gzip-coded and with
  integers=string. Order is kept, malformed lines are answered in place.
- A client that sends its whole body before it reads anything does not
  deadlock; one that disconnects half-way leaves the daemon serving; neither
  writes an httpd warning for a stream that ended well.
- SIGTERM while an upload is half sent: after the drain time the stream
  ends with a shutting_down line and the daemon exits.
- A second stream while an upload holds the duplex slot is answered once
  whole.
- A long duplex stream keeps the daemon's RSS bounded (sampled from /proc;
  a loose bound at a small scale: bench/ndjson.sh measures the real one).

Usage: test_ndjson_slim.py path/to/grundyd path/to/grundy. Prints TAP."""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import HOST, Client, Daemon, Tap, rss_kb, run_main  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 200
NDJSON = {"Content-Type": "application/x-ndjson"}
WAIT = 10  # seconds, for any one read from the daemon

SLIM_QUERIES = [
    {"game": "nim", "piles": [3, 4, 5]},                              # the fast path
    {"game": "nim", "piles": [1, 2, 3]},                              # fast path, second player wins
    {"game": "nim", "piles": [3, 4, 5], "convention": "misere"},      # general path
    {"game": "nim", "piles": [3, 0, 5], "compound": "selective"},
    {"game": "wythoff", "piles": [4, 9]},
    {"game": "subtraction", "moves": [1, 4, 7], "piles": [10, 20]},
    {"game": "fibonacci", "n": 20},
    {"game": "divisor", "n": 1000},
    {"game": "tictactoe", "board": "X.O......"},
    {"game": "graph", "edges": [[0, 1], [1, 2]], "tokens": [0]},
]


def ordered(raw):
    return json.loads(raw, object_pairs_hook=list)


def without_explanation(pairs):
    """The members a slim answer keeps: all but the three for people."""
    return [kv for kv in pairs if kv[0] not in ("winning_moves", "why", "explanation")]


def has_member(raw, name):
    return ('"%s":' % name).encode() in raw


def t_slim_analyze(port):
    p = []
    c = Client(port)
    for q in SLIM_QUERIES:
        full = c.post(q)
        slim = c.post(dict(q, explain=False))
        same = c.post(dict(q, explain=True))
        null = c.post(dict(q, explain=None))
        if full.status != 200 or slim.status != 200:
            p.append("%r: status %d full, %d slim: %r" % (q, full.status, slim.status, slim.raw[:200]))
            continue
        if not has_member(full.raw, "explanation"):
            p.append("%r: the full answer has no explanation: %r" % (q, full.raw[:200]))
        if has_member(slim.raw, "explanation"):
            p.append("%r: the slim answer has an explanation: %r" % (q, slim.raw[:300]))
        if ordered(slim.raw) != without_explanation(ordered(full.raw)):
            p.append("%r: slim is not the full answer less winning_moves, why and explanation:\n%r\n%r"
                     % (q, slim.raw[:300], full.raw[:300]))
        for r, what in ((same, "true"), (null, "null")):
            if r.raw != full.raw:
                p.append("%r with explain %s differs from without it: %r" % (q, what, r.raw[:200]))
    c.close()
    return p


def t_slim_moves(port):
    p = []
    c = Client(port)
    for q in ({"game": "nim", "piles": [3, 4]}, {"game": "wythoff", "piles": [2, 3]}):
        a = c.request("POST", "/v1/moves", q)
        b = c.request("POST", "/v1/moves", dict(q, explain=False))
        if a.status != 200 or b.status != 200 or a.raw != b.raw:
            p.append("/v1/moves %r: explain false changed the answer: %d %r / %d %r"
                     % (q, a.status, a.raw[:200], b.status, b.raw[:200]))
        if has_member(b.raw, "explanation"):
            p.append("/v1/moves %r: an explanation: %r" % (q, b.raw[:200]))
    c.close()
    return p


def t_slim_batches(port):
    p = []
    c = Client(port)
    queries = [dict(q, explain=bool(i % 2)) for i, q in enumerate(SLIM_QUERIES)]
    r = c.request("POST", "/v1/batch", {"queries": queries})
    if r.status != 200:
        return ["JSON batch: %d %r" % (r.status, r.raw[:300])]
    results = json.loads(r.raw)["results"]
    lines = b"".join(json.dumps(q).encode() + b"\n" for q in queries)
    nd = c.request("POST", "/v1/batch", lines, NDJSON)
    out = nd.raw.split(b"\n")[:-1]
    if nd.status != 200 or len(out) != len(queries):
        return p + ["NDJSON batch: %d, %d lines: %r" % (nd.status, len(out), nd.raw[:300])]
    for i, q in enumerate(queries):
        single = c.post(q)
        if json.loads(single.raw) != results[i]:
            p.append("JSON batch entry %d differs from /v1/analyze: %r" % (i, results[i]))
        if out[i] != single.raw:
            p.append("NDJSON line %d differs from /v1/analyze: %r" % (i, out[i][:200]))
        if q["explain"] != has_member(single.raw, "explanation"):
            p.append("query %d (explain %r): explanation present %r" % (i, q["explain"], not q["explain"]))
    c.close()
    return p


def t_slim_cli(grundy):
    p = []
    q = json.dumps({"game": "nim", "piles": [3, 4, 5], "explain": False})
    r = subprocess.run([grundy, "query", q], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    if r.returncode != 0 or has_member(r.stdout, "explanation") or b'"grundy":2' not in r.stdout:
        p.append("grundy query %s: exit %d, %r %r" % (q, r.returncode, r.stdout[:300], r.stderr[:200]))
    bad = json.dumps({"game": "nim", "piles": [3], "explain": "no"})
    r = subprocess.run([grundy, "query", bad], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    if r.returncode == 0 or b"explain" not in r.stdout + r.stderr:
        p.append("grundy query %s: exit %d, %r %r" % (bad, r.returncode, r.stdout[:300], r.stderr[:200]))
    return p


BAD_EXPLAINS = ["false", 0, 1, [], {}, "yes"]


def explain_error(raw, what):
    try:
        e = json.loads(raw)["error"]
    except (ValueError, KeyError, TypeError):
        return ["%s: not an error: %r" % (what, raw[:200])]
    if e.get("code") != "invalid_field" or e.get("field") != "explain" or "true or false" not in e.get("message", ""):
        return ["%s: %r" % (what, e)]
    return []


def t_explain_validated(port):
    p = []
    c = Client(port)
    for v in BAD_EXPLAINS:
        q = {"game": "nim", "piles": [1, 2], "explain": v}
        for path in ("/v1/analyze", "/v1/moves"):
            r = c.request("POST", path, q)
            if r.status != 422:
                p.append("%s explain %r: status %d" % (path, v, r.status))
            p += explain_error(r.raw, "%s explain %r" % (path, v))
        r = c.request("POST", "/v1/batch", {"queries": [q]})
        p += explain_error(json.dumps(json.loads(r.raw)["results"][0]), "JSON batch explain %r" % (v,))
        r = c.request("POST", "/v1/batch", json.dumps(q) + "\n", NDJSON)
        p += explain_error(r.raw.split(b"\n")[0], "NDJSON explain %r" % (v,))
    r = c.request("GET", "/v1/games")
    common = {f["name"]: f for f in json.loads(r.raw)["common_fields"]}
    e = common.get("explain")
    if not e or e.get("type") != "boolean" or e.get("default") is not True or e.get("required"):
        p.append("the catalogue's common field explain: %r" % (e,))
    c.close()
    return p


# ---- raw HTTP for the duplex streams -----------------------------------------


def post_head(n, extra=""):
    return ("POST /v1/batch%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
            "Content-Length: %d\r\n\r\n" % (extra, n)).encode()


class ChunkedReader:
    """Reads a chunked response from a socket as data arrives: head() the
    status line and headers, then more() the next bytes of the body."""

    def __init__(self, sock):
        self.s = sock
        self.buf = b""
        self.done = False
        self.left = 0  # bytes left in the current chunk
        self.crlf = False  # the CRLF after a chunk's bytes is still to skip

    def _fill(self):
        d = self.s.recv(1 << 18)
        if not d:
            raise EOFError("the connection closed early")
        self.buf += d

    def head(self):
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        h, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = h.decode("latin-1").split("\r\n")
        return int(lines[0].split()[1]), {k.lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:])}

    def more(self):
        """Some body bytes (at least one), or b"" at the end."""
        while not self.done:
            if self.left == 0:
                if self.crlf:
                    while len(self.buf) < 2:
                        self._fill()
                    self.buf = self.buf[2:]
                    self.crlf = False
                while b"\r\n" not in self.buf:
                    self._fill()
                size, self.buf = self.buf.split(b"\r\n", 1)
                self.left = int(size, 16)
                if self.left == 0:
                    self.done = True
                    return b""
            if not self.buf:
                self._fill()
            take = self.buf[:self.left]
            self.buf = self.buf[len(take):]
            self.left -= len(take)
            self.crlf = self.left == 0
            return take
        return b""


def nim_lines(n, seed, slim=False):
    rng = random.Random(seed)
    piles = [[rng.randrange(10 ** 18) for _ in range(3)] for _ in range(n)]
    tail = ',"explain":false}' if slim else "}"
    return piles, [('{"id":%d,"game":"nim","piles":[%s]%s\n' % (i, ",".join(map(str, ps)), tail)).encode()
                   for i, ps in enumerate(piles)]


def xor(ps):
    x = 0
    for v in ps:
        x ^= v
    return x


def check_answers(text, piles, what, string_ints=False):
    p = []
    out = text.split(b"\n")
    if out and out[-1] == b"":
        out.pop()
    if len(out) != len(piles):
        return ["%s: %d answers for %d lines" % (what, len(out), len(piles))]
    for i, (line, ps) in enumerate(zip(out, piles)):
        a = json.loads(line)
        g = xor(ps)
        want_id, want_g = (str(i), str(g)) if string_ints else (i, g)
        if a.get("id") != want_id or a.get("grundy") != want_g:
            p.append("%s: line %d answered %r" % (what, i, line[:200]))
            break
    return p


def t_duplex_half(port, gzip=False, ints=False):
    """Half the lines sent, an answer read before the rest is sent."""
    p = []
    piles, lines = nim_lines(400, 5 if gzip else 3)
    body = b"".join(lines)
    half = sum(map(len, lines[:200]))
    extra = "?integers=string" if ints else ""
    s = socket.create_connection((HOST, port), timeout=WAIT)
    try:
        head = post_head(len(body), extra)
        if gzip:
            head = head.replace(b"\r\n\r\n", b"\r\nAccept-Encoding: gzip\r\n\r\n")
        s.sendall(head + body[:half])
        r = ChunkedReader(s)
        status, headers = r.head()
        if status != 200 or headers.get("transfer-encoding") != "chunked":
            return ["status %d, headers %r" % (status, headers)]
        if (headers.get("content-encoding") == "gzip") != gzip:
            p.append("Content-Encoding %r with gzip %r" % (headers.get("content-encoding"), gzip))
        z = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
        got = b""
        t0 = time.monotonic()
        while b"\n" not in got:  # bounded by the socket's timeout
            piece = r.more()
            if not piece:
                return p + ["the stream ended before the rest of the body was sent"]
            got += z.decompress(piece) if z else piece
        first_after = time.monotonic() - t0
        first = json.loads(got.split(b"\n")[0])
        if first.get("id") != ("0" if ints else 0):
            p.append("the first answer is not line 0's: %r" % first)
        s.sendall(body[half:])
        while True:
            piece = r.more()
            if not piece:
                break
            got += z.decompress(piece) if z else piece
        if z:
            got += z.flush()
        p += check_answers(got, piles, "duplex stream", string_ints=ints)
        TAP.diag("first answer %.3f s after the head, with half the body sent" % first_after)
    finally:
        s.close()
    return p


def t_duplex_malformed(port):
    lines = [b'{"game":"nim","piles":[1,2]}', b"not json", b"", b'{"game":"nim"}',
             b'{"game":"nim","piles":[5,6],"explain":false}'] * 50
    body = b"\n".join(lines) + b"\n"
    s = socket.create_connection((HOST, port), timeout=WAIT)
    try:
        s.sendall(post_head(len(body)) + body[:len(body) // 2])
        time.sleep(0.1)
        s.sendall(body[len(body) // 2:])
        r = ChunkedReader(s)
        status, _ = r.head()
        got = b""
        while True:
            piece = r.more()
            if not piece:
                break
            got += piece
    finally:
        s.close()
    out = got.split(b"\n")[:-1]
    if status != 200 or len(out) != len(lines):
        return ["status %d, %d answers for %d lines" % (status, len(out), len(lines))]
    want = [("grundy", 3), ("error", "bad_json"), ("error", "bad_json"), ("error", "missing_field"), ("grundy", 3)]
    for i, line in enumerate(out):
        a = json.loads(line)
        key, v = want[i % 5]
        have = a.get("grundy") if key == "grundy" else a.get("error", {}).get("code")
        if have != v:
            return ["line %d %r answered %r" % (i, lines[i], line[:200])]
    return []


def t_duplex_no_read(port):
    """The whole body sent before anything is read: far more answer bytes
    than the socket buffers hold, and still no deadlock."""
    piles, lines = nim_lines(30000, 9)
    body = b"".join(lines)
    s = socket.create_connection((HOST, port), timeout=30)
    try:
        s.sendall(post_head(len(body)) + body)
        r = ChunkedReader(s)
        status, _ = r.head()
        pieces = []
        while True:
            piece = r.more()
            if not piece:
                break
            pieces.append(piece)
        got = b"".join(pieces)
    finally:
        s.close()
    TAP.diag("%.1f MB in, %.1f MB out, read only after the whole body was sent" % (len(body) / 1e6, len(got) / 1e6))
    return ["status %d" % status] if status != 200 else check_answers(got, piles, "send-all-then-read")


def streams_ended(d):
    """The access lines of finished NDJSON streams so far."""
    return sum("route=/v1/batch" in line for line in d.log())


DISCONNECTS = ["mid-upload"] * 3 + ["mid-answer"] * 6


def t_duplex_disconnect(d):
    """Clients that go mid-upload and mid-answer (closing with answers
    unread: a reset): each stream ends at once, not at --conn-timeout, and
    a stream after them is answered."""
    p = []
    _, lines = nim_lines(2000, 4)
    body = b"".join(lines)
    for cut in DISCONNECTS:
        ended = streams_ended(d)
        s = socket.create_connection((HOST, d.port), timeout=WAIT)
        s.sendall(post_head(len(body)) + (body[:len(body) // 2] if cut == "mid-upload" else body))
        if cut == "mid-answer":
            s.recv(100)
        s.close()
        t0 = time.monotonic()
        while streams_ended(d) == ended and time.monotonic() - t0 < 5:
            time.sleep(0.05)
        if streams_ended(d) == ended:
            p.append("%s: the stream had not ended 5 s after its client went (--conn-timeout 30)" % cut)
    c = Client(d.port)
    piles, lines = nim_lines(50, 8)
    r = c.request("POST", "/v1/batch", b"".join(lines), NDJSON)
    p += check_answers(r.raw, piles, "a stream after the disconnects") if r.status == 200 else ["status %d" % r.status]
    c.close()
    return p


def t_no_httpd_warnings(d):
    warned = [l for l in d.log() if "event=httpd" in l and "incomplete request" in l]
    # at most one for each client that went (t_duplex_disconnect)
    return ["httpd warnings for streams: %r" % warned[:3]] if len(warned) > len(DISCONNECTS) else []


def read_all(sock):
    r = ChunkedReader(sock)
    status, headers = r.head()
    pieces = []
    while True:
        piece = r.more()
        if not piece:
            break
        pieces.append(piece)
    return status, headers, b"".join(pieces)


def t_duplex_and_fallback(port):
    """While one upload holds a duplex stream (the cap is half the compute
    threads, at least one), a second stream is answered once whole."""
    p = []
    piles_a, lines_a = nim_lines(200, 21)
    piles_b, lines_b = nim_lines(50, 22)
    body_a, body_b = b"".join(lines_a), b"".join(lines_b)
    a = socket.create_connection((HOST, port), timeout=WAIT)
    b = socket.create_connection((HOST, port), timeout=WAIT)
    try:
        a.sendall(post_head(len(body_a)) + body_a[:len(body_a) // 2])
        ra = ChunkedReader(a)
        status, _ = ra.head()
        got = [ra.more()]  # A is answering while it uploads
        b.sendall(post_head(len(body_b)) + body_b)
        time.sleep(0.2)
        a.sendall(body_a[len(body_a) // 2:])
        while True:
            piece = ra.more()
            if not piece:
                break
            got.append(piece)
        p += check_answers(b"".join(got), piles_a, "the duplex stream")
        status_b, headers_b, text_b = read_all(b)
        if status_b != 200:
            p.append("the second stream: status %d" % status_b)
        p += check_answers(text_b, piles_b, "the stream past the cap")
    finally:
        a.close()
        b.close()
    return p


def t_duplex_shutdown(d):
    """SIGTERM while a duplex upload waits for its second half: after the
    drain time the stream ends with a shutting_down line, and the daemon
    exits."""
    piles, lines = nim_lines(100, 1)
    body = b"".join(lines)
    s = socket.create_connection((HOST, d.port), timeout=WAIT)
    try:
        s.sendall(post_head(len(body)) + body[:len(body) // 2])
        r = ChunkedReader(s)
        status, _ = r.head()
        got = [r.more()]
        d.proc.send_signal(signal.SIGTERM)
        while True:
            piece = r.more()
            if not piece:
                break
            got.append(piece)
    finally:
        s.close()
    out = b"".join(got).split(b"\n")[:-1]
    p = [] if status == 200 else ["status %d" % status]
    if not out or json.loads(out[-1]).get("error", {}).get("code") != "shutting_down":
        p.append("the stream did not end with a shutting_down line: %r" % out[-1:])
    p += check_answers(b"\n".join(out[:-1]) + b"\n", piles[:len(out) - 1], "answers before the stop")
    try:
        rc = d.proc.wait(WAIT)
        if rc != 0:
            p.append("grundyd exited %d" % rc)
    except subprocess.TimeoutExpired:
        p.append("grundyd still runs %d s after SIGTERM" % WAIT)
    return p


def t_duplex_rss(d, n=150000):
    pid = d.proc.pid
    c = Client(d.port)
    for i in range(20):
        c.post({"game": "nim", "piles": [i, 3]})
    c.close()
    time.sleep(0.2)
    base = rss_kb(pid)
    piles, lines = nim_lines(n, 12, slim=True)
    body = b"".join(lines)
    samples = []
    stop = threading.Event()

    def sampler():
        while not stop.is_set():
            v = rss_kb(pid)
            if v:
                samples.append(v)
            stop.wait(0.01)

    th = threading.Thread(target=sampler, daemon=True)
    th.start()
    s = socket.create_connection((HOST, d.port), timeout=30)
    out = 0
    try:
        def send():
            s.sendall(post_head(len(body)) + body)
        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        r = ChunkedReader(s)
        status, _ = r.head()
        tail = b""
        count = 0
        while True:
            piece = r.more()
            if not piece:
                break
            out += len(piece)
            tail = (tail + piece)[-4096:]
            count += piece.count(b"\n")
        sender.join(WAIT)
    finally:
        s.close()
        stop.set()
        th.join(2)
    peak = max(samples) if samples else None
    TAP.diag("duplex stream of %d slim lines (%.1f MB in, %.1f MB out): RSS %.1f MB before, peak %.1f MB"
             % (n, len(body) / 1e6, out / 1e6, (base or 0) / 1024, (peak or 0) / 1024))
    p = []
    if status != 200 or count != n:
        p.append("status %d, %d answers for %d lines" % (status, count, n))
    last = json.loads(tail.split(b"\n")[-2])
    if last.get("id") != n - 1 or last.get("grundy") != xor(piles[-1]) or "explanation" in last:
        p.append("the last answer: %r" % last)
    if base is None or peak is None:
        p.append("could not read VmRSS")
    elif peak - base > 64 * 1024:
        p.append("RSS grew by %.1f MB (bound 64 MB)" % ((peak - base) / 1024))
    return p


def main():
    if len(sys.argv) < 3:
        print("usage: test_ndjson_slim.py path/to/grundyd path/to/grundy", file=sys.stderr)
        return 2
    binary, grundy = sys.argv[1], sys.argv[2]

    def body():
        d = Daemon(binary)
        TAP.run("explain false: /v1/analyze answers lose explanation and nothing else (fast and general "
                "paths, ten games); true and null change nothing", t_slim_analyze, d.port)
        TAP.run("explain false: /v1/moves takes it, and its moves carry no explanation", t_slim_moves, d.port)
        TAP.run("explain per query in a JSON batch and on NDJSON lines, as /v1/analyze answers each",
                t_slim_batches, d.port)
        TAP.run("explain false through grundy query; a bad value is refused naming explain", t_slim_cli, grundy)
        TAP.run("explain other than true/false/null: 422 invalid_field naming explain on every route; "
                "the catalogue lists it (boolean, default true)", t_explain_validated, d.port)
        TAP.run("NDJSON: an answer arrives while half the body is still unsent, then the rest in order",
                t_duplex_half, d.port)
        TAP.run("NDJSON gzip: an answer decodes while half the body is still unsent",
                t_duplex_half, d.port, True)
        TAP.run("NDJSON integers=string while uploading", t_duplex_half, d.port, False, True)
        TAP.run("NDJSON while uploading: malformed, empty and invalid lines answered in place",
                t_duplex_malformed, d.port)
        TAP.run("NDJSON: a client that reads only after sending everything gets every answer (no deadlock)",
                t_duplex_no_read, d.port)
        TAP.run("NDJSON: a second stream while an upload holds the duplex slot is answered once whole",
                t_duplex_and_fallback, d.port)
        TAP.run("NDJSON: clients gone mid-upload and mid-answer; the daemon streams the next one",
                t_duplex_disconnect, d)
        TAP.run("streams that ended well log no httpd warning", t_no_httpd_warnings, d)
        d.stop()
        d = Daemon(binary)
        TAP.run("a long slim NDJSON stream while uploading: every answer, RSS within 64 MB of idle",
                t_duplex_rss, d)
        d.stop()
        d = Daemon(binary, "--drain-timeout", "1")
        TAP.run("SIGTERM during an upload: the stream ends with shutting_down after the drain time, "
                "the daemon exits", t_duplex_shutdown, d)

    return run_main(TAP, "test_ndjson_slim.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
