#!/usr/bin/env bash
# Operations on the shared tree per process for a first cuDNN load (issue 23, item 1): every
# file-system system call (strace's %file and %desc classes, the process and any it starts) that
# names a path under the FAKE releases' directory or the map's, for one dlopen("libcudnn.so.9")
# and its family, with no shim, and with the shim (LD_AUDIT) deciding from the validated table,
# from the engine with the per-node memo cold, and warm. The loader's own operations are in the
# first row: they include its walk of LD_LIBRARY_PATH for every other library of the process. A
# job's LD_LIBRARY_PATH names several modules' directories on the tree, which the loader walks for
# every cuDNN name it is not handed as a path: the last rows put cuDNN's fourth, after three.
#   bench/ops_per_process.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: bench/ops_per_process.sh BUILD_DIR}" && pwd)
fakes=$build/fakecudnn shim=$build/lib/cudnn-compat/libcudnn-compat.so
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
cc -o "$t/load" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  int (*check)(void) = lib ? (int (*)(void))dlsym(lib, "cudnnAdvVersionCheck") : 0;
  return !check || check();
}
C
mkdir -p "$t/site" "$t/user" "$t/mods/nccl/lib" "$t/mods/openmpi/lib" "$t/mods/openblas/lib"
cp -a "$fakes/9.0.0/lib64/." "$t/user/"  # a user's own copy: a library the table does not know
printf 'schema = 1\n[policy]\nrule = "nvidia"\n' >"$t/site/map.toml"
for v in 9.0.0 9.1.0; do printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\n' "$v" "$fakes/$v/lib64" >>"$t/site/map.toml"; done
"$build/bin/cudnn-compat" map validate "$t/site/map.toml" >/dev/null
export CUDNN_COMPAT_MAP=$t/site/map.toml XDG_RUNTIME_DIR=$t/run
mkdir -m 700 "$t/run"
# The node as learnt once per boot (a test run may have rewritten its file): an engine that learns
# it anew writes the file, and the memo keeps no decision resting on a file changed within the last
# second, so the warm row would start the engine again.
"$build/bin/cudnn-compat" doctor >/dev/null 2>&1 || true
sleep 2
count() {  # count LABEL LD_LIBRARY_PATH REQUIRE [LD_AUDIT]
  env LD_LIBRARY_PATH="$2" CUDNN_COMPAT_REQUIRE="$3" ${4:+LD_AUDIT=$4} \
    strace -f -qq -e trace=%file,%desc -o "$t/trace" "$t/load" || echo "$1: the load failed" >&2
  printf '%-44s %5d\n' "$1" "$(grep -cE "\"($fakes|$t/site|$t/user|$t/mods)" "$t/trace")"
}
printf '%-44s %5s\n' "first load of libcudnn.so.9 (FAKE 9.x)" "ops"
count "no shim, FAKE 9.1.0 on the path" "$fakes/9.1.0/lib64" 9.1
count "shim, table: the loader's 9.1.0 kept" "$fakes/9.1.0/lib64" 9.1 "$shim"
count "no shim, FAKE 9.0.0 on the path" "$fakes/9.0.0/lib64" 9.1
count "shim, table: 9.0.0 -> 9.1.0" "$fakes/9.0.0/lib64" 9.1 "$shim"
count "no shim, a user's copy of 9.0.0" "$t/user" 9.1
count "shim, engine, memo cold: -> 9.1.0" "$t/user" 9.1 "$shim"
count "shim, memo warm: -> 9.1.0" "$t/user" 9.1 "$shim"
mods=$t/mods/nccl/lib:$t/mods/openmpi/lib:$t/mods/openblas/lib
count "no shim, modules, FAKE 9.1.0 fourth" "$mods:$fakes/9.1.0/lib64" 9.1
count "shim, modules, table: 9.1.0 kept" "$mods:$fakes/9.1.0/lib64" 9.1 "$shim"
count "no shim, modules, FAKE 9.0.0 fourth" "$mods:$fakes/9.0.0/lib64" 9.1
count "shim, modules, table: 9.0.0 -> 9.1.0" "$mods:$fakes/9.0.0/lib64" 9.1 "$shim"
