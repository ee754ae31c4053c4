#!/usr/bin/env bash
# Builds tilec from scratch or incrementally and runs every test (CTest). Installs missing
# system packages first. Extra arguments go to ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh"
# Build trees of one checkout share objects through ccache (paths relative to the checkout).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
build="${TILEC_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${TILEC_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
