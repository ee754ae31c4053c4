#!/usr/bin/env bash
# Builds the GPU pack here (no GPU needed): everything the lent GPU machine runs, which has no
# LLVM, ANTLR or package registry: stripped Release binaries, the shared libraries they need
# beyond glibc/libstdc++, every execution-test kernel precompiled to PTX with its inputs and
# CPU results, the AOT GPU module test's artifacts (a .tlm and a .so with cubins, built here where
# the CUDA toolkit's libnvJitLink is), and the GPU benchmark's prepared kernels (bandwidth and
# GEMM). What travels is PACK_DIR.tar.gz (PTX records compress about tenfold); its size must stay
# under 56 MiB so that the working tree fits beside it in the 64 MiB that travel.
# Usage: scripts/gpu-pack.sh [--simulate] [PACK_DIR]   (default build-pack/pack; build in build-pack/)
#   --simulate: then the simulated run: the archive unpacked in a fresh directory and checked
#   there with `scripts/gpu-check.sh --pack PACK_DIR.tar.gz --device cpu` (pack libraries only).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
simulate=0
if [ "${1:-}" = --simulate ]; then simulate=1; shift; fi
pack=${1:-$root/build-pack/pack}
build=${TILEC_PACK_BUILD_DIR:-$root/build-pack}
limit_mib=56
note() { echo "gpu-pack: $*" >&2; }

"$root/scripts/bootstrap.sh"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
# No RPATH: inside the pack every library is found through the pack's lib/ alone, so a run
# that works here proves nothing is read from this machine's build tree.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_SKIP_RPATH=ON \
  -DCMAKE_PROJECT_INCLUDE="$root/bench/cmake/add_bench.cmake" >/dev/null
targets=(tilec tilec_rt exec_test gpu_replay runtime_gpu_test runtime_aot_gpu_test cpp_api_gpu_test bench_gpu bench_gpu_prepare)
# Without RPATH the build tree's own binaries (and the test discovery run after linking) find
# the runtime library through this.
export LD_LIBRARY_PATH="$build/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
note "building ${targets[*]}"
cmake --build "$build" --target "${targets[@]}" >"$build/pack-build.log" 2>&1 ||
  { tail -30 "$build/pack-build.log"; note "build failed"; exit 1; }

rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/lib" "$pack/records" "$pack/aot" "$pack/bench-build/bench" "$pack/bench-build/bench-work/gpu"
cp "$build/tilec" "$build/tests/gpu_replay/gpu_replay" "$build/tests/unit/runtime/runtime_gpu_test" \
  "$build/tests/unit/runtime/runtime_aot_gpu_test" "$build/tests/unit/cpp_api/cpp_api_gpu_test" "$pack/bin/"
# The kernel artifacts runtime_aot_gpu_test loads (gpu-check.sh points $TILEC_AOT_DIR here).
cp "$build/tests/unit/runtime/aot/aot_kernels.tlm" "$build/tests/unit/runtime/aot/aot_kernels.so" "$pack/aot/"
cp "$build/bench/bench_gpu" "$pack/bench-build/bench/"
cp -L "$build/runtime/libtilec_rt.so.0" "$pack/lib/"
strip --strip-unneeded "$pack/bin/"* "$pack/bench-build/bench/bench_gpu" "$pack/lib/libtilec_rt.so.0"

# The libraries beyond the C and C++ runtimes, copied from this machine.
system_lib() {
  case "$1" in
    linux-vdso.so*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) return 0 ;;
  esac
  return 1
}
for bin in "$pack/bin/"* "$pack/bench-build/bench/bench_gpu" "$pack/lib/libtilec_rt.so.0"; do
  while read -r name _ path _; do
    system_lib "$name" && continue
    [ "$name" = libtilec_rt.so.0 ] && continue
    [ -f "$path" ] || { note "$(basename "$bin") needs $name, which this machine does not have"; exit 1; }
    [ -f "$pack/lib/$name" ] || cp -L "$path" "$pack/lib/$name"
  done < <(ldd "$bin" | grep '=>')
done

# Every execution-test kernel, recorded as it runs on the CPU: PTX, inputs, CPU results.
note "recording the execution tests' kernels"
TILEC_GPU_RECORD="$pack/records" "$build/tests/exec/exec_test" --gtest_brief=1 >"$build/pack-record.log" 2>&1 ||
  { tail -20 "$build/pack-record.log"; note "recording failed"; exit 1; }

