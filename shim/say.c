#include "say.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/uio.h>

#include "environment.h"
#include "host_status.h"
#include "shim_text.h"
#include "sys.h"
#include "syslog_socket.h"

// At most this much: a pipe that shows writable has at least one free page, so a line that fits
// in it cannot block.
enum { kLine = 4096 };

// fd 2 as the process started with it (whoever started it chose it: a terminal, a pipe, a log
// file). A host that later puts a data file there, or opens one into a closed fd 2, must not find
// the shim's line inside it: the line goes to fd 2 only while it is still that file.
static struct {
  int open;
  unsigned long dev, ino;
} started;

__attribute__((constructor)) static void note_stderr(void) {
  unsigned long st[18];  // struct stat: st_dev, st_ino first
  if (sys(SYS_fstat, 2, st, 0) == 0) started.open = 1, started.dev = st[0], started.ino = st[1];
}

static int stderr_as_started(void) {
  unsigned long st[18];
  return started.open && sys(SYS_fstat, 2, st, 0) == 0 && st[0] == started.dev &&
         st[1] == started.ino;
}

static int sigpipe_pending(void) {
  unsigned long pending = 0;
  sys(SYS_rt_sigpending, &pending, 8, 0);
  return (pending >> (SIGPIPE - 1)) & 1;
}

static void write_line(long fd, const char *line) {
  struct pollfd p = {(int)fd, POLLOUT, 0};
  if (sys_retry(SYS_poll, &p, 1, 0) != 1 || !(p.revents & POLLOUT)) return;
  // With SIGPIPE blocked, a write to a pipe nobody reads fails with EPIPE and leaves the signal
  // pending; taking it back, unless the host had one pending already, leaves the host as it was.
  unsigned long block = 1ul << (SIGPIPE - 1), old = 0;
  sys4(SYS_rt_sigprocmask, SIG_BLOCK, &block, &old, 8);
  const int had = sigpipe_pending();
  long n = text_len(line);
  if (n > kLine) n = kLine;
  // A line cut short still ends its line, in the same write: the host's next output must not run
  // on from ours.
  const int ends = n && line[n - 1] == '\n';
  if (!ends && n == kLine) --n;
  const struct iovec parts[2] = {{(void *)line, (unsigned long)n}, {(void *)"\n", 1}};
  const long r = sys_retry(SYS_writev, fd, parts, ends ? 1 : 2);
  if (r == -EPIPE && !had) {
    const struct { long sec, nsec; } zero = {0, 0};
    sys4(SYS_rt_sigtimedwait, &block, 0, &zero, 8);
  }
  sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, 0, 8);
}

// Appended (one write: whole lines from many processes), never waited for: a FIFO without a
// reader is not opened, a full one is not written. Made where it is not there, unless `create`
// is 0. Returns whether it was opened.
static int to_file(const char *path, const char *line, int create) {
  const long fd =
      sys4(SYS_openat, AT_FDCWD, path,
           O_WRONLY | O_APPEND | (create ? O_CREAT : 0) | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0644);
  if (fd < 0) return 0;
  write_line(fd, line);
  sys(SYS_close, fd, 0, 0);
  return 1;
}

// One datagram to the local syslog socket, as syslog(3) sends it (facility user, severity
// warning, tagged cudnn-compat[pid]), never waited for; nothing when no syslog listens there.
static void to_syslog(const char *line) {
  const char *text = after_prefix(line, "cudnn-compat: ") ? line + 14 : line;
  long length = text_len(text);
  if (length > kLine) length = kLine;
  if (length && text[length - 1] == '\n') --length;
  syslog_send(12, "cudnn-compat", text, length);
}

static const char *lead;               // say_with_next()'s text, while a decision may still speak
static const char *(*tail)(void) = 0;  // say_ending_with()'s

void say_with_next(const char *text) {
  lead = text;
}

void say_ending_with(const char *(*text)(void)) {
  tail = text;
}

void say_held(void) {
  const char *text = lead;
  lead = 0, tail = 0;
  if (text) say(text);
}

// One line for the load: the slip first, then what the decision says (its own prefix dropped),
// then what it is about where the process asked under another name.
static const char *composed(const char *line) {
  static char out[kLine + 1];
  long n = 0;
  if (lead) {
    n = append_text(out, sizeof out, 0, lead);
    if (n && out[n - 1] == '\n') --n;
    n = append_text(out, sizeof out, n, "; ");
    const char *rest = after_prefix(line, "cudnn-compat: ");
    line = rest ? rest : line;
  }
  n = append_text(out, sizeof out, n, line);
  if (tail) {
    if (n && out[n - 1] == '\n') --n;
    n = append_text(out, sizeof out, append_text(out, sizeof out, n, " ("), tail());
    append_text(out, sizeof out, n, ")\n");
  }
  lead = 0, tail = 0;
  return out;
}

void say(const char *line) {
  if (lead || tail) line = composed(line);
  // The line said last, said again (a retried dlopen under LD_AUDIT, which decides each failed
  // load anew; 16 threads asking at once): once is enough (helper 92).
  static unsigned long said_last;
  unsigned long hash = 1469598103934665603ul;  // FNV-1a
  for (const char *c = line; *c; ++c) hash = (hash ^ (unsigned char)*c) * 1099511628211ul;
  if (hash == said_last) return;
  said_last = hash;
  // Read as the line is said: CUDNN_COMPAT_* count as they are when the load happens.
  const char *to = env_value(current_environment(), "CUDNN_COMPAT_LOG");
  const int syslog = to && text_eq(to, "syslog"), file = to && *to == '/';
  // A seccomp filter may kill the host for a socket or a file made (systemd's ~@network-io, a
  // sandbox's O_CREAT), which the host itself may never ask for: under one, the log file only if
  // it is there, else stderr, as the loader's own messages go (an outside tester's finding).
  const int filtered = (syslog || file) && seccomp_filtered();
  if (syslog && !filtered)
    to_syslog(line);
  else if (file && (to_file(to, line, !filtered) || !filtered))
    return;
  else if (stderr_as_started())
    write_line(2, line);
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
