// The engine runs in a process of its own, started the way musl's posix_spawn starts one: a
// child that shares the host's memory (CLONE_VM) on a small stack of ours, so the host's page
// tables are never copied (a fork of a host with 8 GB touched took 333 ms, and can fail under
// strict overcommit), with every signal blocked so that no handler of the host runs in it.
//
// Two of ours stand between the host and the engine. The keeper is a CLONE_VM child whose exit
// signal is 0: the host's wait() and its SIGCHLD handler never see it (only __WALL or __WCLONE
// would). The keeper starts the engine (CLONE_VFORK, then execve), waits for it and reaps it, so
// the engine - whose exit signal execve resets to SIGCHLD - is never the host's child. The engine
// leads a process group of its own, which its probes join: one kill ends them all, at the
// deadline or when the engine ends, so nothing of ours outlives the decision.
//
// The keeper is a child subreaper, and the engine's ancestor: a probe whose engine dies first is
// handed to the keeper, not to the host - which may itself be a subreaper, or PID 1 of a PID
// namespace, and would reap it - and the keeper reaps every one of them before it ends.
#include "run_engine.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>

#include "arena.h"
#include "shim_text.h"
#include "sys.h"

#define WNOHANG_ 1
#define WCLONE_ 0x80000000
#define WALL_ 0x40000000
#define PR_SET_CHILD_SUBREAPER_ 36

extern long shim_clone(unsigned long flags, void *stack_top, int (*fn)(void *), void *arg,
                       int *pidfd);

enum { kStack = 16 * 1024, kAnswerLimit = 1 << 20 };
static char keeper_stack[kStack] __attribute__((aligned(16)));
static char exec_stack[kStack] __attribute__((aligned(16)));

// Shared by the host thread, the keeper and the engine's child before its exec (CLONE_VM).
static struct {
  char *const *argv, *const *envp;
  int out;           // the answer pipe's write end
  int exec_errno;    // set by the child when execve fails
  int engine;        // the engine's pid (and process group) once it runs
  int done;          // the keeper has reaped the engine
  int abandoned;     // the host has stopped waiting: end the engine now
  long deadline_ms;  // the keeper keeps it too, so the engine ends even if the host is gone
} job;

static int keeper_pid;  // a keeper of ours not yet reaped

// Every fd from 3 up: the engine must not hold the host's pipes or sockets open.
static void close_from_3(void) {
  if (sys(436 /* SYS_close_range */, 3, ~0u, 0) == 0) return;
  const long dir = sys(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY);
  char entries[1024];
  for (long n; dir >= 0 && (n = sys(SYS_getdents64, dir, entries, sizeof entries)) > 0;) {
    for (long at = 0; at < n;) {
      const unsigned short length = *(unsigned short *)(entries + at + 16);
      long fd = 0;
      for (const char *c = entries + at + 19; *c >= '0' && *c <= '9'; ++c) fd = fd * 10 + *c - '0';
      if (fd >= 3 && fd != dir) sys(SYS_close, fd, 0, 0);
      at += length;
    }
  }
  if (dir >= 0) sys(SYS_close, dir, 0, 0);
}

// The host's signal dispositions are not ours: a handler is the host's code, SIG_IGN would pass
// through execve to the engine and its probes, and an ignored SIGCHLD would have the kernel reap
// the engine behind the keeper's back. The copy of the handler table each child of ours has (no
// CLONE_SIGHAND) is reset; the host's is untouched.
static void default_signals(void) {
  const struct { unsigned long handler, flags, restorer, mask; } dfl = {0, 0, 0, 0};  // SIG_DFL
  for (long sig = 1; sig <= 64; ++sig) sys4(SYS_rt_sigaction, sig, &dfl, 0, 8);
}

// In the engine's child, before execve: nothing of the host's but the environment goes along.
static int exec_child(void *unused) {
  (void)unused;
  sys(SYS_setpgid, 0, 0, 0);
  const long out = sys(SYS_fcntl, job.out, F_DUPFD, 3);  // fds 0-2 may be the pipe or closed
  const long null = sys(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR);
  const long null_high = null >= 0 ? sys(SYS_fcntl, null, F_DUPFD, 3) : -1;
  if (out < 0) return 127;
  sys(SYS_dup3, out, 1, 0);
  for (int fd = 0; fd <= 2; fd += 2)
    if (null_high < 0 || sys(SYS_dup3, null_high, fd, 0) < 0) sys(SYS_close, fd, 0, 0);
  close_from_3();
  // What start_keeper blocked, and the host's own mask, would pass through execve too. The
  // dispositions are the keeper's defaults by now: a signal let in here runs no host code.
  const unsigned long none = 0;
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &none, 0, 8);
  const long r = sys(SYS_execve, job.argv[0], job.argv, job.envp);
  __atomic_store_n(&job.exec_errno, (int)-r, __ATOMIC_SEQ_CST);
  return 127;
}

