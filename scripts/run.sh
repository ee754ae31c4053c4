#!/usr/bin/env bash
# The main job: set up, build, then run the documentation pages (the user's spec pages and our
# own docs) through `tilec doctest` on the default device (cuda:0 where a GPU and driver exist,
# else cpu). Extra arguments replace the list of pages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh"
# Build trees of one checkout share objects through ccache (paths relative to the checkout).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
build="${TILEC_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${TILEC_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build" --target tilec
if [ $# -gt 0 ]; then
  pages=("$@")
else
  pages=()
  if [ -d "$root/../shared/spec" ]; then pages+=("$root"/../shared/spec/*.rst)
  else pages+=("$root"/tests/spec_pages/*.rst); fi
  shopt -s nullglob
  pages+=("$root"/docs/*.rst)
fi
exec "$build/tilec" doctest "${pages[@]}"
