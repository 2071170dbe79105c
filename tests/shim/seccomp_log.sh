# A host under a seccomp filter with CUDNN_COMPAT_LOG set: its line goes to syslog through a
# socket, or to a log file the shim makes, and a filter may kill the host for either (systemd's
# ~@network-io kills at socket; a sandbox kills O_CREAT). Under a filter the line goes to stderr,
# or to a log file that is already there; the host died of SIGSYS (an outside tester's finding).
source "$(dirname "$0")/common.sh"
compile filtered -I"$(dirname "$0")/.." <<C
$load5_main
#include "seccomp_filters.h"
#include <string.h>
/* filtered socket|files: loads libcudnn.so.5 under a filter that kills socket and connect, or
 * the making of files. */
int main(int argc, char **argv) {
  const unsigned calls[] = {SYS_socket, SYS_connect};
  if (argc < 2 || !(strcmp(argv[1], "socket") ? kill_file_making() : kill_calls(calls, 2)))
    return 2;
  return load5() ? 0 : 1;
}
C
tf2016_setting
export CUDNN_COMPAT_REQUIRE=banana  # the table cannot answer: the engine, which the filter stops
for mode in audit preload; do
  CUDNN_COMPAT_LOG=syslog expect_rc 0 env LD_${mode^^}=$SHIM "$t/filtered" socket
  has "cuDNN 5005"
  count "cudnn-compat:" 1
  has "cudnn-compat: could not check libcudnn.so.5"
  CUDNN_COMPAT_LOG=$t/absent.log expect_rc 0 env LD_${mode^^}=$SHIM "$t/filtered" files
  count "cudnn-compat:" 1
  [[ ! -e $t/absent.log ]] || fail "$mode: the shim made its log file under the filter"
  : >"$t/there.log"
  CUDNN_COMPAT_LOG=$t/there.log expect_rc 0 env LD_${mode^^}=$SHIM "$t/filtered" files
  lacks "cudnn-compat:"
  grep -q "could not check libcudnn.so.5" "$t/there.log" || fail "$mode: no line in the log file"
done
