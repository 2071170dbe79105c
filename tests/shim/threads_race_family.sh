# Two threads dlopen a cuDNN 9 at the same moment, one by bare name (FAKE 9.23.0 first on
# LD_LIBRARY_PATH), one by absolute path (FAKE 9.20.0): the process keeps one dispatcher whichever
# thread decides first. Under LD_PRELOAD the family used to be known only once the loader had
# mapped the first, and the other thread decided on its own in the meantime: two dispatchers in
# 3-22 of 30 runs (an outside tester's race). Under LD_AUDIT the loader's own lock orders them.
source "$(dirname "$0")/common.sh"
compile race -lpthread <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
static pthread_barrier_t start;
static void *load(void *name) {
  pthread_barrier_wait(&start);
  void *h = dlopen(name, RTLD_NOW | RTLD_GLOBAL), *handle;
  // A handle loads the sub-libraries: the thread's next requests, as a framework's would be.
  int (*create)(void **) = h ? (int (*)(void **))dlsym(h, "cudnnCreate") : 0;
  if (create) create(&handle);
  return 0;
}
int main(int argc, char **argv) {
  (void)argc;
  pthread_barrier_init(&start, 0, 2);
  pthread_t a, b;
  pthread_create(&a, 0, load, argv[1]);
  pthread_create(&b, 0, load, argv[2]);
  pthread_join(a, 0), pthread_join(b, 0);
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096], last[4096] = "";
  int n = 0;
  while (fgets(line, sizeof line, maps)) {
    const char *p = strchr(line, '/');
    if (p && strstr(p, "/libcudnn.so.9.") && strcmp(p, last)) ++n, strcpy(last, p);
  }
  printf("dispatchers %d\n", n);
  return 0;
}
C
for name in libcudnn.so libcudnn.so.9 "$FAKES/9.23.0/lib64/libcudnn.so"; do
  for mode in audit preload; do
    for run in $(seq 30); do
      LD_LIBRARY_PATH=$FAKES/9.23.0/lib64 expect_rc 0 $mode "$t/race" $name "$FAKES/9.20.0/lib64/libcudnn.so.9"
      has "dispatchers 1"
    done
  done
done
