#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the container image (Dockerfile) with podman and tests it, writing
# TAP to OUT.tap:
#
#   scripts/container-test.sh build-test/container.tap
#
# This machine has no Docker engine and may not run containers (`podman run`
# is not used); it can build them: `podman build --isolation=chroot` runs the
# Dockerfile's RUN steps in a chroot, so the `smoke` stage, which starts
# grundyd inside the runtime image and queries it, is the test of the image.
#
# The base images are not pulled (no registry but Debian's mirror is
# reachable): `debootstrap --variant=minbase bookworm` from the mirror the
# host's apt uses is imported as docker.io/library/debian:bookworm and tagged
# docker.io/library/debian:bookworm-slim as well, the names the Dockerfile
# uses; a machine with a registry builds the same Dockerfile from the
# official images. Caches: the base image stays in podman's store (skipped
# when present, with the current BASE_RECIPE label); the debootstrap result
# is kept as a tarball in build-container/ (gitignored), so a wiped store
# re-imports without downloading; the build's layers stay in the store, so an
# unchanged tree rebuilds from cache and only the smoke test runs again.
#
# Needs root or sudo (apt-get, debootstrap, podman's rootful store). When
# podman or debootstrap cannot be installed, every check is written as
# "# SKIP" with the reason and the script exits 0; any other failure is a
# "not ok" line and exit 1.
#
# Environment:
#   GRUNDY_CONTAINER_DRIVER  podman storage driver (default: overlay when a
#                            kernel overlay mount works here, else vfs)
#   GRUNDY_CONTAINER_ROOT    podman store (default /var/lib/containers/grundyd-DRIVER,
#                            apart from podman's default store so that its driver
#                            never conflicts with another configuration)
#   GRUNDY_IMAGE_MAX_MB      bound on the runtime image's size (default 260)
set -euo pipefail
cd "$(dirname "$0")/.."

tap_out=${1:?usage: scripts/container-test.sh OUT.tap}
mkdir -p "$(dirname "$tap_out")"
cache=build-container
mkdir -p "$cache/logs"

# BASE_RECIPE names the way the base image is made below; changing that way
# means changing it, so that cached images and tarballs are made again.
BASE_RECIPE=minbase-1
BASE=docker.io/library/debian:bookworm
BASE_SLIM=docker.io/library/debian:bookworm-slim
IMAGE=localhost/grundyd:test
BUILD_IMAGE=localhost/grundyd-build:test
MAX_MB=${GRUNDY_IMAGE_MAX_MB:-260}
# The checks, in order; the TAP file names them all even when they skip.
CHECKS=(
    "podman and debootstrap are installed"
    "base images $BASE and $BASE_SLIM (debootstrap minbase from the host's mirror)"
    "build stage: binaries and the default table file"
    "runtime image $IMAGE"
    "the default target (no --target) is the runtime image"
    "runtime image config: user 10001:10001, port 8080, GRUNDYD_* env, HEALTHCHECK, entrypoint"
    "runtime image files: binaries, readable table file, user 10001, no compiler or HTTP client"
    "runtime image size within $MAX_MB MB"
    "smoke stage: grundyd inside the runtime image (its checks follow)"
)

