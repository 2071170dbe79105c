# A sub-library asked before the dispatcher (cudnn-frontend's dynamic loading opens
# libcudnn_graph.so.9 first): the family is decided then, for the process's need, and the
# dispatcher asked later comes from the same place. An outside tester's finding: the loader's
# libcudnn_graph.so.9 (FAKE 9.0.0, first on LD_LIBRARY_PATH) settled the family, and the later
# libcudnn.so.9 came from 9.0.0 against CUDNN_COMPAT_REQUIRE=9.1, with no line.
source "$(dirname "$0")/common.sh"
compile graph_first <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
static int show(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  if (strstr(info->dlpi_name, "libcudnn")) printf("loaded %s\n", info->dlpi_name);
  return 0;
}
int main(void) {
  void *graph = dlopen("libcudnn_graph.so.9", RTLD_NOW), *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  if (!graph || !lib) return printf("dlopen: %s\n", dlerror()), 1;
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  dl_iterate_phdr(show, NULL);
  return 0;
}
C
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1
fake_map 9.0.0 9.1.0 >"$t/map.toml"

expect_rc 0 "$t/graph_first"
has "version 90000"

# Decided by the engine (no table), then by the validated table.
for table in no yes; do
  [[ $table == yes ]] && expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
  for mode in audit preload; do
    expect_rc 0 $mode "$t/graph_first"
    has "version 90100"
    has "loaded $FAKES/9.1.0/lib64/libcudnn_graph.so.9"
    lacks "loaded $FAKES/9.0.0"
  done
done

# A fitting loader's choice stays, and the family is its directory.
for mode in audit preload; do
  CUDNN_COMPAT_REQUIRE=9.0 expect_rc 0 $mode "$t/graph_first"
  has "version 90000"
  count "loaded $FAKES/9.0.0/lib64/" 2
  lacks "cudnn-compat:"
done

# The dispatcher's directory is the family's even when the loader would take the sub-library from
# an earlier directory holding it alone (a stray copy of another release).
mkdir "$t/stray"
cp "$FAKES/9.0.0/lib64/libcudnn_graph.so.9.0.0" "$t/stray/libcudnn_graph.so.9"
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/stray:$FAKES/9.1.0/lib64 expect_rc 0 $mode "$t/graph_first"
  has "version 90100"
  has "loaded $FAKES/9.1.0/lib64/libcudnn_graph.so.9"
  lacks "$t/stray"
done
