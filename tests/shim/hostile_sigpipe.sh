# Issue 9, item 4 (and "writes that cannot hurt"): the shim's one line never kills or blocks the
# host. The host's stderr is a pipe whose reader has gone, SIGPIPE at its default: the host lives
# (the landed shim's line killed it, exit 141). Its stderr is a full pipe nobody reads: the load
# still returns. And with CUDNN_COMPAT_DEBUG=1 the real engine's decision line to that dead pipe
# does not cost the host its redirect.
source "$(dirname "$0")/common.sh"
compile sigpipe <<C
$load5_main
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
/* argv[1]: "keep" (stderr as given), "dead" (no reader) or "full" (nobody reads, pipe full). */
int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_DFL);  /* whatever the test runner left */
  int p[2];
  if (argc < 2 || pipe(p) != 0) return 2;
  if (!strcmp(argv[1], "dead")) {
    close(p[0]);
    dup2(p[1], 2);
  } else if (!strcmp(argv[1], "full")) {
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    while (write(p[1], "x", 1) == 1) {}
    fcntl(p[1], F_SETFL, 0);
    dup2(p[1], 2);
  }
  return load5() ? 0 : 1;
}
C
own_shim
tf2016_setting

for mode in audit preload; do
  # Without its engine the shim itself says one line, from inside the host.
  rm -f "$t/lib/cudnn-compat-select"
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/sigpipe" keep
  has "cuDNN 5005"
  count "cudnn-compat:" 1
  expect_rc_within 0 8 env LD_${mode^^}=$SHIM "$t/sigpipe" dead
  has "cuDNN 5005"
  expect_rc_within 0 8 env LD_${mode^^}=$SHIM "$t/sigpipe" full
  has "cuDNN 5005"

  cp "$real_lib/cudnn-compat-select" "$t/lib/"
  CUDNN_COMPAT_DEBUG=1 expect_rc 0 env LD_${mode^^}=$SHIM "$t/sigpipe" keep
  has "$redirected"
  has "cudnn-compat: libcudnn.so.5 -> $FAKES/5.1.10/lib64/libcudnn.so.5"
  CUDNN_COMPAT_DEBUG=1 expect_rc_within 0 8 env LD_${mode^^}=$SHIM "$t/sigpipe" dead
  has "$redirected"
done
