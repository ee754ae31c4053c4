#!/usr/bin/env bash
# One prepared check for a machine with an NVIDIA GPU: builds tilec, runs the `gpu`-labelled
# tests and the PTX tests, runs the spec pages on cuda:0, and prints a short table.
# Nothing here is needed on CPU-only machines (there the gpu tests skip themselves).
# Usage: scripts/gpu-check.sh [BUILD_DIR]   (env JOBS: parallel build jobs, default nproc)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build-gpu}
JOBS=${JOBS:-$(nproc)}
LOGS=$BUILD/gpu-check
mkdir -p "$LOGS"

echo "== device"
if command -v nvidia-smi >/dev/null; then nvidia-smi -L; else echo "nvidia-smi not found"; fi

echo "== build ($BUILD, -j$JOBS)"
if ! cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$LOGS/configure.log" 2>&1 ||
   ! cmake --build "$BUILD" -j"$JOBS" >"$LOGS/build.log" 2>&1; then
  tail -30 "$LOGS/configure.log" "$LOGS/build.log"
  echo "build failed"
  exit 1
fi

declare -a ROWS
check() {  # check NAME COMMAND...: runs it, records status, time and log
  local name=$1; shift
  local t0=$(date +%s.%N)
  "$@" >"$LOGS/$name.log" 2>&1
  local rc=$?
  local t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  local status=pass
  [ $rc -ne 0 ] && status="FAIL($rc)"
  grep -qiE "skipped|SKIPPED" "$LOGS/$name.log" && [ $rc -eq 0 ] && status="pass/skips"
  ROWS+=("$(printf '%-34s %-11s %7.1fs  %s' "$name" "$status" "$t" "$LOGS/$name.log")")
}

check "ctest -L gpu" ctest --test-dir "$BUILD" -L gpu --output-on-failure
check "ctest ptx + simt emulation" ctest --test-dir "$BUILD" -R '^(Ptx|SimtEmulation)\.' --output-on-failure
for page in "$ROOT"/docs/tile_load_indexed.rst "$ROOT"/docs/tile_atomic_add_indexed.rst \
            "$ROOT"/../shared/spec/tile_load_indexed.rst "$ROOT"/../shared/spec/tile_atomic_add_indexed.rst; do
  [ -f "$page" ] || continue
  check "doctest cuda:0 $(basename "$page")" "$BUILD/tilec" doctest --device cuda:0 "$page"
done

echo "== results"
printf '%-34s %-11s %8s  %s\n' "check" "status" "time" "log"
for r in "${ROWS[@]}"; do echo "$r"; done
for r in "${ROWS[@]}"; do case "$r" in *FAIL*) exit 1 ;; esac; done
exit 0