tap=()     # result lines, numbered as they are added
failed=0
t_start=$SECONDS
result() { # result OK(0|1) NAME [DIAGNOSTIC]
    local n=$((${#tap[@]} + 1))
    if [ "$1" -eq 0 ]; then
        tap+=("ok $n - $2")
    else
        tap+=("not ok $n - $2")
        failed=1
    fi
    if [ -n "${3:-}" ]; then
        tap[-1]+=$'\n'"$(printf '%s\n' "$3" | sed 's/^/# /')"
    fi
    printf 'container-test: %s\n' "${tap[-1]}"
}
write_tap() { # the plan last: a run that dies before this leaves no plan, a failure to count-tests.py
    { printf '%s\n' "${tap[@]}"; echo "1..${#tap[@]}"; } >"$tap_out"
}
skip_all() { # skip_all REASON: every check skipped, exit 0
    echo "container-test: skipped: $1" >&2
    tap=()
    for c in "${CHECKS[@]}"; do
        tap+=("ok $((${#tap[@]} + 1)) - $c # SKIP $1")
    done
    write_tap
    exit 0
}
# log_tail FILE: the end of a log, for a failed check's diagnostic.
log_tail() { tail -n 25 "$1" 2>/dev/null || true; }
# tail_if_failed STATUS FILE: a newline and the end of the log, when STATUS is not 0.
tail_if_failed() { [ "$1" -eq 0 ] || printf '\n%s' "$(log_tail "$2")"; }

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        skip_all "needs root or passwordless sudo (apt-get, debootstrap, podman)"
    fi
fi

# 1. The tools.
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
    echo "container-test: installing ${missing[*]}"
    if ! { $sudo apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
               "${missing[@]}" >"$cache/logs/apt.log" 2>&1; }; then
        skip_all "apt-get could not install ${missing[*]} (see $cache/logs/apt.log)"
    fi
fi
result 0 "${CHECKS[0]}" "$(podman --version), debootstrap $(dpkg-query -W -f='${Version}' debootstrap 2>/dev/null)"
export PATH=$PATH:/usr/sbin:/sbin

# The storage driver: overlay where the kernel mounts it here (much faster
# and smaller than vfs), else vfs, which works anywhere.
pick_driver() {
    local d ok=1
    d=$(mktemp -d "$PWD/$cache/overlay-probe.XXXXXX")
    mkdir "$d/l" "$d/u" "$d/w" "$d/m"
    if $sudo mount -t overlay overlay -o "lowerdir=$d/l,upperdir=$d/u,workdir=$d/w" "$d/m" 2>/dev/null; then
        $sudo umount "$d/m" && ok=0
    fi
    $sudo rm -rf "$d"
    [ $ok -eq 0 ] && echo overlay || echo vfs
}
driver=${GRUNDY_CONTAINER_DRIVER:-$(pick_driver)}
root=${GRUNDY_CONTAINER_ROOT:-/var/lib/containers/grundyd-$driver}
# Every podman call: this store and driver, a runroot of its own, events in a
# file (no journald here), cgroupfs (no systemd as PID 1).
pm_flags=(--root "$root" --runroot "$root-run" --storage-driver "$driver"
          --events-backend file --cgroup-manager cgroupfs)
pm() { $sudo podman "${pm_flags[@]}" "$@"; }
echo "container-test: podman store $root (driver $driver)"

# The host's apt configuration, carried into the base image and the build:
# the Debian mirror and the security mirror, an apt proxy if one is set, and
# a disabled Valid-Until check (a mirror serving a frozen snapshot).
# shellcheck source=scripts/host-apt.sh
. scripts/host-apt.sh
echo "container-test: mirror $mirror, security $security${apt_proxy:+, apt proxy $apt_proxy}"

# 2. The base images.
t0=$SECONDS
tarball=$cache/debian-bookworm-$BASE_RECIPE.tar
base_ok=0
base_note=""
have_base() {
    local label
    label=$(pm image inspect --format '{{index .Labels "grundyd.base"}}' "$BASE" 2>/dev/null) &&
        [ "$label" = "$BASE_RECIPE" ] && pm image exists "$BASE_SLIM"
}
make_tarball() { # debootstrap into a scratch directory; the tarball is written atomically
    local dir=$cache/rootfs
    $sudo rm -rf "$dir"
    echo "container-test: debootstrap --variant=minbase bookworm from $mirror"
    # shellcheck disable=SC2086 # $sudo is empty or a command and its flag
    if ! timeout 900 $sudo env ${apt_proxy:+http_proxy=$apt_proxy} \
        debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$cache/logs/debootstrap.log" 2>&1; then
        base_note=$(log_tail "$cache/logs/debootstrap.log")
        return 1
    fi
    # As the official image: the three suites, no package caches; and, as
    # bookworm-slim, no documentation, man pages or translations installed
    # later (both tags are this one image).
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
        "$mirror" "$mirror" "$security" | $sudo tee "$dir/etc/apt/sources.list" >/dev/null
    if [ "$valid_until" = false ]; then
        printf 'Acquire::Check-Valid-Until "false";\n' |
            $sudo tee "$dir/etc/apt/apt.conf.d/99grundyd-host-mirror" >/dev/null
    fi
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
        'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
        'path-exclude /usr/share/locale/*' 'path-include /usr/share/locale/locale.alias' |
        $sudo tee "$dir/etc/dpkg/dpkg.cfg.d/docker-slim" >/dev/null
    $sudo find "$dir/var/cache/apt" "$dir/var/lib/apt/lists" -type f -delete
    $sudo rm -rf "$dir/var/log/"*.log "$dir/var/log/apt" "$dir/tmp/"* "$dir/debootstrap"
    $sudo tar --numeric-owner -C "$dir" -cf "$tarball.tmp" . && $sudo mv "$tarball.tmp" "$tarball"
    $sudo rm -rf "$dir"
}
if have_base; then
    base_note="cached in the store"
else
    fresh=""
    if [ ! -s "$tarball" ]; then
        make_tarball && fresh=" (debootstrap $((SECONDS - t0)) s)" || base_ok=1
    else
        fresh=" (from the cached $tarball)"
    fi
    if [ $base_ok -eq 0 ]; then
        if pm import --change 'CMD ["bash"]' \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change "LABEL grundyd.base=$BASE_RECIPE" "$tarball" "$BASE" >"$cache/logs/import.log" 2>&1 &&
            pm tag "$BASE" "$BASE_SLIM"; then
            base_note="imported$fresh"
        else
            base_ok=1
            base_note=$(log_tail "$cache/logs/import.log")
        fi
    fi
fi
base_size=$(pm image inspect --format '{{.Size}}' "$BASE" 2>/dev/null || echo 0)
result $base_ok "${CHECKS[1]}" "$base_note; $((base_size / 1000000)) MB; took $((SECONDS - t0)) s"
if [ $base_ok -ne 0 ]; then
    for c in "${CHECKS[@]:2}"; do result 1 "$c" "no base image"; done
    write_tap
    exit 1
fi

# build LOGNAME ARGS...: podman build with the common flags, bounded in
# time, its output in build-container/logs/LOGNAME.log.
build_args=(--isolation=chroot --format docker --pull=never --layers -f Dockerfile)
[ -z "$apt_proxy" ] || build_args+=(--build-arg "APT_PROXY=$apt_proxy")
build() {
    local name=$1
    shift
    # shellcheck disable=SC2086 # $sudo is empty or a command and its flag
    timeout 2400 $sudo podman "${pm_flags[@]}" build "${build_args[@]}" "$@" \
        >"$cache/logs/$name.log" 2>&1 </dev/null
}

# 3. The build stage.
t0=$SECONDS
r=0
build build --target build -t "$BUILD_IMAGE" . || r=1
result $r "${CHECKS[2]}" "took $((SECONDS - t0)) s$(tail_if_failed $r "$cache/logs/build.log")"

# 4. The runtime image.
t0=$SECONDS
r=0
build runtime --target runtime -t "$IMAGE" . || r=1
result $r "${CHECKS[3]}" "took $((SECONDS - t0)) s$(tail_if_failed $r "$cache/logs/runtime.log")"
runtime_id=$(pm image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || echo none)

# 5. The default target: all of it from the cache, and the runtime image.
r=0
default_id=$(build default -q . && tail -n 1 "$cache/logs/default.log") || r=1
[ $r -eq 0 ] && [ "${default_id#sha256:}" = "$runtime_id" ] || r=1
result $r "${CHECKS[4]}" "runtime $runtime_id, default ${default_id:-none}"

# 6. The image's configuration.
inspect() { pm image inspect --format "$1" "$IMAGE" 2>/dev/null || true; }
user=$(inspect '{{.Config.User}}')
# shellcheck disable=SC2016 # a Go template, not shell
ports=$(inspect '{{range $p, $v := .Config.ExposedPorts}}{{$p}} {{end}}')
envs=$(inspect '{{range .Config.Env}}{{.}} {{end}}')
health=$(inspect '{{if .Config.Healthcheck}}{{range .Config.Healthcheck.Test}}{{.}} {{end}}{{end}}')
entry=$(inspect '{{range .Config.Entrypoint}}{{.}} {{end}}')
r=0
[ "$user" = "10001:10001" ] && [ "$ports" = "8080/tcp " ] &&
    [[ " $envs" == *" GRUNDYD_HOST=0.0.0.0 "* ]] && [[ " $envs" == *" GRUNDYD_PORT=8080 "* ]] &&
    [[ " $envs" == *" GRUNDYD_TABLES=/usr/local/share/grundyd/grundy.tables "* ]] &&
    [[ "$health" == "CMD grundy healthcheck "* ]] && [ "$entry" = "grundyd " ] || r=1
result $r "${CHECKS[5]}" "user $user; ports $ports; env $envs; healthcheck $health; entrypoint $entry"

# 7. Its files, through a read-only look at the mounted image (not run).
r=0
files_note=""
if mnt=$(pm image mount "$IMAGE" 2>"$cache/logs/mount.log"); then
    for f in usr/local/bin/grundyd usr/local/bin/grundy; do
        [ -x "$mnt/$f" ] || { r=1; files_note+="$f missing; "; }
    done
    tables=$mnt/usr/local/share/grundyd/grundy.tables
    if [ -f "$tables" ] && [ "$(stat -c %a "$tables")" = 644 ]; then
        files_note+="table file $(($(stat -c %s "$tables") / 1000000)) MB; "
    else
        r=1
        files_note+="table file missing or not mode 644; "
    fi
    grep -q '^grundyd:x:10001:10001:' "$mnt/etc/passwd" || { r=1; files_note+="no user 10001 in /etc/passwd; "; }
    for f in usr/bin/gcc usr/bin/cc usr/bin/meson usr/bin/curl usr/bin/wget usr/bin/python3; do
        [ ! -e "$mnt/$f" ] || { r=1; files_note+="$f present; "; }
    done
    pm image unmount "$IMAGE" >/dev/null 2>&1 || true
else
    r=1
    files_note=$(log_tail "$cache/logs/mount.log")
fi
result $r "${CHECKS[6]}" "$files_note"

# 8. Its size.
size=$(inspect '{{.Size}}')
size_mb=$((${size:-0} / 1000000))
r=0
[ "${size:-0}" -gt 0 ] && [ $size_mb -le "$MAX_MB" ] || r=1
result $r "${CHECKS[7]}" "runtime image $size_mb MB, of which the base image $((base_size / 1000000)) MB"

# 9. The smoke stage, on a port free now (the chroot shares the host's
# network), forced to run again by a new SMOKE_RUN.
t0=$SECONDS
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
r=0
build smoke --target smoke --build-arg "SMOKE_PORT=$port" \
    --build-arg "SMOKE_RUN=$(date +%s%N)" . || r=1
smoke_lines=$(grep -E '^(not )?ok [0-9]+ - ' "$cache/logs/smoke.log" || true)
smoke_plan=$(grep -E '^1\.\.[0-9]+$' "$cache/logs/smoke.log" | tail -n 1 || true)
count=$(printf '%s' "$smoke_lines" | grep -c . || true)
[ -n "$smoke_plan" ] && [ "${smoke_plan#1..}" = "$count" ] || r=1
result $r "${CHECKS[8]}" "$count checks on port $port, took $((SECONDS - t0)) s$(tail_if_failed $r "$cache/logs/smoke.log")"
while IFS= read -r line; do
    [ -n "$line" ] || continue
    verdict=${line%% [0-9]*}
    name=${line#* - }
    if [ "$verdict" = ok ]; then
        result 0 "smoke: $name"
    else
        result 1 "smoke: $name" "see $cache/logs/smoke.log"
    fi
done <<<"$smoke_lines"

# Images of earlier builds that nothing names any more.
pm image prune -f >/dev/null 2>&1 || true

write_tap
echo "container-test: $((SECONDS - t_start)) s in all; TAP in $tap_out"
exit $failed
