# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the script that sources this
# Sourced: the host's apt configuration, for a Debian 12 root made here
# (scripts/container-test.sh's base image, scripts/fresh-test.sh's chroot).
# Sets
#   mirror       the URI of the host's bookworm source (default deb.debian.org)
#   security     the URI of its bookworm-security source
#   apt_proxy    Acquire::http::Proxy, when one is set
#   valid_until  Acquire::Check-Valid-Until ("false" for a mirror serving a
#                frozen snapshot)
read -r mirror security < <(python3 - <<'EOF'
import glob, re
main = sec = None
files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")) \
    + sorted(glob.glob("/etc/apt/sources.list.d/*.sources"))
entries = []  # (types, uris, suites)
for f in files:
    try:
        text = open(f, encoding="utf-8").read()
    except OSError:
        continue
    if f.endswith(".sources"):
        for stanza in re.split(r"\n\s*\n", text):
            fields = {}
            for line in stanza.splitlines():
                m = re.match(r"^([A-Za-z-]+):\s*(.*)$", line)
                if m and not line.startswith("#"):
                    fields[m.group(1).lower()] = m.group(2).split()
            if fields.get("enabled", ["yes"])[0] != "no":
                entries.append((fields.get("types", []), fields.get("uris", []), fields.get("suites", [])))
    else:
        for line in text.splitlines():
            line = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
            if len(line) >= 3:
                entries.append(([line[0]], [line[1]], [line[2]]))
for types, uris, suites in entries:
    if "deb" not in types:
        continue
    for u in uris:
        if "bookworm" in suites and main is None:
            main = u.rstrip("/")
        if "bookworm-security" in suites and sec is None:
            sec = u.rstrip("/")
print(main or "http://deb.debian.org/debian", sec or "http://deb.debian.org/debian-security")
EOF
)
apt_proxy=""
eval "$(apt-config shell apt_proxy Acquire::http::Proxy)"
valid_until=""
eval "$(apt-config shell valid_until Acquire::Check-Valid-Until)"
