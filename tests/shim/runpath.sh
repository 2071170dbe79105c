# The LD_PRELOAD dlopen keeps the caller's RUNPATH/$ORIGIN: a library with RUNPATH $ORIGIN/sub
# dlopens a relative name (a plain library and cuDNN) and finds both, exactly as without the
# shim, also with the shim built at -O0.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/lib/sub"
"$CC" -shared -fPIC -o "$t/lib/sub/libinner.so" -x c - <<'C'
int inner(void) { return 42; }
C
cp -P "$FAKES"/5.1.10/lib64/libcudnn.so* "$t/lib/sub/"
"$CC" -shared -fPIC -o "$t/lib/libouter.so" -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/sub' \
  -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stddef.h>
int outer(void) {
  void *inner = dlopen("libinner.so", RTLD_NOW);
  if (!inner) printf("inner: %s\n", dlerror());
  void *cudnn = dlopen("libcudnn.so.5", RTLD_NOW);
  if (!cudnn) printf("cudnn: %s\n", dlerror());
  printf("inner %s, cudnn %s\n", inner ? "found" : "missing", cudnn ? "found" : "missing");
  if (cudnn) printf("cuDNN %zu\n", ((size_t (*)(void))dlsym(cudnn, "cudnnGetVersion"))());
  return inner && cudnn ? 0 : 1;
}
C
compile main "$t/lib/libouter.so" -Wl,-rpath,"$t/lib" <<'C'
int outer(void);
int main(void) { return outer(); }
C

expect_rc 0 "$t/main"
has "inner found, cudnn found"
for shim in "$SHIM" "$SHIM_O0"; do
  expect_rc 0 env LD_PRELOAD="$shim" "$t/main"
  has "inner found, cudnn found"
  has "cuDNN 5110"
done

# The control that proves this test can fail: a plain wrapper that calls the real dlopen becomes
# the caller, and the $ORIGIN/sub search is lost.
"$CC" -shared -fPIC -O2 -o "$t/naive.so" -x c - -ldl <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
void *dlopen(const char *file, int mode) {
  static void *(*real)(const char *, int);
  if (!real) real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
  void *handle = real(file, mode);
  __asm__ volatile("" ::: "memory");  /* no tail call */
  return handle;
}
C
expect_rc 1 env LD_PRELOAD="$t/naive.so" "$t/main"
has "inner: libinner.so: cannot open shared object file"
