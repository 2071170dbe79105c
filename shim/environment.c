#include "environment.h"

#include <elf.h>

#include "arena.h"
#include "elf_dynamic.h"
#include "shared/asked_need.h"
#include "shared/ld_system.h"
#include "shim_text.h"
#include "sys.h"

extern char **environ __attribute__((weak));

// ---------------------------------------------------------------------------------------------
// The loader's inputs, as the loader read them.
//
// ld.so runs each object's ELF constructors with (argc, argv, envp) before any code of the
// program: an audit module's from the _dl_open that loads it, a preload's from _dl_init. Both get
// the process's initial environment, the array on the stack just past argv's NULL, and the
// auxiliary vector follows that array's NULL (one or more: ld.so's secure-mode unsetenv moves the
// entries up). What the shim needs of them is copied now: a process that sets its title
// (setproctitle: PostgreSQL, Redis, Ray) overwrites those strings later, and /proc, where they
// could be read again, may not be mounted at all.

enum { kCopies = 8192 };  // LD_LIBRARY_PATH and AT_EXECFN of most processes; more goes to the arena

static struct {
  int captured;  // the constructor saw the initial stack; else /proc is asked, when needed
  int secure;
  char **envp;               // the initial array (its strings may be overwritten later)
  const char *library_path;  // LD_LIBRARY_PATH's value, copied; 0 when unset
  // AT_EXECFN, not copied: it lies past the environment's strings, beyond what a title
  // overwrites. LD_AUDIT and LD_PRELOAD, copied: without /proc they are how the shim finds its
  // own directory, and a process retitled before it asks for cuDNN had overwritten them (an
  // outside tester's finding: the redirect was dropped in a sandbox without /proc).
  const char *execfn, *audit, *preload;
  const void *vdso;        // AT_SYSINFO_EHDR: the kernel's vDSO image
  long uid, euid;          // AT_UID, AT_EUID: the ids the program was started with
  unsigned long phdr;      // AT_PHDR: an address in the program's first mapping
  const char *loader_run;  // the program run through the loader, absolute (copied); or 0
} start;

static char copies[kCopies];
static long copied;

static const char *copy_of(const char *s, long n) {
  char *out = copied + n + 1 <= kCopies ? copies + copied : arena_alloc(n + 1);
  if (!out) return 0;
  if (out == copies + copied) copied += n + 1;
  for (long i = 0; i < n; ++i) out[i] = s[i];
  out[n] = 0;
  return out;
}

// The end of the list entry at p, split as ld.so splits that list.
static const char *entry_end(const char *p, const char *separators) {
  while (*p && !text_has(separators, *p)) ++p;
  return p;
}

// The directory of the list entry whose file is libcudnn-compat.so, when one entry names it by an
// absolute path without a dynamic string token; else 0.
static const char *shim_entry_dir(const char *list, const char *separators) {
  if (!list) return 0;
  const char *found = 0, *end = 0;
  for (const char *p = list; *p;) {
    const char *e = entry_end(p, separators);
    const char *base = e;
    while (base > p && base[-1] != '/') --base;
    const char *rest = after_prefix(base, "libcudnn-compat.so");
    if (*p == '/' && base > p + 1 && rest && rest == e) {
      if (found) return 0;  // two: which one this is cannot be told
      found = p, end = base - 1;
    }
    p = *e ? e + 1 : e;
  }
  for (const char *c = found; found && c < end; ++c)
    if (*c == '$') return 0;
  return found ? copy_of(found, end - found) : 0;
}

int start_preloads(const char *path) {
  const long n = path ? text_len(path) : 0;
  for (const char *p = start.preload; n && p && *p;) {
    const char *e = entry_end(p, CUDNN_COMPAT_PRELOAD_SEPARATORS);
    long i = 0;
    while (i < n && p + i < e && p[i] == path[i]) ++i;
    if (i == n && p + n == e) return 1;
    p = *e ? e + 1 : e;
  }
  return 0;
}

