#!/usr/bin/env bash
# Builds in Release and runs every benchmark; each writes its figures and ratios (against a
# baseline measured in the same run) into its own section of BENCHMARKS.md.
#   bench/run.sh explain   runs the explain benchmark alone (it needs neither Slurm nor the shim)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
if [[ "${1:-}" == explain ]]; then
  cmake --build build-bench -j"$(nproc)" --target explain_bench cudnn-compat >/dev/null
  exec build-bench/bin/explain_bench "$PWD/build-bench/bin/cudnn-compat" "$PWD/BENCHMARKS.md"
fi
cmake --build build-bench -j"$(nproc)" --target map_resolve_bench shim_bench shim_load_bench memo_bench scale_bench modules_bench requester_bench usage_bench explain_bench gpu_bench cudnn-compat fakecudnn >/dev/null
# The SPANK plugin and its bench are built only where Slurm's spank.h is (libslurm-dev).
if [[ -f /usr/include/slurm/spank.h ]]; then
  cmake --build build-bench -j"$(nproc)" --target slurm_bench >/dev/null
fi
BENCHMARKS_MD="$PWD/BENCHMARKS.md" build-bench/bin/map_resolve_bench "$@"
build-bench/bin/shim_bench "$PWD/build-bench/lib/cudnn-compat/libcudnn-compat.so" "$PWD/build-bench/fakecudnn" \
  "$PWD/BENCHMARKS.md"
build-bench/bin/shim_load_bench "$PWD/build-bench/lib/cudnn-compat/libcudnn-compat.so" \
  "$PWD/build-bench/bin/cudnn-compat" "$PWD/build-bench/fakecudnn" "$PWD/BENCHMARKS.md"
build-bench/bin/memo_bench "$PWD/build-bench/lib/cudnn-compat/libcudnn-compat.so" \
  "$PWD/build-bench/bin/cudnn-compat" "$PWD/build-bench/fakecudnn" "$PWD/BENCHMARKS.md"
bash bench/ops_per_process.sh build-bench >build-bench/ops_per_process.txt
build-bench/bin/scale_bench "$PWD/build-bench/lib/cudnn-compat/libcudnn-compat.so" \
  "$PWD/build-bench/bin/cudnn-compat" "$PWD/build-bench/fakecudnn" build-bench/ops_per_process.txt \
  "$PWD/BENCHMARKS.md"
build-bench/bin/usage_bench "$PWD/build-bench/lib/cudnn-compat/libcudnn-compat.so" \
  "$PWD/build-bench/bin/cudnn-compat" "$PWD/build-bench/fakecudnn" "$PWD/BENCHMARKS.md"
build-bench/bin/requester_bench "$PWD/build-bench/fakecudnn" "$PWD/BENCHMARKS.md"
build-bench/bin/explain_bench "$PWD/build-bench/bin/cudnn-compat" "$PWD/BENCHMARKS.md"
build-bench/bin/gpu_bench "$PWD/build-bench/bin/cudnn-compat" "$PWD/build-bench/lib/cudnn-compat/libcudnn-compat.so" \
  "$PWD/build-bench/fakecudnn" "$PWD/build-bench/gpu-tests" cc "$PWD/BENCHMARKS.md"
build-bench/bin/modules_bench "$PWD/build-bench/bin/cudnn-compat" "$PWD/build-bench/fakecudnn" \
  "$PWD/build-bench/share/cudnn-compat" "$PWD/.deps/environment-modules/usr/lib/x86_64-linux-gnu/modulecmd.tcl" \
  "$PWD/BENCHMARKS.md"
if [[ -x build-bench/bin/slurm_bench ]]; then
  build-bench/bin/slurm_bench "$PWD/tests/slurm/cluster.bash" \
    "$PWD/build-bench/lib/cudnn-compat/spank-cudnn-compat.so" "$PWD/build-bench/fakecudnn" "$PWD/BENCHMARKS.md"
fi
