# Issue 9, item 6 (LD_PRELOAD): the shim must not keep libc's environ. The program loads cuDNN 8
# (the shim reads the environment), then calls setenv a thousand times, so libc moves and frees its
# array, sets CUDNN_COMPAT_REQUIRE=5.1.3, and fills the heap. Its second request, for cuDNN 5,
# neither crashes nor misses that requirement: FAKE 5.1.10 from the map, not 5.0.5 off the path.
# The landed shim read the freed array (SIGSEGV). Under LD_AUDIT the shim keeps no pointer of its
# own to the list (setenv_copy_reloc.sh covers the audit side).
source "$(dirname "$0")/common.sh"
compile setenv_client <<C
$load5_main
#include <stdlib.h>
#include <string.h>
int main(void) {
  setenv("CUDNN_COMPAT_FIRST", "1", 1);  /* environ now lives on the heap */
  void *eight = dlopen("libcudnn.so.8", RTLD_NOW);
  printf("cuDNN 8: %s\n", eight ? "loaded" : dlerror());
  fflush(stdout);
  char name[32];
  for (int i = 0; i < 1000; ++i) {
    snprintf(name, sizeof name, "HOSTILE_%d", i);
    setenv(name, "x", 1);
  }
  setenv("CUDNN_COMPAT_REQUIRE", "5.1.3", 1);
  for (int i = 0; i < 2000; ++i) memset(malloc(16 + i * 8), 0x41, 16 + i * 8);  /* reuse freed */
  return load5() ? 0 : 1;
}
C
fake_map 5.0.5 5.1.10 8.9.7 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64

expect_rc 0 preload "$t/setenv_client"
has "cuDNN 8: loaded"
has "$redirected"
