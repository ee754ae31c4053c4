#!/usr/bin/env bash
# Coverage-guided fuzzing of the compiler with AFL++ (Debian's afl++): builds the fuzz target
# (tests/fuzz/fuzz_compile.cpp: parse, sema, Tile IR with adjoints, both lowerings) with
# AFL++'s instrumentation in build-fuzz/, runs afl-fuzz for SECONDS (default 1800) from the
# corpus in tests/fuzz/corpus, then prints what it found. Crashes and hangs are left in
# build-fuzz/afl-out/default/{crashes,hangs}; `--keep` adds the inputs that widened coverage to
# the corpus (afl-cmin), which CTest replays (fuzz_corpus_replay).
#   scripts/fuzz.sh [SECONDS] [--keep]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=1800
keep=0
for a in "$@"; do
  case "$a" in
    --keep) keep=1 ;;
    *) seconds="$a" ;;
  esac
done
"$root/scripts/bootstrap.sh"
if ! command -v afl-fuzz >/dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends afl++ >/dev/null
fi
build="${TILEC_FUZZ_BUILD_DIR:-$root/build-fuzz}"
# afl-g++ instruments at the assembly level; Debian's GCC plugin (afl-g++-fast) is built for
# another GCC, and clang cannot compile the ANTLR runtime headers.
CC=afl-gcc CXX=afl-g++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
AFL_QUIET=1 cmake --build "$build" --target fuzz_compile
out="$build/afl-out"
rm -rf "$out"
echo "fuzz: afl-fuzz for $seconds s from $(ls "$root/tests/fuzz/corpus" | wc -l) corpus inputs"
AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
  timeout --signal=INT $((seconds + 1800)) \
  afl-fuzz -V "$seconds" -t 10000 -m none -i "$root/tests/fuzz/corpus" -o "$out" -- "$build/tests/fuzz/fuzz_compile" @@ \
  >"$build/afl.log" 2>&1 || true
stats="$out/default/fuzzer_stats"
[ -f "$stats" ] || { echo "fuzz: afl-fuzz did not run; see $build/afl.log"; tail -20 "$build/afl.log"; exit 1; }
get() { sed -n "s/^$1 *: *//p" "$stats"; }
crashes=$(find "$out/default/crashes" -type f -name 'id:*' | wc -l)
hangs=$(find "$out/default/hangs" -type f -name 'id:*' | wc -l)
printf '| seconds | executions | execs/s | corpus | edges found | map coverage | crashes | hangs |\n'
printf '|---|---|---|---|---|---|---|---|\n'
printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(get run_time)" "$(get execs_done)" "$(get execs_per_sec)" \
  "$(get corpus_count)" "$(get edges_found)" "$(get bitmap_cvg)" "$crashes" "$hangs"
if [ "$keep" = 1 ]; then
  tmp=$(mktemp -d)
  afl-cmin -t 10000 -m none -i "$out/default/queue" -o "$tmp/min" -- "$build/tests/fuzz/fuzz_compile" @@ >/dev/null
  for f in "$tmp/min"/*; do cp "$f" "$root/tests/fuzz/corpus/fuzz_$(sha1sum "$f" | cut -c1-12)"; done
  rm -rf "$tmp"
  echo "fuzz: corpus now $(ls "$root/tests/fuzz/corpus" | wc -l) inputs"
fi
[ "$crashes" = 0 ] && [ "$hangs" = 0 ]
