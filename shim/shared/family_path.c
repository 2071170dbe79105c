/* Raw system calls (../sys.h): the shim carries no libc, and the engine asks the same question
 * the same way. No static buffers: the engine probes from more than one thread. */
#include "family_path.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "../shim_text.h"
#include "../sys.h"

/* Whether the directory open at fd holds a cuDNN library of this major (-1: any) with a version
 * in its name: a family the dispatcher's bare-name loads would take from there. */
static int holds_family(long fd, int major) {
  char block[512] __attribute__((aligned(8)));
  for (long n; (n = sys(SYS_getdents64, fd, block, sizeof block)) > 0;)
    for (long at = 0; at < n;) {
      struct cudnn_name c;
      const unsigned short length = *(unsigned short *)(block + at + 16);
      if (parse_cudnn_name(block + at + 19, &c) && c.major >= 0 && (major < 0 || c.major == major))
        return 1;
      at += length;
    }
  return 0;
}

/* The entry holds another family than dir's (the same directory, by dev and ino, is dir's own). */
static int other_family(const char *entry, const struct stat *dir, int dir_known, int major) {
  const long fd = sys_retry(SYS_openat, AT_FDCWD, *entry ? entry : ".",
                            O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return 0;  // the loader finds nothing there either
  struct stat st;
  int other = 0;
  if (sys(SYS_fstat, fd, &st, 0) == 0 &&
      !(dir_known && st.st_dev == dir->st_dev && st.st_ino == dir->st_ino))
    other = holds_family(fd, major);
  sys(SYS_close, fd, 0, 0);
  return other;
}

int cudnn_compat_family_path(const char *ld_library_path, const char *dir, int major, char *out,
                             long size) {
  struct stat own;
  const int own_known = sys4(SYS_newfstatat, AT_FDCWD, dir, &own, 0) == 0;
  if (text_len(dir) + 1 > size) return 0;
  long at = append_text(out, size, 0, dir);
  if (!ld_library_path || !*ld_library_path) return 1;
  for (const char *p = ld_library_path;; ++p) { /* every entry, empty ones too (the cwd) */
    const char *end = p;
    while (*end && *end != ':') ++end;
    /* The entry is written where it would stay, and taken back when it holds another family. */
    if (at + 1 + (end - p) + 1 > size) return 0;  // ':', the entry, the NUL
    long next = at;
    out[next++] = ':';
    for (const char *c = p; c < end;) out[next++] = *c++;
    out[next] = 0;
    if (other_family(out + at + 1, &own, own_known, major))
      out[at] = 0;
    else
      at = next;
    if (!*end) break;
    p = end;
  }
  return 1;
}
