# Issue 9, item 7: the family guarantee has no silent limit. A process loads a cuDNN 9 dispatcher
# from one directory, then 100 distinct exact-version sub-library names that both that directory and
# another one on LD_LIBRARY_PATH hold. Every one comes from the family's directory, or the shim says
# in one line that a limit was passed. The landed shim kept 32 names and then let the loader take
# the rest from LD_LIBRARY_PATH without a word.
source "$(dirname "$0")/common.sh"
for dir in family stray; do
  mkdir -p "$t/$dir"
  cp "$FAKES/9.1.0/lib64/libcudnn.so.9" "$t/$dir/"
  for i in $(seq 100); do cp "$FAKES/9.1.0/lib64/libcudnn_ops.so.9" "$t/$dir/libcudnn_x$i.so.9.1.0"; done
done
compile many_names <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc < 2 || !dlopen(argv[1], RTLD_NOW)) return 2;  /* the dispatcher, by path */
  const char *family = argv[2];
  int in = 0, out = 0, failed = 0;
  for (int i = 1; i <= 100; ++i) {
    char name[64];
    snprintf(name, sizeof name, "libcudnn_x%d.so.9.1.0", i);
    void *lib = dlopen(name, RTLD_NOW);
    struct link_map *map;
    if (!lib || dlinfo(lib, RTLD_DI_LINKMAP, &map) != 0)
      ++failed;
    else if (!strncmp(map->l_name, family, strlen(family)))
      ++in;
    else
      ++out;
  }
  printf("%d in the family, %d outside, %d failed\n", in, out, failed);
  return 0;
}
C
export LD_LIBRARY_PATH=$t/stray

for mode in audit preload; do
  expect_rc 0 $mode "$t/many_names" "$t/family/libcudnn.so.9" "$t/family/"
  in=$(sed -n 's/^\([0-9]*\) in the family.*/\1/p' <<<"$out")
  ((in > 0)) || fail "$mode: the shim kept no family at all:"$'\n'"$out"
  if [[ $out != *"100 in the family, 0 outside, 0 failed"* ]]; then
    count "cudnn-compat:" 1
  fi
done