// Waits until the engine has ended, or the deadline has passed, or the host has stopped
// waiting. The engine is left a zombie: its pid, and so its process group, cannot be reused until
// it is reaped, so ending the group afterwards cannot hit anyone else's processes.
static void await_engine(long pid) {
  const long pidfd = sys(434 /* SYS_pidfd_open */, pid, 0, 0);
  int info[32];
  for (;;) {
    info[4] = 0;  // si_pid: WNOHANG leaves it 0 while the engine runs
    const long r = sys6(SYS_waitid, 1 /* P_PID */, pid, (long)info,
                        4 /* WEXITED */ | 1 /* WNOHANG */ | 0x01000000 /* WNOWAIT */, 0, 0);
    if ((r == 0 && info[4] != 0) || (r < 0 && r != -EINTR_)) break;
    const long left = job.deadline_ms - now_ms();
    if (left <= 0 || __atomic_load_n(&job.abandoned, __ATOMIC_SEQ_CST)) break;
    struct pollfd p = {(int)pidfd, POLLIN, 0};
    // Without a pidfd (a kernel before 5.3) it looks again every 5 ms.
    sys(SYS_poll, pidfd >= 0 ? &p : 0, pidfd >= 0, left < 50 ? left : (pidfd >= 0 ? 50 : 5));
  }
  if (pidfd >= 0) sys(SYS_close, pidfd, 0, 0);
}

// Reaps what the engine left to the keeper: the group has been killed, so each is gone or going;
// a process that left the group and lives on is given up after a second.
static void reap_orphans(void) {
  const long give_up = now_ms() + 1000;
  for (int status;;) {
    const long r = sys4(SYS_wait4, -1, &status, WALL_ | WNOHANG_, 0);
    if (r > 0 || r == -EINTR_) continue;
    if (r < 0 || now_ms() >= give_up) return;  // ECHILD: every one of them is reaped
    nap_ms(1);
  }
}

static int keeper(void *unused) {
  (void)unused;
  // Before the engine starts: the kernel hands orphans to the nearest subreaper among their
  // ancestors, and marks the engine as having one only when it is created.
  sys(SYS_prctl, PR_SET_CHILD_SUBREAPER_, 1, 0);
  default_signals();
  const long pid =
      shim_clone(CLONE_VM | CLONE_VFORK | SIGCHLD, exec_stack + kStack, exec_child, 0, 0);
  // The keeper holds copies of the host's fds (its pipes, its stdout): none may stay open in a
  // process of ours, whatever becomes of the host.
  if (sys(436 /* SYS_close_range */, 0, ~0u, 0) != 0)
    for (int fd = 0; fd < 1024; ++fd) sys(SYS_close, fd, 0, 0);
  if (pid < 0) {
    __atomic_store_n(&job.exec_errno, (int)-pid, __ATOMIC_SEQ_CST);
    return 0;
  }
  if (!__atomic_load_n(&job.exec_errno, __ATOMIC_SEQ_CST))
    __atomic_store_n(&job.engine, (int)pid, __ATOMIC_SEQ_CST);
  await_engine(pid);
  // Whatever the engine started and left behind ends with it; so does an engine past the deadline
  // or one the host has stopped waiting for (the keeper keeps the deadline even if the host dies).
  sys(SYS_kill, -pid, SIGKILL, 0);
  int status = 0;
  while (sys4(SYS_wait4, pid, &status, 0, 0) == -EINTR_) {
  }
  __atomic_store_n(&job.done, 1, __ATOMIC_SEQ_CST);
  reap_orphans();
  return 0;
}

static int reap_keeper(int flags) {
  if (!keeper_pid) return 1;
  int status = 0;
  long r;
  while ((r = sys4(SYS_wait4, keeper_pid, &status, WCLONE_ | flags, 0)) == -EINTR_) {
  }
  if (r == 0) return 0;  // still running
  keeper_pid = 0;
  return 1;
}

