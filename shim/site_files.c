// See site_files.h; the rule itself is docs/contract.md's.
#include "site_files.h"

#include <fcntl.h>
#include <linux/errno.h>

#include "look.h"
#include "shim_text.h"
#include "sys.h"

const char *site_verdict_name(enum site_verdict v) {
  static const char *const names[SITE_VERDICTS] = {
      "believed",      "map-not-a-file", "missing",         "not-a-file", "other-format",
      "map-untrusted", "dir-untrusted",  "table-untrusted", "stale",      "cut-short"};
  return v < SITE_VERDICTS ? names[v] : "?";
}

unsigned long site_crc32(unsigned long crc, const char *data, long n) {
  // Four bits at a time: a table of 16 words instead of 256 keeps the shim small.
  static const unsigned int nibble[16] = {0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu,
                                          0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
                                          0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
                                          0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};
  unsigned int c = ~(unsigned int)crc;
  for (long i = 0; i < n; ++i) {
    c ^= (unsigned char)data[i];
    c = (c >> 4) ^ nibble[c & 15];
    c = (c >> 4) ^ nibble[c & 15];
  }
  return ~c;
}

int site_object_problem(const struct stat *st, unsigned long reader, long gid) {
  const int group_trusted = gid >= 0 && (long)st->st_gid == gid;
  // Only root and the trusted group's members can give an object that group (chgrp needs
  // membership), so its owner counts as one of them.
  if (st->st_uid != 0 && st->st_uid != reader && !group_trusted) return 1;
  if (st->st_mode & S_IWOTH) return 2;
  if ((st->st_mode & S_IWGRP) && !group_trusted) return 3;
  return 0;
}

const char *site_parse_stamp(const char *text, const char *format, struct site_stamp *out) {
  const char *p = after_prefix(text, format);
  unsigned long *field[5] = {&out->ino, &out->size, &out->mtime_s, &out->mtime_ns, &out->crc};
  for (int i = 0; i < 5; ++i)
    if (!p || *p++ != '\t' || !read_decimal(&p, field[i])) return 0;
  if (!p || *p++ != '\t') return 0;
  unsigned long gid = 0;
  const char *none = after_prefix(p, SITE_NO_GROUP);
  if (none && *none == '\n')
    out->gid = -1, p = none;
  else if (read_decimal(&p, &gid))
    out->gid = (long)gid;
  else
    return 0;
  return *p == '\n' ? p + 1 : 0;
}

long site_open_table(const char *map_path, const char *table_path, char *scratch, long scratch_size,
                     struct site_seen *seen, enum site_verdict *verdict) {
  // lstat: a map reached through a link is left to the engine, which checks where it leads.
  if (look(map_path, &seen->map, 1) != 0 || !S_ISREG(seen->map.st_mode) ||
      !split_path(map_path, scratch, scratch_size) ||
      look(*scratch ? scratch : ".", &seen->dir, 0) != 0) {
    *verdict = SITE_MAP_NOT_FILE;
    return -1;
  }
  // O_NONBLOCK: a FIFO planted at the table's name must not hold the reader.
  const long fd =
      sys_retry(SYS_openat, AT_FDCWD, table_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) {
    *verdict = fd == -ELOOP ? SITE_TABLE_NOT_FILE : SITE_NO_TABLE;
    return -1;
  }
  if (sys(SYS_fstat, fd, &seen->table, 0) != 0 || !S_ISREG(seen->table.st_mode)) {
    sys(SYS_close, fd, 0, 0);
    *verdict = SITE_TABLE_NOT_FILE;
    return -1;
  }
  return fd;
}

// The map's content against the stamp (its size and CRC-32): a copy of the map keeps both. Read
// only when the sizes agree (the stamp's is a map validate read, at most SITE_FILE_MAX), so a map
// truncated to 4 GB is never read in the host.
static int same_content(const char *map_path, const struct site_stamp *s, const struct stat *map) {
  if ((unsigned long)map->st_size != s->size || s->size > SITE_FILE_MAX) return 0;
  const long fd = sys_retry(SYS_openat, AT_FDCWD, map_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return 0;
  struct stat st;
  char block[1024];
  unsigned long crc = 0, size = 0;
  long n = 0;
  const int regular = sys(SYS_fstat, fd, &st, 0) == 0 && S_ISREG(st.st_mode);
  while (regular && size <= s->size && (n = sys_retry(SYS_read, fd, block, sizeof block)) > 0)
    crc = site_crc32(crc, block, n), size += (unsigned long)n;
  sys(SYS_close, fd, 0, 0);
  return regular && n == 0 && size == s->size && crc == s->crc;
}

enum site_verdict site_judge_table(const char *text, long size, const char *format,
                                   const char *map_path, struct site_seen *seen) {
  struct site_stamp *s = &seen->stamp;
  seen->reader = -1;
  if (!site_parse_stamp(text, format, s)) return SITE_OTHER_FORMAT;
  const unsigned long reader = (unsigned long)sys(SYS_geteuid, 0, 0, 0);
  seen->reader = (long)reader;  // the shim's usage record checks its files' owner against it too
  if (site_object_problem(&seen->map, reader, s->gid)) return SITE_MAP_UNTRUSTED;
  if (site_object_problem(&seen->dir, reader, s->gid)) return SITE_DIR_UNTRUSTED;
  const int group_table = s->gid >= 0 && (long)seen->table.st_gid == s->gid;
  if (site_object_problem(&seen->table, reader, s->gid) ||
      (seen->table.st_uid != seen->map.st_uid && !group_table))
    return SITE_TABLE_UNTRUSTED;
  // The map's identity as stamped, and the table younger than the map (git's racy-clean rule: an
  // edit in the clock tick the table was made in would not show in the stamp); otherwise its
  // content decides, which a copy (cp -p, rsync -a, an image) keeps.
  const struct stat *m = &seen->map;
  const int same_file = s->ino == (unsigned long)m->st_ino &&
                        s->size == (unsigned long)m->st_size &&
                        s->mtime_s * 1000000000ul + s->mtime_ns == timespec_ns(&m->st_mtim) &&
                        timespec_ns(&seen->table.st_mtim) > timespec_ns(&m->st_mtim);
  if (!same_file && !same_content(map_path, s, m)) return SITE_STALE;
  static const char end[] = "\n" SITE_END_LINE "\n";
  const long n = sizeof end - 1;
  if (size < n) return SITE_CUT_SHORT;
  for (long i = 0; i < n; ++i)
    if (text[size - n + i] != end[i]) return SITE_CUT_SHORT;
  return SITE_BELIEVED;
}
