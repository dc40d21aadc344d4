#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The front door against hostile and careless clients (src/server/front/, src/server/mhd/every_head.c).

Usage: test_front.py path/to/grundyd

- the path is the path: a URL that decodes to a control byte (%00) is a
  400, never the route its prefix names;
- the request heads libmicrohttpd would answer itself in HTML, or not at
  all, get the service's JSON errors, with one status line: a transfer
  coding other than chunked (501), a URL over --max-url (414), headers over
  --max-header (431), both Transfer-Encoding and Content-Length (400);
- the acceptor (src/server/front/acceptor.c) answers in JSON, once, every first
  head of a connection libmicrohttpd would answer itself: a bad request
  line or header line (400), an HTTP version other than 1.0 and 1.1 (505),
  a Content-Length not digits or given twice (400) or past 2^64 (413, not
  a head sent twice), a head past libmicrohttpd's memory (414, 431), and a
  bad chunk or trailer among the bytes that came with it (400); good heads
  and chunks pass, whole or in pieces;
- later heads of a keep-alive or pipelined connection, and chunks that come
  after the first head's bytes, are libmicrohttpd's: what it refuses gets
  its own answer (HTML, or none) and the connection closes; the daemon goes
  on serving;
- lingering: a client that writes a whole 6 MB body before reading (Python's
  urllib) sees the 413 or 404, not a broken pipe; past --linger-bytes the
  connection is closed;
- slow clients: a head trickled past --header-timeout is cut with a 408;
  with --conn-limit connections held, a new one gets a 503 with Retry-After
  at once, unless one of them is a keep-alive connection idle between
  requests, which is closed to make room; --per-ip-limit answers the
  connections over it 503 too.

