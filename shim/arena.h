// Memory for the shim, straight from the kernel: no buffer of a fixed size decides how large a map,
// an environment or a family may be. What it hands out lives as long as the process (the loader
// may keep a path the shim returned), except a whole file read for one decision, given back.
// Strings are kept once each: a process that loads and unloads cuDNN for ever (a plugin host, a
// test loop) makes the same decisions again, and must not grow by their strings each time.
#pragma once

#include <stddef.h>

#pragma GCC visibility push(hidden)

// size bytes that are never freed; 0 when the kernel refuses.
void *arena_alloc(long size);
const char *arena_strdup(const char *s);
const char *arena_strndup(const char *s, long n);           // the first n bytes of s, and a NUL
const char *arena_join(const char *dir, const char *base);  // dir/base
// s, of size bytes, the arena's last allocation, now complete: the same string kept before
// instead (its space given back), else s, kept.
const char *arena_keep_last(char *s, long size);

// A buffer its one caller fills again at each decision (an argument list, an environment): grown
// when a decision needs more, never allocated anew, so that a process deciding again and again
// (a loop of dlopen and dlclose) does not grow. 0 when the kernel refuses memory.
struct reused {
  void *data;
  long size;
};
void *arena_reuse(struct reused *r, long size);

// A whole file (it may be as large as /proc/self/maps of a big Python process) in memory of its
// own, NUL-terminated; release with file_free. 0 when it cannot be read.
struct file_text {
  char *data;
  long size;      // bytes read
  long capacity;  // bytes mapped
};
int file_read(const char *path, struct file_text *out);
// Appends the size bytes fstat gave for fd: no read past them to find the end, which a file
// replaced by rename (the tables, the memo's entries) cannot grow. 0 on a read error.
int fd_read_sized(long fd, long size, struct file_text *out);
// Appends n bytes (and a NUL) to t, which starts zeroed; 0 when the kernel refuses memory.
int text_append(struct file_text *t, const char *data, long n);
void file_free(struct file_text *f);

#pragma GCC visibility pop
