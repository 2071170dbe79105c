// libcudnn-compat.so: the front end that lives in every process of a job.
//
// Loaded as LD_AUDIT (la_objsearch sees DT_NEEDED links and cuDNN's own sub-library dlopens) or
// as LD_PRELOAD (a dlopen wrapper). It carries no libc: an audit module that needs libc makes ld.so
// load a second libc into the audit namespace, which costs every process of the job 1.4x its start
// (FACTS.md section 6). So it speaks to the kernel directly, filters names in a few instructions,
// and consults the engine - the cudnn-compat-select program beside it - only on the first request
// for a cuDNN main library. Whatever fails, the process gets the load it would have done anyway.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "shim_text.h"

#define EXPORT __attribute__((visibility("default")))

// ---------------------------------------------------------------------------------------------
// The kernel, without libc.

static long sys6(long n, long a, long b, long c, long d, long e, long f) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
#define sys(n, a, b, c) sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

static int file_exists(const char *path) {
  return sys(SYS_faccessat, AT_FDCWD, path, F_OK) == 0;
}

static void say(const char *line) {
  sys(SYS_write, 2, line, text_len(line));
}

// Reads a whole small file (/proc/self/...) into buf; returns its length, or -1.
static long read_file(const char *path, char *buf, long size) {
  const long fd = sys(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long done = 0, n;
  while (done < size && (n = sys(SYS_read, fd, buf + done, size - done)) > 0) done += n;
  sys(SYS_close, fd, 0, 0);
  return done;
}

// ---------------------------------------------------------------------------------------------
// State. Decisions are kept for the life of the process: a later dlopen of the same name, or an
// RTLD_NOLOAD query, must find the object the first one got.

enum { kMajors = 16, kPaths = 32, kPath = 4096, kEnv = 256 * 1024 };

// family[m]: the directory the cuDNN main library of major m came from; "" until known.
static char family[kMajors][kPath];
// Each path handed to the loader stays valid for the process's life: ld.so may keep the pointer.
static char paths[kPaths][kPath];
static int npaths;
static int asked[kMajors + 1];  // the engine was consulted for major m (at m + 1; 0: none named)

// One decision at a time; a fork while another thread decides must not leave the child waiting.
static atomic_long lock_owner;  // the thread id holding it, 0 when free

static void lock(void) {
  const long me = sys(SYS_gettid, 0, 0, 0);
  for (;;) {
    long expected = 0;
    if (atomic_compare_exchange_strong(&lock_owner, &expected, me)) return;
    // A holder that is no thread of this process is a thread that did not survive fork().
    if (sys(SYS_tgkill, sys(SYS_getpid, 0, 0, 0), expected, 0) != 0 &&
        atomic_compare_exchange_strong(&lock_owner, &expected, me))
      return;
    sys(SYS_sched_yield, 0, 0, 0);
  }
}

static void unlock(void) {
  atomic_store(&lock_owner, 0);
}

static const char *keep_path(const char *dir, const char *base) {
  for (int i = 0; i < npaths; ++i)
    if (path_is(paths[i], dir, base)) return paths[i];
  if (npaths == kPaths || !join_path(paths[npaths], kPath, dir, base)) return 0;
  return paths[npaths++];
}

// ---------------------------------------------------------------------------------------------
// The environment: libc's when it is there (LD_PRELOAD), else the one the process started with.

extern char **environ __attribute__((weak));
static char env_buf[kEnv];
static char *env_list[2048];

static char **environment(void) {
  if (&environ && environ) return environ;
  const long n = read_file("/proc/self/environ", env_buf, kEnv - 1);
  if (n <= 0) return 0;
  env_buf[n] = 0;
  int count = 0;
  for (long at = 0; at < n && count < 2047; at += text_len(env_buf + at) + 1)
    env_list[count++] = env_buf + at;
  env_list[count] = 0;
  return env_list;
}

static const char *env_value(char **env, const char *name) {
  for (char **e = env; e && *e; ++e) {
    const char *v = after_prefix(*e, name);
    if (v && *v == '=') return v + 1;
  }
  return 0;
}

// setuid and friends: the environment is the caller's, not to be trusted (secure_getenv).
static int secure_execution(void) {
  Elf64_auxv_t aux[64];
  const long n = read_file("/proc/self/auxv", (char *)aux, sizeof aux);
  for (long i = 0; i < n / (long)sizeof aux[0]; ++i)
    if (aux[i].a_type == AT_SECURE) return aux[i].a_un.a_val != 0;
  return n <= 0;  // cannot tell: assume the worst
}

// What the shim takes from its process, read once, on the first cuDNN request (under the lock):
// no process that asks for no cuDNN pays for it.
static struct {
  int read, secure, disabled, debug;
  char **env;  // the caller's environment; none in secure execution
} settings;

static void read_settings(void) {
  if (settings.read) return;
  settings.read = 1;
  settings.secure = secure_execution();
  settings.env = settings.secure ? 0 : environment();
  const char *off = env_value(settings.env, "CUDNN_COMPAT_DISABLE");
  const char *on = env_value(settings.env, "CUDNN_COMPAT_DEBUG");
  settings.disabled = off && text_eq(off, "1");
  settings.debug = on && text_eq(on, "1");
}

// ---------------------------------------------------------------------------------------------
// The engine, in a process of its own: cudnn-compat-select NAME REQUESTER.

// The directory this library was loaded from, found in /proc/self/maps by an address inside it.
static int own_directory(char *dir, long size) {
  static char maps[256 * 1024];
  const long n = read_file("/proc/self/maps", maps, sizeof maps - 1);
  if (n <= 0) return 0;
  maps[n] = 0;
  const char *file = mapping_path(maps, (uintptr_t)&own_directory);
  return file && split_path(file, dir, size) && *dir;
}

// Runs the engine and returns what it printed on stdout ("use PATH" or "pass"), or 0. Blocks
// every signal around the clone so that no handler of the host runs in the child before exec.
static int run_engine(char **argv, char **envp, char *out, long size) {
  int fds[2];
  if (sys(SYS_pipe2, fds, O_CLOEXEC, 0) != 0) return 0;
  unsigned long all = ~0ul, old = 0;
  sys6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
  // No SIGCHLD (exit signal 0): a host that reaps every child with waitpid(-1) cannot take ours.
  const long pid = sys6(SYS_clone, 0, 0, 0, 0, 0, 0);
  if (pid == 0) {
    sys(SYS_dup3, fds[1], 1, 0);
    sys(SYS_execve, argv[0], argv, envp);
    sys(SYS_exit_group, 127, 0, 0);
  }
  sys6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
  sys(SYS_close, fds[1], 0, 0);
  long done = 0;
  if (pid > 0) {
    struct pollfd p = {fds[0], POLLIN, 0};
    // A hung engine must not hang the job: 30 s covers probing a slow file system.
    while (done < size - 1 && sys(SYS_poll, &p, 1, 30000) == 1) {
      const long n = sys(SYS_read, fds[0], out + done, size - 1 - done);
      if (n <= 0) break;
      done += n;
    }
    sys(SYS_kill, pid, SIGKILL, 0);  // harmless when it has exited; ends it when it hangs
    int status = 0;
    sys6(SYS_wait4, pid, (long)&status, __WALL, 0, 0, 0);
  }
  sys(SYS_close, fds[0], 0, 0);
  out[done] = 0;
  return pid > 0 && done > 0;
}

static char *engine_env[2048];

// The process's environment without LD_PRELOAD/LD_AUDIT (the engine must not load us), and in
// secure execution nothing of the caller's at all.
static char **engine_environment(void) {
  int n = 0;
  if (settings.secure) {
    engine_env[n++] = "CUDNN_COMPAT_SECURE=1";
  } else {
    for (char **e = settings.env; e && *e && n < 2046; ++e)
      if (!after_prefix(*e, "LD_PRELOAD=") && !after_prefix(*e, "LD_AUDIT=")) engine_env[n++] = *e;
  }
  engine_env[n] = 0;
  return engine_env;
}

// Asks the engine about a main library request; returns the path to load instead, or 0 to keep
// the ordinary load.
static const char *consult(const char *name, const char *requester, int major) {
  static char dir[kPath], engine[kPath], answer[kPath + 16];
  if (!own_directory(dir, sizeof dir) ||
      !join_path(engine, sizeof engine, dir, "cudnn-compat-select")) {
    say("cudnn-compat: cannot find its own directory in /proc/self/maps; loading as usual\n");
    return 0;
  }
  char *argv[] = {engine, (char *)name, (char *)requester, 0};
  if (!run_engine(argv, engine_environment(), answer, sizeof answer)) {
    say("cudnn-compat: the engine (cudnn-compat-select) gave no answer; loading as usual\n");
    return 0;
  }
  const char *path = after_prefix(answer, "use ");
  if (!path) return 0;
  char *end = answer + text_len(answer);
  while (end > path && end[-1] == '\n') *--end = 0;
  if (path[0] != '/' || !file_exists(path)) {
    say("cudnn-compat: the engine (cudnn-compat-select) named no existing file; loading as "
        "usual\n");
    return 0;
  }
  char chosen_dir[kPath];
  const char *base = split_path(path, chosen_dir, sizeof chosen_dir);
  struct cudnn_name c;
  if (!base || !*chosen_dir || !parse_cudnn_name(base, &c)) return 0;
  // The chosen file's own major: a request for bare libcudnn.so names none.
  const int m = c.major >= 0 && c.major < kMajors ? c.major : major;
  if (m >= 0) copy_text(family[m], kPath, chosen_dir);
  return keep_path(chosen_dir, base);
}

// A main cuDNN library the loader has loaded, by its own choice or ours: it fixes the family.
static void note_main_library(const char *path) {
  struct cudnn_name c;
  if (!path || !parse_cudnn_name(base_name(path), &c) || c.sub || c.major < 0 || c.major >= kMajors)
    return;
  lock();
  if (!family[c.major][0]) split_path(path, family[c.major], kPath);
  unlock();
}

// ---------------------------------------------------------------------------------------------
// The router: every front end asks it what to load for a requested name.

// Returns the name to load: the same pointer when nothing changes. The caller has found that
// name is a cuDNN library (c), so every other load never gets here.
static const char *route(const char *name, const struct cudnn_name *cn, const char *requester) {
  const struct cudnn_name c = *cn;
  lock();
  read_settings();
  if (settings.disabled) {
    unlock();
    return name;
  }
  const char *result = name;
  const int m = c.major >= 0 && c.major < kMajors ? c.major : -1;
  // The directory the family comes from: this major's, or with no major in the name any known one.
  const char *dir = m >= 0 ? family[m] : "";
  for (int i = 0; m < 0 && i < kMajors && !*dir; ++i) dir = family[i];
  char candidate[kPath];
  if (*dir && join_path(candidate, sizeof candidate, dir, c.base)) {
    // Keep the family whole. A sub-library name D lacks is still sent to D when it carries a full
    // version (the cuDNN 9 dispatcher asks for libcudnn_ops.so.9.1.0 first, then falls back to
    // .so.9): loading another release's file is what breaks the family. For other names D lacks,
    // the ordinary search is the safer guess.
    if (file_exists(candidate) || (c.sub && c.full_version)) {
      const char *kept = keep_path(dir, c.base);
      if (kept) result = kept;
      if (kept && settings.debug) {
        char line[2 * kPath + 64];
        long n = 0;
        const char *parts[] = {"cudnn-compat: ",   name, " -> ", kept,
                               " (the family of ", dir,  ")\n"};
        for (unsigned i = 0; i < sizeof parts / sizeof parts[0]; ++i)
          n = append_text(line, sizeof line, n, parts[i]);
        say(line);
      }
    }
  } else if (!*dir && !c.sub && !asked[m + 1]) {
    const char *chosen = consult(name, requester, m);
    if (chosen) result = chosen;
    // Only now: a child forked while this thread consulted must consult again, not trust a flag.
    asked[m + 1] = 1;
  }
  unlock();
  return result;
}

// ---------------------------------------------------------------------------------------------
// LD_AUDIT front end.

EXPORT unsigned int la_version(unsigned int version) {
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie) {
  (void)cookie;
  if (lmid == LM_ID_BASE) note_main_library(map->l_name);
  return 0;
}

EXPORT char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
  struct cudnn_name c;
  if (flag != LA_SER_ORIG || !parse_cudnn_name(base_name(name), &c)) return (char *)name;
  const struct link_map *requester = cookie ? (const struct link_map *)*cookie : 0;
  // The main program's l_name is "": the engine reads /proc/PID/exe for it.
  return (char *)route(name, &c, requester && requester->l_name ? requester->l_name : "");
}

