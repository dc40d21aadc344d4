#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every octal period the literature knows, answered at 10^18, and octal
codes with a d0 digit.

Usage: test_octal_periods.py path/to/grundyd

- Long periods (the default table file, grundy.tables beside grundyd, built
  by the test setup): 0.127, 0.16, 0.56 and 0.376, with the preperiods and
  periods published in Flammenkamp's table of octal games and recomputed by
  Czajka's octal-games solver. From the file's own bytes, independently of
  the service: each section is periodic with the published (preperiod,
  period); its values satisfy the certificate (g(n + p) = g(n) for
  s <= n < count - p, count >= max(2s + 2p + t - 1, p + t + 1)); the
  preperiod is least (g(s - 1) != g(s - 1 + p)) and so is the period (p / q
  is no period, q a prime factor of p); the first values equal brute.py's
  plain mex. Then grundyd answers heaps up to 10^18 with those values,
  components[].period the published pair, and its winning move replayed
  (the nim-sum of the position left, from the file's values, is 0).
  Skipped ("# SKIP") when the file was built smaller.
- d0 = 4 (split a heap in two without removing a token; 4.7 is Daisies):
  values at small heaps and at 10^18 equal brute.py's (its plain mex and the
  period found on them), in normal play; /v1/moves counts the options of a
  heap of 10^18 exactly; d0 with bit 1 or 2 is a 422 naming "code".

