// Usage records: see record.h. Everything runs under the shim's lock, so the buffers are static (a
// host thread's 16 KiB stack has no room for a record).
//
// The record's buffers are one block, filled from its start: the uname, the decision's fields,
// the line right after them, and in the line's unused room the program's path (read before its
// encoded copy is written) and the spool file's name, so that a record of the usual size (a few
// hundred bytes) touches the fewest pages of static memory. (Measured with perf stat against
// separate buffers: the same minor faults per process; aligning the block to a page cost two.)
#include "record.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "environment.h"
#include "host_status.h"
#include "say.h"
#include "shared/usage_record.h"
#include "shim_text.h"
#include "sys.h"
#include "syslog_socket.h"

enum { kPath = 4096, kMillion = 1000000 };
enum mode { MODE_OFF, MODE_RECORD, MODE_REPORT_ONLY };

// What the current decision learned; forgotten by record_decision. The small fields first: with
// records off a decision touches this one page of the record's state (each other is a page fault
// in every process that loads cuDNN).
static struct {
  int known;  // the table or the engine said the settings
  enum mode mode;
  unsigned long ppm;
  long fields;  // bytes of the engine's or the table's fields in work.text (0: none)
  char to[kPath];
} note;

enum {
  kFields = CUDNN_COMPAT_USAGE_MAX,               // the decision's fields, encoded
  kLine = CUDNN_COMPAT_USAGE_MAX + 2,             // the record, its line break and NUL
  kSpoolName = kPath + 160,                       // DIR/HOST.UID.usage
  kExeSlack = CUDNN_COMPAT_USAGE_VALUE_MAX + 16,  // an encoded value's room ahead of its source
};

static struct {
  struct {
    char sysname[65], nodename[65], release[65], version[65], machine[65], domain[65];
  } host;
  char number[24], digits[24], job[64], drops_path[128];
  // The fields from text[0], the line from text + note.fields + 1, then room for the spool name.
  char text[kFields + kLine + kSpoolName];
} work;

static int report_only;                // sticky for the process
static unsigned long recorded_majors;  // one bit per major recorded (63: any other)
static int sampled = -1;               // this process is in the sample; -1 until asked

// ---------------------------------------------------------------------------------------------
// The settings: "usage MODE PPM TO", fields split by a tab (the table) or a space (the engine).

static const char *word_end(const char *p) {
  while (*p && *p != '\t' && *p != ' ' && *p != '\n') ++p;
  return p;
}

static int read_settings(const char *p) {
  const char *end = word_end(p);
  const long n = end - p;
  enum mode m;
  if (n == 3 && after_prefix(p, "off"))
    m = MODE_OFF;
  else if (n == 6 && after_prefix(p, "record"))
    m = MODE_RECORD;
  else if (n == 11 && after_prefix(p, CUDNN_COMPAT_USAGE_REPORT_ONLY))
    m = MODE_REPORT_ONLY;
  else
    return 0;
  if (*end != '\t' && *end != ' ') return 0;
  unsigned long ppm = 0;
  p = end + 1;
  if (!read_decimal(&p, &ppm) || (*p != '\t' && *p != ' ') || ppm > kMillion) return 0;
  long k = 0;
  for (++p; p[k] && p[k] != '\n' && k < kPath - 1; ++k) note.to[k] = p[k];
  note.to[k] = 0;
  note.known = 1, note.mode = m, note.ppm = ppm;
  return 1;
}

// ---------------------------------------------------------------------------------------------
// The fields from the decision table's rows: "lib\tINDEX\tINO\tSIZE\tMTIME\tPATH" and
// "rel\tINDEX\tNUMBER\tSOURCE\tVERSION\tMODULE".

// The start of the n-th tab-separated field of the line at p, or 0.
static const char *field(const char *p, int n) {
  for (; n > 0; --n) {
    while (*p && *p != '\t' && *p != '\n') ++p;
    if (*p != '\t') return 0;
    ++p;
  }
  return p;
}

static long field_len(const char *f) {
  long n = 0;
  while (f[n] && f[n] != '\t' && f[n] != '\n') ++n;
  return n;
}

static int field_is(const char *f, const char *text, long n) {
  if (field_len(f) != n) return 0;
  for (long i = 0; i < n; ++i)
    if (f[i] != text[i]) return 0;
  return 1;
}

