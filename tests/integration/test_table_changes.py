#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests of a table file that changes under the daemon (issue
17, findings 7 and 8).

Usage: test_table_changes.py path/to/grundyd path/to/grundy.tables

- a copy of the table file truncated under the daemon: the query that reads
  past the new end is a 503, not a SIGBUS; the daemon logs it, keeps
  serving, stops using the sections, says so in /readyz and /metrics, and
  never answers with a changed value;
- bytes changed in place are found by the verifier (--verify-interval) and
  by SIGHUP before it reloads; a file then replaced by rename is mapped
  again and its sections used;
- /v1/tables names the file by base name and checksum.
Prints TAP; Python 3 stdlib only; every wait is bounded.
"""

import os
import re
import shutil
import signal
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Client, Daemon, Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 120
TAP = Tap()


def t_tables_names_file(binary, tables):
    """/v1/tables gives the file's base name and checksum, never the
    directory it lives in."""
    p = []
    d = Daemon(binary, "--tables", os.path.abspath(tables))
    r = Client(d.port).request("GET", "/v1/tables")
    body = r.json or {}
    if body.get("file") != os.path.basename(tables):
        p.append("file %r, want %r" % (body.get("file"), os.path.basename(tables)))
    if "path" in body or os.path.dirname(os.path.abspath(tables)).encode() in r.raw:
        p.append("the body still names the directory: %r" % r.raw[:200])
    if not re.fullmatch(r"[0-9a-f]{16}", str(body.get("checksum"))):
        p.append("checksum %r is not 16 hex digits" % body.get("checksum"))
    d.stop()
    return p


def section_span(path, name):
    """(offset, length) of a section, read from the file's directory."""
    with open(path, "rb") as f:
        head = f.read(64)
        count = struct.unpack_from("<I", head, 16)[0]
        directory = f.read(count * 128)
    for i in range(count):
        e = directory[i * 128:(i + 1) * 128]
        if e[:48].rstrip(b"\0").decode() == name:
            offset, length = struct.unpack_from("<QQ", e, 56)
            return offset, length
    raise KeyError(name)


def grundys_probe(c):
    """A Grundy's game query answered from the table (heap 1,000,000, or the
    largest the file holds when it is smaller) and its answer."""
    t = c.request("GET", "/v1/tables").json
    bound = next(x["bound"] for x in t["sections"] if x["name"] == "grundys_game")
    heap = min(1000000, bound - 1)
    q = {"game": "grundys_game", "piles": [heap]}
    r = c.post(q)
    return q, heap, r.json.get("grundy") if r.status == 200 else None


def edit_value(path, offset, heap):
    """Writes another value over heap's 2 bytes in place (not a rename)."""
    with open(path, "r+b") as f:
        f.seek(offset + 2 * heap)
        old = struct.unpack("<H", f.read(2))[0]
        f.seek(offset + 2 * heap)
        f.write(struct.pack("<H", (old + 1) & 0xFFFF))


def table_copy(tables, work):
    path = os.path.join(work, "copy.tables")
    shutil.copyfile(tables, path)
    return path


def t_tables_truncated(binary, tables, work):
    """Truncating the mapped file: the query that reads past its end is a
    503 (not a SIGBUS); the daemon logs it, keeps serving, stops using the
    sections, says so in /readyz and /metrics, and never answers wrongly."""
    p = []
    path = table_copy(tables, work)
    d = Daemon(binary, "--tables", path, "--verify-interval", "0")
    c = Client(d.port)
    q, heap, want = grundys_probe(c)
    if want is None:
        return ["no Grundy value for %r before the change" % q]
    offset, _ = section_span(path, "grundys_game")
    os.truncate(path, offset + heap)  # the heap's value lies past the new end
    r = c.post(q)
    if r.status != 503 or (r.json or {}).get("error", {}).get("code") != "overloaded" or not r.header("Retry-After"):
        p.append("the query that faulted: %d %r (want 503 overloaded with Retry-After)" % (r.status, r.raw[:300]))
    if d.proc.poll() is not None:
        return p + ["the daemon died: exit %r" % d.proc.returncode]
    r = c.post(q)
    if r.status == 200 and r.json.get("grundy") != want:
        p.append("after the fault: grundy %r (want %r, or no answer from the table)" % (r.json.get("grundy"), want))
    if not d.wait_log("event=tables_fault", 3):
        p.append("no event=tables_fault log line")
    ready = c.request("GET", "/readyz")
    if ready.status != 200 or "grundys_game" not in (ready.json or {}).get("tables_off", []):
        p.append("/readyz: %d %r (want 200 naming grundys_game in tables_off)" % (ready.status, ready.raw[:300]))
    m = c.request("GET", "/metrics").raw.decode()
    if not re.search(r"^grundyd_table_sections_off [1-9]", m, re.M) or \
            not re.search(r"^grundyd_table_faults_total [1-9]", m, re.M):
        p.append("/metrics does not count the faulted sections: %r"
                 % [x for x in m.splitlines() if x.startswith("grundyd_table_")])
    nim = c.post({"game": "nim", "piles": [1, 2, 3]})
    if nim.status != 200 or nim.json.get("winner") != "second":
        p.append("nim after the fault: %d %r" % (nim.status, nim.raw[:200]))
    if d.stop() != 0:
        p.append("exit status %r" % d.proc.returncode)
    return p


