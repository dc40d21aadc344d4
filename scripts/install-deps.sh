#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what building, serving and testing grundyd need on Debian 12.
# Idempotent: packages already present are not fetched again.
set -euo pipefail

packages=(build-essential meson ninja-build pkg-config libmicrohttpd-dev libcjson-dev zlib1g-dev check scdoc man-db
          python3 curl ca-certificates)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
install() {
    echo "install-deps: installing $*"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

[ ${#missing[@]} -eq 0 ] || install "${missing[@]}"

# Node.js runs the OpenAPI linter and validator (tests only). Some archives'
# nodejs packages bundle npm and conflict with Debian's npm package, so npm is
# asked for only when nodejs did not bring it. Debian 12's node is 18, older
# than the npm tools need: scripts/node-env.sh then fetches a pinned newer one
# with this npm.
if [ "${GRUNDY_NO_NODE:-0}" != 1 ] && ! command -v npm >/dev/null 2>&1; then
    command -v node >/dev/null 2>&1 || install nodejs
    command -v npm >/dev/null 2>&1 || install npm
fi
