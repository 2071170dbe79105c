#!/usr/bin/env bash
# clang-tidy over the tree's sources (.clang-tidy, shim/.clang-tidy), or over the files named:
#   bash scripts/tidy.sh [FILE...]
# By hand, not in CI: the whole tree takes about 27 minutes of CPU on the 2-core machine. The
# compile database comes from a configure of its own without precompiled headers (clang cannot
# read GCC's), with the GCC-only flags clang does not know taken out. Exit 1 on any warning.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${TIDY_BUILD_DIR:-build-tidy}
cmake -S . -B "$db" -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON >/dev/null
sed -i 's/ -fno-tree-loop-distribute-patterns//g' "$db/compile_commands.json"
# The shim includes the engine's build ID, generated once the engine is built: the main build's
# copy where there is one (its value matters not here), else the engine built here.
if [[ -f ${BUILD_DIR:-build}/generated/engine_build.h ]]; then
  cp "${BUILD_DIR:-build}/generated/engine_build.h" "$db/generated/"
else
  cmake --build "$db" --target cudnn-compat-shim >/dev/null
fi
if (($#)); then files=("$@"); else mapfile -t files < <(git ls-files 'src/*.cc' 'shim/*.c' 'slurm/*.c'); fi
out=$(run-clang-tidy -quiet -p "$db" -j "$(nproc)" "${files[@]/#/$PWD/}" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' || true)
warnings=$(grep -E '(warning|error): .*\[[a-z].*\]$' <<<"$out" | sort -u || true)
[[ -z $warnings ]] && { echo "clang-tidy: ${#files[@]} file(s), no warning"; exit 0; }
echo "$warnings"
echo "clang-tidy: $(wc -l <<<"$warnings") warning(s)"
exit 1
