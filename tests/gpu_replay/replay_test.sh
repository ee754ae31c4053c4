#!/bin/sh
# The recorder and replayer end to end without a GPU: `record` records a few execution tests and
# checks that `gpu_replay --device cpu` validates every record; `corrupt` damages records in
# several ways and checks that each is reported as one failed record, never a crash.
# Usage: replay_test.sh EXEC_TEST GPU_REPLAY WORK_DIR record|corrupt
set -eu
exec_test=$1 replay=$2 work=$3 mode=$4
rm -rf "$work"
mkdir -p "$work"
filter='HandBuilt.*:TileOps.ConstructionArithmeticMapSum:SpecExamples.*:AtomicDTypes.*:TileGenericOps.ReduceAllFloatWithNaN'
[ "$mode" = corrupt ] && filter='HandBuilt.*:SpecExamples.*'
TILEC_GPU_RECORD="$work/rec" "$exec_test" --gtest_brief=1 --gtest_filter="$filter" >"$work/exec.log" 2>&1 ||
  { cat "$work/exec.log"; echo "exec_test failed while recording"; exit 1; }
n=$(find "$work/rec" -name '*.rec' | wc -l)
nsig=$(find "$work/rec" -name '*.sig' | wc -l)
echo "recorded $n records ($nsig with a module)"
[ "$n" -ge 4 ] && [ "$n" -eq "$nsig" ] || { echo "expected at least 4 complete records"; ls -l "$work/rec"; exit 1; }

if [ "$mode" = record ]; then
  "$replay" --device cpu "$work/rec" >"$work/replay.log" 2>&1 || { cat "$work/replay.log"; exit 1; }
  cat "$work/replay.log"
  grep -q "^no GPU: device part skipped" "$work/replay.log"
  grep -q "^gpu_replay: $n records, 0 passed, 0 failed, $n skipped (" "$work/replay.log" ||
    { echo "the summary does not report $n validated records"; exit 1; }
  # With the variable empty (as unset) nothing is written anywhere, the working directory included.
  mkdir -p "$work/none"
  (cd "$work/none" && TILEC_GPU_RECORD= "$exec_test" --gtest_brief=1 --gtest_filter="$filter" >/dev/null 2>&1)
  [ -z "$(ls -A "$work/none")" ] || { echo "recording happened without TILEC_GPU_RECORD"; exit 1; }
  exit 0
fi

# corrupt: each case is a directory with one intact record and one damaged copy.
first=$(find "$work/rec" -name '*.rec' | sort | head -1)
base=${first%.rec}
case_dir() {
  d="$work/case_$1"
  mkdir -p "$d"
  cp "$base.rec" "$base.sig" "$d/"
  cp "$base.rec" "$d/zz.rec"
  cp "$base.sig" "$d/zz.sig"
  echo "$d"
}
fails=0
check() {  # NAME DIR: exactly the damaged record fails, with exit status 1 (not a crash)
  rc=0
  "$replay" --device cpu "$2" >"$2.log" 2>&1 || rc=$?
  if [ "$rc" -ne 1 ] || ! grep -q "^gpu_replay: 2 records, 0 passed, 1 failed, 1 skipped" "$2.log" ||
     ! grep -q "^FAIL zz " "$2.log"; then
    echo "case $1: exit $rc, expected 1 with one failed record:"; cat "$2.log"; fails=$((fails + 1))
  else
    echo "case $1: $(grep '^FAIL' "$2.log")"
  fi
}
d=$(case_dir truncated); head -c "$(( $(wc -c <"$d/zz.rec") / 2 ))" "$base.rec" >"$d/zz.rec"; check truncated "$d"
d=$(case_dir no_sig); rm "$d/zz.sig"; check no_sig "$d"
d=$(case_dir bad_sig); head -c 200 "$base.sig" >"$d/zz.sig"; check bad_sig "$d"
d=$(case_dir region_size); sed 's/^region 0 [0-9]*$/region 0 3/' "$base.rec" >"$d/zz.rec"; check region_size "$d"
d=$(case_dir huge_region); sed 's/^region 0 [0-9]*$/region 0 99999999999999/' "$base.rec" >"$d/zz.rec"; check huge_region "$d"
d=$(case_dir dtype); sed 's/^array 0 float32 4 /array 0 int32 4 /' "$base.rec" >"$d/zz.rec"; check dtype "$d"
d=$(case_dir garbage); head -c 4096 /dev/urandom >"$d/zz.rec"; check garbage "$d"
d=$(case_dir no_ptx); sed 's/^  ptx [0-9]*$/  ptx 0/' "$base.sig" >"$d/zz.sig"; check no_ptx "$d"
[ "$fails" -eq 0 ]