Prints TAP; Python 3 stdlib only; loopback only."""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import brute  # noqa: E402
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 120
E18 = 10**18
TWIN_VALUES = 1000  # values checked against brute.py's plain mex

# code: (preperiod, period), Flammenkamp's table of octal games (Achim
# Flammenkamp, "Sprague-Grundy values of octal games") and Czajka's
# octal-games solver; the period holds from heap `preperiod` on.
PUBLISHED = {
    "0.127": (46578, 4),
    "0.16": (105351, 149459),
    "0.56": (326640, 144),
    "0.376": (2268248, 4),
}

HEADER = struct.Struct("<8sIIIIQQQQQ")
ENTRY = struct.Struct("<48sIIQQQQQQQQQ")
PERIODIC = 1

TAP = Tap()


def sections(path):
    """{name: (flags, count, preperiod, period, values as bytes)} of the
    sequence sections (src/tables/format.h)."""
    with open(path, "rb") as f:
        data = f.read()
    count = HEADER.unpack_from(data, 0)[3]
    out = {}
    for i in range(count):
        name, kind, flags, offset, length, _sum, n, pre, per = ENTRY.unpack_from(data, 64 + 128 * i)[:9]
        if kind == 1:
            out[name.rstrip(b"\0").decode()] = (flags, n, pre, per, data[offset:offset + 2 * n])
    return out


def value(raw, n):
    return struct.unpack_from("<H", raw, 2 * n)[0]


def prime_factors(p):
    out, q = [], 2
    while q * q <= p:
        if p % q == 0:
            out.append(q)
            while p % q == 0:
                p //= q
        q += 1
    return out + ([p] if p > 1 else [])


def t_certificates(secs):
    p_ = []
    for code, (s, p) in PUBLISHED.items():
        sec = secs.get("octal:" + code)
        if sec is None:
            p_.append("%s: no section octal:%s" % (code, code))
            continue
        flags, count, pre, per, raw = sec
        t = max(brute.parse_octal(code))
        if not flags & PERIODIC or (pre, per) != (s, p):
            p_.append("%s: section (%d, %d) periodic=%d, published (%d, %d)" % (code, pre, per, flags & 1, s, p))
            continue
        if count < max(2 * s + 2 * p + t - 1, p + t + 1):
            p_.append("%s: %d values, too few for the certificate" % (code, count))
        if raw[2 * s:2 * (count - p)] != raw[2 * (s + p):2 * count]:
            p_.append("%s: g(n + %d) != g(n) for some %d <= n < %d" % (code, p, s, count - p))
        if s > 0 and value(raw, s - 1) == value(raw, s - 1 + p):
            p_.append("%s: the preperiod %d is not least" % (code, s))
        for q in prime_factors(p):
            d = p // q
            if raw[2 * s:2 * (count - d)] == raw[2 * (s + d):2 * count]:
                p_.append("%s: %d is a period too" % (code, d))
        twin = brute.octal_values(code, TWIN_VALUES - 1)
        got = [value(raw, n) for n in range(TWIN_VALUES)]
        if got != twin:
            n = next(i for i in range(TWIN_VALUES) if got[i] != twin[i])
            p_.append("%s: g(%d) is %d in the file, %d by brute force" % (code, n, got[n], twin[n]))
    return p_


def t_far(c, secs):
    p_ = []
    for code, (s, p) in PUBLISHED.items():
        if "octal:" + code not in secs:
            p_.append("%s: no section octal:%s" % (code, code))
            continue
        raw = secs["octal:" + code][4]

        def g(n):
            return value(raw, n if n < s + p else s + (n - s) % p)
        piles = [E18, E18 - 1, s - 1, s, s + p + 12345, 3 * s + 7]
        r = c.post({"game": "octal", "code": code, "piles": piles})
        if r.status != 200:
            p_.append("%s: %d %s" % (code, r.status, r.raw[:300]))
            continue
        a = r.json
        for comp, n in zip(a["components"], piles):
            if comp["grundy"] != g(n) or comp.get("period") != {"preperiod": s, "period": p}:
                p_.append("%s heap %d: grundy %s period %s; want %d, (%d, %d)"
                          % (code, n, comp["grundy"], comp.get("period"), g(n), s, p))
        total = 0
        for n in piles:
            total ^= g(n)
        if a["grundy"] != total or (a["winner"] == "first") != (total != 0):
            p_.append("%s: grundy %s winner %s, want %d" % (code, a["grundy"], a["winner"], total))
        if total and a["next"]:
            left = 0
            for n in a["next"]["piles"]:
                left ^= g(n)
            if left:
                p_.append("%s: the winning move leaves nim-sum %d: %s" % (code, left, a["move"]))
    return p_


def t_d0_values(c):
    p_ = []
    for code in ("4.7", "4.37", "4.0", "4.07", "4.6", "4.17"):
        g = brute.octal_values(code, 600)
        found = brute.octal_period(code, 600)
        if found is None:
            p_.append("%s: brute.py finds no period in 600 values" % code)
            continue
        s, p = found
        piles = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, E18, E18 + 1]
        r = c.post({"game": "octal", "code": code, "piles": piles})
        if r.status != 200:
            p_.append("%s: %d %s" % (code, r.status, r.raw[:300]))
            continue
        for comp, n in zip(r.json["components"], piles):
            want = brute.periodic_value(g, s, p, n)
            if comp["grundy"] != want:
                p_.append("%s heap %d: grundy %s, brute force %d" % (code, n, comp["grundy"], want))
            if n >= s and comp.get("period") != {"preperiod": s, "period": p}:
                p_.append("%s heap %d: period %s, brute force (%d, %d)" % (code, n, comp.get("period"), s, p))
    return p_


def t_d0_moves(c):
    """4.7 at 10^18: d0 splits n into (a, n - a), a <= n / 2; d1 = 7 leaves
    n - 1 or splits it."""
    n = E18
    r = c.request("POST", "/v1/moves", {"game": "octal", "code": "4.7", "piles": [n], "limit": 2})
    want = n // 2 + 1 + (n - 1) // 2
    if r.status != 200 or r.json["total"] != want:
        return ["4.7 heap 10^18: %d %s, want total %d" % (r.status, r.raw[:300], want)]
    return []


def t_d0_refused(c):
    p_ = []
    for code in ("1.7", "2.7", "3.7", "5.7", "6.7", "7.7"):
        r = c.post({"game": "octal", "code": code, "piles": [3]})
        err = (r.json or {}).get("error", {}) if r.status != 200 else {}
        if r.status != 422 or err.get("field") != "code" or "0 or 4" not in err.get("message", ""):
            p_.append("%s: %d %s" % (code, r.status, r.raw[:300]))
    return p_


def main():
    if len(sys.argv) != 2:
        print("usage: test_octal_periods.py path/to/grundyd", file=sys.stderr)
        return 2
    grundyd = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    env.pop("GRUNDYD_TABLES", None)

    def body():
        default = os.path.join(os.path.dirname(grundyd), "grundy.tables")
        d = Daemon(grundyd, env=env)  # the default table, found beside the executable
        c = Client(d.port, timeout=60)
        secs = sections(default) if os.path.exists(default) else {}
        # built smaller (meson option tables_octal_values): 0.6, never
        # certified, has fewer values than the default 65,536
        small = secs.get("octal:0.6", (0, 0))[1] < 65536
        names = ("long periods: the table's certificates of 0.127 0.16 0.56 0.376, checked from its bytes",
                 "long periods: answered at 10^18 with the published periods, winning moves replayed")
        if not small:
            TAP.run(names[0], t_certificates, secs)
            TAP.run(names[1], t_far, c, secs)
        else:
            for name in names:
                TAP.skip(name, "%s was built smaller, or is missing" % default)
        TAP.run("d0 = 4: values at small heaps and at 10^18 equal brute force", t_d0_values, c)
        TAP.run("d0 = 4: /v1/moves counts the options of 4.7 at 10^18", t_d0_moves, c)
        TAP.run("d0 with bit 1 or 2: 422 naming code", t_d0_refused, c)

    return run_main(TAP, "test_octal_periods.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
