// The directories the loader searches for a requester before it looks in ld.so.cache, in its own
// order, taken from the loader's own data: what the engine and the fast path need to know which
// file a bare name becomes, without reading the requester from disk.
#pragma once

#include <link.h>

#include "arena.h"

#pragma GCC visibility push(hidden)

struct search_dirs {
  const char **dir;  // "L:/dir" (LD_LIBRARY_PATH), "R:/dir" (RUNPATH), "P:/dir" (RPATH)
  long count;
  int complete;          // 0: some entry could not be read exactly ($LIB, $PLATFORM, no requester)
  struct reused buffer;  // where dir is: each caller's list is filled again at each decision
};

// From the requester's and the main program's dynamic sections in memory (RPATH, RUNPATH,
// $ORIGIN) and LD_LIBRARY_PATH as the process started with it: what the loader itself reads.
// (glibc's own list, dlinfo RTLD_DI_SERINFO, does not tell LD_LIBRARY_PATH from the default
// directories: its flags are all 0 in 2.36.)
void loader_search_dirs(const struct link_map *requester, const struct link_map *main_program,
                        struct search_dirs *out);
// LD_PRELOAD: loader_search_dirs for the link map of the object whose code called dlopen (found
// by the caller before the shim's lock is taken).
void preload_search_dirs(const void *requester_map, struct search_dirs *out);

// ld.so's search after those directories, read by the shim itself: /etc/ld.so.cache, then the
// default directories. 1 when it can tell, with *found the file (0: the loader finds none); 0 when
// it cannot (the cache lists the name in a glibc-hwcaps subdirectory: the CPU decides).
int system_search(const char *name, const char **found);
int file_exists(const char *path);
// A file ld.so's search would open there: there, and readable by this process
// (shared/loadable.h: a file it may not read, the loader passes over for the next directory).
int loader_may_open(const char *path);
// A conda prefix's lib/ directory (conda_meta_beside, and conda-meta/ is a directory).
int is_conda_lib_dir(const char *dir);

#pragma GCC visibility pop
