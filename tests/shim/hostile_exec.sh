# Issue 27, item 2: a host whose thread runs execve while another thread's decision runs. The
# program it becomes gets nothing of ours: no SIGCHLD, no child it cannot reap; and the engine ends
# at once (nobody reads its answer any more). With the landed shim the keeper, a child of the host,
# notified the new program with SIGCHLD when it ended (the kernel does so for a parent that has
# exec'd since, whatever the exit signal) and stayed its zombie, unreapable by plain wait(); and the
# engine ran on to the deadline. The orphan keeper needs a PID 1 that reaps orphans: this runs in a
# PID namespace whose PID 1 is bash. Under a PID 1 that does not (a VM's init, a container without
# one) the keeper stays the host's child, and no zombie of ours is left to PID 1.
source "$(dirname "$0")/common.sh"
pid_namespace
compile exec_host -pthread <<C
$load5_main
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static void *exec_later(void *arg) {
  usleep(300 * 1000);  // the decision runs: the engine hangs
  execl("/proc/self/exe", (const char *)arg, "after", (char *)0);
  return 0;
}
int main(int argc, char **argv) {
  if (argc > 1) {  // the program the host became; SIGCHLD is still blocked (execve keeps the mask)
    siginfo_t si;
    int r = 0;
    for (int i = 0; i < 50; ++i, usleep(100 * 1000)) {
      memset(&si, 0, sizeof si);
      r = waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL);
      if (r == -1 && errno == ECHILD) break;
    }
    sigset_t pending;
    sigpending(&pending);
    printf("after exec: %s, SIGCHLD %s\n", r == -1 ? "no child" : si.si_pid ? "a zombie child" : "a child",
           sigismember(&pending, SIGCHLD) ? "pending" : "not pending");
    return 0;
  }
  sigset_t chld;
  sigemptyset(&chld), sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, 0);
  pthread_t t;
  pthread_create(&t, 0, exec_later, argv[0]);
  load5();
  return 3;  // the exec ends the program before the load returns
}
C
tf2016_client
own_shim
fake_engine hang
tf2016_setting
export CUDNN_COMPAT_TIMEOUT=30

for mode in audit preload; do
  expect_rc_files 0 timeout -k 2 60 "${reaping_init[@]}" env LD_${mode^^}=$SHIM "$t/exec_host"
  [[ -e $t/lib/cudnn-compat-select.fds ]] || fail "$mode: the engine never ran"
  has "after exec: no child, SIGCHLD not pending"
  expect_gone "$t/lib"  # within 5 s of the host's end, the deadline 30 s away
  rm "$t/lib/cudnn-compat-select.fds"
done

# A PID 1 that never reaps (waits for its one child only): nothing of ours is left to it.
compile noreap <<'C'
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  (void)argc;
  const pid_t child = fork();
  if (child == 0) execv(argv[1], argv + 1), _exit(127);
  int status, zombies = 0;
  waitpid(child, &status, 0);
  sleep(1);  // a keeper of ours ends within the second after the engine
  DIR *d = opendir("/proc");
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[300], stat[512], state = 0;
    int ppid = 0;
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (f && fgets(stat, sizeof stat, f) && strrchr(stat, ')'))
      sscanf(strrchr(stat, ')'), ") %c %d", &state, &ppid);
    if (f) fclose(f);
    zombies += state == 'Z' && ppid == 1;
  }
  printf("zombies left to PID 1: %d\n", zombies);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
C
cp "$real_lib/cudnn-compat-select" "$t/lib/"
for mode in audit preload; do
  expect_rc_files 0 timeout -k 2 60 "${namespace[@]}" "$t/noreap" /usr/bin/env LD_${mode^^}=$SHIM "$t/tf2016"
  has "$redirected"
  has "zombies left to PID 1: 0"
done
