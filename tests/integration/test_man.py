#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of the built man pages grundyd(8) and grundy(1).

Usage: test_man.py BUILD_DIR SOURCE_DIR path/to/grundyd path/to/grundy
       path/to/grundyd.8 path/to/grundy.1

- each page renders with `man -l` (80 columns, no hyphenation) with every
  groff warning enabled and none printed, holding its sections; a page
  with a troff fault is seen to warn, so the check can fail;
- grundyd.8 has an OPTIONS entry for exactly the options `grundyd --help`
  lists (each with its environment variable and numeric default), and
  names every variable in ENVIRONMENT: the page cannot drift from the
  binary;
- grundy.1 has a COMMANDS entry for every command `grundy --help` shows and
  an OPTIONS entry for every option it and each command's --help list;
- `meson install` puts them in man8 and man1;
- without scdoc on PATH the configuration of a build with tests fails,
  naming scdoc, instead of leaving the pages out.
Prints TAP; Python 3 stdlib only; every subprocess has a timeout.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Tap, run_main  # noqa: E402

WATCHDOG_SECONDS = 170
TAP = Tap()
ENTRY = re.compile(r"^ {7}(\S.*)$")  # a definition-list term: 7 columns in


def render(page):
    """(exit status, text, warnings) of `man -l PAGE` as plain text."""
    env = dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat", LC_ALL="C.UTF-8")
    p = subprocess.run(["man", "--warnings=all", "--no-hyphenation", "--no-justification", "-l", page],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=30)
    text = re.sub(r".\x08", "", p.stdout.decode("utf-8", "replace"))  # overstrikes, as col -b
    return p.returncode, text, p.stderr.decode("utf-8", "replace")


def sections(text):
    """{SECTION NAME: [its lines]} of a rendered page."""
    out, name = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z ]+$", line):
            name = line.strip()
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def entries(lines):
    """{term: description text} of a section's definition list; a term line
    such as "--port N" or "SIGTERM, SIGINT" is keyed by its first word."""
    out, key = {}, None
    for line in lines:
        m = ENTRY.match(line)
        if m:
            key = m.group(1).split()[0].rstrip(",")
            out[key] = m.group(1)
        elif key and line.strip():
            out[key] += " " + line.strip()
    return out


def check_renders(page, wanted_sections):
    rc, text, warnings = render(page)
    problems = [] if rc == 0 else ["man -l exited %d" % rc]
    if warnings.strip():
        problems.append("troff warnings: %s" % warnings)
    have = sections(text)
    problems += ["no %s section" % s for s in wanted_sections if s not in have]
    if len(text.splitlines()) < 60:
        problems.append("only %d lines rendered" % len(text.splitlines()))
    return problems


def check_warnings_seen(page):
    """A copy with an undefined escape and a bad macro argument must warn."""
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.8")
        with open(page, encoding="utf-8") as f:
            text = f.read()
        with open(bad, "w", encoding="utf-8") as f:
            f.write(text.replace(".SH NAME", ".SH NAME\n\\[nosuchglyph]\n.sp x", 1))
        _, _, warnings = render(bad)
    return [] if warnings.strip() else ["a page with a troff fault rendered without a warning"]


def daemon_options(grundyd):
    """{option: (environment variable, numeric default or None)} of grundyd --help."""
    p = subprocess.run([grundyd, "--help"], stdout=subprocess.PIPE, timeout=10)
    text = p.stdout.decode()
    opts = {}
    for m in re.finditer(r"^  --([a-z-]+) \S+\n +(.*)\((GRUNDYD_[A-Z_]+)\)$", text, re.M):
        default = re.search(r"default ([0-9][0-9.]*[0-9]|[0-9])\b", m.group(2))
        opts[m.group(1)] = (m.group(3), default.group(1) if default else None)
    for m in re.finditer(r"^  --([a-z-]+) +\S", text, re.M):  # --help, --version
        opts.setdefault(m.group(1), (None, None))
    return opts


def check_daemon_options(grundyd, page):
    opts = daemon_options(grundyd)
    if len(opts) < 20:
        return ["grundyd --help listed only %d options: %r" % (len(opts), sorted(opts))]
    _, text, _ = render(page)
    have = sections(text)
    listed = {k: v for k, v in entries(have.get("OPTIONS", [])).items() if k.startswith("--")}
    environment = " ".join(have.get("ENVIRONMENT", []))
    problems = []
    for name, (env, default) in sorted(opts.items()):
        entry = listed.get("--" + name)
        if entry is None:
            problems.append("--%s (in grundyd --help) has no entry in OPTIONS" % name)
            continue
        if env and env not in entry:
            problems.append("the --%s entry does not name %s: %r" % (name, env, entry))
        if env and env not in environment:
            problems.append("ENVIRONMENT does not name %s" % env)
        if default and "Default " + default not in entry:
            problems.append("the --%s entry lacks \"Default %s\": %r" % (name, default, entry))
    problems += ["OPTIONS has %s, which grundyd --help does not list" % k
                 for k in listed if k[2:] not in opts]
    return problems


