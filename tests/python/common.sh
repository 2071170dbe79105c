# Sourced by every tests/python/*.sh scenario: cuDNN from Python environments, laid out on disk as
# pip and conda leave them (no package index: the files and their metadata are written here).
# CTest passes:
#   SHIM          the libcudnn-compat.so under test (cudnn-compat-select beside it)
#   CUDNN_COMPAT  the cudnn-compat binary
#   FAKES         the FAKE cuDNN releases (tests/fakecudnn); 9.20.0 and 9.23.0 load
#                 libcudnn_engines_tensor_ir.so.9 too
#   CC            the C compiler for the clients and the FAKE frameworks
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${SHIM:?}" "${CUDNN_COMPAT:?}" "${FAKES:?}" "${CC:?}"
unset CUDNN_COMPAT_REPORT VIRTUAL_ENV CONDA_PREFIX
# A node of the scenario's own, learnt, as tests/shim/common.sh says why.
export SLURMD_NODENAME=pytest-$$-$RANDOM
node_of_scenario=/tmp/cudnn-compat-$(id -u)/node-$SLURMD_NODENAME
trap 'rm -rf "$t" "$node_of_scenario"' EXIT
"$CUDNN_COMPAT" doctor >/dev/null 2>&1 || true
[[ -f $node_of_scenario ]] || fail "doctor did not learn the scenario's node ($node_of_scenario)"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v python3 >/dev/null || skip "no python3"
# No map unless a test writes one.
export CUDNN_COMPAT_MAP=$t/map.toml
cc() { "$CUDNN_COMPAT" "$@"; }
audit() { LD_AUDIT=$SHIM "$@"; }
preload() { LD_PRELOAD=$SHIM "$@"; }

# make_venv DIR: a real virtual environment (python3 -m venv, without pip: nothing is fetched);
# sets site to its site-packages.
make_venv() {
  python3 -m venv --without-pip "$1" >/dev/null 2>&1 ||
    skip "python3 -m venv failed (scripts/deps.sh installs python3-venv)"
  site=$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
  [[ -d $site ]] || fail "no site-packages in $1"
}

