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
