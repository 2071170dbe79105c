// Reads the memo (shared/memo_format.h; its one writer: src/core/system/memo.cc). Everything it
// refuses - a directory or file of someone else's, open to others, a link, on a network file
// system, cut short, of another format or key, resting on a file or variable that has changed - is
// no entry, and nothing is said: the engine then decides as it would without a memo.
#define _GNU_SOURCE
#include "memo.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "arena.h"
#include "engine_build.h"
#include "environment.h"
#include "host_status.h"
#include "look.h"
#include "shared/memo_format.h"
#include "shim_text.h"
#include "sys.h"

enum { kPath = 4096, kNapMaxMs = 8 };

// One request at a time (callers hold the shim's lock).
// The small fields first, then the key's start: one page for a request (a page fault in every
// process that loads a library the table does not know); the directory's path is in the arena.
static struct {
  long key_len;
  const char *pick;          // the loader's file, whose identity the key holds...
  unsigned long pick_id[5];  // ...: dev, ino, size, mtime, ctime
  struct file_text entry;    // the entry read, its answer ended in place
  unsigned long hash, uid;
  int dir, lock;                              // fds, -1 when not open
  int filtered;                               // under a seccomp filter; -1 not asked yet
  int held;                                   // this process holds the request's lock
  const char *path;                           // the memo directory's
  char key[CUDNN_COMPAT_MEMO_MAX_BYTES / 2];  // the request's key text
} m = {0, 0, {0}, {0, 0, 0}, 0, 0, -1, -1, -1, 0, 0, {0}};

static int add(const char *text) {
  m.key_len = append_text(m.key, sizeof m.key, m.key_len, text);
  return m.key_len + 1 < (long)sizeof m.key;
}

static int add_line(const char *tag, const char *value) {
  return add(tag) && add("\t") && add(value) && add("\n");
}

// A file's identity as the memo writes it: dev, ino, size, mtime, ctime.
static int identify(const char *path, unsigned long id[5]) {
  struct stat st;
  if (look(path, &st, 0) != 0) return 0;
  id[0] = st.st_dev, id[1] = st.st_ino, id[2] = (unsigned long)st.st_size;
  id[3] = timespec_ns(&st.st_mtim), id[4] = timespec_ns(&st.st_ctim);
  return 1;
}

static int relative(const char *path) {
  return *path != '/';
}

// What the request is: the file the loader takes by its identity, not its name.
static int make_key(const struct memo_request *r) {
  static char cwd[kPath];
  char digits[24];
  int ok = add(CUDNN_COMPAT_MEMO_FORMAT "\n") && add_line("name", r->name) &&
           add_line("program", r->executable) && add_line("requester", r->requester) &&
           add_line("map", r->map);
  // A relative path, program or directory means something else in another working directory.
  int here = (base_name(r->name) != r->name && relative(r->name)) || relative(r->executable);
  for (long i = 0; i < r->dirs->count; ++i) here = here || relative(r->dirs->dir[i] + 2);
  if (ok && here) ok = sys(SYS_getcwd, cwd, sizeof cwd, 0) > 0 && add_line("cwd", cwd);
  for (long i = 0; ok && i < r->dirs->count; ++i) ok = add_line("dir", r->dirs->dir[i]);
  ok = ok && add(r->peers);
  m.pick = r->pick && identify(r->pick, m.pick_id) ? r->pick : 0;
  ok = ok && (r->pick ? m.pick != 0 : 1) && add("pick");
  for (int i = 0; ok && m.pick && i < 5; ++i)
    ok = add("\t") && add(format_decimal(m.pick_id[i], digits));
  ok = ok && add("\t") && add(m.pick ? m.pick : "-") && add("\n");
  // (CUDNN_COMPAT_MAP is in the "map" line: the map the contract found, named or not.)
  // The need as the environment asks it (the entry's env lines hold the variables it came from).
  const struct asked_need *need = r->need;
  if (ok && need->require && *need->require) ok = add("need\t") && add(need->require) && add("\n");
  if (ok && need->cuda && *need->cuda) ok = add("cuda\t") && add(need->cuda) && add("\n");
  return ok;
}

// Whether this process may make the memo's files and take its lock: a seccomp filter may kill it
// for any call the loader itself does not make (O_CREAT, mkdir, fcntl), so under one the memo is
// only read. Asked once a request, and only on the way to making something: a warm memo's answer
// costs no look at /proc.
static int may_make(void) {
  if (m.filtered < 0) m.filtered = seccomp_filtered();
  return !m.filtered;
}

// The memo directory at m.path, checked through the open descriptor; -ENOENT when there is none.
static int open_checked(int create) {
  const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  long fd = sys_retry(SYS_openat, AT_FDCWD, m.path, flags);
  if (fd == -ENOENT && create && may_make()) {
    sys(SYS_mkdirat, AT_FDCWD, m.path, 0700);
    fd = sys_retry(SYS_openat, AT_FDCWD, m.path, flags);
  }
  if (fd == -ENOENT) return -ENOENT;
  struct stat st;
  struct statfs fs;
  if (fd >= 0 && sys(SYS_fstat, fd, &st, 0) == 0 && sys(SYS_fstatfs, fd, &fs, 0) == 0 &&
      cudnn_compat_memo_dir_ok(st.st_uid, st.st_mode, m.uid, (long)fs.f_type))
    return (int)fd;
  if (fd >= 0) sys(SYS_close, fd, 0, 0);
  return -1;
}

