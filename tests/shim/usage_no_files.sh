# Issue 21 and "never break the host": a host under a seccomp filter that kills it as it makes a
# file (open with O_CREAT: a sandbox that may read and change nothing) loads cuDNN with records
# to a spool directory. The record's file was opened with O_CREAT every time, and the host died
# of SIGSYS at its first cuDNN load. The spool's file is made only where it is not there yet and
# no filter is in place: under the filter the record goes into the file an unfiltered process of
# the same user on the node made, and where there is none yet it is not written.
source "$(dirname "$0")/common.sh"
compile no_files -I"$(dirname "$0")/.." <<'C'
#include "seccomp_filters.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
/* no_files [free]: dlopen libcudnn.so.5 and print its version, under the filter unless free. */
int main(int argc, char **argv) {
  if (!(argc > 1 && !strcmp(argv[1], "free")) && !kill_file_making()) return 2;
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  size_t (*version)(void) = lib ? (size_t (*)(void))dlsym(lib, "cudnnGetVersion") : 0;
  printf("cuDNN %zu\n", version ? version() : 0);
  return 0;
}
C
mkdir -m 1733 "$t/spool"
{ fake_map 5.0.5 5.1.10; printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool"; } >"$t/map.toml"
"$CUDNN_COMPAT" map validate >/dev/null
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
records() { cat "$t"/spool/*.usage 2>/dev/null | wc -l; }
for mode in audit preload; do
  rm -f "$t"/spool/*
  expect_rc 0 $mode "$t/no_files"  # 159 (SIGSYS) before
  has "cuDNN 5110"
  (($(records) == 0)) || fail "$mode: a record's file was made under the filter"
  expect_rc 0 $mode "$t/no_files" free
  (($(records) == 1)) || fail "$mode: no record without the filter"
  expect_rc 0 $mode "$t/no_files"
  has "cuDNN 5110"
  (($(records) == 2)) || fail "$mode: the record under the filter was not added to the file there"
done
