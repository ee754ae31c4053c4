#!/usr/bin/env bash
# Builds the execution tests and the runtime tests with ASan and UBSan and runs them: kernels
# with out-of-range, negative and padding indices must never touch memory outside the arrays
# (the tests also check guard elements around every array and gradient buffer).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh"
# Build trees of one checkout share objects through ccache (paths relative to the checkout).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
build="${TILEC_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEC_SANITIZE=ON >/dev/null
cmake --build "$build" --target exec_test runtime_test
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$build/tests/exec/exec_test" --gtest_brief=1
"$build/tests/unit/runtime/runtime_test" --gtest_brief=1 --gtest_filter=-*Install*:*HostCpp*
