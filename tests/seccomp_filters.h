/* Seccomp filters for the tests' hosts (tests/shim/hostile_seccomp.sh, seccomp_denied_checks.sh,
 * tests/python/late_consumer.sh). filtered(program, n) installs the n instructions as the
 * process's filter (no new privileges first); 1 when it is in place. kill_processes() installs
 * the filter of a host that may not start a process (systemd's SystemCallFilter, some container
 * profiles): fork, vfork, clone and clone3 kill it. kill_calls(nr, n) kills the process at any of
 * the n (at most 8) system calls nr (systemd's ~@network-io kills at socket). deny_call(nr, e)
 * answers the system call nr with errno e (older container profiles deny what they do not know).
 * kill_file_making() kills the process as it makes a file or directory (open or openat with
 * O_CREAT, creat, mkdir, mkdirat): a sandbox that may read the file system and change nothing.
 * allow_only(nr, n) is an allowlist: the n (at most 255) system calls nr are allowed, and any
 * other kills the process (a profile written from a strace of the program). */
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static int filtered(struct sock_filter *program, unsigned short n) {
  struct sock_fprog fprog = {n, program};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) == 0;
}

static int kill_calls(const unsigned *nr, int n) {
  struct sock_filter program[2 + 2 * 8];
  int at = 0;
  if (n > 8) return 0;
  program[at++] =
      (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  for (int i = 0; i < n; ++i) {
    program[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr[i], 0, 1);
    program[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  }
  program[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return filtered(program, (unsigned short)at);
}

static int kill_processes(void) {
  const unsigned calls[] = {SYS_clone, SYS_clone3, SYS_fork, SYS_vfork};
  return kill_calls(calls, 4);
}

static int deny_call(unsigned nr, unsigned error) {
  struct sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | error),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  return filtered(program, sizeof program / sizeof *program);
}

static int kill_file_making(void) {
  enum { allow = 10, kill = 11 }; /* the two returns' places: each jump counts from the next one */
  struct sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_CREAT, kill - 4, allow - 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_CREAT, kill - 7, allow - 7),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_creat, kill - 8, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdir, kill - 9, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdirat, kill - 10, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  return filtered(program, sizeof program / sizeof *program);
}

static int allow_only(const unsigned *nr, int n) {
  struct sock_filter program[3 + 255];
  int at = 0;
  if (n > 255) return 0;
  program[at++] =
      (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  for (int i = 0; i < n; ++i) /* to the allow after the kill */
    program[at++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr[i], n - i, 0);
  program[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  program[at++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return filtered(program, (unsigned short)at);
}
