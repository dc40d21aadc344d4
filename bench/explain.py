#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# What explanations cost in batch: `grundy batch -` over the same random
# queries slim ("explain": false) and explained (the default), per game.
# The queries are drawn from a fixed seed, so every run reads the same
# lines: 200,000 three-pile Nim positions with piles up to 10^18, and
# 20,000 of each heap game and of graph and grid sums. Prints, per set, the
# median wall time of ROUNDS runs of each form with the answers discarded
# (/dev/null: the service's work), their ratio, the ratio again with the
# answers written to a file (which adds the cost of the bytes), and the
# bytes per answer; exits 1 when the Nim set's explained form takes more than
# twice the slim one or averages more than 1,536 bytes an answer (the
# targets of the explanations' issue).
#
# Usage: bench/explain.py [BUILD_DIR] (default build-release)
# Environment: ROUNDS (3), NIM (200000), EACH (20000).
import json, os, random, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build-release")
grundy = os.path.join(build, "grundy")
rounds = int(os.environ.get("ROUNDS", "3"))
BIG = 10**18


def nim(r):
    return {"game": "nim", "piles": [r.randint(0, BIG) for _ in range(3)]}


def subtraction(r):
    return {"game": "subtraction", "moves": r.sample(range(1, 10), 3), "piles": [r.randint(0, BIG) for _ in range(3)]}


def octal(r):
    return {"game": "octal", "code": r.choice(["0.77", "0.07", "0.137"]), "piles": [r.randint(0, BIG) for _ in range(3)]}


def grundys(r):
    return {"game": "grundys_game", "piles": [r.randint(0, 1000) for _ in range(3)]}


def strange(r):
    return {"game": "strange_nim", "piles": [[r.randint(0, BIG), r.randint(1, 9)] for _ in range(3)]}


def staircase(r):
    return {"game": "staircase", "stairs": [r.randint(0, BIG) for _ in range(4)]}


def graph(r):
    n = 12
    edges = [[u, v] for u in range(n) for v in range(u + 1, n) if r.random() < 0.3]
    return {"game": "graph", "edges": edges, "tokens": [r.randrange(n) for _ in range(3)], "nodes": n}


def grid(r):
    return {"game": "grid", "rows": 8, "cols": 8, "tokens": [[r.randrange(8), r.randrange(8)] for _ in range(3)]}


SETS = [("nim, 3 piles to 10^18", nim, int(os.environ.get("NIM", "200000")))] + [
    (name, make, int(os.environ.get("EACH", "20000")))
    for name, make in [("subtraction", subtraction), ("octal", octal), ("grundys_game", grundys),
                       ("strange_nim", strange), ("staircase", staircase), ("graph sums", graph), ("grid sums", grid)]]


def write_lines(path, queries, slim):
    with open(path, "w") as f:
        for q in queries:
            f.write(json.dumps(dict(q, explain=False) if slim else q, separators=(",", ":")) + "\n")


def run(path, sink):
    """Seconds for `grundy batch -` over path, its answers written to sink
    (exit 1 when a line is an error: counted from the answers)."""
    with open(path, "rb") as f:
        start = time.perf_counter()
        subprocess.run([grundy, "batch", "-"], stdin=f, stdout=sink)
        return time.perf_counter() - start


def median(v):
    return sorted(v)[len(v) // 2]


def main():
    if not os.access(grundy, os.X_OK):
        sys.exit("explain.py: no %s; build first (scripts/run.sh builds build-release)" % grundy)
    failed = False
    print("%-24s %8s %10s %10s %7s %7s %10s %10s" % ("set", "queries", "slim s", "explain s", "ratio", "file",
                                                     "slim B", "explain B"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, count in SETS:
            r = random.Random(2026)
            queries = [make(r) for _ in range(count)]
            slim_path, full_path = os.path.join(tmp, "slim"), os.path.join(tmp, "full")
            write_lines(slim_path, queries, True)
            write_lines(full_path, queries, False)
            slim_t, full_t, slim_f, full_f = [], [], [], []
            out_path = os.path.join(tmp, "out")
            with open(os.devnull, "wb") as null:
                for _ in range(rounds):
                    slim_t.append(run(slim_path, null))
                    full_t.append(run(full_path, null))
            for _ in range(rounds):
                with open(out_path, "wb") as sink:
                    slim_f.append(run(slim_path, sink))
                slim_out = open(out_path, "rb").read()
                with open(out_path, "wb") as sink:
                    full_f.append(run(full_path, sink))
                full_out = open(out_path, "rb").read()
            errors = full_out.count(b'"error"')
            ratio = median(full_t) / median(slim_t)
            file_ratio = median(full_f) / median(slim_f)
            slim_b, full_b = len(slim_out) / count, len(full_out) / count
            print("%-24s %8d %10.3f %10.3f %7.2f %7.2f %10.0f %10.0f%s" % (
                name, count, median(slim_t), median(full_t), ratio, file_ratio, slim_b, full_b,
                "  (%d errors)" % errors if errors else ""))
            if make is nim and (ratio > 2.0 or full_b > 1536):
                failed = True
    if failed:
        print("explain.py: the Nim set's explained answers cost more than 2x the slim ones or 1,536 bytes")
    sys.exit(1 if failed else 0)


main()
