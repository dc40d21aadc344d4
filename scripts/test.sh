#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs dependencies, builds with warnings as errors, and runs every test:
# Check unit tests, HTTP and CLI integration tests against the real binaries,
# the OpenAPI lint and response validation, and the fuzz corpora. Then runs
# the suite again built with AddressSanitizer and UndefinedBehavior-
# Sanitizer (all but suite exhaustive, whose time is its own brute force),
# and the tests that start grundyd with ThreadSanitizer; any
# sanitizer report fails the test it happens in. Prints each stage's time,
# a "failed: LABEL: TEST: ..." line for each failed case (with the first
# diagnostic lines its test printed), then
# "LABEL: N passed, N failed" for each run and, last,
# "total: N passed, N failed", counting every individual test case.
#
# After the normal build, the playground page is tested in a real browser
# (scripts/browser-test.sh: Debian's Chromium, installed when missing, driven
# by playwright-core against the grundyd just built; TAP in
# build-test/browser.tap, screenshots in build-test/browser-artifacts/).
# Then the deployment: the container image is built with podman and tested
# from inside (scripts/container-test.sh: its smoke stage starts grundyd in
# the runtime image; TAP in build-test/container.tap), and the Kubernetes
# manifests and the systemd unit are validated (scripts/manifests-test.sh;
# TAP in build-test/manifests.tap).
#
# The npm tools need Node.js 20.19 or newer: scripts/node-env.sh, sourced
# before anything is configured, puts a pinned one first on PATH when the
# system's is older (Debian 12's is 18), so that meson's find_program('node'),
# the integration tests and every script started from here run under it.
#
# Environment: GRUNDY_SANITIZERS=0 skips the two sanitizer runs;
# GRUNDY_BROWSER=0 skips the browser tests; GRUNDY_CONTAINER=0 skips the
# container image (the manifests are still validated).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
. scripts/node-env.sh
scripts/npm-deps.sh

status=0
logs=()
times=()
t_start=$SECONDS

# configured_node DIR: the node that DIR's tests run (meson records the path
# find_program found at configure time), or nothing when it found none.
configured_node() {
    meson introspect --tests "$1" 2>/dev/null | python3 -c '
import json, sys
try:
    tests = json.load(sys.stdin)
except ValueError:
    tests = []
print(next((t["cmd"][0] for t in tests if t["name"] == "openapi-examples"), ""))'
}

# configure DIR -Dopt=value...: sets up DIR, or applies the options to an
# existing one so that a changed line here takes effect. An existing DIR
# configured with another node than the one on PATH now (or with none) is
# configured again, which finds this one.
configure() {
    local dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >/dev/null
    elif [ "$(configured_node "$dir")" != "$(command -v node || true)" ]; then
        echo "test.sh: $dir: configuring again for $(command -v node || echo 'no node')"
        meson setup --reconfigure "$dir" "$@" >/dev/null
    elif ! meson configure "$dir" "$@" >/dev/null 2>&1; then
        # an option newer than DIR's configuration (meson configure does
        # not read meson_options.txt again)
        meson setup --reconfigure "$dir" "$@" >/dev/null
    fi
}

# stage_done NAME SECONDS_AT_START: records how long a stage took.
stage_done() {
    times+=("$(printf '%-36s %4d s' "$1" $((SECONDS - $2)))")
    echo "test.sh: $1 took $((SECONDS - $2)) s"
}

# build_and_test LABEL DIR "NINJA TARGETS" [meson test args]: builds (all
# targets when none are named), then runs the tests, keeping the log for the
# count at the end. The last run's log is removed first: a build that fails
# leaves no log, which the count reports as a failure.
build_and_test() {
    local label=$1 dir=$2 targets=$3
    shift 3
    rm -f "$dir/meson-logs/testlog.json"
    logs+=("$label=$dir/meson-logs/testlog.json")
    # shellcheck disable=SC2086 # targets are words
    if ninja -C "$dir" $targets; then
        meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || status=1
    else
        status=1
    fi
}

# test_beside LABEL DIR NAME [meson test args]: starts those tests of the
# built DIR in the background, logged as NAME.json, their output kept for
# beside_done; the count at the end reads the log under LABEL.
test_beside() {
    local label=$1 dir=$2 name=$3
    shift 3
    rm -f "$dir/meson-logs/$name.json"
    logs+=("$label=$dir/meson-logs/$name.json")
    beside_out="$dir/$name.out"
    meson test -C "$dir" --print-errorlogs --no-rebuild --logbase "$name" "$@" >"$beside_out" 2>&1 &
    beside_pid=$!
}

# beside_done: waits for test_beside's tests and prints their output.
beside_done() {
    wait "$beside_pid" || status=1
    cat "$beside_out"
}

# sanitizer_env: the environment of the sanitized builds' table files and
# tests (never of the normal build's).
sanitizer_env() {
    # Sanitizer reports end the process (an abort the test sees as a crash or
    # a dropped connection); UBSan does not recover. LeakSanitizer is on.
    # ASan's quarantine of freed memory is 32 MB rather than 256 MB: the
    # tests that bound grundyd's memory while it streams would otherwise
    # measure the quarantine.
    export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:quarantine_size_mb=32:print_summary=1
    export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
    export CK_TIMEOUT_MULTIPLIER=10 # Check's own 4 s per test case
    # The daemons the tests start get 20 s of CPU per query (batches 4 times
    # that) rather than 1 s: sanitized code runs several times slower, and a
    # query the normal build answers within its deadline must still be
    # answered. Tests that set --query-cpu-ms themselves are unaffected.
    export GRUNDYD_QUERY_CPU_MS=20000
    # The integration tests' check of every response against openapi.yaml
    # (scripts/validate-responses.mjs) ran in the normal build's stage; the
    # sanitized builds answer with the same code, so it is skipped here.
    export GRUNDY_RESPONSE_CHECK=0
}

