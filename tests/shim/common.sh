# Sourced by every tests/shim/*.sh scenario. CTest passes:
#   SHIM          the libcudnn-compat.so under test (cudnn-compat-select beside it)
#   SHIM_O0       the same built at -O0
#   CUDNN_COMPAT  the cudnn-compat binary
#   FAKES         the FAKE cuDNN releases (tests/fakecudnn)
#   CC            the C compiler for the clients
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${SHIM:?}" "${FAKES:?}" "${CC:?}"
# The map is looked for at $CUDNN_COMPAT_MAP first; point it at nothing unless a test writes one.
export CUDNN_COMPAT_MAP=$t/map.toml

# compile NAME [cc flags...] < C source: builds $t/NAME.
compile() { local name=$1; shift; "$CC" -o "$t/$name" -x c - -x none "$@" -ldl; }
# audit CMD... / preload CMD...: runs CMD with the shim as LD_AUDIT or as LD_PRELOAD.
audit() { LD_AUDIT=$SHIM "$@"; }
preload() { LD_PRELOAD=$SHIM "$@"; }

# A map entry per FAKE release named.
fake_map() {
  echo "schema = 1"
  echo "[policy]"
  echo "rule = \"${RULE:-nvidia}\""
  local v
  for v in "$@"; do
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\nmodule = "cudnn/%s"\n' "$v" "$FAKES/$v/lib64" "$v"
  done
}

# The TensorFlow-2016 client (tf2016_client.c, shared with the demo).
tf2016_client() { compile tf2016 <"$(dirname "${BASH_SOURCE[0]}")/tf2016_client.c"; }

# A client of a cuDNN 8 or 9 dispatcher: loads it by bare name, creates a handle (which loads the
# whole family of sub-libraries) and lists every libcudnn* the process holds, from the link map.
family_client() {
  compile family <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int show(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  if (strstr(info->dlpi_name, "libcudnn")) printf("loaded %s\n", info->dlpi_name);
  return 0;
}
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  int status = 0;
  for (int i = 2; i < argc; ++i) {
    int (*check)(void) = (int (*)(void))dlsym(lib, argv[i]);
    const int s = check ? check() : -1;
    printf("%s = %d\n", argv[i], s);
    status |= s;
  }
  dl_iterate_phdr(show, NULL);
  return status ? 3 : 0;
}
C
}

# The real cuDNN 9 under /usr/local/cuda, else skip: sets real (its directory) and v (the number
# it reports), with the family client built.
real_cudnn9() {
  real=/usr/local/cuda/lib64
  [[ -e $real/libcudnn.so.9 ]] || skip "no real cuDNN 9 at $real"
  family_client
  expect_rc 0 "$t/family" "$real/libcudnn.so.9"
  v=$(sed -n 's/^version \([0-9]*\)$/\1/p' <<<"$out")
}
