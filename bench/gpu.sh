#!/usr/bin/env bash
# GPU bandwidth on cuda:0: gather and scatter-add rows with tilec's kernels and the nvcc-built
# references, as a fraction of device-to-device copy bandwidth; and tiled GEMM TFLOP/s of tilec's
# tile_matmul kernels (kernels/gemm.tile, float16 and float32) against cuBLAS (dlopen'ed), 1024^3
# to 8192^3 (--quick: 1024^3, 2048^3). Prints the tables and writes
# build-bench/bench-results/gpu_{bandwidth,matmul}.{csv,png}. Where no CUDA driver or GPU exists it
# says so and exits 0. On a GPU machine without the build toolchain it uses what bench/run.sh left
# in build-bench/ (bench/bench_gpu, runtime/libtilec_rt.so*, bench-work/gpu/*.sig, gemm.tiles).
# Arguments go to bench/py/bench.py (for example --quick, --widths 16,4096).
# --dry-run (first argument; no GPU needed, builds nothing): lists every row it would run with its
# kernel and the artifacts each needs, checks they are present, exits 1 naming what is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TILEC_BENCH_BUILD_DIR:-$root/build-bench}"
py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1  # keep the source tree clean

if [ "${1:-}" = --dry-run ]; then
  shift
  no_build=()
  if [ -n "${TILEC_BENCH_NO_BUILD:-}" ] || ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
    no_build=(--no-build)
  fi
  exec "$py" "$root/bench/py/gpu_dry_run.py" --build "$build" "${no_build[@]}" "$@"
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' && [ ! -e /dev/nvidiactl ]; then
  echo "gpu bench: skipped (no CUDA driver: libcuda.so.1 not found)"
  exit 0
fi
# TILEC_BENCH_NO_BUILD=1: use what is in the build folder as it is (a GPU pack).
if [ -z "${TILEC_BENCH_NO_BUILD:-}" ] && command -v cmake >/dev/null && command -v ninja >/dev/null &&
   cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_PROJECT_INCLUDE="$root/bench/cmake/add_bench.cmake" >/dev/null 2>&1; then
  for target in bench_gpu bench_gpu_prepare; do
    if ninja -C "$build" -t targets all 2>/dev/null | grep -q "^$target:"; then
      cmake --build "$build" --target "$target" -j "${TILEC_BENCH_JOBS:-$(nproc)}" >/dev/null 2>&1 ||
        echo "gpu bench: building $target failed" >&2
    fi
  done
fi
if [ ! -x "$build/bench/bench_gpu" ]; then
  echo "gpu bench: n/a (no $build/bench/bench_gpu: run bench/run.sh on a build machine first)"
  exit 0
fi
exec "$py" "$root/bench/py/bench.py" --build "$build" --sections gpu "$@"
