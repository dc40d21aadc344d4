#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests of grundyd's access log (src/server/obs/log.c, access_log.c).

Usage: test_access_log.py path/to/grundyd

- text (the default): every request's line appears, with its request id,
  route, status, game and byte count;
- --access-log json: every access line is one JSON object with the same
  fields (numbers as numbers, null for what is missing, a request id with
  awkward characters still parses); off and bad values;
- SIGHUP: the lines before and after a reload all appear and the daemon
  keeps answering;
- SIGTERM: every line of the requests answered before the stop is written
  before the process exits, and event=stopped is the last line;
- a stalled stderr: the test stops reading the daemon's stderr (a pipe
  shrunk to one page), requests are still answered within a bounded time,
  grundyd_access_log_dropped_lines_total rises, the log resumes once the
  pipe is read again, and a stop with stderr still stalled ends in time.
Prints TAP; Python 3 stdlib only; loops bounded in count and time.
"""

import fcntl
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import HOST, Client, Daemon, Tap, log_fields, run_main  # noqa: E402

WATCHDOG_SECONDS = 150
TAP = Tap()
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
NIM = {"game": "nim", "piles": [1, 2, 4]}


def wait_lines(d, want, timeout=5.0):
    """Waits until every string of want is in some log line."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = "\n".join(d.log())
        if all(w in text for w in want):
            return True
        time.sleep(0.02)
    return False


def mixed_requests(c, prefix, n):
    """n requests of several routes, each with its own X-Request-Id;
    returns [(id, route, status, game, bytes)]."""
    sent = []
    for i in range(n):
        rid = "%s-%d" % (prefix, i)
        kind = i % 4
        if kind == 0:
            r, route, game = c.post(NIM, {"X-Request-Id": rid}), "/v1/analyze", "nim"
        elif kind == 1:
            r = c.post({"game": "wythoff", "piles": [1, i]}, {"X-Request-Id": rid})
            route, game = "/v1/analyze", "wythoff"
        elif kind == 2:
            r, route, game = c.request("GET", "/healthz", headers={"X-Request-Id": rid}), "/healthz", None
        else:
            r, route, game = c.request("GET", "/nowhere", headers={"X-Request-Id": rid}), "other", None
        sent.append((rid, route, r.status, game, len(r.raw)))
    return sent


def check_text_lines(d, sent):
    if not wait_lines(d, ["request_id=%s " % s[0] for s in sent]):
        missing = [s[0] for s in sent if not any("request_id=%s " % s[0] in l for l in d.log())]
        return ["%d of %d requests have no access line, e.g. %r" % (len(missing), len(sent), missing[:5])]
    by_id = {}
    for line in d.log():
        if "event=access" in line:
            f = log_fields(line)
            by_id.setdefault(f.get("request_id"), []).append(f)
    p = []
    for rid, route, status, game, nbytes in sent:
        got = by_id.get(rid, [])
        want = {"route": route, "status": str(status), "game": game or "-", "bytes": str(nbytes),
                "client": HOST, "level": "info"}
        if len(got) != 1 or any(got[0].get(k) != v for k, v in want.items()) \
                or not STAMP.match(got[0].get("ts", "")) or not got[0].get("duration_us", "").isdigit():
            p.append("%s: want one line with %r, got %r" % (rid, want, got))
    return p


def t_text(binary):
    d = Daemon(binary)
    try:
        c = Client(d.port)
        sent = mixed_requests(c, "text", 400)
        p = check_text_lines(d, sent)
        TAP.diag("text line: " + next((l for l in d.log() if "event=access" in l), ""))
        return p
    finally:
        d.stop()


