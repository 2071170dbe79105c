#!/usr/bin/env bash
# Issue 25 on the installed tree, moved, with no CUDNN_COMPAT_* variable set and the map under the
# moved etc/: scan says which module system it asked and withholds the hidden module, so resolve
# and the shim hand out the visible release (items 2, 10); a major alone is a need (item 7); the
# need in the form `modulefiles --requires` prints loads without the hooks, and with them a
# warning leaves `module load`'s exit status 0 and its command on one line (item 9), under both
# module systems.
. "$(dirname "$0")/common.sh"
need_module_systems
install_to "$t/first"
mv "$t/first" "$t/moved"
p=$t/moved cc=$t/moved/bin/cudnn-compat
for format in lua tcl; do
  d=$t/modules/$format
  mkdir -p "$d/cudnn" "$d/portable" "$d/major5"
  for m in 5.0:5.0.5 5.1:5.1.10 9.0:9.0.0 .9.1:9.1.0; do
    if [[ $format == lua ]]; then
      printf 'family("cudnn")\nprepend_path("LD_LIBRARY_PATH", "%s")\n' "$FAKES/${m#*:}/lib64" >"$d/cudnn/${m%%:*}.lua"
    else
      printf '#%%Module\nconflict cudnn\nprepend-path LD_LIBRARY_PATH %s\n' "$FAKES/${m#*:}/lib64" >"$d/cudnn/${m%%:*}"
    fi
  done
  ext=$([[ $format == lua ]] && echo .lua || true)
  [[ $format == tcl ]] && echo '#%Module1.0' | tee "$d/portable/1.0" >"$d/major5/1.0"
  "$cc" modulefiles --format $format --requires 5.1 >>"$d/portable/1.0$ext"
  "$cc" modulefiles --format $format --requires 5 >>"$d/major5/1.0$ext"
done

# The map, by the moved tool, from Lmod's tree.
expect_rc 0 env MODULEPATH="$t/modules/lua" "$cc" scan --modules lmod -o "$p/etc/cudnn-compat/map.toml"
has "scan: asked Lmod (/usr/share/lmod/lmod/libexec/spider) about MODULEPATH=$t/modules/lua"
out=$(cat "$p/etc/cudnn-compat/map.toml")
count "hand_out = false" 1
expect_rc 0 "$cc" map validate
expect_rc 0 "$cc" resolve libcudnn.so.9 --require 9.0 --cuda 12
has "libcudnn.so.9 -> $FAKES/9.0.0/lib64/libcudnn.so.9"
expect_rc 0 "$cc" resolve libcudnn.so.5 --require 5
has "libcudnn.so.5 -> $FAKES/5.1.10/lib64/libcudnn.so.5"
"$CC" -o "$t/family" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) return printf("dlopen: %s\n", dlerror()), 1;
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  return 0;
}
C
expect_rc 0 env CUDNN_COMPAT_REQUIRE=9.0 CUDNN_COMPAT_CUDA=12 \
  LD_AUDIT="$p/lib/cudnn-compat/libcudnn-compat.so" "$t/family" libcudnn.so.9
has "version 90000"

for system in lmod tcl; do
  swap=$([[ $system == lmod ]] && echo swap || echo switch)
  $system "$p" load major5/1.0 cudnn/5.0
  [[ -z $out ]] || fail "$system: a major alone was refused: $out"
  $system "$p" purge
  $system "$t/no-hooks" load portable/1.0 cudnn/5.0 || fail "$system: the portable form did not load without the hooks: $out"
  [[ -z $out ]] || fail "$system: without the hooks: $out"
  $system "$t/no-hooks" purge
  $system "$p" load portable/1.0 cudnn/5.0 || fail "$system: a warning failed module load: $out"
  has "portable/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
  grep -qF "Use: module $swap cudnn/5.0 cudnn/5.1" "$t/msg" || fail "$system: the command is split: $(cat "$t/msg")"
  $system "$p" purge
done