# The GPU benchmark's kernels (tilec's PTX and, where nvcc exists, the CUDA references).
note "preparing the GPU benchmark"
python3 - "$root" "$pack/bench-build/bench-work" <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "bench", "py"))
import kernels
kernels.prepare(sys.argv[1], sys.argv[2])
EOF
tile="$pack/bench-build/bench-work/kernels/throughput.tile"
widths=$(python3 -c "import sys; sys.path.insert(0, '$root/bench/py'); import kernels; print(','.join(map(str, kernels.WIDTHS)))")
ref_args=()
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -ptx -arch=sm_90 -I "$root/runtime/include" "$root/bench/reference/throughput.cu" \
    -o "$build/throughput.nvcc.ptx" && ref_args=(--ref-ptx "$build/throughput.nvcc.ptx")
fi
"$build/bench/bench_gpu_prepare" --tile "$tile" --out-dir "$pack/bench-build/bench-work/gpu" \
  --widths "$widths" "${ref_args[@]}" >"$build/pack-bench.log" 2>&1 ||
  { tail -20 "$build/pack-bench.log"; note "benchmark preparation failed"; exit 1; }
# The GEMM table's kernels (gemm.sig, each compiled for its own block_dim) and the tile shapes
# they were compiled with (gemm.tiles), as bench/gpu.sh would prepare them.
python3 - "$root" "$build/bench/bench_gpu_prepare" "$pack/bench-build/bench-work/gpu" >>"$build/pack-bench.log" 2>&1 <<'EOF' ||
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "bench", "py"))
import gemm_kernels
r = gemm_kernels.prepare(sys.argv[2], sys.argv[1], sys.argv[3])
sys.stdout.write(r.stdout + r.stderr)
sys.exit(r.returncode)
EOF
  { tail -20 "$build/pack-bench.log"; note "GEMM benchmark preparation failed"; exit 1; }
rm -rf "$pack/bench-build/bench-work/kernels"

{
  echo "tilec GPU pack"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (modified)')"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
  echo "records $(find "$pack/records" -name '*.sig' | wc -l)"
} >"$pack/MANIFEST"

# Everything in the pack must resolve inside it or to the C/C++ runtimes.
bad=0
for bin in "$pack/bin/"* "$pack/bench-build/bench/bench_gpu" "$pack/lib/"*; do
  while read -r line; do
    case "$line" in *"not found"*) note "$(basename "$bin"): $line"; bad=1 ;; esac
  done < <(LD_LIBRARY_PATH="$pack/lib" ldd "$bin" 2>/dev/null)
  while read -r name _ path _; do
    system_lib "$name" && continue
    case "$path" in "$pack"/lib/*) ;; *) note "$(basename "$bin"): $name resolves outside the pack ($path)"; bad=1 ;; esac
  done < <(LD_LIBRARY_PATH="$pack/lib" ldd "$bin" 2>/dev/null | grep '=>')
done
[ "$bad" -eq 0 ] || exit 1

archive="$pack.tar.gz"
tar -C "$(dirname "$pack")" -cf - "$(basename "$pack")" | gzip -9 >"$archive"
bytes=$(stat -c %s "$archive")
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
unpacked_mib=$(du -sm "$pack" | cut -f1)
echo "gpu-pack: $archive: $mib MiB ($unpacked_mib MiB unpacked; $(find "$pack" -type f | wc -l) files, $(find "$pack/records" -name '*.sig' | wc -l) kernel records)"
du -sh "$pack"/bin/* "$pack"/lib "$pack"/records "$pack"/bench-build 2>/dev/null | sed 's/^/  /'
if awk -v b="$bytes" -v l="$limit_mib" 'BEGIN { exit !(b > l * 1048576) }'; then
  note "the archive is over $limit_mib MiB"
  exit 1
fi

if [ "$simulate" -eq 1 ]; then
  copy=$(mktemp -d "${TMPDIR:-/tmp}/tilec-pack-copy.XXXXXX")
  cp "$archive" "$copy/pack.tar.gz"
  note "simulated run from $copy/pack.tar.gz (--device cpu)"
  t0=$(date +%s)
  rc=0
  env -u LD_LIBRARY_PATH "$root/scripts/gpu-check.sh" --pack "$copy/pack.tar.gz" --device cpu || rc=$?
  echo "gpu-pack: simulated run took $(( $(date +%s) - t0 )) s"
  rm -rf "$copy"
  exit $rc
fi