def t_json(binary):
    d = Daemon(binary, "--access-log", "json")
    p = []
    try:
        c = Client(d.port)
        sent = mixed_requests(c, "json", 200)
        r = c.post(NIM, {"X-Request-Id": 'a "quoted" id'})  # not sane: the daemon makes one
        made = r.header("X-Request-Id")
        if not wait_lines(d, ['"request_id":"%s"' % s[0] for s in sent] + ['"request_id":"%s"' % made]):
            return ["not every request has a JSON access line within 5 s"]
        objs = {}
        for line in d.log():
            if line.startswith("{"):
                try:
                    o = json.loads(line)
                except ValueError as e:
                    p.append("not JSON (%s): %r" % (e, line))
                    continue
                objs[o.get("request_id")] = o
            elif "event=access" in line:
                p.append("a text access line under --access-log json: %r" % line)
        for rid, route, status, game, nbytes in sent + [(made, "/v1/analyze", r.status, "nim", len(r.raw))]:
            o = objs.get(rid)
            want = {"level": "info", "event": "access", "client": HOST, "request_id": rid, "route": route,
                    "status": status, "game": game, "bytes": nbytes}
            if o is None or any(o.get(k) != v for k, v in want.items()) or not STAMP.match(o.get("ts", "")) \
                    or type(o.get("duration_us")) is not int or type(o.get("status")) is not int:
                p.append("%s: want %r, got %r" % (rid, want, o))
            elif sorted(o) != sorted(list(want) + ["ts", "duration_us"]):
                p.append("%s: members %r" % (rid, sorted(o)))
        TAP.diag("JSON line: " + json.dumps(objs.get(sent[0][0])))
        if not any("event=ready" in l for l in d.log()):
            p.append("no event=ready line")
    finally:
        d.stop()
    return p


def t_off_and_bad_values(binary):
    p = []
    d = Daemon(binary, "--access-log", "off")
    try:
        c = Client(d.port)
        mixed_requests(c, "off", 20)
        time.sleep(0.3)
        if any("event=access" in l or '"access"' in l for l in d.log()):
            p.append("--access-log off wrote access lines")
    finally:
        d.stop()
    for args, env in ((["--access-log", "xml"], {}), ([], {"GRUNDYD_ACCESS_LOG": "loud"})):
        e = dict(os.environ, **env)
        r = subprocess.run([binary, "--port", "0"] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=e, timeout=10)
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode != 2 or "access-log" not in err or "json" not in err:
            p.append("%r %r: want exit 2 naming access-log and json, got %d %r" % (args, env, r.returncode, err))
    return p


def t_sighup(binary):
    d = Daemon(binary)
    p = []
    try:
        c = Client(d.port)
        before = mixed_requests(c, "hup-a", 40)
        d.proc.send_signal(signal.SIGHUP)
        if not wait_lines(d, ["event=reload"], 15):
            return ["no event=reload line within 15 s"]
        after = mixed_requests(c, "hup-b", 40)
        p += check_text_lines(d, before + after)
        if "event=reload ok=true" not in "\n".join(d.log()):
            p.append("reload refused: %r" % [l for l in d.log() if "event=reload" in l])
    finally:
        d.stop()
    return p


def t_sigterm_flush(binary):
    d = Daemon(binary)
    c = Client(d.port)
    sent = mixed_requests(c, "term", 300)
    c.close()
    rc = d.terminate(15)
    lines = d.log()
    p = [] if rc == 0 else ["exit status %r after SIGTERM" % rc]
    text = "\n".join(lines)
    missing = [s[0] for s in sent if "request_id=%s " % s[0] not in text]
    if missing:
        p.append("%d of %d lines missing after exit, e.g. %r" % (len(missing), len(sent), missing[:5]))
    if not lines or "event=stopped" not in lines[-1]:
        p.append("last line is not event=stopped: %r" % lines[-3:])
    return p


# ---- a stalled stderr --------------------------------------------------------


