# Names without a major - the development links libcudnn.so and libcudnn_graph.so, which code
# that dlopens cuDNN by hand may ask for - are members of the process's family like any other
# (an outside tester's findings: each let a second release into the process).
# 1. torch's preload loads the wheel's dispatcher (FAKE 9.20.0) by its absolute path, then other
#    code asks for libcudnn.so: with FAKE 9.23.0 first on LD_LIBRARY_PATH, that mapped 9.23.0 too.
# 2. libcudnn_graph.so (FAKE 9.0.0, from LD_LIBRARY_PATH) first, then the wheel's dispatcher:
#    9.0.0's graph stayed beside 9.23.0's family.
# 3. libcudnn.so (FAKE 9.0.0) first, then the framework's libcudnn.so.9: two dispatchers under
#    LD_PRELOAD.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib

"$CC" -o "$t/names" -x c - -ldl <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
static int show(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  if (strstr(info->dlpi_name, "libcudnn") && !strstr(info->dlpi_name, "libcudnn-compat"))
    printf("loaded %s\n", info->dlpi_name);
  return 0;
}
/* Loads each name in turn; a framework library's framework_load() is called. */
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    void *h = dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL);
    if (!h) return printf("dlopen %s: %s\n", argv[i], dlerror()), 2;
    int (*load)(const char *) = (int (*)(const char *))dlsym(h, "framework_load");
    if (load && load("") != 0) return 3;
  }
  dl_iterate_phdr(show, NULL);
  return 0;
}
C
cat >"$t/names.py" <<'PY'
import ctypes, sys
for name in sys.argv[1:]:
    h = ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
    if hasattr(h, "framework_load") and h.framework_load(b"") != 0:
        sys.exit(3)
for line in open("/proc/self/maps"):
    path = line.split()[-1]
    if "libcudnn" in path and "libcudnn-compat" not in path:
        print("loaded", path)
PY
c_names() { "$t/names" "$@"; }
py_names() { python3 "$t/names.py" "$@"; }
# releases: how many FAKE releases (or the wheel) the libcudnn* files of $out come from.
releases() { grep '^loaded ' <<<"$out" | sed 's|/lib64/.*||; s|/nvidia/cudnn/lib/.*|wheel|' | sort -u | wc -l; }

# 1.
export LD_LIBRARY_PATH=$FAKES/9.23.0/lib64
expect_rc 0 c_names "$wheel/libcudnn.so.9" libcudnn.so
[[ $(releases) == 2 ]] || fail "expected two releases without the shim:"$'\n'"$out"
for client in c_names py_names; do
  for mode in audit preload; do
    expect_rc 0 $mode $client "$wheel/libcudnn.so.9" libcudnn.so
    [[ $(releases) == 1 ]] || fail "1. $mode $client: more than one release:"$'\n'"$out"
    lacks "9.23.0"
  done
done

# 2.
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64
expect_rc 0 c_names libcudnn_graph.so "$FAKES/9.23.0/lib64/libcudnn.so.9"
[[ $(releases) == 2 ]] || fail "expected two releases without the shim:"$'\n'"$out"
for client in c_names py_names; do
  for mode in audit preload; do
    expect_rc 0 $mode $client libcudnn_graph.so "$FAKES/9.23.0/lib64/libcudnn.so.9"
    [[ $(releases) == 1 ]] || fail "2. $mode $client: more than one release:"$'\n'"$out"
  done
done
# A need decides the family at the first member, as for libcudnn_graph.so.9.
for v in 9.0.0 9.23.0; do
  printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\n' "$v" "$FAKES/$v/lib64"
done | { echo 'schema = 1'; cat; } >"$t/map.toml"
for mode in audit preload; do
  CUDNN_COMPAT_REQUIRE=9.23 expect_rc 0 $mode c_names libcudnn_graph.so libcudnn.so.9
  has "loaded $FAKES/9.23.0/lib64/libcudnn_graph.so"
  lacks "9.0.0"
done

# 3.
for client in c_names py_names; do
  for mode in audit preload; do
    expect_rc 0 $mode $client libcudnn.so "$lib"
    [[ $(releases) == 1 ]] || fail "3. $mode $client: more than one release:"$'\n'"$out"
    has "version 90000"
    has "status 0"
  done
