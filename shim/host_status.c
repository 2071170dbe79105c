#include "host_status.h"

#include <fcntl.h>
#include <linux/prctl.h>
#include <signal.h>

#include "arena.h"
#include "shim_text.h"
#include "sys.h"

// The value of a field of a /proc status text ("Seccomp:\t2"), or 0.
static const char *field(const char *status, const char *name) {
  for (const char *line = status; *line;) {
    const char *value = after_prefix(line, name);
    if (value) {
      while (*value == '\t' || *value == ' ') ++value;
      return value;
    }
    while (*line && *line++ != '\n') {
    }
  }
  return 0;
}

static long proc_seccomp_mode(void) {
  struct file_text f;
  const char *mode = file_read("/proc/thread-self/status", &f) ? field(f.data, "Seccomp:") : 0;
  const long m = mode && *mode >= '0' && *mode <= '9' ? *mode - '0' : -1;
  file_free(&f);
  return m;
}

// The kernel says which mode this thread is in through /proc, which no filter refuses to a
// dynamically loaded process (ld.so itself opens files); prctl is asked only where /proc says
// nothing, since a filter may kill the process for it (an outside tester's filter did). /proc's
// answer costs 11-45 us here, once per decision that starts the engine or sends a record.
int seccomp_filtered(void) {
  long m = proc_seccomp_mode();
  if (m < 0) m = sys(SYS_prctl, PR_GET_SECCOMP, 0, 0);
  return m != 0 && m != -EINVAL;  // -EINVAL: a kernel without seccomp; another error: refused
}

// ---------------------------------------------------------------------------------------------
// What /proc says through the loader's own calls (openat, read, close): no filter that lets the
// process load a library can kill it for them.

// /proc/sys/kernel/hostname is the reader's own UTS namespace's nodename and a line break, all of
// it in one read (at most 64 bytes and the break).
int proc_host_name(char out[65]) {
  char text[72];
  const long fd =
      sys_retry(SYS_openat, AT_FDCWD, "/proc/sys/kernel/hostname", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  const long n = sys_retry(SYS_read, fd, text, sizeof text);
  sys(SYS_close, fd, 0, 0);
  if (n < 1 || n > 65 || text[n - 1] != '\n') return 0;
  for (long i = 0; i < n - 1; ++i) out[i] = text[i];
  out[n - 1] = 0;
  return 1;
}

// /proc/self/maps read in small pieces, its whole lines searched after each: the kernel formats
// only as many lines as a read asks for (here, the least of 200 reads in a process that maps
// cuDNN 9: 7 us for 256 bytes, 29 us for 4096), and the program's headers are in its first
// mapping, usually the first line. Its path there is the
// kernel's d_path of the file, as readlink of /proc/self/exe gives it (" (deleted)" included),
// except that a line break in it is written "\012", which a name could also hold as it is: a
// path with a backslash is not taken.
const char *proc_mapped_path(unsigned long at, char *out, long size) {
  const long fd =
      at ? sys_retry(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC) : -1;
  const char *found = 0;
  long got = 0, n = 1;
  while (fd >= 0 && !found && n > 0 && got < size - 1) {
    n = sys_retry(SYS_read, fd, out + got, size - 1 - got < 256 ? size - 1 - got : 256);
    got += n > 0 ? n : 0;
    long whole = got;
    while (whole > 0 && out[whole - 1] != '\n') --whole;
    const char after = out[whole];
    out[whole] = 0;
    found = mapping_path(out, at);
    out[whole] = after;
  }
  if (fd >= 0) sys(SYS_close, fd, 0, 0);
  for (const char *c = found; c && *c; ++c)
    if (*c == '\\') return 0;
  long k = 0;
  for (; found && found[k]; ++k) out[k] = found[k];
  out[k] = 0;
  return found ? out : 0;
}

int seccomp_maybe_filtered(void) {
  return proc_seccomp_mode() != 0;  // -1: /proc says nothing (not mounted), a filter assumed
}

static unsigned long hex(const char *s) {
  unsigned long n = 0;
  for (;; ++s) {
    const int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
    if (d < 0) return n;
    n = n * 16 + (unsigned long)d;
  }
}

// Whether /proc is this process's PID namespace's (NSpid lists one pid) and its PID 1 blocks,
// catches or ignores SIGCHLD: every init and shell that reaps does one of these (systemd and tini
// block it for signalfd or sigwait, bash catches it); one that does none cannot learn of an
// orphan's end and never reaps it (a VM's init seen here). The kernel hands orphans to the nearest
// subreaper above the host first, which cannot be seen: such a site is judged by its PID 1 alone.
static int init_reaps(void) {
  struct file_text own, init;
  const char *nspid = file_read("/proc/self/status", &own) ? field(own.data, "NSpid:") : 0;
  int ours = nspid && *nspid >= '1' && *nspid <= '9';
  while (ours && *nspid >= '0' && *nspid <= '9') ++nspid;
  ours = ours && (*nspid == '\n' || !*nspid);
  file_free(&own);
  if (!ours || !file_read("/proc/1/status", &init)) return 0;
  const char *fields[] = {"SigBlk:", "SigIgn:", "SigCgt:"};
  unsigned long handled = 0;
  for (int i = 0; i < 3; ++i) {
    const char *v = field(init.data, fields[i]);
    if (v) handled |= hex(v);
  }
  file_free(&init);
  return (handled >> (SIGCHLD - 1)) & 1;
}

int orphans_reaped(void) {
  static int verdict = -1;  // PID 1 does not change how it handles SIGCHLD: asked once
  int subreaper = 0;
  if (sys(SYS_getpid, 0, 0, 0) == 1 ||
      (sys(SYS_prctl, PR_GET_CHILD_SUBREAPER, &subreaper, 0) == 0 && subreaper))
    return 0;
  if (verdict < 0) verdict = init_reaps();
  return verdict;
}