Small limits keep every wait short; a watchdog bounds the whole run.
Python 3 stdlib only; prints TAP.
"""

import json
import os
import socket
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import HOST, Daemon, Resp, Tap, record_response, run_main  # noqa: E402

WATCHDOG_SECONDS = 100
TAP = Tap()


def exchange(port, data, timeout=5, shut=False):
    """Sends data on a fresh socket and reads until the server closes, one
    whole response came (unless shut), or the timeout; returns (bytes
    received, seconds until the close or the response, or None)."""
    s = socket.create_connection((HOST, port), timeout=timeout)
    t0 = time.monotonic()
    out = b""
    closed = None
    try:
        s.sendall(data)
        if shut:
            s.shutdown(socket.SHUT_WR)
        while True:
            try:
                d = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = time.monotonic() - t0
                break
            if not d:
                closed = time.monotonic() - t0
                break
            out += d
            if one_response_done(out) and not shut:
                closed = time.monotonic() - t0
                break
    finally:
        s.close()
    return out, closed


def one_response_done(buf):
    head, sep, rest = buf.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            return len(rest) >= int(v.strip())
    return False


def read_one(s):
    """Reads one whole response from s (or what came before it closed)."""
    out = b""
    while not one_response_done(out):
        d = s.recv(65536)
        if not d:
            break
        out += d
    return out


def parse(raw):
    """The one response in raw: (Resp, problems). More than one status line
    (a response framed twice) is a problem."""
    p = []
    if raw.count(b"HTTP/1.1 ") != 1:
        p.append("want exactly one status line, got %d: %r" % (raw.count(b"HTTP/1.1 "), raw[:400]))
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return None, p + ["no status line: %r" % raw[:200]]
    headers = []
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers.append((k.strip(), v.strip()))
    return Resp(status, headers, body), p


def json_error(raw, status, code, what):
    """Problems of raw as the one JSON error {status, code}; the answer is
    recorded for the check against openapi.yaml (x-other-responses, the
    front door's answers to any path)."""
    r, p = parse(raw)
    p = ["%s: %s" % (what, x) for x in p]
    if r is None:
        return p or ["%s: no response" % what]
    record_response("GET", "/front-door", r.status, r.headers, r.raw)
    if r.status != status:
        return p + ["%s: status %d, want %d: %r" % (what, r.status, status, raw[:300])]
    if not (r.header("Content-Type") or "").startswith("application/json"):
        p.append("%s: Content-Type %r, want JSON" % (what, r.header("Content-Type")))
    try:
        e = json.loads(r.raw)["error"]
        if e["code"] != code or not e["message"] or "field" not in e:
            p.append("%s: error %r, want code %s" % (what, e, code))
    except (ValueError, KeyError, TypeError):
        p.append("%s: body is not a JSON error: %r" % (what, r.raw[:200]))
    return p


def get(path, extra=b""):
    return b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n" + extra + b"\r\n"


def post(path, body, extra=b""):
    return (b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + extra +
            b"Content-Length: %d\r\n\r\n" % len(body) + body)


# ---------------------------------------------------------------------------
# 1. the path is the path


def t_nul_path(port):
    p = []
    nim = b'{"game":"nim","piles":[1]}'
    for what, req in (("GET /healthz%00", get(b"/healthz%00")),
                      ("GET /healthz%00x", get(b"/healthz%00x")),
                      ("GET /healthz%0a", get(b"/healthz%0a")),
                      ("GET /v1/games?integers=number%00", get(b"/v1/games?integers=number%00")),
                      ("POST /v1/analyze%00x", post(b"/v1/analyze%00x", nim)),
                      ("POST /v1/analyze%1f", post(b"/v1/analyze%1f", nim))):
        raw, _ = exchange(port, req)
        p += json_error(raw, 400, "bad_request", what)
    raw, _ = exchange(port, get(b"/healthz/"))
    p += json_error(raw, 404, "not_found", "GET /healthz/")
    raw, _ = exchange(port, get(b"/health%7a"))  # %7a is z: decoded, it is the route
    r, q = parse(raw)
    if r is None or r.status != 200:
        p.append("GET /health%%7a (an encoded z) should be /healthz: %r" % raw[:200])
    return p


# ---------------------------------------------------------------------------
# 2. heads libmicrohttpd answers itself


def t_transfer_codings(port):
    p = []
    body = b'{"game":"nim","piles":[1]}'
    for te in (b"gzip", b"gzip, chunked", b"identity", b"chunked, gzip", b"chunked "):
        req = (b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: " + te + b"\r\n\r\n" + body)
        t0 = time.monotonic()
        raw, _ = exchange(port, req, timeout=3)
        dt = time.monotonic() - t0
        p += json_error(raw, 501, "unsupported_transfer_coding", "Transfer-Encoding: %s" % te.decode())
        if dt > 2:
            p.append("Transfer-Encoding: %s answered after %.1f s" % (te.decode(), dt))
    req = (b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\nContent-Length: 26\r\n\r\n1a\r\n" + body + b"\r\n0\r\n\r\n")
    raw, _ = exchange(port, req)
    p += json_error(raw, 400, "bad_request", "Transfer-Encoding and Content-Length")
    req = (b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n1a\r\n" + body + b"\r\n0\r\n\r\n")
    raw, _ = exchange(port, req)
    r, q = parse(raw)
    if r is None or r.status != 200 or q:
        p.append("a chunked query: %r" % raw[:300])
    return p


def t_long_url(port):
    p = []
    for n in (9000, 40000):
        path = b"/v1/games?x=" + b"a" * n
        raw, _ = exchange(port, get(path))
        p += json_error(raw, 414, "url_too_long", "a %d-byte URL" % len(path))
    raw, _ = exchange(port, get(b"/healthz?x=" + b"a" * 7000))
    r, q = parse(raw)
    if r is None or r.status != 200:
        p.append("a 7 KB URL, under --max-url: %r" % raw[:200])
    return p


def t_big_headers(port):
    p = []
    many = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"b" * 2000) for i in range(20))
    raw, _ = exchange(port, get(b"/healthz", many))
    p += json_error(raw, 431, "headers_too_large", "40 KB of headers")
    one = b"X-Pad: " + b"c" * 17000 + b"\r\n"
    raw, _ = exchange(port, post(b"/v1/analyze", b'{"game":"nim","piles":[1]}', one))
    p += json_error(raw, 431, "headers_too_large", "one 17 KB header on a POST")
    raw, _ = exchange(port, get(b"/healthz", b"X-Pad: " + b"d" * 12000 + b"\r\n"))
    r, q = parse(raw)
    if r is None or r.status != 200:
        p.append("12 KB of headers, under --max-header: %r" % raw[:200])
    return p


NIM = b'{"game":"nim","piles":[1]}'
# The first heads libmicrohttpd 0.9.75 answers itself, in HTML (the bad
# Content-Lengths with their head sent twice), or not at all; as a
# connection's first head, the acceptor answers each in JSON, framed once.
MHD_OWN = (
    ("Content-Length: -1", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n" + NIM,
     400, "bad_request"),
    ("Content-Length: 1e3", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n" + NIM,
     400, "bad_request"),
    ("a 20-digit Content-Length",
     b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n" + NIM,
     413, "body_too_large"),
    ("two Content-Length headers", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 26\r\n"
     b"Content-Length: 26\r\n\r\n" + NIM, 400, "bad_request"),
    ("a bad chunk size", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"zz\r\n" + NIM + b"\r\n0\r\n\r\n", 400, "bad_request"),
    ("a chunk longer than its size", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
     b"\r\n4\r\n" + NIM + b"\r\n0\r\n\r\n", 400, "bad_request"),
    ("HTTP/2.0", b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505, "http_version_not_supported"),
    ("a CR without its LF before the request line", b"\r\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400,
     "bad_request"),
    ("a request line starting with CR", b"\rGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_request"),
    ("HTTP/0.9", b"GET /healthz HTTP/0.9\r\nHost: x\r\n\r\n", 505, "http_version_not_supported"),
    ("no version", b"GET /healthz\r\nHost: x\r\n\r\n", 400, "bad_request"),
    ("a request line of one word", b"HELLO\r\n\r\n", 400, "bad_request"),
    ("two spaces in the request line", b"GET  /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_request"),
    ("a header line without a colon", get(b"/healthz", b"NoColonHere\r\n"), 400, "bad_request"),
    ("a folded header line", get(b"/healthz", b"X-A: 1\r\n  more\r\n"), 400, "bad_request"),
    ("a 100 KB header, past the connection memory",
     get(b"/healthz", b"X-Pad: " + b"e" * 100000 + b"\r\n"), 431, "headers_too_large"),
    ("a 100 KB request line", get(b"/healthz?x=" + b"f" * 100000), 414, "url_too_long"),
    ("3,000 short header lines", get(b"/healthz", b"a:\r\n" * 3000), 431, "headers_too_large"),
    ("2,000 query parameters", get(b"/healthz?" + b"&".join([b"a"] * 2000)), 414, "url_too_long"),
)


def t_mhd_own_answers(port):
    """Each first head libmicrohttpd would answer itself is a JSON error with
    one status line, at once."""
    p = []
    for what, req, status, code in MHD_OWN:
        t0 = time.monotonic()
        raw, _ = exchange(port, req, timeout=3)
        p += json_error(raw, status, code, what)
        if time.monotonic() - t0 > 2:
            p.append("%s: answered after %.1f s" % (what, time.monotonic() - t0))
    return p


def t_good_heads_pass(port):
    """Heads the acceptor must pass on: empty lines before the request line,
    bare LF line ends, a head split over several writes, a chunk extension,
    and a keep-alive connection's second request."""
    p = []
    for what, req in (("empty lines first", b"\r\n\r\n" + get(b"/healthz")),
                      ("bare LF", b"GET /healthz HTTP/1.1\nHost: x\n\n"),
                      ("HTTP/1.0", b"GET /healthz HTTP/1.0\r\n\r\n"),
                      ("a chunk extension", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
                       b"\r\n\r\n1a;x=y\r\n" + NIM + b"\r\n0\r\n\r\n")):
        raw, _ = exchange(port, req)
        r, q = parse(raw)
        if r is None or r.status != 200 or q:
            p.append("%s: %r" % (what, raw[:300]))
    s = socket.create_connection((HOST, port), timeout=5)
    try:
        req = get(b"/healthz")
        for piece in (req[:5], req[5:20], req[20:]):
            s.sendall(piece)
            time.sleep(0.1)
        out = read_one(s)
        r, q = parse(out)
        if r is None or r.status != 200 or q:
            p.append("a head in three writes: %r" % out[:300])
        s.sendall(post(b"/v1/analyze", NIM))
        out = read_one(s)
        r, q = parse(out)
        if r is None or r.status != 200 or q:
            p.append("the second request of a keep-alive connection: %r" % out[:300])
    finally:
        s.close()
    return p


def t_big_limits(binary):
    """With --max-header and --max-url at 1 MiB, heads larger than a socket's
    receive buffer are still read and answered at once (the acceptor hands
    what it cannot peek to libmicrohttpd), not left to the header timeout."""
    p = []
    d = Daemon(binary, "--max-header", "1048576", "--max-url", "1048576", "--header-timeout", "20")
    try:
        for pad, status in ((600000, 200), (1100000, 431)):
            t0 = time.monotonic()
            raw, _ = exchange(d.port, get(b"/healthz", b"X-Pad: " + b"g" * pad + b"\r\n"), timeout=10)
            dt = time.monotonic() - t0
            r, q = parse(raw)
            if r is None or r.status != status or q:
                p.append("a %d-byte header: want %d, got %r" % (pad, status, raw[:200]))
            if status != 200:
                p += json_error(raw, status, "headers_too_large", "a %d-byte header" % pad)
            if dt > 5:
                p.append("a %d-byte header answered after %.1f s" % (pad, dt))
    finally:
        d.kill()
    return p


def split_first(raw):
    """raw as (the first response, what follows it), by its Content-Length."""
    head, sep, rest = raw.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length" and sep:
            n = len(head) + 4 + int(v.strip())
            return raw[:n], raw[n:]
    return raw, b""


def after_good_request(port, req, pipelined, wait=3):
    """GET /healthz, then req on the same connection (in the same write, or
    once the first answer is read): (the first answer, all that follows,
    whether the connection closed within `wait` seconds)."""
    s = socket.create_connection((HOST, port), timeout=3)
    try:
        if pipelined:
            s.sendall(get(b"/healthz") + req)
            raw, closed = read_until_closed(s, wait)
            first, rest = split_first(raw)
            return first, rest, closed
        s.sendall(get(b"/healthz"))
        first = read_one(s)
        s.sendall(req)
        rest, closed = read_until_closed(s, wait)
        return first, rest, closed
    finally:
        s.close()


def read_until_closed(s, timeout=3):
    """(all s sends until it closes, whether it closed within timeout)."""
    s.settimeout(timeout)
    out = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                return out, True
            out += d
    except ConnectionResetError:
        return out, True
    except OSError:
        return out, False


def libmicrohttpd_refusal(raw, closed, how):
    """Problems of what followed a later head that libmicrohttpd refuses
    itself (README.md, "The front door"): an error status (its own HTML, or
    the service's JSON where a callback of ours sees the head first) or no
    answer, never a route's 2xx, and the connection closed."""
    p = []
    if not closed:
        p.append("%s: the connection was not closed within 3 s" % how)
    if raw and not raw.startswith(b"HTTP/1."):
        p.append("%s: the answer has no status line: %r" % (how, raw[:200]))
    elif raw:
        status = int(raw.split(b" ", 2)[1])
        if status < 400:
            p.append("%s: status %d, want an error: %r" % (how, status, raw[:200]))
    return p


# Later heads libmicrohttpd 0.9.75 parses leniently where the acceptor
# refuses a first head: it reads them as requests, which the routes answer
# (a method "\rGET" is a 405; "GET  /healthz" is /healthz; a folded line
# is read as part of the header before it), and the connection stays open.
MHD_LENIENT = ("a request line starting with CR", "two spaces in the request line", "a folded header line")
# Later heads libmicrohttpd 0.9.75 refuses without an answer until
# --conn-timeout: the query's parameters fill its connection memory, and
# its 431 page no longer fits there.
MHD_SILENT = ("2,000 query parameters",)

# What each head of MHD_OWN gets as a keep-alive connection's later request
# (libmicrohttpd 0.9.75): the status, or None for a close without an
# answer, and whether the answer is the service's JSON (the heads a
# callback of ours judges) rather than libmicrohttpd's own page. Every one
# closes the connection but the lenient ones (MHD_LENIENT), which
# libmicrohttpd reads as requests for the routes to answer.
LATER = {
    "Content-Length: -1": (400, False), "Content-Length: 1e3": (400, False),
    "a 20-digit Content-Length": (413, False), "two Content-Length headers": (400, True),
    "a bad chunk size": (400, False), "a chunk longer than its size": (400, False),
    "HTTP/2.0": (505, False), "a CR without its LF before the request line": (None, False),
    "a request line starting with CR": (405, True), "HTTP/0.9": (505, False), "no version": (400, False),
    "a request line of one word": (None, False), "two spaces in the request line": (200, True),
    "a header line without a colon": (400, False), "a folded header line": (200, True),
    "a 100 KB header, past the connection memory": (431, False), "a 100 KB request line": (414, False),
    "3,000 short header lines": (431, False), "2,000 query parameters": (None, False),
    "Transfer-Encoding: gzip": (501, True),
}
def healthz_ok(port, how):
    raw, _ = exchange(port, get(b"/healthz", b"Connection: close\r\n"), timeout=3)
    r, _ = parse(raw)
    return [] if r is not None and r.status == 200 else ["%s: then /healthz got %r" % (how, raw[:200])]


def t_later_heads(binary):
    """Every head libmicrohttpd would answer itself, as a keep-alive
    connection's second request (sent after the first answer, and pipelined
    behind the first): the first is answered 200; the second is refused by
    libmicrohttpd (its status, or none) and the connection closes, or, for
    the heads it reads leniently (MHD_LENIENT), answered by the routes; the
    daemon goes on serving. The heads it holds silently (MHD_SILENT) are
    closed at --conn-timeout, here 2 s."""
    p = []
    d = Daemon(binary, "--threads", "2", "--conn-timeout", "2")
    port = d.port
    cases = MHD_OWN + (("Transfer-Encoding: gzip", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\n"
                        b"Transfer-Encoding: gzip\r\n\r\n" + NIM, 501, "unsupported_transfer_coding"),)
    for what, req, _status, _code in cases:
        status, mine = LATER[what]
        for pipelined in (False, True):
            how = "%s as a %s second request" % (what, "pipelined" if pipelined else "keep-alive")
            first, rest, closed = after_good_request(port, req, pipelined,
                                                     1 if what in MHD_LENIENT else 4 if what in MHD_SILENT else 3)
            r, q = parse(first)
            if r is None or r.status != 200 or q:
                p.append("%s: the first answer is %r" % (how, first[:200]))
            got = int(rest.split(b" ", 2)[1]) if rest.startswith(b"HTTP/1.") else None
            json_answer = b"application/json" in rest.partition(b"\r\n\r\n")[0].lower()
            if got != status or json_answer != mine:
                p.append("%s: want %s%s, got %r" % (how, status or "a close without an answer",
                                                    " (JSON)" if mine else "", rest[:200]))
            if what in MHD_LENIENT:
                r, q = parse(rest)
                if r is None or q or closed:
                    p.append("%s: want an answer on an open connection, got %r (closed: %s)"
                             % (how, rest[:200], closed))
            else:
                p += libmicrohttpd_refusal(rest, closed, how)
    p += healthz_ok(port, "after the later heads")
    d.kill()
    return p


def t_every_head_later(binary):
    """What the first callback judges in every head, held for a keep-alive
    connection's later request (src/server/mhd/every_head.c): a URL that
    decodes to a control byte (400), a URL over --max-url (414) and a head
    over --max-header (431) within libmicrohttpd's memory get the JSON
    error after their (empty) body, and the connection serves the next
    request; Transfer-Encoding with Content-Length, and two Content-Lengths
    (0 and 37 either way round, with 37 bytes that read as a request), get the JSON 400 at
    once with Connection: close, the connection closes, and what followed
    the head is never answered as a request."""
    p = []
    d = Daemon(binary, "--threads", "2", "--max-url", "1024", "--max-header", "4096")
    smuggled = get(b"/v1/games")
    kept = (("a URL with %00", get(b"/healthz%00x"), 400, "bad_request"),
            ("a URL over --max-url", get(b"/healthz?x=" + b"a" * 2000), 414, "url_too_long"),
            ("a head over --max-header", get(b"/healthz", b"X-Pad: " + b"b" * 6000 + b"\r\n"), 431,
             "headers_too_large"))
    closing = (("Transfer-Encoding with Content-Length",
                b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"
                b"0\r\n\r\n" + smuggled),
               ("Content-Length 0 and 37", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                b"Content-Length: %d\r\n\r\n" % len(smuggled) + smuggled),
               ("Content-Length 37 and 0", b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n"
                b"Content-Length: 0\r\n\r\n" % len(smuggled) + smuggled))
    try:
        for what, req, status, code in kept:
            how = "%s as a later request" % what
            s = socket.create_connection((HOST, d.port), timeout=3)
            try:
                s.sendall(get(b"/healthz"))
                read_one(s)
                s.sendall(req)
                p += json_error(read_one(s), status, code, how)
                s.sendall(get(b"/healthz"))
                r, q = parse(read_one(s))
                if r is None or r.status != 200 or q:
                    p.append("%s: the connection did not serve the next request" % how)
            finally:
                s.close()
        for what, req in closing:
            how = "%s as a later request" % what
            first, rest, closed = after_good_request(d.port, req, False)
            p += json_error(rest, 400, "bad_request", how)
            r, _ = parse(rest)
            if r is not None and (r.header("Connection") or "").lower() != "close":
                p.append("%s: the 400 does not say Connection: close" % how)
            if not closed:
                p.append("%s: the connection stayed open" % how)
            if rest.count(b"HTTP/1.1 ") != 1:
                p.append("%s: the bytes after the head were answered as a request: %r" % (how, rest[:400]))
    finally:
        d.kill()
    return p


def t_body_ended_early(port):
    """A client that declares a body over the limits, sends the head and ends
    its side at once still reads the early answer (413), not a bare close."""
    req = (b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           b"Content-Length: 20000000\r\n\r\n")
    raw, _ = exchange(port, req, timeout=3, shut=True)
    return json_error(raw, 413, "body_too_large", "a 20 MB body declared, then the client's end")


def open_fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def t_stalled_reader(binary):
    """A client that asks for a long answer and never reads it does not hold
    its connection past --conn-timeout of no progress: its descriptors are
    given back."""
    p = []
    d = Daemon(binary, "--threads", "1", "--conn-timeout", "2")
    s = None
    try:
        base = open_fds(d.proc.pid)
        lines = b"".join(b'{"game":"nim","piles":[%d,3,5]}\n' % (i % 50 + 1) for i in range(3000))
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(5)
        s.connect((HOST, d.port))
        s.sendall(b"POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(lines) + lines)
        time.sleep(1)
        during = open_fds(d.proc.pid)
        if during <= base:
            p.append("the stalled connection holds no descriptor after 1 s (%d, %d before)" % (during, base))
        deadline = time.monotonic() + 12
        while open_fds(d.proc.pid) > base and time.monotonic() < deadline:
            time.sleep(0.25)
        after = open_fds(d.proc.pid)
        if after > base:
            p.append("after 12 s, %d descriptors open, %d before the stalled client" % (after, base))
        TAP.diag("stalled reader: %d descriptors before, %d while it stalls, %d after" % (base, during, after))
    finally:
        if s:
            s.close()
        d.kill()
    return p


def t_later_chunks(port):
    """Chunks that come after the bytes of a connection's first head are
    libmicrohttpd's to judge: a bad chunk size, a chunk longer than its
    size or a bad trailer line after the head's write, in a first or a
    later request, is refused by libmicrohttpd (400) and the connection
    closes; good chunks in many small writes pass."""
    p = []
    chunked = b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    for what, tail in (("a bad chunk size", b"zz\r\n" + NIM + b"\r\n0\r\n\r\n"),
                       ("a chunk longer than its size", b"4\r\n" + NIM + b"\r\n0\r\n\r\n"),
                       ("a bad trailer line", b"1a\r\n" + NIM + b"\r\n0\r\nNoColon\r\n\r\n")):
        for later in (False, True):
            how = "%s after the head's write%s" % (what, " (second request)" if later else "")
            s = socket.create_connection((HOST, port), timeout=3)
            try:
                if later:
                    s.sendall(get(b"/healthz"))
                    read_one(s)
                s.sendall(chunked)
                time.sleep(0.2)
                s.sendall(tail)
                raw, closed = read_until_closed(s)
                p += libmicrohttpd_refusal(raw, closed, how)
                if not raw.startswith(b"HTTP/1.1 400 "):
                    p.append("%s: want libmicrohttpd's 400, got %r" % (how, raw[:200]))
            finally:
                s.close()
    p += healthz_ok(port, "after the bad chunks")
    s = socket.create_connection((HOST, port), timeout=3)
    try:
        body = b"1a;ext=1\r\n" + NIM + b"\r\n0\r\nX-Trailer: y\r\n\r\n"
        s.sendall(chunked)
        for i in range(0, len(body), 3):
            s.sendall(body[i:i + 3])
            time.sleep(0.01)
        s.sendall(get(b"/healthz", b"Connection: close\r\n"))
        first, rest = split_first(read_until_closed(s)[0])
        r, q = parse(first)
        if r is None or r.status != 200 or q or json.loads(r.raw).get("grundy") != 1:
            p.append("chunks in 3-byte writes: %r" % first[:300])
        r, q = parse(rest)
        if r is None or r.status != 200 or q:
            p.append("the request after them: %r" % rest[:300])
    finally:
        s.close()
    return p


# ---------------------------------------------------------------------------
# 3. lingering close


def urllib_post(port, path, size):
    body = b"[" + b"1," * ((size - 2) // 2) + b"1]"
    req = urllib.request.Request("http://%s:%d%s" % (HOST, port, path), data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def t_linger_urllib(port):
    """urllib writes the whole body, then reads: it must see the answer."""
    p = []
    for path, status, code in (("/v1/analyze", 413, "body_too_large"), ("/v1/batch", 413, "body_too_large"),
                               ("/nowhere", 404, "not_found")):
        for attempt in range(3):  # a broken pipe is not a chance event: three tries must all see it
            try:
                st, raw = urllib_post(port, path, 6 * 1024 * 1024)
            except OSError as e:
                p.append("POST 6 MB to %s (try %d): %r, want %d" % (path, attempt + 1, e, status))
                break
            try:
                got = json.loads(raw)["error"]["code"]
            except (ValueError, KeyError, TypeError):
                got = raw[:120]
            if st != status or got != code:
                p.append("POST 6 MB to %s: %d %r, want %d %s" % (path, st, got, status, code))
                break
    return p


def t_linger_bounded(binary):
    """Past --linger-bytes the body is not read: a declared body over it is
    answered at once, and a chunked one is cut (the connection closes)."""
    p = []
    d = Daemon(binary, "--threads", "1", "--linger-bytes", "100000", "--max-body", "1024")
    try:
        raw, _ = exchange(d.port, b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 5000000\r\n\r\n[1", timeout=3)
        p += json_error(raw, 413, "body_too_large", "declared 5 MB past --linger-bytes 100000")
        s = socket.create_connection((HOST, d.port), timeout=5)
        s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        sent, closed = 0, False
        try:
            while sent < 20000000:
                s.sendall(b"4000\r\n" + b" " * 0x4000 + b"\r\n")
                sent += 0x4000
        except OSError:
            closed = True
        if not closed:
            try:
                closed = s.recv(100) == b""
            except OSError:
                closed = True
        s.close()
        if not closed or sent >= 20000000:
            p.append("a chunked body past --linger-bytes was read on: %d bytes sent, closed=%s" % (sent, closed))
        raw, _ = exchange(d.port, get(b"/healthz"))
        r, _ = parse(raw)
        if r is None or r.status != 200:
            p.append("healthz afterwards: %r" % raw[:200])
    finally:
        d.kill()
    return p


# ---------------------------------------------------------------------------
# 4. slow clients


def t_header_timeout(port):
    """A head trickled a line at a time (each within the idle timeout) is
    cut at --header-timeout 1 with a 408; an idle new connection too."""
    p = []
    s = socket.create_connection((HOST, port), timeout=6)
    t0 = time.monotonic()
    s.sendall(b"GET /healthz HTTP/1.1\r\n")
    raw, closed = b"", None
    try:
        for i in range(20):
            s.sendall(b"X-Slow-%d: 1\r\n" % i)
            s.settimeout(0.3)
            try:
                d = s.recv(4096)
            except socket.timeout:
                continue
            raw += d
            if not d or one_response_done(raw):
                closed = time.monotonic() - t0
                break
    except OSError:
        closed = time.monotonic() - t0
    s.close()
    if closed is None or closed > 4:
        p.append("a trickled head was not cut within 4 s (--header-timeout 1): %r" % closed)
    elif raw:
        p += json_error(raw, 408, "request_timeout", "trickled head")
    raw, closed = exchange(port, b"", timeout=6)
    if raw == b"" or closed is None or closed > 4:
        p.append("an idle new connection was not closed within 4 s (--header-timeout 1): %r" % closed)
    else:
        p += json_error(raw, 408, "request_timeout", "idle new connection")
    return p


def t_keepalive_not_cut(port):
    """The header deadline does not cut a keep-alive client between quick
    requests, nor one whose request took longer than the deadline to read."""
    s = socket.create_connection((HOST, port), timeout=5)
    p = []
    buf = b""
    try:
        for i in range(3):
            s.sendall(get(b"/healthz"))
            while not one_response_done(buf):
                d = s.recv(4096)
                if not d:
                    return ["keep-alive connection closed after %d requests" % i]
                buf += d
            r, q = parse(buf)
            buf = b""
            if r.status != 200:
                p.append("request %d: %d" % (i, r.status))
            time.sleep(0.7)  # 2.1 s in all, past --header-timeout 1
    finally:
        s.close()
    return p


def hold(port, n):
    socks = []
    for _ in range(n):
        socks.append(socket.create_connection((HOST, port), timeout=3))
    return socks


def served_by(port, deadline):
    """None once a new connection's GET /healthz is a 200, tried until the
    monotonic deadline; else the last answer's bytes. For states the server
    reaches asynchronously (a slot freed by a close)."""
    while True:
        raw, _ = exchange(port, get(b"/healthz"), timeout=3)
        r, _ = parse(raw)
        if r is not None and r.status == 200:
            return None
        if time.monotonic() > deadline:
            return raw
        time.sleep(0.1)


def t_table_full(binary):
    """--conn-limit 6 connections held: the next is answered 503 with
    Retry-After at once, not left unaccepted; once the held ones are cut at
    their header deadline, a new client is served."""
    p = []
    # The held heads' deadline leaves the two refusals 4 s, however slow
    # the build or loaded the machine.
    d = Daemon(binary, "--threads", "1", "--conn-limit", "6", "--header-timeout", "4")
    held = []
    try:
        held = hold(d.port, 6)
        time.sleep(0.2)
        t0 = time.monotonic()
        raw, _ = exchange(d.port, get(b"/healthz"), timeout=3, shut=False)
        dt = time.monotonic() - t0
        p += json_error(raw, 503, "overloaded", "a 7th connection with 6 held")
        r, _ = parse(raw)
        if r is not None and r.header("Retry-After") is None:
            p.append("the 503 has no Retry-After")
        if dt > 2:
            p.append("the 503 came after %.2f s" % dt)
        silent = socket.create_connection((HOST, d.port), timeout=2)
        try:
            raw = silent.recv(65536)  # it sends nothing: the 503 must come all the same
        except OSError as e:
            raw = repr(e).encode()
        finally:
            silent.close()
        p += json_error(raw, 503, "overloaded", "a silent 8th connection")
        # The held connections are cut at their 4 s header deadline, after
        # which a slot frees; polled, not slept, so that a loaded machine's
        # late timer does not fail it.
        raw = served_by(d.port, t0 + 4 + 5)
        if raw is not None:
            p.append("5 s after the held connections' deadline: %r" % raw[:200])
    finally:
        for s in held:
            s.close()
        d.kill()
    return p


def t_reuse_idle(binary):
    """--conn-limit 4 keep-alive connections idle after a request each: a
    5th client is served (200), and one idle connection is closed for it."""
    p = []
    d = Daemon(binary, "--threads", "1", "--conn-limit", "4")
    held = []
    try:
        held = hold(d.port, 4)
        for s in held:
            s.sendall(get(b"/healthz"))
            buf = read_one(s)
        time.sleep(0.1)
        for i in range(3):
            raw, _ = exchange(d.port, get(b"/healthz", b"Connection: close\r\n"), timeout=3)
            r, _ = parse(raw)
            if r is None or r.status != 200:
                p.append("client %d past 4 idle keep-alive connections: %r" % (i + 1, raw[:200]))
        closed = 0
        for s in held:
            s.settimeout(0.5)
            try:
                closed += s.recv(10) == b""
            except socket.timeout:
                pass
            except OSError:
                closed += 1
        if closed < 1:
            p.append("no idle keep-alive connection was closed to make room")
    finally:
        for s in held:
            s.close()
        d.kill()
    return p


def t_per_ip(binary):
    """--per-ip-limit 3: a 4th connection from the same address is answered
    503 with Retry-After at once and closed; the first three are served,
    and once one closes a new one is too."""
    p = []
    d = Daemon(binary, "--threads", "1", "--per-ip-limit", "3")
    held = []
    try:
        held = hold(d.port, 3)
        time.sleep(0.2)
        raw, closed = exchange(d.port, get(b"/healthz"), timeout=3, shut=True)
        p += json_error(raw, 503, "overloaded", "a 4th connection from one address")
        r, _ = parse(raw)
        if r is not None and r.header("Retry-After") is None:
            p.append("the 503 has no Retry-After")
        if closed is None or closed > 1:
            p.append("the 4th connection was not closed within 1 s: %r" % closed)
        for i, s in enumerate(held):
            s.sendall(get(b"/healthz"))
            buf = read_one(s)
            r, _ = parse(buf)
            if r is None or r.status != 200:
                p.append("held connection %d: %r" % (i, buf[:200]))
        held.pop().close()
        # The address's count drops when the server has closed its side:
        # polled, since that follows the client's close asynchronously.
        raw = served_by(d.port, time.monotonic() + 5)
        if raw is not None:
            p.append("a new connection within 5 s of one of three closing: %r" % raw[:200])
    finally:
        for s in held:
            s.close()
        d.kill()
    return p


def t_slowloris_small(binary):
    """40 tricklers (one header line every 0.5 s) against --conn-limit 16
    --header-timeout 1: a new client keeps being answered within 3.5 s,
    a 503 at worst, never left waiting."""
    p = []
    d = Daemon(binary, "--threads", "1", "--conn-limit", "16", "--header-timeout", "1")
    stop = threading.Event()

    def trickler():
        while not stop.is_set():
            try:
                s = socket.create_connection((HOST, d.port), timeout=2)
                s.sendall(b"GET /healthz HTTP/1.1\r\n")
                while not stop.is_set():
                    s.sendall(b"X-a: b\r\n")
                    stop.wait(0.5)
            except OSError:
                pass
            finally:
                try:
                    s.close()
                except (OSError, UnboundLocalError):
                    pass

    ts = [threading.Thread(target=trickler, daemon=True) for _ in range(40)]
    try:
        for t in ts:
            t.start()
        time.sleep(1.5)
        waits, statuses = [], []
        for _ in range(8):
            t0 = time.monotonic()
            try:
                raw, _ = exchange(d.port, get(b"/healthz"), timeout=5)
                r, _ = parse(raw)
                statuses.append(r.status if r else None)
            except OSError as e:
                statuses.append(repr(e))
            waits.append(time.monotonic() - t0)
            time.sleep(0.2)
        if max(waits) > 3.5 or any(s not in (200, 503) for s in statuses):
            p.append("new clients under 40 tricklers: statuses %r, waits %s"
                     % (statuses, ["%.2f" % w for w in waits]))
        if 200 not in statuses:
            p.append("no new client was served under 40 tricklers: %r" % statuses)
        TAP.diag("under 40 tricklers: statuses %r, longest wait %.2f s" % (statuses, max(waits)))
    finally:
        stop.set()
        for t in ts:
            t.join(3)
        d.kill()
    return p


def main():
    if len(sys.argv) != 2:
        print("usage: test_front.py path/to/grundyd", file=sys.stderr)
        return 2
    binary = sys.argv[1]

    def body():
        d = Daemon(binary, "--threads", "2", "--header-timeout", "1")
        port = d.port
        TAP.run("the path is the path: %00 and other control bytes are 400, not the route", t_nul_path, port)
        TAP.run("Transfer-Encoding other than chunked: 501 JSON at once; with Content-Length: 400",
                t_transfer_codings, port)
        TAP.run("a URL over --max-url: 414 JSON, one status line", t_long_url, port)
        TAP.run("headers over --max-header: 431 JSON, one status line", t_big_headers, port)
        TAP.run("the first heads libmicrohttpd would answer in HTML: JSON errors, one status line",
                t_mhd_own_answers, port)
        TAP.run("the acceptor passes good heads on: empty lines, bare LF, a head in pieces, keep-alive",
                t_good_heads_pass, port)
        TAP.run("chunks after the first head's bytes: libmicrohttpd's 400; good ones in pieces pass",
                t_later_chunks, port)
        TAP.run("a body ended early by the client still gets its early answer", t_body_ended_early, port)
        TAP.run("lingering: urllib posting 6 MB sees the 413 or 404", t_linger_urllib, port)
        TAP.run("header timeout: a trickled or idle head is cut with 408", t_header_timeout, port)
        TAP.run("header timeout: keep-alive clients are not cut", t_keepalive_not_cut, port)
        d.kill()
        TAP.run("heads past a socket's buffer, under 1 MiB limits, are answered at once", t_big_limits, binary)
        TAP.run("later heads of a connection (keep-alive, pipelined): libmicrohttpd refuses them and closes",
                t_later_heads, binary)
        TAP.run("every head's checks hold for later requests; a framing in doubt closes", t_every_head_later,
                binary)
        TAP.run("lingering is bounded by --linger-bytes", t_linger_bounded, binary)
        TAP.run("a full connection table answers 503 with Retry-After, to silent clients too", t_table_full, binary)
        TAP.run("a client that never reads its answer is closed after --conn-timeout", t_stalled_reader, binary)
        TAP.run("a full table closes an idle keep-alive connection for a new client", t_reuse_idle, binary)
        TAP.run("--per-ip-limit answers 503 to connections over it", t_per_ip, binary)
        TAP.run("slowloris at small scale: new clients are answered", t_slowloris_small, binary)

    return run_main(TAP, "test_front.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
