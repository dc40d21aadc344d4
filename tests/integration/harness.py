"""Shared plumbing for the integration tests (Python 3 stdlib only).

- Tap: TAP output (result / diag / run / skip / finish), thread-safe.
- Daemon: grundyd on HOST with --port 0; the port is read from its
  `event=ready addr=HOST:PORT` stderr line within a bounded wait. Every
  Daemon is recorded in DAEMONS so the watchdog and kill_all() can end it.
- start_watchdog(): a timer that prints "Bail out!", kills the daemons and
  exits 1 if a script overruns.
- Resp / Client: a keep-alive HTTP client for the daemon.
- bad_number_tokens(): numbers in a JSON text not written as plain integers.

Imported by the test scripts after inserting their own directory into
sys.path, like brute.py.
"""

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import traceback

HOST = "127.0.0.1"

# ---------------------------------------------------------------------------
# TAP


class Tap:
    """timing: after each run(), a "# took N s" line when it took >= 1 s."""

    def __init__(self, timing=True):
        self.n = 0
        self.failed = 0
        self.timing = timing
        self.lock = threading.Lock()

    def result(self, ok, name, diags=()):
        with self.lock:
            self.n += 1
            if not ok:
                self.failed += 1
            print("%s %d - %s" % ("ok" if ok else "not ok", self.n, name))
            diags = list(diags)
            for d in diags[:25]:
                for line in str(d).splitlines() or [""]:
                    print("# " + line)
            if len(diags) > 25:
                print("# ... and %d more" % (len(diags) - 25))
            sys.stdout.flush()

    def diag(self, msg):
        with self.lock:
            for line in str(msg).splitlines():
                print("# " + line)
            sys.stdout.flush()

    def run(self, name, fn, *args):
        """fn returns a list of problems (empty = pass) or raises."""
        t0 = time.monotonic()
        try:
            problems = fn(*args)
        except Exception:
            problems = ["exception:"] + traceback.format_exc().splitlines()
        dt = time.monotonic() - t0
        self.result(not problems, name, problems or ())
        if self.timing and dt >= 1.0:
            self.diag("took %.1f s" % dt)
        return not problems

    def skip(self, name, why):
        with self.lock:
            self.n += 1
            print("ok %d - %s # SKIP %s" % (self.n, name, why))
            sys.stdout.flush()

    def finish(self):
        print("1..%d" % self.n)
        sys.stdout.flush()


# ---------------------------------------------------------------------------
# Daemon and watchdog

DAEMONS = []


