#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""HTTP conventions of grundyd over loopback: gzip by Accept-Encoding (the
catalogue, openapi.yaml, the playground's files, JSON and NDJSON batches;
`gzip -d` of each gzip answer is byte-identical to the plain answer),
qualities, `*` and identity honoured, Vary; ETags per representation, stable
across a restart, and 304 on If-None-Match (lists, W/ tags, `*`); X-Request-Id
kept when sane, replaced when not, made when absent, echoed on every answer
and written in the access log line; CORS preflight and answers for an allowed
and a disallowed origin. Every response is also held to openapi.yaml by the
harness. Usage: test_http_conventions.py path/to/grundyd. Prints TAP."""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import HOST, Daemon, Resp, Tap, record_response, run_main  # noqa: E402

TAP = Tap()
WATCHDOG_SECONDS = 100
ORIGINS = "http://a.example, http://b.example"

# The fixed bodies: path -> the Content-Type they are sent with.
FIXED = {
    "/v1/games": "application/json",
    "/openapi.yaml": "application/yaml",
    "/": "text/html; charset=utf-8",
    "/static/app.js": "text/javascript; charset=utf-8",
    "/static/style.css": "text/css; charset=utf-8",
    "/static/favicon.svg": "image/svg+xml",
}
# Bodies large and repetitive enough that gzip must be smaller.
MUST_SHRINK = ("/v1/games", "/openapi.yaml", "/", "/static/app.js", "/static/style.css")
GZIP = {"Accept-Encoding": "gzip"}
TAG = re.compile(r'^"[0-9a-f]{16}"$')
MADE_ID = re.compile(r"^[0-9a-f]{16}-[0-9a-f]+$")


def fetch(port, method, path, headers=None, body=None):
    """One request on a fresh connection, with exactly the headers given
    (http.client adds no Accept-Encoding of its own here)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=20)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        raw = r.read()
        resp = Resp(r.status, r.getheaders(), raw)
    finally:
        conn.close()
    record_response(method, path, resp.status, resp.headers, raw)
    return resp


