# Issue 27, item 5: a host under a seccomp filter that kills the process on fork, vfork, clone and
# clone3 (systemd's default action for a service's SystemCallFilter, some container profiles). The
# shim starts no process there: the load the table does not settle is the ordinary load with one
# line that names the filter, and the table's answer (no process) still redirects. With the landed
# shim the host died of SIGSYS as the engine was started.
source "$(dirname "$0")/common.sh"
compile filtered -I"$(dirname "$0")/.." <<C
$load5_main
#include "seccomp_filters.h"
int main(void) {
  if (!kill_processes()) return 2;
  return load5() ? 0 : 1;
}
C
tf2016_setting

for mode in audit preload; do
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/filtered"
  has "cuDNN 5005"
  has "cudnn-compat: could not check libcudnn.so.5: this process runs under a seccomp filter"
  count "cudnn-compat:" 1
done

# The decision table settles this load without a process: the redirect holds under the filter.
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
for mode in audit preload; do
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/filtered"
  has "$redirected"
  lacks "cudnn-compat:"
done