class Daemon:
    """grundyd --host HOST --port 0 [extra...], started and ready (or
    RuntimeError). ready_timeout: seconds to wait for event=ready."""

    ready_timeout = 10

    def __init__(self, binary, *extra, env=None):
        self.lines = []
        self.cv = threading.Condition()
        self.port = None
        self.proc = subprocess.Popen(
            [binary, "--host", HOST, "--port", "0"] + list(extra),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        DAEMONS.append(self)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + self.ready_timeout
        with self.cv:
            while self.port is None and self.proc.poll() is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.cv.wait(min(left, 0.2))
        if self.port is None:
            self.kill()
            raise RuntimeError("grundyd did not log event=ready within %d s; stderr: %r"
                               % (self.ready_timeout, self.lines))

    def _read(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self.cv:
                self.lines.append(line)
                if self.port is None and "event=ready" in line:
                    m = re.search(r"addr=(\S+):(\d+)", line)
                    if m:
                        self.port = int(m.group(2))
                self.cv.notify_all()
        with self.cv:
            self.cv.notify_all()

    def log(self):
        with self.cv:
            return list(self.lines)

    def ready_line(self):
        with self.cv:
            return next((line for line in self.lines if "event=ready" in line), "")

    def wait_log(self, needle, timeout):
        deadline = time.monotonic() + timeout
        with self.cv:
            while not any(needle in line for line in self.lines):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cv.wait(min(left, 0.2))
            return True

    def terminate(self, timeout=15):
        """SIGTERM; returns the exit status or None if it did not exit in time
        (it is then killed)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        self.reader.join(5)
        return rc

    def stop(self):
        """SIGTERM, killed after 15 s; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass


def kill_all():
    for d in DAEMONS:
        d.kill()


def start_watchdog(seconds, script):
    """After `seconds`: "Bail out! <script> exceeded N s", kill the daemons,
    exit 1. Returns the started timer (cancel() it at the end)."""

    def fire():
        print("Bail out! %s exceeded %d s" % (script, seconds))
        sys.stdout.flush()
        kill_all()
        os._exit(1)

    dog = threading.Timer(seconds, fire)
    dog.daemon = True
    dog.start()
    return dog


# ---------------------------------------------------------------------------
# HTTP

NUM_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|(-?[0-9][0-9.eE+-]*)')


def bad_number_tokens(raw, signed=False):
    """Numeric tokens of a JSON text that are not plain non-negative digits
    (signed: not plain integers, an optional '-' then digits)."""
    ok = rb"-?(0|[1-9][0-9]*)" if signed else rb"[0-9]+"
    return [m.group(1).decode() for m in NUM_TOKEN.finditer(raw)
            if m.group(1) is not None and not re.fullmatch(ok, m.group(1))]


class Resp:
    def __init__(self, status, headers, raw, elapsed=None):
        self.status = status
        self.headers = headers  # list of (name, value)
        self.raw = raw
        self.elapsed = elapsed  # seconds, when timed
        try:
            self.json = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            self.json = None

    @property
    def pairs(self):
        """The body parsed with object_pairs_hook=list (keeps member order;
        ints stay exact), or None."""
        try:
            return json.loads(self.raw.decode("utf-8"), object_pairs_hook=list) if self.raw else None
        except ValueError:
            return None

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def __repr__(self):
        return "<%d %r>" % (self.status, self.raw[:300])


# errors after which a keep-alive connection is retried once, fresh
STALE_CONNECTION = (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine)


class Client:
    """One keep-alive connection; reconnects after an error. retry_on: the
    exceptions after which a request is retried once on a fresh connection."""

    def __init__(self, port, timeout=20, retry_on=STALE_CONNECTION):
        self.port = port
        self.timeout = timeout
        self.retry_on = retry_on
        self.conn = None

    def request(self, method, path, body=None, headers=None):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        hdrs = {"Content-Type": "application/json"} if body is not None else {}
        hdrs.update(headers or {})
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                t0 = time.monotonic()
                self.conn.request(method, path, body=body, headers=hdrs)
                r = self.conn.getresponse()
                raw = r.read()
                resp = Resp(r.status, r.getheaders(), raw, time.monotonic() - t0)
                if r.will_close:
                    self.close()
                return resp
            except self.retry_on:
                # a keep-alive connection the server closed: retry once, fresh
                self.close()
                if attempt:
                    raise
            except Exception:
                self.close()
                raise

    def post(self, body, headers=None):
        return self.request("POST", "/v1/analyze", body, headers)

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
            self.conn = None


# ---------------------------------------------------------------------------
# main


def run_main(tap, script, watchdog_seconds, body, cleanup=None):
    """The scripts' common main: a watchdog, body() (an exception in it is a
    failed "harness error" test), then every daemon killed, cleanup(), a
    "# runtime" line and the plan. Returns the exit status (1 if any test
    failed)."""
    dog = start_watchdog(watchdog_seconds, script)
    t_start = time.monotonic()
    try:
        body()
    except Exception:
        tap.result(False, "harness error", traceback.format_exc().splitlines())
    finally:
        kill_all()
        if cleanup is not None:
            cleanup()
        dog.cancel()
    tap.diag("runtime %.1f s" % (time.monotonic() - t_start))
    tap.finish()
    return 1 if tap.failed else 0
