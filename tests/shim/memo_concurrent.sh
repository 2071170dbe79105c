# Issue 20, item 4: processes that start at the same moment on one node share one probe. 64
# processes are released together, with a cold memo, while the first probe of the user's own copy
# of FAKE 9.0.0 takes a second: exactly one probe runs, the other 63 wait for its answer, and all
# 64 get the map's 9.1.0 without a line. Under LD_AUDIT and LD_PRELOAD. (The landed shim ran 64.)
source "$(dirname "$0")/common.sh"
memo_setting
own_shim
probe_counter
compile together <<'C'
/* together N CMD...: starts N copies of CMD that wait on one pipe, then releases them at once. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int gate[2];
  if (argc < 3 || pipe(gate) != 0) return 2;
  const int n = atoi(argv[1]);
  for (int i = 0; i < n; ++i)
    if (fork() == 0) {
      char byte;
      close(gate[1]);
      if (read(gate[0], &byte, 1) < 0) _exit(3);
      close(gate[0]);
      execv(argv[2], argv + 2);
      _exit(127);
    }
  close(gate[1]);  /* every child's read returns now */
  int status, failed = 0;
  while (wait(&status) > 0) failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  return failed != 0;
}
C
export PROBE_NAP=1
settle

for mode in audit preload; do
  rm -rf "$memo"
  : >"$t/probes"
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/together" 64 "$t/family" libcudnn.so.9
  count "loaded $FAKES/9.1.0/lib64/libcudnn.so.9" 64
  lacks "cudnn-compat:"
  [[ $(probes_run) == 1 ]] || fail "$mode: $(probes_run) probes ran for 64 processes:"$'\n'"$(cat "$t/probes")"
done
