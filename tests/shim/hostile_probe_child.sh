# Issue 9: a probed library whose constructor starts a process that lives on (and so holds the
# probe's output open) does not hold the decision: the probe's answer counts once the probe has
# ended. The landed engine read to end-of-file and waited half the deadline (30 s here); the
# `timeout` below only catches that hang.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/forks"
"$CC" -shared -fPIC -o "$t/forks/libcudnn.so.5" -Wl,-soname,libcudnn.so.5 -x c - <<'C'
#include <stddef.h>
#include <string.h>
#include <unistd.h>
/* Only in the probe: in the host it is loaded for good, and its child would be the host's. */
__attribute__((constructor)) static void linger(void) {
  char exe[4096] = "";
  readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (strstr(exe, "cudnn-compat-probe") && fork() == 0) {
    sleep(60);
    _exit(0);
  }
}
size_t cudnnGetVersion(void) { return 5110; }
size_t cudnnGetCudartVersion(void) { return 8000; }
C
printf 'schema = 1\n[[cudnn]]\nversion = "5.1.10"\nlib = "%s"\n' "$t/forks" >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3 CUDNN_COMPAT_TIMEOUT=60
compile load <<<"$load5_main
int main(void) { return load5() ? 0 : 1; }"
for mode in audit preload; do
  expect_rc 0 timeout -k 2 20 env LD_${mode^^}=$SHIM "$t/load"
  has "cuDNN 5110 from $t/forks/libcudnn.so.5"
done
