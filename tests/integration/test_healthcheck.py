#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests for `grundy healthcheck`, the probe the container image
uses as its HEALTHCHECK (the slim runtime image has no HTTP client).

Usage: test_healthcheck.py path/to/grundy path/to/grundyd

The contract (src/cli/healthcheck.h): exit 0 only on a 200 within the
timeout, 1 for any other answer, a refused connection, a peer that never
answers or answers garbage, 2 for misuse; the address and port default to
GRUNDYD_HOST and GRUNDYD_PORT, a wildcard address being probed on loopback.
Prints TAP; Python 3 stdlib only; every subprocess has a timeout.
"""

import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 60
TAP = Tap(timing=False)


def probe(grundy, args, env_extra=None, timeout=10):
    """(exit status, stdout, stderr, seconds) of `grundy healthcheck ARGS`;
    GRUNDYD_HOST and GRUNDYD_PORT are cleared unless env_extra sets them."""
    env = {k: v for k, v in os.environ.items() if k not in ("GRUNDYD_HOST", "GRUNDYD_PORT")}
    env.update(env_extra or {})
    t0 = time.monotonic()
    p = subprocess.run([grundy, "healthcheck"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"),
            time.monotonic() - t0)


def expect(result, rc, needle=None, max_seconds=None):
    """Problems of one probe result against the expected status, a text its
    output must hold, and a bound on its time."""
    got_rc, out, err, dt = result
    problems = []
    if got_rc != rc:
        problems.append("exit status %r, expected %r; stdout %r stderr %r" % (got_rc, rc, out, err))
    if needle is not None and needle not in out + err:
        problems.append("output lacks %r: stdout %r stderr %r" % (needle, out, err))
    if max_seconds is not None and dt > max_seconds:
        problems.append("took %.2f s, more than %.1f s" % (dt, max_seconds))
    return problems


class FakeServer:
    """A loopback listener that accepts connections and, per connection,
    sends `reply` (None: sends nothing and holds the connection open until
    close())."""

    def __init__(self, reply):
        self.reply = reply
        self.sock = socket.socket()
        self.sock.bind((harness.HOST, 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.conns = []
        self.stopped = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)
            if self.reply is not None:
                try:
                    c.recv(4096)
                    c.sendall(self.reply)
                    c.close()
                except OSError:
                    pass

    def close(self):
        self.stopped = True
        for c in self.conns:
            c.close()
        self.sock.close()


def free_port():
    """A loopback port with nothing listening on it (bound, then released)."""
    s = socket.socket()
    s.bind((harness.HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: test_healthcheck.py grundy grundyd")
    grundy, grundyd = sys.argv[1], sys.argv[2]

    def body():
        d = harness.Daemon(grundyd)
        port = str(d.port)
        TAP.run("GET /healthz of a running grundyd: exit 0, one line naming it",
                lambda: expect(probe(grundy, ["--port", port]), 0, "200 from 127.0.0.1:%s/healthz" % port, 5))
        TAP.run("--path /readyz: exit 0 once the tables are mapped",
                lambda: expect(probe(grundy, ["--port", port, "--path", "/readyz"]), 0, "/readyz", 5))
        TAP.run("a path that is 404: exit 1 naming the status",
                lambda: expect(probe(grundy, ["--port", port, "--path", "/nope"]), 1, "404", 5))
        TAP.run("GRUNDYD_HOST=0.0.0.0 and GRUNDYD_PORT, as the container sets them: probed on loopback",
                lambda: expect(probe(grundy, [], {"GRUNDYD_HOST": "0.0.0.0", "GRUNDYD_PORT": port}), 0,
                               "127.0.0.1:%s" % port, 5))
        TAP.run("--host and --port win over the environment",
                lambda: expect(probe(grundy, ["--host", "127.0.0.1", "--port", port],
                                     {"GRUNDYD_HOST": "192.0.2.1", "GRUNDYD_PORT": "1"}), 0, None, 5))
        rc = d.terminate(15)
        TAP.result(rc == 0, "grundyd exits 0 on SIGTERM after the probes", [] if rc == 0 else ["exit %r" % rc])

        closed = free_port()
        # --timeout 10: "at once" is well inside it, however slow the build
        TAP.run("nothing listening: exit 1 at once",
                lambda: expect(probe(grundy, ["--port", str(closed), "--timeout", "10"]), 1, "refused", 3))

        silent = FakeServer(None)
        try:
            def t_silent():
                r = probe(grundy, ["--port", str(silent.port), "--timeout", "1"])
                problems = expect(r, 1, "within the timeout", 2.5)
                if r[3] < 0.9:
                    problems.append("gave up after %.2f s, before its 1 s timeout" % r[3])
                return problems
            TAP.run("a peer that accepts and never answers: exit 1 after the 1 s timeout", t_silent)
        finally:
            silent.close()

        for reply, name in ((b"SSH-2.0-OpenSSH_9.2\r\n", "a non-HTTP answer"),
                            (b"", "a peer that closes without a byte"),
                            (b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n", "a 503 (draining)"),
                            (b"HTTP/1.1 2", "a truncated status line")):
            fake = FakeServer(reply)
            try:
                TAP.run("%s: exit 1" % name,
                        lambda: expect(probe(grundy, ["--port", str(fake.port)]), 1, None, 2.5))
            finally:
                fake.close()

        ok200 = FakeServer(b"HTTP/1.0 200 OK\r\n\r\nok")
        try:
            TAP.run("any HTTP/1.x 200 is healthy (the status line is the answer)",
                    lambda: expect(probe(grundy, ["--port", str(ok200.port)]), 0, None, 2.5))
        finally:
            ok200.close()

        misuse = [["--port"], ["--port", "0"], ["--port", "65536"], ["--port", "8o"], ["--timeout", "0"],
                  ["--timeout", "61"], ["--path", "healthz"], ["--path", "/a b"], ["--path", "/a\r\nX: y"],
                  ["--host", "example.invalid"], ["--verbose"], ["extra"]]
        for args in misuse:
            TAP.run("misuse %r: exit 2 without connecting" % (args,),
                    lambda: expect(probe(grundy, args + (["--port", str(closed)]
                                                         if "--port" not in args else [])), 2, None, 3))

    return run_main(TAP, "test_healthcheck.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
