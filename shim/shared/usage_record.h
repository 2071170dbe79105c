/* A usage record (issue 21, docs/usage.md): what one process asked for and got at its first load
 * of a cuDNN main library of one major. The one place its format is written down, included by its
 * writers - the shim (shim/record.c), which writes every record, and the engine
 * (src/select/main.cc), which hands the shim the fields only it knows - and by its reader,
 * `cudnn-compat usage ingest` (src/core/usage/record.cc).
 *
 * A record is one line of printable ASCII, at most CUDNN_COMPAT_USAGE_MAX bytes:
 *
 *   U1 t=1733081341 host=node7 uid=1000 job=4242.0 pid=81 exe=/usr/bin/python3.11 by=- ...
 *      ... verdict=redirected mode=record sum=1f0c3a9e
 *
 * "U1" is the format and its version: a reader refuses any other. Then space-separated key=value
 * fields, in the order below; a reader ignores keys it does not know (a later writer of version 1
 * may add some before sum) and refuses a record that lacks one it needs. A value is "-" when
 * absent or empty; every byte below 0x21, above 0x7e, and '%' is written %XX (upper-case hex), so
 * that no syslog daemon escapes or splits it; a value cut at CUDNN_COMPAT_USAGE_VALUE_MAX bytes
 * ends in "%00" (no path holds a NUL). The last field is sum: FNV-1a (32 bits, 8 lower-case hex
 * digits) of every byte before " sum=". A line whose sum does not match was cut or changed on the
 * way, and is not a record. Nothing from the process's environment or arguments is ever written.
 *
 * Fields (the engine writes those from need to verdict; the shim all others):
 *   t        seconds since the epoch (UTC) of the decision
 *   host     the node's name (uname), as the kernel knows it
 *   uid      the process's real user id (the reader names the user)
 *   job      the Slurm job and step, "JOB.STEP" (CUDNN_COMPAT_JOB, set by the SPANK plugin, else
 *            SLURM_JOB_ID and SLURM_STEP_ID), or "-"
 *   pid      the process id
 *   exe      the program (/proc/self/exe; for a program run through the loader, `ld.so PROG`,
 *            PROG made absolute: /proc/self/exe would name the loader)
 *   by       the object that asked the loader ("-": the program itself)
 *   asked    the name or path asked for (libcudnn.so.9)
 *   need     the cuDNN version the process needs (x.y or x.y.z), "-" for any of the major
 *   cuda     the CUDA major it needs, or "-"
 *   from     where the need came from: env (CUDNN_COMPAT_REQUIRE, or an application module's
 *            CUDNN_COMPAT_NEEDS: asked_need.h), pin (a Python framework's
 *            pin in its distribution's metadata), rule (a [[require]] of the map), name (the
 *            version in the name asked for), "-" (none)
 *   loader   the file the loader itself takes for that name, or "-"
 *   lrel     its cuDNN release (x.y.z), as the library or the map's table says, or "-"
 *   lsrc     where it comes from: module, wheel, conda, system, user, or "-"
 *   lmod     the map's module for it, or "-"
 *   got      the file the decision hands over (the loader's own when it fits or nothing could
 *            be done); in report-only mode the one it would have handed over
 *   rel, src, mod   release, source and module of got, as lrel, lsrc, lmod
 *   verdict  fit (the loader's own fits), redirected (another was handed over), refused (none
 *            that fits was found: the ordinary load), undecided (no answer could be had: the
 *            ordinary load)
 *   mode     record, or report-only (the process loaded what the loader took, whatever got says)
 *   drops    records this user's processes on this host could not send before this one (the size
 *            of the drop count file below), or "-" for none
 *   ns       the nanoseconds of t's second (added after the first release of U1: a reader takes
 *            a record without it as ns=0). A process that loads cuDNN and then execs another
 *            program that loads it too records twice under one pid, often in one second: the
 *            reader's key holds host, pid, t, ns, exe and asked, so the two stay two
 *   sum      the checksum, always last
 *
 * Transports. syslog: one datagram to /dev/log, priority CUDNN_COMPAT_USAGE_PRIORITY (user.info),
 * tag CUDNN_COMPAT_USAGE_TAG[PID], sent without waiting. A spool directory: the record and a line
 * break appended by one write() to DIR/HOST.UID.usage (O_APPEND, created 0600 by the user).
 * A record that cannot be sent (no syslog socket, a full one, a spool that cannot be written) is
 * dropped and counted: one byte appended to CUDNN_COMPAT_USAGE_DROPS_DIR/cudnn-compat-usage-
 * dropped.UID, so its size is the count (the next record that goes through carries it: drops).
 */
#pragma once

