// The engine runs in a process of its own, started the way musl's posix_spawn starts one: a
// child that shares the host's memory (CLONE_VM) on a small stack of ours, so the host's page
// tables are never copied (a fork of a host with 8 GB touched took 333 ms, and can fail under
// strict overcommit), with every signal blocked so that no handler of the host runs in it.
//
// Two of ours stand between the host and the engine. The keeper is a CLONE_VM process whose exit
// signal is 0. It starts the engine (CLONE_VFORK, then execve), waits for it and reaps it, so the
// engine - whose exit signal execve resets to SIGCHLD - is never the host's child. The engine and
// its probes share one process group: one kill ends them all, at the deadline or when the engine
// ends, so nothing of ours outlives the decision. When the shim asks for the loader's own file to
// be probed, that probe starts first, on a stack of its own and without waiting for its execve,
// and leads the group the engine joins: the probe's load of the family is most of a first
// decision's time, and the engine's start (its execve, 1.3 ms here) no longer comes before it.
//
// The keeper is no child of the host either: a short-lived intermediate (CLONE_VM, exit signal 0,
// reaped by the host at once with __WCLONE) creates it and ends, and the kernel hands the keeper
// to the nearest subreaper above the host, or to init. A child of the host would be a child of
// whatever program the host execs into, and the kernel notifies a parent that has exec'd since
// with SIGCHLD whatever the exit signal (kernel/signal.c, do_notify_parent): the new program
// would get a signal and a zombie it cannot reap with plain wait(). Where the host adopts orphans
// itself (a subreaper, PID 1 of a namespace) the orphan would come back to it, so there the keeper
// is the host's own child, as before (docs/shim.md: what remains).
//
// The keeper is a child subreaper, and the engine's ancestor: a probe whose engine dies first is
// handed to the keeper, and the keeper reaps every one of them before it ends. It shares the
// host's memory, so it must not outlive the host's interest: it watches the host (a pidfd) and
// the answer pipe (no reader left: the host died or ran execve), and ends the engine at once then.
#include "run_engine.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>

#include "arena.h"
#include "environment.h"
#include "host_status.h"
#include "shim_text.h"
#include "sys.h"

extern long shim_clone(unsigned long flags, void *stack_top, int (*fn)(void *), void *arg,
                       int *pidfd, int *child_tid);

enum { kStack = 16 * 1024, kSmallStack = 2048, kAnswerLimit = 1 << 20 };
// The stack the engine and the probe get where the hard limit allows (the usual default), and what
// the engine needs at least (it died at 64 KiB, ran at 128 KiB).
enum { kEngineStack = 8 << 20, kEngineStackNeed = 256 << 10 };
static char keeper_stack[kStack] __attribute__((aligned(16)));
static char exec_stack[kStack] __attribute__((aligned(16)));
static char probe_stack[kStack] __attribute__((aligned(16)));
static char start_stack[kSmallStack] __attribute__((aligned(16)));  // the intermediate's

// Shared by the host thread, the intermediate, the keeper and the engine's child before its exec
// (CLONE_VM).
static struct {
  char *const *argv, *const *envp;
  const struct engine_probe *probe;  // 0: the engine probes the loader's file itself
  int probe_in, probe_out;           // the probe's pipe: the engine reads, the probe writes
  int out;                           // the answer pipe's write end
  int host;                          // a pidfd of the host, or -1
  int clone_errno;   // set by the keeper when the engine's process could not be made
  int exec_errno;    // set by the child when execve fails
  int group;         // the process group the engine is to join: the probe's, or 0 (its own)
  int engine;        // the process group of the engine (and its probes) once it runs
  int done;          // the keeper has reaped the engine
  int abandoned;     // the host has stopped waiting: end the engine now
  long deadline_ms;  // the keeper keeps it too, so the engine ends even if the host is gone
  long keeper;       // the keeper's pid or -errno, as the intermediate made it
  int keeper_pidfd;  // where the kernel puts the keeper's pidfd (CLONE_PIDFD)
  int released;      // the intermediate is reaped (a futex word)
} job;

