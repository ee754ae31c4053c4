#!/usr/bin/env bash
# The prepared check for a machine with an NVIDIA GPU. Two ways to run it:
#   scripts/gpu-check.sh --pack DIR [--device cuda:0|cpu]
#       from a pack made by scripts/gpu-pack.sh, with nothing else: no compiler toolchain, no
#       CMake, nothing fetched (the lent GPU machine). `--device cpu` is the simulated run.
#   scripts/gpu-check.sh [BUILD_DIR]
#       on a GPU machine that can build tilec: builds it, then the same checks from the build.
# Prints one summary table; with $OUT set, writes it and the logs of failing checks there.
# Each part has a time budget (150 + 60 + 20 + 10 + 170 + 150 s: under 10 minutes in all) and is stopped
# when it overruns, which the table says.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PACK=""
DEVICE="cuda:0"
BUILD=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pack)
      # A folder, or the archive gpu-pack.sh writes (pack.tar.gz: what travels), unpacked here.
      if [ -f "$2" ]; then
        unpacked=$(mktemp -d "${TMPDIR:-/tmp}/tilec-pack.XXXXXX") || exit 2
        tar -xzf "$2" -C "$unpacked" || { echo "cannot unpack $2" >&2; exit 2; }
        PACK="$unpacked/pack"
      else
        PACK=$(cd "$2" && pwd) || exit 2
      fi
      shift 2 ;;
    --device) DEVICE=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) BUILD=$1; shift ;;
  esac
done

if [ -n "$PACK" ]; then
  TILEC=$PACK/bin/tilec
  REPLAY=$PACK/bin/gpu_replay
  RT_GPU_TEST=$PACK/bin/runtime_gpu_test
  AOT_GPU_TEST=$PACK/bin/runtime_aot_gpu_test
  CPP_GPU_TEST=$PACK/bin/cpp_api_gpu_test
  export TILEC_AOT_DIR=$PACK/aot
  export LD_LIBRARY_PATH=$PACK/lib
  RECORDS=$PACK/records
  BENCH_BUILD=$PACK/bench-build
  LOGS=$(mktemp -d "${TMPDIR:-/tmp}/tilec-gpu-check.XXXXXX")
else
  BUILD=${BUILD:-$ROOT/build-gpu}
  LOGS=$BUILD/gpu-check
  mkdir -p "$LOGS"
  echo "== build ($BUILD)"
  if ! cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_PROJECT_INCLUDE="$ROOT/bench/cmake/add_bench.cmake" >"$LOGS/configure.log" 2>&1 ||
     ! cmake --build "$BUILD" -j"${JOBS:-$(nproc)}" >"$LOGS/build.log" 2>&1; then
    tail -30 "$LOGS/configure.log" "$LOGS/build.log"
    echo "build failed"
    exit 1
  fi
  TILEC=$BUILD/tilec
  REPLAY=$BUILD/tests/gpu_replay/gpu_replay
  RT_GPU_TEST=$BUILD/tests/unit/runtime/runtime_gpu_test
  AOT_GPU_TEST=$BUILD/tests/unit/runtime/runtime_aot_gpu_test  # its artifacts: in the build
  CPP_GPU_TEST=$BUILD/tests/unit/cpp_api/cpp_api_gpu_test
  RECORDS=$BUILD/gpu-records
  rm -rf "$RECORDS"
  TILEC_GPU_RECORD=$RECORDS "$BUILD/tests/exec/exec_test" --gtest_brief=1 >"$LOGS/record.log" 2>&1
  BENCH_BUILD=$BUILD
fi
export TILEC_CACHE_DIR=$LOGS/kernel-cache

declare -a ROWS
FAILED=()
# check NAME SECONDS COMMAND...: runs it under a time limit, records status, time and log.
check() {
  local name=$1 limit=$2; shift 2
  local log="$LOGS/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
  local t0=$(date +%s.%N)
  timeout "$limit" "$@" >"$log" 2>&1
  local rc=$?
  local t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  local status=pass
  if [ $rc -eq 124 ]; then status="STOPPED(${limit}s)"; FAILED+=("$log")
  elif [ $rc -ne 0 ]; then status="FAIL($rc)"; FAILED+=("$log")
  elif grep -qiE "no GPU|skipped|no CUDA driver" "$log"; then status="pass/no GPU"
  fi
  local detail
  # A test's own one-line result (the AOT test's first-launch times) wins over gtest's summary.
  detail=$( { grep -E '^(gpu_replay:|\[  PASSED|\[  SKIPPED|[0-9]+ passed|gpu bench:)' "$log" | tail -1
              grep -E '^aot first launch' "$log" | tail -1; } | tail -1 | cut -c1-70)
  ROWS+=("$(printf '%-44s %-14s %7.1fs  %s' "$name" "$status" "$t" "$detail")")
}

echo "== device"
{
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader
  else
    echo "nvidia-smi not found"
  fi
  echo "tilec: $("$TILEC" --version 2>&1)"
  [ -n "$PACK" ] && sed 's/^/pack: /' "$PACK/MANIFEST"
} | tee "$LOGS/device.txt"

check "kernel records on $DEVICE" 150 "$REPLAY" --device "$DEVICE" "$RECORDS"
check "runtime GPU tests" 60 "$RT_GPU_TEST" --gtest_brief=1
# AOT GPU modules (.tlm and .so with cubins) on the device; prints first-launch cubin vs PTX JIT.
check "AOT GPU module tests" 20 "$AOT_GPU_TEST" --gtest_brief=1
# DLPack over device memory (no copy), through the C++ API.
check "C++ API GPU tests (DLPack)" 10 "$CPP_GPU_TEST" --gtest_brief=1

# Documentation pages: ours, the normative spec pages, and Warp's pages that tilec passes.
pages=("$ROOT"/docs/*.rst)
if [ -d "$ROOT/../shared/spec" ]; then pages+=("$ROOT"/../shared/spec/*.rst); else pages+=("$ROOT"/tests/spec_pages/*.rst); fi
if [ -d "$ROOT/../shared/warp-docs" ]; then
  while read -r name; do
    case "$name" in ''|'#'*) continue ;; esac
    pages+=("$ROOT/../shared/warp-docs/$name.rst")
  done <"$ROOT/tests/doctest/warp_pages.txt"
fi
check "doctest ${#pages[@]} pages on $DEVICE" 170 "$TILEC" doctest --device "$DEVICE" "${pages[@]}"

if [ "$DEVICE" = cpu ]; then
  echo "gpu bench: skipped (no GPU: the simulated run)" >"$LOGS/bench.log"
  ROWS+=("$(printf '%-44s %-14s %7.1fs  %s' "bench/gpu.sh" "pass/no GPU" 0 "skipped on --device cpu")")
else
  check "bench/gpu.sh" 150 env TILEC_BENCH_BUILD_DIR="$BENCH_BUILD" TILEC_BENCH_NO_BUILD=${PACK:+1} \
    "$ROOT/bench/gpu.sh" --quick
fi

{
  echo "== results ($DEVICE)"
  printf '%-44s %-14s %8s  %s\n' "check" "status" "time" "detail"
  for r in "${ROWS[@]}"; do echo "$r"; done
} | tee "$LOGS/summary.txt"
if [ -n "${OUT:-}" ]; then
  cp "$LOGS/summary.txt" "$LOGS/device.txt" "$OUT/" 2>/dev/null
  for f in "${FAILED[@]:0:6}"; do tail -c 200000 "$f" >"$OUT/$(basename "$f")"; done
fi
[ ${#FAILED[@]} -eq 0 ]
