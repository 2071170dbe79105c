# A sub-library first: a program dlopens libcudnn_ops.so.9 by bare name before any main library
# (the loader finds FAKE 9.23.0's on LD_LIBRARY_PATH), and then the framework loads the wheel's
# dispatcher (FAKE 9.20.0) by its absolute path, as torch's preload does. Without the shim the
# process maps both releases. With it, under both front ends, from C and from ctypes, the first
# member pins the family: the dispatcher and every later sub-library come from 9.23.0's directory.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
export LD_LIBRARY_PATH=$FAKES/9.23.0/lib64

"$CC" -o "$t/sub_first" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argc;
  if (!dlopen("libcudnn_ops.so.9", RTLD_NOW | RTLD_GLOBAL)) printf("ops: %s\n", dlerror());
  void *framework = dlopen(argv[1], RTLD_NOW);
  int (*load)(const char *) = framework ? (int (*)(const char *))dlsym(framework, "framework_load") : 0;
  return load && load(argv[2]) == 0 ? 0 : 3;
}
C
cat >"$t/sub_first.py" <<'PY'
import ctypes, sys
ctypes.CDLL("libcudnn_ops.so.9", mode=ctypes.RTLD_GLOBAL)
sys.exit(0 if ctypes.CDLL(sys.argv[1]).framework_load(sys.argv[2].encode()) == 0 else 3)
PY
c_first() { "$t/sub_first" "$@"; }
py_first() { python3 "$t/sub_first.py" "$@"; }

expect_rc 3 c_first "$lib" "$wheel/libcudnn.so.9"
has "status 1002"  # CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH
[[ $(dirs_loaded) == 2 ]] || fail "expected two releases without the shim:"$'\n'"$out"

for client in c_first py_first; do
  for mode in audit preload; do
    expect_rc 0 $mode $client "$lib" "$wheel/libcudnn.so.9"
    has "status 0"
    [[ $(dirs_loaded) == 1 ]] || fail "$mode $client: more than one release:"$'\n'"$out"
    has "loaded $FAKES/9.23.0/lib64/libcudnn.so.9"
    has "version 92300"
    lacks "loaded $wheel"
  done
done
