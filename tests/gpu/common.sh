# Sourced by every tests/gpu/*.sh scenario. CTest passes SHIM, CUDNN_COMPAT, FAKES, CC,
# GPU_TEST_DIR (write-fatbin, the nvcc-built fatbins), NVML_DIR (the FAKE libnvidia-ml.so.1) and
# FAKE_SMI (the FAKE nvidia-smi).
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${SHIM:?}" "${CUDNN_COMPAT:?}" "${FAKES:?}" "${GPU_TEST_DIR:?}" "${NVML_DIR:?}"
unset CUDNN_COMPAT_GPU_ARCH CUDNN_COMPAT_DRIVER_CUDA CUDNN_COMPAT_TIMEOUT
export CUDNN_COMPAT_MAP=$t/map.toml
# A node of this scenario's own: its node file (/tmp/cudnn-compat-UID/node-NODE) is keyed by
# the node's name, so scenarios never see each other's facts, nor this host's.
export SLURMD_NODENAME=gputest-$$-$RANDOM
trap 'rm -rf "$t" /tmp/cudnn-compat-"$(id -u)"/node-"$SLURMD_NODENAME"' EXIT
# No NVML, no nvidia-smi unless a scenario puts the FAKE ones in place.
export PATH=$t/bin:/usr/bin:/bin
mkdir -p "$t/bin"

# fake_release NAME VERSION: a copy of FAKE cuDNN VERSION at $t/NAME/lib64.
fake_release() { cp -a "$FAKES/$2" "$t/$1"; }
# attach LIBRARY FATBIN: LIBRARY carries FATBIN as its .nv_fatbin section.
attach() { objcopy --add-section ".nv_fatbin=$2" "$1"; }
# nvcc_fatbin: the nvcc-built device code (sm_75, sm_80 cubins, PTX 9.0), or skip.
nvcc_fatbin() {
  fatbin=$GPU_TEST_DIR/sm75_80_ptx90.fatbin
  [[ -s $fatbin ]] || skip "no nvcc at /usr/local/cuda/bin: no real device code was built"
}
# map_of NAME:VERSION:CUDA...: a map of the releases at $t/NAME/lib64.
map_of() {
  printf 'schema = 1\n[policy]\nrule = "nvidia"\n'
  local spec name version cuda
  for spec in "$@"; do
    IFS=: read -r name version cuda <<<"$spec"
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\ncuda = "%s"\n' "$version" "$t/$name/lib64" "$cuda"
  done
}
# The two FAKE releases of most scenarios: "volta" (9.0.0, CUDA 12.2) carries cubins for sm_70
# and sm_60 only, written here (nvcc 13 builds neither); "turing" (9.1.0, CUDA 12.4) carries
# nvcc's sm_75 and sm_80 cubins and PTX 9.0 in libcudnn_cnn and libcudnn_ops.
two_releases() {
  nvcc_fatbin
  fake_release volta 9.0.0
  fake_release turing 9.1.0
  "$GPU_TEST_DIR/write-fatbin" "$t/volta.fatbin" cubin:60 cubin:70
  attach "$t/volta/lib64/libcudnn_cnn.so.9.0.0" "$t/volta.fatbin"
  attach "$t/turing/lib64/libcudnn_cnn.so.9.1.0" "$fatbin"
  attach "$t/turing/lib64/libcudnn_ops.so.9.1.0" "$fatbin"
  map_of volta:9.0.0:12.2 turing:9.1.0:12.4 >"$t/map.toml"
}
# A client that loads libcudnn.so.9 by bare name and says which file it got.
client() {
  "${CC:?}" -o "$t/client" -x c - -ldl <<'C'
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
}
# fake_nvml: the FAKE libnvidia-ml.so.1 where the NVML probe looks (the library path).
fake_nvml() { export LD_LIBRARY_PATH=$NVML_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; }
# node_scenario: the two releases and the client, the table validated, the loader's own choice
# turing (the newer release), the FAKE NVML in place; $node_file is this node's file.
node_scenario() {
  two_releases
  client
  expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
  export LD_LIBRARY_PATH=$t/turing/lib64
  fake_nvml
  node_file=/tmp/cudnn-compat-$(id -u)/node-$SLURMD_NODENAME
}
# nvml_asked N [CASE]: the FAKE NVML was asked N times in all (FAKE_NVML_LOG, one line a time).
nvml_asked() {
  local n; n=$(wc -l <"${FAKE_NVML_LOG:?}")
  [[ $n == "$1" ]] || fail "${2:+$2: }NVML asked $n times, not $1"
}