def t_tables_edited(binary, tables, work):
    """Two bytes written in place into Grundy's game's values: the verifier
    (--verify-interval 1) turns the section off within its interval and the
    changed value is never answered after that; SIGHUP checks before it
    reloads, so the changed pages are not kept as "the old tables"; a file
    replaced by rename is then mapped again."""
    p = []
    path = table_copy(tables, work)
    offset, length = section_span(path, "grundys_game")
    d = Daemon(binary, "--tables", path, "--verify-interval", "1")
    c = Client(d.port)
    q, heap, want = grundys_probe(c)
    if want is None:
        return ["no Grundy value for %r before the change" % q]
    edit_value(path, offset, heap)
    if not d.wait_log('event=tables_changed section="grundys_game"', 4):
        p.append("the verifier did not find the change within 4 s")
    r = c.post(q)
    if r.status == 200 and r.json.get("grundy") != want:
        p.append("after the verifier: grundy %r (the edited value)" % r.json.get("grundy"))
    ready = c.request("GET", "/readyz").json or {}
    if "grundys_game" not in ready.get("tables_off", []):
        p.append("/readyz %r does not name grundys_game" % ready)
    d.stop()
    # SIGHUP alone, the verifier off: the check before the reload finds it
    path2 = os.path.join(work, "copy2.tables")
    shutil.copyfile(tables, path2)
    d = Daemon(binary, "--tables", path2, "--verify-interval", "0")
    c = Client(d.port)
    edit_value(path2, offset, heap)
    d.proc.send_signal(signal.SIGHUP)
    if not d.wait_log("event=reload", 4):
        p.append("no event=reload after SIGHUP")
    if not any('event=tables_changed section="grundys_game"' in x for x in d.log()):
        p.append("SIGHUP did not check the mapped tables before reloading")
    r = c.post(q)
    if r.status == 200 and r.json.get("grundy") != want:
        p.append("after SIGHUP: grundy %r (the edited pages kept as the old tables)" % r.json.get("grundy"))
    # replaced by rename, as documented: mapped again, the section back in use
    fresh = os.path.join(work, "fresh.tables")
    shutil.copyfile(tables, fresh)
    os.rename(fresh, path2)
    d.proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and sum("event=reload ok=true" in x for x in d.log()) < 1:
        time.sleep(0.05)
    r = c.post(q)
    if r.status != 200 or r.json.get("grundy") != want:
        p.append("after a rename and SIGHUP: %d %r (want grundy %r from the table)" % (r.status, r.raw[:200], want))
    if "tables_off" in (c.request("GET", "/readyz").json or {}):
        p.append("/readyz still names sections off after the new file was mapped")
    d.stop()
    return p


def main():
    binary = sys.argv[1]
    tables = sys.argv[2]
    work = tempfile.mkdtemp(prefix="grundy-table-changes-")

    def body():
        TAP.run("/v1/tables names the file by base name and checksum", t_tables_names_file, binary, tables)
        TAP.run("table file truncated under the daemon: 503, no crash, sections off",
                t_tables_truncated, binary, tables, work)
        TAP.run("table file edited in place: the verifier and SIGHUP stop using the section",
                t_tables_edited, binary, tables, work)

    return run_main(TAP, "test_table_changes.py", WATCHDOG_SECONDS, body,
                    cleanup=lambda: shutil.rmtree(work, ignore_errors=True))


if __name__ == "__main__":
    sys.exit(main())
