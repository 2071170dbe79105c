/* The memo: a per-user, node-local record of the engine's decisions, so that the second and later
 * processes of a node that load a library the map's decision table does not know (a wheel's copy,
 * a user's own) start no process at all (docs/shim.md "The memo"). Its one writer is the engine
 * (src/core/system/memo.cc, C++), its one reader the shim (shim/memo.c, C); this header is the
 * format both keep.
 *
 * Where: DIR = $XDG_RUNTIME_DIR/cudnn-compat when XDG_RUNTIME_DIR is an absolute path to a
 * directory of the real uid's on this node, else /tmp/cudnn-compat-<real uid>. DIR is the real
 * uid's, mode 0700, not a link, on no network file system; a file in it is the real uid's, a
 * regular file, readable and writable by nobody else. Anything else is no memo, silently.
 *
 * DIR/<16 hex digits>.memo, one per request: the digits are the FNV-1a hash of the request's key
 * (the shim's view of the request: name, program, requester, the map the contract names, the
 * loader's directories, the identity of the file the loader takes); its text, one line each:
 *   cudnn-compat-memo 2
 *   key N             then the key's N bytes and a newline: compared whole, never by hash alone
 *   build HEX         the GNU build ID of the engine that wrote it: the shim holds it against the
 *                     ID of the engine it was built with (engine_build.h, generated), so an entry
 *                     of another build's engine never holds, with no stat of the engine's file
 *   file DEV INO SIZE MTIME_NS CTIME_NS PATH   a file the decision rests on (stat, links followed)
 *   gone PATH         a file that was not there (a map the search did not find)
 *   env NAME=VALUE    a variable the engine read, and what it said
 *   unset NAME        a variable the engine read and found unset or empty
 *   answer            then the engine's answer in protocol.h's lines (say, use, pass)
 *   end
 * fields separated by one tab. The entry holds while every file, gone and env line still holds;
 * any other text - cut short, another format, another key - is no entry.
 *
 * DIR/lock: a process that finds no entry takes an OFD write lock (fcntl F_OFD_SETLK) on the byte
 * at offset hash & CUDNN_COMPAT_MEMO_LOCK_MASK before it asks the engine, and drops it after; the
 * others of the node that ask the same look for the entry until the lock is free, within their
 * deadline. The kernel drops the lock of a holder that dies. */
#pragma once

#define CUDNN_COMPAT_MEMO_FORMAT "cudnn-compat-memo 2"
#define CUDNN_COMPAT_MEMO_BUILD "build"
#define CUDNN_COMPAT_MEMO_SUBDIR "cudnn-compat"           /* under $XDG_RUNTIME_DIR */
#define CUDNN_COMPAT_MEMO_TMP_PREFIX "/tmp/cudnn-compat-" /* then the real uid */
#define CUDNN_COMPAT_MEMO_SUFFIX ".memo"
#define CUDNN_COMPAT_MEMO_LOCK "lock"
#define CUDNN_COMPAT_MEMO_LOCK_MASK 0x7fffffffffffUL
/* Bounded: at most this many entries per user and node (the writer drops the oldest), and an
 * entry larger than this is neither written nor read. */
#define CUDNN_COMPAT_MEMO_MAX_ENTRIES 256
#define CUDNN_COMPAT_MEMO_MAX_BYTES 65536
/* git's racy rule: a file changed within this long before the decision may change again within
 * the same tick of its file system's clock without a new identity; such a decision is not kept. */
#define CUDNN_COMPAT_MEMO_RACY_NS 1000000000UL

/* The hash of a key: 64-bit FNV-1a. */
static inline unsigned long cudnn_compat_memo_hash(const char *key, long n) {
  unsigned long h = 0xcbf29ce484222325UL;
  for (long i = 0; i < n; ++i) h = (h ^ (unsigned char)key[i]) * 0x100000001b3UL;
  return h;
}

/* The entry's file name for a hash: 16 lower-case hex digits and the suffix (out: 24 bytes). */
static inline void cudnn_compat_memo_name(unsigned long hash, char *out) {
  const char *digits = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, hash >>= 4) out[i] = digits[hash & 15];
  const char *s = CUDNN_COMPAT_MEMO_SUFFIX;
  int n = 16;
  while (*s) out[n++] = *s++;
  out[n] = 0;
}

/* Whether a directory with this owner and mode (st_uid, st_mode of fstat on an O_NOFOLLOW open),
 * on a file system of this type (statfs f_type), may hold uid's memo. */
static inline int cudnn_compat_memo_dir_ok(unsigned long owner, unsigned mode, unsigned long uid,
                                           long fs_type) {
  /* NFS, SMB/CIFS (both), Lustre, GPFS, BeeGFS, Ceph, AFS, FUSE, 9P, PanFS, OrangeFS: shared
   * between nodes, where "node-local" and a file's st_dev stop meaning what the memo needs. */
  static const long shared[] = {0x6969,     0x517b,     (long)0xff534d42, (long)0xfe534d42,
                                0x0bd00bd0, 0x47504653, 0x19830326,       0x00c36400,
                                0x5346414f, 0x65735546, 0x01021997,       (long)0xaad7aaea,
                                0x20030528};
  for (unsigned i = 0; i < sizeof shared / sizeof shared[0]; ++i)
    if (fs_type == shared[i]) return 0;
  return owner == uid && (mode & 0170000) == 0040000 && (mode & 0777) == 0700;
}

/* Whether a file in the memo directory (fstat on an O_NOFOLLOW open) is uid's and nobody else's. */
static inline int cudnn_compat_memo_file_ok(unsigned long owner, unsigned mode, unsigned long uid) {
  return owner == uid && (mode & 0170000) == 0100000 && (mode & 077) == 0;
}
