# A cuDNN no table knows whose constructor needs 12 MiB of stack, in a job under `ulimit -s
# unlimited`: the host loads it, and so must the probe that judges it - on a thread of a fixed
# 8 MiB it died, and the library was swapped for the map's FAKE 9.1.0 without a word (an outside
# tester's finding). The probe now keeps its own main stack wherever the limit allows 8 MiB.
source "$(dirname "$0")/common.sh"
(ulimit -s unlimited) 2>/dev/null || skip "the hard stack limit is not unlimited here"
mkdir "$t/big"
"$CC" -shared -fPIC -o "$t/big/libcudnn.so.9" -Wl,-soname,libcudnn.so.9 -x c - <<'C'
#include <stddef.h>
#include <string.h>
__attribute__((constructor)) static void deep(void) {
  volatile char frame[12 << 20];
  memset((char *)frame, 1, sizeof frame);
}
size_t cudnnGetVersion(void) { return 90000; }
size_t cudnnGetCudartVersion(void) { return 12040; }
C
family_client
fake_map 9.1.0 >"$t/map.toml"
export LD_LIBRARY_PATH=$t/big CUDNN_COMPAT_REQUIRE=9.0
big() { (ulimit -s unlimited && exec "$@"); }
expect_rc 0 big "$t/family" libcudnn.so.9
has "version 90000"
for mode in audit preload; do
  expect_rc 0 big env "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.9
  has "version 90000"
  lacks "cudnn-compat:"
done
