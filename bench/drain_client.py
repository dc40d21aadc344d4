#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The load of bench/drain.sh: python3 drain_client.py PORT PID CLIENTS LOAD.

CLIENTS threads send queries to 127.0.0.1:PORT; after LOAD seconds PID gets
SIGTERM; the threads go on until PID has exited (bounded: 60 s). Prints one
line of counts (see bench/drain.sh for what each means)."""

import json
import os
import signal
import socket
import sys
import threading
import time

LIGHT = json.dumps({"game": "nim", "piles": [3, 4, 5, 7]}).encode()
HEAVY = json.dumps({"game": "wythoff", "piles": [900, 1307]}).encode()


def request(body):
    return (b"POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def read_response(sock):
    """(complete, keep_alive)."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = sock.recv(65536)
        if not d:
            return False, False
        buf += d
    head, _, rest = buf.partition(b"\r\n\r\n")
    low = head.decode("latin-1").lower()
    n = int(low.split("content-length:")[1].split("\r\n")[0]) if "content-length:" in low else 0
    while len(rest) < n:
        d = sock.recv(65536)
        if not d:
            return False, False
        rest += d
    return True, "connection: close" not in low


class Counts:
    def __init__(self):
        self.lock = threading.Lock()
        self.c = {"sent": 0, "answered": 0, "refused": 0, "lost_fresh": 0, "lost_reused": 0}

    def add(self, key):
        with self.lock:
            self.c[key] += 1


def client(i, port, counts, stop):
    keep = i % 2 == 1
    sock, reused, n = None, False, 0
    while not stop.is_set():
        body = HEAVY if n % 5 == 4 else LIGHT
        n += 1
        if sock is None:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                reused = False
            except OSError:
                counts.add("refused")
                time.sleep(0.01)
                continue
        counts.add("sent")
        try:
            sock.sendall(request(body))
            ok, alive = read_response(sock)
        except OSError:
            ok, alive = False, False
        counts.add("answered" if ok else "lost_reused" if reused else "lost_fresh")
        if ok and alive and keep:
            reused = True
        else:
            sock.close()
            sock = None
    if sock is not None:
        sock.close()


def main():
    port, pid, nclients, load = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    counts, stop = Counts(), threading.Event()
    ts = [threading.Thread(target=client, args=(i, port, counts, stop), daemon=True) for i in range(nclients)]
    for t in ts:
        t.start()
    time.sleep(load)
    t_sig = time.monotonic()
    os.kill(pid, signal.SIGTERM)
    deadline = t_sig + 60
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                break
        except ChildProcessError:  # not our child: gone, or a zombie its parent has yet to reap
            try:
                with open("/proc/%d/stat" % pid) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        break
            except OSError:
                break
        time.sleep(0.01)
    exited = time.monotonic() - t_sig
    stop.set()
    for t in ts:
        t.join(35)
    c = counts.c
    lost = c["lost_fresh"] + c["lost_reused"]
    print("sent=%d answered=%d lost=%d (fresh=%d reused=%d) refused_connects=%d exit_after=%.2fs"
          % (c["sent"], c["answered"], lost, c["lost_fresh"], c["lost_reused"], c["refused"], exited))


if __name__ == "__main__":
    main()