#define CUDNN_COMPAT_USAGE_MAGIC "U1"
#define CUDNN_COMPAT_USAGE_TAG "cudnn-compat-usage"
#define CUDNN_COMPAT_USAGE_PRIORITY 14 /* facility user (1) * 8 + severity info (6) */
#define CUDNN_COMPAT_USAGE_MAX 4096
#define CUDNN_COMPAT_USAGE_VALUE_MAX 512
#define CUDNN_COMPAT_USAGE_CUT "%00"
#define CUDNN_COMPAT_USAGE_SPOOL_SUFFIX ".usage"
/* HOST.UID~PID-NSEC.usage: the file of one process whose HOST.UID.usage another user made first
 * (a squatter in the shared spool); created anew (O_EXCL) under a name no one can make for it in
 * advance (the clock's nanoseconds as it is made), and never one a pid's earlier process made. */
#define CUDNN_COMPAT_USAGE_SPOOL_OWN '~'

#define CUDNN_COMPAT_USAGE_DROPS_DIR "/var/tmp"
#define CUDNN_COMPAT_USAGE_DROPS_FILE "cudnn-compat-usage-dropped."
/* The per-job word of the Slurm plugin (srun --cudnn-report-only): CUDNN_COMPAT_USAGE=report-only.
 */
#define CUDNN_COMPAT_USAGE_ENV "CUDNN_COMPAT_USAGE"
#define CUDNN_COMPAT_USAGE_REPORT_ONLY "report-only"

/* Whether CUDNN_COMPAT_USAGE's value (0: unset) asks for report-only: any non-empty value does. A
 * slip of the one it takes ("report_only", "REPORT-ONLY") must not turn a phased rollout's real
 * redirects on unseen; the shim says so in one line, doctor names it. */
static inline int cudnn_compat_usage_env_report_only(const char *value) {
  return value && *value;
}

/* The shim's settings, as the map's [usage] says them, in the decision table's second line and
 * in the engine's answer alike: "usage MODE PPM TO" (tab-separated in the table), MODE off,
 * record or report-only, PPM the sampled fraction in parts per million, TO "syslog" or the spool
 * directory (the rest of the line). */
#define CUDNN_COMPAT_USAGE_SETTINGS "usage"
/* The engine's fields of a record, in its answer: "record need=... verdict=..." (encoded). */
#define CUDNN_COMPAT_USAGE_FIELDS "record"

/* FNV-1a of n bytes: the record's sum. */
static inline unsigned int cudnn_compat_usage_sum(const char *s, long n) {
  unsigned int h = 2166136261u;
  for (long i = 0; i < n; ++i) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

static inline int cudnn_compat_usage_plain(unsigned char c) {
  return c > 0x20 && c < 0x7f && c != '%';
}

/* Appends " key=value" to out (size bytes, the record so far `at` bytes long), value encoded as
 * above (n bytes of it; "-" when n is 0), and returns the new length; a value that does not fit
 * the record or CUDNN_COMPAT_USAGE_VALUE_MAX is cut and marked. out stays NUL-terminated. */
static inline long cudnn_compat_usage_put(char *out, long size, long at, const char *key,
                                          const char *value, long n) {
  static const char hex[] = "0123456789ABCDEF";
  const long cut_mark = (long)sizeof CUDNN_COMPAT_USAGE_CUT - 1;
  long k = 0;
  while (key[k]) ++k;
  if (at + k + 2 + 1 + cut_mark >= size) return at;
  out[at++] = ' ';
  for (long i = 0; i < k; ++i) out[at++] = key[i];
  out[at++] = '=';
  long room = size - 1 - at - cut_mark;
  if (room > CUDNN_COMPAT_USAGE_VALUE_MAX) room = CUDNN_COMPAT_USAGE_VALUE_MAX;
  if (n == 0 || (n == 1 && value[0] == '-')) {
    const int dash = n == 0;
    if (dash)
      out[at++] = '-';
    else
      out[at++] = '%', out[at++] = '2', out[at++] = 'D';
    out[at] = 0;
    return at;
  }
  long used = 0, i = 0;
  for (; i < n; ++i) {
    const unsigned char c = (unsigned char)value[i];
    const long width = cudnn_compat_usage_plain(c) ? 1 : 3;
    if (used + width > room) break;
    if (width == 1) {
      out[at + used] = (char)c;
    } else {
      out[at + used] = '%', out[at + used + 1] = hex[c >> 4], out[at + used + 2] = hex[c & 15];
    }
    used += width;
  }
  at += used;
  if (i < n)
    for (long j = 0; j < cut_mark; ++j) out[at++] = CUDNN_COMPAT_USAGE_CUT[j];
  out[at] = 0;
  return at;
}
