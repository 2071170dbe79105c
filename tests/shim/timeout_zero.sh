# CUDNN_COMPAT_TIMEOUT=0 counts as the default deadline, as any value outside 1..86400 does: the
# shim of 0ef72a5 took it for a zero deadline, started the engine for a library no table knows and
# gave up at once ("gave no answer within CUDNN_COMPAT_TIMEOUT"), so the process kept a release
# that does not fit (helper 104).
source "$(dirname "$0")/common.sh"
mkdir -p "$t/own"
cp "$FAKES"/5.0.5/lib64/libcudnn* "$t/own/"  # a user's own copy: no table knows it
fake_map 5.1.10 >"$t/map.toml"
compile dl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("cuDNN %zu\n", lib ? ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  return 0;
}
C
export LD_LIBRARY_PATH=$t/own CUDNN_COMPAT_REQUIRE=5.1
for timeout in 0 00 ""; do
  for mode in audit preload; do
    expect_rc 0 $mode env CUDNN_COMPAT_TIMEOUT=$timeout "$t/dl"
    has "cuDNN 5110"
    lacks "no answer"
  done
done
