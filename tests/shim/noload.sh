# After a redirect, RTLD_NOLOAD and repeated dlopens find the redirected object, and dlclose and
# reopen work.
source "$(dirname "$0")/common.sh"
compile noload <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stddef.h>
static size_t version(void *h) { return ((size_t (*)(void))dlsym(h, "cudnnGetVersion"))(); }
int main(void) {
  void *a = dlopen("libcudnn.so.5", RTLD_NOW);
  void *b = dlopen("libcudnn.so.5", RTLD_NOW | RTLD_NOLOAD);
  void *c = dlopen("libcudnn.so.5", RTLD_NOW);
  if (!a || !b || !c) { printf("missing: %s\n", dlerror()); return 1; }
  printf("first %zu, noload %s, again %s\n", version(a), a == b ? "same" : "other",
         a == c ? "same" : "other");
  dlclose(c), dlclose(b), dlclose(a);
  void *gone = dlopen("libcudnn.so.5", RTLD_NOW | RTLD_NOLOAD);
  void *d = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("after dlclose: noload %s, reopened %zu\n", gone ? "found" : "none", d ? version(d) : 0);
  return 0;
}
C
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  expect_rc 0 $mode "$t/noload"
  has "first 5110, noload same, again same"
  has "after dlclose: noload none, reopened 5110"
done
