#!/usr/bin/env bash
# Benchmarks in one command: builds tilec in Release mode with the bench binaries in
# build-bench/, installs what only the benchmarks need when it is missing (NumPy and matplotlib
# from Debian, NVIDIA Warp in a venv under build-bench/), then runs compile latency, PTX
# quality, CPU throughput, CPU tile reductions, per-lane code on the CPU and GPU bandwidth, and
# prints every table. Results (CSV + PNG per table) land in build-bench/bench-results/.
# Arguments go to bench/py/bench.py (--help, --quick; --only scaling: the compile-scaling table).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TILEC_BENCH_BUILD_DIR:-$root/build-bench}"
jobs="${TILEC_BENCH_JOBS:-2}"
py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1  # keep the source tree clean

note() { echo "bench: $*" >&2; }

# --- benchmark-only dependencies ---------------------------------------------------------
if ! "$py" -c "import numpy, matplotlib" 2>/dev/null; then
  note "installing python3-numpy python3-matplotlib (Debian)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3-numpy python3-matplotlib; } >/dev/null 2>&1 || note "apt-get failed: plots will be skipped"
fi
"$py" -c "import numpy" 2>/dev/null || { note "NumPy is required by the driver"; exit 1; }

# --- build ---------------------------------------------------------------------------------
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PROJECT_INCLUDE="$root/bench/cmake/add_bench.cmake" >/dev/null
available=$(ninja -C "$build" -t targets all 2>/dev/null | sed -n 's/^\([A-Za-z0-9_]*\): .*/\1/p')
for target in tilec bench_cpu bench_compile bench_gpu bench_gpu_prepare; do
  if ! grep -qx "$target" <<<"$available"; then
    note "target $target is not in this build (its tables say n/a)"
    continue
  fi
  cmake --build "$build" --target "$target" -j "$jobs" >"$build/bench-build-$target.log" 2>&1 ||
    note "building $target failed (see $build/bench-build-$target.log); its tables say n/a"
done

# --- NVIDIA Warp, the peer compiler (benchmark only) -------------------------------------
venv="$build/warp-venv"
if [ -z "${TILEC_BENCH_NO_WARP:-}" ] && ! "$venv/bin/python" -c "import warp" 2>/dev/null; then
  note "installing warp-lang into $venv"
  { "$py" -m venv --system-site-packages "$venv" &&
    timeout 900 "$venv/bin/pip" install -q warp-lang; } >"$build/bench-warp-install.log" 2>&1 ||
    note "warp-lang could not be installed (see $build/bench-warp-install.log); Warp columns say n/a"
fi

exec "$py" "$root/bench/py/bench.py" --build "$build" "$@"
