# A library of cuDNN's name shape with no major (libcudnn_extra.so), loaded by path from the
# loaded family's own directory, is that directory's file: the shim decided it under the name of
# its major (libcudnn_extra.so.9), found no such file in the directory and refused it as "not in"
# the directory that held it, failing a load that works without the shim (helper 110). The same
# name from another release's directory is still refused: the family would mix.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/fam" "$t/other"
cp -a "$FAKES"/9.1.0/lib64/. "$t/fam/"
cp -L "$FAKES"/9.1.0/lib64/libcudnn_ops.so.9 "$t/fam/libcudnn_extra.so"
cp -L "$FAKES"/9.0.0/lib64/libcudnn_ops.so.9 "$t/other/libcudnn_extra.so"
compile two <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    printf("%s: %s\n", argv[i], dlopen(argv[i], RTLD_NOW) ? "loaded" : "failed");
  return 0;
}
C
for mode in audit preload; do
  expect_rc 0 $mode "$t/two" "$t/fam/libcudnn.so.9" "$t/fam/libcudnn_extra.so"
  has "$t/fam/libcudnn_extra.so: loaded"
  lacks "is not in"
  expect_rc 0 $mode "$t/two" "$t/fam/libcudnn.so.9" "$t/other/libcudnn_extra.so"
  has "$t/other/libcudnn_extra.so: failed"
  has "not loading another release's copy"
done