def gunzip(raw):
    """The body through `gzip -d`, as a client's tools would decode it."""
    p = subprocess.run(["gzip", "-d"], input=raw, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    if p.returncode != 0:
        raise ValueError("gzip -d failed: %s" % p.stderr.decode("utf-8", "replace"))
    return p.stdout


def gzip_size(data):
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    return len(z.compress(data) + z.flush())


def vary(r):
    return [v.strip().lower() for v in (r.header("Vary") or "").split(",") if v.strip()]


def check_pair(what, plain, packed):
    """A plain and a gzip answer to the same request: same status, gzip only
    when smaller, and gzip -d gives the plain bytes exactly."""
    p = []
    if plain.status != packed.status:
        return ["%s: status %d plain, %d with gzip" % (what, plain.status, packed.status)]
    if plain.header("Content-Encoding") is not None:
        p.append("%s without Accept-Encoding: Content-Encoding %r" % (what, plain.header("Content-Encoding")))
    for r, how in ((plain, "plain"), (packed, "gzip")):
        if "accept-encoding" not in vary(r):
            p.append("%s (%s): Vary %r lacks Accept-Encoding" % (what, how, r.header("Vary")))
    enc = packed.header("Content-Encoding")
    if enc == "gzip":
        if len(packed.raw) >= len(plain.raw):
            p.append("%s: gzip body of %d bytes is not smaller than the plain %d" % (what, len(packed.raw), len(plain.raw)))
        decoded = gunzip(packed.raw)
        if decoded != plain.raw:
            p.append("%s: gzip -d gives %d bytes, not the plain %d bytes" % (what, len(decoded), len(plain.raw)))
        if packed.header("Content-Length") not in (None, str(len(packed.raw))):
            p.append("%s: Content-Length %r for %d bytes" % (what, packed.header("Content-Length"), len(packed.raw)))
    elif enc is None:
        if packed.raw != plain.raw:
            p.append("%s: not compressed, yet not the plain bytes" % what)
        if gzip_size(plain.raw) < len(plain.raw) - 64:
            p.append("%s: sent plain although gzip makes %d bytes of %d" % (what, gzip_size(plain.raw), len(plain.raw)))
    else:
        p.append("%s: Content-Encoding %r" % (what, enc))
    return p


# ---------------------------------------------------------------------------
# gzip


def t_gzip_fixed(port):
    p = []
    for path, ctype in FIXED.items():
        plain = fetch(port, "GET", path)
        packed = fetch(port, "GET", path, GZIP)
        if plain.status != 200 or plain.header("Content-Type") != ctype:
            p.append("GET %s: %r, Content-Type %r" % (path, plain, plain.header("Content-Type")))
        p += check_pair("GET " + path, plain, packed)
        if path in MUST_SHRINK and packed.header("Content-Encoding") != "gzip":
            p.append("GET %s with Accept-Encoding: gzip: not compressed (%d bytes)" % (path, len(plain.raw)))
        head = fetch(port, "HEAD", path, GZIP)
        if head.status != 200 or head.raw or head.header("Content-Encoding") != packed.header("Content-Encoding") \
                or head.header("Content-Length") != str(len(packed.raw)):
            p.append("HEAD %s with gzip: %r, Content-Encoding %r, Content-Length %r (GET sent %d bytes)"
                     % (path, head, head.header("Content-Encoding"), head.header("Content-Length"), len(packed.raw)))
        TAP.diag("%s: %d bytes, %s %d" % (path, len(plain.raw), packed.header("Content-Encoding") or "identity",
                                          len(packed.raw)))
    return p


def batch_body(n):
    return json.dumps({"queries": [{"game": "nim", "piles": [i, 2 * i + 1, 1000000000000000000 + i]}
                                   for i in range(n)] + [{"game": "chess"}]}).encode()


def t_gzip_batch(port):
    p = []
    body = batch_body(300)
    plain = fetch(port, "POST", "/v1/batch", {"Content-Type": "application/json"}, body)
    packed = fetch(port, "POST", "/v1/batch", dict(GZIP, **{"Content-Type": "application/json"}), body)
    if plain.status != 200 or len((plain.json or {}).get("results", [])) != 301:
        p.append("POST /v1/batch: %r" % plain)
    p += check_pair("POST /v1/batch (JSON)", plain, packed)
    if packed.header("Content-Encoding") != "gzip":
        p.append("POST /v1/batch with gzip: not compressed (%d bytes)" % len(plain.raw))
    sizes = (len(plain.raw), len(packed.raw))
    # a batch refused as a whole is its answer too
    bad = b'{"queries": 7}'
    p += check_pair("POST /v1/batch (422)", fetch(port, "POST", "/v1/batch", None, bad),
                    fetch(port, "POST", "/v1/batch", GZIP, bad))
    # NDJSON: the stream deflated as it goes
    lines = "".join(json.dumps({"game": "subtraction", "moves": [1, 3, 4], "piles": [i]}) + "\n"
                    for i in range(400)).encode() + b"\n" + b'{"game":"nim","piles":[5]}'
    nd = {"Content-Type": "application/x-ndjson"}
    plain = fetch(port, "POST", "/v1/batch", nd, lines)
    packed = fetch(port, "POST", "/v1/batch", dict(nd, **GZIP), lines)
    if plain.status != 200 or plain.raw.count(b"\n") != 402:
        p.append("NDJSON batch: %r, %d lines" % (plain, plain.raw.count(b"\n")))
    if packed.header("Content-Encoding") != "gzip":
        p.append("NDJSON batch with gzip: Content-Encoding %r" % packed.header("Content-Encoding"))
    elif gunzip(packed.raw) != plain.raw:
        p.append("NDJSON batch: gzip -d differs from the plain stream")
    for r in (plain, packed):
        if "accept-encoding" not in vary(r):
            p.append("NDJSON batch: Vary %r" % r.header("Vary"))
    TAP.diag("JSON batch %d -> %d bytes; NDJSON %d -> %d bytes" % (sizes + (len(plain.raw), len(packed.raw))))
    return p


# Accept-Encoding values and whether the catalogue then comes as gzip.
ACCEPT = (
    (None, False), ("", False), ("identity", False), ("br", False), ("deflate, br", False),
    ("gzip", True), ("GZIP", True), ("x-gzip", True), ("*", True), ("br, *;q=0.1", True),
    ("gzip;q=0", False), ("gzip; q=0.000", False), ("*;q=0", False), ("gzip;q=0, *", False),
    ("gzip;q=0.5, identity", False), ("gzip;q=0.5, identity;q=0.4", True), ("gzip;q=1.0, identity;q=1", True),
    ("identity;q=0, gzip;q=0.1", True), ("*;q=0, gzip;q=0.2", True), ("gzip;q=2", False), ("gzip;q=x", False),
    ("deflate, gzip;q=1.0, br;q=0.8", True), (" gzip ; q=0.7 ", True), ("gzip;q=0.001", True),
)


def t_accept_encoding(port):
    p = []
    for value, want in ACCEPT:
        r = fetch(port, "GET", "/v1/games", None if value is None else {"Accept-Encoding": value})
        got = r.header("Content-Encoding") == "gzip"
        if r.status != 200 or got != want:
            p.append("Accept-Encoding %r: %s, want %s" % (value, "gzip" if got else "identity",
                                                          "gzip" if want else "identity"))
    return p


# ---------------------------------------------------------------------------
# ETag and 304


def tags_of(port):
    """path -> (plain tag, gzip tag) for every fixed body."""
    return {path: (fetch(port, "GET", path).header("ETag"), fetch(port, "GET", path, GZIP).header("ETag"))
            for path in FIXED}


def t_etags(port, other_port):
    p = []
    tags = tags_of(port)
    for path, (plain, packed) in tags.items():
        if not plain or not TAG.match(plain) or not packed or not TAG.match(packed):
            p.append("GET %s: ETags %r and %r" % (path, plain, packed))
        compressed = fetch(port, "GET", path, GZIP).header("Content-Encoding") == "gzip"
        if compressed and plain == packed:
            p.append("GET %s: the gzip and plain forms share the tag %s" % (path, plain))
        if not compressed and plain != packed:
            p.append("GET %s: one body, two tags %s %s" % (path, plain, packed))
    if tags_of(other_port) != tags:
        p.append("the tags differ after a restart: %r vs %r" % (tags, tags_of(other_port)))
    return p


def t_not_modified(port):
    p = []
    tags = tags_of(port)
    for path, (plain_tag, gzip_tag) in tags.items():
        for accept, tag, other in ((None, plain_tag, gzip_tag), (GZIP, gzip_tag, plain_tag)):
            base = dict(accept or {})
            # RFC 9110 section 8.6: a 304's Content-Length, if any, is the 200's
            full = str(len(fetch(port, "GET", path, base).raw))
            for inm in (tag, "W/" + tag, '"0000000000000000", ' + tag, 'W/"1", W/' + tag + ' ,"2"', "*"):
                for method in ("GET", "HEAD"):
                    r = fetch(port, method, path, dict(base, **{"If-None-Match": inm}))
                    if r.status != 304 or r.raw or r.header("ETag") != tag or r.header("Cache-Control") != "no-cache" \
                            or "accept-encoding" not in vary(r) or not r.header("X-Request-Id"):
                        p.append("%s %s (%s) If-None-Match %s: %r ETag %r Vary %r" % (
                            method, path, "gzip" if accept else "plain", inm, r, r.header("ETag"), r.header("Vary")))
                    if r.header("Content-Length") not in (None, full):
                        p.append("%s %s (%s) 304: Content-Length %r, but the 200 has %s bytes" % (
                            method, path, "gzip" if accept else "plain", r.header("Content-Length"), full))
            for inm in ('"0000000000000000"', tag[:-2] + '"', '"' + tag + '"', tag.strip('"')) + \
                    ((other,) if other != tag else ()):
                r = fetch(port, "GET", path, dict(base, **{"If-None-Match": inm}))
                if r.status != 200 or not r.raw or r.header("ETag") != tag:
                    p.append("GET %s If-None-Match %s (not its tag %s): %r" % (path, inm, tag, r))
    return p


def t_not_modified_sends_no_body(port):
    """A 304 carries the 200's Content-Length but no body: the next answer
    on the same connection starts right after its head."""
    tag = fetch(port, "GET", "/v1/games").header("ETag")
    s = socket.create_connection((HOST, port), timeout=20)
    try:
        s.sendall(("GET /v1/games HTTP/1.1\r\nHost: x\r\nIf-None-Match: %s\r\n\r\n"
                   "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % tag).encode())
        data = b""
        for _ in range(1000):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    first, _, rest = data.partition(b"\r\n\r\n")
    if not first.startswith(b"HTTP/1.1 304 ") or not rest.startswith(b"HTTP/1.1 200 ") \
            or not rest.endswith(b'{"status":"ok"}'):
        return ["304 then GET /healthz on one connection: %r" % data[:600]]
    return []


# ---------------------------------------------------------------------------
# X-Request-Id


def access_line(daemon, rid):
    """The access log line naming request_id=rid, parsed into its keys."""
    needle = " request_id=%s " % rid
    if not daemon.wait_log(needle, 5):
        return None
    line = next(l for l in daemon.log() if needle in l and "event=access" in l)
    return dict(kv.split("=", 1) for kv in line.split(" ") if "=" in kv)


def t_request_ids(daemon):
    port = daemon.port
    p = []
    sane = ("job-42.q_7:a", "A" * 128, "0", "2f1e:9c.x-y_z")
    for rid in sane:
        r = fetch(port, "POST", "/v1/analyze", {"X-Request-Id": rid}, b'{"game":"nim","piles":[3,4,5]}')
        if r.status != 200 or r.header("X-Request-Id") != rid:
            p.append("sane id %r: %r, X-Request-Id %r" % (rid, r, r.header("X-Request-Id")))
        rec = access_line(daemon, rid)
        if not rec or rec.get("route") != "/v1/analyze" or rec.get("status") != "200" or rec.get("game") != "nim":
            p.append("sane id %r: access line %r" % (rid, rec))
    insane = ("has space", "A" * 129, "a/b", 'q"uote', "caf\xe9", "semi;colon", "", "tab\there", "x=y")
    made = []
    for rid in insane + (None,):
        r = fetch(port, "GET", "/healthz", None if rid is None else {"X-Request-Id": rid})
        got = r.header("X-Request-Id") or ""
        if not MADE_ID.match(got):
            p.append("id %r: answered X-Request-Id %r, want one the daemon made" % (rid, got))
            continue
        made.append(got)
        rec = access_line(daemon, got)
        if not rec or rec.get("route") != "/healthz":
            p.append("made id %s (for %r): access line %r" % (got, rid, rec))
    if rid_leaks := [rid for rid in insane if rid and any(("request_id=" + rid) in l for l in daemon.log())]:
        p.append("refused ids reached the log: %r" % rid_leaks)
    more = [fetch(port, "GET", "/healthz").header("X-Request-Id") for _ in range(40)]
    made += more
    if len(set(made)) != len(made):
        p.append("made ids repeat: %r" % made)
    if len({m.split("-")[0] for m in made}) != 1:
        p.append("made ids do not share the process's prefix: %r" % made[:5])
    # every kind of answer carries it: errors, 404, 405, preflight, batch, stream
    for i, (method, path, body, hdrs) in enumerate((("POST", "/v1/analyze", b'{"game":"nim"}', {}),
                                     ("POST", "/v1/analyze", b"{", {}),
                                     ("GET", "/nope", None, {}),
                                     ("DELETE", "/v1/games", None, {}),
                                     ("OPTIONS", "/v1/batch", None, {"Origin": "http://a.example"}),
                                     ("POST", "/v1/batch", b'{"queries":[{"game":"nim","piles":[1]}]}', {}),
                                     ("POST", "/v1/batch", b'{"game":"nim","piles":[1]}\n',
                                      {"Content-Type": "application/x-ndjson"}),
                                     ("GET", "/v1/games", None, GZIP),
                                     ("GET", "/metrics", None, {}))):
        rid = "kind-%s-%d" % (method.lower(), i)
        r = fetch(port, method, path, dict(hdrs, **{"X-Request-Id": rid}), body)
        if r.header("X-Request-Id") != rid:
            p.append("%s %s (%d): X-Request-Id %r, want %r" % (method, path, r.status, r.header("X-Request-Id"), rid))
        rec = access_line(daemon, rid)
        if not rec or rec.get("status") != str(r.status):
            p.append("%s %s: access line %r for status %d" % (method, path, rec, r.status))
    return p


# ---------------------------------------------------------------------------
# CORS


def access_control(r):
    return {k.lower(): v for k, v in r.headers if k.lower().startswith("access-control-")}


def listed(value):
    return {v.strip().lower() for v in (value or "").split(",") if v.strip()}


def t_cors(port):
    p = []
    asks = {"Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-request-id, accept-encoding, accept"}
    for origin in ("http://a.example", "http://b.example"):
        r = fetch(port, "OPTIONS", "/v1/batch", dict(asks, Origin=origin))
        h = access_control(r)
        if r.status != 204 or h.get("access-control-allow-origin") != origin:
            p.append("preflight from %s: %d %r" % (origin, r.status, h))
        need = {"content-type", "x-request-id", "accept-encoding", "accept"}
        if not need <= listed(h.get("access-control-allow-headers")):
            p.append("preflight from %s: Access-Control-Allow-Headers %r lacks %r"
                     % (origin, h.get("access-control-allow-headers"), sorted(need - listed(h.get("access-control-allow-headers")))))
        if "POST" not in (h.get("access-control-allow-methods") or "") or h.get("access-control-max-age") != "600":
            p.append("preflight from %s: methods %r, max age %r" % (origin, h.get("access-control-allow-methods"),
                                                                   h.get("access-control-max-age")))
        for path, hdrs in (("/v1/games", GZIP), ("/openapi.yaml", {}), ("/healthz", {})):
            a = fetch(port, "GET", path, dict(hdrs, Origin=origin))
            h = access_control(a)
            if h.get("access-control-allow-origin") != origin or \
                    listed(h.get("access-control-expose-headers")) != {"x-request-id", "etag"}:
                p.append("GET %s from %s: %r" % (path, origin, h))
            if "origin" not in vary(a):
                p.append("GET %s from %s: Vary %r" % (path, origin, a.header("Vary")))
    for origin in ("http://evil.example", "http://a.example.evil", "null", None):
        hdrs = dict(asks) if origin is None else dict(asks, Origin=origin)
        r = fetch(port, "OPTIONS", "/v1/batch", hdrs)
        if r.status != 204 or access_control(r) or r.header("Allow") != "POST, OPTIONS":
            p.append("preflight from disallowed %r: %d %r Allow %r" % (origin, r.status, access_control(r),
                                                                      r.header("Allow")))
        a = fetch(port, "GET", "/v1/games", GZIP if origin is None else dict(GZIP, Origin=origin))
        if a.status != 200 or access_control(a):
            p.append("GET /v1/games from disallowed %r: %d %r" % (origin, a.status, access_control(a)))
        if "origin" not in vary(a) or "accept-encoding" not in vary(a):
            p.append("GET /v1/games from %r: Vary %r" % (origin, a.header("Vary")))
    return p


def t_cors_any_origin(port):
    """With --cors-origins "*" an answer carries Access-Control-Allow-Origin
    only when the request has an Origin, so Vary must name Origin: else a
    cache keeps the answer without it and hands that to a browser's page."""
    p = []
    for method, path, body, hdrs in (("GET", "/v1/games", None, {}), ("GET", "/v1/tables", None, {}),
                                     ("GET", "/openapi.yaml", None, GZIP),
                                     ("POST", "/v1/analyze", b'{"game":"nim","piles":[3]}', {})):
        with_origin = fetch(port, method, path, dict(hdrs, Origin="http://any.example"), body)
        without = fetch(port, method, path, hdrs, body)
        if with_origin.header("Access-Control-Allow-Origin") != "*":
            p.append("%s %s with an Origin: ACAO %r" % (method, path, with_origin.header("Access-Control-Allow-Origin")))
        if with_origin.header("Access-Control-Allow-Origin") == without.header("Access-Control-Allow-Origin"):
            continue
        for r, how in ((with_origin, "with"), (without, "without")):
            if "origin" not in vary(r):
                p.append("%s %s %s an Origin: ACAO %r but Vary %r" % (
                    method, path, how, r.header("Access-Control-Allow-Origin"), r.header("Vary")))
    return p


def main():
    binary = sys.argv[1]

    def body():
        d = Daemon(binary, "--cors-origins", ORIGINS)
        other = Daemon(binary)
        star = Daemon(binary, "--cors-origins", "*")
        TAP.run("gzip -d of each fixed body's gzip answer is the plain answer; HEAD agrees", t_gzip_fixed, d.port)
        TAP.run("gzip of JSON and NDJSON batch answers decodes to the plain answer", t_gzip_batch, d.port)
        TAP.run("Accept-Encoding: qualities, identity and * honoured", t_accept_encoding, d.port)
        TAP.run("ETags: per representation, content hashes, the same after a restart", t_etags, d.port, other.port)
        TAP.run("If-None-Match: 304 for the tag, W/, lists and *; 200 otherwise", t_not_modified, d.port)
        TAP.run("a 304 sends no body, and the next answer on its connection follows it", t_not_modified_sends_no_body,
                d.port)
        TAP.run("X-Request-Id: sane kept, insane replaced, absent made; echoed and logged", t_request_ids, d)
        TAP.run("CORS: preflight and answers for allowed and disallowed origins", t_cors, d.port)
        TAP.run("CORS \"*\": answers that differ by Origin say Vary: Origin", t_cors_any_origin, star.port)
        for x in (d, other, star):
            x.stop()

    return run_main(TAP, "test_http_conventions.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
