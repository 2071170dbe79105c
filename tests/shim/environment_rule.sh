# One rule for both front ends (docs/shim.md, "What it decides"): CUDNN_COMPAT_* count as they are when
# the load happens; the loader's own inputs (LD_LIBRARY_PATH) as the loader read them at start.
source "$(dirname "$0")/common.sh"
compile late <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  setenv(argv[1], argv[2], 1);  /* as Python's os.environ[...] = ... before `import torch` */
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  if (!lib) return printf("dlopen: %s\n", dlerror()), 1;
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  return 0;
}
C
fake_map 5.0.5 5.1.10 >"$t/map.toml"
for mode in audit preload; do
  for validate in no yes; do
    [[ $validate == yes ]] && "$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
    # A requirement set at run time counts.
    LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 expect_rc 0 $mode "$t/late" CUDNN_COMPAT_REQUIRE 5.1.3
    has "version 5110"
    # LD_LIBRARY_PATH changed at run time does not change what the loader finds, nor the
    # shim's view of it: 5.0.5 is found, does not fit, and 5.1.10 is handed over.
    CUDNN_COMPAT_REQUIRE=5.1.3 LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_DEBUG=1 \
      expect_rc 0 $mode "$t/late" LD_LIBRARY_PATH "$FAKES/5.1.10/lib64"
    has "version 5110"
    has "5.0.5 on LD_LIBRARY_PATH does not fit"
    # Switched off at run time: a pure pass-through.
    CUDNN_COMPAT_REQUIRE=5.1.3 LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 \
      expect_rc 0 $mode "$t/late" CUDNN_COMPAT_DISABLE 1
    has "version 5005"
  done
  rm -f "$t/map.toml.decide" "$t/map.toml.cache" "$t/map.toml.fits"
done
