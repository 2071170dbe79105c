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

// Callers hold the shim's lock: one decision at a time. The first chunk is the library's own:
// what a process keeps (a family's directory, the paths handed over) costs no mmap, and each page
// is touched where the next allocation lands, not a fresh mapping's.
static char first[4096] __attribute__((aligned(16)));
// Initialised, so in .data with the pointer the loader relocates at load: a page already the
// process's own, where a zero-initialised counter's page took two faults (read, then write) in
// the first decision.
static struct {
  char *chunk;
  long used, left;
} a = {first, 0, sizeof first};

void *arena_alloc(long size) {
  size = (size + 15) & ~15L;
  if (size > a.left) {
    const long want = size > kChunk ? size : kChunk;
    char *fresh = map_pages(want);
    if (!fresh) return 0;
    a.chunk = fresh, a.used = 0, a.left = want;
  }
  void *p = a.chunk + a.used;
  a.used += size, a.left -= size;
  return p;
}

// Each string kept, once: a list (the strings a process's decisions keep are a few dozen paths),
// in the arena beside them.
struct kept_text {
  const char *s;
  long n;
  struct kept_text *next;
};
static struct kept_text *kept_texts;

static const char *kept_before(const char *s, long n) {
  for (const struct kept_text *k = kept_texts; k; k = k->next) {
    long i = 0;
    while (k->n == n && i < n && k->s[i] == s[i]) ++i;
    if (k->n == n && i == n) return k->s;
  }
  return 0;
}

// s, in the arena: found again from now on. With no room for its entry it is still whole, only
// not shared.
static const char *keep_text(const char *s, long n) {
  struct kept_text *k = arena_alloc(sizeof *k);
  if (k) k->s = s, k->n = n, k->next = kept_texts, kept_texts = k;
  return s;
}

const char *arena_strndup(const char *s, long n) {
  const char *before = kept_before(s, n);
  if (before) return before;
  char *p = arena_alloc(n + 1);
  if (!p) return 0;
  for (long i = 0; i < n; ++i) p[i] = s[i];
  p[n] = 0;
  return keep_text(p, n);
}

const char *arena_strdup(const char *s) {
  return arena_strndup(s, text_len(s));
}

const char *arena_keep_last(char *s, long size) {
  const long n = text_len(s);
  const char *before = kept_before(s, n);
  if (!before) return keep_text(s, n);
  size = (size + 15) & ~15L;
  if (s + size == a.chunk + a.used) a.used -= size, a.left += size;
  return before;
}

const char *arena_join(const char *dir, const char *base) {
  const long n = text_len(dir) + 1 + text_len(base) + 1;
  char *p = arena_alloc(n);
  return p && join_path(p, n, dir, base) ? arena_keep_last(p, n) : 0;
}

void *arena_reuse(struct reused *r, long size) {
  if (size > r->size) {
    r->data = arena_alloc(size);
    r->size = r->data ? size : 0;
  }
  return r->data;
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

// Room for n more bytes and a NUL.
static int reserve(struct file_text *t, long n) {
  if (t->size + n + 1 <= t->capacity) return 1;
  long capacity = t->capacity ? t->capacity : 16L * 1024;
  while (t->size + n + 1 > capacity) capacity *= 2;
  return grow(t, capacity);
}

int text_append(struct file_text *t, const char *data, long n) {
  if (!reserve(t, n)) return 0;
  for (long i = 0; i < n; ++i) t->data[t->size + i] = data[i];
  t->size += n;
  t->data[t->size] = 0;
  return 1;
}

// Reads straight into the text: no buffer of its own to copy from, whose page a decision would
// also touch. At most want bytes (want < 0: to the end).
static int read_into(long fd, long want, struct file_text *out) {
  long n = 1;
  for (long got = 0; (want < 0 || got < want) && n > 0; got += n) {
    const long block = want < 0 || want - got > 4096 ? 4096 : want - got;
    if (!reserve(out, block)) return 0;
    n = sys_retry(SYS_read, fd, out->data + out->size, block);
    if (n > 0) out->size += n;
    out->data[out->size] = 0;
  }
  return n >= 0;
}

int file_read(const char *path, struct file_text *out) {
  out->data = 0, out->size = 0, out->capacity = 0;
  const long fd = sys_retry(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  const int ok = read_into(fd, -1, out);
  sys(SYS_close, fd, 0, 0);
  if (!ok) file_free(out);
  return ok;
}

int fd_read_sized(long fd, long size, struct file_text *out) {
  return reserve(out, 0) && read_into(fd, size, out);
}

void file_free(struct file_text *f) {
  if (f->data == pool)
    pool_taken = 0;
  else if (f->data)
    sys(SYS_munmap, f->data, f->capacity, 0);
  f->data = 0, f->size = 0, f->capacity = 0;
}
