// libcudnn-compat.so: the front end that lives in every process of a job.
//
// Loaded as LD_AUDIT (la_objsearch sees DT_NEEDED links and cuDNN's own sub-library dlopens) or
// as LD_PRELOAD (a dlopen wrapper). It carries no libc: an audit module that needs libc makes ld.so
// load a second libc into the audit namespace, which costs every process of the job 1.4x its start
// (FACTS.md section 6). So it speaks to the kernel directly and filters names in a few
// instructions. On the first request for a cuDNN main library it looks the answer up in the map's
// decision table (fast_path.c); only what the table does not settle goes to the engine, the
// cudnn-compat-select program beside it (spawn.c). Whatever fails, the process gets the load it
// would have done anyway, and at most one line.
//
// Anything reachable from a host's thread keeps its frames small (a 16 KiB thread stack must do):
// the buffers are static, used under the lock.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>

#include "arena.h"
#include "auditors.h"
#include "elf_dynamic.h"
#include "environment.h"
#include "fast_path.h"
#include "lock.h"
#include "look.h"
#include "memo.h"
#include "record.h"
#include "report.h"
#include "run_engine.h"
#include "say.h"
#include "search_dirs.h"
#include "shared/family_path.h"
#include "shared/loadable.h"
#include "shared/protocol.h"
#include "shared/version_grammar.h"
#include "shim_text.h"
#include "site_contract.h"
#include "sys.h"

#define EXPORT __attribute__((visibility("default")))

enum { kPath = 4096 };

// ---------------------------------------------------------------------------------------------
// State, kept for the life of the process: a later dlopen of the same name, or an RTLD_NOLOAD
// query, must find the object the first one got. Lists, not arrays: no number of majors or
// paths silently ends the family guarantee.

struct family {
  int major;
  int decided;         // a bare name of this major was decided
  const char *chosen;  // what that decision handed over (0: the ordinary load)
  const char *dir;     // where its cuDNN main library came from; 0 until known
  // Its release: the one its dispatcher named in a sub-library's exact name (cuDNN 9 asks for
  // libcudnn_graph.so.9.19.0 first: known without calling into a library that may be in its own
  // initialisation), else its cudnnGetVersion() once a library of dir has told; 0 until then.
  unsigned long release;
  int spoke;         // its decision said a line: the sub-libraries it refuses say none
  int told_unnamed;  // a member from the loader's own place, whose name says no release, was said
  int told_other;    // a request by another release's exact name was refused, and said
  // Its decision warned and kept the loader's choice (a family that does not load, a misfit):
  // its exact sub-library names are looked at too, as the shorter ones always are.
  int wary;
  struct refused *refused;  // the sub-libraries dir lacks, each said once
  // Under CUDNN_COMPAT_REPORT: who asked first, and the Python libraries its decision weighed
  // (python_peers' lines; 0 when they did not fit), for the report's look at later ones.
  const char *requester, *weighed;
  const char *main;  // the loaded main library's path, as the loader named it; 0 until loaded
  unsigned long opened_at;  // objects opened when it was decided (late_link)
  int tentative;            // settled before its mapping, by this thread (settle_early); 0: not
  int closed;               // its dispatcher was unloaded (la_objclose): settled no longer
  long pid;                 // the process that decided it (a forked child inherits the family)
  unsigned long noted;      // `notes` when a member of it was last seen mapped
  long tentative_until;
  int late_checked;  // a later library that links cuDNN was asked about
  struct family *next;
};
struct refused {
  const char *sub;
  int len;
  struct refused *next;
};
static struct family *families;
static unsigned long notes;  // members seen mapped, counted (note_member), for `since`

static struct family *family_of(int major) {
  for (struct family *f = families; f; f = f->next)
    if (f->major == major) return f;
  struct family *f = arena_alloc(sizeof *f);
  if (!f) return 0;
  f->major = major, f->decided = 0, f->chosen = 0, f->dir = 0, f->release = 0, f->refused = 0;
  f->spoke = 0, f->requester = 0, f->weighed = 0, f->main = 0, f->opened_at = 0;
  f->late_checked = 0, f->tentative = 0, f->tentative_until = 0, f->closed = 0, f->pid = 0;
  f->noted = 0;
  f->next = families;
  families = f;
  return f;
}

// Each path handed to the loader stays valid for the process's life: ld.so may keep the pointer.
struct kept {
  const char *path;
  struct kept *next;
};
static struct kept *kept_paths;

static const char *keep_path(const char *dir, const char *base) {
  for (struct kept *k = kept_paths; k; k = k->next)
    if (path_is(k->path, dir, base)) return k->path;
  static char joined[kPath];
  struct kept *k = arena_alloc(sizeof *k);
  if (!k || !join_path(joined, sizeof joined, dir, base) || !(k->path = arena_strdup(joined))) {
    say("cudnn-compat: out of memory or path too long; loading as usual\n");
    return 0;
  }
  k->next = kept_paths;
  kept_paths = k;
  return k->path;
}

// ---------------------------------------------------------------------------------------------
// What the process says, read when a load happens (README "What it decides").

struct settings {
  char **env;  // none in secure execution
  int disabled, debug, report;
  long deadline_ms;
  struct asked_need need;  // read once a decision: the table, the memo key and the routing ask it
};

// Whole seconds from 1 to a day. 0 is no deadline anyone means for a load: it started the engine
// only to give up at once (helper 104), so it counts as the default like any other odd value.
static long parse_seconds(const char *s, long fallback) {
  long n = 0;
  if (!s || !*s) return fallback;
  for (; *s >= '0' && *s <= '9' && n <= 86400; ++s) n = n * 10 + (*s - '0');
  return *s || n == 0 || n > 86400 ? fallback : n;
}

static struct settings read_settings(void) {
  struct settings s;
  s.env = current_environment();
  const char *off = env_value(s.env, "CUDNN_COMPAT_DISABLE");
  const char *on = env_value(s.env, "CUDNN_COMPAT_DEBUG");
  s.disabled = off && text_eq(off, "1");
  s.debug = on && text_eq(on, "1");
  s.report = report_asked(s.env);
  s.deadline_ms = now_ms() + 1000 * parse_seconds(env_value(s.env, "CUDNN_COMPAT_TIMEOUT"), 10);
  read_asked_need(s.env, &s.need);
  return s;
}

// ---------------------------------------------------------------------------------------------
// The engine: cudnn-compat-select, beside this library (shim/protocol.h).

// This library's directory, found in /proc/self/maps by an address inside it (read whole: a big
// Python process has megabytes of mappings); without /proc, the LD_AUDIT or LD_PRELOAD entry that
// named it at the start.
static const char *own_directory(void) {
  static const char *dir;
  if (dir) return dir;
  struct file_text maps;
  if (!file_read("/proc/self/maps", &maps)) return dir = start_shim_dir(is_audit_front());
  static char found[kPath];
  const char *file = mapping_path(maps.data, (uintptr_t)&own_directory);
  if (file && split_path(file, found, sizeof found) && *found) dir = arena_strdup(found);
  file_free(&maps);
  return dir;
}

// A copy of the process's environment without the entries that start with one of dropped[0..n),
// with room for `room` more entries after the k it holds (*k). Each entry is read once, and the
// copy stops at the count or at the first empty one: another thread's unsetenv() may have moved
// the list up since it was counted.
static char **environment_without(char **env, const char *const *dropped, int n, long room, long *k,
                                  struct reused *buffer) {
  long count = 0;
  for (char **e = env; e && *e; ++e) ++count;
  char **out = arena_reuse(buffer, (count + room + 1) * (long)sizeof *out);
  if (!out) return 0;
  *k = 0;
  for (long i = 0; i < count; ++i) {
    char *entry = __atomic_load_n(&env[i], __ATOMIC_RELAXED);
    if (!entry) break;
    int keep = 1;
    for (int d = 0; d < n; ++d) keep = keep && !after_prefix(entry, dropped[d]);
    if (keep) out[(*k)++] = entry;
  }
  out[*k] = 0;
  return out;
}

// The process's environment without LD_PRELOAD/LD_AUDIT (the engine must not load us), and in
// secure execution nothing of the caller's at all.
static char **engine_environment(char **env) {
  static char *secure[] = {"CUDNN_COMPAT_SECURE=1", 0};
  static const char *const dropped[] = {"LD_PRELOAD=", "LD_AUDIT="};
  static struct reused buffer;
  long k;
  return secure_execution() ? secure : environment_without(env, dropped, 2, 0, &k, &buffer);
}

// The environment a probe loads a library of dir in (shared/family_path.h: the engine's probes get
// the same): the host's, without what would load a shim or preload into it, with the library's
// family first on the library path and the shim switched off.
static char **probe_environment(char **env, const char *dir, int major) {
  static const char *const dropped[] = CUDNN_COMPAT_PROBE_DROPPED_ENV;
  const char *path = env_value(env, "LD_LIBRARY_PATH"), *own = *dir ? dir : ".";
  // The name, dir, ':' before each of path's entries, the NUL.
  const long size = text_len("LD_LIBRARY_PATH=") + text_len(own) + (path ? text_len(path) : 0) + 2;
  static struct reused path_buffer, buffer;
  char *library_path = arena_reuse(&path_buffer, size);
  long k;
  char **out = environment_without(env, dropped, sizeof dropped / sizeof *dropped, 2, &k, &buffer);
  if (!library_path || !out) return 0;
  const long at = append_text(library_path, size, 0, "LD_LIBRARY_PATH=");
  if (!cudnn_compat_family_path(path, own, major, library_path + at, size - at)) return 0;
  out[k++] = library_path, out[k++] = CUDNN_COMPAT_PROBE_SWITCH_OFF, out[k] = 0;
  return out;
}

static const char *map_path(char **env);