// The rel row of a table entry, or 0.
static const char *rel_row(const char *table, long entry) {
  for (const char *p = table; *p; p = next_line(p)) {
    const char *f = after_prefix(p, "rel\t");
    unsigned long n;
    if (f && read_decimal(&f, &n) && *f == '\t' && (long)n == entry) return p;
  }
  return 0;
}

static long put_value(char *out, long size, long at, const char *key, const char *value) {
  return cudnn_compat_usage_put(out, size, at, key, value ? value : "",
                                value ? text_len(value) : 0);
}

static long put(long at, const char *key, const char *value) {
  return put_value(work.text, kFields, at, key, value);
}

// "KEY=path RELKEY=version SRCKEY=source MODKEY=module" of one file, from its entry's rel row.
static long put_file(long at, const char *table, const char *path, long entry,
                     const char *const keys[4]) {
  const char *rel = path && entry >= 0 ? rel_row(table, entry) : 0;
  static const int column[4] = {0, 4, 3, 5};  // "rel\tENTRY\tNUMBER\tSOURCE\tVERSION\tMODULE"
  at = put(at, keys[0], path);
  for (int i = 1; i < 4; ++i) {
    const char *f = rel ? field(rel, column[i]) : 0;
    const long n = f && !field_is(f, "-", 1) ? field_len(f) : 0;
    at = cudnn_compat_usage_put(work.text, kFields, at, keys[i], n ? f : "", n);
  }
  return at;
}

// Whether CUDNN_COMPAT_USAGE asks for report-only. Any other value set is a slip of the one it
// takes ("report_only", "REPORT-ONLY"): a phased rollout's switch misspelt must not turn on real
// redirects unseen, so it counts as report-only, said once, in the line of the decision that
// asked first (shim.c, route).
static int env_report_only(void) {
  static int said;
  const char *word = env_value(current_environment(), CUDNN_COMPAT_USAGE_ENV);
  if (!cudnn_compat_usage_env_report_only(word)) return 0;
  if (!text_eq(word, CUDNN_COMPAT_USAGE_REPORT_ONLY) && !said) {
    said = 1;
    say_with_next("cudnn-compat: " CUDNN_COMPAT_USAGE_ENV
                  " holds a value other than " CUDNN_COMPAT_USAGE_REPORT_ONLY
                  ", the one it takes; taken as " CUDNN_COMPAT_USAGE_REPORT_ONLY
                  ": every cuDNN load is the loader's own choice\n");
  }
  return 1;
}

static int wanted(void) {
  return (note.known && note.mode != MODE_OFF) || env_report_only();
}

void record_table(const char *table, const struct fast_request *r, enum fast_answer a,
                  const char *use, const struct fast_resolved *got) {
  const char *second = next_line(table);
  note.known = 0;
  if (after_prefix(second, CUDNN_COMPAT_USAGE_SETTINGS "\t"))
    read_settings(second + sizeof CUDNN_COMPAT_USAGE_SETTINGS);
  else
    note.known = 1, note.mode = MODE_OFF, note.ppm = kMillion, copy_text(note.to, kPath, "syslog");
  if (a == FAST_UNKNOWN || !wanted()) return;
  static const char *const loader_keys[4] = {"loader", "lrel", "lsrc", "lmod"};
  static const char *const got_keys[4] = {"got", "rel", "src", "mod"};
  const char *loader = r->pick;  // the shim's own pick, ld.so.cache included
  long at = put(0, "need", r->require);
  at = put(at, "cuda", r->cuda);
  at = put(at, "from", r->require ? "env" : 0);
  at = put_file(at, table, loader, got->pick_entry, loader_keys);
  at = put_file(at, table, a == FAST_USE ? use : loader, got->use_entry, got_keys);
  // The loader's release handed over at its probed path (a link reached it) is no redirect.
  note.fields = put(at, "verdict", a == FAST_USE && !got->same_release ? "redirected" : "fit");
}

