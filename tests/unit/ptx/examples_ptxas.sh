#!/usr/bin/env bash
# Every example (and every .tile under tests/exec) compiles with `tilec compile --emit=ptx` to
# PTX that ptxas accepts for sm_75, sm_80 and sm_90. Exit 77 (skip) where ptxas is absent.
# Usage: examples_ptxas.sh TILEC SOURCE_DIR
set -u
TILEC=$1
SRC=$2
PTXAS=${TILEC_PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ]; then echo "skipped: ptxas not found at $PTXAS"; exit 77; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
count=0
files=$(ls "$SRC"/examples/*.tile 2>/dev/null; find "$SRC"/tests/exec -name '*.tile' 2>/dev/null)
for f in $files; do
  for arch in sm_75 sm_80 sm_90; do
    count=$((count + 1))
    if ! "$TILEC" compile --emit=ptx --arch=$arch "$f" -o "$tmp/k.ptx" >"$tmp/log" 2>&1; then
      echo "FAIL tilec $arch $f"; cat "$tmp/log"; fail=1; continue
    fi
    if ! "$PTXAS" -arch=$arch "$tmp/k.ptx" -o "$tmp/k.cubin" >"$tmp/log" 2>&1; then
      echo "FAIL ptxas $arch $f"; cat "$tmp/log"; fail=1
    fi
  done
done
echo "$count compilations checked"
exit $fail
