# SPDX-License-Identifier: MIT
"""The Prometheus text of grundyd's /metrics, read strictly: the one parser
the integration tests share."""
import math
import re

from harness import Client

LABEL_PAIR = r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"'
LABELS_FULL = re.compile(r"^(?:%s(?:,%s)*,?)?$" % (LABEL_PAIR, LABEL_PAIR))
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([^ ]+)(?: (-?[0-9]+))?$")


def parse_metrics(text):
    """Prometheus text format: returns (samples, types, problems); samples is
    a list of (name, labels dict, value)."""
    samples, types, helps, problems = [], {}, set(), []
    seen = set()
    for i, line in enumerate(text.split("\n")):
        if line == "":
            if i != len(text.split("\n")) - 1:
                problems.append("line %d: empty line inside the text" % (i + 1))
            continue
        if line.startswith("#"):
            parts = line.split(None, 3)
            if len(parts) >= 3 and parts[1] == "TYPE":
                if len(parts) != 4 or parts[3] not in ("counter", "gauge", "histogram", "summary", "untyped"):
                    problems.append("line %d: bad TYPE line %r" % (i + 1, line))
                elif parts[2] in types:
                    problems.append("line %d: TYPE for %s given twice" % (i + 1, parts[2]))
                else:
                    types[parts[2]] = parts[3]
            elif len(parts) >= 3 and parts[1] == "HELP":
                helps.add(parts[2])
            continue
        m = SAMPLE.match(line)
        if not m:
            problems.append("line %d: not `name{labels} value`: %r" % (i + 1, line))
            continue
        name, labels_text, value = m.group(1), m.group(2) or "", m.group(3)
        if not LABELS_FULL.match(labels_text):
            problems.append("line %d: bad labels %r" % (i + 1, labels_text))
            continue
        labels = {k: v for k, v in re.findall(LABEL_PAIR, labels_text)}
        try:
            v = float(value)
        except ValueError:
            problems.append("line %d: value %r is not a number" % (i + 1, value))
            continue
        if not math.isfinite(v):  # none of grundyd's metrics can be NaN or infinite
            problems.append("line %d: value %r is not finite" % (i + 1, value))
            continue
        family = name
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix) and name[:-len(suffix)] in types and types[name[:-len(suffix)]] == "histogram":
                family = name[:-len(suffix)]
        if family not in types:
            problems.append("line %d: sample %s before (or without) its # TYPE line" % (i + 1, name))
        if family not in helps:
            problems.append("line %d: %s has no # HELP line" % (i + 1, family))
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            problems.append("line %d: duplicate sample (same name and labels as an earlier line): %r" % (i + 1, line))
        seen.add(key)
        samples.append((name, labels, v))
    if not text.endswith("\n"):
        problems.append("the text does not end with a newline")
    return samples, types, problems


def scrape(port):
    """GET /metrics on a fresh connection: (samples, types, problems, response)."""
    c = Client(port)
    try:
        r = c.request("GET", "/metrics")
    finally:
        c.close()
    if r.status != 200:
        raise RuntimeError("GET /metrics: %r" % r)
    samples, types, problems = parse_metrics(r.raw.decode("utf-8"))
    return samples, types, problems, r


def counter_map(samples, name):
    return {tuple(sorted(labels.items())): v for n, labels, v in samples if n == name}


def value_of(samples, name, **labels):
    for n, lab, v in samples:
        if n == name and all(lab.get(k) == x for k, x in labels.items()):
            return v
    return None


def exact(samples, name, **labels):
    """The value of the sample with exactly these labels, or None."""
    return next((v for n, lab, v in samples if n == name and lab == labels), None)


def metric(port, name, **labels):
    """One integer sample of a fresh scrape (an exception when it is missing)."""
    return int(exact(scrape(port)[0], name, **labels))
