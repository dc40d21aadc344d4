#!/usr/bin/env bash
# Installs dependencies, builds with warnings as errors, and runs every test:
# Check unit tests, HTTP and CLI integration tests against the real binaries,
# and the OpenAPI lint and response validation. Ends with "N passed, N failed"
# counting every individual test case.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/npm-deps.sh

build=build-test
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --werror --buildtype=debugoptimized >/dev/null
fi
ninja -C "$build"

status=0
meson test -C "$build" --print-errorlogs --num-processes 2 || status=$?
python3 scripts/count-tests.py "$build/meson-logs/testlog.json" || status=1
exit $status
