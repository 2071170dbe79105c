/* Raw system calls (../sys.h): the shim carries no libc, and the engine asks the same question
 * the same way. */
#include "loadable.h"

#include <fcntl.h>
#include <sys/mman.h>

#include "../sys.h"

#define SYS_faccessat2_ 439 /* Linux 5.8 */

/* A call the kernel lacks, or a seccomp filter denies as such (older container profiles answer
 * what they do not know with EPERM): no answer. */
static int unanswered(long r) {
  return r == -ENOSYS || r == -EPERM;
}

/* One lookup of the path, which on a shared file system is what counts (a 10,000-rank job makes
 * it 10,000 times): the open asks with the effective ids, as ld.so's does, and an executable
 * mapping of the open file meets every refusal ld.so's would (a noexec mount, a security module's
 * execute check). */
int cudnn_compat_loadable(const char *path, struct stat *st) {
  const long fd =
      sys_retry(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return 0;
  int ok = sys(SYS_fstat, fd, st, 0) == 0 && S_ISREG(st->st_mode);
  if (ok) {
    const long at = sys6(SYS_mmap, 0, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
    /* Out of address space or memory for a moment is no word about the file. */
    if (at < 0 && at > -4096)
      ok = at == -ENOMEM || at == -EAGAIN;
    else
      sys(SYS_munmap, at, 4096, 0);
  }
  sys(SYS_close, fd, 0, 0);
  return ok;
}

/* Linux asks the owner's bits of the owner, the group's of a member, the others' of everyone else.
 * 1 they let this process read, 0 they do not or membership is not known (more groups than
 * looked through, or a call refused). */
static int bits_let_read(const struct stat *st) {
  enum { kGroups = 256 };
  static unsigned int groups[kGroups];
  const unsigned long euid = (unsigned long)sys(SYS_geteuid, 0, 0, 0);
  if (st->st_uid == euid) return (st->st_mode & S_IRUSR) != 0;
  const int group = (st->st_mode & S_IRGRP) != 0, others = (st->st_mode & S_IROTH) != 0;
  if (group == others) return group;  // membership makes no difference
  int member = (unsigned long)sys(SYS_getegid, 0, 0, 0) == st->st_gid;
  const long n = member ? 0 : sys(SYS_getgroups, kGroups, groups, 0);
  if (n < 0) return 0;
  for (long i = 0; i < n; ++i) member |= groups[i] == st->st_gid;
  return member ? group : others;
}

/* The bits answer the usual case with no system call on the file; where they say no (or cannot
 * say), the kernel is asked, which also knows ACLs and capabilities (root's
 * CAP_DAC_OVERRIDE). A kernel or filter that answers neither call leaves the bits' word. */
int cudnn_compat_may_read(const char *path, const struct stat *st) {
  if (bits_let_read(st)) return 1;
  long r = sys4(SYS_faccessat2_, AT_FDCWD, path, R_OK, AT_EACCESS);
  if (unanswered(r)) r = sys4(SYS_faccessat, AT_FDCWD, path, R_OK, 0);
  return unanswered(r) ? 0 : r == 0;
}
