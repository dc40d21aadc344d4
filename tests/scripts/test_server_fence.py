#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fence between src/server/'s folders (src/server/meson.build), and
what the front door must not grow back.

- Headers of src/server/ are included by bare name, so that a folder's
  include path decides what it sees: no file of src/, tests/ or bench/
  includes a server header by a path ("server/mhd/request.h"), which would
  go round the fence, and no two server headers share a name.
- Every #include "NAME.h" of a server file names a header of its own folder
  or of a folder its meson.build puts on its include path (the compiler
  refuses the others; this says which rule a new include breaks).
- In the built libraries (when the build directory is given), no folder's
  objects refer to a symbol that a folder above it defines: the layers
  link bottom up, with no cycle.
- No file under src/server/ is named relay, and none makes a socket pair:
  libmicrohttpd reads the client's own socket, and no byte of a request or
  an answer is copied through a pair."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from harness import REPO_ROOT, Tap  # noqa: E402

SERVER = os.path.join(REPO_ROOT, "src", "server")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folders():
    return sorted(d for d in os.listdir(SERVER) if os.path.isdir(os.path.join(SERVER, d)))


def sources(root, exts=(".c", ".h")):
    for d, _, names in os.walk(root):
        if any(part.startswith("build") or part == "node_modules" for part in d.split(os.sep)):
            continue
        for n in names:
            if n.endswith(exts):
                yield os.path.join(d, n)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def headers_by_folder():
    return {d: {n for n in os.listdir(os.path.join(SERVER, d)) if n.endswith(".h") or n.endswith(".h.in")}
            for d in folders()}


def visible(folder):
    """The folders on folder's include path, from its meson.build: its
    _inc list is built from the _inc lists of the folders it uses."""
    text = read(os.path.join(SERVER, folder, "meson.build"))
    m = re.search(r"^server_%s_inc = (.*)$" % folder, text, re.M)
    if not m:
        return None
    seen = {folder}
    for used in re.findall(r"server_([a-z]+)_inc", m.group(1)):
        if used != folder:
            seen |= visible(used) or set()
    for extra in re.findall(r"'\.\./([a-z]+)'", m.group(1)):
        seen.add(extra)
    return seen


def t_no_paths():
    p = []
    for root in ("src", "tests", "bench"):
        for path in sources(os.path.join(REPO_ROOT, root)):
            for inc in INCLUDE.findall(read(path)):
                if inc.startswith("server/"):
                    p.append("%s includes \"%s\": name server headers bare" % (os.path.relpath(path, REPO_ROOT), inc))
    return p


def t_unique_names():
    owner, p = {}, []
    for d, names in headers_by_folder().items():
        for n in names:
            if n in owner:
                p.append("%s is in both %s/ and %s/" % (n, owner[n], d))
            owner[n] = d
    return p


def t_includes_allowed():
    heads = headers_by_folder()
    where = {n.replace(".h.in", ".h"): d for d, names in heads.items() for n in names}
    p = []
    for d in folders():
        allowed = visible(d)
        if allowed is None:
            p.append("src/server/%s/meson.build defines no server_%s_inc" % (d, d))
            continue
        for path in sources(os.path.join(SERVER, d)):
            for inc in INCLUDE.findall(read(path)):
                home = where.get(inc)
                if home and home not in allowed:
                    p.append("%s includes %s of %s/, which its folder may not use"
                             % (os.path.relpath(path, REPO_ROOT), inc, home))
    return p


# The folders bottom up (src/server/meson.build's subdir order).
ORDER = ("obs", "config", "jobs", "ndjson", "front", "mhd", "main")


def symbols(lib):
    """(defined, undefined) global symbols of the static library lib."""
    out = subprocess.run(["nm", "-g", lib], capture_output=True, text=True, timeout=60).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
        elif len(f) == 3 and f[1] in "TDBRC":
            defined.add(f[2])
    return defined, undefined


def t_links_bottom_up(build):
    if sorted(folders()) != sorted(ORDER):
        return ["src/server/'s folders are %s; ORDER lists %s" % (folders(), list(ORDER))]
    libs = [os.path.join(build, "src", "server", d, "libgrundy_server_%s.a" % d) for d in ORDER]
    missing = [x for x in libs if not os.path.exists(x)]
    if missing:
        return ["not built: %s" % ", ".join(missing)]
    syms = [symbols(x) for x in libs]
    p = []
    for i, (_, undefined) in enumerate(syms):
        for j in range(i + 1, len(ORDER)):
            up = sorted(undefined & syms[j][0])
            if up:
                p.append("%s/ refers to %s of %s/, a folder above it" % (ORDER[i], ", ".join(up[:5]), ORDER[j]))
    return p


def t_no_relay():
    p = []
    for path in sources(SERVER, (".c", ".h", ".build")):
        rel = os.path.relpath(path, REPO_ROOT)
        if "relay" in os.path.basename(path):
            p.append("%s: no file of the server is a relay" % rel)
        if re.search(r"\bsocketpair\s*\(", read(path)):
            p.append("%s makes a socket pair" % rel)
    return p


def main():
    tap = Tap()
    tap.run("no server header is included by a path", t_no_paths)
    tap.run("server header names are unique across its folders", t_unique_names)
    tap.run("each folder includes only headers of the folders its meson.build lets it use", t_includes_allowed)
    if len(sys.argv) > 1:
        tap.run("the folders' libraries link bottom up: no symbol of a folder above", t_links_bottom_up,
                sys.argv[1])
    tap.run("no relay, no socket pair under src/server/", t_no_relay)
    tap.finish()
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