done

# Outside tester's findings of the evening, each a process the shim broke or mixed:
"$CC" -o "$t/create" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
/* Loads each name in turn and creates a handle, which loads the dispatcher's sub-libraries. */
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    void *h = dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL), *handle;
    if (!h) return printf("dlopen %s: %s\n", argv[i], dlerror()), 2;
    size_t (*version)(void) = (size_t (*)(void))dlsym(h, "cudnnGetVersion");
    int (*create)(void **) = (int (*)(void **))dlsym(h, "cudnnCreate");
    printf("%s: version %zu create %d\n", argv[i], version ? version() : 0,
           create ? create(&handle) : -1);
  }
  return 0;
}
C
# 4. libcudnn.so leading to a cuDNN 8 after a cuDNN 9 is loaded: the cuDNN 8, never the 9.
for mode in audit preload; do
  LD_LIBRARY_PATH=$FAKES/8.9.7/lib64 expect_rc 0 $mode "$t/create" "$wheel/libcudnn.so.9" libcudnn.so
  has "libcudnn.so: version 8907 create 0"
done
# 5. A dispatcher whose file is libcudnn.so alone, without a SONAME, beside its sub-libraries,
#    and another 9.x release later on the path: its sub-libraries are its directory's, as the
#    loader alone would have them (the shim decided libcudnn.so.9 for them and mixed 9.0.0's in).
# 6. ... and a second dispatcher asked for by path after it is that loaded one.
dev=$t/dev-only && mkdir "$dev" && cp -P "$FAKES"/9.23.0/lib64/libcudnn_* "$dev/"
"$CC" -shared -fPIC -fvisibility=hidden -o "$dev/libcudnn.so" "$here/../fakecudnn/fake_cudnn.c" \
  -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN' -ldl -DFAKE_MAJOR=9 -DFAKE_MINOR=23 -DFAKE_PATCH=0 \
  -DFAKE_CUDART=12040 '-DFAKE_SUBLIBS="libcudnn_graph.so","libcudnn_ops.so","libcudnn_cnn.so","libcudnn_adv.so","libcudnn_engines_precompiled.so","libcudnn_engines_runtime_compiled.so","libcudnn_heuristic.so","libcudnn_engines_tensor_ir.so"'
for mode in audit preload; do
  LD_LIBRARY_PATH=$dev:$FAKES/9.0.0/lib64 expect_rc 0 $mode "$t/create" libcudnn.so "$FAKES/9.0.0/lib64/libcudnn.so.9"
  has "libcudnn.so: version 92300 create 0"
  has "$FAKES/9.0.0/lib64/libcudnn.so.9: version 92300 create 0"
done
# 7. libcudnn.so linking to another release's file than its directory's family: the family of
#    libcudnn.so.9 as the loader finds it, one dispatcher (LD_PRELOAD mapped two).
mkdir "$t/x" && cp -P "$FAKES"/9.20.0/lib64/libcudnn* "$t/x/" && ln -sfn "$FAKES/9.23.0/lib64/libcudnn.so.9.23.0" "$t/x/libcudnn.so"
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/x expect_rc 0 $mode "$t/create" libcudnn.so libcudnn.so.9
  has "libcudnn.so: version 92000 create 0"
  has "libcudnn.so.9: version 92000 create 0"
done
# 8. A development link asked for by its path after 9.20.0 is loaded: the family's dispatcher (a
#    second release was mapped through it).
for mode in audit preload; do
  expect_rc 0 $mode "$t/create" "$wheel/libcudnn.so.9" "$FAKES/9.23.0/lib64/libcudnn.so"
  has "$FAKES/9.23.0/lib64/libcudnn.so: version 92000 create 0"
done
# 9. libcudnn.so linking to a file named without a major: its SONAME (libcudnn.so.9) tells.
mkdir "$t/odd" && cp "$FAKES/9.23.0/lib64/libcudnn.so.9.23.0" "$t/odd/libcudnn-9.23.so"
ln -s libcudnn-9.23.so "$t/odd/libcudnn.so"
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/odd expect_rc 0 $mode "$t/create" "$wheel/libcudnn.so.9" libcudnn.so
  has "libcudnn.so: version 92000 create 0"
done
