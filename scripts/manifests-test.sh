#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Validates the deployment files (deploy/kubernetes, deploy/systemd) and
# writes TAP to OUT.tap: scripts/validate-manifests.mjs says what is checked.
#
#   scripts/manifests-test.sh build-test/manifests.tap [path/to/grundyd]
#
# Installs kubectl (Debian's kubernetes-client) when there is none; the
# manifests build with any kubectl since 1.14. `kubectl kustomize` works
# offline. The npm modules (kubernetes-models, yaml) come from
# scripts/npm-deps.sh. With a grundyd binary, the ConfigMap's keys are
# checked against its --help and its values by grundyd itself; without one,
# the keys against src/server/config/config.c. Runs under Node.js 20.19 or newer
# (scripts/node-env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh
tap_out=${1:?usage: scripts/manifests-test.sh OUT.tap [path/to/grundyd]}
grundyd=${2:-}
mkdir -p "$(dirname "$tap_out")"

if ! command -v kubectl >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "manifests-test: installing kubernetes-client (kubectl)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends kubernetes-client >/dev/null
fi
args=("$tap_out" --kubectl "$(command -v kubectl)")
[ -z "$grundyd" ] || args+=(--grundyd "$grundyd")
exec timeout 300 node scripts/validate-manifests.mjs "${args[@]}"
