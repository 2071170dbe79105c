# A program that loads and unloads cuDNN in a loop (a plugin host, a test harness) is decided again
# at each load; the shim keeps each string it hands out for the process's life, and kept a new copy
# of each at every decision: about 200 bytes a cycle, 2-3 MB over 8,000 cycles (helper 104). Now
# each string is kept once and the process does not grow with the loop, on the table's path (kept
# and handed over), the memo's (a user's copy no table knows) and under CUDNN_COMPAT_REPORT, each
# cycle's handle loading the sub-libraries too (helper 113: 420 bytes a cycle of report notes
# under LD_PRELOAD).
source "$(dirname "$0")/common.sh"
mkdir -p "$t/own"
cp "$FAKES"/9.0.0/lib64/libcudnn* "$t/own/"
fake_map 9.0.0 9.1.0 >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null  # its tables: the engine starts for the user's copy alone
compile loop <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static long vm_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmSize:", 7)) kb = atol(line + 7);
  if (f) fclose(f);
  return kb;
}
int main(void) {
  long before = 0;
  size_t version = 0;
  for (int i = 0; i < 3100; ++i) {
    void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
    if (!lib) return printf("no cuDNN: %s\n", dlerror()), 1;
    version = ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))();
    void *handle;  // its sub-libraries loaded too, and unloaded with it
    if (((int (*)(void **))dlsym(lib, "cudnnCreate"))(&handle) != 0) return printf("no handle\n"), 1;
    dlclose(lib);
    if (i == 99) before = vm_kb();
  }
  printf("cuDNN %zu grew %ld kB\n", version, vm_kb() - before);
  return 0;
}
C
# 3,000 cycles: a kept copy of 22 bytes a decision is over 64 kB (one of the arena's chunks).
grew_at_most_a_chunk() {
  local kb
  kb=$(sed -n 's/.* grew \(-\{0,1\}[0-9]*\) kB$/\1/p' <<<"$out")
  [[ -n $kb && $kb -le 64 ]] || fail "the process grew ${kb:-?} kB over 3,000 cycles: $out"
}
for mode in audit preload; do
  LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 expect_rc 0 $mode "$t/loop"
  has "cuDNN 90000"
  grew_at_most_a_chunk
  LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 expect_rc 0 $mode "$t/loop"
  has "cuDNN 90100"
  grew_at_most_a_chunk
  LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 CUDNN_COMPAT_REPORT=1 \
    expect_rc 0 $mode "$t/loop"
  grew_at_most_a_chunk
  LD_LIBRARY_PATH=$t/own CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode "$t/loop"
  has "cuDNN 90000"
  grew_at_most_a_chunk
done
