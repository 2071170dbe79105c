# Under LD_PRELOAD the loader links a program's or a library's DT_NEEDED cuDNN without asking the
# shim. The report at exit said "chosen by the loader ... next run: nothing to change" where that
# cuDNN misses the requirement (helper 92: torch's libtorch_cuda.so against its pin). It now asks
# the engine at exit, for the object that links it, and says what the shim would have handed over.
source "$(dirname "$0")/common.sh"
compile linked -L"$FAKES/5.0.5/lib64" -lcudnn <<'C'
#include <stdio.h>
#include <stddef.h>
size_t cudnnGetVersion(void);
int main(void) { printf("cuDNN %zu\n", cudnnGetVersion()); return 0; }
C
# A framework's library that links cuDNN, dlopened by its host (ctypes.CDLL of libtorch_cuda.so).
"$CC" -shared -fPIC -o "$t/libframework.so" -x c - -L"$FAKES/5.0.5/lib64" -lcudnn <<'C'
#include <stddef.h>
size_t cudnnGetVersion(void);
size_t framework_cudnn(void) { return cudnnGetVersion(); }
C
compile host <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stddef.h>
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW);
  size_t (*f)(void) = h ? (size_t (*)(void))dlsym(h, "framework_cudnn") : 0;
  printf("cuDNN %zu\n", f ? f() : 0);
  return 0;
}
C
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 CUDNN_COMPAT_REPORT=1
would="which the shim does not see under LD_PRELOAD; judged now: the shim would have handed over $FAKES/5.1.10/lib64/libcudnn.so.5"
advice="next run: export LD_AUDIT=\$(cudnn-compat shim-path); unset LD_PRELOAD"

expect_rc 0 preload "$t/linked"
has "cuDNN 5005"
has "libcudnn.so.5 was linked by the program, $would"
has "$advice"
lacks "nothing to change"
expect_rc 0 preload "$t/host" "$t/libframework.so"
has "cuDNN 5005"
has "libcudnn.so.5 was linked by $t/libframework.so, $would"
has "$advice"

# Nothing installed fits: LD_AUDIT would warn and keep the same load, so doctor is the advice
# (helper 94: the LD_AUDIT advice changed nothing).
CUDNN_COMPAT_REQUIRE=5.2 expect_rc 0 preload "$t/linked"
has "libcudnn.so.5 was linked by the program, which the shim does not see under LD_PRELOAD; judged now: libcudnn.so.5: needs 5.2 from CUDNN_COMPAT_REQUIRE"
has "next run: cudnn-compat doctor   # the shim had no fitting release to hand over"
lacks "export LD_AUDIT"

# What the loader linked fits: nothing to say, nothing to change.
CUDNN_COMPAT_REQUIRE=5.0 expect_rc 0 preload "$t/linked"
lacks "was linked by"
has "next run: nothing to change"
# LD_AUDIT sees the link and hands over 5.1.10 at the load.
expect_rc 0 audit "$t/linked"
has "cuDNN 5110"
lacks "was linked by"
has "next run: nothing to change"
