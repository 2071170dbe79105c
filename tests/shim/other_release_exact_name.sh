# A program's own query for another release's exact sub-library name (libcudnn_ops.so.9.23.0, or
# libcudnn_adv_infer.so.8.1.0) once a family is loaded: the shim took that name's release for the
# family's, and then refused the family's own files (no map) or lent another release's (helper
# 114: cudnnCreate 14 or 1002, two releases mapped). Under LD_AUDIT an RTLD_NOLOAD "is it loaded?"
# was enough. Only the family's own libraries' exact names say its release now; the query fails,
# with one line where the family's release is known, and the family creates its handle whole.
source "$(dirname "$0")/common.sh"
fake_map 8.1.0 8.9.7 9.20.0 9.23.0 >"$t/map.toml"
expect_rc 0 env CUDNN_COMPAT_MAP="$t/map.toml" "$CUDNN_COMPAT" map validate
export CUDNN_COMPAT_MAP=$t/map.toml
compile query <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
static int show(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *base = strrchr(info->dlpi_name, '/');
  if (base && strncmp(base, "/libcudnn", 9) == 0 && !strstr(base, "compat"))
    printf("loaded %.*s\n", (int)(base - info->dlpi_name), info->dlpi_name);
  return 0;
}
/* query DISPATCHER WHEN NAME FLAG: WHEN "before" or "after" cudnnCreate, dlopen NAME (FLAG
 * "noload": RTLD_NOLOAD) */
int main(int argc, char **argv) {
  (void)argc;
  void *lib = dlopen(argv[1], RTLD_NOW);
  int (*create)(void **) = lib ? (int (*)(void **))dlsym(lib, "cudnnCreate") : NULL;
  void *handle, *q = NULL;
  int status = -1, after = strcmp(argv[2], "after") == 0;
  if (after && create) status = create(&handle);
  q = dlopen(argv[3], strcmp(argv[4], "noload") == 0 ? RTLD_NOW | RTLD_NOLOAD : RTLD_NOW);
  printf("query %s\n", q ? "loaded" : "failed");
  if (!after && create) status = create(&handle);
  printf("status %d\n", status);
  dl_iterate_phdr(show, NULL);
  return 0;
}
C
one_release() { [[ $(grep '^loaded ' <<<"$out" | sort -u | wc -l) == 1 ]] || fail "two places:"$'\n'"$out"; }
for mode in audit preload; do
  for flag in noload now; do
    expect_rc 0 $mode "$t/query" "$FAKES/9.20.0/lib64/libcudnn.so.9" before libcudnn_ops.so.9.23.0 $flag
    has "status 0"
    has "query failed"
    one_release
    expect_rc 0 $mode "$t/query" "$FAKES/8.9.7/lib64/libcudnn.so.8" before libcudnn_adv_infer.so.8.1.0 $flag
    has "status 0"
    one_release
  done
  # The family's release known (its handle made it ask its exact names): the query is named.
  expect_rc 0 $mode "$t/query" "$FAKES/9.20.0/lib64/libcudnn.so.9" after libcudnn_ops.so.9.23.0 now
  has "status 0"
  has "query failed"
  count "cudnn-compat:" 1
  has "cudnn-compat: libcudnn_ops.so.9.23.0 is cuDNN 9.23.0's; this process's cuDNN 9.20.0 comes from $FAKES/9.20.0/lib64: not loading another release's file"
  one_release
done
