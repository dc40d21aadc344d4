#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sends one workload to grundyd over one keep-alive connection and checks
every answer (bench/allocs.sh).

    alloc_client.py PORT WORKLOAD REQUESTS

Workloads: nim, nim_1e18, subtraction, kayles, grundys (POST /v1/analyze,
REQUESTS requests), ndjson_nim (one POST /v1/batch of REQUESTS Nim lines)."""
import http.client
import json
import sys
import time

BODIES = {
    "nim": '{"game":"nim","piles":[3,4,5,7]}',
    "nim_1e18": '{"game":"nim","piles":[1000000000000000001,999999999999999999,12345]}',
    "subtraction": '{"game":"subtraction","moves":[2,5,7,11],"piles":[987654321987654321,77,4096]}',
    "kayles": '{"game":"octal","code":"0.77","piles":[1000000000000000000,999999999999999999,12]}',
    "grundys": '{"game":"grundys_game","piles":[1000000,2345678,100]}',
}


def connect(port):
    for _ in range(100):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/healthz")
            c.getresponse().read()
            return c
        except OSError:
            time.sleep(0.05)
    sys.exit("alloc_client: grundyd did not start")


def main(port, workload, requests):
    c = connect(port)
    headers = {"Content-Type": "application/json"}
    if workload == "ndjson_nim":
        body = "".join('{"game":"nim","piles":[%d,%d,%d]}\n' % (i, i + 1, i * 7 + 3) for i in range(requests))
        c.request("POST", "/v1/batch", body, {"Content-Type": "application/x-ndjson"})
        r = c.getresponse()
        lines = r.read().decode().splitlines()
        assert r.status == 200 and len(lines) == requests, (r.status, len(lines))
        assert all(json.loads(line)["game"] == "nim" for line in lines[:100])
        return
    body = BODIES[workload]
    first = None
    for _ in range(requests):
        c.request("POST", "/v1/analyze", body, headers)
        r = c.getresponse()
        data = r.read()
        assert r.status == 200, data
        if first is None:
            first = data
            assert "winner" in json.loads(data)
        assert data == first


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
