#!/usr/bin/env bash
# README command 2 (and what CI runs): install what is missing, build with warnings as errors, and
# run the whole suite - unit tests, loader and CLI scenarios, and the same suite under
# ASan+UBSan - ending in one ctest summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCUDNN_COMPAT_WERROR=ON -DCUDNN_COMPAT_SANITIZER_TESTS=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
exec ctest --output-on-failure -j"$(nproc)" "$@"
