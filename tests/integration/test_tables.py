#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests for the table file: `grundy tables build`, grundyd
serving from it, and grundyd refusing bad files.

Usage: test_tables.py path/to/grundyd path/to/grundy

- Builds a small table file (--grundys-values 4096 --octal-values 256
  --rule-values 4096) in a temporary directory and checks the write is
  atomic: the target is replaced
  by a new file (a hard link to the old one keeps the old bytes) and no
  temporary file is left behind.
- Starts grundyd on 127.0.0.1 --port 0 with it: GET /v1/tables lists every
  section with its facts (byte for byte what `grundy tables info` prints),
  and answers come from the tables: Kayles, Dawson's Kayles and Dawson's
  chess at 10^18 with their periods, Grundy's game answered at the table's
  bound - 1 and refused at the bound (422 beyond_bound naming the bound and
  'grundy tables build'), octal 0.6 past its 256 tabled values refused.
  A rebuild of the file under the running daemon does not disturb it.
- For each bad file (missing, empty, garbage, truncated, one flipped byte
  in a section, another format version, other byte order, a directory)
  grundyd must exit non-zero within a few seconds with an event=start line
  on stderr naming the file and the fault.
- With the full default table (grundy.tables beside grundyd, found without
  --tables), Grundy's game at heap 4,000,000 and at sampled heaps near the
  bound, and Kayles / 0.07 / 0.137 at 10^18, match the references; skipped
  ("# SKIP") when that file does not exist.

Prints TAP; Python 3 stdlib only; loopback only; every subprocess and request
has a timeout, and a watchdog ends the run (killing the daemons) if it ever
overruns.
"""

import http.client
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
import harness  # noqa: E402
from harness import HOST, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 150
E18 = 10**18
SMALL_GRUNDYS = 4096
SMALL_OCTAL = 256
SMALL_RULES = 4096  # the rule-defined sets' parts take seconds at their own sizes
EXIT_WAIT = 5  # seconds a refusing daemon may take to exit

# Reference facts (references.md): (preperiod, period) of the named octal games.
PERIODS = {"0.77": (71, 12), "0.07": (53, 34), "0.137": (52, 34)}

TAP = Tap()

# ---------------------------------------------------------------------------
# The file format (src/tables/format.h), for patching files


HEADER = struct.Struct("<8sIIIIQQQQQ")          # 64 bytes
ENTRY = struct.Struct("<48sIIQQQQQQQQQ")        # 128 bytes
MASK = (1 << 64) - 1


def _mix(h, w):
    h ^= w
    h = (h * 0x9E3779B97F4A7C15) & MASK
    return h ^ (h >> 29)


def checksum(data):
    """gr_tf_checksum: multiply-xorshift over little-endian 8-byte words."""
    h = _mix(0x243F6A8885A308D3, len(data))
    tail = len(data) % 8
    body = len(data) - tail
    for (w,) in struct.iter_unpack("<Q", data[:body]):
        h = _mix(h, w)
    if tail:
        h = _mix(h, int.from_bytes(data[body:], "little"))
    return _mix(h, 0x13198A2E03707344)


def parse(data):
    """(header fields, [entry dicts])."""
    (magic, version, byte_order, count, header_size, file_size, dir_off, dir_sum,
     _reserved, head_sum) = HEADER.unpack_from(data, 0)
    entries = []
    for i in range(count):
        f = ENTRY.unpack_from(data, 64 + 128 * i)
        entries.append({"name": f[0].rstrip(b"\0").decode(), "kind": f[1], "flags": f[2],
                        "offset": f[3], "length": f[4], "checksum": f[5]})
    return {"magic": magic, "version": version, "count": count, "file_size": file_size}, entries


def seal_header(data):
    """Recomputes the header checksum of a bytearray in place."""
    struct.pack_into("<Q", data, 56, checksum(bytes(data[:56])))


# ---------------------------------------------------------------------------
# Processes and HTTP


class Daemon(harness.Daemon):
    """grundyd with a fresh connection per request."""

    ready_timeout = 15

    def request(self, method, path, body=None):
        """(status, headers dict, raw body, parsed JSON or None)."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            if body is not None and not isinstance(body, (bytes, str)):
                body = json.dumps(body)
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            raw = r.read()
            hdrs = {k.lower(): v for k, v in r.getheaders()}
            harness.record_response(method, path, r.status, r.getheaders(), raw)
        finally:
            conn.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        return r.status, hdrs, raw, parsed

    def analyze(self, query):
        status, _, raw, parsed = self.request("POST", "/v1/analyze", query)
        return status, raw, parsed


