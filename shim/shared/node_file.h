/* Where a node's facts (its GPUs and its driver's CUDA) are remembered for one boot:
 *   /tmp/cudnn-compat-<uid>/node-<node name>
 * (/tmp: node-local on every cluster we know; the node name because test clusters run several
 * slurmd on one host, one boot). The names are the site contract's (cmake/SiteContract.cmake),
 * shared by the writer (src/core/system/node_facts.cc), the shim's fast path (C) and both module
 * hooks. Its lines (SITE_NODE_FILE_KEYS): "boot\t<boot id>", "gpus\t7.5,9.0", "driver\t12.2",
 * "source\t...", "problem\t..." (empty when learnt), "end" (cudnn_compat_node_file_parse); read
 * only whole, at most CUDNN_COMPAT_NODE_FILE_MAX bytes, from a directory of the reader's own that
 * nobody else may write.
 *
 * Believed only from this boot (a reboot may bring another driver or GPUs): every reader demands
 * that the file was modified in this boot (cudnn_compat_node_file_of_this_boot); those that can
 * afford reading SITE_BOOT_ID (the engine, the hooks) also demand that its boot line is this
 * boot's. The shim, which reads it in every judging process, is spared that read: the engine
 * writes the file anew (and its mtime with it) whenever either fails, so a file the engine left
 * in this boot passes both. */
#pragma once

#include <assert.h>

#include "site_contract.h"

#define CUDNN_COMPAT_NODE_DIR_PREFIX SITE_NODE_DIR_PREFIX
#define CUDNN_COMPAT_NODE_FILE_PREFIX SITE_NODE_FILE_PREFIX
#define CUDNN_COMPAT_BOOT_ID SITE_BOOT_ID
#define CUDNN_COMPAT_NODE_FILE_MAX SITE_NODE_FILE_MAX

/* Whether a node name may be part of the file's name: not empty, no '/' and no control character.
 * Every reader passes over a $SLURMD_NODENAME that is not ("od\nx" was cut to "od", another node's
 * file) for the host name, as when it is unset; a host name that is not has no node file. */
static inline int cudnn_compat_node_name_usable(const char *name) {
  if (!name || !*name) return 0;
  for (; *name; ++name)
    if (*name == '/' || (unsigned char)*name < 0x20 || *name == 0x7f) return 0;
  return 1;
}

/* The file's grammar, the same for every reader (docs/contract.md, "The node file"): exactly the
 * lines of SITE_NODE_FILE_KEYS in their order, each "<key>\t<value>" with no control character in
 * the value (no tab, CR or NUL), then "end" and nothing after it. Anything else, a file of more
 * than CUDNN_COMPAT_NODE_FILE_MAX bytes included, is not believed. */
enum {
  CUDNN_COMPAT_NODE_BOOT,
  CUDNN_COMPAT_NODE_GPUS,
  CUDNN_COMPAT_NODE_DRIVER,
  CUDNN_COMPAT_NODE_SOURCE,
  CUDNN_COMPAT_NODE_PROBLEM,
  CUDNN_COMPAT_NODE_LINES
};
struct cudnn_compat_node_lines {
  const char *value[CUDNN_COMPAT_NODE_LINES]; /* by the names above */
  long len[CUDNN_COMPAT_NODE_LINES];
};

/* The key of a line, by its name above (tests/unit/node_file_test.cc holds names and keys to the
 * same order). */
static inline const char *cudnn_compat_node_key(int line) {
  static const char *const keys[] = {SITE_NODE_FILE_KEYS};
  static_assert(sizeof keys / sizeof *keys == CUDNN_COMPAT_NODE_LINES,
                "a line of SITE_NODE_FILE_KEYS without a name here, or the reverse");
  return keys[line];
}

/* Whether text[*at..] starts with word then stop; *at moves past both. */
static inline int cudnn_compat_node_word(const char *text, long n, long *at, const char *word,
                                         char stop) {
  for (; *word; ++word, ++*at)
    if (*at >= n || text[*at] != *word) return 0;
  return *at < n && text[(*at)++] == stop;
}

/* The n bytes of text by the grammar into out; 0 when they do not follow it. */
static inline int cudnn_compat_node_file_parse(const char *text, long n,
                                               struct cudnn_compat_node_lines *out) {
  long at = 0;
  if (n > CUDNN_COMPAT_NODE_FILE_MAX) return 0;
  for (int i = 0; i < CUDNN_COMPAT_NODE_LINES; ++i) {
    if (!cudnn_compat_node_word(text, n, &at, cudnn_compat_node_key(i), '\t')) return 0;
    out->value[i] = text + at;
    for (; at < n && text[at] != '\n'; ++at)
      if ((unsigned char)text[at] < 0x20 || text[at] == 0x7f) return 0;
    out->len[i] = text + at - out->value[i];
    if (!cudnn_compat_node_word(text, n, &at, "", '\n')) return 0;
  }
  return cudnn_compat_node_word(text, n, &at, SITE_END_LINE, '\n') && at == n;
}

/* Whether a file last modified at mtime_ns (CLOCK_REALTIME) was modified in this boot: not
 * before the boot moment, CLOCK_REALTIME minus CLOCK_BOOTTIME (which counts suspended time
 * too), both read now. A file of an earlier boot was modified before it - unless that boot's
 * clock ran ahead of this one's by more than the time between the write and the reboot; a clock
 * stepped forward in this boot makes a file of this boot look older, and the engine then learns
 * the node once more. */
static inline int cudnn_compat_node_file_of_this_boot(unsigned long mtime_ns,
                                                      unsigned long realtime_ns,
                                                      unsigned long boottime_ns) {
  /* Modified later than now: a clock that ran ahead (another boot's, or this one's before it was
   * set right); such a file would be believed for the rest of the boot. */
  return realtime_ns > boottime_ns && mtime_ns >= realtime_ns - boottime_ns &&
         mtime_ns <= realtime_ns;
}

/* The file itself, as fstat (or lstat) gives it: a regular file of the user's own that nobody else
 * may write - not a FIFO (which would hold its reader), a device, a directory or a link. */
static inline int cudnn_compat_node_file_trusted(unsigned long st_uid, unsigned long st_mode,
                                                 unsigned long euid) {
  return (st_mode & 0170000) == 0100000 && st_uid == euid && (st_mode & 022) == 0;
}
