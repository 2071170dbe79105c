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

int text_has(const char *s, char c) {
  while (*s && *s != c) ++s;
  return c && *s == c;
}

const char *line_end(const char *p) {
  while (*p && *p != '\n') ++p;
  return p;
}

char *line_cut(char *p, char *was) {
  char *end = (char *)line_end(p);
  *was = *end;
  *end = 0;
  return end;
}

char *line_mend(char *end, char was) {
  *end = was;
  return was ? end + 1 : end;
}

const char *next_line(const char *p) {
  p = line_end(p);
  return *p ? p + 1 : p;
}

int read_decimal(const char **p, unsigned long *out) {
  const char *s = *p;
  unsigned long n = 0;
  if (*s < '0' || *s > '9') return 0;
  for (; *s >= '0' && *s <= '9'; ++s) n = n * 10 + (unsigned long)(*s - '0');
  *out = n, *p = s;
  return 1;
}

char *format_decimal(unsigned long n, char *out) {
  char digits[24];
  int k = 0;
  do digits[k++] = (char)('0' + n % 10), n /= 10;
  while (n);
  for (int i = 0; i < k; ++i) out[i] = digits[k - 1 - i];
  out[k] = 0;
  return out;
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

static int is_lower(char c) {
  return c >= 'a' && c <= 'z';
}

static int is_digit(char c) {
  return c >= '0' && c <= '9';
}

int parse_cudnn_name(const char *base, struct cudnn_name *out) {
  const char *p = after_prefix(base, "libcudnn");
  if (!p) return 0;
  const char *word = 0;
  if (*p == '_') {
    /* Words of a lower-case letter and then letters or digits, joined by single '_'. */
    word = ++p;
    do {
      if (!is_lower(*p)) return 0;
      while (is_lower(*p) || is_digit(*p)) ++p;
    } while (*p == '_' && *++p);
  }
  const char *word_end = p;
  p = after_prefix(p, ".so");
  if (!p) return 0;
  int numbers = 0, padded = 0;
  int version[CUDNN_NAME_PARTS] = {-1, -1, -1, -1};
  while (*p == '.') {
    ++p;
    int n = 0, digits = 0;
    for (; is_digit(*p) && digits < 6; ++p, ++digits) n = n * 10 + (*p - '0');
    if (!digits || numbers == CUDNN_NAME_PARTS) return 0;
    padded |= digits > 1 && p[-digits] == '0';
    version[numbers++] = n;
  }
  if (*p) return 0;
  out->base = base;
  out->sub = word != 0;
  out->sub_name = word;
  out->sub_len = (int)(word ? word_end - word : 0);
  out->major = version[0];
  out->full_version = numbers > 1;
  out->parts = numbers;
  out->padded = padded;
  for (int i = 0; i < CUDNN_NAME_PARTS; ++i) out->version[i] = version[i];
  return 1;
}

const char *canonical_cudnn_name(const struct cudnn_name *c, char *out, long size) {
  long at = append_text(out, size, 0, "libcudnn");
  if (c->sub) {
    at = append_text(out, size, at, "_");
    for (int i = 0; i < c->sub_len && at + 1 < size; ++i) out[at++] = c->sub_name[i];
    out[at] = 0;
  }
  at = append_text(out, size, at, ".so");
  for (int i = 0; i < c->parts; ++i) {
    char number[24];
    at = append_text(out, size, at, ".");
    at = append_text(out, size, at, format_decimal((unsigned long)c->version[i], number));
  }
  return at + 1 < size ? out : 0;
}

const char *lexically_normal(const char *path, char *out, long size) {
  if (*path != '/' || size < 2) return 0;
  long n = 0;  // out[0..n): the components kept, each after a '/'
  for (const char *p = path; *p;) {
    while (*p == '/') ++p;
    const char *end = p;
    while (*end && *end != '/') ++end;
    const long len = end - p;
    if (len == 2 && p[0] == '.' && p[1] == '.') {
      while (n > 0 && out[n - 1] != '/') --n;
      if (n > 0) --n;  // ".." of the root is the root
    } else if (len && !(len == 1 && *p == '.')) {
      if (n + 1 + len >= size) return 0;
      out[n++] = '/';
      for (long i = 0; i < len; ++i) out[n++] = p[i];
    }
    p = end;
  }
  if (!n) out[n++] = '/';
  out[n] = 0;
  return out;
}

int is_wheel_cudnn_dir(const char *dir, long n) {
  static const char tail[] = "/nvidia/cudnn/lib";
  while (n > 1 && dir[n - 1] == '/') --n;
  const long t = (long)sizeof tail - 1;
  if (n < t) return 0;
  for (long i = 0; i < t; ++i)
    if (dir[n - t + i] != tail[i]) return 0;
  // The component before "nvidia": site-packages or dist-packages.
  long end = n - t, start = end;
  while (start > 0 && dir[start - 1] != '/') --start;
  const long len = end - start;
  if (len != 13) return 0;
  const char *c = dir + start;
  return (after_prefix(c, "site-packages") || after_prefix(c, "dist-packages")) != 0;
}

const char *below_site_packages(const char *file) {
  const char *below = 0, *q;
  for (const char *p = file; *p; ++p)
    if ((q = after_prefix(p, "/site-packages/")) || (q = after_prefix(p, "/dist-packages/")))
      below = q;
  return below;
}

enum python_path python_path_kind(const char *file) {
  if (below_site_packages(file)) return PYTHON_WHEEL;
  const char *dir_end = 0;
  for (const char *p = file; *p; ++p)
    if (*p == '/') dir_end = p;
  if (!dir_end) return PYTHON_NONE;
  const char *dir = dir_end;
  while (dir > file && dir[-1] != '/') --dir;
  return dir_end - dir == 3 && after_prefix(dir, "lib/") ? PYTHON_LIB_DIR : PYTHON_NONE;
}

const char *conda_meta_beside(const char *dir, char *out, long size) {
  long end = text_len(dir);
  while (end > 1 && dir[end - 1] == '/') --end;
  long slash = end;
  while (slash > 0 && dir[slash - 1] != '/') --slash;
  if (!slash || end - slash != 3 || !after_prefix(dir + slash, "lib")) return 0;
  const long parent = slash - 1;
  if (parent + (long)sizeof "/conda-meta" > size) return 0;
  for (long i = 0; i < parent; ++i) out[i] = dir[i];
  copy_text(out + parent, size - parent, "/conda-meta");
  return out;
}

int is_system_dir(const char *dir) {
  return after_prefix(dir, "/usr/") || after_prefix(dir, "/lib");
}

unsigned long cudnn_number_of(int major, int minor, int patch) {
  return (unsigned long)major * (major >= 9 ? 10000ul : 1000ul) + (unsigned long)minor * 100ul +
         (unsigned long)patch;
}

int cudnn_number_parts(unsigned long n, int part[3]) {
  const int nine = n >= 90000;
  if (nine ? n >= 1000000 : n < 1000 || n >= 9000) return 0;
  const unsigned long scale = nine ? 10000 : 1000;
  part[0] = (int)(n / scale), part[1] = (int)(n % scale / 100), part[2] = (int)(n % 100);
  return 1;
}

char *cudnn_number_text(unsigned long n, char *out) {
  int part[3];
  if (!cudnn_number_parts(n, part)) return format_decimal(n, out);
  long at = 0;
  for (int i = 0; i < 3; ++i) {
    if (i) out[at++] = '.';
    at += text_len(format_decimal((unsigned long)part[i], out + at));
  }
  return out;
}
