# A line of the shim's longer than a line (4 KiB: a program deep in a tree, its library beside
# it, under CUDNN_COMPAT_DEBUG) is cut, and still ends its line in the same write: the host's own
# next output must not run on from it (helper 55: 4096 bytes and no newline). Under LD_AUDIT and
# LD_PRELOAD.
source "$(dirname "$0")/common.sh"
deep=$t
while ((${#deep} < 2600)); do deep=$deep/$(printf 'd%.0s' $(seq 200)); done
mkdir -p "$deep/lib"
cp -a "$FAKES/9.1.0/lib64/." "$deep/lib/"
"$CC" -o "$deep/client" -x c - -ldl -Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/lib' <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  fprintf(stderr, "the host's own line\n");
  return !lib;
}
C
export CUDNN_COMPAT_REQUIRE=9.1 CUDNN_COMPAT_DEBUG=1
for mode in AUDIT PRELOAD; do
  env "LD_$mode=$SHIM" "$deep/client" 2>"$t/err" || fail "$mode: the load failed: $(head -c 300 "$t/err")"
  grep -q "^the host's own line$" "$t/err" || fail "$mode: the host's line runs on from ours: $(tail -c 200 "$t/err")"
  (($(grep -c '^cudnn-compat' "$t/err") >= 1)) || fail "$mode: no line of ours (the test proves nothing)"
  (($(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$t/err") > 4000)) ||
    fail "$mode: no line long enough to be cut (the test proves nothing)"
done