def cli_commands(main_help):
    """The commands grundy --help shows: the names of its "Commands:" list,
    or the words after "grundy" in its usage lines."""
    block = re.search(r"^Commands:\n((?:  .*\n)+)", main_help, re.M)
    if block:
        return sorted(set(re.findall(r"^  ((?:tables )?[a-z]+)(?:  |$)", block.group(1), re.M)))
    return sorted(set(re.findall(r"^ +grundy ((?:tables )?[a-z]+)", main_help, re.M)))


def cli_help(grundy):
    """The commands and the usage texts of grundy --help and of every
    command's --help that gives one (exit 0, not a JSON answer)."""
    main = subprocess.run([grundy, "--help"], stdout=subprocess.PIPE, timeout=10).stdout.decode()
    commands = cli_commands(main)
    texts = [main]
    for cmd in commands:
        p = subprocess.run([grundy] + cmd.split() + ["--help"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
        out = p.stdout.decode("utf-8", "replace")
        if p.returncode == 0 and out.strip() and not out.lstrip().startswith("{"):
            texts.append(out)
    return commands, texts


def terms(lines):
    """The term lines of a section's definition list."""
    return [m.group(1) for m in map(ENTRY.match, lines) if m]


def check_cli(grundy, page):
    commands, texts = cli_help(grundy)
    if len(commands) < 5:
        return ["grundy --help showed only the commands %r" % commands]
    _, text, _ = render(page)
    have = sections(text)
    documented = set()
    for term in terms(have.get("COMMANDS", [])):
        words = term.split()
        documented.add(" ".join(words[:2]) if words[0] == "tables" else words[0])
    options = set(o for term in terms(have.get("OPTIONS", [])) for o in re.findall(r"-[-A-Za-z]+", term))
    problems = ["the command %r (in grundy --help) has no entry in COMMANDS" % c
                for c in commands if c not in documented]
    listed = sorted(set(o for t in texts for o in re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[A-Za-z]\b)", t)))
    problems += ["the option %s (in grundy's help) has no entry in OPTIONS" % o
                 for o in listed if o not in options]
    if "--tables" not in listed:
        problems.append("no options were read from grundy --help: %r" % listed)
    return problems


def check_installed(build_dir):
    p = subprocess.run(["meson", "introspect", "--installed", build_dir], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    if p.returncode != 0:
        return ["meson introspect --installed: %s" % p.stderr.decode()]
    dests = list(json.loads(p.stdout).values())
    return ["meson install puts no %s" % want for want in ("/man8/grundyd.8", "/man1/grundy.1")
            if not any(d.endswith(want) for d in dests)]


def check_scdoc_required(source_dir):
    """Configures the tree with a PATH that has every program of this one's
    but scdoc."""
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep):
            for name in os.listdir(d) if os.path.isdir(d) else ():
                target = os.path.join(bindir, name)
                if name != "scdoc" and not os.path.lexists(target):
                    os.symlink(os.path.join(d, name), target)
        env = dict(os.environ, PATH=bindir)
        meson = shutil.which("meson") or "meson"
        p = subprocess.run([meson, "setup", source_dir, os.path.join(tmp, "build"), "-Dtests=true"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, timeout=120)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode == 0:
        return ["configured without scdoc: the pages would be left out silently"]
    if "scdoc is needed" not in out:
        return ["the configuration failed, but not naming scdoc: %s" % out[-1500:]]
    return []


def main():
    build_dir, source_dir, grundyd, grundy, page8, page1 = sys.argv[1:7]

    def body():
        common = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "ENVIRONMENT", "EXIT STATUS", "FILES",
                  "EXAMPLES", "SEE ALSO"]
        TAP.run("grundyd.8 renders with man -l, no troff warnings", check_renders, page8,
                common + ["SIGNALS", "TABLE FILE", "LOGGING"])
        TAP.run("grundy.1 renders with man -l, no troff warnings", check_renders, page1, common + ["COMMANDS"])
        TAP.run("a page with a troff fault is seen to warn", check_warnings_seen, page8)
        TAP.run("grundyd.8 documents exactly the options of grundyd --help, variables and defaults",
                check_daemon_options, grundyd, page8)
        TAP.run("grundy.1 documents every command and option grundy's help lists", check_cli, grundy, page1)
        TAP.run("meson install puts the pages in man8 and man1", check_installed, build_dir)
        TAP.run("a build with tests refuses to configure without scdoc", check_scdoc_required, source_dir)

    return run_main(TAP, "test_man.py", WATCHDOG_SECONDS, body)


if __name__ == "__main__":
    sys.exit(main())