// A program run through the loader (`/lib64/ld-linux-x86-64.so.2 ./prog`): the kernel started
// the loader itself, so no interpreter was mapped (AT_BASE 0) and /proc/self/exe names the
// loader. glibc 2.35 on moves AT_EXECFN to the program's name as the loader was given it (not
// --argv0's), in argv's strings, which a retitle overwrites: copied now, made absolute from the
// directory it was given in (the program may change directory before it loads cuDNN). An older
// loader leaves AT_EXECFN naming itself: then nothing better than /proc/self/exe is known.
static const char *loader_run_program_at_start(const char *execfn) {
  if (!execfn || !*execfn) return 0;
  const char *base = base_name(execfn);
  if (after_prefix(base, "ld-") || after_prefix(base, "ld.so") || after_prefix(base, "ld64.so"))
    return 0;
  if (*execfn == '/') return copy_of(execfn, text_len(execfn));
  char path[4096];
  const long n = sys(SYS_getcwd, path, sizeof path, 0);  // its length with the NUL, or -errno
  if (n <= 1) return 0;
  while (execfn[0] == '.' && execfn[1] == '/') execfn += 2;
  long at = n - 1;
  if (path[at - 1] != '/') at = append_text(path, sizeof path, at, "/");
  at = append_text(path, sizeof path, at, execfn);
  return at < (long)sizeof path - 1 ? copy_of(path, at) : 0;
}

static void capture_auxv(char **after_envp) {
  char **p = after_envp;
  unsigned long interpreter = 1;  // AT_BASE; a kernel that did not say: not run by the loader
  start.uid = start.euid = -1;
  for (int extra = 0; !*p && extra < 4096; ++extra) ++p;  // the NULLs unsetenv left
  for (const Elf64_auxv_t *a = (const Elf64_auxv_t *)p; a->a_type != AT_NULL; ++a) {
    if (a->a_type == AT_SECURE) start.secure = a->a_un.a_val != 0;
    if (a->a_type == AT_EXECFN) start.execfn = (const char *)a->a_un.a_val;
    if (a->a_type == AT_SYSINFO_EHDR) start.vdso = (const void *)a->a_un.a_val;
    if (a->a_type == AT_UID) start.uid = (long)a->a_un.a_val;
    if (a->a_type == AT_EUID) start.euid = (long)a->a_un.a_val;
    if (a->a_type == AT_PHDR) start.phdr = a->a_un.a_val;
    if (a->a_type == AT_BASE) interpreter = a->a_un.a_val;
  }
  if (interpreter == 0 && !start.secure)
    start.loader_run = loader_run_program_at_start(start.execfn);
}

// Only "LD_" entries are read past their third byte: a process that never asks for cuDNN pays a
// compare per environment entry.
__attribute__((constructor)) static void capture(int argc, char **argv, char **envp) {
  if (!argv || !envp || envp != argv + argc + 1) return;  // loaded later, by a dlopen
  char **e = envp;
  for (; *e; ++e) {
    if ((*e)[0] != 'L' || (*e)[1] != 'D' || (*e)[2] != '_') continue;
    const char *v;
    if ((v = after_prefix(*e + 3, "LIBRARY_PATH=")))
      start.library_path = copy_of(v, text_len(v));
    else if ((v = after_prefix(*e + 3, "AUDIT=")))
      start.audit = copy_of(v, text_len(v));
    else if ((v = after_prefix(*e + 3, "PRELOAD=")))
      start.preload = copy_of(v, text_len(v));
  }
  start.envp = envp;
  capture_auxv(e + 1);
  start.captured = 1;
}

// ---------------------------------------------------------------------------------------------
// The same from /proc, for a shim loaded after the start (by a dlopen of its own).

static int auxv_read, proc_secure = 1;  // cannot tell: assume the worst
static const char *proc_execfn;

static void read_auxv(void) {
  if (auxv_read) return;
  auxv_read = 1;
  struct file_text f;
  if (!file_read("/proc/self/auxv", &f)) return;
  const long n = f.size / (long)sizeof(Elf64_auxv_t);
  for (long i = 0; i < n; ++i) {
    const Elf64_auxv_t *a = (const Elf64_auxv_t *)f.data + i;
    if (a->a_type == AT_SECURE) proc_secure = a->a_un.a_val != 0;
    if (a->a_type == AT_EXECFN) proc_execfn = (const char *)a->a_un.a_val;
  }
  file_free(&f);
}

