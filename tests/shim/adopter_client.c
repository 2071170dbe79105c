// A host that adopts orphans (tests/shim/hostile_subreaper.sh, hostile_pid1.sh): with an argument
// it makes itself a PR_SET_CHILD_SUBREAPER; run as PID 1 of a PID namespace it is one by nature.
// Two threads, one in wait() and one in waitid(P_ALL), print every pid they collect; after its
// cuDNN load the host prints how many processes are still below it, its worker aside.
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
static pid_t worker;
static void collected(const char *by, pid_t p) {
  if (p == worker)
    printf("%s collected the worker\n", by);
  else
    printf("%s collected a foreign process %d\n", by, p);
  fflush(stdout);
}
static void *by_wait(void *arg) {
  (void)arg;
  for (pid_t p; (p = wait(NULL)) != -1 || errno == EINTR;)
    if (p > 0) collected("wait()", p);
  return NULL;
}
static void *by_waitid(void *arg) {
  (void)arg;
  for (siginfo_t i = {0}; waitid(P_ALL, 0, &i, WEXITED) == 0 || errno == EINTR; i.si_pid = 0)
    if (i.si_pid > 0) collected("waitid(P_ALL)", i.si_pid);
  return NULL;
}
static pid_t parent_of(pid_t p) {
  char path[64], stat[512];
  snprintf(path, sizeof path, "/proc/%d/stat", p);
  const int fd = open(path, O_RDONLY);
  const ssize_t n = fd >= 0 ? read(fd, stat, sizeof stat - 1) : -1;
  if (fd >= 0) close(fd);
  if (n <= 0) return 0;
  stat[n] = 0;
  const char *close_paren = strrchr(stat, ')');
  int ppid = 0;
  return close_paren && sscanf(close_paren, ") %*c %d", &ppid) == 1 ? ppid : 0;
}
// Processes below the host other than its worker (zombies included: a zombie of ours is ours).
static int descendants(int show) {
  int count = 0;
  DIR *d = opendir("/proc");
  for (struct dirent *e; d && (e = readdir(d));) {
    if (!isdigit((unsigned char)e->d_name[0])) continue;
    const pid_t p = atoi(e->d_name);
    if (p == getpid() || p == worker) continue;
    for (pid_t up = parent_of(p), hops = 0; up > 0 && hops < 64; up = parent_of(up), ++hops)
      if (up == getpid()) {
        ++count;
        if (show) printf("below the host: %d\n", p);
        break;
      }
  }
  if (d) closedir(d);
  return count;
}
int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1 && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) return 2;
  printf("host pid %d\n", getpid());
  int go[2];
  if (pipe2(go, O_CLOEXEC) != 0) return 2;
  worker = fork();
  if (worker == 0) {  // lives until the host has looked below itself
    char c;
    close(go[1]);
    while (read(go[0], &c, 1) == -1 && errno == EINTR) {
    }
    _exit(7);
  }
  pthread_t t[2];
  pthread_create(&t[0], NULL, by_wait, NULL);
  pthread_create(&t[1], NULL, by_waitid, NULL);
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("loaded cuDNN %zu\n", lib ? ((size_t(*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  // Anything of ours still below the host, after a grace of 5 s for a SIGKILL to land.
  for (int i = 0; i < 50 && descendants(0); ++i) usleep(100 * 1000);
  printf("below the host: %d processes\n", descendants(1));
  fflush(stdout);
  close(go[1]);
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  return 0;
}
