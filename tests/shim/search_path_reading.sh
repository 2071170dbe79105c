# The shim reads the loader's search path as glibc 2.36 does (elf/dl-load.c), or leaves the load
# to the engine: a directory it reads otherwise is a wrong pick, and a wrong answer kept
# (helper 55). FAKE 9.0.0 is what the loader takes in each case below; 9.1 is required, so the
# right answer is the map's 9.1.0, under LD_AUDIT and LD_PRELOAD:
#   - RPATH splits at ':' alone: "DIR;9.1.0's DIR" is one directory, which does not exist;
#   - $ORIGIN followed by a name character ($ORIGIN_x) is no token: a literal directory;
#   - $ORIGIN in LD_LIBRARY_PATH is the main program's directory;
#   - an entry longer than a path (4 KiB) is no directory the loader can open.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/site" "$t/bin/lib" "$t/bin_x"
fake_map 9.0.0 9.1.0 >"$t/site/map.toml"
export CUDNN_COMPAT_MAP=$t/site/map.toml CUDNN_COMPAT_REQUIRE=9.1
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
cp -a "$FAKES/9.1.0/lib64/." "$t/bin_x/"  # what $ORIGIN_x would name, were it a token
cp -a "$FAKES/9.0.0/lib64/." "$t/bin/lib/"
client() {  # client NAME LINKER-FLAGS...: prints the version of the libcudnn.so.9 it loads
  local name=$1; shift
  "$CC" -o "$t/bin/$name" -x c - "$@" -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  printf("version %zu\n", lib ? ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  return 0;
}
C
}
client semicolon -Wl,--disable-new-dtags "-Wl,-rpath,$t/nowhere;$FAKES/9.1.0/lib64"
client origin_x -Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN_x'
client plain
settle
long=$FAKES/9.1.0/lib64$(printf '/%.0s' $(seq 5000))x
run() {  # run LD_LIBRARY_PATH PROGRAM: $out for each front end, which must be 9.1.0's
  local mode
  for mode in AUDIT PRELOAD; do
    out=$(env LD_LIBRARY_PATH="$1" "LD_$mode=$SHIM" "$t/bin/$2" 2>&1)
    grep -q "version 90100" <<<"$out" || fail "$2, LD_LIBRARY_PATH=${1:0:60}..., LD_$mode: $out"
  done
}
# The cases hold without the shim as described: the loader takes FAKE 9.0.0 each time.
for c in "$FAKES/9.0.0/lib64 semicolon" "$FAKES/9.0.0/lib64 origin_x" "\$ORIGIN/lib plain" "$long:$FAKES/9.0.0/lib64 plain"; do
  out=$(env LD_LIBRARY_PATH="${c% *}" "$t/bin/${c##* }" 2>&1)
  has "version 90000"
  run "${c% *}" "${c##* }"
done
