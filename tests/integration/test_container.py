#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Integration tests of the defaults grundyd takes from its container
(src/server/config/container.c): thread counts from the affinity mask and the
cgroup v2 cpu.max quota, the cache bound from memory.max, and the ready
line saying where each number came from.

Usage: test_container.py path/to/grundyd

- a fake cgroup tree ($GRUNDYD_CGROUP_ROOT) with cpu.max "max 100000",
  "50000 100000", "150000 100000" and unparsable text, memory.max a number
  or "max": the CPUs are min(affinity, ceil(quota/period)), at least 1;
- options and variables win over the defaults, and the ready line names them;
- under `taskset -c 0` (skipped when taskset is missing) the ready line
  reports 1 CPU and 1 + 1 threads, and the process really runs that many
  (counted in /proc/PID/task against a run with more threads).
Prints TAP; Python 3 stdlib only; every wait is bounded.
"""

import os
import shlex
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Client, Daemon, Tap, log_fields, run_main  # noqa: E402

WATCHDOG_SECONDS = 90
TAP = Tap()
AFFINITY = len(os.sched_getaffinity(0))
ONLINE = os.cpu_count() or 1


def ready_fields(binary, args=(), env=None, prefix=()):
    """The ready line's fields of a daemon started with env and args (run
    under prefix, e.g. taskset), and its thread count once idle."""
    d = Daemon(wrapper(binary, prefix) if prefix else binary, *args, env=env)
    try:
        f = log_fields(d.ready_line())
        r = Client(d.port).request("GET", "/healthz")
        f["_healthz"] = r.status
        f["_tasks"] = len(os.listdir("/proc/%d/task" % d.proc.pid))
        return f
    finally:
        d.stop()


WRAPPERS = []


def wrapper(binary, prefix):
    """A script that execs binary under prefix (same pid, as both exec)."""
    fd, path = tempfile.mkstemp(prefix="grundyd-under-", suffix=".sh")
    with os.fdopen(fd, "w") as f:
        f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (" ".join(map(shlex.quote, prefix)), shlex.quote(binary)))
    os.chmod(path, 0o755)
    WRAPPERS.append(path)
    return path


def fake_root(tmp, cpu_max, memory_max):
    root = tempfile.mkdtemp(dir=tmp)
    for name, text in (("cpu.max", cpu_max), ("memory.max", memory_max)):
        if text is not None:
            with open(os.path.join(root, name), "w") as f:
                f.write(text + "\n")
    return dict(os.environ, GRUNDYD_CGROUP_ROOT=root)


def expect(f, want):
    return ["%s=%r, want %r (ready line fields %r)" % (k, f.get(k), v, f) for k, v in want.items() if f.get(k) != v]


def t_cpu_max(binary, tmp):
    p = []
    aff = "affinity %d of %d" % (AFFINITY, ONLINE)
    cases = [
        ("max 100000", AFFINITY, aff),
        ("50000 100000", 1, "cgroup cpu.max 50000/100000"),
        ("150000 100000", min(2, AFFINITY), "cgroup cpu.max 150000/100000" if AFFINITY >= 2 else aff),
        ("1000 100000", 1, "cgroup cpu.max 1000/100000"),
        ("garbage", AFFINITY, aff),
        (None, AFFINITY, aff),
    ]
    for text, cpus, source in cases:
        f = ready_fields(binary, env=fake_root(tmp, text, None))
        p += ["cpu.max %r: %s" % (text, x) for x in expect(f, {
            "cpus": str(cpus), "cpus_from": source, "threads": str(cpus), "threads_from": source,
            "compute_threads": str(cpus), "compute_threads_from": source, "memory_max": "unlimited", "_healthz": 200})]
    return p


def t_memory_max(binary, tmp):
    p = []
    cases = [
        ("268435456", {"memory_max": "268435456", "cache_bytes": "33554432", "cache_bytes_from": "1/8 of cgroup memory.max"}),
        ("max", {"memory_max": "unlimited", "cache_bytes": "67108864", "cache_bytes_from": "default"}),
        ("17179869184", {"memory_max": "17179869184", "cache_bytes": "67108864", "cache_bytes_from": "default"}),
    ]
    for text, want in cases:
        f = ready_fields(binary, env=fake_root(tmp, "max 100000", text))
        p += ["memory.max %r: %s" % (text, x) for x in expect(f, want)]
    f = ready_fields(binary, ["--cache-bytes", "1000"], env=fake_root(tmp, None, "268435456"))
    p += ["--cache-bytes: " + x for x in expect(f, {"cache_bytes": "1000", "cache_bytes_from": "--cache-bytes"})]
    return p


def t_options_win(binary, tmp):
    env = fake_root(tmp, "50000 100000", None)
    env["GRUNDYD_THREADS"] = "3"
    f = ready_fields(binary, ["--compute-threads", "2"], env=env)
    return expect(f, {"cpus": "1", "threads": "3", "threads_from": "GRUNDYD_THREADS", "compute_threads": "2",
                      "compute_threads_from": "--compute-threads"})


def t_taskset(binary, taskset, tmp):
    # An empty cgroup tree: the machine's own quota, if any, stays out of it.
    env = {k: v for k, v in fake_root(tmp, None, None).items() if not k.startswith("GRUNDYD_") or k == "GRUNDYD_CGROUP_ROOT"}
    prefix = [taskset, "-c", "0"]
    f = ready_fields(binary, env=env, prefix=prefix)
    src = "affinity 1 of %d" % ONLINE
    p = expect(f, {"cpus": "1", "cpus_from": src, "threads": "1", "threads_from": src, "compute_threads": "1",
                   "compute_threads_from": src, "_healthz": 200})
    more = ready_fields(binary, ["--threads", "3", "--compute-threads", "4"], env=env, prefix=prefix)
    p += ["--threads 3 --compute-threads 4: " + x for x in expect(more, {"threads": "3", "compute_threads": "4"})]
    # 3 HTTP and 4 compute threads are (3 - 1) + (4 - 1) more than 1 + 1.
    extra = more["_tasks"] - f["_tasks"]
    TAP.diag("threads under taskset -c 0: %d by default, %d with --threads 3 --compute-threads 4"
             % (f["_tasks"], more["_tasks"]))
    if extra < 5:
        p.append("the process runs %d threads by default and %d with --threads 3 --compute-threads 4: "
                 "want at least 5 more" % (f["_tasks"], more["_tasks"]))
    return p


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    binary = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="grundyd-cgroup-")

    def cleanup():
        shutil.rmtree(tmp, True)
        for w in WRAPPERS:
            os.unlink(w)

    def body():
        TAP.run("cpu.max quotas size the thread pools", t_cpu_max, binary, tmp)
        TAP.run("memory.max bounds the default cache", t_memory_max, binary, tmp)
        TAP.run("options and variables win, and the ready line names them", t_options_win, binary, tmp)
        taskset = shutil.which("taskset")
        if taskset is None:
            TAP.skip("under taskset -c 0: 1 CPU, 1 + 1 threads", "taskset is missing (util-linux)")
        else:
            TAP.run("under taskset -c 0: 1 CPU, 1 + 1 threads", t_taskset, binary, taskset, tmp)

    return run_main(TAP, "test_container.py", WATCHDOG_SECONDS, body, cleanup)


if __name__ == "__main__":
    sys.exit(main())