# wheel_cudnn SITE RELEASE [SUB...]: nvidia-cudnn-cu12 as pip installs it: the FAKE release's
# libraries under nvidia/cudnn/lib with their .so.9 names only, less the sub-libraries named,
# and its nvidia_cudnn_cu12-<release>.48.dist-info.
wheel_cudnn() {
  local site=$1 release=$2 f base sub skip_it
  shift 2
  local lib=$site/nvidia/cudnn/lib files=()
  mkdir -p "$lib"
  : >"$site/nvidia/__init__.py"
  : >"$site/nvidia/cudnn/__init__.py"
  files+=(nvidia/__init__.py nvidia/cudnn/__init__.py)
  for f in "$FAKES/$release/lib64/"libcudnn*.so.9; do
    base=${f##*/} skip_it=
    for sub in "$@"; do [[ $base == "libcudnn_$sub.so.9" ]] && skip_it=1; done
    [[ -n $skip_it ]] && continue
    cp -L "$f" "$lib/$base"
    files+=("nvidia/cudnn/lib/$base")
  done
  python3 "$here/dist_info.py" "$site" nvidia-cudnn-cu12 "$release.48" \
    --requires "nvidia-cublas-cu12" --top nvidia "${files[@]}"
}

# framework_lib FILE RUNPATH: a FAKE framework library (not any framework's code) with the RUNPATH
# the real one has (libtorch_cuda.so: $ORIGIN/../../nvidia/cudnn/lib). Its framework_load(PATH)
# loads cuDNN as frameworks do - by bare name through its own RUNPATH (PATH empty), or by the
# absolute path of the wheel's copy, as torch's preload does - creates a handle (the dispatcher
# then loads its sub-libraries) and prints the status and every libcudnn* of the process.
framework_lib() {
  mkdir -p "$(dirname "$1")"
  "$CC" -shared -fPIC -o "$1" -x c - -ldl -Wl,--enable-new-dtags -Wl,-rpath,"$2" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <stdlib.h>
/* Each cuDNN library of the process, its directory as a real path (a RUNPATH's ../.. undone). */
static int show(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *slash = strrchr(info->dlpi_name, '/');
  if (!slash || (strncmp(slash + 1, "libcudnn.", 9) && strncmp(slash + 1, "libcudnn_", 9)))
    return 0;
  char dir[PATH_MAX], real[PATH_MAX];
  snprintf(dir, sizeof dir, "%.*s", (int)(slash - info->dlpi_name), info->dlpi_name);
  printf("loaded %s%s\n", realpath(dir, real) ? real : dir, slash);
  return 0;
}
int framework_load(const char *path) {
  void *lib = dlopen(path && *path ? path : "libcudnn.so.9", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    fflush(stdout);
    return -1;
  }
  size_t (*version)(void) = (size_t (*)(void))dlsym(lib, "cudnnGetVersion");
  int (*create)(void **) = (int (*)(void **))dlsym(lib, "cudnnCreate");
  void *handle = 0;
  const int status = create(&handle);
  printf("version %zu\nstatus %d\n", version(), status);
  dl_iterate_phdr(show, NULL);
  fflush(stdout);
  return status;
}
C
}

# framework SITE NAME VERSION PIN: a FAKE framework distribution NAME (torch-like) in SITE: its
# library NAME/lib/lib<NAME>_cuda.so and a dist-info whose METADATA pins cuDNN with PIN (as
# torch's does: nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" ...).
framework() {
  local site=$1 name=$2 version=$3 pin=$4
  framework_lib "$site/$name/lib/lib${name}_cuda.so" '$ORIGIN/../../nvidia/cudnn/lib'
  : >"$site/$name/__init__.py"
  python3 "$here/dist_info.py" "$site" "$name" "$version" --requires "filelock" \
    --requires "$pin; platform_system == \"Linux\" and platform_machine == \"x86_64\"" \
    --top "$name" "$name/__init__.py" "$name/lib/lib${name}_cuda.so"
}

# linking_torch SITE PIN: torch 2.6.0 pinning PIN, whose libtorch_cuda.so links the wheel's
# libcudnn.so.9 (DT_NEEDED, through the real one's RUNPATH) and returns its cudnnGetVersion() from
# torch_cudnn(); sets lib to that library.
linking_torch() {
  mkdir -p "$1/torch/lib"
  lib=$1/torch/lib/libtorch_cuda.so
  "$CC" -shared -fPIC -o "$lib" -x c - -L"$1/nvidia/cudnn/lib" -l:libcudnn.so.9 \
    -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib' <<'C'
#include <stddef.h>
size_t cudnnGetVersion(void);
size_t torch_cudnn(void) { return cudnnGetVersion(); }
C
  : >"$1/torch/__init__.py"
  python3 "$here/dist_info.py" "$1" torch 2.6.0 --requires "$2" \
    --top torch torch/__init__.py torch/lib/libtorch_cuda.so
}

# torch_above_its_wheel: the active venv $t/venv, its wheel FAKE 9.20.0, its torch linking that
# and pinning 9.23.0.12, the map offering 9.23.0 (module cudnn/9.23); sets site, lib and load (the
# Python line that prints the cuDNN torch got).
torch_above_its_wheel() {
  make_venv "$t/venv"
  wheel_cudnn "$site" 9.20.0
  linking_torch "$site" "nvidia-cudnn-cu12==9.23.0.12"
  printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\nmodule = "cudnn/9.23"\n' \
    "$FAKES/9.23.0/lib64" >"$t/map.toml"
  export VIRTUAL_ENV=$t/venv
  load='import ctypes, sys; print("cuDNN", ctypes.CDLL(sys.argv[1]).torch_cudnn())'
}

# conda_env PREFIX RELEASE: a conda environment holding cudnn RELEASE as conda installs it:
# the libraries in PREFIX/lib and conda-meta/cudnn-<release>.48-h0123456_0.json, and a FAKE
# framework package (tensorflow-base) whose library in PREFIX/lib depends on cudnn >=RELEASE.
conda_env() {
  local prefix=$1 release=$2 files=() f
  mkdir -p "$prefix/lib" "$prefix/conda-meta"
  for f in "$FAKES/$release/lib64/"libcudnn*; do
    cp -P "$f" "$prefix/lib/"
    files+=("\"lib/${f##*/}\"")
  done
  printf '{"name": "cudnn", "version": "%s.48", "build": "h0123456_0", "build_number": 0,
  "depends": ["cuda-version >=12.0,<13", "libgcc-ng >=12"], "files": [%s]}\n' \
    "$release" "$(IFS=,; echo "${files[*]}")" >"$prefix/conda-meta/cudnn-$release.48-h0123456_0.json"
  framework_lib "$prefix/lib/libtf_conda.so" '$ORIGIN'
  printf '{"name": "tensorflow-base", "version": "2.15.0", "build": "cuda120py311", "depends":
  ["cudnn >=%s,<10.0a0", "python >=3.11"], "files": ["lib/libtf_conda.so"]}\n' "$release" \
    >"$prefix/conda-meta/tensorflow-base-2.15.0-cuda120py311.json"
}