// ---------------------------------------------------------------------------------------------
// LD_PRELOAD front end. dlopen itself is in shim_entry.S: it calls shim_dlopen_route and then
// jumps to the real dlopen with the caller's return address still on the stack, because glibc
// takes the caller's RUNPATH and $ORIGIN from that address.

extern void *dlsym(void *, const char *) __attribute__((weak));
extern int dladdr(const void *, Dl_info *) __attribute__((weak));
extern int dl_iterate_phdr(int (*)(struct dl_phdr_info *, size_t, void *), void *)
    __attribute__((weak));

__attribute__((visibility("hidden"))) void *(*shim_real_dlopen)(const char *, int);

static void *no_dlopen(const char *name, int flags) {
  (void)name, (void)flags;
  return 0;
}

// Without audit the loader's own choice of a main library is seen only here, by looking.
static int note_family(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  note_main_library(info->dlpi_name);
  return 0;
}

__attribute__((visibility("hidden"))) const char *shim_dlopen_route(const char *name,
                                                                    const void *caller) {
  if (!shim_real_dlopen) {
    void *real = dlsym ? dlsym(RTLD_NEXT, "dlopen") : 0;
    shim_real_dlopen = real ? (void *(*)(const char *, int))real : no_dlopen;
  }
  struct cudnn_name c;
  if (!name || !parse_cudnn_name(base_name(name), &c)) return name;
  if (dl_iterate_phdr) dl_iterate_phdr(note_family, 0);
  Dl_info info = {0};
  const char *requester = dladdr && dladdr(caller, &info) && info.dli_fname ? info.dli_fname : "";
  return route(name, &c, requester);
}
