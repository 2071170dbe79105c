#!/usr/bin/env bash
# A package build needs neither GoogleTest nor Google Benchmark: configured with the tests off and
# both disabled, the tree builds, installs and runs (issue 25, low: the benchmarks asked for
# Google Benchmark even with tests off). A whole build of its own: minutes on 2 cores.
. "$(dirname "$0")/common.sh"
launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
expect_rc 0 cmake -S "$SOURCE" -B "$t/build" -DBUILD_TESTING=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  ${launcher:+-DCMAKE_C_COMPILER_LAUNCHER=$launcher -DCMAKE_CXX_COMPILER_LAUNCHER=$launcher}
expect_rc 0 cmake --build "$t/build" -j2
expect_rc 0 cmake --install "$t/build" --prefix "$t/prefix"
expect_rc 0 "$t/prefix/bin/cudnn-compat" --version
has "cudnn-compat "
[[ -f $t/prefix/lib/cudnn-compat/libcudnn-compat.so && -f $t/prefix/share/cudnn-compat/lmod/SitePackage.lua ]] ||
  fail "the install lacks the shim or the Lmod hook: $(cd "$t/prefix" && find . -type f)"