static long start_keeper(int *pidfd) {
  unsigned long all = ~0ul, old = 0;
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, 8);
  long pid = shim_clone(CLONE_VM | CLONE_PIDFD, keeper_stack + kStack, keeper, 0, pidfd);
  if (pid == -22 /* EINVAL: a kernel before pidfds */)
    pid = shim_clone(CLONE_VM, keeper_stack + kStack, keeper, 0, 0);
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
  return pid;
}

// Reads the answer until the keeper ends (the engine has been reaped) or the deadline passes.
static int collect(int in, int pidfd, long deadline_ms, struct file_text *answer) {
  static char block[4096];
  for (int eof = 0;;) {
    const long left = deadline_ms - now_ms();
    if (left <= 0) return 0;
    struct pollfd p[2] = {{eof ? -1 : in, POLLIN, 0}, {pidfd, POLLIN, 0}};
    // Without a pidfd the keeper's end is looked for every 5 ms.
    const long r = sys(SYS_poll, p, 2, pidfd >= 0 ? left : (left < 5 ? left : 5));
    if (r == -EINTR_) continue;  // a host's interval timer: the deadline still holds
    if (r < 0) return 0;
    if (p[0].revents) {
      const long n = sys_retry(SYS_read, in, block, sizeof block);
      if (n <= 0) eof = 1;
      if (n > 0 && (answer->size + n > kAnswerLimit || !text_append(answer, block, n))) return 0;
      continue;  // drain the pipe before looking at the keeper
    }
    if ((pidfd >= 0 ? p[1].revents != 0 : 1) && reap_keeper(WNOHANG_)) return 1;
  }
}

static int answer_complete(const struct file_text *answer) {
  if (!answer->data) return 0;
  for (const char *line = answer->data; *line;) {
    if (after_prefix(line, "end ")) return 1;
    while (*line && *line != '\n') ++line;
    if (*line) ++line;
  }
  return 0;
}

enum engine_result run_engine(char *const *argv, char *const *envp, long deadline_ms,
                              const char **answer, int *exec_errno) {
  static struct file_text text;
  file_free(&text);
  *answer = "";
  *exec_errno = 0;
  if (!reap_keeper(WNOHANG_)) return ENGINE_BUSY;
  int fds[2];
  if (sys(SYS_pipe2, fds, O_CLOEXEC, 0) != 0) return ENGINE_NOT_RUN;
  job.argv = argv, job.envp = envp, job.out = fds[1];
  job.exec_errno = 0, job.engine = 0, job.done = 0, job.abandoned = 0;
  job.deadline_ms = deadline_ms;
  int pidfd = -1;
  const long pid = start_keeper(&pidfd);
  sys(SYS_close, fds[1], 0, 0);
  if (pid < 0) {
    sys(SYS_close, fds[0], 0, 0);
    return ENGINE_NOT_RUN;
  }
  keeper_pid = (int)pid;
  const int ended = collect(fds[0], pidfd, deadline_ms, &text);
  if (!ended) {
    // Dekker's handshake with the keeper, which publishes the engine's pid and then reads
    // abandoned: this side writes abandoned and then reads the pid, so one of the two ends it.
    __atomic_store_n(&job.abandoned, 1, __ATOMIC_SEQ_CST);
    const int engine = __atomic_load_n(&job.engine, __ATOMIC_SEQ_CST);
    if (engine > 0 && !__atomic_load_n(&job.done, __ATOMIC_SEQ_CST))
      sys(SYS_kill, -engine, SIGKILL, 0);  // the engine and its probes, together
    // The keeper ends as soon as the engine is reaped; give it a second, never the host's life.
    for (long until = now_ms() + 1000; !reap_keeper(WNOHANG_) && now_ms() < until;) nap_ms(2);
  }
  sys(SYS_close, fds[0], 0, 0);
  if (pidfd >= 0) sys(SYS_close, pidfd, 0, 0);
  *exec_errno = __atomic_load_n(&job.exec_errno, __ATOMIC_SEQ_CST);
  if (*exec_errno) return ENGINE_MISSING;
  if (text.data) *answer = text.data;
  if (answer_complete(&text)) return ENGINE_ANSWERED;
  return ended ? ENGINE_SILENT : ENGINE_LATE;
}
