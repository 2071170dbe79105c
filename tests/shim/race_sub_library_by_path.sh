# Two threads decide before either load is mapped: one loads a wheel's sub-library by path (FAKE
# 9.20.0's libcudnn_graph.so.9), the other libcudnn.so.9 by name, with FAKE 9.23.0 on
# LD_LIBRARY_PATH, while a third thread's dlopen holds the loader's lock (its library's
# constructor takes 0.6 s). Under LD_PRELOAD the shim decides before the real dlopen: the
# sub-library by path settled nothing until it was mapped, so the dispatcher was decided on its
# own, 9.23.0, and the process mapped two releases (helper 111: 2-10 runs of 10 without the
# lock held). The sub-library by path now settles its family at once; under LD_AUDIT the
# loader's lock orders the decisions themselves.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/wheel"
cp -L "$FAKES"/9.20.0/lib64/libcudnn*.so.9 "$t/wheel/"
"$CC" -shared -fPIC -o "$t/libslow.so" -x c - <<'C'
#include <unistd.h>
__attribute__((constructor)) static void slow(void) { usleep(600 * 1000); }
C
compile race -lpthread <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void *load(void *path) {
  if (!dlopen(path, RTLD_NOW)) printf("%s: %s\n", (char *)path, dlerror());
  return NULL;
}
static int dirs(struct dl_phdr_info *info, size_t size, void *seen) {
  (void)size, (void)seen;
  const char *base = strrchr(info->dlpi_name, '/');
  if (!base || (strncmp(base, "/libcudnn.", 10) != 0 && strncmp(base, "/libcudnn_", 10) != 0))
    return 0;  // the shim's own libcudnn-compat.so is none
  printf("mapped %.*s\n", (int)(base - info->dlpi_name), info->dlpi_name);
  return 0;
}
int main(int argc, char **argv) {
  (void)argc;
  pthread_t slow, graph;
  pthread_create(&slow, NULL, load, argv[1]);
  usleep(150 * 1000);  // the slow library's constructor holds the loader's lock
  pthread_create(&graph, NULL, load, argv[2]);
  usleep(150 * 1000);  // the graph's dlopen has been decided and waits for that lock
  void *core = dlopen("libcudnn.so.9", RTLD_NOW);
  pthread_join(slow, NULL);
  pthread_join(graph, NULL);
  int (*create)(void **) = core ? (int (*)(void **))dlsym(core, "cudnnCreate") : NULL;
  void *handle;
  printf("status %d\n", create ? create(&handle) : -1);
  dl_iterate_phdr(dirs, NULL);
  return 0;
}
C
for mode in audit preload; do
  LD_LIBRARY_PATH=$FAKES/9.23.0/lib64 expect_rc 0 $mode "$t/race" "$t/libslow.so" \
    "$t/wheel/libcudnn_graph.so.9"
  has "status 0"
  lacks "mapped $FAKES/9.23.0"
  [[ $(grep '^mapped ' <<<"$out" | sort -u | wc -l) == 1 ]] || fail "$mode: two directories:"$'\n'"$out"
done
