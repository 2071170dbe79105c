# A version number with leading zeros is read as its number, as glibc's ld.so.cache lookup reads
# it (libcudnn.so.09 finds the cache's libcudnn.so.9): so libcudnn.so.05 is decided as a request of
# major 5, like libcudnn.so.5. 96bb0d6 took such names for no cuDNN name, and the cache then handed
# the system's release over with no decision at all (helper 109); this keeps that from returning.
source "$(dirname "$0")/common.sh"
paths_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  expect_rc 0 $mode "$t/paths" libcudnn.so.05 libcudnn.so.5
  has "libcudnn.so.05: cuDNN 5110"
  has "libcudnn.so.5: cuDNN 5110"
done
# A sub-library so named is the family's file of its number (libcudnn_graph.so.9): it was refused
# as "not in" the directory that held it, where the loader alone loads it (helper 110).
compile where <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  struct link_map *m = 0;
  if (lib) dlinfo(lib, RTLD_DI_LINKMAP, &m);
  printf("%s: %s\n", argv[1], m ? m->l_name : "fails");
  return 0;
}
C
fake_map 9.20.0 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/9.20.0/lib64
unset CUDNN_COMPAT_REQUIRE
for mode in audit preload; do
  expect_rc 0 $mode "$t/where" libcudnn_graph.so.09
  has "libcudnn_graph.so.09: $FAKES/9.20.0/lib64/libcudnn_graph.so.9"
done
