#define _GNU_SOURCE
#include "search_dirs.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>

#include "arena.h"
#include "elf_dynamic.h"
#include "environment.h"
#include "shim_text.h"
#include "sys.h"

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
  static char buf[4096];  // callers hold the shim's lock
  buf[0] = kind, buf[1] = ':';
  long n = 2;
  for (long i = 0; i < length && n < (long)sizeof buf - 1;) {
    const char *rest = entry + i;
    const char *o = after_prefix(rest, "$ORIGIN");
    if (!o) o = after_prefix(rest, "${ORIGIN}");
    if (o && origin) {
      n = append_text(buf, sizeof buf, n, origin);
      i += o - rest;
    } else {
      if (*rest == '$') *exact = 0;  // $LIB, $PLATFORM: the engine expands those
      buf[n++] = *rest, ++i;
    }
  }
  if (n == 2) buf[n++] = '.';
  buf[n] = 0;
  while (n > 3 && buf[n - 1] == '/') buf[--n] = 0;
  return arena_strdup(buf);
}

static void add_list(struct search_dirs *out, char kind, const char *list, const char *origin,
                     long capacity) {
  for (const char *p = list; list && *p;) {
    const char *end = p;
    while (*end && *end != ':' && *end != ';') ++end;
    add(out, expand(kind, p, end - p, origin, &out->complete), capacity);
    p = *end ? end + 1 : end;
  }
}

static const char *origin_of(const struct link_map *map) {
  static char dir[4096], exe[4096];  // static: callers hold the shim's lock
  const char *name = map->l_name;
  if (!name || !*name) {  // the main program
    const long n = sys4(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = 0;
    name = exe;
  }
  return split_path(name, dir, sizeof dir) ? arena_strdup(dir) : 0;
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
  const char *library_path =
      secure_execution() ? 0 : env_value(initial_environment(), "LD_LIBRARY_PATH");
  const long capacity =
      entries(rpath) + entries(main_rpath) + entries(library_path) + entries(runpath);
  out->dir = arena_alloc(capacity * (long)sizeof *out->dir);
  if (!out->dir) {
    out->complete = 0;
    return;
  }
  if (rpath) add_list(out, 'P', rpath, origin_of(requester), capacity);
  if (main_rpath) add_list(out, 'P', main_rpath, origin_of(main_program), capacity);
  add_list(out, 'L', library_path, 0, capacity);
  if (runpath) add_list(out, 'R', runpath, origin_of(requester), capacity);
}

void preload_search_dirs(const void *requester_map, struct search_dirs *out) {
  out->count = 0, out->complete = 0;
  const struct link_map *map = requester_map, *first = map;
  if (!map) return;
  while (first->l_prev) first = first->l_prev;  // the main program heads the list
  loader_search_dirs(map, first, out);
}
