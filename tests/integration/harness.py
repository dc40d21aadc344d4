# SPDX-License-Identifier: MIT
"""Shared plumbing for the integration tests (Python 3 stdlib only).

- Tap: TAP output (result / diag / run / skip / finish), thread-safe.
- Daemon: grundyd on HOST with --port 0; the port is read from its
  `event=ready addr=HOST:PORT` stderr line within a bounded wait. Every
  Daemon is recorded in DAEMONS so the watchdog and kill_all() can end it.
- start_watchdog(): a timer that prints "Bail out!", kills the daemons and
  exits 1 if a script overruns.
- Resp / Client: a keep-alive HTTP client for the daemon.
- bad_number_tokens(): numbers in a JSON text not written as plain integers.
- record_response() / RESPONSES: every response the Client reads is recorded
  (method, path, status, headers, body) to the JSONL file named by
  $GRUNDY_RESPONSE_LOG, or else to a temporary file of our own when node and
  the npm modules are there; run_main() then holds the recorded responses to
  openapi.yaml with scripts/validate-responses.mjs as one more TAP test.

Imported by the test scripts after inserting their own directory into
sys.path, like brute.py.
"""

import atexit
import base64
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid

HOST = "127.0.0.1"

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------------------
# TAP


class Tap:
    """timing: after each run(), a "# took N s" line when it took >= 1 s or
    failed (scripts/count-tests.py ends a failure's diagnostics there)."""

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
        if self.timing and (dt >= 1.0 or problems):
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
        RESPONSES.discard()
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


# ---------------------------------------------------------------------------
# The response log: what the daemon answered, for scripts/validate-responses.mjs

RESPONSE_LOG_ENV = "GRUNDY_RESPONSE_LOG"
# "0" skips the check (scripts/test.sh's sanitizer stages: the same code
# answers there, and the normal build's run has checked its responses).
RESPONSE_CHECK_ENV = "GRUNDY_RESPONSE_CHECK"
VALIDATOR = os.path.join(REPO_ROOT, "scripts", "validate-responses.mjs")
VALIDATOR_MODULES = ("ajv", "ajv-formats", "yaml")


def validator_missing():
    """Why scripts/validate-responses.mjs cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    for mod in VALIDATOR_MODULES:
        if not os.path.isdir(os.path.join(REPO_ROOT, "node_modules", mod)):
            return "node_modules/%s is missing (scripts/npm-deps.sh installs it)" % mod
    for f in (VALIDATOR, os.path.join(REPO_ROOT, "openapi.yaml")):
        if not os.path.isfile(f):
            return "%s is missing" % os.path.relpath(f, REPO_ROOT)
    return None


class ResponseLog:
    """Records responses as JSONL lines (append, thread-safe, one write per
    line), each tagged with this process's run id so that several scripts may
    share a file. The file is $GRUNDY_RESPONSE_LOG when set, else a temporary
    file created at the first response when the validator can run (else the
    responses are only counted)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.run = uuid.uuid4().hex
        self.count = 0        # responses recorded (or counted, with no file)
        self.path = None
        self.own = False      # a temporary file of ours
        self.fd = None
        self.error = None     # why recording failed, once it did
        self.configured = False
        self.keep = False     # keep our temporary file (it failed validation)
        atexit.register(self.discard)

    def _configure(self):
        self.configured = True
        named = os.environ.get(RESPONSE_LOG_ENV)
        try:
            if named:
                self.path = os.path.abspath(named)
                self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            elif validator_missing() is None:
                self.fd, self.path = tempfile.mkstemp(prefix="grundy-responses-", suffix=".jsonl")
                self.own = True
        except OSError as e:
            self.error = "cannot open the response log %s: %s" % (self.path, e)
            self.fd = None

    def record(self, method, path, status, headers, raw):
        rec = {"run": self.run, "method": method, "path": path, "status": status,
               "content_type": next((v for k, v in headers if k.lower() == "content-type"), None),
               "headers": [[k, v] for k, v in headers]}
        raw = raw or b""
        try:
            rec["body"] = raw.decode("utf-8")
        except UnicodeDecodeError:
            rec["body_b64"] = base64.b64encode(raw).decode("ascii")
        data = (json.dumps(rec, separators=(",", ":")) + "\n").encode("utf-8")
        with self.lock:
            if not self.configured:
                self._configure()
            self.count += 1
            if self.fd is None or self.error:
                return
            try:
                while data:
                    data = data[os.write(self.fd, data):]
            except OSError as e:
                self.error = "cannot write the response log %s: %s" % (self.path, e)

    def close(self):
        with self.lock:
            if self.fd is not None:
                os.close(self.fd)
                self.fd = None

    def discard(self):
        """Removes our temporary file unless it is kept (at exit, and when
        the watchdog fires)."""
        self.close()
        if self.own and not self.keep and self.path:
            try:
                os.unlink(self.path)
            except OSError:
                pass
            self.path = None