// The probe of the loader's own file, started beside the engine (run_engine.h), where the engine
// will need the library's word: a cuDNN main library the decision table does not know (a wheel's,
// a conda environment's, a user's copy; the table's identity rule, which the engine's is too).
// 0: the engine probes what it needs.
static const struct engine_probe *early_probe(const char *pick, const char *engine_dir,
                                              const struct settings *s) {
  static struct engine_probe probe;
  static char dir[kPath], helper[kPath];
  struct cudnn_name c;
  if (!pick || secure_execution() || !parse_cudnn_name(base_name(pick), &c) || c.sub ||
      !split_path(pick, dir, sizeof dir) || fast_knows_file(map_path(s->env), pick) ||
      !join_path(helper, sizeof helper, engine_dir, "cudnn-compat-probe"))
    return 0;
  static const char *argv[3];
  char **envp = probe_environment(s->env, dir, c.major);
  if (!envp) return 0;
  argv[0] = helper, argv[1] = pick, argv[2] = 0;
  probe.argv = (char *const *)argv, probe.envp = envp;
  return &probe;
}

// The program as it was started (a [[require]] glob may name that path, or the real one).
static const char *executable(void) {
  static char exe[kPath];
  const char *started_as = exec_path();
  if (started_as && *started_as) return started_as;
  const long n = sys4(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  return exe;
}

static void say_engine_failure(enum engine_result r, int error, const char *name,
                               const char *engine) {
  static char why[96];
  if (r == ENGINE_MISSING || r == ENGINE_NOT_RUN) errno_text(error, why, sizeof why);
  const char *parts[] = {"cudnn-compat: could not check ", name,
                         r == ENGINE_FILTERED
                             ? ": this process runs under a seccomp filter, which may kill it for "
                               "starting a process, so the engine "
                         : r == ENGINE_NOT_RUN ? ": no process could be started for the engine "
                                               : ": the engine ",
                         engine,
                         r == ENGINE_MISSING    ? " cannot be run ("
                         : r == ENGINE_NOT_RUN  ? " ("
                         : r == ENGINE_LATE     ? " gave no answer within CUDNN_COMPAT_TIMEOUT"
                         : r == ENGINE_BUSY     ? " is still busy with an earlier decision"
                         : r == ENGINE_FILTERED ? " is not started"
                                                : " ended without an answer",
                         r == ENGINE_MISSING || r == ENGINE_NOT_RUN ? why : "",
                         r == ENGINE_MISSING || r == ENGINE_NOT_RUN ? ")" : "",
                         r == ENGINE_SILENT && engine_stack_short()
                             ? " (this process's stack limit, ulimit -s, is too small for it: "
                               "256 KiB at least)"
                             : "",
                         // Only the engine learns a node; under a filter the table can be told.
                         r == ENGINE_FILTERED && fast_node_unlearnt()
                             ? "; the map's table needs this node's GPUs and driver, which no "
                               "process has learnt here: give them to the job as "
                               "CUDNN_COMPAT_GPU_ARCH=X.Y and CUDNN_COMPAT_DRIVER_CUDA=X.Y "
                               "(docker run --env)"
                             : "",
                         "; loading as usual\n", 0};
  say_parts(parts);
}

// base.major (libcudnn.so, 9: libcudnn.so.9) into out, parsed into *m; 0 when it does not fit or
// is no cuDNN name. The one way the router names a major's file.
static const char *name_of_major(const char *base, int major, char *out, long size,
                                 struct cudnn_name *m) {
  const long n = text_len(base);
  if (major < 0 || n + 22 > size) return 0;  // format_decimal's room
  append_text(out, size, 0, base);
  out[n] = '.';
  format_decimal((unsigned long)major, out + n + 1);
  return parse_cudnn_name(out, m) ? out : 0;
}

// The "how SOURCE TEXT" line's text, and its source into *source when asked (shared/protocol.h).
static const char *how_text(const char *q, const char **source) {
  const char *space = q;
  while (*space && *space != ' ') ++space;
  if (source) *source = arena_strndup(q, space - q);
  return *space ? arena_strdup(space + 1) : 0;
}

// What the last decision was made by, for the report: the engine's "how" line, or the table; and
// whether it said a line (a family whose decision spoke says nothing more: one line a process).
static const char *decided_how, *decided_source, *decided_said;
static int decision_spoke;

// Prints the engine's lines for stderr and returns its choice ("use PATH"), or 0. The engine's
// answer or the same text remembered by the memo: either carries the usage record's fields. Both
// are this process's own buffers, read line by line in place (line_cut).
static const char *read_answer(char *answer, int debug) {
  const char *use = 0;
  decided_how = decided_source = decided_said = 0;
  decision_spoke = 0;
  record_answer(answer);
  for (char *line = answer; *line;) {
    char was, *end = line_cut(line, &was);
    const char *q;
    // One line a decision, whatever the answer holds (a memo entry edited by hand); debugging,
    // every line the engine says.
    if ((q = after_prefix(line, "say ")) && !decided_said) decided_said = arena_strdup(q);
    if ((q = after_prefix(line, "say ")) && (debug || !decision_spoke))
      say_parts((const char *const[]){q, "\n", 0}), decision_spoke = 1;
    if ((q = after_prefix(line, "note ")) && debug) say_parts((const char *const[]){q, "\n", 0});
    if ((q = after_prefix(line, "use "))) use = arena_strdup(q);
    if ((q = after_prefix(line, "how "))) decided_how = how_text(q, &decided_source);
    line = line_mend(end, was);
  }
  return use;
}

// The engine's whole answer (its protocol checked), or 0 after one line (none when `quiet`: a
// question the process did not ask for a load of its own): `entry` and `key` say where it
// remembers the decision ("-" for nowhere).
static char *engine_answer(const char *name, const char *requester, const char *pick,
                           const struct search_dirs *dirs, const struct settings *s,
                           const char *entry, const char *key, int quiet) {
  static char engine[kPath], deadline[24];
  const char *dir = own_directory();
  if (!dir || !join_path(engine, sizeof engine, dir, CUDNN_COMPAT_ENGINE_NAME)) {
    if (!quiet)
      say("cudnn-compat: cannot find its own directory (no /proc/self/maps, and no absolute "
          "LD_AUDIT or LD_PRELOAD entry naming libcudnn-compat.so); loading as usual\n");
    return 0;
  }
  enum engine_result r;
  int error = 0;
  if (!engine_ready(s->deadline_ms, &r)) {
    if (!quiet) say_engine_failure(r, error, name, engine);
    return 0;
  }
  const long left = s->deadline_ms - now_ms();
  format_decimal(left > 0 ? (unsigned long)left : 0, deadline);
  const long count = 9 + (dirs->complete ? dirs->count : 1);
  static struct reused buffer;
  const char **argv = arena_reuse(&buffer, (count + 1) * (long)sizeof *argv);
  char **envp = engine_environment(s->env);
  if (!argv || !envp) return 0;
  const struct engine_probe *probe = early_probe(pick, dir, s);
  long a = 0;
  argv[a++] = engine, argv[a++] = CUDNN_COMPAT_PROTOCOL, argv[a++] = name;
  argv[a++] = executable(), argv[a++] = requester, argv[a++] = deadline;
  argv[a++] = entry, argv[a++] = key;
  argv[a++] = probe ? pick : CUDNN_COMPAT_NO_PROBE;
  if (!dirs->complete) argv[a++] = CUDNN_COMPAT_NO_DIRS;
  for (long i = 0; dirs->complete && i < dirs->count; ++i) argv[a++] = dirs->dir[i];
  argv[a] = 0;
  const char *answer;
  r = run_engine((char *const *)argv, envp, probe, s->deadline_ms, &answer, &error);
  if (r != ENGINE_ANSWERED) {
    if (!quiet) say_engine_failure(r, error, name, engine);
    return 0;
  }
  if (!after_prefix(answer + text_len(answer) - text_len("end " CUDNN_COMPAT_PROTOCOL "\n"),
                    "end " CUDNN_COMPAT_PROTOCOL "\n")) {
    if (!quiet)
      say("cudnn-compat: the engine beside the shim speaks another protocol (two installs mixed on "
          "one path?); loading as usual\n");
    return 0;
  }
  return (char *)answer;  // run_engine's buffer, ours
}

static const char *consult_engine(const char *name, const char *requester, const char *pick,
                                  const struct search_dirs *dirs, const struct settings *s) {
  char *answer = engine_answer(name, requester, pick, dirs, s, memo_entry(), memo_key(), 0);
  return answer ? read_answer(answer, s->debug) : 0;
}

// ---------------------------------------------------------------------------------------------
// The decision for a cuDNN main library no family of this process has settled yet.

// A name with a slash: the loader takes it as it is, a path (relative to the working directory
// when it does not start with one).
static int is_path(const char *name) {
  return base_name(name) != name;
}

// The file the loader takes for name: a path as it is; a bare name from the requester's own
// directories, then ld.so.cache and the default directories. 1 when known (*pick 0: the load
// fails), 0 when the shim cannot tell.
static int loader_pick(const char *name, const struct search_dirs *dirs, const char **pick) {
  *pick = 0;
  if (is_path(name)) {
    if (file_exists(name)) *pick = name;
    return 1;
  }
  if (!dirs->complete) return 0;
  // Each candidate in the arena, at its own length: no buffer of its own to fault in.
  for (long i = 0; i < dirs->count; ++i) {
    const char *candidate = arena_join(dirs->dir[i] + 2, name);
    if (!candidate) return 0;
    if (loader_may_open(candidate)) return (*pick = candidate), 1;
  }
  return system_search(name, pick);
}

static const char *map_path(char **env) {
  static char path[kPath];
  const char *named = env_value(env, "CUDNN_COMPAT_MAP");
  if (named && *named) return named;
  // The installed map as the contract places it from this file's directory (site_contract.h):
  // relative to it, or absolute where the sysconfdir is outside the prefix. Installed under /usr,
  // it is the system map (there is no /usr/etc).
  const char *from_here = SITE_MAP_FROM_PKGLIBDIR, *dir = 0;
  if (*from_here != '/' && (dir = own_directory()) && text_eq(dir, SITE_FHS_PKGLIBDIR))
    return SITE_SYSTEM_MAP;
  if ((*from_here == '/'
           ? copy_text(path, sizeof path, from_here)
           : (dir = own_directory()) && join_path(path, sizeof path, dir, from_here)) &&
      file_exists(path))
    return path;
  return SITE_SYSTEM_MAP;
}

// A file inside a Python environment (python_path_kind, the engine's rule too): its distribution
// may pin cuDNN, which only the engine reads (the table knows no pins). The last lib/ directory's
// answer is kept: a conda process has hundreds of libraries in the one prefix.
static int python_requester(const char *requester) {
  static char dir[kPath], last_dir[kPath];
  static int last_answer;
  const enum python_path kind = python_path_kind(requester);
  if (kind != PYTHON_LIB_DIR) return kind == PYTHON_WHEEL;
  if (!split_path(requester, dir, sizeof dir)) return 0;
  if (!text_eq(dir, last_dir)) {
    last_answer = is_conda_lib_dir(dir);
    copy_text(last_dir, sizeof last_dir, dir);
  }
  return last_answer;
}

// The memo key's "peer" lines: every library of a Python environment this process has loaded
// besides the requester (cuDNN's own aside), whose distribution may pin cuDNN: the engine reads
// those pins, so an answer holds for the same set. 0 when they do not fit in the key's room: then
// nothing is remembered or recalled.
static const char *python_peers(const struct link_map *who, const char *requester) {
  static char peers[4 * kPath];  // touched only for a peer: a page fault in every process else
  long n = 0;
  if (!who) return "";
  while (who->l_prev) who = who->l_prev;
  for (const struct link_map *l = who; l; l = l->l_next) {
    struct cudnn_name c;
    if (!l->l_name || !*l->l_name || text_eq(l->l_name, requester) ||
        parse_cudnn_name(base_name(l->l_name), &c) || !python_requester(l->l_name))
      continue;
    n = append_text(peers, sizeof peers, n, "peer\t");
    n = append_text(peers, sizeof peers, n, l->l_name);
    n = append_text(peers, sizeof peers, n, "\n");
    if (n + 1 >= (long)sizeof peers) return 0;
  }
  return n ? peers : "";
}

// Returns the file to load instead, or 0 for the ordinary load; *kept, the loader's own file where
// the table found it fits, at the very path the table probed it (else 0).
static const char *decide(const char *name, const struct cudnn_name *c, const char *requester_name,
                          const struct link_map *who, const struct search_dirs *dirs,
                          const struct settings *s, const char **kept) {
  // A path (a name with a slash: the loader takes it as it is, relative to the working directory)
  // that does not exist stays a failing load: the program asked for that file.
  const int path = is_path(name);
  if (path && !file_exists(name)) return 0;
  const char *pick = 0;
  const int pick_known = loader_pick(name, dirs, &pick);
  const int python = python_requester(requester_name);
  decided_how = "the map's decision table", decided_source = 0;
  // The map the table and the memo key go by (not while debugging: the engine then says why).
  const char *map = s->debug ? 0 : map_path(s->env);
  // The table is filed by major: a name with a fuller version (libcudnn.so.9.1.0) is a need of its
  // own, and a file of that exact name, which only the engine weighs.
  if (!s->debug && c->major >= 0 && !c->full_version && (dirs->complete || path) && !python) {
    const struct fast_request r = {map,  c->major,   s->need.require, s->need.cuda,
                                   pick, pick_known, s->env};
    const char *use = 0;
    switch (fast_decide(&r, &use)) {
      case FAST_KEEP:
        *kept = pick && *pick == '/' ? pick : 0;
        return 0;
      case FAST_USE:
        return use;
      case FAST_UNKNOWN:
        break;
    }
  }
  // What a process of this node decided before, or is deciding now (memo.c). Not while debugging:
  // the engine says why.
  const int recall = !s->debug && (dirs->complete || path);
  const struct memo_request m = {
      name,   executable(), requester_name,
      dirs,   pick,         recall ? map : "",
      s->env, &s->need,     recall ? python_peers(who, requester_name) : ""};
  const char *known = 0;
  const char *use = 0;
  switch (memo_recall(recall && m.peers ? &m : 0, s->deadline_ms, &known)) {
    case MEMO_KNOWN:
      use = read_answer((char *)known, s->debug);  // the memo's entry as read, ours
      break;
    case MEMO_LATE:
      say_parts((const char *const[]){"cudnn-compat: another process of this node is deciding ",
                                      name,
                                      " and has not finished within CUDNN_COMPAT_TIMEOUT; "
                                      "loading as usual\n",
                                      0});
      break;
    case MEMO_NONE:
    case MEMO_ASK:
      use = consult_engine(name, requester_name, pick, dirs, s);
      break;
  }
  memo_done();
  // The loader's own file kept by the engine, at the path the shim found it, as the table's is.
  if (!use && !path && pick_known && pick && *pick == '/') *kept = pick;
  return use;
}

// ---------------------------------------------------------------------------------------------
// CUDNN_COMPAT_REPORT, at exit: a Python library loaded after its family was decided (a JAX
// plugin imported after torch) may pin a release the family's does not meet, and nothing asks the
// loader for cuDNN again to tell (its links and dlopens find the loaded family by its SONAME).
// The engine decides once more for the first requester with the process as it is now.

// The path of the first line of `lines` ("peer\tPATH\n" each) that `among` lacks, or 0; *end
// where the next line starts.
static const char *unweighed(const char *lines, const char *among, const char **end) {
  for (const char *l = lines; *l;) {
    const char *e = l;
    while (*e && *e != '\n') ++e;
    int found = 0;
    for (const char *m = among; *m && !found;) {
      const char *me = m;
      while (*me && *me != '\n') ++me;
      found = me - m == e - l;
      for (long i = 0; found && i < e - l; ++i) found = m[i] == l[i];
      m = *me ? me + 1 : me;
    }
    if (!found) return *end = *e ? e + 1 : e, l + text_len("peer\t");
    l = *e ? e + 1 : e;
  }
  return 0;
}

// What a user imports to load a file: the top-level package below site-packages (or the module
// file there, without its suffixes), else the file's own name.
static const char *import_name(const char *path, char *out, long size) {
  const char *below = below_site_packages(path), *start = below ? below : base_name(path);
  long n = 0;
  while (start[n] && start[n] != '/' && (start[n] != '.' || start == base_name(path)) &&
         n < size - 1)
    out[n] = start[n], ++n;
  out[n] = 0;
  return out;
}

static int same_directory(const char *file, const char *dir) {
  static char a[kPath], b[kPath], file_dir[kPath];
  return dir && split_path(file, file_dir, sizeof file_dir) &&
         lexically_normal(file_dir, a, sizeof a) && lexically_normal(dir, b, sizeof b) &&
         text_eq(a, b);
}

// The engine's answer to the question asked again: its first line, its choice and the need.
struct recheck {
  const char *said, *use, *how;
};
static struct recheck read_recheck(char *answer) {
  struct recheck r = {0, 0, 0};
  const char *q;
  for (char *line = answer; line && *line;) {
    char was, *cut = line_cut(line, &was);
    if ((q = after_prefix(line, "say ")) && !r.said) r.said = arena_strdup(q);
    if ((q = after_prefix(line, "use "))) r.use = arena_strdup(q);
    if ((q = after_prefix(line, "how "))) r.how = how_text(q, 0);
    line = line_mend(cut, was);
  }
  return r;
}

// The next run's advice: the import that lets the first load weigh the late library's pins, or,
// where nothing serves them all, doctor, which lists each.
static const char *late_advice(const struct family *g, const char *late, const struct recheck *r) {
  static char later[kPath], first[kPath], advice[2 * kPath];
  if (r->said)
    return "cudnn-compat doctor   # no one cuDNN meets every pin now loaded: doctor lists each "
           "framework's";
  // No import comes before a preload: the list is what to change (helper 99).
  if (start_preloads(g->main)) {
    long n = append_text(advice, sizeof advice, 0, "remove ");
    n = append_text(advice, sizeof advice, n, g->main);
    append_text(advice, sizeof advice, n,
                " from LD_PRELOAD   # ld.so loads it before anything asks for cuDNN");
    return advice;
  }
  import_name(late, later, sizeof later);  // the first of them
  // Before the first requester's package where that is one; else before cuDNN's first load.
  if (python_requester(g->requester))
    import_name(g->requester, first, sizeof first);
  else
    copy_text(first, sizeof first, "cuDNN is first loaded");
  long n = 0;
  for (const char *const *p = (const char *const[]){"import ", later, " before ", first,
                                                    "   # its pins are then weighed by the first "
                                                    "cuDNN load",
                                                    0};
       *p; ++p)
    n = append_text(advice, sizeof advice, n, *p);
  return advice;
}

// The line, from the report at exit or (live) when the late library is loaded, where it carries
// the advice too: one line. Returns the advice.
static const char *say_late(const struct family *g, const char *late, const struct recheck *r,
                            int live) {
  static char number[32];
  const char *after = r->said ? after_prefix(r->said, "cudnn-compat: ") : 0;
  const char *verdict = r->said  ? (after ? after : r->said)
                        : r->use ? "cuDNN would come from "
                                 : "the loader's own cuDNN would load";
  const int why = !r->said && r->how;
  const char *advice = late_advice(g, late, r);
  say_parts((const char *const[]){
      live ? "cudnn-compat: " : "cudnn-compat: report: ", late, " came after cuDNN ",
      g->release ? cudnn_number_text(g->release, number) : "", g->release ? " " : "",
      "was chosen for ", *g->requester ? g->requester : "the program",
      ", and its pins were not weighed: with them, ", verdict, !r->said && r->use ? r->use : "",
      why ? " (" : "", why ? r->how : "", why ? ")" : "", live ? "; next run: " : "",
      live ? advice : "", "\n", 0});
  return advice;
}

// The engine's decision for the family's first requester, asked again with the process as it is
// now; 1 when it differs from what the family got (or says a line), with *r its answer.
static int decided_otherwise(const struct family *g, const struct settings *s, struct recheck *r) {
  static char main_name[64];
  static const struct search_dirs unread;  // none: the engine reads the requester's own
  struct cudnn_name m;
  char *answer = name_of_major("libcudnn.so", g->major, main_name, sizeof main_name, &m)
                     ? engine_answer(main_name, g->requester, 0, &unread, s, "-", "-", 1)
                     : 0;
  *r = read_recheck(answer);
  if (!answer) return -1;  // not asked (a seccomp filter, no engine beside the shim)
  return r->said || (r->use ? !same_directory(r->use, g->dir) : g->chosen != 0);
}

// Each family whose decision the later libraries change gets a line; returns the next run's
// advice for the last of them, or 0.
static int enter(void);
static const char *late_consumers(const struct link_map *head, const struct settings *s) {
  static char late[kPath];
  const char *advice = 0;
  for (struct family *g = families; g; g = g->next) {
    // A family whose first load was a path (ctypes.CDLL of the wheel's file, as torch's own
    // preloading does) was decided too; a forked child's exit leaves it to the process that
    // decided (one engine start a process, not one a worker).
    const char *now = g->dir && g->weighed && g->pid == sys(SYS_getpid, 0, 0, 0)
                          ? python_peers(head, g->requester)
                          : 0;
    const char *end, *path = now ? unweighed(now, g->weighed, &end) : 0;
    if (!path || !enter()) continue;
    long n = 0;
    for (; path; path = unweighed(end, g->weighed, &end)) {
      if (n) n = append_text(late, sizeof late, n, ", ");
      for (const char *p = path; p < end && *p != '\n' && n < (long)sizeof late - 1; ++p)
        late[n++] = *p;
      late[n] = 0;
    }
    struct recheck r;
    const int otherwise = decided_otherwise(g, s, &r);
    unlock();
    if (otherwise > 0) advice = say_late(g, late, &r, 0);
    // Unweighed, and no engine to weigh them now: not "nothing to change".
    if (otherwise < 0)
      advice =
          "cudnn-compat doctor   # libraries loaded after cuDNN was chosen could not be "
          "weighed at exit (no process could be started for the engine)";
  }
  return advice;
}

// The loaded main library of a major, from the loader's list; 0 when none is.
static const struct link_map *loaded_main(const struct link_map *head, int major) {
  for (const struct link_map *m = head; m; m = m->l_next) {
    struct cudnn_name c;
    if (m->l_name && parse_cudnn_name(base_name(m->l_name), &c) && !c.sub && c.major == major)
      return m;
  }
  return 0;
}

static int family_decided(int major) {
  for (const struct family *g = families; g; g = g->next)
    if (g->major == major && g->decided) return 1;
  return 0;
}

// Under LD_PRELOAD the loader links a program's or a library's DT_NEEDED cuDNN without asking the
// shim (helper 92: torch's libtorch_cuda.so got 9.1.0 from LD_LIBRARY_PATH against its pin 9.20,
// and the report said "nothing to change"). At exit the engine is asked, for the first object
// that links each such major, what it would have decided; where that is not what was loaded, one
// line, and the front end that sees links is the advice (doctor where nothing fits).
static const char *unseen_links(const struct link_map *head, const struct settings *s) {
  static const struct search_dirs unread;  // none: the engine reads the requester's own
  static char main_name[64];
  unsigned long asked = 0;  // the majors asked about (below 64)
  const char *advice = 0;
  if (is_audit_front()) return 0;  // LD_AUDIT saw every link as it was searched
  for (const struct link_map *m = head; m; m = m->l_next) {
    struct cudnn_name c, n;
    const int major =
        m->l_name && !parse_cudnn_name(base_name(m->l_name), &c) ? needed_cudnn_major(m) : -1;
    const struct link_map *loaded = major >= 0 && major < 64 ? loaded_main(head, major) : 0;
    if (!loaded || (asked >> major & 1) || family_decided(major) ||
        !name_of_major("libcudnn.so", major, main_name, sizeof main_name, &n) || !enter())
      continue;
    asked |= 1UL << major;
    char *answer = engine_answer(main_name, m->l_name, 0, &unread, s, "-", "-", 1);
    unlock();
    const struct recheck r = read_recheck(answer);
    if (!answer) {
      advice =
          "cudnn-compat doctor   # a cuDNN the loader linked could not be judged at exit (no "
          "process could be started for the engine)";
      continue;
    }
    static char dir[kPath];
    if (!r.said &&
        (!r.use || (split_path(loaded->l_name, dir, sizeof dir) && same_directory(r.use, dir))))
      continue;
    const char *after = r.said ? after_prefix(r.said, "cudnn-compat: ") : 0;
    say_parts((const char *const[]){
        "cudnn-compat: report: ", report_path(loaded->l_name), " was linked by ",
        *m->l_name ? m->l_name : "the program",
        ", which the shim does not see under LD_PRELOAD; judged now: ",
        r.said ? (after ? after : r.said) : "the shim would have handed over ", r.said ? "" : r.use,
        !r.said && r.how ? " (" : "", !r.said && r.how ? r.how : "", !r.said && r.how ? ")" : "",
        "\n", 0});
    // Where nothing fits, LD_AUDIT would warn and keep the same load (helper 94).
    advice = r.said ? REPORT_NOTHING_FITS : REPORT_USE_AUDIT;
  }
  return advice;
}

const char *recheck_at_exit(const struct link_map *head) {
  const struct settings s = read_settings();
  const char *late = late_consumers(head, &s), *unseen = unseen_links(head, &s);
  return unseen ? unseen : late;
}

const char *shim_map_path(void) {
  return map_path(current_environment());
}

// Under LD_AUDIT, as each object is opened: a library of a Python environment that links cuDNN
// (its DT_NEEDED: jaxlib's CUDA plugin, ONNX Runtime's CUDA provider), opened after its major's
// family was decided, was not weighed by that decision, and its link finds the loaded family by
// its SONAME without asking. The engine is asked once for that family, in such processes alone;
// where it decides otherwise, one line. (Under CUDNN_COMPAT_REPORT the report says it at exit.)
static unsigned long objects_opened;  // la_objopen's count: what a decision could weigh
static int any_decided;
static void late_link(const struct link_map *map) {
  struct cudnn_name c;
  if (!map->l_name || !*map->l_name || parse_cudnn_name(base_name(map->l_name), &c)) return;
  const int major = needed_cudnn_major(map);
  struct family *g = 0;
  for (struct family *f = families; major >= 0 && f && !g; f = f->next)
    if (f->major == major) g = f;
  // Another library of the first requester's own package (torch/lib/*) has its pins.
  static char mine[kPath], theirs[kPath];
  if (!g || !g->dir || !g->requester || g->late_checked || g->spoke ||
      g->opened_at >= objects_opened || !python_requester(map->l_name) ||
      text_eq(import_name(map->l_name, theirs, kPath), import_name(g->requester, mine, kPath)) ||
      !enter())
    return;
  const struct settings s = read_settings();
  g->late_checked = 1;
  struct recheck r;
  if (!s.disabled && !s.report && decided_otherwise(g, &s, &r) > 0)
    say_late(g, map->l_name, &r, 1), g->spoke = 1;
  unlock();
}

// ---------------------------------------------------------------------------------------------
// The router: every front end asks it what to load for a requested name.

// `from`: the family's directory, or another place of its release where that one lacks the file.
static void say_family(const char *name, const char *kept, const char *from,
                       const struct family *g) {
  static char release[32];
  const int elsewhere = from != g->dir;
  if (elsewhere) cudnn_number_text(g->release, release);
  const char *parts[] = {"cudnn-compat: ",
                         name,
                         " -> ",
                         kept,
                         elsewhere ? " (another place of cuDNN " : " (the family of ",
                         elsewhere ? release : from,
                         elsewhere ? ", which " : "",
                         elsewhere ? g->dir : "",
                         elsewhere ? " lacks)\n" : ")\n",
                         0};
  say_parts(parts);
}

// How a front end names the object that asks, and finds the loader's directories for it.
struct requester {
  unsigned long mapped;  // the majors mapped now, where the front end reads them (unsettled)
  unsigned long since;   // `notes` before that reading: a family noted later is not in it
  const char *name;      // "" for the main program
  void (*dirs)(const void *who, struct search_dirs *out);
  const void *who;  // its link map, when the front end knows it
};

// Whether a library of the family's own directory asks (its dispatcher, or libcudnn_graph, which
// asks for the engines from its own code): its words are the family's.
static int asked_by_family(const struct family *g, const struct requester *q) {
  static char dir[kPath];
  const struct link_map *who = q->who;
  return who && who->l_name && split_path(who->l_name, dir, sizeof dir) && text_eq(dir, g->dir);
}

// The family's release, where no exact name gave it: asked of a library of its directory that
// reports one (loaded and running).
static unsigned long family_release(struct family *g, const struct requester *q) {
  if (!g->release && asked_by_family(g, q)) {
    unsigned long (*get)(void) = (unsigned long (*)(void))dynamic_symbol(q->who, "cudnnGetVersion");
    if (get) g->release = get();
  }
  return g->release;
}

static int same_sub(const struct refused *r, const struct cudnn_name *c) {
  if (r->len != c->sub_len) return 0;
  for (int i = 0; i < r->len; ++i)
    if (r->sub[i] != c->sub_name[i]) return 0;
  return 1;
}

// The file the links at path end at (path itself when it is no link), in at[kPath], or 0 when they
// do not end within 40 hops (the kernel's limit). A readlink per link, for the shorter names a
// dispatcher asks once its exact one is not there.
static const char *link_end(const char *path, char *at) {
  static char target[kPath], dir[kPath];
  if (append_text(at, kPath, 0, path) + 1 >= kPath) return 0;
  for (int hop = 0; hop < 40; ++hop) {
    const long n = sys4(SYS_readlinkat, AT_FDCWD, at, target, sizeof target - 1);
    if (n == -EINVAL) return at;  // no link: the file the links end at
    if (n <= 0) return 0;
    target[n] = 0;
    if (target[0] == '/' ? append_text(at, kPath, 0, target) + 1 >= kPath
                         : !split_path(at, dir, sizeof dir) || !join_path(at, kPath, dir, target))
      return 0;
  }
  return 0;
}

// The release a parsed name carries in full (libcudnn_heuristic.so.9.0.0), or 0: a name with the
// major alone (a wheel's .so.9) says nothing.
static unsigned long release_in_name(const struct cudnn_name *t) {
  return t->parts >= 3 && t->version[1] < 100 && t->version[2] < 100
             ? cudnn_number_of(t->version[0], t->version[1], t->version[2])
             : 0;
}

// The release a file's name carries in full, or 0.
static unsigned long named_release(const char *file) {
  struct cudnn_name t;
  return file && parse_cudnn_name(base_name(file), &t) ? release_in_name(&t) : 0;
}

// The file the link at path ends at, when it is named for another release than release:
// libcudnn_heuristic.so -> .so.9 -> .so.9.0.0 in a 9.1.0 directory, a copy by hand; else 0. The
// file the links end at decides, by its own name.
static const char *other_release_file(const char *path, unsigned long release) {
  static char end[kPath];
  const unsigned long named = release ? named_release(link_end(path, end)) : 0;
  return named && named != release ? end : 0;
}

// The line for a member taken from the loader's own place, once per family, none where the
// family's own decision said one.
static void unnamed_member(const char *name, const char *from, struct family *g) {
  static char release[32];
  if (g->spoke || g->told_unnamed) return;
  g->told_unnamed = 1;
  if (g->release) cudnn_number_text(g->release, release);
  const char *parts[] = {"cudnn-compat: ",
                         name,
                         " is not in ",
                         g->dir,
                         ", where this process's cuDNN ",
                         g->release ? release : "family",
                         " comes from; the loader takes it from ",
                         from,
                         ", whose file names no release: should it be another release's, cuDNN "
                         "refuses the family (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH). Install "
                         "the whole family in one place, or see: cudnn-compat doctor\n",
                         0};
  say_parts(parts);
}

// Whether file is named as NVIDIA names the sub-library c's file of release: the same stem and
// exactly x.y.z (libcudnn_heuristic_old.so.9.1.0 or .so.9.1.0.0 is some other file).
static int is_release_file(const char *file, const struct cudnn_name *c, unsigned long release) {
  struct cudnn_name t;
  if (!file || !parse_cudnn_name(base_name(file), &t) || t.parts != 3 || t.sub_len != c->sub_len ||
      release_in_name(&t) != release)
    return 0;
  for (int i = 0; i < t.sub_len; ++i)
    if (t.sub_name[i] != c->sub_name[i]) return 0;
  return 1;
}

// The release of the cuDNN in dir, whose files' names say none (a wheel's, NVIDIA's tarball's
// .so.9): the place as the map's table lists it, else what its own dispatcher says in a probe of
// its own (cudnn-compat-probe, as the engine's probes load it; the process must not load a second
// dispatcher to ask). Once per directory: a family lacking files meets one such place for all of
// them. 0 when not known: no dispatcher there, it does not load or say its version, or no
// process may be started.
static char judged[kPath];
static unsigned long judged_release;
static int judged_major = -1;
static unsigned long place_release(const char *dir, int major, const struct settings *s) {
  static char helper[kPath], dispatcher[kPath], main_name[64];
  if (judged_major == major && text_eq(judged, dir)) return judged_release;
  unsigned long number = 0;
  const char *source, *answer, *own = own_directory();
  struct cudnn_name m;
  struct stat st;
  enum engine_result r;
  int error;
  if (!fast_place_of(map_path(s->env), dir, &number, &source) && own && !secure_execution() &&
      join_path(helper, sizeof helper, own, "cudnn-compat-probe") &&
      name_of_major("libcudnn.so", major, main_name, sizeof main_name, &m) &&
      join_path(dispatcher, sizeof dispatcher, dir, main_name) && look(dispatcher, &st, 0) == 0 &&
      engine_ready(s->deadline_ms, &r)) {
    const char *argv[] = {helper, dispatcher, 0};
    char **envp = probe_environment(s->env, dir, major);
    // The probe speaks no protocol: it ends (silent, by the engine's measure) after its lines,
    // of which "reports N" is the dispatcher's own word, said before its family is checked: a
    // place holding another release's dispatcher and part of its family says its release too
    // (helper 117: its probe failed for the members it lacks, and the file was let through).
    r = envp ? run_engine((char *const *)argv, envp, 0, s->deadline_ms, &answer, &error)
             : ENGINE_NOT_RUN;
    for (const char *line = r == ENGINE_SILENT ? answer : ""; *line; line = next_line(line)) {
      const char *v = after_prefix(line, "reports ");
      if (v && !read_decimal(&v, &number)) number = 0;
    }
  }
  if (append_text(judged, kPath, 0, dir) + 1 < kPath) judged_major = major, judged_release = number;
  return number;
}

unsigned long shim_place_release(const char *dir) {
  return judged_major >= 0 && text_eq(judged, dir) ? judged_release : 0;
}

// Where the loader's own search (the requester's directories, ld.so.cache, the default ones) finds
// a file of the sub-library c named for exactly release, under its exact name
// (libcudnn_ops.so.9.1.0: the dispatcher asks it first, and was handed the family's directory
// instead) or the name asked: another place of the family's release that no map lists (NVIDIA's
// packages in /usr/lib/x86_64-linux-gnu link .so.9 to .so.9.19.0). With `unnamed_ok`, also a file
// under the name asked whose name says no release (NVIDIA's tarballs and wheels name it .so.9
// alone): its place's release (place_release) decides - the family's, it is taken; another's,
// not - and where that is not known it is taken too: refusing it made a host abort
// (family_member). *word says which. Its directory in dir[kPath] and its name; one search of the
// loader's places either way.
enum place_word {
  FILE_NAMED,   // the file's own name says the family's release
  PLACE_SAID,   // its name says none, and its place's dispatcher (or the table) says the family's
  PLACE_UNTOLD  // its name says none, and its place cannot say
};
static const char *loader_file_of_release(const struct cudnn_name *c, unsigned long release,
                                          int unnamed_ok, const struct requester *q,
                                          const struct settings *s, char *dir,
                                          enum place_word *word) {
  static struct search_dirs dirs;
  static char exact[kPath], end[kPath], number[32];
  *word = FILE_NAMED;
  const char *so = c->base;
  while (*so && !after_prefix(so, ".so")) ++so;
  const long stem = so - c->base + 3;
  if ((!release && !unnamed_ok) || !*so || stem >= kPath - 40) return 0;
  for (long i = 0; i < stem; ++i) exact[i] = c->base[i];
  exact[stem] = '.';
  cudnn_number_text(release, number);
  append_text(exact, kPath, stem + 1, number);
  q->dirs(q->who, &dirs);
  const char *const names[] = {release ? exact : 0, c->base};
  for (int i = 0; i < 2; ++i) {
    const char *pick = 0;
    if (!names[i] || !loader_pick(names[i], &dirs, &pick) || !pick) continue;
    const char *file = link_end(pick, end);
    if (release && is_release_file(file, c, release)) return split_path(pick, dir, kPath);
    if (names[i] != c->base || !unnamed_ok || !file || named_release(file)) continue;
    const char *base = split_path(pick, dir, kPath);
    const unsigned long place = base && release ? place_release(dir, c->major, s) : 0;
    if (place && place != release) return 0;
    *word = place ? PLACE_SAID : PLACE_UNTOLD;
    return base;
  }
  return 0;
}

// A path in the family's directory under its file of c, which no open can take (ENOTDIR): a
// refused load fails there, where a file of that name may be another release's; name where it
// does not fit.
static const char *failing_path(const char *name, const struct cudnn_name *c,
                                const struct family *g) {
  static char under[kPath];
  const char *failing =
      join_path(under, sizeof under, c->base, "not-this-release") ? keep_path(g->dir, under) : 0;
  return failing ? failing : name;
}

// A sub-library the family's directory lacks, holds where this process may not read it, or holds
// as a link to another release's file, and no other place of its release has: a path in that
// directory the load fails on, and one line, once per sub-library - none where the family's own
// decision said one already (the process has been told, in the line that matters). A name with the
// full version (the cuDNN 9 dispatcher asks for libcudnn_ops.so.9.1.0 first, then shorter names)
// fails silently: the next name may be there. `foreign`: the file of another release a link there
// leads to, which the line names.
enum member_trouble { ABSENT, UNREADABLE };
static const char *refuse(const char *name, const struct cudnn_name *c, struct family *g,
                          enum member_trouble trouble, const char *foreign,
                          const struct settings *s) {
  static char release[32];
  if (g->release) cudnn_number_text(g->release, release);
  struct refused *r = g->refused;
  while (r && !same_sub(r, c)) r = r->next;
  char *sub = !c->full_version && !r ? arena_alloc(c->sub_len + 1) : 0;
  if (sub && (r = arena_alloc(sizeof *r))) {
    for (int i = 0; i < c->sub_len; ++i) sub[i] = c->sub_name[i];
    sub[c->sub_len] = 0;
    r->sub = sub, r->len = c->sub_len, r->next = g->refused;
    g->refused = r;
    const char *parts[] = {"cudnn-compat: ",
                           name,
                           foreign                 ? " links to "
                           : trouble == UNREADABLE ? " cannot be read by this user in "
                                                   : " is not in ",
                           foreign ? foreign : g->dir,
                           foreign ? ", another release's file, in " : "",
                           foreign ? g->dir : "",
                           ", where this process's cuDNN ",
                           g->release ? release : "family",
                           " comes from, and no other place of that release has it; not loading "
                           "another release's copy (the family would mix). Install the whole "
                           "family there, or see: cudnn-compat doctor\n",
                           0};
    if (!g->spoke) say_parts(parts);
    if (s->report)
      report_refused(g->dir, c->base, g->release ? release : "unknown", foreign,
                     trouble == UNREADABLE);
  }
  // The file there is another release's: a path under it, which no open can take (ENOTDIR).
  if (foreign) return failing_path(name, c, g);
  const char *in_dir = keep_path(g->dir, c->base);
  return in_dir ? in_dir : name;
}

// A sub-library asked by the exact name of another release than the family's
// (libcudnn_ops.so.9.23.0 in a 9.20.0 process): never that file, and one line, once a family,
// none where its decision said one. The load fails on a path in the family's directory under
// which no file can be (ENOTDIR): the dispatcher's own shorter names are not this request.
static const char *other_release_asked(const char *name, const struct cudnn_name *c,
                                       struct family *g) {
  static char release[32], asked[32];
  if (!g->spoke && !g->told_other) {
    g->told_other = 1;
    cudnn_number_text(g->release, release);
    cudnn_number_text(release_in_name(c), asked);
    const char *parts[] = {"cudnn-compat: ",
                           name,
                           " is cuDNN ",
                           asked,
                           "'s; this process's cuDNN ",
                           release,
                           " comes from ",
                           g->dir,
                           ": not loading another release's file (the family would mix)\n",
                           0};
    say_parts(parts);
  }
  return failing_path(name, c, g);
}

// The name as the loader's cache reads it: libcudnn_graph.so.09 is the family directory's
// libcudnn_graph.so.9 (helper 110: refused as "not in" the directory that held it).
static const struct cudnn_name *as_cache_reads(const struct cudnn_name *asked) {
  static struct cudnn_name named;
  static char canonical[128];
  if (!asked->padded || !canonical_cudnn_name(asked, canonical, sizeof canonical)) return asked;
  named = *asked, named.base = canonical;
  return &named;
}

// For CUDNN_COMPAT_REPORT, why a member came from where it did. The loader's own file that names no
// release, which the shim lets through, is not noted: the report says the loader chose it (helper
// 109: "another place of the family's release", then "MIXED").
static void report_member(const char *kept, const char *from, const struct family *g) {
  report_choice(
      kept,
      from == g->dir ? "the family of its directory" : "another place of the family's release", 0);
}

// A path named without a major (.../libcudnn_extra.so), in the family's directory: that
// directory's own file, decided under the name of its major only (helper 110: refused as "not in"
// the directory that held it). own: the path's stat.
static int own_file_in_family(const char *name, const struct cudnn_name *c, const struct family *g,
                              const struct stat *own) {
  return is_path(name) && !text_eq(base_name(name), c->base) && same_directory(name, g->dir) &&
         cudnn_compat_may_read(name, own) && !other_release_file(name, g->release);
}

// A sub-library name with the full version, once a family is loaded; 0: looked at as any other.
// Only the family's own libraries' exact names say its release: a program's query for another
// release's file (an RTLD_NOLOAD "is it loaded?" too, under LD_AUDIT) said it instead, and the
// family's own files were refused, another release's lent (helper 114). The dispatcher's own
// (libcudnn_graph.so.9.19.0, then .9.19, then .9) gets its path in D whether the file is there or
// not, which the loader's own open tells: no look of ours on a shared tree that 10,000 ranks
// read, unless a line of ours is to say where it came from.
static const char *exact_member(const char *name, const struct cudnn_name *c, struct family *g,
                                const struct requester *q, const struct settings *s) {
  const unsigned long named = release_in_name(c);
  if (!g->release && asked_by_family(g, q)) g->release = named;
  if (g->release && named && named != g->release) return other_release_asked(name, c, g);
  if (s->debug || s->report || g->wary) return 0;
  const char *in_dir = keep_path(g->dir, c->base);
  return in_dir ? in_dir : name;
}

// A cuDNN name once a family is loaded: the file in the family's directory D. A sub-library D
// lacks comes from another place of exactly the family's release (the map's decision table
// knows which), or from nowhere: another release's copy is what breaks a family
// (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, pytorch#188892). A main library name D lacks keeps
// its ordinary search.
static const char *family_member(const char *name, const struct cudnn_name *asked, struct family *g,
                                 const struct requester *q, const struct settings *s) {
  static char candidate[kPath];
  const struct cudnn_name *c = as_cache_reads(asked);
  struct stat st, own;
  // A path that is not there stays a failing load, as without the shim (an outside tester's
  // finding: /nonexist/libcudnn.so.5 loaded the family's dispatcher). One look, paid only by a
  // load by path: the dispatchers ask for their sub-libraries by name.
  if (is_path(name) && look(name, &own, 0) != 0) return name;
  const char *exact = c->sub && c->full_version ? exact_member(name, c, g, q, s) : 0;
  if (exact) return exact;
  if (!join_path(candidate, sizeof candidate, g->dir, c->base)) return name;
  const char *from = g->dir, *base = c->base;
  // A shorter sub-library name (any, in a wary family) is looked at unfollowed first: a file (a
  // wheel's, NVIDIA's .so.9) costs the one look it always did, and only a link is followed to the
  // file it names.
  const int link = c->sub && (!c->full_version || g->wary) && look(candidate, &st, 1) == 0 &&
                   S_ISLNK(st.st_mode);
  const int there = look(candidate, &st, 0) == 0;
  // A file ld.so may not open is no member here: loading it fails as surely as a missing one; nor
  // is a shorter name that links to a file named for another release.
  const int readable = there && cudnn_compat_may_read(candidate, &st);
  int loader_own = 0;  // the loader's own file taken, not the family's release
  const char *foreign = readable && link ? other_release_file(candidate, g->release) : 0;
  if (!readable || foreign) {
    // A dispatcher D lacks under this name: the family's own, where one is loaded (its file named
    // libcudnn.so alone); never a second dispatcher of the major.
    if (!c->sub) return g->main ? g->main : name;
    // A name with the full version fails here: the dispatcher's next, shorter name may be in D.
    const unsigned long release = c->full_version ? 0 : family_release(g, q);
    from = release ? fast_same_release(map_path(s->env), release, c->base, g->dir) : 0;
    static char loaders[kPath];
    // Absent from D, and the loader's own file elsewhere names no release: refusing it made a
    // host that runs without the shim abort in cuDNN's dispatcher (an outside tester's finding: a
    // lone copy of the real 9.19's libcudnn.so.9, its family in ld.so.cache); cuDNN's own version
    // check still refuses a family that mixes, with a status it returns.
    enum place_word word = FILE_NAMED;
    if (!from &&
        (base = loader_file_of_release(c, release, !there && !c->full_version, q, s, loaders,
                                       &word)) &&
        *loaders)
      from = loaders, loader_own = word != PLACE_SAID;
    if (from && word == PLACE_UNTOLD) unnamed_member(name, from, g);
    if (!from && own_file_in_family(name, c, g, &own)) return name;
    if (!from) return refuse(name, c, g, there ? UNREADABLE : ABSENT, foreign, s);
  }
  const char *kept = keep_path(from, base);
  if (!kept) return name;
  if (s->debug) say_family(name, kept, from, g);
  if (s->report && !loader_own) report_member(kept, from, g);
  return kept;
}

// Takes the lock for a decision; 0 when this load keeps its ordinary course instead. A signal
// handler of the host that loads a library while its thread decides passes through (its thread
// holds the lock: waiting would be forever), and a thread does not wait for another's decision
// past that decision's deadline (its holder is stopped by something of the host's).
static int enter(void) {
  switch (lock()) {
    case LOCK_TAKEN:
      return 1;
    case LOCK_TIMED_OUT:
      say("cudnn-compat: another thread's decision has not ended by its deadline "
          "(CUDNN_COMPAT_TIMEOUT); loading as usual\n");
      return 0;
    case LOCK_REENTERED:
      break;
  }
  return 0;
}

// Under LD_PRELOAD the shim decides before the real dlopen maps anything, outside the loader's
// lock: another thread's dlopen of a dispatcher between this answer and that mapping would decide
// on its own and bring in a second release (an outside tester's race). So the file this decision
// lets load (handed over, kept, or an absolute path that is there) settles the family at once,
// until the mapping confirms it (note_member). A load that fails leaves no mapping: the deciding
// thread's next request, or any request past the decision's deadline, finds it so and undoes it
// (unsettled), so that one failed load by path does not send every later load to it. Under
// LD_AUDIT the loader's own lock orders the two, and the mapping alone settles it.
// Under LD_PRELOAD a family settled by a decision holds until a member is mapped (note_member),
// for the deciding thread's own next request, or the decision's deadline: whichever comes first.
static void until_mapped(struct family *f, const struct settings *s) {
  if (is_audit_front() || !f) return;
  f->tentative = (int)sys(SYS_gettid, 0, 0, 0), f->tentative_until = now_ms() + s->deadline_ms;
}

// dispatcher: file is the family's main library (its caller decided one), not a sub-library.
static void settle_early(struct family *f, const char *file, int dispatcher,
                         const struct settings *s) {
  const char *base = file ? base_name(file) : 0;
  if (is_audit_front() || record_report_only() || !file || f->dir || base - file <= 1 ||
      !file_exists(file))
    return;
  f->dir = arena_strndup(file, base - file - 1), f->main = dispatcher ? file : 0;
  until_mapped(f, s);
}

// `mapped`: the majors of which a cuDNN library is mapped now (LD_PRELOAD reads the loader's list
// at each request; LD_AUDIT, which sees each unload, passes all bits): a family none of whose
// libraries is mapped any more (all dlclosed) is settled no longer.
// The reading is taken before the lock: a family another thread saw mapped after it began (its
// load and its next request between this thread's reading and its lock) is not judged by it.
static void unsettled(struct family *f, unsigned long mapped, unsigned long since) {
  if (f && f->dir && !f->tentative && f->noted <= since && f->major >= 0 && f->major < 64 &&
      !(mapped & (1ul << f->major)))
    f->closed = 1;
  if (!f || (!f->closed && (!f->tentative || ((int)sys(SYS_gettid, 0, 0, 0) != f->tentative &&
                                              now_ms() < f->tentative_until))))
    return;
  f->dir = 0, f->main = 0, f->chosen = 0, f->decided = 0, f->tentative = 0, f->release = 0;
  f->closed = 0;
}

// The first request of a main library of this major: decided, and the family is where it went.
// `asked`: the name the program asked for, which the usage record carries (a sub-library's, when
// one came first).
static const char *decide_family(const char *name, const char *asked, const struct cudnn_name *c,
                                 struct family *f, const struct requester *q,
                                 const struct settings *s) {
  static struct search_dirs dirs;
  q->dirs(q->who, &dirs);
  const char *result = name, *kept_pick = 0;
  const char *decided = decide(name, c, q->name, q->who, &dirs, s, &kept_pick);
  if (!f->requester) {
    f->requester = arena_strdup(q->name), f->opened_at = objects_opened, any_decided = 1;
    f->pid = sys(SYS_getpid, 0, 0, 0);
    const char *weighed = s->report ? python_peers(q->who, q->name) : 0;
    f->weighed = weighed ? arena_strdup(weighed) : 0;
  }
  const char *chosen = record_decision(asked, c->major, q->name, decided);
  // The engine's debug line named the hand-over; report-only keeps the loader's choice instead.
  if (decided && !chosen && s->report) report_withheld(decided);
  if (decided && !chosen && s->debug)
    say_parts((const char *const[]){"cudnn-compat: ", name, ": report-only: ", decided,
                                    " is not handed over; the loader's own choice loads\n", 0});
  static char chosen_dir[kPath];
  const char *base = chosen ? split_path(chosen, chosen_dir, sizeof chosen_dir) : 0;
  const char *kept = base && *chosen_dir ? keep_path(chosen_dir, base) : 0;
  struct cudnn_name k;
  if (kept && parse_cudnn_name(base, &k)) {  // the family of the chosen file's own major
    struct family *owner = k.major >= 0 ? family_of(k.major) : f;
    result = kept;
    if (owner) owner->dir = arena_strdup(chosen_dir), until_mapped(owner, s);
  }
  if (s->report && result != name) report_choice(result, decided_how, decided_source);
  if (s->report && result == name && decided_source)
    report_kept(c->major, decided_how, decided_source);
  // Kept with a warning (nothing that fits to hand over): the report says the warning too.
  if (s->report && result == name && decision_spoke && decided_said) report_warned(decided_said);
  // Whatever asked, a line said is said for the family; under CUDNN_COMPAT_DEBUG every line is
  // said (a debug line is no warning: an outside tester saw the refusal hidden by it).
  f->spoke = f->spoke || (decision_spoke && !s->debug);
  f->wary = f->wary || (decision_spoke && result == name);
  // A path is the program's own choice and settles nothing for later bare names. Only now: a
  // child forked while this thread decided must decide again, not trust a flag.
  if (!is_path(name)) {
    f->chosen = result != name ? result : 0;
    f->decided = 1;
  }
  // Kept: handed over at its probed path, so that the loader does not walk its search path for
  // the name again (issue 23: at scale each failed open in a module's directory is a metadata
  // operation on the shared tree, per rank). Report-only keeps the loader's own search.
  if (result != name || !kept_pick || record_report_only() || is_path(name)) {
    settle_early(f, result == name && *name == '/' ? name : 0, 1, s);
    return result;
  }
  settle_early(f, kept_pick, 1, s);
  return kept_pick;
}

// The major of a file named without one (libcudnn_graph.so -> libcudnn_graph.so.9 ->
// libcudnn_graph.so.9.0.0): from the name its links end at, else from that file's own SONAME
// (libcudnn.so -> libcudnn-9.23.so, SONAME libcudnn.so.9); -1 when neither tells.
static int major_of_file(const char *path) {
  static char end[kPath], soname[64];
  struct cudnn_name t;
  if (!link_end(path, end)) return -1;
  if (parse_cudnn_name(base_name(end), &t) && t.major >= 0) return t.major;
  const char *named = file_soname(end, soname, sizeof soname);
  return named && parse_cudnn_name(named, &t) ? t.major : -1;
}

// The major of the file the loader takes for a name without one; NO_PICK when the loader's search
// is known to find no file; -1 when it cannot be told.
enum { NO_PICK = -2 };
static int major_of_pick(const char *name, const struct requester *q) {
  static struct search_dirs dirs;
  const char *pick = 0;
  q->dirs(q->who, &dirs);
  if (!loader_pick(name, &dirs, &pick)) return -1;
  return pick ? major_of_file(pick) : NO_PICK;
}

// A sub-library asked before any main library of its major (cudnn-frontend's dynamic loading
// opens libcudnn_graph.so.9 first): the family is decided as for libcudnn.so.<major> from the
// same requester, and the sub-library comes from where that decision went. Left to the loader, the
// first sub-library's directory would settle the family, fitting the need or not, and say nothing.
static const char *decide_for_sub(const char *name, const struct cudnn_name *c, int major,
                                  struct family *f, const struct requester *q,
                                  const struct settings *s) {
  static char main_name[64];
  static struct search_dirs dirs;
  struct cudnn_name m;
  if (!name_of_major("libcudnn.so", major, main_name, sizeof main_name, &m)) return name;
  decide_family(main_name, name, &m, f, q, s);
  // Kept (by the table or the engine): the family is where the loader finds its main library.
  const char *pick = 0;
  static char pick_dir[kPath];
  if (!f->dir && !record_report_only()) {
    q->dirs(q->who, &dirs);
    if (loader_pick(main_name, &dirs, &pick) && pick && split_path(pick, pick_dir, kPath) &&
        *pick_dir)
      f->dir = arena_strdup(pick_dir), until_mapped(f, s);
  }
  return f->dir && !record_report_only() ? family_member(name, c, f, q, s) : name;
}

static const char *route_name(const char *name, const struct cudnn_name *c,
                              const struct requester *q, const struct settings *s);

// A line about a name decided with its major ends with what the ordinary load of the name asked
// takes (helper 92: "the loader finds no libcudnn.so.6 ... loading as usual" while libcudnn.so
// loaded the system's cuDNN 9.19, unsaid); searched only when a line is said.
static struct search_dirs asked_dirs;
static const char *asked_name;
static const char *asked_words(void) {
  static char words[kPath + 64];
  const char *pick = 0;
  const int known = loader_pick(asked_name, &asked_dirs, &pick) && pick;
  const char *parts[] = {"asked for ", asked_name, known ? ", which loads " : "", known ? pick : "",
                         0};
  long at = 0;
  for (const char *const *p = parts; *p; ++p) at = append_text(words, sizeof words, at, *p);
  return words;
}

// A name without a major (libcudnn.so, libcudnn_ops.so: development links, which wheels do not
// ship, and which may lead to another major's file) is routed as the name of one major: the
// required one (CUDNN_COMPAT_REQUIRE=8.9, or a module's need: libcudnn.so.8), else the one its file
// is of, by the name the loader's pick's links end at (libcudnn.so -> libcudnn.so.8 ->
// libcudnn.so.8.9.7). With no file to pick, the one family loaded lends its major; a file whose
// name tells none (a dispatcher named libcudnn.so) keeps its ordinary load, and its SONAME names
// its family once it is loaded (note_member).
static const char *route_without_major(const char *name, const struct cudnn_name *c,
                                       const struct requester *q, const struct settings *s) {
  static char with_major[64];
  const char *require = s->need.require;
  struct cudnn_compat_version need;
  int major = require && cudnn_compat_parse_required(require, text_len(require), &need)
                  ? (int)need.part[0]
                  : major_of_pick(name, q);
  if (major == NO_PICK) {
    major = -1;
    for (struct family *g = families; g; g = g->next)
      if (g->dir && g->major >= 0) major = major < 0 ? g->major : -2;  // two: no one major
  }
  struct cudnn_name m;
  if (!name_of_major(c->base, major, with_major, sizeof with_major, &m)) return name;
  q->dirs(q->who, &asked_dirs);
  asked_name = name;
  say_ending_with(asked_words);
  const char *got = route_name(with_major, &m, q, s);
  if (got != with_major) return got;
  // Kept: the file the loader takes for the name with its major, not where the development link
  // leads (another release's file, whose directory is not its family); none: the name as asked.
  const char *pick = 0;
  return loader_pick(with_major, &asked_dirs, &pick) && pick && *pick == '/' ? pick : name;
}

// A path named without a major (/opt/cudnn/lib/libcudnn.so, a development link) is decided as a
// path of the major its file is of: within a loaded family, the family's file (an outside tester
// mapped a second release through one); else the engine judges that very file.
static const char *path_without_major(const char *name, const struct cudnn_name *c,
                                      const struct requester *q, const struct settings *s) {
  static char with_major[64];
  struct cudnn_name m;
  return name_of_major(c->base, major_of_file(name), with_major, sizeof with_major, &m)
             ? route_name(name, &m, q, s)
             : name;
}

// A sub-library asked by a loaded dispatcher whose own file named no major (no SONAME, or one of
// another shape): the family is the dispatcher's own directory, as the loader alone would have
// it, not a decision of its own that might bring another release's sub-library.
static void family_of_requester(const struct cudnn_name *c, struct family *f,
                                const struct requester *q) {
  struct cudnn_name r;
  static char dir[kPath];
  if (!c->sub || f->dir || !q->name || !parse_cudnn_name(base_name(q->name), &r) || r.sub ||
      (r.major >= 0 && r.major != c->major) || !split_path(q->name, dir, sizeof dir) || !*dir)
    return;
  f->dir = arena_strdup(dir), f->main = arena_strdup(q->name), f->decided = 1;
}

// The decision for a cuDNN name, under the lock.
static const char *route_name(const char *name, const struct cudnn_name *c,
                              const struct requester *q, const struct settings *s) {
  for (struct family *g = families; g; g = g->next) unsettled(g, q->mapped, q->since);
  if (c->major < 0)
    return is_path(name) ? path_without_major(name, c, q, s) : route_without_major(name, c, q, s);
  struct family *f = family_of(c->major);
  if (!f) return name;
  if (!record_report_only()) family_of_requester(c, f, q);
  if (f->dir && !record_report_only()) return family_member(name, c, f, q, s);  // keep it whole
  // libcudnn.so.N, asked again under LD_PRELOAD before its family is known: what the first request
  // got (another thread may be loading it now). Under LD_AUDIT the loader's lock has ordered them:
  // a decision that mapped nothing (an RTLD_NOLOAD query, which the loader searches for, a failed
  // load, a dlmopen into another namespace) is no family, and the name is decided again.
  if (!c->sub && f->decided && !is_path(name) && !is_audit_front())
    return f->chosen ? f->chosen : name;
  if (!c->sub) return decide_family(name, name, c, f, q, s);
  if (!f->decided && !is_path(name)) return decide_for_sub(name, c, c->major, f, q, s);
  // A sub-library by path, the first load of its family: its directory is the family's from now
  // on, as its mapping would make it, so that a dispatcher another thread decides meanwhile comes
  // from there too (helper 111: under LD_PRELOAD the two threads mapped two releases).
  settle_early(f, name, 0, s);
  return name;
}

// Returns the name to load: the same pointer when nothing changes. The caller has found that
// name is a cuDNN library (c), so every other load never gets here.
static const char *route(const char *name, const struct cudnn_name *c, const struct requester *q) {
  if (!enter()) return name;
  // What one decision learns once - each file's stat, the effective uid - and none later.
  look_begin();
  forget_decision_ids();
  const struct settings s = read_settings();
  lock_deadline(s.deadline_ms + ENGINE_GRACE_MS);
  if (s.report) report_wanted(map_path(s.env));  // also of a pass-through: what the loader did
  if (s.report && s.disabled) report_disabled();
  // Asked before the decision speaks, so that a misspelt switch and the decision share one line.
  if (!s.disabled) record_report_only();
  const char *result = s.disabled ? name : route_name(name, c, q, &s);
  say_held();
  look_end();
  unlock();
  return result;
}

// A cuDNN library the loader has loaded, by its own choice or ours: the first of a major fixes
// the family, a sub-library too (a program or a front end such as cudnn-frontend's dynamic loading
// may dlopen libcudnn_graph.so.9 before any dispatcher, and a dispatcher from elsewhere after it
// would bring another release's sub-libraries into the process).
// A name without a major (libcudnn_graph.so, a development link) is of the major its object's
// SONAME names, read from the loaded object's dynamic section (no file is read).
static int note_member(const char *path, const struct link_map *object) {
  struct cudnn_name c;
  if (!path || !parse_cudnn_name(base_name(path), &c)) return -1;
  const char *soname = c.major < 0 && object ? dynamic_string(object, DT_SONAME) : 0;
  struct cudnn_name named;
  if (soname && parse_cudnn_name(soname, &named)) c.major = named.major;
  if (c.major < 0) return -1;
  if (lock() != LOCK_TAKEN) return c.major;  // a handler's load inside a decision: that one notes
  struct family *f = family_of(c.major);
  // Straight into the arena (a page every decision touches), not through a buffer of its own.
  const char *base = base_name(path);
  if (f && !f->dir && base - path > 1) f->dir = arena_strndup(path, base - path - 1);
  if (f && !f->main && !c.sub) f->main = arena_strdup(path);
  if (f) f->tentative = 0, f->noted = ++notes;  // a member mapped: the early settlement holds
  unlock();
  return c.major;
}

// ---------------------------------------------------------------------------------------------
// LD_AUDIT front end.

static const struct link_map *main_program;

static void audit_dirs(const void *who, struct search_dirs *out) {
  loader_search_dirs(who, main_program, out);
}

EXPORT unsigned int la_version(unsigned int version) {
  audit_front_begins();
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

// An object of a namespace of its own (dlmopen) is marked in its cookie: what it asks for is its
// namespace's business, which another release may serve (the process's family is the base
// namespace's; an outside tester saw a 9.23.0 dispatcher there handed 9.20.0's sub-libraries).
enum { OTHER_NAMESPACE = 1 };  // link maps are aligned: the low bit is free

EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie) {
  if (lmid != LM_ID_BASE) {
    *cookie |= OTHER_NAMESPACE;
    return 0;
  }
  if (!main_program) {  // the base namespace's first
    report_main_program(main_program = map);
    note_base_objects(map);
  }
  note_object(map);
  note_member(map->l_name, map);
  ++objects_opened;
  if (any_decided) late_link(map);
  return 0;
}

// After every constructor, before main: an environment the program empties (clearenv()) is empty
// from here on, not the start's (an outside tester's finding: LD_AUDIT still applied the start's
// CUDNN_COMPAT_REQUIRE after clearenv(), which LD_PRELOAD did not).
EXPORT void la_preinit(uintptr_t *cookie) {
  (void)cookie;
  program_begins();
}

// An object the loader unloads - a dlclose, or a load that failed after its mapping (a dependency
// missing): a family whose dispatcher it was is settled there no longer (an outside tester's
// finding: one failed load by path sent every later load of the process to it).
EXPORT unsigned int la_objclose(uintptr_t *cookie) {
  const struct link_map *map =
      cookie && !(*cookie & OTHER_NAMESPACE) ? (const struct link_map *)*cookie : 0;
  struct cudnn_name c;
  if (!map || !map->l_name || !parse_cudnn_name(base_name(map->l_name), &c) || c.sub ||
      lock() != LOCK_TAKEN)
    return 0;
  // Undone at the next request (unsettled), not now: at exit every object is closed before the
  // report, which still tells the family.
  for (struct family *f = families; f; f = f->next)
    if (f->main && text_eq(f->main, map->l_name)) f->closed = 1;
  unlock();
  return 0;
}

// Auditors named before this one in LD_AUDIT. glibc hands each auditor's la_objsearch the name the
// one before returned, in LD_AUDIT order (elf/dl-audit.c, _dl_audit_objsearch), and a name
// changed at LA_SER_ORIG is opened as it is: a path this shim hands over would reach the loader
// without passing the auditors before it, and a Spindle named first would never serve it from its
// node-local cache (tests/shim/spindle_order.sh). Found once, on the first redirect: processes
// that never ask for cuDNN never look. la_objsearch runs under ld.so's own lock, so no two threads
// look at once. Where this shim is not found among them (before glibc 2.35), it hands its path
// over as it is.
EXPORT char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag);
enum { kEarlierMax = 8 };
static objsearch_fn earlier[kEarlierMax];
static int earlier_count = -1;  // -1: not looked for yet

