#define _GNU_SOURCE
#include "arena.h"

#include <fcntl.h>
#include <sys/mman.h>

#include "shim_text.h"
#include "sys.h"

enum { kChunk = 64 * 1024 };

static void *map_pages(long size) {
  const long p =
      sys6(SYS_mmap, 0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p < 0 && p > -4096 ? 0 : (void *)p;
}

// Callers hold the shim's lock: one decision at a time.
static char *chunk;
static long used, left;

void *arena_alloc(long size) {
  size = (size + 15) & ~15L;
  if (size > left) {
    const long want = size > kChunk ? size : kChunk;
    char *fresh = map_pages(want);
    if (!fresh) return 0;
    chunk = fresh, used = 0, left = want;
  }
  void *p = chunk + used;
  used += size, left -= size;
  return p;
}

char *arena_strdup(const char *s) {
  const long n = text_len(s) + 1;
  char *p = arena_alloc(n);
  if (p) copy_text(p, n, s);
  return p;
}

// The first text of a decision (the process's auxv, its environment, the decision table) fits
// here and costs no mmap and no page faults; a second at the same time, or a larger one, maps its
// own pages.
static char pool[32 * 1024];
static int pool_taken;

static int grow(struct file_text *t, long capacity) {
  if (!t->data && !pool_taken && capacity <= (long)sizeof pool) {
    pool_taken = 1;
    t->data = pool, t->capacity = sizeof pool;
    return 1;
  }
  char *fresh = t->data && t->data != pool ? 0 : map_pages(capacity);
  if (t->data == pool) {
    if (!fresh) return 0;
    for (long i = 0; i < t->size; ++i) fresh[i] = pool[i];
    pool_taken = 0;
  } else if (t->data) {
    const long p = sys4(SYS_mremap, t->data, t->capacity, capacity, MREMAP_MAYMOVE);
    if (p < 0 && p > -4096) return 0;
    fresh = (char *)p;
  }
  if (!fresh) return 0;
  t->data = fresh, t->capacity = capacity;
  return 1;
}

int text_append(struct file_text *t, const char *data, long n) {
  if (t->size + n + 1 > t->capacity) {
    long capacity = t->capacity ? t->capacity : 16 * 1024;
    while (t->size + n + 1 > capacity) capacity *= 2;
    if (!grow(t, capacity)) return 0;
  }
  for (long i = 0; i < n; ++i) t->data[t->size + i] = data[i];
  t->size += n;
  t->data[t->size] = 0;
  return 1;
}

int file_read(const char *path, struct file_text *out) {
  out->data = 0, out->size = 0, out->capacity = 0;
  const long fd = sys_retry(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  static char block[4096];  // callers hold the shim's lock
  long n = 0;
  int ok = text_append(out, "", 0);
  while (ok && (n = sys_retry(SYS_read, fd, block, sizeof block)) > 0)
    ok = text_append(out, block, n);
  sys(SYS_close, fd, 0, 0);
  if (n < 0) ok = 0;
  if (!ok) file_free(out);
  return ok;
}

int fd_read_sized(long fd, long size, struct file_text *out) {
  static char block[4096];  // callers hold the shim's lock
  long n = 1;
  int ok = text_append(out, "", 0);
  for (long got = 0; ok && got < size && (n = sys_retry(SYS_read, fd, block, sizeof block)) > 0;
       got += n)
    ok = text_append(out, block, n);
  return ok && n >= 0;
}

void file_free(struct file_text *f) {
  if (f->data == pool)
    pool_taken = 0;
  else if (f->data)
    sys(SYS_munmap, f->data, f->capacity, 0);
  f->data = 0, f->size = 0, f->capacity = 0;
}
