# A job under `ulimit -s 64` that loads the real cuDNN 9 from a thread of its own (8 MiB stack):
# the engine's probe inherited the small limit and died in cuDNN's constructors, and the loader's
# own, fitting 9.x was taken for a library that does not load - swapped for the map's FAKE 9.1.0
# without a word, or refused with a false line (an outside tester's finding). The probe loads on a
# thread of its own now; resolve and probe under the same limit say what the host gets.
source "$(dirname "$0")/common.sh"
real_cudnn9
release="$(( v / 10000 )).$(( v / 100 % 100 )).$(( v % 100 ))"
entries="[[cudnn]]\nversion = \"9.1.0\"\nlib = \"$FAKES/9.1.0/lib64\"\n"
printf "schema = 1\n$entries" >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
compile threaded -pthread <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static void *run(void *path) {
  void *lib = dlopen(path, RTLD_NOW);
  size_t (*version)(void) = lib ? (size_t (*)(void))dlsym(lib, "cudnnGetVersion") : 0;
  printf("version %zu\n", version ? version() : 0);
  return 0;
}
int main(int argc, char **argv) {
  pthread_attr_t attr;
  pthread_t thread;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 8 << 20);
  if (argc != 2 || pthread_create(&thread, &attr, run, argv[1])) return 2;
  return pthread_join(thread, 0);
}
C
export LD_LIBRARY_PATH=$real
small() { (ulimit -s 64 && exec "$@"); }
expect_rc 0 small "$t/threaded" libcudnn.so.9
has "version $v"
for need in "" "${release%.*}"; do
  for mode in audit preload; do
    CUDNN_COMPAT_REQUIRE=$need expect_rc 0 small env "LD_${mode^^}=$SHIM" "$t/threaded" libcudnn.so.9
    has "version $v"
    lacks "cudnn-compat:"
  done
done
expect_rc 0 small "$CUDNN_COMPAT" resolve libcudnn.so.9 --require 9.0
has "libcudnn.so.9 -> $real/libcudnn.so.9"
expect_rc 0 small "$CUDNN_COMPAT" probe "$real/libcudnn.so.9"
has "$release"
lacks "crashed"
