#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the pinned npm tools (OpenAPI linter, JSON Schema validator) into
# node_modules/ when package-lock.json is newer than the installed tree,
# with Node.js 20.19 or newer (scripts/node-env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f package-lock.json ] || exit 0
. scripts/node-env.sh
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
