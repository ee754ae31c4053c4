#!/usr/bin/env bash
# Regenerates tools/tilec/tilec.order: the functions a cold `tilec` run executes, in the order
# callgrind first meets them, which the link places side by side (lld --symbol-ordering-file).
# A cold compile then faults in a few hundred kilobytes of code instead of pages spread over
# the whole binary. Names that a later LLVM no longer has are skipped by the link; rerun this
# after a toolchain upgrade or a large change to the pipeline.
#   usage: scripts/orderfile.sh [BUILD_DIR]   (default: build; needs valgrind)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
tilec=$build/tilec
out=$root/tools/tilec/tilec.order
command -v valgrind >/dev/null || { echo "orderfile: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
[ -x "$tilec" ] || { echo "orderfile: no $tilec; build first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What users run cold: start-up, checking, PTX for the bench kernels and a host module.
n=0
train() {
  n=$((n + 1))
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$n.out" "$tilec" "$@" \
    >/dev/null 2>"$work/$n.log" || { echo "orderfile: \`tilec $*\` failed" >&2; cat "$work/$n.log" >&2; exit 1; }
}
train --version
for k in gather_scatter_2d gather_scatter_3d matmul_tc gather_scatter_struct; do
  train check "$root/bench/kernels/$k.tile"
  train compile --target=nvptx --arch=sm_90 --emit=ptx -o "$work/$k.ptx" "$root/bench/kernels/$k.tile"
done
train compile --target=host -o "$work/k.so" "$root/bench/kernels/gather_scatter_2d.tile"

# Function names in the order of first appearance, kept where the binary defines them.
nm --defined-only "$tilec" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u >"$work/defined"
for i in $(seq 1 "$n"); do grep -oP '^c?fn=\(\d+\) \K\S+' "$work/$i.out"; done |
  awk '!seen[$0]++' | grep -Fxf "$work/defined" >"$out"
echo "orderfile: $(wc -l <"$out") functions -> ${out#$root/}"
