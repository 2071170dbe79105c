#include "say.h"

#include <poll.h>
#include <signal.h>

#include "shim_text.h"
#include "sys.h"

// At most this much: a pipe that shows writable has at least one free page, so a line that fits
// in it cannot block.
enum { kLine = 4096 };

static int sigpipe_pending(void) {
  unsigned long pending = 0;
  sys(SYS_rt_sigpending, &pending, 8, 0);
  return (pending >> (SIGPIPE - 1)) & 1;
}

void say(const char *line) {
  struct pollfd p = {2, POLLOUT, 0};
  if (sys_retry(SYS_poll, &p, 1, 0) != 1 || !(p.revents & POLLOUT)) return;
  // With SIGPIPE blocked, a write to a pipe nobody reads fails with EPIPE and leaves the signal
  // pending; taking it back, unless the host had one pending already, leaves the host as it was.
  unsigned long block = 1ul << (SIGPIPE - 1), old = 0;
  sys4(SYS_rt_sigprocmask, SIG_BLOCK, &block, &old, 8);
  const int had = sigpipe_pending();
  long n = text_len(line);
  if (n > kLine) n = kLine;
  const long r = sys_retry(SYS_write, 2, line, n);
  if (r == -32 /* EPIPE */ && !had) {
    const struct { long sec, nsec; } zero = {0, 0};
    sys4(SYS_rt_sigtimedwait, &block, 0, &zero, 8);
  }
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
}

void say_parts(const char *const *parts) {
  static char line[kLine + 1];  // callers hold the shim's lock; a 16 KiB thread stack has no room
  long n = 0;
  for (; *parts; ++parts) n = append_text(line, sizeof line, n, *parts);
  say(line);
}

void errno_text(int error, char *out, long size) {
  static const struct {
    int number;
    const char *text;
  } known[] = {
      {1, "EPERM: not permitted (a security policy?)"},
      {2, "ENOENT: no such file"},
      {7, "E2BIG: its arguments and environment are too large"},
      {8, "ENOEXEC: not a program for this machine"},
      {11, "EAGAIN: the limit on processes (ulimit -u, a cgroup's pids.max) is reached"},
      {12, "ENOMEM: out of memory"},
      {13, "EACCES: no permission to run it (its mode, or a noexec mount)"},
      {23, "ENFILE: too many open files"},
      {24, "EMFILE: too many open files"},
      {26, "ETXTBSY: it is being written"},
      {38, "ENOSYS: the kernel or a sandbox does not offer the system call"},
  };
  for (unsigned long i = 0; i < sizeof known / sizeof *known; ++i)
    if (known[i].number == error) {
      copy_text(out, size, known[i].text);
      return;
    }
  char number[24];
  append_text(out, size, append_text(out, size, 0, "errno "),
              format_decimal((unsigned long)error, number));
}