// The path chosen here, as the auditors before this one would have answered it had the program
// asked for it, in LD_AUDIT order and at LA_SER_ORIG. Their cookie slots are glibc's private
// layout, so each is given this shim's (the requester's link map, which none of them set). An
// answer that is no file (Spindle's "not found" prefix, NULL) keeps the shim's own path: the
// right release without the cache beats a failed load.
static const char *through_earlier_auditors(const char *path, uintptr_t *cookie) {
  if (earlier_count < 0)
    earlier_count = auditors_before(la_objsearch, main_program, earlier, kEarlierMax);
  const char *name = path;
  for (int i = 0; i < earlier_count && name; ++i) name = earlier[i](name, cookie, LA_SER_ORIG);
  return name && name != path && file_exists(name) ? name : path;
}

EXPORT char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
  struct cudnn_name c;
  if (flag != LA_SER_ORIG || (cookie && (*cookie & OTHER_NAMESPACE)) ||
      !parse_cudnn_name(base_name(name), &c) || another_copy_decides())
    return (char *)name;
  const struct link_map *who = cookie ? (const struct link_map *)*cookie : 0;
  const struct requester q = {~0ul, 0, who && who->l_name ? who->l_name : "", audit_dirs, who};
  const char *use = route(name, &c, &q);
  return (char *)(use != name && is_path(use) ? through_earlier_auditors(use, cookie) : use);
}