static char **proc_environment(void) {
  static char **list;
  if (list) return list;
  struct file_text f;
  if (!file_read("/proc/self/environ", &f)) return 0;
  long count = 0;
  for (long at = 0; at < f.size; at += text_len(f.data + at) + 1) ++count;
  char **out = arena_alloc((count + 1) * (long)sizeof *out);
  char *copy = arena_alloc(f.size + 1);
  if (out && copy) {
    for (long i = 0; i <= f.size; ++i) copy[i] = f.data[i];
    long n = 0;
    for (long at = 0; at < f.size; at += text_len(copy + at) + 1) out[n++] = copy + at;
    out[n] = 0;
    list = out;
  }
  file_free(&f);
  return list;
}

// ---------------------------------------------------------------------------------------------

int secure_execution(void) {
  if (start.captured) return start.secure;
  read_auxv();
  return proc_secure;
}

const char *loader_run_program(void) {
  return start.captured && !secure_execution() ? start.loader_run : 0;
}

const char *exec_path(void) {
  if (secure_execution()) return 0;
  return start.captured ? start.execfn : proc_execfn;
}

const char *start_library_path(void) {
  if (secure_execution()) return 0;
  return start.captured ? start.library_path : env_value(proc_environment(), "LD_LIBRARY_PATH");
}

const char *start_shim_dir(int audit) {
  return audit ? shim_entry_dir(start.audit, CUDNN_COMPAT_AUDIT_SEPARATORS)
               : shim_entry_dir(start.preload, CUDNN_COMPAT_PRELOAD_SEPARATORS);
}

long start_uid(int effective) {
  return !start.captured ? -1 : effective ? start.euid : start.uid;
}

long quiet_real_uid(unsigned long euid) {
  const long started = start_uid(0);
  return started >= 0 && started == start_uid(1) && (unsigned long)started == euid ? started : -1;
}

unsigned long start_program_header(void) {
  return start.captured ? start.phdr : 0;
}

// ---------------------------------------------------------------------------------------------
// The clock through the vDSO, as libc reads it: no system call (a raw clock_gettime is one, paid
// by every recording rank), and nothing a seccomp filter sees. The vDSO is an ELF image the
// kernel maps into every process; its __vdso_clock_gettime is found once through its GNU hash
// table. Without it (a shim loaded after the start, a kernel without one) the system call.

typedef long (*clock_fn)(long clock, void *ts);

static clock_fn vdso_clock(void) {
  static int looked;
  static clock_fn found;
  if (looked) return found;
  looked = 1;
  const Elf64_Ehdr *e = start.vdso;
  if (!e || e->e_ident[EI_MAG0] != ELFMAG0 || e->e_ident[EI_MAG1] != ELFMAG1 ||
      e->e_ident[EI_MAG2] != ELFMAG2 || e->e_ident[EI_MAG3] != ELFMAG3 ||
      e->e_ident[EI_CLASS] != ELFCLASS64)
    return 0;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)e + e->e_phoff);
  uintptr_t bias = 0, dynamic = 0;
  int loaded = 0;
  for (int i = 0; i < e->e_phnum; ++i) {
    if (ph[i].p_type == PT_LOAD && !loaded)
      bias = (uintptr_t)e + ph[i].p_offset - ph[i].p_vaddr, loaded = 1;
    if (ph[i].p_type == PT_DYNAMIC) dynamic = ph[i].p_vaddr;
  }
  if (!loaded || !dynamic) return 0;
  struct link_map image = {0};
  image.l_addr = bias;
  image.l_ld = (ElfW(Dyn) *)(bias + dynamic);
  found = (clock_fn)dynamic_symbol(&image, "__vdso_clock_gettime");
  return found;
}

void clock_now(long clock, void *ts) {
  const clock_fn vdso = vdso_clock();
  if (!vdso || vdso(clock, ts) != 0) sys(SYS_clock_gettime, clock, ts, 0);
}

