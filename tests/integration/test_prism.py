#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""openapi.yaml through Stoplight Prism's validation proxy: grundyd behind
`prism proxy openapi.yaml http://127.0.0.1:PORT --errors`, and through it
every curl example of README.md (read from the README, so they stay in
sync), every catalogue example POSTed to /v1/analyze and /v1/moves (as
numbers, and with ?integers=string), and GET /v1/games itself. Prism checks
each request and response against the document; a mismatch comes back as
its own error (application/problem+json, 422 for a request, 500 for a
response, with an sl-violations header), which fails the test.

The README's `curl -d` sends the body as a form (the service reads any body
as JSON; openapi.yaml documents application/json), so the bodies are sent
with Content-Type: application/json; a curl with -H keeps its own header.

Usage: test_prism.py path/to/grundyd path/to/node. Prints TAP; skips when
node or node_modules/@stoplight/prism-cli is missing (scripts/npm-deps.sh
installs it)."""

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import HOST, REPO_ROOT, Client, Daemon, Tap, run_main  # noqa: E402

# What comes back through the proxy carries Prism's own headers and errors:
# Prism is the judge here, so the harness does not record it for its check.
RECORD = harness.record_response
SKIP = harness.record_response = lambda *args: None

TAP = Tap()
WATCHDOG_SECONDS = 280
PRISM = os.path.join(REPO_ROOT, "node_modules", "@stoplight", "prism-cli", "dist", "index.js")
README = os.path.join(REPO_ROOT, "README.md")
PRISM_READY_SECONDS = 90


# ---------------------------------------------------------------------------
# The README's curl examples


def code_lines(text):
    """The lines of the README's code: fenced blocks (but JSON ones) and
    blocks indented by four spaces."""
    fence = None
    for line in text.splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        if fence is not None:
            if fence != "json":
                yield line
        elif line.startswith("    "):
            yield line


def shell_commands(text):
    """Commands of the README's code, a trailing `|` or `\\` joined with the
    next line, comments dropped: those that run curl."""
    cmds, pending = [], ""
    for line in code_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        pending = pending + " " + stripped if pending else stripped
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        if pending.endswith("|"):
            continue
        cmds.append(pending)
        pending = ""
    return [c for c in cmds if re.search(r"(^|\| *)curl ", c)]


# curl flags that change only what curl shows or how it transfers, not the
# request the service sees (--compressed: Prism validates the plain body).
OUTPUT_FLAGS = {"-s", "-S", "-i", "-f", "--fail", "--compressed"}
OUTPUT_OPTIONS = {"-D", "-o", "-w"}


def curl_request(cmd):
    """(method, path, headers, body) of a README command: `curl ...` or
    `printf '%s\\n' LINES... | curl ... --data-binary @-`."""
    stdin = None
    if "|" in cmd:
        left, cmd = cmd.split("|", 1)
        words = shlex.split(left)
        if words[:2] != ["printf", "%s\\n"]:
            raise ValueError("unknown pipeline: %r" % left)
        stdin = "".join(w + "\n" for w in words[2:])
    words = shlex.split(cmd)
    assert words[0] == "curl", cmd
    headers, body, path = {}, None, None
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("-d", "--data", "--data-binary"):
            body = words[i + 1]
            if body == "@-":
                body = stdin
            i += 2
        elif w == "-H":
            name, value = words[i + 1].split(":", 1)
            headers[name.strip()] = value.strip()
            i += 2
        elif w in OUTPUT_FLAGS:
            i += 1
        elif w in OUTPUT_OPTIONS:
            i += 2
        elif w.startswith("localhost:8080"):
            path = w[len("localhost:8080"):] or "/"
            i += 1
        else:
            raise ValueError("unknown curl argument %r in %r" % (w, cmd))
    if body is not None:
        headers.setdefault("Content-Type", "application/json")
    return ("POST" if body is not None else "GET"), path, headers, body


def readme_requests():
    with open(README, encoding="utf-8") as f:
        return [(c, curl_request(c)) for c in shell_commands(f.read())]


# ---------------------------------------------------------------------------
# Prism


def free_port():
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Prism:
    """prism proxy in its own process group, ready or RuntimeError."""

    def __init__(self, node, upstream_port):
        self.port = free_port()
        self.lines = []
        self.ready = threading.Event()
        self.proc = subprocess.Popen(
            [node, PRISM, "proxy", os.path.join(REPO_ROOT, "openapi.yaml"),
             "http://%s:%d" % (HOST, upstream_port), "--errors", "--host", HOST, "--port", str(self.port)],
            cwd=REPO_ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(PRISM_READY_SECONDS):
            self.stop()
            raise RuntimeError("prism did not listen within %d s: %s"
                               % (PRISM_READY_SECONDS, "\n".join(self.lines[-20:])))

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            if "Prism is listening" in line:
                self.ready.set()
        self.ready.set()  # ended: the wait returns and the check below fails

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


def violations(r):
    """What Prism found wrong with one exchange, or []."""
    found = []
    header = r.header("sl-violations")
    if header:
        found.append("sl-violations: %s" % header[:1500])
    ctype = r.header("Content-Type") or ""
    if "problem+json" in ctype:
        found.append("prism answered %d: %s" % (r.status, r.raw[:1500].decode("utf-8", "replace")))
    return found


def refused_request(r):
    """Prism's own 422 for a request the document refuses (and nothing said
    of a response, which it never fetched)."""
    if r.status != 422 or "problem+json" not in (r.header("Content-Type") or ""):
        return False
    found = (r.json or {}).get("validation") or []
    return bool(found) and all((v.get("location") or ["?"])[0] != "response" for v in found)


def direct(port, method, path, body, headers):
    """The daemon's own answer, recorded for the harness's check against
    openapi.yaml (scripts/validate-responses.mjs)."""
    harness.record_response = RECORD
    try:
        return Client(port, timeout=60).request(method, path, body, headers)
    finally:
        harness.record_response = SKIP


def send_all(port, requests, daemon_port=None):
    """requests: (label, method, path, headers, body); problems. With
    daemon_port, a request the document refuses (a README example of an
    error) is sent to the daemon directly too: it must be refused there as
    well (a 4xx, or a batch's own error for each bad query), and its answer
    is held to openapi.yaml by the harness."""
    c = Client(port, timeout=60)
    p = []
    for label, method, path, headers, body in requests:
        r = c.request(method, path, body, headers)
        if daemon_port and refused_request(r):
            own = direct(daemon_port, method, path, body, headers)
            refused = 400 <= own.status < 500 or '"error"' in own.raw.decode("utf-8", "replace")
            if not refused:
                p.append("%s: the document refuses it but the service answers %r" % (label, own))
            TAP.diag("refused by the document and the service: %s" % label)
            continue
        if r.status >= 500 and not violations(r):
            p.append("%s: %r" % (label, r))
        p.extend("%s: %s" % (label, v) for v in violations(r))
    return p


def t_readme(port, daemon_port):
    reqs = readme_requests()
    if len(reqs) < 30:
        return ["only %d curl examples found in README.md" % len(reqs)]
    TAP.diag("%d README curl examples" % len(reqs))
    return send_all(port, [(cmd[:90], m, path, h, b) for cmd, (m, path, h, b) in reqs], daemon_port)


def catalogue_examples(port):
    r = Client(port, timeout=60).request("GET", "/v1/games")
    problems = violations(r)
    games = (r.json or {}).get("games") or []
    return problems, [(g["name"], g["example"]) for g in games]


def t_catalogue(port):
    p, examples = catalogue_examples(port)
    if len(examples) < 18:
        return p + ["%d catalogue examples" % len(examples)]
    reqs = []
    for name, example in examples:
        body = json.dumps(example)
        for path in ("/v1/analyze", "/v1/moves", "/v1/analyze?integers=string", "/v1/moves?integers=string"):
            reqs.append(("%s %s" % (name, path), "POST", path, {"Content-Type": "application/json"}, body))
    reqs.append(("GET /v1/games?integers=string", "GET", "/v1/games?integers=string", {}, None))
    reqs.append(("GET /v1/tables?integers=string", "GET", "/v1/tables?integers=string", {}, None))
    return p + send_all(port, reqs)


def t_catches(port):
    """Prism does flag a mismatch: a request the document refuses."""
    r = Client(port, timeout=60).request("POST", "/v1/analyze?integers=big", '{"game":"nim","piles":[1]}',
                                         {"Content-Type": "application/json"})
    return [] if violations(r) else ["?integers=big passed Prism: %r" % r]


def main(argv):
    if len(argv) < 2:
        print("usage: test_prism.py path/to/grundyd path/to/node", file=sys.stderr)
        return 2
    node = argv[2] if len(argv) > 2 and argv[2] else None
    why = None if node else "no node given"
    if why is None and not os.path.isfile(PRISM):
        why = "node_modules/@stoplight/prism-cli is missing (scripts/npm-deps.sh installs it)"
    prisms = []

    def body():
        if why:
            for name in ("README curl examples", "catalogue examples", "a refused request"):
                TAP.skip("through prism: " + name, why)
            return
        d = Daemon(argv[1])
        t0 = time.monotonic()
        prisms.append(Prism(node, d.port))
        TAP.diag("prism listening after %.1f s" % (time.monotonic() - t0))
        port = prisms[0].port
        TAP.run("through prism: README curl examples, no violations", t_readme, port, d.port)
        TAP.run("through prism: every catalogue example to /v1/analyze and /v1/moves, numbers and strings",
                t_catalogue, port)
        TAP.run("through prism: a refused request is flagged", t_catches, port)

    def cleanup():
        for pr in prisms:
            pr.stop()

    return run_main(TAP, "test_prism.py", WATCHDOG_SECONDS, body, cleanup)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
