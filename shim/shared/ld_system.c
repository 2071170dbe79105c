/* /etc/ld.so.cache as glibc's ld.so reads it (elf/dl-cache.c, sysdeps/generic/dl-cache.h): the
 * new format alone ("glibc-ld.so.cache1.1", glibc >= 2.32's default), the old one alone
 * ("ld.so-1.7.0") and the compat layout RHEL 8 and Ubuntu 20.04 write (the old header and table,
 * then the new format at the next 8-byte boundary, which ld.so prefers). Every offset is checked
 * against the size: the file is another program's output. */
#include "ld_system.h"

#include "../shim_text.h"

#define X8664_LIBC6 0x0303 /* FLAG_X8664_LIB64 | FLAG_ELF_LIBC6 */
#define EXTENSION_MAGIC 0xeaa42174u
#define TAG_GLIBC_HWCAPS 1u
#define HWCAP_EXTENSION_HIGH (1u << 30) /* bit 62 of the 64-bit hwcap, in its high word */
#define ISA_LEVEL_MASK ((1u << 10) - 1)

struct bytes {
  const unsigned char *data;
  unsigned long size;
};

static int u32_at(struct bytes b, unsigned long at, unsigned long *out) {
  if (at > b.size || b.size - at < 4) return 0;
  const unsigned char *p = b.data + at;
  *out = (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
         (unsigned long)p[3] << 24;
  return 1;
}

/* The NUL-terminated string at offset, or 0 when it runs past the end. */
static const char *string_at(struct bytes b, unsigned long at) {
  for (unsigned long i = at; i < b.size; ++i)
    if (!b.data[i]) return (const char *)b.data + at;
  return 0;
}

static int starts_with(struct bytes b, unsigned long at, const char *magic) {
  for (unsigned long i = 0; magic[i]; ++i)
    if (at + i >= b.size || b.data[at + i] != (unsigned char)magic[i]) return 0;
  return 1;
}

/* The index-th glibc-hwcaps subdirectory name of the extension section after header (their
 * offsets, like the section's, count from the start of the file), or 0. */
static const char *subdir_name(struct bytes b, unsigned long header, unsigned long index) {
  unsigned long ext, magic, count;
  if (!u32_at(b, header + 32, &ext) || !ext || !u32_at(b, ext, &magic) ||
      magic != EXTENSION_MAGIC || !u32_at(b, ext + 4, &count))
    return 0;
  for (unsigned long i = 0; i < count && i < 64; ++i) {
    const unsigned long s = ext + 8 + i * 16;
    unsigned long tag, offset, size, name;
    if (!u32_at(b, s, &tag) || tag != TAG_GLIBC_HWCAPS || !u32_at(b, s + 8, &offset) ||
        !u32_at(b, s + 12, &size))
      continue;
    if (index < size / 4) return u32_at(b, offset + index * 4, &name) ? string_at(b, name) : 0;
    index -= size / 4;
  }
  return 0;
}

struct table {
  unsigned long entries, count, entry_size, strings, header; /* offsets into the file */
};

/* The table ld.so searches: the new one when there is one, else the old one. */
static int find_table(struct bytes b, struct table *t) {
  static const char new_magic[] = "glibc-ld.so.cache1.1";
  if (starts_with(b, 0, new_magic)) {
    t->entries = 48, t->entry_size = 24, t->strings = 0, t->header = 0;
    return u32_at(b, 20, &t->count);
  }
  unsigned long old_count;
  if (!starts_with(b, 0, "ld.so-1.7.0") || !u32_at(b, 12, &old_count)) return 0;
  const unsigned long old_end = 16 + old_count * 12, next = (old_end + 7) & ~7ul;
  if (next < b.size && starts_with(b, next, new_magic)) {
    t->entries = next + 48, t->entry_size = 24, t->strings = next, t->header = next;
    return u32_at(b, next + 20, &t->count);
  }
  t->entries = 16, t->count = old_count, t->entry_size = 12, t->strings = old_end, t->header = 0;
  return 1;
}

/* Where a glibc-hwcaps entry ranks among hwcaps (best first); hwcaps_count when it does not. */
static int hwcaps_rank(struct bytes b, const struct table *t, unsigned long low, unsigned long high,
                       const char *const *hwcaps, int hwcaps_count) {
  const unsigned long isa_ok = (2ul << hwcaps_count) - 1;
  const char *subdir = subdir_name(b, t->header, low);
  if ((high & ISA_LEVEL_MASK & ~isa_ok) || !subdir) return hwcaps_count;
  for (int r = 0; r < hwcaps_count; ++r)
    if (text_eq(hwcaps[r], subdir)) return r;
  return hwcaps_count;
}

int cudnn_compat_ld_cache_find(const char *data, unsigned long size, const char *name,
                               const char *const *hwcaps, int hwcaps_count, const char **path) {
  const struct bytes b = {(const unsigned char *)data, size};
  struct table t;
  if (!find_table(b, &t)) return 0;
  const char *best = 0;
  int best_rank = hwcaps_count;
  for (unsigned long i = 0; i < t.count; ++i) {
    const unsigned long e = t.entries + i * t.entry_size;
    unsigned long flags, key, value, low = 0, high = 0;
    if (!u32_at(b, e, &flags) || !u32_at(b, e + 4, &key) || !u32_at(b, e + 8, &value)) break;
    const char *k = string_at(b, t.strings + key), *v = string_at(b, t.strings + value);
    if (flags != X8664_LIBC6 || !k || !text_eq(k, name) || !v) continue;
    if (t.entry_size == 24 && (!u32_at(b, e + 16, &low) || !u32_at(b, e + 20, &high))) continue;
    if ((high & ~ISA_LEVEL_MASK) == HWCAP_EXTENSION_HIGH) {
      /* An entry from a glibc-hwcaps subdirectory: the best one this CPU supports wins. */
      if (hwcaps_count < 0) return -1;
      const int r = hwcaps_rank(b, &t, low, high, hwcaps, hwcaps_count);
      if (r < best_rank) best = v, best_rank = r;
    } else if (!low && !high && !best) {
      *path = v; /* hwcaps entries come first; none fit */
      return 1;
    }
  }
  if (best) *path = best;
  return best != 0;
}

const char *const *cudnn_compat_default_dirs(const char *loader_dir) {
  static const char *const multiarch[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                          "/lib", "/usr/lib", 0};
  static const char *const lib64[] = {"/lib64", "/usr/lib64", 0};
  static const char *const plain[] = {"/lib", "/usr/lib", 0};
  unsigned long n = 0;
  while (loader_dir[n]) ++n;
  const char *const suffixes[] = {"x86_64-linux-gnu", "lib64"};
  const char *const *sets[] = {multiarch, lib64};
  for (int s = 0; s < 2; ++s) {
    unsigned long m = 0;
    while (suffixes[s][m]) ++m;
    if (n >= m && text_eq(loader_dir + n - m, suffixes[s])) return sets[s];
  }
  return plain;
}

static int is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

unsigned long cudnn_compat_token_length(const char *s, unsigned long n, const char *name) {
  const unsigned long k = (unsigned long)text_len(name);
  if (n < 1 + k || s[0] != '$') return 0;
  if (n >= k + 3 && s[1] == '{' && s[k + 2] == '}') {
    unsigned long i = 0;
    while (i < k && s[2 + i] == name[i]) ++i;
    if (i == k) return k + 3;
  }
  for (unsigned long i = 0; i < k; ++i)
    if (s[1 + i] != name[i]) return 0;
  return n > k + 1 && is_name_char(s[k + 1]) ? 0 : k + 1;
}
