#!/usr/bin/env bash
# Installs what building, serving and testing grundyd need on Debian 12.
# Idempotent: packages already present are not fetched again.
set -euo pipefail

packages=(build-essential meson ninja-build pkg-config libmicrohttpd-dev libcjson-dev check
          python3 curl ca-certificates)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v npm >/dev/null 2>&1 && [ "${GRUNDY_NO_NODE:-0}" != 1 ]; then
    missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "install-deps: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
