# A host that sets its process title (setproctitle: PostgreSQL, Redis, Ray, Celery) overwrites
# the strings /proc/self/environ shows before it loads cuDNN (issue 27 item 7). The shim holds
# LD_LIBRARY_PATH as ld.so read it at the start, so the loader's pick is still known: FAKE 9.0.0
# first on the path is redirected to 9.1.0 when 9.1 is required, and kept when 9.0 is (with 9.1.0
# newer in the map) - from the table and from the engine, under both front ends, installed and
# moved. The shim of main lost the path: it judged the system's cuDNN (or none) instead, and kept
# the misfit or replaced the fitting one, depending on what ld.so.cache holds.
source "$(dirname "$0")/common.sh"
deployed
compile retitled <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern char **environ;
int main(int argc, char **argv) {
  // What setproctitle does: environ moves to the heap, and the area argv's and environ's strings
  // filled holds the title.
  char *start = argv[0], *end = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
  int n = 0;
  while (environ[n]) ++n;
  char **moved = calloc(n + 1, sizeof *moved);
  for (int i = 0; i < n; ++i) {
    if (environ[i] == end) end += strlen(environ[i]) + 1;
    moved[i] = strdup(environ[i]);
  }
  environ = moved;
  memset(start, 0, end - start);
  strcpy(start, "retitled: worker 1");
  FILE *shown = fopen("/proc/self/environ", "r");
  char head[32] = "";
  if (shown && fread(head, 1, sizeof head - 1, shown) && strstr(head, "LD_"))
    puts("the title did not overwrite the environment");
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  if (!lib) return printf("dlopen: %s\n", dlerror()), 1;
  struct link_map *map;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  printf("cuDNN %zu from %s\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))(), map->l_name);
  return 0;
}
C
fake_map 9.0.0 9.1.0 >"$map"
for table in yes no; do
  table_state $table
  for front in AUDIT PRELOAD; do
    for need in 9.1:90100:9.1.0 9.0:90000:9.0.0; do
      IFS=: read -r require number release <<<"$need"
      expect_rc 0 env LD_LIBRARY_PATH="$FAKES/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=$require \
        "LD_$front=$SHIM" "$t/retitled"
      lacks "did not overwrite"
      has "cuDNN $number from $FAKES/$release/lib64/libcudnn.so.9"
    done
  done
done
