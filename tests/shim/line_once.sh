# A load retried (a framework's loop, or 16 threads asking at once) said the same line each time
# under LD_AUDIT, which decides every failed load anew (helper 92): the same line is said once
# per process. Both front ends.
source "$(dirname "$0")/common.sh"
compile retry -lpthread <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static void *load(void *name) { return dlopen((const char *)name, RTLD_NOW); }
int main(int argc, char **argv) {
  pthread_t t[16];
  for (int i = 0; i < 4; ++i) load(argv[1]);
  for (int i = 0; i < 16; ++i) pthread_create(&t[i], 0, load, argv[1]);
  for (int i = 0; i < 16; ++i) pthread_join(t[i], 0);
  puts(dlopen(argv[1], RTLD_NOW) ? "loaded" : "not loaded");
  return 0;
}
C
fake_map 8.9.7 >"$t/map.toml"
for mode in audit preload; do
  CUDNN_COMPAT_REQUIRE=zz expect_rc 0 $mode "$t/retry" libcudnn.so.8
  has "not loaded"
  count "cudnn-compat:" 1
  has "CUDNN_COMPAT_REQUIRE: 'zz' is not a version"
  CUDNN_COMPAT_REQUIRE=8.10 expect_rc 0 $mode "$t/retry" libcudnn.so.8
  count "cudnn-compat:" 1
  has "no installed cuDNN fits"
done