# The sanitized trees. A smaller table file than the default (built by the
# sanitized builder, which is slow): the tests that need the full default
# one skip. TSan's has the rule-defined sets' parts cut to 4,096 heaps
# (-Dtables_rule_values: at their own sizes the TSan-built builder spends a
# minute on them, and none of its tests asks for them past that).
asan="build-test-asan"
tsan="build-test-tsan"
sanitize_args=(-Dbuildtype=debugoptimized -Dwerror=false
               -Dtables_grundys_values=65536 -Dtables_octal_values=1024)
asan_args=(-Db_sanitize=address,undefined -Db_lundef=false
           "-Dc_args=-fno-omit-frame-pointer -fno-sanitize-recover=all")
tsan_args=(-Dtables_rule_values=4096 -Db_sanitize=thread "-Dc_args=-fno-omit-frame-pointer")
sanitized_build=""

# 1. The normal build: warnings are errors; the default table file.
t0=$SECONDS
build="build-test"
configure "$build" -Dwerror=true -Dbuildtype=debugoptimized
# The sanitized trees compile (and build their table files) in the
# background at the lowest CPU priority: they take the time the normal
# stage leaves idle (its table build's single-threaded end, the tests that
# wait on timeouts, the browser and the container image) and yield the rest.
if [ "${GRUNDY_SANITIZERS:-1}" != 0 ]; then
    configure "$asan" "${sanitize_args[@]}" "${asan_args[@]}"
    configure "$tsan" "${sanitize_args[@]}" "${tsan_args[@]}"
    (sanitizer_env
     nice -n 19 ninja -C "$asan" >"$asan/background-build.log" 2>&1
     nice -n 19 ninja -C "$tsan" grundyd grundy grundy.tables >"$tsan/background-build.log" 2>&1) &
    sanitized_build=$!
fi
build_and_test "gcc" "$build" ""
stage_done "build and test" "$t0"

# 1b. The playground (GET /) in headless Chromium against build-test/grundyd.
if [ "${GRUNDY_BROWSER:-1}" != 0 ]; then
    t0=$SECONDS
    rm -f "$build/browser.tap"
    logs+=("browser=$build/browser.tap")
    scripts/browser-test.sh "$build/browser.tap" "$build" || status=1
    stage_done "browser tests" "$t0"
fi

# 1c. The container image, built with podman and smoke-tested inside; needs
#     root or sudo (podman, debootstrap), else its checks are skips.
if [ "${GRUNDY_CONTAINER:-1}" != 0 ]; then
    t0=$SECONDS
    rm -f "$build/container.tap"
    logs+=("container=$build/container.tap")
    scripts/container-test.sh "$build/container.tap" || status=1
    stage_done "container image" "$t0"
fi

# 1d. The Kubernetes manifests and the systemd unit, against the Kubernetes
#     schemas and build-test/grundyd's own options.
t0=$SECONDS
rm -f "$build/manifests.tap"
logs+=("manifests=$build/manifests.tap")
scripts/manifests-test.sh "$build/manifests.tap" "$build/grundyd" || status=1
stage_done "deployment manifests" "$t0"

if [ "${GRUNDY_SANITIZERS:-1}" != 0 ]; then
    # 2. The whole suite under ASan + UBSan, but for the tests of suite
    #    no-binary (the OpenAPI lint, count-tests.py's own test), which run
    #    none of the code built, and of suite exhaustive, whose time is
    #    their own brute force rather than the code built. The background
    #    build is waited for; the foreground ninja then has nothing left to
    #    do, or shows its errors.
    t0=$SECONDS
    sanitizer_env
    wait "$sanitized_build" || true
    build_and_test "asan+ubsan" "$asan" "" --timeout-multiplier 3 --no-suite no-binary --no-suite exhaustive
    stage_done "ASan+UBSan build and test" "$t0"

    # 3. Under TSan, the tests that start grundyd and load its threads
    #    (HTTP workers, compute pool, NDJSON streams, SIGHUP reload, SIGTERM
    #    drain, the access log's writer, gzip streams, the acceptor thread
    #    against libmicrohttpd's): http, service, access-log,
    #    http-conventions, front. (test_scores, which loads the pool
    #    with score games that share no state, is left to the other runs.)
    #    Only the binaries and the table file they need are built; building
    #    the table file runs the builder's threads under TSan too. Left
    #    out: test_cli (its bound on grundy batch's memory, 3/4 of a 200 MB
    #    input, is below TSan's own footprint) and test_tables.py (three table builds by the TSan-built
    #    builder, about 40 s each, come within seconds of its 150 s watchdog).
    #    front mostly waits on the daemon's timeouts (2 s of CPU in 30 s)
    #    and runs beside the others, though they are declared to run alone:
    #    its bounds held with both cores loaded. It starts on what the
    #    background build made (waited for above); if that build failed,
    #    front fails and the foreground ninja shows why.
    t0=$SECONDS
    test_beside "tsan" "$tsan" testlog-front --timeout-multiplier 3 front
    build_and_test "tsan" "$tsan" "grundyd grundy grundy.tables" --no-rebuild \
        --timeout-multiplier 3 http service access-log http-conventions
    beside_done
    stage_done "TSan build and HTTP tests" "$t0"
fi

echo "test.sh: stage times"
printf '  %s\n' "${times[@]}"
echo "  $(printf '%-36s %4d s' "total" $((SECONDS - t_start)))"
python3 scripts/count-tests.py "${logs[@]}" || status=1
exit $status