// A keeper of ours that may not have ended yet: its stack is not free for the next decision.
static struct {
  int pid;    // 0: none
  int child;  // the host's own child, reaped here; else an orphan, ended when `alive` is 0
  int owner;  // the process that made it: a child forked since has stacks no keeper uses
} kept;
static int keeper_alive;  // CLONE_CHILD_CLEARTID: the kernel clears it once the keeper has ended

// Every fd but a and b (-1: none): the keeper holds copies of the host's (its pipes, its stdout),
// and none may stay open in a process of ours, whatever becomes of the host.
static void close_all_but(int a, int b) {
  const int keep[2] = {a < b ? a : b, a < b ? b : a};
  long from = 0, ok = 1;
  for (int i = 0; i < 2; ++i) {
    if (keep[i] < from) continue;  // -1, or both the same
    if (keep[i] > from) ok &= sys(436 /* SYS_close_range */, from, keep[i] - 1, 0) == 0;
    from = keep[i] + 1;
  }
  ok &= sys(436 /* SYS_close_range */, from, ~0u, 0) == 0;
  for (int fd = 0; !ok && fd < 1024; ++fd)  // a kernel before close_range (5.9)
    if (fd != a && fd != b) sys(SYS_close, fd, 0, 0);
}

// Every fd from first up: the engine must not hold the host's pipes or sockets open.
static void close_from(long first) {
  if (sys(436 /* SYS_close_range */, first, ~0u, 0) == 0) return;
  const long dir = sys(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY);
  char entries[1024];
  for (long n; dir >= 0 && (n = sys(SYS_getdents64, dir, entries, sizeof entries)) > 0;) {
    for (long at = 0; at < n;) {
      const unsigned short length = *(unsigned short *)(entries + at + 16);
      long fd = 0;
      for (const char *c = entries + at + 19; *c >= '0' && *c <= '9'; ++c) fd = fd * 10 + *c - '0';
      if (fd >= first && fd != dir) sys(SYS_close, fd, 0, 0);
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

// In a child of ours, before execve: fd 1 on out, fd 2 too when err_out (else /dev/null, as fd 0
// is), fd 3 on keep (-1: none), and nothing else of the host's. 0 when out could not be placed.
static int own_fds(int out, int err_out, int keep) {
  // Above 3 first: fds 0-3 may be any of them, or closed.
  const long o = sys(SYS_fcntl, out, F_DUPFD, 4);
  const long k = keep >= 0 ? sys(SYS_fcntl, keep, F_DUPFD, 4) : -1;
  const long null = sys(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR);
  const long null_high = null >= 0 ? sys(SYS_fcntl, null, F_DUPFD, 4) : -1;
  if (o < 0 || (keep >= 0 && k < 0)) return 0;
  sys(SYS_dup3, o, 1, 0);
  for (int fd = 0; fd <= 2; fd += 2) {
    const long from = fd == 2 && err_out ? o : null_high;
    if (from < 0 || sys(SYS_dup3, from, fd, 0) < 0) sys(SYS_close, fd, 0, 0);
  }
  if (k >= 0) sys(SYS_dup3, k, 3, 0);  // dup3 without O_CLOEXEC: it passes through execve
  close_from(k >= 0 ? 4 : 3);
  return 1;
}

// What start_keeper blocked, and the host's own mask, would pass through execve too. The
// dispositions are the keeper's defaults by now: a signal let in here runs no host code.
static long exec_unmasked(char *const *argv, char *const *envp) {
  const unsigned long none = 0;
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &none, 0, 8);
  return sys(SYS_execve, argv[0], argv, envp);
}

// In the engine's child, before execve: nothing of the host's but the environment goes along.
static int exec_child(void *unused) {
  (void)unused;
  if (!job.group || sys(SYS_setpgid, 0, job.group, 0) != 0) sys(SYS_setpgid, 0, 0, 0);
  if (!own_fds(job.out, 0, job.probe_in)) return 127;
  const long r = exec_unmasked(job.argv, job.envp);
  __atomic_store_n(&job.exec_errno, (int)-r, __ATOMIC_SEQ_CST);
  return 127;
}

// In the probe's child, before execve: it leads the group the engine will join (the keeper sets
// it too, whichever runs first), so that whatever ends the engine ends it too.
static int probe_child(void *unused) {
  (void)unused;
  sys(SYS_setpgid, 0, 0, 0);
  if (!own_fds(job.probe_out, 1, -1)) return 127;
  exec_unmasked(job.probe->argv, job.probe->envp);
  return 127;  // the engine reads no answer, and probes the library itself
}

// The probe of the loader's file, started before the engine and not waited for: its pid, the
// group the engine joins, or 0. Unreaped until the group has been killed (the keeper reaps it
// last), so the group's id cannot be reused meanwhile.
static int start_probe(void) {
  if (!job.probe) return 0;
  const long pid = shim_clone(CLONE_VM | SIGCHLD, probe_stack + kStack, probe_child, 0, 0, 0);
  if (pid <= 0) return 0;         // the engine probes the library itself
  sys(SYS_setpgid, pid, pid, 0);  // fails once it has run execve: it set it itself before
  return (int)pid;
}

// Waits until the engine has ended, or the deadline has passed, or the host has stopped waiting,
// or the host is gone: killed (pidfd), or no longer reading the answer (it ran execve). The
// engine is left a zombie, and so is a probe that leads its group: their pids, and so the group,
// cannot be reused until they are reaped, so ending the group afterwards cannot hit anyone else's
// processes.
static void await_engine(long pid) {
  const long pidfd = sys(434 /* SYS_pidfd_open */, pid, 0, 0);
  int info[32];
  for (;;) {
    info[4] = 0;  // si_pid: WNOHANG leaves it 0 while the engine runs
    const long r = sys6(SYS_waitid, P_PID, pid, (long)info, WEXITED | WNOHANG | WNOWAIT, 0, 0);
    if ((r == 0 && info[4] != 0) || (r < 0 && r != -EINTR)) break;
    const long left = job.deadline_ms - now_ms();
    if (left <= 0 || __atomic_load_n(&job.abandoned, __ATOMIC_SEQ_CST)) break;
    // The pipe's write end reports POLLERR, asked or not, once no reader is left.
    struct pollfd p[3] = {{(int)pidfd, POLLIN, 0}, {job.host, POLLIN, 0}, {job.out, 0, 0}};
    // Without a pidfd (a kernel before 5.3) it looks again every 5 ms.
    sys(SYS_poll, p, 3, left < 50 ? left : (pidfd >= 0 ? 50 : 5));
    if (p[1].revents || p[2].revents) break;
  }
  if (pidfd >= 0) sys(SYS_close, pidfd, 0, 0);
}

// Waits until the probe that led the engine's group, killed with it, has exited: its teardown of
// the whole family takes a moment after the engine's answer, which naps of a millisecond would
// round up. On its pidfd, at most ENGINE_GRACE_MS; it stays unreaped until reap_orphans.
static void await_probe(int pid) {
  const long pidfd = pid > 0 ? sys(434 /* SYS_pidfd_open */, pid, 0, 0) : -1;
  if (pidfd < 0) return;
  struct pollfd p = {(int)pidfd, POLLIN, 0};
  for (const long give_up = now_ms() + ENGINE_GRACE_MS;;) {
    const long left = give_up - now_ms();
    if (left <= 0 || sys(SYS_poll, &p, 1, left) != -EINTR) break;
  }
  sys(SYS_close, pidfd, 0, 0);
}

// Reaps what the engine left to the keeper: the group has been killed, so each is gone or going;
// a process that left the group and lives on is given up after a second.
static void reap_orphans(void) {
  const long give_up = now_ms() + ENGINE_GRACE_MS;
  for (int status;;) {
    const long r = sys4(SYS_wait4, -1, &status, __WALL | WNOHANG, 0);
    if (r > 0 || r == -EINTR) continue;
    if (r < 0 || now_ms() >= give_up) return;  // ECHILD: every one of them is reaped
    nap_ms(1);
  }
}

// An intermediate counts against the user's process limit (ulimit -u) until the host has reaped
// it: the keeper waits for that (a moment; at most 100 ms), so that the engine and its probes need
// no more room than with a keeper that is the host's child.
static void await_release(void) {
  const struct { long sec, nsec; } ms = {0, 1000L * 1000};
  for (long until = now_ms() + 100;
       !__atomic_load_n(&job.released, __ATOMIC_SEQ_CST) && now_ms() < until;)
    sys4(SYS_futex, &job.released, FUTEX_WAIT_PRIVATE, 0, &ms);
}

// The engine's process, with the keeper's vfork-style wait for its execve. When the kernel has no
// room for it (a process limit, memory) while the probe runs, the probe gives way: the engine can
// probe the file itself, so the probe is ended and reaped, and the engine tried once more alone.
static long start_engine_child(void) {
  long pid = shim_clone(CLONE_VM | CLONE_VFORK | SIGCHLD, exec_stack + kStack, exec_child, 0, 0, 0);
  if (pid >= 0 || !job.group) return pid;
  sys(SYS_kill, job.group, SIGKILL, 0);
  while (sys4(SYS_wait4, job.group, 0, __WALL, 0) == -EINTR) {
  }
  job.group = 0;
  return shim_clone(CLONE_VM | CLONE_VFORK | SIGCHLD, exec_stack + kStack, exec_child, 0, 0, 0);
}

// The engine and the probe start with a stack limit of their own: a host's small one (ulimit -s
// 64, enough for it) killed the engine at start, and the load went undecided (an outside tester's
// finding). The soft limit is raised as far as the hard one allows, in the keeper alone.
static void engine_stack_limit(void) {
  struct rlimit limit;
  if (sys4(SYS_prlimit64, 0, RLIMIT_STACK, 0, &limit) != 0 || limit.rlim_cur >= kEngineStack)
    return;
  limit.rlim_cur = limit.rlim_max < kEngineStack ? limit.rlim_max : kEngineStack;
  sys4(SYS_prlimit64, 0, RLIMIT_STACK, &limit, 0);
}

int engine_stack_short(void) {
  struct rlimit limit;
  return sys4(SYS_prlimit64, 0, RLIMIT_STACK, 0, &limit) == 0 && limit.rlim_max < kEngineStackNeed;
}

static int keeper(void *unused) {
  (void)unused;
  // A name of its own (ps, top, an epilog's check): it is not the host, whose memory it shares.
  sys(SYS_prctl, PR_SET_NAME, "cudnn-compat", 0);
  // Before the engine starts: the kernel hands orphans to the nearest subreaper among their
  // ancestors, and marks the engine as having one only when it is created.
  sys(SYS_prctl, PR_SET_CHILD_SUBREAPER, 1, 0);
  default_signals();
  engine_stack_limit();
  await_release();
  job.group = start_probe();
  const long pid = start_engine_child();
  // The group the engine is in: the probe's, or its own when it could not join it (the probe's
  // group is then ended apart).
  const long group = pid > 0 ? sys(SYS_getpgid, pid, 0, 0) : 0;
  // Its copy of the answer pipe's write end tells it when the host no longer reads; the probe's
  // pipe is the engine's and the probe's alone.
  close_all_but(job.out, job.host);
  if (pid < 0) {
    __atomic_store_n(&job.clone_errno, (int)-pid, __ATOMIC_SEQ_CST);
    if (job.group) sys(SYS_kill, -job.group, SIGKILL, 0), reap_orphans();
    return 0;
  }
  if (!__atomic_load_n(&job.exec_errno, __ATOMIC_SEQ_CST) && group > 0)
    __atomic_store_n(&job.engine, (int)group, __ATOMIC_SEQ_CST);
  await_engine(pid);
  // Whatever the engine started and left behind ends with it; so does an engine past the deadline
  // or one the host has stopped waiting for (the keeper keeps the deadline even if the host dies).
  sys(SYS_kill, group > 0 ? -group : pid, SIGKILL, 0);
  if (job.group && job.group != group) sys(SYS_kill, -job.group, SIGKILL, 0);
  int status = 0;
  while (sys4(SYS_wait4, pid, &status, 0, 0) == -EINTR) {
  }
  __atomic_store_n(&job.done, 1, __ATOMIC_SEQ_CST);
  await_probe(job.group);
  reap_orphans();
  return 0;
}

// The intermediate: makes the keeper and ends, leaving it an orphan.
static int start_orphan(void *unused) {
  (void)unused;
  job.keeper = shim_clone(CLONE_VM | CLONE_PIDFD | CLONE_CHILD_CLEARTID, keeper_stack + kStack,
                          keeper, 0, &job.keeper_pidfd, &keeper_alive);
  return 0;
}

// Whether the keeper of the last decision has ended (its stacks are free again).
static int keeper_ended(void) {
  if (!kept.pid) return 1;
  if (kept.owner != sys(SYS_getpid, 0, 0, 0)) {  // the kernel clears the word in the maker's memory
    kept.pid = 0;
    return 1;
  }
  if (!kept.child && __atomic_load_n(&keeper_alive, __ATOMIC_SEQ_CST)) return 0;
  long r = 1;
  while (kept.child && (r = sys4(SYS_wait4, kept.pid, 0, __WCLONE | WNOHANG, 0)) == -EINTR) {
  }
  if (r == 0) return 0;  // still running
  kept.pid = 0;
  return 1;
}

static long start_orphan_keeper(int *pidfd) {
  __atomic_store_n(&keeper_alive, 1, __ATOMIC_SEQ_CST);
  job.keeper = -EINVAL, job.keeper_pidfd = -1, job.released = 0;
  // CLONE_FILES: the keeper's pidfd lands in the host's table.
  const long mid =
      shim_clone(CLONE_VM | CLONE_FILES, start_stack + kSmallStack, start_orphan, 0, 0, 0);
  int status = 0;
  while (mid > 0 && sys4(SYS_wait4, mid, &status, __WCLONE, 0) == -EINTR) {
  }
  const long pid = mid > 0 ? job.keeper : mid;
  if (pid < 0) __atomic_store_n(&keeper_alive, 0, __ATOMIC_SEQ_CST);
  *pidfd = job.keeper_pidfd;
  __atomic_store_n(&job.released, 1, __ATOMIC_SEQ_CST);
  sys4(SYS_futex, &job.released, FUTEX_WAKE_PRIVATE, 1, 0);
  return pid;
}

static long start_keeper(int *pidfd) {
  unsigned long all = ~0ul, old = 0;
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, 8);
  kept.child = !orphans_reaped();
  long pid = kept.child ? -EINVAL : start_orphan_keeper(pidfd);
  if (pid == -EINVAL) {  // an orphan would not be reaped, or a kernel before pidfds (5.2)
    kept.child = 1, job.released = 1;
    pid = shim_clone(CLONE_VM | CLONE_PIDFD, keeper_stack + kStack, keeper, 0, pidfd, 0);
    if (pid == -EINVAL) pid = shim_clone(CLONE_VM, keeper_stack + kStack, keeper, 0, 0, 0);
  }
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
  return pid;
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

// Reads the answer until it is complete, or the keeper ends (the engine has been reaped), or the
// deadline passes. A complete answer ends the wait: what the engine and its probes still do is
// end (the engine writes its memo before it answers), and the keeper that sees this side stop
// reading ends them and reaps them while the host goes on - unless the keeper is the host's own
// child, which is reaped here.
static int collect(int in, int pidfd, long deadline_ms, struct file_text *answer) {
  static char block[4096];
  for (int eof = 0;;) {
    const long left = deadline_ms - now_ms();
    if (left <= 0) return 0;
    struct pollfd p[2] = {{eof ? -1 : in, POLLIN, 0}, {pidfd, POLLIN, 0}};
    // Without a pidfd the keeper's end is looked for every 5 ms.
    const long r = sys(SYS_poll, p, 2, pidfd >= 0 ? left : (left < 5 ? left : 5));
    if (r == -EINTR) continue;  // a host's interval timer: the deadline still holds
    if (r < 0) return 0;
    if (p[0].revents) {
      const long n = sys_retry(SYS_read, in, block, sizeof block);
      if (n <= 0) eof = 1;
      if (n > 0 && (answer->size + n > kAnswerLimit || !text_append(answer, block, n))) return 0;
      if (n > 0 && !kept.child && answer_complete(answer)) return 1;
      continue;  // drain the pipe before looking at the keeper
    }
    if ((pidfd >= 0 ? p[1].revents != 0 : 1) && keeper_ended()) return 1;
  }
}

static void close_fd(int fd) {
  if (fd >= 0) sys(SYS_close, fd, 0, 0);
}

// Starts the keeper for argv and returns its pid, or -errno; fds are the answer pipe, probe_fds
// the probe's ({-1, -1}: the engine probes alone).
static long start_engine(char *const *argv, char *const *envp, long deadline_ms, const int fds[2],
                         const int probe_fds[2], int *pidfd) {
  job.argv = argv, job.envp = envp, job.out = fds[1], job.deadline_ms = deadline_ms;
  job.probe_in = probe_fds[0], job.probe_out = probe_fds[1];
  job.clone_errno = 0, job.exec_errno = 0, job.engine = 0, job.done = 0, job.abandoned = 0;
  job.host = (int)sys(434 /* SYS_pidfd_open */, sys(SYS_getpid, 0, 0, 0), 0, 0);
  const long pid = start_keeper(pidfd);
  close_fd(job.host);  // the keeper has its copy, and so of the probe's pipe
  close_fd(fds[1]);
  close_fd(probe_fds[0]);
  close_fd(probe_fds[1]);
  if (pid > 0) kept.pid = (int)pid, kept.owner = (int)sys(SYS_getpid, 0, 0, 0);
  return pid;
}

int engine_ready(long deadline_ms, enum engine_result *why) {
  // The last decision's keeper ends its engine as soon as the answer is in: a moment.
  for (; !keeper_ended(); nap_ms(1))
    if (now_ms() >= deadline_ms) return *why = ENGINE_BUSY, 0;
  if (seccomp_filtered()) return *why = ENGINE_FILTERED, 0;
  return 1;
}

enum engine_result run_engine(char *const *argv, char *const *envp,
                              const struct engine_probe *probe, long deadline_ms,
                              const char **answer, int *error) {
  static struct file_text text;
  file_free(&text);
  *answer = "";
  *error = 0;
  int fds[2], probe_fds[2] = {-1, -1}, pidfd = -1;
  // Without a pipe for it, the engine probes the file itself (it finds no probe on its fd).
  job.probe = probe && sys(SYS_pipe2, probe_fds, O_CLOEXEC, 0) == 0 ? probe : 0;
  const long pipe = sys(SYS_pipe2, fds, O_CLOEXEC, 0);
  const long pid = pipe == 0 ? start_engine(argv, envp, deadline_ms, fds, probe_fds, &pidfd) : pipe;
  if (pid < 0) {
    if (pipe == 0) close_fd(fds[0]);
    if (pipe != 0) close_fd(probe_fds[0]), close_fd(probe_fds[1]);
    *error = (int)-pid;
    return ENGINE_NOT_RUN;
  }
  const int ended = collect(fds[0], pidfd, deadline_ms, &text);
  if (!ended) {
    // Dekker's handshake with the keeper, which publishes the engine's group and then reads
    // abandoned: this side writes abandoned and then reads the pid, so one of the two ends it.
    __atomic_store_n(&job.abandoned, 1, __ATOMIC_SEQ_CST);
    const int engine = __atomic_load_n(&job.engine, __ATOMIC_SEQ_CST);
    if (engine > 0 && !__atomic_load_n(&job.done, __ATOMIC_SEQ_CST))
      sys(SYS_kill, -engine, SIGKILL, 0);  // the engine and its probes, together
    // The keeper ends as soon as the engine is reaped; give it a second, never the host's life.
    for (long until = now_ms() + ENGINE_GRACE_MS; !keeper_ended() && now_ms() < until;) nap_ms(2);
  }
  close_fd(fds[0]);
  close_fd(pidfd);
  if ((*error = __atomic_load_n(&job.exec_errno, __ATOMIC_SEQ_CST))) return ENGINE_MISSING;
  if ((*error = __atomic_load_n(&job.clone_errno, __ATOMIC_SEQ_CST))) return ENGINE_NOT_RUN;
  if (text.data) *answer = text.data;
  if (answer_complete(&text)) return ENGINE_ANSWERED;
  return ended ? ENGINE_SILENT : ENGINE_LATE;
}
