#!/usr/bin/env bash
# Builds in Release and runs every benchmark; each writes its figures and ratios (against a
# baseline measured in the same run) into BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench -j"$(nproc)" --target map_resolve_bench >/dev/null
BENCHMARKS_MD="$PWD/BENCHMARKS.md" build-bench/bin/map_resolve_bench "$@"