void record_answer(const char *answer) {
  for (const char *p = answer; p && *p; p = next_line(p)) {
    if (after_prefix(p, CUDNN_COMPAT_USAGE_SETTINGS " "))
      read_settings(p + sizeof CUDNN_COMPAT_USAGE_SETTINGS);
    const char *fields = after_prefix(p, CUDNN_COMPAT_USAGE_FIELDS);
    if (!fields || *fields != ' ') continue;
    long n = 0;  // the engine encoded them: printable ASCII up to the line's end
    while (fields[n] > 0x1f && fields[n] < 0x7f && n < kFields - 1) ++n;
    if (fields[n] != '\n' && fields[n]) continue;
    for (long i = 0; i < n; ++i) work.text[i] = fields[i];
    work.text[n] = 0;
    note.fields = n;
  }
}

// ---------------------------------------------------------------------------------------------
// The record, and where it goes.

// One process in ppm per million records: decided once per process, from its pid and the clocks
// (no getrandom: a seccomp filter that does not expect it may kill the host).
static int in_sample(unsigned long ppm) {
  if (ppm >= kMillion) return 1;
  if (sampled < 0) {
    struct {
      long pid, real_sec, real_nsec, mono_sec, mono_nsec;
    } seed = {sys(SYS_getpid, 0, 0, 0), 0, 0, 0, 0};
    clock_now(CLOCK_REALTIME, &seed.real_sec);
    clock_now(CLOCK_MONOTONIC, &seed.mono_sec);
    sampled = cudnn_compat_usage_sum((const char *)&seed, sizeof seed) % kMillion < ppm;
  }
  return sampled;
}

// The process's ids as the record is sent: asked once (every system call is paid by every rank).
static unsigned long uid, euid;

// The record's count of this user's dropped records: the drop file's size (record.h).
static const char *drops_file(void) {
  char *path = work.drops_path;
  long n = append_text(path, sizeof work.drops_path, 0, CUDNN_COMPAT_USAGE_DROPS_DIR "/");
  n = append_text(path, sizeof work.drops_path, n, CUDNN_COMPAT_USAGE_DROPS_FILE);
  append_text(path, sizeof work.drops_path, n, format_decimal(euid, work.digits));
  return path;
}

// Opens path for appending, as the user's own regular file (never through a link, never one that
// someone else made for us to write into), without waiting; -1 when it cannot be. `fresh`: made
// now or not at all (O_EXCL). A file is made (O_CREAT, which the loader never asks for) only where
// it is not there yet and no seccomp filter is in place: a sandbox's filter may kill the host for
// it (tests/shim/usage_no_files.sh), and for all but a user's first record on a node it is there.
static long open_own(const char *path, int fresh) {
  const long flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
  long fd = fresh ? -ENOENT : sys4(SYS_openat, AT_FDCWD, path, flags, 0);
  if (fd == -ENOENT && !seccomp_maybe_filtered())
    fd = sys4(SYS_openat, AT_FDCWD, path, flags | O_CREAT | (fresh ? O_EXCL : 0), 0600);
  struct stat st;
  if (fd < 0) return -1;
  if (sys(SYS_fstat, fd, &st, 0) == 0 && S_ISREG(st.st_mode) && st.st_uid == euid) return fd;
  sys(SYS_close, fd, 0, 0);
  return -1;
}

static void count_drop(void) {
  const long fd = open_own(drops_file(), 0);
  if (fd < 0) return;
  sys_retry(SYS_write, fd, ".", 1);
  sys(SYS_close, fd, 0, 0);
}

// The line (n bytes, its line break included) appended to DIR/HOST.UID.usage, the name made in
// the block's room after the line. Where another user made that file first, to a file of the
// process's own, HOST.UID~PID-NSEC.usage (usage_record.h).
static int to_spool(const char *line, long n, const char *uid_text) {
  char *path = (char *)line + n + 1;
  const long size = kSpoolName;
  long k = append_text(path, size, 0, note.to);
  k = append_text(path, size, k, "/");
  k = append_text(path, size, k, work.host.nodename);
  k = append_text(path, size, k, ".");
  k = append_text(path, size, k, uid_text);
  const long stem = k;
  k = append_text(path, size, k, CUDNN_COMPAT_USAGE_SPOOL_SUFFIX);
  long fd = k < size - 1 ? open_own(path, 0) : -1;
  if (fd < 0 && k < size - 1) {
    const char own[2] = {CUDNN_COMPAT_USAGE_SPOOL_OWN, 0};
    k = append_text(path, size, stem, own);
    struct {
      long sec, nsec;
    } now = {0, 0};
    clock_now(CLOCK_REALTIME, &now);  // the vDSO's: no system call
    k = append_text(path, size, k,
                    format_decimal((unsigned long)sys(SYS_getpid, 0, 0, 0), work.number));
    k = append_text(path, size, k, "-");
    k = append_text(path, size, k, format_decimal((unsigned long)now.nsec, work.number));
    k = append_text(path, size, k, CUDNN_COMPAT_USAGE_SPOOL_SUFFIX);
    fd = k < size - 1 ? open_own(path, 1) : -1;
  }
  if (fd < 0) return 0;
  const long written = sys_retry(SYS_write, fd, line, n);  // one write: whole among many writers
  sys(SYS_close, fd, 0, 0);
  return written == n;
}

