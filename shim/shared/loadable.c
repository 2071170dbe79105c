/* Raw system calls (../sys.h): the shim carries no libc, and the engine asks the same question
 * the same way. */
#include "loadable.h"

#include <fcntl.h>
#include <sys/vfs.h>

#include "../sys.h"

#define SYS_faccessat2_ 439 /* Linux 5.8 */
#define ST_NOEXEC_ 8

/* A call the kernel lacks, or a seccomp filter denies as such (older container profiles answer
 * faccessat2 with EPERM): no answer about the file. */
static int unanswered(long r) {
  return r == -ENOSYS || r == -EPERM;
}

int cudnn_compat_loadable(const char *path) {
  long r = sys4(SYS_faccessat2_, AT_FDCWD, path, R_OK, AT_EACCESS);
  if (unanswered(r)) {
    /* Before 5.8 only an open tells the effective ids' answer (faccessat asks with the real ids,
     * which differ in a process that changed its effective ids itself). */
    r = sys_retry(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (r >= 0) r = sys(SYS_close, r, 0, 0);
  }
  if (r != 0) return 0;
  /* A statfs denied says nothing of noexec: the file is taken as loadable, as before this check. */
  struct statfs fs;
  r = sys(SYS_statfs, path, &fs, 0);
  return unanswered(r) || (r == 0 && !(fs.f_flags & ST_NOEXEC_));
}
