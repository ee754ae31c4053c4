#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then examples/host_cpp built against it as a
# separate project (find_package(tilec) + tilec_add_kernels): checks the installed layout, the
# program's output, that editing one .tile recompiles that module alone, and ARCHS. CTest runs it.
#
# usage: install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE CXX GENERATOR LIBDIR
set -euo pipefail
build=$1 src=$2 work=$3 cmake=$4 cxx=$5 generator=$6 libdir=$7

rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
log=$work/log
fail() {
  echo "FAIL: $*" >&2
  [[ -s $log ]] && { echo "--- last command's output:" >&2; tail -n 60 "$log" >&2; }
  exit 1
}
step() { "$@" >"$log" 2>&1 || fail "$*"; }

prefix=$work/prefix
step "$cmake" --install "$build" --prefix "$prefix"

# --- the installed layout: bin/tilec, the runtime library, headers only under include/tilec/,
# the package under LIBDIR/cmake/tilec/; anything else is a new install rule to review.
stray=$(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' |
        grep -Ev "^(bin/tilec|$libdir/libtilec_rt\.so(\.[0-9.]+)?|$libdir/cmake/tilec/[^/]+\.cmake|include/tilec/.+\.h)$" || true)
[[ -z $stray ]] || fail "installed outside the expected layout: $stray"
for f in bin/tilec "$libdir/libtilec_rt.so" "$libdir/cmake/tilec/tilecConfig.cmake" \
         "$libdir/cmake/tilec/tilecKernels.cmake" include/tilec/runtime.h include/tilec/support/dtype.h; do
  [[ -e $prefix/$f ]] || fail "missing $f"
done
# The installed tilec carries its runtime: it loads nothing from the prefix or the build tree.
rt_line=$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/tilec" | grep -E 'libtilec_rt|not found' || true)
[[ -z $rt_line ]] || fail "bin/tilec loads: $rt_line"
step env -u LD_LIBRARY_PATH "$prefix/bin/tilec" --version
# Every public header compiles with nothing but <prefix>/include on the path.
(cd "$prefix/include" && find tilec -name '*.h' | sort | sed 's/.*/#include "&"/') > "$work/all_headers.cpp"
step "$cxx" -std=c++20 -fsyntax-only -I"$prefix/include" "$work/all_headers.cpp"

# --- the consumer: a copy of examples/host_cpp (the test edits its .tile files).
cp -r "$src/examples/host_cpp" "$work/src"
step "$cmake" -S "$work/src" -B "$work/build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Release -Dtilec_DIR="$prefix/$libdir/cmake/tilec" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
step "$cmake" --build "$work/build"
grep -q 'tilec: compiling module gather_even_rows' "$log" || fail "gather_even_rows.tile was not compiled"
grep -q 'tilec: compiling module scatter_add' "$log" || fail "scatter_add.tile was not compiled"
for f in gather_even_rows.so scatter_add.so gather_kernels.h scatter_kernels.h; do
  [[ -s $work/build/gather_host.tilec/$f ]] || fail "tilec_add_kernels made no $f"
done

expected=$(grep -v '^#' "$src/tests/install/gather_host.expected")
check_output() {
  local got
  got=$(env -u LD_LIBRARY_PATH "$work/build/gather_host" cpu 2>"$log") || fail "gather_host exited with $?"
  [[ $got == "$expected" ]] || fail "gather_host printed:"$'\n'"$got"$'\n'"expected:"$'\n'"$expected"
}
check_output

# --- rebuilds: nothing to do, then one edited .tile recompiles its module and nothing else.
modules=$work/build/gather_host.tilec
step "$cmake" --build "$work/build"
! grep -q 'tilec: compiling module' "$log" || fail "a no-op rebuild recompiled a module"
gather_before=$(stat -c %Y.%y "$modules/gather_even_rows.so")
scatter_before=$(stat -c %Y.%y "$modules/scatter_add.so")
sleep 1  # a coarse file system clock must still see the edit as newer than the last build
printf '\n# edited by install_test.sh\n' >> "$work/src/scatter_add.tile"
step "$cmake" --build "$work/build"
grep -q 'tilec: compiling module scatter_add' "$log" || fail "editing scatter_add.tile did not recompile it"
! grep -q 'tilec: compiling module gather_even_rows' "$log" || fail "editing scatter_add.tile recompiled gather_even_rows"
[[ $(stat -c %Y.%y "$modules/gather_even_rows.so") == "$gather_before" ]] || fail "gather_even_rows.so was rewritten"
[[ $(stat -c %Y.%y "$modules/scatter_add.so") != "$scatter_before" ]] || fail "scatter_add.so was not rewritten"
check_output

# --- ARCHS (and BLOCK_DIMS): both modules are rebuilt with PTX for each architecture beside the
# host code, which still runs on the CPU.
step "$cmake" -S "$work/src" -B "$work/build" -DTILEC_EXAMPLE_ARCHS="sm_80;sm_90"
step "$cmake" --build "$work/build"
for m in gather_even_rows scatter_add; do
  grep -q "tilec: compiling module $m" "$log" || fail "ARCHS did not recompile $m"
  for arch in sm_80 sm_90; do
    grep -aq "\.target $arch" "$modules/$m.so" || fail "$m.so carries no PTX for $arch"
    # BLOCK_DIMS 4: the image of each architecture is built for the program's block_dim.
    grep -aq "gpu_image $arch 4\b" "$modules/$m.so" || fail "$m.so has no $arch image for block_dim 4"
  done
done
check_output

# --- a runtime-only install (component tilec_runtime) still loads the package, without tilec.
step "$cmake" --install "$build" --component tilec_runtime --prefix "$work/rt-only"
[[ ! -e $work/rt-only/bin/tilec ]] || fail "the tilec_runtime component installs bin/tilec"
mkdir -p "$work/rt-src"
cat > "$work/rt-src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(rt_only NONE)
find_package(tilec REQUIRED CONFIG)
if(NOT TARGET tilec::tilec_rt OR TARGET tilec::tilec OR tilec_compiler_FOUND)
  message(FATAL_ERROR "a runtime-only install should give tilec::tilec_rt and no compiler")
endif()
EOF
step "$cmake" -S "$work/rt-src" -B "$work/rt-build" -G "$generator" \
  -Dtilec_DIR="$work/rt-only/$libdir/cmake/tilec" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
echo "install test passed: layout, consumer output, incremental rebuild, ARCHS, runtime-only package"