// ---------------------------------------------------------------------------------------------

static long euid = -1;

unsigned long decision_euid(void) {
  if (euid < 0) euid = sys(SYS_geteuid, 0, 0, 0);
  return (unsigned long)euid;
}

int decision_euid_known(void) {
  return euid >= 0;
}

void note_decision_euid(unsigned long id) {
  euid = (long)id;
}

void forget_decision_ids(void) {
  euid = -1;
}

// ---------------------------------------------------------------------------------------------

static const struct link_map *main_map, *libc_map;
void note_object(const struct link_map *map) {
  if (!main_map) main_map = map;  // the first object of the base namespace
  if (!libc_map && map->l_name && after_prefix(base_name(map->l_name), "libc.so.")) libc_map = map;
}

// The program's live environment pointer. A program that names `environ` has it copied into its
// own data (a copy relocation): libc then uses that copy, and setenv() changes only it, so the
// program's definition comes before libc's own.
static char ***environ_variable(void) {
  char ***found = main_map ? dynamic_symbol(main_map, "__environ") : 0;
  if (!found && main_map) found = dynamic_symbol(main_map, "environ");
  if (!found && libc_map) found = dynamic_symbol(libc_map, "__environ");
  return found;
}

// la_preinit: every object's constructors have run, libc's among them, so its environ is the
// program's from here on, empty included (clearenv(), environ = NULL).
static int libc_started;
void program_begins(void) {
  libc_started = 1;
}

char **current_environment(void) {
  if (secure_execution()) return 0;
  if (&environ) return environ;
  static char ***live;
  if (!live) live = environ_variable();
  if (live && (*live || libc_started)) return *live;
  // Before libc has set its environ up (a DT_NEEDED load): nothing can have changed it yet.
  return start.captured ? start.envp : proc_environment();
}

const char *env_value(char **env, const char *name) {
  for (char **e = env; e && *e; ++e) {
    const char *v = after_prefix(*e, name);
    if (v && *v == '=') return v + 1;
  }
  return 0;
}

// A text of an entry of CUDNN_COMPAT_NEEDS, ended. One too long for the buffer is never a
// version (the grammar's limits are far below it): it is ended with "..." so that no cut of it
// reads as one.
static const char *ended(struct cudnn_compat_text t, char *buf, unsigned long size) {
  if (!t.s) return 0;
  unsigned long n = t.n < size ? t.n : size - 4;
  for (unsigned long i = 0; i < n; ++i) buf[i] = t.s[i];
  if (n < t.n) buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
  buf[n] = 0;
  return buf;
}

void read_asked_need(char **env, struct asked_need *out) {
  static char require[64], cuda[64];
  // The module systems' records of pushed values count only beside a CUDNN_COMPAT_NEEDS: not looked
  // up in every other process.
  const char *needs = env_value(env, "CUDNN_COMPAT_NEEDS");
  const struct cudnn_compat_need_env in = {
      env_value(env, "CUDNN_COMPAT_REQUIRE"),
      env_value(env, "CUDNN_COMPAT_CUDA"),
      needs,
      needs ? env_value(env, "__LMOD_STACK_CUDNN_COMPAT_REQUIRE") : 0,
      needs ? env_value(env, "__LMOD_STACK_CUDNN_COMPAT_CUDA") : 0,
      needs ? env_value(env, "__MODULES_PUSHENV_CUDNN_COMPAT_REQUIRE") : 0,
      needs ? env_value(env, "__MODULES_PUSHENV_CUDNN_COMPAT_CUDA") : 0};
  struct cudnn_compat_asked_need need;
  cudnn_compat_read_need(&in, &need);
  out->require = need.require_from == CUDNN_COMPAT_NEED_VARIABLE
                     ? in.require
                     : ended(need.require, require, sizeof require);
  out->cuda =
      need.cuda_from == CUDNN_COMPAT_NEED_VARIABLE ? in.cuda : ended(need.cuda, cuda, sizeof cuda);
  out->from_module =
      need.require_from == CUDNN_COMPAT_NEED_MODULE || need.cuda_from == CUDNN_COMPAT_NEED_MODULE;
}