// ---------------------------------------------------------------------------------------------
// LD_PRELOAD front end. dlopen itself is in shim_entry.S: it calls shim_dlopen_route and then
// jumps to the real dlopen with the caller's return address still on the stack, because glibc
// takes the caller's RUNPATH and $ORIGIN from that address.

extern void *dlsym(void *, const char *) __attribute__((weak));
extern int dladdr(const void *, Dl_info *) __attribute__((weak));
extern int dl_iterate_phdr(int (*)(struct dl_phdr_info *, size_t, void *), void *)
    __attribute__((weak));

__attribute__((visibility("hidden"))) void *(*shim_real_dlopen)(const char *, int);

static void *no_dlopen(const char *name, int flags) {
  (void)name, (void)flags;
  return 0;
}

// Without audit the loader's own choice of a cuDNN library is seen only here, by looking.
static int note_family(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  // What of a link map the dynamic section's reader needs: the base and the section.
  struct link_map object = {0};
  object.l_addr = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      object.l_ld = (ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  const int major = note_member(info->dlpi_name, object.l_ld ? &object : 0);
  if (major >= 0 && data) *(unsigned long *)data |= major < 64 ? 1ul << major : 0;
  return 0;
}

static void preload_dirs(const void *who, struct search_dirs *out) {
  preload_search_dirs(who, out);
}

extern int dladdr1(const void *, Dl_info *, void **, int) __attribute__((weak));

__attribute__((visibility("hidden"))) const char *shim_dlopen_route(const char *name,
                                                                    const void *caller, int flags) {
  if (!shim_real_dlopen) {
    void *real = dlsym ? dlsym(RTLD_NEXT, "dlopen") : 0;
    shim_real_dlopen = real ? (void *(*)(const char *, int))real : no_dlopen;
  }
  struct cudnn_name c;
  // A query (RTLD_NOLOAD) loads nothing, so it decides nothing, as under LD_AUDIT, where the
  // loader answers it without a search.
  if (!name || (flags & RTLD_NOLOAD) || !parse_cudnn_name(base_name(name), &c) ||
      another_copy_decides())
    return name;
  unsigned long mapped = ~0ul;
  const unsigned long since = __atomic_load_n(&notes, __ATOMIC_RELAXED);
  if (dl_iterate_phdr) mapped = 0, dl_iterate_phdr(note_family, &mapped);
  // Asked here, before the shim's lock: dladdr takes the loader's lock, which a thread running a
  // library's constructor holds while it dlopens a sub-library and waits for the shim's lock.
  Dl_info info = {0};
  void *map = 0;
  const int found = dladdr1  ? dladdr1(caller, &info, &map, RTLD_DL_LINKMAP)
                    : dladdr ? dladdr(caller, &info)
                             : 0;
  // The link map's own name, as LD_AUDIT sees it: for the main program that is "", where dladdr
  // gives argv[0], which a program may have set to anything (its whole command line, after a
  // retitle) and which must not reach a record.
  const struct link_map *who = map;
  const char *requester = who                       ? (who->l_name ? who->l_name : "")
                          : found && info.dli_fname ? info.dli_fname
                                                    : "";
  const struct requester q = {mapped, since, requester, preload_dirs, map};
  return route(name, &c, &q);
}
