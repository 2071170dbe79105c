# The shim exports the audit and dlopen entry points and the mark by which its LD_PRELOAD copy
# knows an LD_AUDIT one (shim/both_front_ends.sh), and nothing else, and needs no library at
# all (only weak references, which stay null where libc is absent), so no host can collide with it.
source "$(dirname "$0")/common.sh"
defined=$(nm -D --defined-only "$SHIM" | awk '{print $3}' | sort | tr '\n' ' ')
[[ $defined == "cudnn_compat_shim dlopen la_objclose la_objopen la_objsearch la_preinit la_version " ]] || fail "exports: $defined"
strong=$(nm -D --undefined-only "$SHIM" | awk '$1 != "w"' | tr '\n' ' ')
[[ -z $strong ]] || fail "needs symbols: $strong"
needed=$(readelf -d "$SHIM" | grep NEEDED || true)
[[ -z $needed ]] || fail "has DT_NEEDED: $needed"

# A host that defines the shim's internal names, and exports them (-rdynamic), still gets the
# redirect: were the shim's own calls interposable, its parse_cudnn_name would see no cuDNN name at
# all and its lock would abort.
compile host -rdynamic <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int parse_cudnn_name(const char *base, void *out) { (void)base, (void)out; return 0; }
void lock(void) { abort(); }
const char *route(void) { abort(); }
long text_len(const char *s) { (void)s; abort(); }
int main(void) {
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("host got cuDNN %zu\n", lib ? ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  return 0;
}
C
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  expect_rc 0 $mode "$t/host"
  has "host got cuDNN 5110"
done