def run(args, timeout=60, env=None):
    """(exit status, stdout text, stderr text)."""
    p = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def env_without_tables():
    env = dict(os.environ)
    env.pop("GRUNDYD_TABLES", None)
    return env


def error_of(parsed):
    return (parsed or {}).get("error") or {}


# ---------------------------------------------------------------------------
# Tests: building


def t_build_atomic(grundy, tmp, path):
    """The build replaces the target with a new, complete file."""
    p = []
    with open(path, "wb") as f:
        f.write(b"old contents, not a table\n")
    link = os.path.join(tmp, "old.link")
    os.link(path, link)
    old_ino = os.stat(path).st_ino
    rc, out, err = run([grundy, "tables", "build", path, "--grundys-values", str(SMALL_GRUNDYS),
                        "--octal-values", str(SMALL_OCTAL), "--rule-values", str(SMALL_RULES), "--quiet"])
    if rc != 0:
        return ["grundy tables build exited %d: %s" % (rc, err.strip())]
    if out or err:
        p.append("--quiet build printed something: stdout %r stderr %r" % (out[:200], err[:200]))
    left = sorted(os.listdir(tmp))
    if left != sorted([os.path.basename(path), "old.link"]):
        p.append("directory after the build holds %r (a temporary file left behind?)" % left)
    if os.stat(path).st_ino == old_ino:
        p.append("the target was rewritten in place (same inode), not replaced by a rename")
    with open(link, "rb") as f:
        if f.read() != b"old contents, not a table\n":
            p.append("the old file's bytes changed: the build wrote into it")
    os.unlink(link)
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"GRUNDYTB":
        p.append("the new file does not start with the magic: %r" % data[:8])
    head, entries = parse(data)
    if head["file_size"] != len(data):
        p.append("header says %d bytes, file has %d" % (head["file_size"], len(data)))
    names = [e["name"] for e in entries]
    if names != sorted(names):
        p.append("sections not sorted: %r" % names)
    return p


def t_build_progress(grundy, tmp):
    """With --progress the builder prints one line per part (stderr is not a
    terminal here), and a build into a missing directory fails cleanly."""
    p = []
    path = os.path.join(tmp, "progress.tables")
    rc, out, err = run([grundy, "tables", "build", path, "--grundys-values", "512",
                        "--octal-values", "64", "--rule-values", "64", "--progress"])
    if rc != 0:
        return ["build exited %d: %s" % (rc, err.strip())]
    for part in ("octal games 0.d1d2d3", "named octal games", "subtraction sets", "Wythoff values",
                 "divisor-game values", "Grundy's game", "written"):
        if not re.search(r"^tables: %s.*\s[0-9]+\.[0-9]{2} s$" % re.escape(part), err, re.M):
            p.append("no progress line for %r in %r" % (part, err))
    os.unlink(path)
    bad = os.path.join(tmp, "no-such-dir", "x.tables")
    rc, out, err = run([grundy, "tables", "build", bad, "--grundys-values", "64", "--octal-values", "64",
                        "--wythoff", "8", "--divisor", "100", "--quiet"])
    if rc != 1 or "no-such-dir" not in err:
        p.append("build into a missing directory: exit %d, stderr %r" % (rc, err))
    if os.path.exists(os.path.join(tmp, "no-such-dir")):
        p.append("the missing directory was created")
    rc, out, err = run([grundy, "tables", "build", path, "--grundys-values", "1"])
    if rc != 2 or os.path.exists(path):
        p.append("--grundys-values 1: exit %d (expected 2), file exists: %s" % (rc, os.path.exists(path)))
    for bad in ("63", str((1 << 24) + 1), "-1"):
        rc, out, err = run([grundy, "tables", "build", path, "--rule-values", bad])
        if rc != 2 or os.path.exists(path) or "--rule-values" not in err:
            p.append("--rule-values %s: exit %d (expected 2), stderr %r" % (bad, rc, err[:200]))
    return p


