#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pipeline's layers (src/core/, src/games/, src/api/) and the tests'
own rules.

- Headers of the layers are included by bare name, so that each layer's
  include path (its meson.build) is the fence: no file of src/, tests/ or
  bench/ includes one by a path ("core/query.h"), and no two share a name.
- core/ includes no header of games/ or api/, and games/ none of api/.
- In the built libraries (when the build directory is given): no layer's
  objects refer to a symbol of a layer above it, and no objects, within a
  layer or across, refer to each other in a cycle (so each can be read,
  and linked, bottom up).
- Test names are unique across suites (`meson test NAME` runs one test),
  and every unit test source under tests/ is built by tests/meson.build."""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from harness import REPO_ROOT, Tap  # noqa: E402

LAYERS = ("core", "games", "api")  # bottom up
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_headers(layer):
    top = os.path.join(REPO_ROOT, "src", layer)
    return {n for d, _, names in os.walk(top) for n in names if n.endswith(".h")}


def sources(root):
    for d, _, names in os.walk(root):
        if any(part.startswith("build") or part == "node_modules" for part in d.split(os.sep)):
            continue
        for n in names:
            if n.endswith((".c", ".h")):
                yield os.path.join(d, n)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def t_no_paths():
    p = []
    for top in ("src", "tests", "bench"):
        for path in sources(os.path.join(REPO_ROOT, top)):
            for inc in INCLUDE.findall(read(path)):
                if inc.split("/")[0] in LAYERS and "/" in inc:
                    p.append("%s includes %s by a path" % (os.path.relpath(path, REPO_ROOT), inc))
    return p


def t_unique_names():
    seen, p = {}, []
    for layer in LAYERS:
        for h in layer_headers(layer):
            if h in seen:
                p.append("%s is a header of both %s/ and %s/" % (h, seen[h], layer))
            seen[h] = layer
    return p


def t_includes_downward():
    owner = {h: layer for layer in LAYERS for h in layer_headers(layer)}
    p = []
    for i, layer in enumerate(LAYERS):
        for path in sources(os.path.join(REPO_ROOT, "src", layer)):
            for inc in INCLUDE.findall(read(path)):
                above = owner.get(inc)
                if above and LAYERS.index(above) > i:
                    p.append("%s (%s/) includes %s of %s/, a layer above" %
                             (os.path.relpath(path, REPO_ROOT), layer, inc, above))
    return p


def objects(lib, layer):
    """{object: (defined, undefined)} of the static library lib."""
    out = subprocess.run(["nm", "-A", lib], capture_output=True, text=True, timeout=60).stdout
    objs = defaultdict(lambda: (set(), set()))
    for line in out.splitlines():
        _, obj, rest = line.split(":", 2)
        name = layer + "/" + os.path.basename(obj).replace(".c.o", "")
        f = rest.split()
        if len(f) == 3 and f[1] in "TDBRC":
            objs[name][0].add(f[2])
        elif len(f) == 2 and f[0] == "U":
            objs[name][1].add(f[1])
    return objs


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def t_links_bottom_up(build):
    objs = {}
    for layer in LAYERS:
        lib = os.path.join(build, "src", layer, "libgrundy_%s.a" % layer)
        if not os.path.exists(lib):
            return ["not built: %s" % lib]
        objs.update(objects(lib, layer))
    where = {s: o for o, (defined, _) in objs.items() for s in defined}
    graph = {o: {where[s] for s in undefined if s in where and where[s] != o} for o, (_, undefined) in objs.items()}
    p = []
    for o, uses in sorted(graph.items()):
        for u in sorted(uses):
            if LAYERS.index(u.split("/")[0]) > LAYERS.index(o.split("/")[0]):
                p.append("%s refers to %s, a layer above" % (o, u))
    for comp in cycles(graph):
        p.append("a link cycle: %s" % " <-> ".join(comp))
    return p


def t_test_names(build):
    out = subprocess.run(["meson", "introspect", "--tests", build], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        return ["meson introspect --tests failed: %s" % out.stderr.strip()[:200]]
    tests = json.loads(out.stdout)
    names, p = defaultdict(list), []
    for t in tests:
        names[t["name"]].append(",".join(t.get("suite", [])))
    for n, suites in sorted(names.items()):
        if len(suites) > 1:
            p.append("test name %s is used %d times (%s)" % (n, len(suites), "; ".join(suites)))
    built = read(os.path.join(REPO_ROOT, "tests", "meson.build"))
    for d, _, files in os.walk(os.path.join(REPO_ROOT, "tests")):
        for f in files:
            m = re.match(r"test_([a-z0-9_]+)\.c$", f)
            if m and not re.search(r"'%s'" % re.escape(m.group(1)), built):
                p.append("%s is not named in tests/meson.build" % os.path.relpath(os.path.join(d, f), REPO_ROOT))
    return p


def main():
    tap = Tap()
    tap.run("no header of core/, games/ or api/ is included by a path", t_no_paths)
    tap.run("header names are unique across the layers", t_unique_names)
    tap.run("core/ includes nothing of games/ or api/, games/ nothing of api/", t_includes_downward)
    if len(sys.argv) > 1:
        tap.run("the layers link bottom up, with no cycle between objects", t_links_bottom_up, sys.argv[1])
        tap.run("test names are unique, and every unit test is built", t_test_names, sys.argv[1])
    tap.finish()
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
