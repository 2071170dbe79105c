# Found by an outside tester: what a load by path, a failed load, and libcudnn.so leave behind.
# - a path (with a slash anywhere, relative ones too) that does not exist stays a failing load;
# - a failed load by path settles nothing: the bare name asked next is still decided;
# - libcudnn.so after libcudnn.so.8 from a directory where libcudnn.so is a cuDNN 9 is decided
#   for the requirement, not taken from the "family";
# - libcudnn.so.5 that is really a cuDNN 6 (a user's symlink) is no cuDNN 5.
# Each under both front ends, with the decision table and with the engine deciding.
source "$(dirname "$0")/common.sh"
compile seq <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    void *lib = dlopen(argv[i], RTLD_NOW);
    if (lib) printf("%s: version %zu\n", argv[i], ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
    else printf("%s: failed\n", argv[i]);
  }
  return 0;
}
C
mkdir -p "$t/mixed" "$t/x" "$t/work"
cp -P "$FAKES"/8.9.7/lib64/libcudnn*.so* "$t/mixed/"
cp -Pf "$FAKES"/9.1.0/lib64/libcudnn*.so* "$t/mixed/"
ln -sf libcudnn.so.9 "$t/mixed/libcudnn.so"
ln -s "$FAKES/6.0.21/lib64/libcudnn.so.6" "$t/x/libcudnn.so.5"
{ fake_map 5.0.5 5.1.10 6.0.21 9.1.0; printf '[[cudnn]]\nversion = "8.9.7"\nlib = "%s"\n' "$t/mixed"; } >"$t/map.toml"
for table in yes no; do
  if [[ $table == yes ]]; then "$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null; else rm -f "$t/map.toml.decide"; fi
  for mode in audit preload; do
    cd "$t/work"
    expect_rc 0 $mode "$t/seq" ./libcudnn.so.5 nodir/libcudnn.so.5
    has "./libcudnn.so.5: failed"
    has "nodir/libcudnn.so.5: failed"
    CUDNN_COMPAT_REQUIRE=5.1 LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 \
      expect_rc 0 $mode "$t/seq" /nonexistent/libcudnn.so.5 libcudnn.so.5
    has "/nonexistent/libcudnn.so.5: failed"
    has "libcudnn.so.5: version 5110"
    CUDNN_COMPAT_REQUIRE=8.9 LD_LIBRARY_PATH=$t/mixed expect_rc 0 $mode "$t/seq" libcudnn.so.8 libcudnn.so
    has "libcudnn.so.8: version 8907"
    has "libcudnn.so: version 8907"
    LD_LIBRARY_PATH=$t/x expect_rc 0 $mode "$t/seq" libcudnn.so.5
    has "libcudnn.so.5: version 5110"
  done
done
