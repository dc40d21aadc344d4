#!/usr/bin/env bash
# Installs dependencies, builds with warnings as errors, and runs every test:
# Check unit tests, HTTP and CLI integration tests against the real binaries,
# the OpenAPI lint and response validation, and the fuzz corpora. Then runs
# the whole suite again built with AddressSanitizer and UndefinedBehavior-
# Sanitizer, and the integration tests with ThreadSanitizer; any sanitizer
# report fails the test it happens in. Ends with "N passed, N failed" for
# each run and a total line, counting every individual test case.
#
# Environment: GRUNDY_SANITIZERS=0 skips the two sanitizer runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/npm-deps.sh

status=0
logs=()
times=()
t_start=$SECONDS

# configure DIR -Dopt=value...: sets up DIR, or applies the options to an
# existing one so that a changed line here takes effect.
configure() {
    local dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" >/dev/null
    else
        meson setup "$dir" "$@" >/dev/null
    fi
}

# stage NAME SECONDS_AT_START: records how long a stage took.
stage_done() {
    times+=("$(printf '%-36s %4d s' "$1" $((SECONDS - $2)))")
    echo "test.sh: $1 took $((SECONDS - $2)) s"
}

# run_tests LABEL DIR [meson test args]: runs the tests, keeping the log
# for the count at the end (a stale log is removed first so that a build
# that fails is not counted as the last run's results).
run_tests() {
    local label=$1 dir=$2
    shift 2
    rm -f "$dir/meson-logs/testlog.json"
    logs+=("$label=$dir/meson-logs/testlog.json")
    meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || status=1
}

# 1. The normal build: warnings are errors; the default table file.
t0=$SECONDS
build=build-test
configure "$build" -Dwerror=true -Dbuildtype=debugoptimized
if ninja -C "$build"; then
    run_tests "gcc" "$build"
else
    status=1
    logs+=("gcc=$build/meson-logs/testlog.json")
    rm -f "$build/meson-logs/testlog.json"
fi
stage_done "build and test" "$t0"

if [ "${GRUNDY_SANITIZERS:-1}" != 0 ]; then
    # Sanitizer reports end the process (an abort the test sees as a crash or
    # a dropped connection); UBSan does not recover. LeakSanitizer is on.
    export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:print_summary=1
    export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4"
    sanitize_args=(-Dbuildtype=debugoptimized -Dwerror=false)
    cflags="-fno-omit-frame-pointer -fno-sanitize-recover=all"

    # 2. The whole suite under ASan + UBSan.
    t0=$SECONDS
    asan=build-test-asan
    configure "$asan" "${sanitize_args[@]}" -Db_sanitize=address,undefined -Db_lundef=false \
        "-Dc_args=$cflags"
    if ninja -C "$asan"; then
        run_tests "asan+ubsan" "$asan" --timeout-multiplier 3
    else
        status=1
        logs+=("asan+ubsan=$asan/meson-logs/testlog.json")
        rm -f "$asan/meson-logs/testlog.json"
    fi
    stage_done "ASan+UBSan build and test" "$t0"

    # 3. The tests that run grundyd (threads serving HTTP) under TSan: only
    #    the binaries they need are built.
    t0=$SECONDS
    tsan=build-test-tsan
    configure "$tsan" "${sanitize_args[@]}" -Db_sanitize=thread "-Dc_args=-fno-omit-frame-pointer"
    if ninja -C "$tsan" grundyd grundy grundy.tables; then
        run_tests "tsan" "$tsan" --no-rebuild --timeout-multiplier 3 http cli tables scores
    else
        status=1
        logs+=("tsan=$tsan/meson-logs/testlog.json")
        rm -f "$tsan/meson-logs/testlog.json"
    fi
    stage_done "TSan build and HTTP tests" "$t0"
fi

echo "test.sh: stage times"
printf '  %s\n' "${times[@]}"
echo "  $(printf '%-36s %4d s' "total" $((SECONDS - t_start)))"
python3 scripts/count-tests.py "${logs[@]}" || status=1
exit $status
