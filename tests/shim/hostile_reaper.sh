# Issue 9, item 2: nothing of ours is collected by the host's wait() or seen by its SIGCHLD handler.
# A host thread blocks in wait() for its own worker (which exits 7 once the main thread has loaded
# cuDNN); a SIGCHLD handler counts every child that ends. With the landed shim the reaper took the
# engine's status 0 (its execve made it an ordinary SIGCHLD child) and the handler counted two.
source "$(dirname "$0")/common.sh"
compile reaper -pthread <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static pid_t worker;
static atomic_int sigchld, foreign_sigchld;
static void on_sigchld(int sig, siginfo_t *info, void *context) {
  (void)sig, (void)context;
  ++sigchld;
  if (info->si_pid != worker) ++foreign_sigchld;
}
static void *reaper(void *arg) {
  (void)arg;
  int status;
  for (pid_t p; (p = wait(&status)) != -1 || errno == EINTR;)
    if (p == worker)
      printf("reaped the worker: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    else if (p > 0)
      printf("reaped a foreign child: pid %d, status %d\n", p, status);
  return NULL;
}
int main(void) {
  struct sigaction sa = {0};
  sa.sa_sigaction = on_sigchld;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGCHLD, &sa, NULL);
  int go[2];
  if (pipe2(go, O_CLOEXEC) != 0) return 2;
  worker = fork();
  if (worker == 0) {  // waits for the main thread's load, then exits 7
    char c;
    close(go[1]);
    while (read(go[0], &c, 1) == -1 && errno == EINTR) {}
    _exit(7);
  }
  pthread_t t;
  pthread_create(&t, NULL, reaper, NULL);
  usleep(100 * 1000);  // the reaper is in wait() by now
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("loaded cuDNN %zu\n", lib ? ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  fflush(stdout);
  close(go[1]);
  pthread_join(t, NULL);
  printf("SIGCHLD %d, of children not the host's %d\n", sigchld, foreign_sigchld);
  return 0;
}
C
tf2016_setting

for mode in audit preload; do
  for round in 1 2 3; do
    expect_rc 0 timeout 60 env LD_${mode^^}=$SHIM "$t/reaper"
    has "loaded cuDNN 5110"  # the shim decided (FAKE 5.1.10, not 5.0.5 off the path)
    has "reaped the worker: exit 7"
    lacks "reaped a foreign child"
    has "SIGCHLD 1, of children not the host's 0"
  done
done
