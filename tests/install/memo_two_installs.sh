#!/usr/bin/env bash
# Issue 20, item 4: two installs of one build on a node, each with its own map (a site rolling out
# a new tree beside the old, or a `current` link moved from one to the other), share the user's
# memo. An answer of one install's map is never the other's: the key names the map the contract
# found. (Helper 54: with the link moved to the tree whose map lists 9.20.0, the next process
# started nothing and got 9.1.0, a release its map does not list.) Under LD_AUDIT and LD_PRELOAD.
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
rm -f "$XDG_RUNTIME_DIR/cudnn-compat"  # the memo on (common.sh turns it off)
memo=$XDG_RUNTIME_DIR/cudnn-compat
export SLURMD_NODENAME=installtest-$$-$RANDOM
trap 'rm -rf "$t" "/tmp/cudnn-compat-$(id -u)/node-$SLURMD_NODENAME"' EXIT

map_of() {  # map_of RELEASE...: a map listing FAKE releases
  echo "schema = 1"
  for r in "$@"; do printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\n' "$r" "$FAKES/$r/lib64"; done
}
install_to "$t/a"
cp -a "$t/a" "$t/b"
map_of 9.0.0 9.1.0 >"$t/a/etc/cudnn-compat/map.toml"
map_of 9.0.0 9.20.0 >"$t/b/etc/cudnn-compat/map.toml"
for p in "$t/a" "$t/b"; do expect_rc 0 "$p/bin/cudnn-compat" map validate; done
"$t/a/bin/cudnn-compat" doctor >/dev/null 2>&1 || true  # the node learnt before the first process
cp -a "$FAKES/9.0.0" "$t/own"
cat >"$t/client.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *h = dlopen("libcudnn.so.9", RTLD_NOW);
  size_t (*v)(void) = h ? (size_t (*)(void))dlsym(h, "cudnnGetVersion") : 0;
  printf("version %zu\n", v ? v() : 0);
  return 0;
}
C
expect_rc 0 "$CC" -o "$t/client" "$t/client.c" -ldl
sleep 1.1  # the racy rule: files written within the last second are not trusted to stay

export LD_LIBRARY_PATH=$t/own/lib64 CUDNN_COMPAT_REQUIRE=9.1
for mode in AUDIT PRELOAD; do
  rm -rf "$memo"
  for tree in a a b b a; do
    ln -sfn "$t/$tree" "$t/current"
    strace -f -qq -e trace=execve,clone,clone3,fork,vfork -o "$t/trace" \
      env "LD_$mode=$t/current/lib/cudnn-compat/libcudnn-compat.so" "$t/client" >"$t/out" 2>&1 || true
    out=$(<"$t/out")
    has "version $([[ $tree == a ]] && echo 90100 || echo 92000)"
    lacks "cudnn-compat:"
  done
  [[ $(ls "$memo"/*.memo | wc -l) == 2 ]] || fail "$mode: expected one entry per install: $(ls "$memo")"
done