class Stallable:
    """grundyd with stderr on a one-page pipe that the test reads only when
    told to (read_on), unlike harness.Daemon's reader."""

    def __init__(self, binary, *extra):
        self.proc = subprocess.Popen([binary, "--host", HOST, "--port", "0"] + list(extra),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        harness.DAEMONS.append(self)
        self.fd = self.proc.stderr.fileno()
        fcntl.fcntl(self.fd, fcntl.F_SETPIPE_SZ, 4096)
        self.text = b""
        self.lock = threading.Lock()
        self.reading = threading.Event()
        self.port = None
        deadline = time.monotonic() + 10
        while self.port is None and time.monotonic() < deadline:
            self._read_some(0.2)
            m = re.search(rb"event=ready addr=\S+:(\d+)", self.text)
            self.port = int(m.group(1)) if m else None
        if self.port is None:
            self.kill()
            raise RuntimeError("no event=ready line: %r" % self.text)
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    def _read_some(self, timeout):
        if select.select([self.fd], [], [], timeout)[0]:
            chunk = os.read(self.fd, 65536)
            with self.lock:
                self.text += chunk
            return bool(chunk)
        return True

    def _read_loop(self):
        while self.reading.wait() and self._read_some(0.2):
            pass

    def read_on(self):
        self.reading.set()

    def log(self):
        with self.lock:
            return self.text.decode("utf-8", "replace")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def dropped(c):
    r = c.request("GET", "/metrics")
    m = re.search(r"^grundyd_access_log_dropped_lines_total (\d+)$", r.raw.decode(), re.M)
    return int(m.group(1)) if m else None


def t_stalled_stderr(binary):
    s = Stallable(binary)
    p = []
    try:
        c = Client(s.port, timeout=10)
        if dropped(c) != 0:
            p.append("dropped lines before any load: %r" % dropped(c))
        worst, n, t0 = 0.0, 0, time.monotonic()
        # Bounded: stop once lines are being dropped and a few hundred more
        # requests were answered, or after 5000 requests or 20 s.
        first_drop_at = None
        while n < 5000 and time.monotonic() - t0 < 20:
            r = c.post(NIM, {"X-Request-Id": "stall-%d" % n})
            worst = max(worst, r.elapsed)
            n += 1
            if r.status != 200:
                return ["request %d while stalled: %r" % (n, r)]
            if n % 200 == 0 and first_drop_at is None and dropped(c):
                first_drop_at = n
            if first_drop_at is not None and n >= first_drop_at + 300:
                break
        lost = dropped(c)
        TAP.diag("stalled stderr: %d requests in %.1f s, slowest %.1f ms, %r lines dropped"
                 % (n, time.monotonic() - t0, worst * 1000, lost))
        if not lost:
            p.append("grundyd_access_log_dropped_lines_total is %r after %d requests on a stalled pipe" % (lost, n))
        if worst > 3:  # blocked on the pipe it would wait for the reader, for ever
            p.append("a request took %.2f s while stderr was stalled" % worst)
        s.read_on()
        deadline = time.monotonic() + 5
        seen = False
        while not seen and time.monotonic() < deadline:
            c.post(NIM, {"X-Request-Id": "after-stall"})
            time.sleep(0.1)
            seen = "request_id=after-stall " in s.log()
        if not seen:
            p.append("no access line within 5 s once stderr was read again")
        s.proc.send_signal(signal.SIGTERM)
        if s.proc.wait(15) != 0:
            p.append("exit status %r after SIGTERM" % s.proc.returncode)
    finally:
        s.kill()
    return p


def t_stop_while_stalled(binary):
    s = Stallable(binary)
    try:
        c = Client(s.port, timeout=10)
        n, t0 = 0, time.monotonic()
        while n < 3000 and time.monotonic() - t0 < 15 and not (n % 100 == 0 and dropped(c)):
            c.post(NIM)
            n += 1
        c.close()
        t1 = time.monotonic()
        s.proc.send_signal(signal.SIGTERM)
        try:
            rc = s.proc.wait(10)
        except subprocess.TimeoutExpired:
            return ["SIGTERM with stderr stalled: not exited after 10 s"]
        took = time.monotonic() - t1
        TAP.diag("stop with stderr stalled: exit %d after %.2f s" % (rc, took))
        return [] if rc == 0 else ["exit status %d" % rc]
    finally:
        s.kill()


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    binary = sys.argv[1]

    def body():
        TAP.run("text access lines: one per request, with every field", t_text, binary)
        TAP.run("--access-log json: one JSON object per request, same fields, escaped", t_json, binary)
        TAP.run("--access-log off writes none; a bad value is refused naming json", t_off_and_bad_values, binary)
        TAP.run("SIGHUP: lines before and after the reload are all written", t_sighup, binary)
        TAP.run("SIGTERM: every line is written before exit, event=stopped last", t_sigterm_flush, binary)
        TAP.run("stalled stderr: answers stay prompt, dropped lines are counted, the log resumes",
                t_stalled_stderr, binary)
        TAP.run("SIGTERM with stderr stalled: the daemon still exits", t_stop_while_stalled, binary)

    return run_main(TAP, "test_access_log.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
