// Strings, paths and cuDNN names for the shim, which cannot call libc.
#include "shim_text.h"

long text_len(const char *s) {
  long n = 0;
  while (s[n]) ++n;
  return n;
}

int text_eq(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

const char *after_prefix(const char *s, const char *prefix) {
  while (*prefix)
    if (*s++ != *prefix++) return 0;
  return s;
}

int copy_text(char *dst, long size, const char *src) {
  long i = 0;
  for (; src[i]; ++i) {
    if (i + 1 >= size) {
      dst[0] = 0;
      return 0;
    }
    dst[i] = src[i];
  }
  dst[i] = 0;
  return 1;
}

long append_text(char *dst, long size, long at, const char *src) {
  while (*src && at + 1 < size) dst[at++] = *src++;
  dst[at] = 0;
  return at;
}

const char *base_name(const char *path) {
  const char *base = path;
  for (const char *p = path; *p; ++p)
    if (*p == '/') base = p + 1;
  return base;
}

int join_path(char *dst, long size, const char *dir, const char *base) {
  const long d = text_len(dir), b = text_len(base);
  if (d + 1 + b + 1 > size) return 0;
  for (long i = 0; i < d; ++i) dst[i] = dir[i];
  dst[d] = '/';
  for (long i = 0; i <= b; ++i) dst[d + 1 + i] = base[i];
  return 1;
}

int path_is(const char *path, const char *dir, const char *base) {
  const char *rest = after_prefix(path, dir);
  return rest && *rest == '/' && text_eq(rest + 1, base);
}

const char *split_path(const char *path, char *dir, long size) {
  const char *base = base_name(path);
  const long d = base == path ? 0 : base - path - 1;
  if (d + 1 > size) return 0;
  for (long i = 0; i < d; ++i) dir[i] = path[i];
  dir[d] = 0;
  return base;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// "7f12a000-7f12b000 r-xp 00000000 08:01 1234   /path/lib.so": the range and the path.
const char *mapping_path(char *maps, uintptr_t address) {
  for (char *line = maps; *line;) {
    uintptr_t lo = 0, hi = 0;
    char *p = line;
    for (int h; (h = hex_value(*p)) >= 0; ++p) lo = lo * 16 + (uintptr_t)h;
    if (*p == '-') ++p;
    for (int h; (h = hex_value(*p)) >= 0; ++p) hi = hi * 16 + (uintptr_t)h;
    char *end = p;
    while (*end && *end != '\n') ++end;
    if (address >= lo && address < hi) {
      while (p < end && *p != '/') ++p;
      if (p == end) return 0;
      *end = 0;
      return p;
    }
    line = *end ? end + 1 : end;
  }
  return 0;
}

int parse_cudnn_name(const char *base, struct cudnn_name *out) {
  const char *p = after_prefix(base, "libcudnn");
  if (!p) return 0;
  int sub = 0;
  if (*p == '_') {
    sub = 1;
    const char *word = ++p;
    while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_') ++p;
    if (p == word) return 0;
  }
  p = after_prefix(p, ".so");
  if (!p) return 0;
  int major = -1, numbers = 0;
  while (*p == '.') {
    ++p;
    int n = 0, digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 6; ++p, ++digits) n = n * 10 + (*p - '0');
    if (!digits) return 0;
    if (numbers++ == 0) major = n;
  }
  if (*p) return 0;
  out->base = base;
  out->sub = sub;
  out->major = major;
  out->full_version = numbers > 1;
  return 1;
}
