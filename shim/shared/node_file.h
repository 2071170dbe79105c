/* Where a node's facts (its GPUs and its driver's CUDA) are remembered for one boot:
 *   /tmp/cudnn-compat-<uid>/node-<node name>
 * (/tmp: node-local on every cluster we know; the node name because test clusters run several
 * slurmd on one host, one boot). The names are the site contract's (cmake/SiteContract.cmake),
 * shared by the writer (src/core/system/node_facts.cc), the shim's fast path (C) and both module
 * hooks. Its lines: "boot\t<boot id>", "gpus\t7.5,9.0", "driver\t12.2", "source\t...",
 * "problem\t..." (empty when learnt), "end"; read only whole (its "end" line), from a directory
 * of the reader's own that nobody else may write.
 *
 * Believed only from this boot (a reboot may bring another driver or GPUs): every reader demands
 * that the file was modified in this boot (cudnn_compat_node_file_of_this_boot); those that can
 * afford reading SITE_BOOT_ID (the engine, the hooks) also demand that its boot line is this
 * boot's. The shim, which reads it in every judging process, is spared that read: the engine
 * writes the file anew (and its mtime with it) whenever either fails, so a file the engine left
 * in this boot passes both. */
#pragma once

#include "site_contract.h"

#define CUDNN_COMPAT_NODE_DIR_PREFIX SITE_NODE_DIR_PREFIX
#define CUDNN_COMPAT_NODE_FILE_PREFIX SITE_NODE_FILE_PREFIX
#define CUDNN_COMPAT_BOOT_ID SITE_BOOT_ID

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
