/* launch PROGRAM ARGS...: runs PROGRAM in a forked child and prints its peak RSS in KiB. Static
 * and tiny, so that the peak the kernel reports for the child (the maximum over everything it ever
 * executed, including the forked copy of its parent) is the program's own, not the benchmark's.
 * Static binaries ignore LD_PRELOAD and LD_AUDIT; PROGRAM gets them. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  const pid_t pid = fork();
  if (pid == 0) {
    execv(argv[1], argv + 1);
    _exit(127);
  }
  int status;
  struct rusage usage;
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return 1;
  printf("%ld\n", usage.ru_maxrss);
  return 0;
}
