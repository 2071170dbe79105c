# CUDNN_COMPAT_* count as they are when the load happens, under both front ends: a host that
# empties its environment (clearenv(), or environ = NULL) before it loads cuDNN has no requirement
# any more, and FAKE 5.0.5 first on the path is kept, as after unsetenv(). Under LD_AUDIT the shim
# of eea3d04 fell back to the start's environment and still redirected to 5.1.10 (an outside
# tester's finding); LD_PRELOAD did not.
source "$(dirname "$0")/common.sh"
deployed
compile cleared <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern char **environ;
int main(int argc, char **argv) {
  (void)argc;
  if (strcmp(argv[1], "clearenv") == 0) clearenv();
  if (strcmp(argv[1], "null") == 0) environ = NULL;
  if (strcmp(argv[1], "unsetenv") == 0) unsetenv("CUDNN_COMPAT_REQUIRE");
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("%s: cuDNN %zu\n", argv[1], lib ? ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  return 0;
}
C
fake_map 5.0.5 5.1.10 >"$map"
for front in AUDIT PRELOAD; do
  expect_rc 0 env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1 "LD_$front=$SHIM" \
    "$t/cleared" untouched
  has "untouched: cuDNN 5110"
  for emptied in unsetenv clearenv null; do
    expect_rc 0 env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1 \
      "LD_$front=$SHIM" "$t/cleared" $emptied
    has "$emptied: cuDNN 5005"
  done
done
