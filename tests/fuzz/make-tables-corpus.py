#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of the table-loader fuzz target (fuzz_tables.c):
small valid table files cut from a real one, plus truncated, extended and
byte-flipped variants of them.

    build-dev/grundy tables build /tmp/small.tables --grundys-values 64 \\
        --octal-values 64 --wythoff 16 --divisor 64 --quiet
    tests/fuzz/make-tables-corpus.py /tmp/small.tables tests/fuzz/corpus/tables

The format (src/tables/format.h) is written here independently of
src/tables/writer.c; `grundy tables info` accepts every valid seed. Each
output is named after what it holds; existing files in OUTDIR are kept."""
import os
import struct
import sys

MAGIC = b"GRUNDYTB"
SEQUENCE, FAMILY, GRID, BITSET = 1, 2, 3, 4
PERIODIC = 1
ENTRY = struct.Struct("<48sIIQQQQQQQQQ")  # 128 bytes
MEMBER = struct.Struct("<QQQQQIHHQQ")     # 64 bytes
HEADER = struct.Struct("<8sIIIIQQQQQ")    # 64 bytes
M64 = (1 << 64) - 1


def mix(h, w):
    h ^= w
    h = (h * 0x9E3779B97F4A7C15) & M64
    return h ^ (h >> 29)


def checksum(data):
    h = mix(0x243F6A8885A308D3, len(data))
    for i in range(0, len(data) - len(data) % 8, 8):
        h = mix(h, struct.unpack_from("<Q", data, i)[0])
    tail = len(data) % 8
    if tail:
        h = mix(h, int.from_bytes(data[-tail:], "little"))
    return mix(h, 0x13198A2E03707344)


def read(path):
    """{name: (kind, flags, facts dict, data bytes)} of a table file."""
    raw = open(path, "rb").read()
    h = HEADER.unpack_from(raw, 0)
    assert h[0] == MAGIC, "not a table file"
    out = {}
    for i in range(h[3]):
        (name, kind, flags, off, length, _ck, count, pre, per, mx, param, _r) = ENTRY.unpack_from(raw, 64 + 128 * i)
        name = name.rstrip(b"\0").decode()
        out[name] = dict(kind=kind, flags=flags, count=count, pre=pre, per=per, max=mx, param=param,
                         data=raw[off:off + length])
    return out


def u16s(data):
    return list(struct.unpack("<%dH" % (len(data) // 2), data))


def sequence(values, pre=None, per=None):
    """A SEQUENCE section from a list of values; periodic when pre/per given
    and they fit the count."""
    periodic = per is not None and per >= 1 and pre + per <= len(values)
    return dict(kind=SEQUENCE, flags=PERIODIC if periodic else 0, count=len(values),
                pre=pre if periodic else 0, per=per if periodic else 0, max=max(values), param=0,
                data=struct.pack("<%dH" % len(values), *values))


def members_of(sec):
    d = sec["data"]
    values = u16s(d[64 * sec["count"]:])
    for i in range(sec["count"]):
        key, first, count, pre, per, flags, mx, _r16, _a, _b = MEMBER.unpack_from(d, 64 * i)
        yield key, values[first:first + count], (pre, per) if flags & PERIODIC else (None, None)


def family(members):
    """members: [(key, values, (pre, per))], keys increasing."""
    recs, values = b"", []
    for key, vals, (pre, per) in members:
        periodic = per is not None and pre + per <= len(vals)
        recs += MEMBER.pack(key, len(values), len(vals), pre if periodic else 0, per if periodic else 0,
                            PERIODIC if periodic else 0, max(vals), 0, 0, 0)
        values += vals
    return dict(kind=FAMILY, flags=0, count=len(members), pre=0, per=0, max=0, param=len(values),
                data=recs + struct.pack("<%dH" % len(values), *values))


def grid(rows, cols, values):
    return dict(kind=GRID, flags=0, count=rows * cols, pre=0, per=0, max=max(values), param=rows,
                data=struct.pack("<%dH" % len(values), *values))


def bitset(bits):
    words = [0] * ((len(bits) + 63) // 64)
    for n, b in enumerate(bits):
        if b:
            words[n // 64] |= 1 << (n % 64)
    ones = sum(bits)
    return dict(kind=BITSET, flags=0, count=len(bits), pre=0, per=0, max=1 if ones else 0, param=ones,
                data=struct.pack("<%dQ" % len(words), *words))


def align(n):
    return (n + 63) // 64 * 64


def write(sections):
    """The bytes of a table file holding sections {name: section}."""
    names = sorted(sections, key=lambda s: s.encode())
    at = align(64 + 128 * len(names))
    entries, body = b"", bytearray(at)
    for name in names:
        s = sections[name]
        entries += ENTRY.pack(name.encode(), s["kind"], s["flags"], at, len(s["data"]), checksum(s["data"]),
                              s["count"], s["pre"], s["per"], s["max"], s["param"], 0)
        body += s["data"]
        at = align(at + len(s["data"]))
        body += bytes(at - len(body))
    body[64:64 + len(entries)] = entries
    head = struct.pack("<8sIIIIQQQQ", MAGIC, 1, 0x01020304, len(names), 64, len(body), 64, checksum(entries), 0)
    body[0:64] = head + struct.pack("<Q", checksum(head))
    return bytes(body)


def cut_sequence(sec, n):
    vals = u16s(sec["data"])[:n]
    return sequence(vals, sec["pre"], sec["per"]) if sec["flags"] & PERIODIC else sequence(vals)


def cut_family(sec, keep, n):
    ms = list(members_of(sec))
    step = max(1, len(ms) // keep)
    return family([(k, v[:n], pp) for k, v, pp in ms[::step][:keep]])


def cut_grid(sec, rows, cols):
    full_cols = sec["count"] // sec["param"]
    v = u16s(sec["data"])
    return grid(rows, cols, [v[r * full_cols + c] for r in range(rows) for c in range(cols)])


def cut_bitset(sec, n):
    words = struct.unpack("<%dQ" % (len(sec["data"]) // 8), sec["data"])
    return bitset([(words[i // 64] >> (i % 64)) & 1 for i in range(n)])


def main():
    src, out = sys.argv[1], sys.argv[2]
    t = read(src)
    os.makedirs(out, exist_ok=True)
    periodic = [(k, v, pp) for k, v, pp in members_of(t["subtraction:1-12"]) if pp[1] and sum(pp) <= 40]
    pk, pv, (ppre, pper) = periodic[len(periodic) // 2]

    valid = {
        "seq-grundys": {"grundys_game": cut_sequence(t["grundys_game"], 64)},
        "seq-one-value": {"divisor": sequence([0])},
        "seq-periodic": {"octal:0.07": sequence(pv[:40], ppre, pper)},
        "fam-octal": {"octal:3-digit": cut_family(t["octal:3-digit"], 8, 24)},
        "fam-subtraction": {"subtraction:1-12": cut_family(t["subtraction:1-12"], 8, 32)},
        "grid-wythoff": {"wythoff": cut_grid(t["wythoff"], 8, 8)},
        "grid-thin": {"wythoff": cut_grid(t["wythoff"], 5, 1), "zz-grid": cut_grid(t["wythoff"], 1, 7)},
        "rules": {"subtraction:squares:grundy": cut_sequence(t["subtraction:squares:grundy"], 100),
                  "subtraction:squares:outcome": cut_bitset(t["subtraction:squares:outcome"], 130)},
        "bitsets": {"subtraction:primes:outcome": cut_bitset(t["subtraction:primes:outcome"], 64),
                    "subtraction:powers_of_two:outcome": cut_bitset(t["subtraction:powers_of_two:outcome"], 1),
                    "zeros": bitset([0] * 65)},
        "long-name": {"n" * 47: sequence([3, 1, 4, 1, 5])},
        "all-kinds": {
            "divisor": cut_sequence(t["divisor"], 32),
            "grundys_game": cut_sequence(t["grundys_game"], 32),
            "octal:0.77": cut_sequence(t["octal:0.77"], 32),
            "octal:3-digit": cut_family(t["octal:3-digit"], 4, 12),
            "subtraction:1-12": cut_family(t["subtraction:1-12"], 4, 16),
            "subtraction:primes:grundy": cut_sequence(t["subtraction:primes:grundy"], 40),
            "subtraction:primes:outcome": cut_bitset(t["subtraction:primes:outcome"], 100),
            "wythoff": cut_grid(t["wythoff"], 6, 6),
        },
    }
    files = {}
    for name, secs in valid.items():
        files["valid-" + name] = write(secs)

    base = files["valid-all-kinds"]
    n_sec = len(valid["all-kinds"])
    dir_end = 64 + 128 * n_sec
    first_off = struct.unpack_from("<Q", base, 64 + 56)[0]
    padding = next(off + length for off, length in
                   (struct.unpack_from("<QQ", base, 64 + 128 * i + 56) for i in range(n_sec)) if length % 64)
    for cut in (7, 8, 63, 64, 100, dir_end - 1, dir_end, first_off + 10, len(base) - 64, len(base) - 1):
        files["trunc-all-kinds-%d" % cut] = base[:cut]
    files["extended-all-kinds-64"] = base + bytes(64)
    for what, at in (("magic", 3), ("version", 8), ("count", 16), ("size", 24), ("kind", 64 + 48),
                     ("offset", 64 + 56), ("length", 64 + 64), ("facts", 64 + 88), ("name", 64 + 128 + 2),
                     ("data", first_off + 3), ("member", 0), ("padding", padding), ("tail", len(base) - 1)):
        if what == "member":  # the second key of octal:3-digit
            idx = sorted(valid["all-kinds"]).index("octal:3-digit")
            at = struct.unpack_from("<Q", base, 64 + 128 * idx + 56)[0] + 64
        flipped = bytearray(base)
        flipped[at] ^= 0x41
        files["flip-all-kinds-" + what] = bytes(flipped)
    files["empty"] = b""
    files["magic-only"] = MAGIC
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("wrote %d files, %d bytes" % (len(files), sum(map(len, files.values()))))


if __name__ == "__main__":
    main()