# ---------------------------------------------------------------------------
# Tests: serving from the small file


SEQ_KEYS = ["name", "kind", "bound", "periodic", "preperiod", "period", "max_value", "checksum", "bytes"]
FAM_KEYS = ["name", "kind", "members", "values", "checksum", "bytes"]
GRID_KEYS = ["name", "kind", "rows", "cols", "max_value", "checksum", "bytes"]
BITS_KEYS = ["name", "kind", "bits", "set", "checksum", "bytes"]
MQ_KEYS = ["name", "kind", "order", "p_portion_size", "heap_bound", "periodic", "preperiod", "period",
           "checksum", "bytes"]
RULES = ("powers_of_two", "primes", "squares")


def catalog_problems(body, path, size, grundys_bound, octal_values):
    """Checks a GET /v1/tables body against the file's known contents."""
    p = []
    if list(body) != ["file", "checksum", "bytes", "sections"]:
        p.append("top-level members %r" % list(body))
    if body.get("file") != os.path.basename(path):
        p.append("file %r, expected %r (the base name of %r)" % (body.get("file"), os.path.basename(path), path))
    if not re.fullmatch(r"[0-9a-f]{16}", str(body.get("checksum"))):
        p.append("checksum %r is not 16 hex digits" % body.get("checksum"))
    if body.get("bytes") != size:
        p.append("bytes %r, expected %d" % (body.get("bytes"), size))
    sections = body.get("sections") or []
    names = [s.get("name") for s in sections]
    want = ["divisor", "grundys_game", "octal:0.007", "octal:0.07", "octal:0.127", "octal:0.137",
            "octal:0.16", "octal:0.376", "octal:0.56", "octal:0.6", "octal:0.77", "octal:0.7777",
            "octal:3-digit", "subtraction:1-12"]
    want += ["subtraction:%s:%s" % (r, part) for r in RULES for part in ("grundy", "outcome")]
    want += ["wythoff"]
    misere = [n for n in names if n.startswith("misere:octal:")]
    if [n for n in names if not n.startswith("misere:")] != want or names != sorted(names):
        p.append("sections %r, expected %r and misere quotients, sorted" % (names, want))
    if "misere:octal:0.77" not in misere:
        p.append("no misere quotient of Kayles among %r" % misere)
    by = {s.get("name"): s for s in sections}
    total = 0
    for s in sections:
        keys = {"sequence": SEQ_KEYS, "family": FAM_KEYS, "grid": GRID_KEYS,
                "bitset": BITS_KEYS, "misere_quotient": MQ_KEYS}.get(s.get("kind"))
        if keys is None:
            p.append("%s: kind %r" % (s.get("name"), s.get("kind")))
            continue
        if list(s) != keys:
            p.append("%s: members %r, expected %r" % (s["name"], list(s), keys))
            continue
        if not re.fullmatch(r"[0-9a-f]{16}", s["checksum"]):
            p.append("%s: checksum %r is not 16 hex digits" % (s["name"], s["checksum"]))
        for k in keys[2:]:
            v = s[k]
            if k in ("preperiod", "period") and v is None and s["periodic"] is False:
                continue
            if k == "periodic":
                if not isinstance(v, bool):
                    p.append("%s: periodic %r" % (s["name"], v))
                continue
            if k != "checksum" and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                p.append("%s: %s = %r is not a non-negative integer" % (s["name"], k, v))
        if s["kind"] == "sequence":
            if s["bytes"] != 2 * s["bound"]:
                p.append("%s: %d bytes for %d values" % (s["name"], s["bytes"], s["bound"]))
            if s["periodic"] and s["preperiod"] + s["period"] > s["bound"]:
                p.append("%s: period facts past the stored values" % s["name"])
        if s["kind"] == "bitset" and (s["bytes"] != 8 * ((s["bits"] + 63) // 64) or s["set"] > s["bits"]):
            p.append("%s: %d bytes for %d bits, %d set" % (s["name"], s["bytes"], s["bits"], s["set"]))
        if s["kind"] == "grid" and s["bytes"] != 2 * s["rows"] * s["cols"]:
            p.append("%s: %d bytes for %dx%d" % (s["name"], s["bytes"], s["rows"], s["cols"]))
        if s["kind"] == "misere_quotient":
            o = s["order"]
            if s["bytes"] != 64 + 2 * o * o + (o + 7) // 8 * 8 + 2 * (s["heap_bound"] + 1):
                p.append("%s: %d bytes for order %d to heap %d" % (s["name"], s["bytes"], o, s["heap_bound"]))
            if not s["periodic"] or o % 2 and o != 1:
                p.append("%s: a stored quotient is periodic and of even order: %r" % (s["name"], s))
        if s["kind"] == "family" and s["bytes"] != 64 * s["members"] + 2 * s["values"]:
            p.append("%s: %d bytes for %d members and %d values"
                     % (s["name"], s["bytes"], s["members"], s["values"]))
        total += s["bytes"]
    if total >= size:
        p.append("sections total %d bytes, not less than the file's %d" % (total, size))
    if p:
        return p

    def fact(name, **want_facts):
        s = by[name]
        for k, v in want_facts.items():
            if s.get(k) != v:
                p.append("%s: %s = %r, expected %r" % (name, k, s.get(k), v))

    fact("grundys_game", kind="sequence", bound=grundys_bound, periodic=False, preperiod=None,
         period=None)
    for code, (s0, per) in PERIODS.items():
        fact("octal:" + code, kind="sequence", periodic=True, preperiod=s0, period=per)
    if octal_values >= 359:  # double Kayles certifies its period within 359 values
        fact("octal:0.7777", kind="sequence", periodic=True, preperiod=142, period=24)
    fact("octal:0.6", kind="sequence", periodic=False, bound=octal_values, preperiod=None, period=None)
    fact("octal:0.007", kind="sequence", periodic=False, bound=octal_values)
    fact("octal:3-digit", kind="family", members=511)
    # misere Kayles: its quotient (recomputed, tests/test_misere.c) and the
    # period of its pretending function
    fact("misere:octal:0.77", kind="misere_quotient", order=40, p_portion_size=9, periodic=True,
         preperiod=71, period=12, heap_bound=169)
    fact("subtraction:1-12", kind="family", members=4095)
    fact("wythoff", kind="grid", rows=1024, cols=1024)
    fact("divisor", kind="sequence", bound=1000001, periodic=False)
    if grundys_bound <= SMALL_GRUNDYS:
        want_max = max(brute.grundys_game_values(grundys_bound - 1))
        if by["grundys_game"]["max_value"] != want_max:
            p.append("grundys_game max_value %r, brute force %d" % (by["grundys_game"]["max_value"], want_max))
    return p


def t_catalog(d, grundy, path):
    p = []
    size = os.path.getsize(path)
    status, hdrs, raw, body = d.request("GET", "/v1/tables")
    if status != 200 or body is None:
        return ["GET /v1/tables: status %d %r" % (status, raw[:300])]
    if not hdrs.get("content-type", "").startswith("application/json"):
        p.append("Content-Type %r" % hdrs.get("content-type"))
    p += catalog_problems(body, path, size, SMALL_GRUNDYS, SMALL_OCTAL)
    rc, out, err = run([grundy, "tables", "info", path])
    if rc != 0 or out.strip().encode() != raw.strip():
        p.append("grundy tables info differs from GET /v1/tables (exit %d):\n%s\n%s"
                 % (rc, out[:300], raw[:300]))
    if "tables=%s" % path not in d.ready_line():
        p.append("event=ready line does not name the file: %r" % d.ready_line())
    status, hdrs, raw, _ = d.request("HEAD", "/v1/tables")
    if status != 200 or raw:
        p.append("HEAD /v1/tables: status %d, %d body bytes" % (status, len(raw)))
    status, hdrs, raw, body = d.request("POST", "/v1/tables", "{}")
    allow = [m.strip() for m in (hdrs.get("allow") or "").split(",")]
    if status != 405 or "GET" not in allow or "POST" in allow or error_of(body).get("code") != "method_not_allowed":
        p.append("POST /v1/tables: status %d Allow %r %r" % (status, hdrs.get("allow"), raw[:200]))
    status, hdrs, raw, body = d.request("GET", "/v1/table")
    if status != 404 or "/v1/tables" not in error_of(body).get("message", ""):
        p.append("404 does not mention GET /v1/tables: %d %r" % (status, raw[:200]))
    return p


def octal_far_problems(d, code):
    p = []
    s0, per = PERIODS[code]
    g = brute.octal_values(code, 400)
    if brute.octal_period(code, 400) != (s0, per):
        p.append("brute force finds period %r for %s" % (brute.octal_period(code, 400), code))
    for n in (E18, E18 + 7, 2**63 - 1):
        q = {"game": "octal", "code": code, "piles": [n]}
        status, raw, a = d.analyze(q)
        if status != 200:
            p.append("%s heap %d: status %d %r" % (code, n, status, raw[:200]))
            continue
        c = (a.get("components") or [{}])[0]
        if c.get("period") != {"preperiod": s0, "period": per}:
            p.append("%s heap %d: period %r, expected (%d, %d)" % (code, n, c.get("period"), s0, per))
        want = brute.periodic_value(g, s0, per, n)
        if a.get("grundy") != want or c.get("grundy") != want:
            p.append("%s heap %d: grundy %r, expected %d" % (code, n, a.get("grundy"), want))
        if (a.get("winner") == "first") != (want != 0):
            p.append("%s heap %d: winner %r for value %d" % (code, n, a.get("winner"), want))
        if a.get("winner") == "first":
            why = brute.check_move(q, a.get("next"))
            if why:
                p.append("%s heap %d: %s" % (code, n, why))
    return p


def t_octal_far(d):
    p = []
    for code in PERIODS:
        p += octal_far_problems(d, code)
    return p


def grundys_bound_problems(d, bound, values):
    """Heap bound - 1 answered (value checked when known), heap bound refused."""
    p = []
    n = bound - 1
    q = {"game": "grundys_game", "piles": [n]}
    status, raw, a = d.analyze(q)
    if status != 200:
        p.append("heap %d (table bound %d): status %d %r" % (n, bound, status, raw[:300]))
    else:
        if values is not None and a.get("grundy") != values.get(n, a.get("grundy")):
            p.append("heap %d: grundy %r, expected %r" % (n, a.get("grundy"), values.get(n)))
        if a.get("winner") == "first":
            why = brute.check_move(q, a.get("next"))
            if why:
                p.append("heap %d: %s" % (n, why))
            else:
                st2, raw2, a2 = d.analyze(brute.merge(q, a["next"]))
                if st2 != 200 or a2.get("winner") != "second":
                    p.append("heap %d: after the winning move the position is %d %r"
                             % (n, st2, raw2[:200]))
    for heap in (bound, bound + 1, E18):
        status, raw, a = d.analyze({"game": "grundys_game", "piles": [3, heap]})
        e = error_of(a)
        msg = e.get("message", "")
        if status != 422 or e.get("code") != "beyond_bound" or e.get("field") != "piles":
            p.append("heap %d: expected 422 beyond_bound on piles, got %d %r" % (heap, status, raw[:300]))
        elif str(bound) not in msg or "grundy tables build" not in msg:
            p.append("heap %d: the message names neither the bound %d nor 'grundy tables build': %r"
                     % (heap, bound, msg))
        elif not re.search(r"below %d\b" % bound, msg):
            p.append("heap %d: the message does not say 'below %d': %r" % (heap, bound, msg))
    return p


def t_grundys_small(d):
    g = brute.grundys_game_values(SMALL_GRUNDYS - 1)
    p = grundys_bound_problems(d, SMALL_GRUNDYS, {SMALL_GRUNDYS - 1: g[-1]})
    # a spread of heaps below the bound, in one query, against brute force
    heaps = [0, 1, 2, 3, 100, 1000, 2047, 3000, 4000, SMALL_GRUNDYS - 1]
    status, raw, a = d.analyze({"game": "grundys_game", "piles": heaps})
    if status != 200:
        return p + ["heaps %r: status %d %r" % (heaps, status, raw[:200])]
    got = [c.get("grundy") for c in a.get("components", [])]
    if got != [g[h] for h in heaps]:
        p.append("heaps %r: values %r, brute force %r" % (heaps, got, [g[h] for h in heaps]))
    return p


def t_octal_from_table(d):
    """Officers (0.6) has no known period: the table's 256 values bound it,
    where a daemon without tables would compute on demand."""
    p = []
    g = brute.octal_values("0.6", SMALL_OCTAL)
    q = {"game": "octal", "code": "0.6", "piles": [SMALL_OCTAL - 1]}
    status, raw, a = d.analyze(q)
    if status != 200 or a.get("grundy") != g[SMALL_OCTAL - 1]:
        p.append("0.6 heap %d: %d %r (brute %d)" % (SMALL_OCTAL - 1, status, raw[:200], g[SMALL_OCTAL - 1]))
    status, raw, a = d.analyze({"game": "octal", "code": "0.6", "piles": [SMALL_OCTAL]})
    e = error_of(a)
    if status != 422 or e.get("code") != "beyond_bound" or "table file" not in e.get("message", "") \
            or str(SMALL_OCTAL) not in e.get("message", ""):
        p.append("0.6 heap %d: expected 422 beyond_bound naming the table file and %d, got %d %r"
                 % (SMALL_OCTAL, SMALL_OCTAL, status, raw[:300]))
    return p


def t_rebuild_under_daemon(d, grundy, path):
    """Rebuilding the file the daemon has mapped does not change what it
    serves (the old file stays mapped; the new one is a new inode)."""
    p = []
    status, _, before, _ = d.request("GET", "/v1/tables")
    rc, out, err = run([grundy, "tables", "build", path, "--grundys-values", "2048",
                        "--octal-values", str(SMALL_OCTAL), "--quiet"])
    if rc != 0:
        return ["rebuild exited %d: %s" % (rc, err)]
    status, _, after, _ = d.request("GET", "/v1/tables")
    if after != before:
        p.append("GET /v1/tables changed after the rebuild")
    g = brute.grundys_game_values(SMALL_GRUNDYS - 1)
    status, raw, a = d.analyze({"game": "grundys_game", "piles": [SMALL_GRUNDYS - 1]})
    if status != 200 or a.get("grundy") != g[-1]:
        p.append("after the rebuild heap %d: %d %r" % (SMALL_GRUNDYS - 1, status, raw[:200]))
    rc, out, err = run([grundy, "tables", "info", path])
    if rc != 0 or '"bound":2048' not in out:
        p.append("the rebuilt file: exit %d %r" % (rc, out[:200]))
    return p


# ---------------------------------------------------------------------------
# Tests: bad files


def refused(grundyd, path, needle, via_env=False):
    """grundyd must exit non-zero within EXIT_WAIT s naming path and fault."""
    args = [grundyd, "--host", HOST, "--port", "0"]
    env = env_without_tables()
    if via_env:
        env["GRUNDYD_TABLES"] = path
    else:
        args += ["--tables", path]
    t0 = time.monotonic()
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    try:
        _, err = proc.communicate(timeout=EXIT_WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=5)
        return ["grundyd still running after %d s with %s" % (EXIT_WAIT, path)]
    dt = time.monotonic() - t0
    err = err.decode("utf-8", "replace")
    p = []
    if proc.returncode == 0:
        p.append("grundyd exited 0 with %s" % path)
    if "event=ready" in err:
        p.append("grundyd logged event=ready with a bad file")
    lines = [line for line in err.splitlines() if "event=start" in line]
    want = "table file %s: " % path
    if not any(want in line and needle in line for line in lines):
        p.append("no event=start line with %r and %r in stderr: %r" % (want, needle, err[-600:]))
    if dt > EXIT_WAIT:
        p.append("took %.1f s to exit" % dt)
    return p


def bad_file_cases(tmp, good):
    """(name, path, expected fault, via env) for each bad file, written now."""
    with open(good, "rb") as f:
        data = f.read()
    _, entries = parse(data)
    cases = []

    def put(name, content):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(content)
        return path

    cases.append(("missing file", os.path.join(tmp, "missing.tables"), "cannot open it: No such file",
                  False))
    cases.append(("empty file", put("empty.tables", b""), "truncated: the file is empty", False))
    cases.append(("garbage", put("garbage.tables", b"these are not the tables you are looking for\n" * 50),
                  "not a grundy table file", False))
    cases.append(("truncated to half", put("half.tables", data[:len(data) // 2]),
                  "truncated or extended: the header says %d bytes, the file has %d"
                  % (len(data), len(data) // 2), False))
    cases.append(("truncated inside the header", put("head.tables", data[:40]),
                  "truncated: 40 bytes is shorter than the 64-byte header", False))
    cases.append(("truncated by one byte", put("short.tables", data[:-1]), "truncated or extended", False))
    grundys = next(e for e in entries if e["name"] == "grundys_game")
    flipped = bytearray(data)
    flipped[grundys["offset"] + grundys["length"] // 3] ^= 0x10
    cases.append(("one flipped byte in a section", put("flipped.tables", bytes(flipped)),
                  "the checksum of section grundys_game does not match", False))
    flipped = bytearray(data)
    flipped[64 + 128 + 50] ^= 0x01  # kind of the second directory entry
    cases.append(("one flipped byte in the directory", put("flipdir.tables", bytes(flipped)),
                  "the directory checksum does not match", False))
    other = bytearray(data)
    struct.pack_into("<I", other, 8, 2)
    seal_header(other)
    cases.append(("another format version", put("v2.tables", bytes(other)),
                  "format version 2, but this build reads version 1; rebuild it with 'grundy tables build'",
                  False))
    other = bytearray(data)
    struct.pack_into("<I", other, 12, 0x04030201)
    seal_header(other)
    cases.append(("other byte order", put("be.tables", bytes(other)), "written with the other byte order",
                  False))
    os.mkdir(os.path.join(tmp, "dir.tables"))
    cases.append(("a directory", os.path.join(tmp, "dir.tables"), "not a regular file", False))
    cases.append(("garbage through GRUNDYD_TABLES", os.path.join(tmp, "garbage.tables"),
                  "not a grundy table file", True))
    return cases


# ---------------------------------------------------------------------------
# Tests: the full default table


def load_samples():
    path = os.environ.get("GRUNDY_SAMPLES") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "grundys-game-samples.txt")
    samples = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and not line.startswith("#"):
                    samples[int(parts[0])] = int(parts[1])
    return samples


def default_grundys_bound(grundy, path):
    """Grundy's game bound of the table file at path, from `grundy tables info`."""
    out = subprocess.run([grundy, "tables", "info", path], capture_output=True, timeout=30)
    sections = json.loads(out.stdout or b"{}").get("sections", [])
    return next((s.get("bound", 0) for s in sections if s.get("name") == "grundys_game"), 0)


def t_default_catalog(d, path):
    status, _, raw, body = d.request("GET", "/v1/tables")
    if status != 200 or body is None:
        return ["GET /v1/tables: %d %r" % (status, raw[:200])]
    p = []
    if "tables=%s" % path not in d.ready_line():
        p.append("event=ready does not name %s: %r" % (path, d.ready_line()))
    gs = next((s for s in body.get("sections", []) if s.get("name") == "grundys_game"), {})
    bound = gs.get("bound")
    if not isinstance(bound, int) or bound <= 4000000:
        return p + ["grundys_game bound %r does not reach heap 4,000,000" % bound]
    octal_values = next((s for s in body["sections"] if s.get("name") == "octal:0.6"), {}).get("bound")
    p += catalog_problems(body, path, os.path.getsize(path), bound, octal_values)
    return p


def t_default_grundys(d, samples):
    p = []
    q = {"game": "grundys_game", "piles": [4000000]}
    t0 = time.monotonic()
    status, raw, a = d.analyze(q)
    dt = time.monotonic() - t0
    if status != 200:
        return ["heap 4,000,000: status %d %r" % (status, raw[:300])]
    if dt > 5:
        p.append("heap 4,000,000 took %.1f s: not from the table?" % dt)
    g = a.get("grundy")
    if not isinstance(g, int) or (a.get("winner") == "first") != (g != 0):
        p.append("heap 4,000,000: grundy %r winner %r" % (g, a.get("winner")))
    if a.get("winner") == "first":
        why = brute.check_move(q, a.get("next"))
        if why:
            p.append("heap 4,000,000: %s" % why)
        else:
            st2, raw2, a2 = d.analyze(brute.merge(q, a["next"]))
            if st2 != 200 or a2.get("winner") != "second":
                p.append("heap 4,000,000: after the move %d %r" % (st2, raw2[:200]))
    if not samples:
        TAP.diag("grundys-game-samples.txt not found; values near 4,000,000 not compared")
        return p
    # sampled heaps around 4,000,000 and up to the bound, one query
    heaps = sorted(n for n in samples if n >= 3990000)[:40]
    heaps += sorted(n for n in samples if n >= 4180000)[-10:]
    status, raw, a = d.analyze({"game": "grundys_game", "piles": heaps})
    if status != 200:
        return p + ["sample heaps: status %d %r" % (status, raw[:200])]
    got = [c.get("grundy") for c in a.get("components", [])]
    for h, v in zip(heaps, got):
        if v != samples[h]:
            p.append("heap %d: grundy %r, reference %d" % (h, v, samples[h]))
    return p


def t_default_bound(d):
    status, _, raw, body = d.request("GET", "/v1/tables")
    bound = next(s for s in body["sections"] if s["name"] == "grundys_game")["bound"]
    return grundys_bound_problems(d, bound, None)


# ---------------------------------------------------------------------------


def main():
    if len(sys.argv) != 3:
        print("usage: test_tables.py path/to/grundyd path/to/grundy", file=sys.stderr)
        return 2
    grundyd, grundy = (os.path.abspath(a) for a in sys.argv[1:3])
    tmp = tempfile.mkdtemp(prefix="grundy-test-tables-", dir="/tmp")

    def body():
        path = os.path.join(tmp, "small.tables")
        built = TAP.run("grundy tables build writes atomically: target replaced, no temporary file left",
                        t_build_atomic, grundy, tmp, path)
        TAP.run("grundy tables build: progress lines; failures leave nothing", t_build_progress, grundy, tmp)
        if built:
            d = Daemon(grundyd, "--tables", path, env=env_without_tables())
            TAP.run("GET /v1/tables lists every section with its facts", t_catalog, d, grundy, path)
            TAP.run("Kayles, 0.07 and 0.137 at 10^18 from the table, with their periods", t_octal_far, d)
            TAP.run("Grundy's game: bound - 1 answered from the table, the bound refused naming it",
                    t_grundys_small, d)
            TAP.run("octal 0.6 bounded by the table's 256 values", t_octal_from_table, d)
            TAP.run("rebuilding the file under a running daemon does not disturb it",
                    t_rebuild_under_daemon, d, grundy, path)
            rc = d.stop()
            TAP.result(rc == 0, "grundyd with a table file stops with exit 0 on SIGTERM",
                       [] if rc == 0 else ["exit status %r" % rc])
            for name, bad, needle, via_env in bad_file_cases(tmp, path):
                TAP.run("grundyd refuses to start: %s" % name, refused, grundyd, bad, needle, via_env)
        else:
            TAP.result(False, "serving from a small table file", ["the build failed; not tested"])

        default = os.path.join(os.path.dirname(grundyd), "grundy.tables")
        names = ("default table: GET /v1/tables",
                 "default table: Grundy's game at 4,000,000 and sampled heaps match references",
                 "default table: Grundy's game bound - 1 answered, the bound refused",
                 "default table: Kayles, 0.07, 0.137 at 10^18 match references")
        small = os.path.exists(default) and default_grundys_bound(grundy, default) <= 4000000
        if not os.path.exists(default) or small:
            why = ("%s was built smaller (meson option tables_grundys_values)" % default if small
                   else "no %s (build it with ninja)" % default)
            for name in names:
                TAP.skip(name, why)
        else:
            d = Daemon(grundyd, env=env_without_tables())  # found beside the executable
            TAP.run(names[0], t_default_catalog, d, os.path.realpath(default))
            TAP.run(names[1], t_default_grundys, d, load_samples())
            TAP.run(names[2], t_default_bound, d)
            TAP.run(names[3], t_octal_far, d)
            d.stop()

    return run_main(TAP, "test_tables.py", WATCHDOG_SECONDS, body,
                    cleanup=lambda: shutil.rmtree(tmp, ignore_errors=True))


if __name__ == "__main__":
    sys.exit(main())
