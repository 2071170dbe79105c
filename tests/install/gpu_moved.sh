#!/usr/bin/env bash
# Issue 22 as deployed: installed, moved, no CUDNN_COMPAT_* set. Two FAKE cuDNN 9 releases whose
# libraries carry device code (9.0.0: sm_60, sm_70 cubins; 9.1.0: sm_75, sm_80), the loader finding
# 9.1.0; a FAKE NVML says the node is a V100 (7.0) with a CUDA 12.2 driver. The moved shim hands
# over 9.0.0 through the engine (which learns the node once) and then through the moved map's
# decision table (the node file remembered); the moved resolve answers for another node; the moved
# Lmod and Environment Modules hooks warn at `module load cudnn/9.1` and name cudnn/9.0.
. "$(dirname "$0")/common.sh"
: "${GPU_TEST_DIR:?}"
[[ -x $GPU_TEST_DIR/write-fatbin && -e $GPU_TEST_DIR/nvml/libnvidia-ml.so.1 ]] ||
  skip "no write-fatbin or FAKE NVML in $GPU_TEST_DIR"
export SLURMD_NODENAME=gpumoved-$$-$RANDOM
trap 'rm -rf "$t" /tmp/cudnn-compat-"$(id -u)"/node-"$SLURMD_NODENAME"' EXIT
install_to "$t/first"
mv "$t/first" "$t/moved"
p=$t/moved

cp -a "$FAKES/9.0.0" "$t/volta"
cp -a "$FAKES/9.1.0" "$t/turing"
"$GPU_TEST_DIR/write-fatbin" "$t/volta.fatbin" cubin:60 cubin:70
"$GPU_TEST_DIR/write-fatbin" "$t/turing.fatbin" cubin:75 cubin:80
objcopy --add-section ".nv_fatbin=$t/volta.fatbin" "$t/volta/lib64/libcudnn_cnn.so.9.0.0"
objcopy --add-section ".nv_fatbin=$t/turing.fatbin" "$t/turing/lib64/libcudnn_cnn.so.9.1.0"
{
  printf 'schema = 1\n[policy]\nrule = "nvidia"\n'
  printf '[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\ncuda = "12.2"\nmodule = "cudnn/9.0"\n' "$t/volta/lib64"
  printf '[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\ncuda = "12.4"\nmodule = "cudnn/9.1"\n' "$t/turing/lib64"
} >"$p/etc/cudnn-compat/map.toml"

"$CC" -o "$t/client" -x c - -ldl <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  struct link_map *m = 0;
  if (!lib || dlinfo(lib, RTLD_DI_LINKMAP, &m) != 0) return printf("dlopen: %s\n", dlerror()), 1;
  printf("loaded %s\n", m->l_name);
  return 0;
}
C
export FAKE_NVML_GPUS=7.0 FAKE_NVML_DRIVER=12020 FAKE_NVML_LOG=$t/nvml.log
run_all() {
  for mode in AUDIT PRELOAD; do
    out=$(env LD_LIBRARY_PATH="$t/turing/lib64:$GPU_TEST_DIR/nvml" \
      LD_$mode="$p/lib/cudnn-compat/libcudnn-compat.so" "$t/client" 2>&1)
    has "loaded $t/volta/lib64/libcudnn.so.9"
  done
}
run_all                                         # the engine decides, learning the node
[[ $(wc -l <"$t/nvml.log") == 1 ]] || fail "NVML was asked more than once:"$'\n'"$(cat "$t/nvml.log")"
expect_rc 0 "$p/bin/cudnn-compat" map validate  # the moved map's decision table
has "9.0.0"
run_all                                         # the table and the node file decide
[[ $(wc -l <"$t/nvml.log") == 1 ]] || fail "NVML was asked again:"$'\n'"$(cat "$t/nvml.log")"

# For a node you are not on.
expect_rc 0 "$p/bin/cudnn-compat" resolve libcudnn.so.9 --gpu 8.0 --driver 12.4
has "$t/turing/lib64"
expect_rc 0 "$p/bin/cudnn-compat" resolve libcudnn.so.9 --gpu 7.0 --driver 12.4
has "$t/volta/lib64"

# The moved hooks, on this node (its node file, written by the engine above).
need_module_systems
"$p/bin/cudnn-compat" modulefiles --format lua -o "$t/modules/lua" >/dev/null
"$p/bin/cudnn-compat" modulefiles --format tcl -o "$t/modules/tcl" >/dev/null
warning="cudnn/9.1 (cuDNN 9.1.0) cannot run on this node, compute capability 7.0 with a CUDA 12.2 driver (NVML): its release carries no code for compute capability 7.0; cudnn/9.0 runs here"
lmod "$p" load cudnn/9.1 || true
has "$warning: module swap cudnn/9.1 cudnn/9.0"
lmod "$p" purge
lmod "$p" load cudnn/9.0
lacks "cannot run"
lmod "$p" purge
tcl "$p" load cudnn/9.1 || true
has "$warning: module switch cudnn/9.1 cudnn/9.0"
tcl "$p" purge
tcl "$p" load cudnn/9.0
lacks "cannot run"
