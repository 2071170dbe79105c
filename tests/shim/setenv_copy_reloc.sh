# The need set with setenv() before the load counts under both front ends, also in a program that
# names `environ` itself: the linker then copies the pointer into the program (a copy relocation),
# setenv() changes only that copy, and the shim under LD_AUDIT had read libc's stale one (the
# misfit off the path was loaded, without a word).
source "$(dirname "$0")/common.sh"
compile copy_reloc <<C
$load5_main
#include <stdlib.h>
extern char **environ;
int main(void) {
  int n = 0;
  for (char **e = environ; *e; ++e) ++n;
  setenv("CUDNN_COMPAT_REQUIRE", "5.1.3", 1);
  printf("%d variables at start\n", n);
  return load5() ? 0 : 1;
}
C
readelf -rW "$t/copy_reloc" | grep -q "R_X86_64_COPY.*environ" ||
  skip "this compiler did not copy environ into the program"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
unset CUDNN_COMPAT_REQUIRE
for mode in audit preload; do
  expect_rc 0 $mode "$t/copy_reloc"
  has "$redirected"
done