// The session's runtime directory where this node has it (a job may carry the variable from a
// login node that has one), else /tmp; created when missing (0700).
static int open_dir(char **env) {
  const char *runtime = env_value(env, "XDG_RUNTIME_DIR");
  char uid[24];
  struct stat st;
  if (runtime && *runtime == '/' && (m.path = arena_join(runtime, CUDNN_COMPAT_MEMO_SUBDIR))) {
    const int fd = open_checked(0);
    if (fd != -ENOENT) return fd;
    if (sys4(SYS_newfstatat, AT_FDCWD, runtime, &st, 0) == 0 && S_ISDIR(st.st_mode) &&
        st.st_uid == m.uid)
      return open_checked(1);
  }
  const long room = sizeof CUDNN_COMPAT_MEMO_TMP_PREFIX + sizeof uid;
  char *tmp = arena_alloc(room);
  if (!tmp) return -1;
  append_text(tmp, room, append_text(tmp, room, 0, CUDNN_COMPAT_MEMO_TMP_PREFIX),
              format_decimal(m.uid, uid));
  m.path = arena_keep_last(tmp, room);
  const int fd = open_checked(1);
  return fd >= 0 ? fd : -1;
}

static void entry_name(char *name) {
  cudnn_compat_memo_name(m.hash, name);
}

