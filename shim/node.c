// Reads the overrides and the node file; judges nothing (the decision table's "run" rows carry
// the fit predicate's answers, src/core/decide/decision_table.cc).
#include "node.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "environment.h"
#include "shared/node_file.h"
#include "shim_text.h"
#include "sys.h"

// "7.5" -> 75, "12.2" -> 12020 with scale 1000 and step 10; 0 when it is not X.Y, X one or two
// digits and not 0, Y one digit (the grammar of every reader: docs/contract.md, "The node file").
static unsigned long dotted(const char **p, unsigned long major_scale, unsigned long minor_scale) {
  const char *s = *p;
  unsigned long major, minor;
  if (!read_decimal(p, &major) || *p - s > 2 || major == 0 || *(*p)++ != '.' ||
      (s = *p, !read_decimal(p, &minor)) || *p - s != 1)
    return 0;
  return major * major_scale + minor * minor_scale;
}

// "7.5,9.0" ending at stop (the NUL of an override, the newline of the node file's line), or
// nothing; 0 when malformed, an empty item too ("7.5," or "7.5,,8.0", as for every reader), and
// anything else before stop (a newline in an override: "7.0\n8.0" is no 7.0). Each architecture
// is kept once: an override of one item per GPU (`nvidia-smi ... | paste -sd,` on a node of 17)
// fits, and no node has 16 kinds.
static int gpu_list(const char *p, char stop, struct node_facts *out) {
  out->gpus = 0;
  if (*p == stop) return 1;
  for (;;) {
    const unsigned long arch = dotted(&p, 10, 1);
    int seen = 0;
    for (int g = 0; g < out->gpus; ++g) seen |= out->gpu[g] == arch;
    if (!arch || (!seen && out->gpus == 16)) return 0;
    if (!seen) out->gpu[out->gpus++] = arch;
    if (*p != ',') return *p == stop;
    ++p;
  }
}

static int from_overrides(const char *gpu, const char *driver, struct node_facts *out) {
  const char *d = driver;
  // Both are needed, and a bad or contradictory value is the engine's to say.
  if (!gpu || !driver || !gpu_list(gpu, '\0', out) || !out->gpus) return 0;
  out->driver = dotted(&d, 1000, 10);
  return out->driver && !*d;
}

// The node file, when it is of this boot (its mtime, shared/node_file.h: no read of the boot id
// here), in one open, fstat and read: the engine writes it whole by one rename, and a read that
// fills the buffer is a file too long to be ours (the engine then decides); so is one whose size
// says so, never read. Every process that loads cuDNN on a GPU node reads it. Its length, or 0.
static long read_node_file(const char *path, unsigned long euid, char *buf, long size) {
  // O_NONBLOCK: a FIFO in its place must not hold the process in open().
  const long fd = sys(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return 0;
  struct stat st;
  struct timespec real = {0, 0}, boot = {0, 0};
  clock_now(CLOCK_REALTIME, &real);
  clock_now(CLOCK_BOOTTIME, &boot);
  long n = -1;
  if (sys(SYS_fstat, fd, &st, 0) == 0 &&
      cudnn_compat_node_file_trusted(st.st_uid, st.st_mode, euid) &&
      cudnn_compat_node_file_of_this_boot(timespec_ns(&st.st_mtim), timespec_ns(&real),
                                          timespec_ns(&boot)) &&
      st.st_size < size)
    n = sys_retry(SYS_read, fd, buf, size);
  sys(SYS_close, fd, 0, 0);
  return n > 0 && n < size ? n : 0;
}

static int node_file(char **env, char *path, long size) {
  char uid[24];
  struct utsname u;
  const char *node = env_value(env, "SLURMD_NODENAME");
  if (!cudnn_compat_node_name_usable(node)) {
    if (sys(SYS_uname, &u, 0, 0) != 0 || !cudnn_compat_node_name_usable(u.nodename)) return 0;
    node = u.nodename;
  }
  const unsigned long euid = decision_euid();
  format_decimal(euid, uid);
  long at = append_text(path, size, 0, CUDNN_COMPAT_NODE_DIR_PREFIX);
  at = append_text(path, size, at, uid);
  // The user's own directory that nobody else may write, as its writer demands.
  struct stat st;
  if (sys4(SYS_newfstatat, AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
      st.st_uid != euid || (st.st_mode & 022) != 0)
    return 0;
  at = append_text(path, size, at, "/" CUDNN_COMPAT_NODE_FILE_PREFIX);
  return append_text(path, size, at, node) > 0;
}

int node_facts(char **env, struct node_facts *out) {
  out->gpus = 0, out->driver = 0;
  const char *gpu = env_value(env, "CUDNN_COMPAT_GPU_ARCH");
  const char *driver = env_value(env, "CUDNN_COMPAT_DRIVER_CUDA");
  out->overridden = gpu || driver;
  if (out->overridden) return from_overrides(gpu, driver, out);
  static char path[4096], text[CUDNN_COMPAT_NODE_FILE_MAX + 1];  // callers hold the shim's lock
  struct cudnn_compat_node_lines l;
  long n;
  // Whole and by the grammar every reader applies (shared/node_file.h): a file cut short, with a
  // line twice, a CR or a NUL says nothing, however much of it reads well.
  if (!node_file(env, path, sizeof path) ||
      !(n = read_node_file(path, decision_euid(), text, sizeof text)) ||
      !cudnn_compat_node_file_parse(text, n, &l))
    return 0;
  // A boot line is the engine's to check; a file without one is none the engine wrote.
  const char *cuda = l.value[CUDNN_COMPAT_NODE_DRIVER];
  if (!l.len[CUDNN_COMPAT_NODE_BOOT] || l.len[CUDNN_COMPAT_NODE_PROBLEM] ||
      !gpu_list(l.value[CUDNN_COMPAT_NODE_GPUS], '\n', out))
    return 0;
  return !l.len[CUDNN_COMPAT_NODE_DRIVER] ||
         ((out->driver = dotted(&cuda, 1000, 10)) && *cuda == '\n');
}