RESPONSES = ResponseLog()


def record_response(method, path, status, headers, raw):
    """Records one response (headers: a list of (name, value)) for the
    openapi.yaml check at the end of run_main. For requests made without
    Client."""
    RESPONSES.record(method, path, status, headers, raw)


def validate_responses(tap, timeout=240):
    """The TAP test "every response conforms to openapi.yaml (N responses)",
    when this process recorded any: scripts/validate-responses.mjs on the
    records of this run, or a skip when it cannot run."""
    log = RESPONSES
    log.close()
    n = log.count
    if n == 0:
        log.discard()
        return
    name = "every response conforms to openapi.yaml (%d responses)" % n
    if os.environ.get(RESPONSE_CHECK_ENV) == "0":
        log.discard()
        tap.skip(name, "%s=0: the sanitizer builds answer as the normal build, whose run checks "
                 "its responses" % RESPONSE_CHECK_ENV)
        return
    why = validator_missing()
    if why is not None:
        tap.skip(name, why)
        return
    if log.error:
        tap.result(False, name, [log.error])
        return
    if log.path is None:
        tap.skip(name, "no response log")
        return
    cmd = ["node", VALIDATOR, "--run", log.run, "--expect", str(n), log.path]
    try:
        p = subprocess.run(cmd, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired:
        out, rc = "validate-responses.mjs did not finish within %d s" % timeout, None
    lines = out.rstrip("\n").splitlines()
    if rc == 0:
        tap.result(True, name)
        tap.diag("\n".join(lines))
        log.discard()
        return
    log.keep = True
    if len(lines) > 120:
        lines = lines[:120] + ["... and %d more lines" % (len(lines) - 120)]
    where = "the responses are in %s (run %s)" % (log.path, log.run)
    tap.result(False, name, ["\n".join(lines + ["exit status %s; %s" % (rc, where)])])


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
                record_response(method, path, resp.status, resp.headers, raw)
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
    failed "harness error" test), then every daemon killed, cleanup(), the
    check of every recorded response against openapi.yaml (validate_responses),
    a "# runtime" line and the plan. Returns the exit status (1 if any test
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
    try:
        validate_responses(tap)
    except Exception:
        tap.result(False, "every response conforms to openapi.yaml", traceback.format_exc().splitlines())
    tap.diag("runtime %.1f s" % (time.monotonic() - t_start))
    tap.finish()
    return 1 if tap.failed else 0


def proc_stat(pid):
    """The fields of /proc/PID/stat after the command name: [0] is field 3
    (the state), so field N of proc(5) is [N - 3]."""
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid):
    """User plus system CPU time of pid in seconds, to the clock tick."""
    fields = proc_stat(pid)
    return (int(fields[14 - 3]) + int(fields[15 - 3])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    """The resident set of process pid in KiB (VmRSS), or None when gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def log_fields(line):
    """key=value pairs of a text log line (values may be "quoted")."""
    out = {}
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)', line):
        v = m.group(2)
        out[m.group(1)] = v[1:-1] if v.startswith('"') and v.endswith('"') and len(v) >= 2 else v
    return out