// Reads the entry (whole, bounded) into m.entry; 0 when there is none of ours.
static int read_entry(void) {
  char name[24];
  entry_name(name);
  file_free(&m.entry);
  const long fd =
      sys_retry(SYS_openat, m.dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st;
  const int ok =
      sys(SYS_fstat, fd, &st, 0) == 0 && cudnn_compat_memo_file_ok(st.st_uid, st.st_mode, m.uid) &&
      st.st_size <= CUDNN_COMPAT_MEMO_MAX_BYTES && fd_read_sized(fd, st.st_size, &m.entry);
  sys(SYS_close, fd, 0, 0);
  return ok;
}

// "file DEV INO SIZE MTIME CTIME PATH": the file at PATH is still that one (the loader's file is
// the one the key was made with a moment ago).
static int file_holds(const char *p) {
  unsigned long want[5], have[5];
  for (int i = 0; i < 5; ++i)
    if (!read_decimal(&p, &want[i]) || *p++ != '\t') return 0;
  if (m.pick && text_eq(p, m.pick))
    for (int i = 0; i < 5; ++i) have[i] = m.pick_id[i];
  else if (!identify(p, have))
    return 0;
  for (int i = 0; i < 5; ++i)
    if (want[i] != have[i]) return 0;
  return 1;
}

static int gone_holds(const char *path) {
  struct stat st;
  const long r = look(path, &st, 0);
  return r == -ENOENT || r == -ENOTDIR;
}

// "env NAME=VALUE" / "unset NAME": what the engine read is what this process says now (the
// engine's own reading: unset and empty are the same).
static int env_holds(char *line, int set, char **env) {
  char *eq = line;
  while (*eq && *eq != '=') ++eq;
  if (!set) {
    const char *now = *eq ? 0 : env_value(env, line);
    return !*eq && (!now || !*now);
  }
  if (!*eq) return 0;
  *eq = 0;
  const char *now = env_value(env, line);
  *eq = '=';
  return now && *now && text_eq(now, eq + 1);
}

// Whether a line of what the answer rests on holds, given as a string (line_cut, in the entry
// read); -1 when it is none of those lines. Each check gets its line's rest.
static int ground_holds(char *line, char **env) {
  char *q;
  if ((q = (char *)after_prefix(line, "file\t"))) return file_holds(q);
  if ((q = (char *)after_prefix(line, "gone\t"))) return gone_holds(q);
  if ((q = (char *)after_prefix(line, "env\t"))) return env_holds(q, 1, env);
  if ((q = (char *)after_prefix(line, "unset\t"))) return env_holds(q, 0, env);
  return -1;
}

// The entry's answer when it is this request's and still holds, else 0.
static const char *holds(char **env) {
  const char *p = after_prefix(m.entry.data, CUDNN_COMPAT_MEMO_FORMAT "\nkey ");
  unsigned long n = 0;
  if (!p || !read_decimal(&p, &n) || *p++ != '\n' || (long)n != m.key_len ||
      p + n + 1 > m.entry.data + m.entry.size)
    return 0;
  for (unsigned long i = 0; i < n; ++i)
    if (p[i] != m.key[i]) return 0;
  if (p[n] != '\n') return 0;
  // Written by the engine this shim was built with: any other's answer is asked anew.
  if (!(p = after_prefix(p + n + 1, CUDNN_COMPAT_MEMO_BUILD "\t" CUDNN_COMPAT_ENGINE_BUILD "\n")))
    return 0;
  char *line = (char *)p;  // the entry read, ours
  while (*line) {
    char was, *end = line_cut(line, &was);
    const int ok = ground_holds(line, env);
    char *next = line_mend(end, was);
    if (ok < 0) break;
    if (!ok) return 0;
    line = next;
  }
  const char *answer = after_prefix(line, "answer\n");
  static const char end[] = "end\n";
  char *last = m.entry.data + m.entry.size - (sizeof end - 1);
  if (!answer || last < answer || (last > answer && last[-1] != '\n') || !text_eq(last, end))
    return 0;
  if (text_len(answer) < last - answer) return 0;  // a NUL inside: no text the engine wrote
  *last = 0;
  return answer;
}

// An OFD lock on the request's byte of the lock file: 1 taken, 0 another process holds it, -1 no
// lock to be had (the request is then asked for without one).
static int try_lock(void) {
  if (m.lock < 0) {
    const long fd = sys4(SYS_openat, m.dir, CUDNN_COMPAT_MEMO_LOCK,
                         O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0) return -1;
    if (sys(SYS_fstat, fd, &st, 0) != 0 ||
        !cudnn_compat_memo_file_ok(st.st_uid, st.st_mode, m.uid)) {
      sys(SYS_close, fd, 0, 0);
      return -1;
    }
    m.lock = (int)fd;
  }
  struct flock l = {F_WRLCK, SEEK_SET, (long)(m.hash & CUDNN_COMPAT_MEMO_LOCK_MASK), 1, 0};
  const long r = sys_retry(SYS_fcntl, m.lock, F_OFD_SETLK, &l);
  m.held = r == 0;
  return r == 0 ? 1 : r == -EAGAIN || r == -EACCES ? 0 : -1;
}

static const char *lookup(char **env) {
  return read_entry() ? holds(env) : 0;
}

// Waits for the process that holds the request's lock: its entry, or the lock once it is free.
static enum memo_result wait_turn(char **env, long deadline_ms, const char **answer) {
  if (!may_make()) return MEMO_NONE;
  for (long nap = 1;;) {
    const int got = try_lock();
    if (got != 0) {
      *answer = got > 0 ? lookup(env) : 0;
      return *answer ? MEMO_KNOWN : MEMO_ASK;
    }
    const long left = deadline_ms - now_ms();
    if (left <= 0) return MEMO_LATE;
    nap_ms(nap < left ? nap : left);
    nap = nap < kNapMaxMs ? nap * 2 : kNapMaxMs;
    // The entry is written whole before the lock is dropped: one look costs a failed open.
    if ((*answer = lookup(env))) return MEMO_KNOWN;
  }
}

enum memo_result memo_recall(const struct memo_request *r, long deadline_ms, const char **answer) {
  *answer = 0;
  m.dir = m.lock = -1, m.held = 0, m.key_len = 0, m.path = 0, m.filtered = -1;
  m.entry.data = 0, m.entry.size = m.entry.capacity = 0;
  // getuid only where the start's ids cannot tell: a filter may kill the host for it (an
  // outside tester's finding, with a filter that lets the loader's own calls through).
  const long quiet = quiet_real_uid(decision_euid());
  m.uid = quiet >= 0 ? (unsigned long)quiet : (unsigned long)sys(SYS_getuid, 0, 0, 0);
  // The memo is the real user's: a process whose ids differ (setuid, or one that changed them)
  // neither reads nor writes one.
  if (!r || secure_execution() || m.uid != decision_euid() || !make_key(r)) {
    memo_done();
    return MEMO_NONE;
  }
  m.hash = cudnn_compat_memo_hash(m.key, m.key_len);
  // Created on a cold node: this process will ask the engine and write the first entry.
  if ((m.dir = open_dir(r->env)) >= 0 && (*answer = lookup(r->env))) return MEMO_KNOWN;
  if (m.dir < 0) {
    memo_done();
    return MEMO_NONE;
  }
  const enum memo_result w = wait_turn(r->env, deadline_ms, answer);
  if (w == MEMO_LATE) memo_done();
  return w;
}

const char *memo_entry(void) {
  static char path[kPath + 32];
  char name[24];
  if (!m.held) return "-";
  entry_name(name);
  return join_path(path, sizeof path, m.path, name) ? path : "-";
}

const char *memo_key(void) {
  return m.held ? m.key : "-";
}

void memo_done(void) {
  if (m.held) {
    struct flock l = {F_UNLCK, SEEK_SET, (long)(m.hash & CUDNN_COMPAT_MEMO_LOCK_MASK), 1, 0};
    sys_retry(SYS_fcntl, m.lock, F_OFD_SETLK, &l);
  }
  if (m.lock >= 0) sys(SYS_close, m.lock, 0, 0);
  if (m.dir >= 0) sys(SYS_close, m.dir, 0, 0);
  m.dir = m.lock = -1, m.held = 0;
  file_free(&m.entry);
}
