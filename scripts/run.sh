#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs dependencies, builds an optimised grundyd and serves it on
# 127.0.0.1:8080 (override with GRUNDYD_HOST / GRUNDYD_PORT or options passed
# through, e.g. scripts/run.sh --threads 4).
set -euo pipefail
cd "$(dirname "$0")/.."
GRUNDY_NO_NODE=1 scripts/install-deps.sh
if [ ! -f build-release/build.ninja ]; then
    meson setup build-release --buildtype=release -Dtests=false >/dev/null
fi
ninja -C build-release >/dev/null
exec build-release/grundyd "$@"