// The Slurm job and step: the plugin's word (CUDNN_COMPAT_JOB), else Slurm's own variables.
static const char *slurm_job(char **env) {
  char *job = work.job;
  const long size = sizeof work.job;
  const char *given = env_value(env, "CUDNN_COMPAT_JOB"), *id = env_value(env, "SLURM_JOB_ID");
  if (given && *given) return given;
  if (!id || !*id) return 0;
  const char *step = env_value(env, "SLURM_STEP_ID");
  long n = append_text(job, size, 0, id);
  if (step && *step) append_text(job, size, append_text(job, size, n, "."), step);
  return job;
}

// The program: /proc/self/exe, unless the program was run through the loader (`ld.so PROG`),
// which /proc/self/exe then names: PROG as the shim found it at the start (environment.h).
// `quiet`: without readlink, from the line of /proc/self/maps that maps the program's headers;
// 0 when that line cannot be had.
static const char *program(char *out, long size, int quiet) {
  const char *run = loader_run_program();
  if (run) return run;
  if (quiet) return proc_mapped_path(start_program_header(), out, size);
  const long n = sys4(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", out, size - 1);
  out[n > 0 ? n : 0] = 0;
  return *out ? out : exec_path();
}

// The fields the shim alone knows, then the decision's, then mode, drops, ns and the sum; -1 when
// `quiet` (program) cannot say the program.
static long compose(char *line, long size, const char *name, const char *requester, int mode,
                    int quiet) {
  char *number = work.number;
  static const char hex[] = "0123456789abcdef";
  struct {
    long sec, nsec;
  } now = {0, 0};
  clock_now(CLOCK_REALTIME, &now);
  const long room = size - 16;  // " sum=" and its 8 digits always fit
  long at = append_text(line, room, 0, CUDNN_COMPAT_USAGE_MAGIC);
  at = put_value(line, room, at, "t", format_decimal((unsigned long)now.sec, number));
  at = put_value(line, room, at, "host", work.host.nodename);
  at = put_value(line, room, at, "uid", format_decimal(uid, number));
  at = put_value(line, room, at, "job", slurm_job(current_environment()));
  at = put_value(line, room, at, "pid",
                 format_decimal((unsigned long)sys(SYS_getpid, 0, 0, 0), number));
  // The path is read into the line's room past where its encoded copy can reach.
  const char *exe = program(line + at + kExeSlack, kPath, quiet);
  if (quiet && !exe) return -1;
  at = put_value(line, room, at, "exe", exe);
  at = put_value(line, room, at, "by", requester);
  at = put_value(line, room, at, "asked", name);
  at = append_text(line, room, at, work.text);
  at = put_value(line, room, at, "mode",
                 mode == MODE_REPORT_ONLY ? CUDNN_COMPAT_USAGE_REPORT_ONLY : "record");
  struct stat st;
  // Another user's file at the name is no count of ours (a squatter's planted size).
  const int dropped = sys4(SYS_newfstatat, AT_FDCWD, drops_file(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                      S_ISREG(st.st_mode) && st.st_uid == euid && st.st_size > 0;
  at = put_value(line, room, at, "drops",
                 dropped ? format_decimal((unsigned long)st.st_size, number) : 0);
  // The same pid records again after an execve, often within the same second: the reader's key
  // holds the nanoseconds too (and the exe), so the two records stay two.
  at = put_value(line, room, at, "ns", format_decimal((unsigned long)now.nsec, number));
  const unsigned int sum = cudnn_compat_usage_sum(line, at);
  at = append_text(line, size, at, " sum=");
  for (int shift = 28; shift >= 0; shift -= 4) line[at++] = hex[(sum >> shift) & 15];
  line[at] = 0;
  return at;
}

// What an undecided decision knows: the process's own need, and nothing of the files.
static void undecided_fields(void) {
  char **env = current_environment();
  struct asked_need need;
  read_asked_need(env, &need);
  static const char *const keys[] = {"loader", "lrel", "lsrc", "lmod", "got", "rel", "src", "mod"};
  long at = put(0, "need", need.require);
  at = put(at, "cuda", need.cuda);
  at = put(at, "from", need.require && *need.require ? "env" : 0);
  for (unsigned long i = 0; i < sizeof keys / sizeof *keys; ++i) at = put(at, keys[i], 0);
  note.fields = put(at, "verdict", "undecided");
}

// Under a seccomp filter the record may cost the host its life: none is sent, and the drop is
// counted with the loader's own kind of calls (open, write) where the user is known without asking.
static int filtered(void) {
  if (!seccomp_maybe_filtered()) return 0;
  if (decision_euid_known()) euid = decision_euid(), count_drop();
  return 1;
}

// The host and the user for a spool record without a call the program itself may never make
// (uname, getuid), which a filter may kill it for: the nodename from /proc, and the real uid as
// quiet_real_uid tells it (a record of a process that changed its real uid alone was never read:
// its uid is not its spool file's owner, which ingest refuses as forged).
static int quiet_host_and_user(void) {
  const long started = decision_euid_known() ? quiet_real_uid(decision_euid()) : -1;
  if (started < 0 || !proc_host_name(work.host.nodename)) return 0;
  uid = (unsigned long)started, euid = decision_euid();
  return 1;
}

// A record to a spool directory gathers its fields with the loader's own calls (open, read,
// close, stat, write) where it can, and then needs no look at the filter (/proc/thread-self/status,
// the dearest part of a record); the syslog's socket, and every other way, is asked only of an
// unfiltered process: a filter may kill it for the socket, uname, readlink, getuid or prctl.
static void send_record(const char *name, const char *requester, enum mode mode) {
  const int spool = note.to[0] == '/';
  const int quiet = spool && quiet_host_and_user();
  if (!quiet) {
    if (filtered()) return;
    uid = (unsigned long)sys(SYS_getuid, 0, 0, 0), euid = decision_euid();
    // A process whose real and effective ids differ (root's seteuid) would make the real user's
    // spool file owned by another (an outside tester's finding: root's file squatted by nobody,
    // and ingest refused it): no record, a drop counted, as under a filter.
    if (spool && uid != euid) {
      count_drop();
      return;
    }
    sys(SYS_uname, &work.host, 0, 0);
  }
  if (!note.fields) undecided_fields();
  char *line = work.text + note.fields + 1;
  long n = compose(line, CUDNN_COMPAT_USAGE_MAX + 1, name, requester, mode, quiet);
  if (n < 0) {  // /proc/self/maps did not say the program: readlink, asked of no filtered process
    if (filtered()) return;
    n = compose(line, CUDNN_COMPAT_USAGE_MAX + 1, name, requester, mode, 0);
  }
  int sent;
  if (text_eq(note.to, "syslog")) {
    sent = syslog_send(CUDNN_COMPAT_USAGE_PRIORITY, CUDNN_COMPAT_USAGE_TAG, line, n) == 0;
  } else {
    line[n++] = '\n';
    sent = spool && to_spool(line, n, format_decimal(uid, work.digits));
  }
  if (!sent) count_drop();
}

const char *record_decision(const char *name, int major, const char *requester,
                            const char *chosen) {
  enum mode mode = note.known ? note.mode : MODE_OFF;
  if (env_report_only()) {
    mode = MODE_REPORT_ONLY;
    if (!note.known) note.ppm = kMillion, copy_text(note.to, kPath, "syslog");
  }
  const unsigned long bit = 1ul << (major >= 0 && major < 63 ? major : 63);
  if (mode != MODE_OFF && !(recorded_majors & bit) && !secure_execution()) {
    recorded_majors |= bit;
    if (in_sample(note.ppm)) send_record(name, requester, mode);
  }
  if (note.fields) work.text[0] = 0;
  note.known = 0, note.fields = 0;
  if (mode != MODE_REPORT_ONLY) return chosen;
  report_only = 1;
  return 0;
}

int record_report_only(void) {
  return report_only || env_report_only();
}
