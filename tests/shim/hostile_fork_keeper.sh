# Issue 27, item 2, the orphan keeper and fork(): a child the host forks while a decision runs
# makes its own decisions. The keeper's record it inherits is its parent's (the kernel marks that
# keeper's end in the parent's memory, never in the child's copy), so it must not wait for it. Runs
# in a PID namespace whose PID 1 (bash) reaps orphans, where the keeper is an orphan; a first cut
# of the orphan keeper told the child "the engine is still busy" and kept its ordinary load.
source "$(dirname "$0")/common.sh"
pid_namespace
compile fork_host -pthread <<C
$load5_main
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
static void *fork_later(void *arg) {
  (void)arg;
  usleep(300 * 1000);  // the main thread's decision runs: the engine answers after a second
  const pid_t child = fork();
  if (child == 0) _exit(load5() ? 0 : 1);
  int status = 0;
  waitpid(child, &status, 0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, fork_later, 0);
  void *lib = load5();
  pthread_join(t, 0);
  return lib ? 0 : 1;
}
C
own_shim
mv "$t/lib/cudnn-compat-select" "$t/lib/cudnn-compat-select.real"
printf '#!/bin/sh\nsleep 1\nexec "$0.real" "$@"\n' >"$t/lib/cudnn-compat-select"
chmod +x "$t/lib/cudnn-compat-select"
tf2016_setting

for mode in audit preload; do
  expect_rc_files 0 timeout -k 2 60 "${reaping_init[@]}" env LD_${mode^^}=$SHIM "$t/fork_host"
  count "$redirected" 2  # the host and its child, each decided
  lacks "cudnn-compat:"
done
