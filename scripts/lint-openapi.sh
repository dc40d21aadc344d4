#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lints openapi.yaml with Redocly CLI (rules in redocly.yaml). Fails on any
# error and on any warning. Installs the pinned npm tools first when
# node_modules is missing or older than package-lock.json; needs only the npm
# registry, and nothing at all once node_modules is current. Runs under
# Node.js 20.19 or newer (scripts/node-env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh

export REDOCLY_TELEMETRY=off
export REDOCLY_SUPPRESS_UPDATE_NOTICE=true
export NO_UPDATE_NOTIFIER=1

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --no-audit --no-fund
fi

report=$(mktemp)
trap 'rm -f "$report"' EXIT

# Human-readable report first; its exit status is non-zero on errors.
status=0
npx --no-install redocly lint --format=stylish --max-problems=1000 openapi.yaml || status=$?

# Then the same lint as JSON, to count warnings (redocly exits 0 on them).
npx --no-install redocly lint --format=json --max-problems=1000 openapi.yaml >"$report" 2>/dev/null || true
counts=$(node -e '
    const fs = require("fs");
    const text = fs.readFileSync(process.argv[1], "utf8");
    const start = text.indexOf("{");
    if (start < 0) { console.log("unreadable"); process.exit(0); }
    const r = JSON.parse(text.slice(start));
    const t = r.totals || {};
    console.log(`${t.errors ?? "?"} ${t.warnings ?? "?"}`);
' "$report")

read -r errors warnings <<<"$counts"
if [[ "$status" -ne 0 || "$errors" != 0 || "$warnings" != 0 ]]; then
    echo "lint-openapi: FAILED (exit $status, errors $errors, warnings $warnings)" >&2
    exit 1
fi
echo "lint-openapi: openapi.yaml is clean (0 errors, 0 warnings)"