# The clients: from C (client LIB [PATH]) and from Python's ctypes (py_client LIB [PATH]), each
# loading the framework library LIB and calling framework_load(PATH).
c_client() {
  [[ -x $t/client ]] || "$CC" -o "$t/client" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *framework = dlopen(argv[1], RTLD_NOW);
  if (!framework) {
    printf("framework: %s\n", dlerror());
    return 2;
  }
  int (*load)(const char *) = (int (*)(const char *))dlsym(framework, "framework_load");
  return load(argc > 2 ? argv[2] : "") == 0 ? 0 : 3;
}
C
  "$t/client" "$@"
}
cat >"$t/load.py" <<'PY'
import ctypes, sys
path = (sys.argv[2] if len(sys.argv) > 2 else "").encode()
sys.exit(0 if ctypes.CDLL(sys.argv[1]).framework_load(path) == 0 else 3)
PY
py_client() { "${python:-python3}" "$t/load.py" "$@"; }

# redirected LIB BEFORE AFTER DIR N: without the shim LIB's cuDNN is BEFORE (a cudnnGetVersion
# number); with it, from C and from ctypes under both front ends, it is AFTER, its N libraries
# all from DIR.
redirected() {
  local lib=$1 before=$2 after=$3 dir=$4 n=$5 client mode
  expect_rc 0 c_client "$lib"
  has "version $before"
  for client in c_client py_client; do
    for mode in audit preload; do
      expect_rc 0 $mode $client "$lib"
      has "version $after"
      count "loaded $dir/" "$n"
      [[ $(dirs_loaded) == 1 ]] || fail "$mode $client: more than one directory:"$'\n'"$out"
    done
  done
}

# two_releases_without_shim CLIENT ARG...: the client fails with the FAKE dispatcher's
# CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH and maps libraries of two directories.
two_releases_without_shim() {
  expect_rc 3 "$@"
  has "status 1002"
  [[ $(dirs_loaded) == 2 ]] || fail "expected two releases without the shim:"$'\n'"$out"
}

# refused_missing LINE ARG...: from C and from ctypes under both front ends the handle fails for
# the missing file (CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED, not a foreign one), one release is
# mapped, and LINE is the one line said.
refused_missing() {
  local line=$1 client mode
  shift
  for client in c_client py_client; do
    for mode in audit preload; do
      expect_rc 3 $mode $client "$@"
      has "status 1008"
      [[ $(dirs_loaded) == 1 ]] || fail "$mode $client: more than one release:"$'\n'"$out"
      count "cudnn-compat:" 1
      has "$line"
    done
  done
}

# dirs_loaded: how many directories the libcudnn* lines of $out come from.
dirs_loaded() { grep '^loaded ' <<<"$out" | sed 's|^loaded \(.*\)/[^/]*$|\1|' | sort -u | wc -l; }

# in_system_dir DIR CMD...: CMD with DIR's files in the system's default library directory
# (/usr/lib/x86_64-linux-gnu), overlaid in a mount namespace of its own; nothing on the host
# changes. Skips where a mount namespace cannot be had.
in_system_dir() {
  local dir=$1
  shift
  local sys=/usr/lib/x86_64-linux-gnu
  [[ -d $sys ]] || skip "no $sys (not Debian's multiarch layout)"
  local ns=(unshare -m)
  ((EUID == 0)) || ns=(unshare -rm)
  local overlay='mount -t overlay overlay -o lowerdir="$1":"$2" "$2" && shift 2 && exec "$@"'
  "${ns[@]}" bash -c "$overlay" _ "$dir" "$sys" true 2>/dev/null ||
    skip "cannot overlay $sys in a mount namespace here (unshare -m, overlayfs)"
  "${ns[@]}" bash -c "$overlay" _ "$dir" "$sys" "$@"
}

# two_consumers_site: a venv whose wheel brings FAKE 9.20.0, a torch-like framework pinning it
# exactly (PyTorch's rule: 9.20 or a newer 9.x) and a JAX-plugin-like one asking >=9.23,<10; the
# map lists FAKE 9.23.0, the one release that fits both. Sets $torch and $jax (their libraries).
two_consumers_site() {
  make_venv "$t/venv"
  wheel_cudnn "$site" 9.20.0
  framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
  framework "$site" jax_cuda12_plugin 0.7.2 "nvidia-cudnn-cu12<10.0,>=9.23"
  printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\ncuda = "12.9"\nmodule = "cudnn/9.23"\n' \
    "$FAKES/9.23.0/lib64" >"$t/map.toml"
  torch=$site/torch/lib/libtorch_cuda.so
  jax=$site/jax_cuda12_plugin/lib/libjax_cuda12_plugin_cuda.so
}
