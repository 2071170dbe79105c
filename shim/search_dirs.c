#define _GNU_SOURCE
#include "search_dirs.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "arena.h"
#include "elf_dynamic.h"
#include "environment.h"
#include "look.h"
#include "shared/ld_system.h"
#include "shared/loadable.h"
#include "shim_text.h"
#include "sys.h"

int file_exists(const char *path) {
  struct stat st;
  return look(path, &st, 0) == 0;
}

int loader_may_open(const char *path) {
  struct stat st;
  return look(path, &st, 0) == 0 && cudnn_compat_may_read(path, &st);
}

int is_conda_lib_dir(const char *dir) {
  static char meta[4096];  // callers hold the shim's lock
  struct stat st;
  return conda_meta_beside(dir, meta, sizeof meta) &&
         sys4(SYS_newfstatat, AT_FDCWD, meta, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

static void add(struct search_dirs *out, const char *dir, long capacity) {
  if (out->count < capacity && dir) out->dir[out->count++] = dir;
}

static long entries(const char *list) {
  long n = 1;
  for (; list && *list; ++list) n += *list == ':' || *list == ';';
  return n;
}

// One entry of a colon list, $ORIGIN expanded; "." for an empty one, as the loader reads it.
// Prefixed with where it comes from (kind, then ':').
static const char *expand(char kind, const char *entry, long length, const char *origin,
                          int *exact) {
  // Built in the arena at most its length (each '$' may become the origin), up to a path's 4 KiB:
  // no buffer of its own, whose page would be one more fault in every process.
  long dollars = 0;
  for (long i = 0; i < length; ++i) dollars += entry[i] == '$';
  long size = 2 + length + dollars * (origin ? text_len(origin) : 0) + 2;
  if (size > 4096) size = 4096;
  char *buf = arena_alloc(size);
  if (!buf) return 0;
  buf[0] = kind, buf[1] = ':';
  long n = 2;
  for (long i = 0; i < length && n < size - 1;) {
    const char *rest = entry + i;
    // Any '$' but $ORIGIN's token ($LIB, $PLATFORM, a '$' of a name) is the engine's to read.
    const unsigned long token = cudnn_compat_token_length(rest, length - i, "ORIGIN");
    if (token && origin) {
      n = append_text(buf, size, n, origin);
      i += token;
    } else {
      if (*rest == '$') *exact = 0;  // $LIB, $PLATFORM: the engine expands those
      buf[n++] = *rest, ++i;
    }
  }
  // Cut short (past a path's 4 KiB, where the loader's open fails): not the loader's directory.
  if (n >= size - 1) *exact = 0;
  if (n == 2) buf[n++] = '.';
  buf[n] = 0;
  while (n > 3 && buf[n - 1] == '/') buf[--n] = 0;
  return arena_keep_last(buf, size);
}

// separators: shared/ld_system.h's, for the list's kind.
static void add_list(struct search_dirs *out, char kind, const char *list, const char *origin,
                     long capacity, const char *separators) {
  for (const char *p = list; list && *p;) {
    const char *end = p;
    while (*end && !text_has(separators, *end)) ++end;
    add(out, expand(kind, p, end - p, origin, &out->complete), capacity);
    p = *end ? end + 1 : end;
  }
}

static const char *origin_of(const struct link_map *map) {
  static char exe[4096];  // static: callers hold the shim's lock
  const char *name = map->l_name;
  if (!name || !*name) {  // the main program
    const long n = sys4(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = 0;
    name = exe;
  }
  const char *base = base_name(name);
  return arena_strndup(name, base == name ? 0 : base - name - 1);  // its directory
}

void loader_search_dirs(const struct link_map *requester, const struct link_map *main_program,
                        struct search_dirs *out) {
  out->count = 0, out->complete = requester != 0;
  if (!requester) return;
  const char *runpath = dynamic_string(requester, DT_RUNPATH);
  const char *rpath = runpath ? 0 : dynamic_string(requester, DT_RPATH);
  const char *main_rpath = 0;
  if (!runpath && main_program && main_program != requester &&
      !dynamic_string(main_program, DT_RUNPATH))
    main_rpath = dynamic_string(main_program, DT_RPATH);
  const char *library_path = start_library_path();
  const long capacity =
      entries(rpath) + entries(main_rpath) + entries(library_path) + entries(runpath);
  out->dir = arena_reuse(&out->buffer, capacity * (long)sizeof *out->dir);
  if (!out->dir) {
    out->complete = 0;
    return;
  }
  const char *runpath_separators = CUDNN_COMPAT_RUNPATH_SEPARATORS;
  if (rpath) add_list(out, 'P', rpath, origin_of(requester), capacity, runpath_separators);
  if (main_rpath)
    add_list(out, 'P', main_rpath, origin_of(main_program), capacity, runpath_separators);
  // $ORIGIN in LD_LIBRARY_PATH is the main program's directory (glibc's _dl_init_paths); asked
  // only where the variable has a '$'.
  const char *program_origin =
      library_path && text_has(library_path, '$') && main_program ? origin_of(main_program) : 0;
  add_list(out, 'L', library_path, program_origin, capacity, CUDNN_COMPAT_LIBRARY_PATH_SEPARATORS);
  if (runpath) add_list(out, 'R', runpath, origin_of(requester), capacity, runpath_separators);
}

void preload_search_dirs(const void *requester_map, struct search_dirs *out) {
  out->count = 0, out->complete = 0;
  const struct link_map *map = requester_map, *first = map;
  if (!map) return;
  while (first->l_prev) first = first->l_prev;  // the main program heads the list
  loader_search_dirs(map, first, out);
}

// ld.so.cache, mapped for one lookup: 1 and *found, 0 when it names none (or there is none: ld.so
// goes on to the default directories), -1 when its choice depends on the CPU (glibc-hwcaps).
static int cache_search(const char *name, const char **found) {
  const long fd =
      sys_retry(SYS_openat, AT_FDCWD, "/etc/ld.so.cache", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return 0;
  struct stat st;
  long data = -1;
  if (sys(SYS_fstat, fd, &st, 0) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      st.st_size <= 64l << 20)
    data = sys6(SYS_mmap, 0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  sys(SYS_close, fd, 0, 0);
  if (data < 0 && data > -4096) return 0;
  const char *path = 0;
  int r =
      cudnn_compat_ld_cache_find((const char *)data, (unsigned long)st.st_size, name, 0, -1, &path);
  if (r == 1 && !(*found = arena_strdup(path))) r = -1;
  sys(SYS_munmap, data, st.st_size, 0);
  return r;
}

// Where ld.so lives tells which default directories glibc was built with: the target of the
// x86-64 loader's link (Debian's points into the multiarch directory), else /lib64 itself.
static const char *const *default_dirs(void) {
  static const char *const *dirs;
  static char target[4096];
  if (dirs) return dirs;
  static const char loader[] = "/lib64/ld-linux-x86-64.so.2";
  const long n = sys4(SYS_readlinkat, AT_FDCWD, loader, target, sizeof target - 1);
  target[n > 0 ? n : 0] = 0;
  static char path[2 * 4096], dir[2 * 4096];
  const long at = target[0] == '/' ? 0 : append_text(path, sizeof path, 0, "/lib64/");
  append_text(path, sizeof path, at, target);  // a relative target counts from /lib64
  if (n == -ENOENT)
    copy_text(dir, sizeof dir, "/lib/x86_64-linux-gnu");
  else if (n <= 0 || !split_path(path, dir, sizeof dir))
    copy_text(dir, sizeof dir, "/lib64");
  dirs = cudnn_compat_default_dirs(dir);
  return dirs;
}

int system_search(const char *name, const char **found) {
  *found = 0;
  const int cached = cache_search(name, found);
  if (cached) return cached > 0;
  static char candidate[4096];  // callers hold the shim's lock
  for (const char *const *d = default_dirs(); *d; ++d)
    if (join_path(candidate, sizeof candidate, *d, name) && loader_may_open(candidate))
      return (*found = arena_strdup(candidate)) != 0;
  return 1;
}
