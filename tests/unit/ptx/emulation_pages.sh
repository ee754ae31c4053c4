#!/usr/bin/env bash
# Runs documentation pages and examples on the CPU device and under host-SIMT emulation
# (TILEC_SIMT_EMULATION=B) and requires identical output.
# Usage: emulation_pages.sh TILEC "B1 B2 ..." FILE...   (.rst: doctest, .tile: run)
set -u
TILEC=$1
BLOCKS=$2
shift 2
fail=0
for f in "$@"; do
  case "$f" in *.rst) cmd=doctest ;; *) cmd=run ;; esac
  want=$("$TILEC" $cmd "$f" 2>&1)
  for b in $BLOCKS; do
    got=$(TILEC_SIMT_EMULATION=$b "$TILEC" $cmd "$f" 2>&1)
    if [ "$got" != "$want" ]; then
      echo "FAIL block_dim $b: $f"
      diff <(echo "$want") <(echo "$got") | head -20
      fail=1
    fi
  done
done
exit $fail
