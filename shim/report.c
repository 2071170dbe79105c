#define _GNU_SOURCE
#include "report.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "arena.h"
#include "auditors.h"
#include "elf_dynamic.h"
#include "environment.h"
#include "fast_path.h"
#include "say.h"
#include "search_dirs.h"
#include "shim_text.h"
#include "sys.h"

enum { kPath = 4096 };

// What the router chose, appended under its lock and only read at exit.
struct note {
  const char *path, *how, *source;
  int major;  // for a kept main library: its major; -1 for a file handed over
  struct note *next;
};
static struct note *notes;
struct refusal {
  const char *dir, *base, *release, *foreign;
  int unreadable;
  struct refusal *next;
};
static struct refusal *refusals;
static int wanted;
static long wanted_by;  // the process whose cuDNN load asked for it: not each forked worker's exit
static const char *map_file;
static const struct link_map *base_head;

int report_asked(char **env) {
  const char *report = env_value(env, "CUDNN_COMPAT_REPORT");
  return report && text_eq(report, "1");
}

void report_wanted(const char *map) {
  wanted = 1, wanted_by = sys(SYS_getpid, 0, 0, 0);
  if (!map_file && map) map_file = arena_strdup(map);
}

// A note already taken (a program that loads and unloads cuDNN in a loop is decided the same way
// each time, its sub-libraries too) is not added again: the readers below find the oldest note
// of a library and the newest of a directory, whose source is the directory's own, so the answer
// is the same, and the process would grow by a note a load (helper 113: 420 bytes a cycle). The
// arena keeps each string once, so equal is the same.
static void add_note(const char *path, const char *how, const char *source, int major) {
  path = path ? arena_strdup(path) : 0, how = how ? arena_strdup(how) : 0;
  source = source ? arena_strdup(source) : 0;
  for (const struct note *n = notes; n; n = n->next)
    if (n->path == path && n->how == how && n->source == source && n->major == major) return;
  struct note *n = arena_alloc(sizeof *n);
  if (!n) return;
  n->path = path, n->how = how, n->source = source, n->major = major, n->next = notes;
  notes = n;
}

void report_choice(const char *path, const char *how, const char *source) {
  add_note(path, how, source, -1);
}

void report_kept(int major, const char *how, const char *source) {
  add_note(0, how, source, major);
}

static const char *warned;
void report_warned(const char *line) {
  if (!warned) warned = arena_strdup(line);
}

static const char *withheld;
static int disabled;
void report_withheld(const char *would) {
  if (!withheld) withheld = arena_strdup(would);
}
void report_disabled(void) {
  disabled = 1;
}

void report_refused(const char *dir, const char *base, const char *release, const char *foreign,
                    int unreadable) {
  dir = arena_strdup(dir), base = arena_strdup(base), release = arena_strdup(release);
  foreign = foreign ? arena_strdup(foreign) : 0;
  for (const struct refusal *r = refusals; r; r = r->next)  // each said once, as add_note's
    if (r->dir == dir && r->base == base && r->release == release && r->foreign == foreign &&
        r->unreadable == unreadable)
      return;
  struct refusal *r = arena_alloc(sizeof *r);
  if (!r) return;
  r->dir = dir, r->base = base, r->release = release, r->foreign = foreign;
  r->unreadable = unreadable;
  r->next = refusals;
  refusals = r;
}

void report_main_program(const struct link_map *map) {
  base_head = map;
}

// ---------------------------------------------------------------------------------------------
// At exit: the cuDNN libraries of the process, from the loader's own list of objects.

struct lib {
  const char *path, *base;
  char dir[kPath];
  int major;
  unsigned long version;  // cudnnGetVersion(), or from the file's name; 0 when unknown
  const char *version_from;
  unsigned long family;  // the release of its directory's family (dir_release); 0 when unknown
};

extern int dladdr1(const void *, Dl_info *, void **, int) __attribute__((weak));

// The first object of the main namespace: under LD_AUDIT the one la_objopen saw first; under
// LD_PRELOAD this library's own entry, walked back to the head of the list.
static const struct link_map *first_object(void) {
  if (base_head) return base_head;
  Dl_info info;
  void *self = 0;
  if (!dladdr1 || !dladdr1((const void *)first_object, &info, &self, RTLD_DL_LINKMAP) || !self)
    return 0;
  const struct link_map *m = self;
  while (m->l_prev) m = m->l_prev;
  return m;
}

const char *report_path(const char *path) {
  static char shown[kPath];
  return lexically_normal(path, shown, sizeof shown) ? shown : path;
}

// The version a file's name gives, following a link (libcudnn_ops.so.9 -> libcudnn_ops.so.9.1.0).
static unsigned long name_version(const char *path) {
  static char target[kPath];
  const long n = sys4(SYS_readlinkat, AT_FDCWD, path, target, sizeof target - 1);
  struct cudnn_name c;
  target[n > 0 ? n : 0] = 0;
  const char *base = n > 0 ? base_name(target) : base_name(path);
  if (!parse_cudnn_name(base, &c) || c.parts < 3) return 0;
  return cudnn_number_of(c.version[0], c.version[1], c.version[2]);
}

static void read_version(const struct link_map *m, struct lib *l) {
  unsigned long (*get)(void) = (unsigned long (*)(void))dynamic_symbol(m, "cudnnGetVersion");
  l->version = get ? get() : 0;
  l->version_from = "reported by the library";
  if (l->version) return;
  l->version = name_version(l->path);
  l->version_from = "by its file name";
}

// A directory as the map names it: lexically normal (a RUNPATH's .../torch/lib/../../nvidia/...).
static const char *normal_dir(const char *dir) {
  static char normal[kPath];
  return lexically_normal(dir, normal, sizeof normal) ? normal : dir;
}

// Each directory's family release, once a directory: the first library there that names its
// version, else the map's word on the directory (a wheel's sub-library lent from another place of
// the release names none: "MIXED ... and an unknown release" was a false alarm; helper 109). The
// map's table is read at most once a directory, not once a pair the mixed-family check compares.
static void settle_families(struct lib *libs, long n) {
  for (long i = 0; i < n; ++i) {
    long same = 0;
    while (same < i && !text_eq(libs[same].dir, libs[i].dir)) ++same;
    if (same < i) {
      libs[i].family = libs[same].family;
      continue;
    }
    libs[i].family = 0;
    for (long k = i; k < n && !libs[i].family; ++k)
      if (text_eq(libs[k].dir, libs[i].dir)) libs[i].family = libs[k].version;
    unsigned long number;
    const char *source;
    if (!libs[i].family && fast_place_of(map_file, normal_dir(libs[i].dir), &number, &source))
      libs[i].family = number;
    // A place the shim asked of its dispatcher, to lend a member its family lacked (helper 117:
    // "MIXED ... an unknown release" for a family of one release).
    if (!libs[i].family) libs[i].family = shim_place_release(libs[i].dir);
  }
}

// The cuDNN libraries in the process, in load order; *count of them.
static struct lib *collect(long *count) {
  long n = 0;
  for (const struct link_map *m = first_object(); m; m = m->l_next) ++n;
  struct lib *libs = arena_alloc((n + 1) * (long)sizeof *libs);
  *count = 0;
  for (const struct link_map *m = first_object(); libs && m; m = m->l_next) {
    struct cudnn_name c;
    if (!m->l_name || !*m->l_name || !parse_cudnn_name(base_name(m->l_name), &c)) continue;
    struct lib *l = &libs[(*count)++];
    l->path = m->l_name, l->base = split_path(m->l_name, l->dir, sizeof l->dir), l->major = c.major;
    read_version(m, l);
  }
  settle_families(libs, *count);
  return libs;
}

// ---------------------------------------------------------------------------------------------
// The lines.

// The release of a directory of the process's cuDNN (settle_families).
static unsigned long dir_release(const struct lib *libs, long n, const char *dir) {
  for (long i = 0; i < n; ++i)
    if (text_eq(libs[i].dir, dir)) return libs[i].family;
  return 0;
}

static const char *dir_source(const char *dir) {
  for (const struct note *n = notes; n; n = n->next) {
    static char d[kPath];
    if (n->path && n->source && split_path(n->path, d, sizeof d) && text_eq(d, dir))
      return n->source;
  }
  unsigned long number;
  const char *source;
  dir = normal_dir(dir);
  if (fast_place_of(map_file, dir, &number, &source)) return source;
  if (is_wheel_cudnn_dir(dir, text_len(dir))) return "wheel";
  if (is_conda_lib_dir(dir)) return "conda";
  return is_system_dir(dir) ? "system" : "user";
}

// Who chose a library: the shim (it handed the file over) or the loader (perhaps kept by the shim).
// The first note that names it says (notes are newest first): a later request of the same name
// found the family loaded, and only repeats what chose it.
static void chooser(const struct lib *l, const char **who, const char **how, const char **source) {
  *who = "the loader", *how = 0, *source = 0;
  struct cudnn_name c;
  const int main_library = parse_cudnn_name(l->base, &c) && !c.sub;
  for (const struct note *n = notes; n; n = n->next) {
    if (n->path && text_eq(n->path, l->path))
      *who = "the shim", *how = n->how, *source = n->source;
    else if (!n->path && n->major == l->major && main_library)
      *who = "the loader, kept by the shim", *how = n->how, *source = n->source;
  }
}

// The source the notes give for a directory: of a library there, the main library first.
static const char *noted_source(const struct lib *libs, long n, const char *dir) {
  for (int main_only = 1; main_only >= 0; --main_only)
    for (long i = 0; i < n; ++i) {
      const char *who, *how, *source;
      struct cudnn_name c;
      if (!text_eq(libs[i].dir, dir) || !parse_cudnn_name(libs[i].base, &c) || (main_only && c.sub))
        continue;
      chooser(&libs[i], &who, &how, &source);
      if (source) return source;
    }
  return 0;
}

static void say_library(const struct lib *l, const struct lib *libs, long n) {
  static char number[32], extra[64];
  const char *who, *how, *source;
  chooser(l, &who, &how, &source);
  if (!source) source = noted_source(libs, n, l->dir);
  const unsigned long v = l->version ? l->version : dir_release(libs, n, l->dir);
  if (v) cudnn_number_text(v, number);
  copy_text(extra, sizeof extra, l->version ? l->version_from : "as its directory's family");
  const char *parts[] = {"cudnn-compat: report: ",
                         report_path(l->path),
                         ": cuDNN ",
                         v ? number : "unknown",
                         v ? " (" : "",
                         v ? extra : "",
                         v ? ")" : " (no version function)",
                         ", ",
                         source ? source : dir_source(l->dir),
                         ", chosen by ",
                         who,
                         how ? " (" : "",
                         how ? how : "",
                         how ? ")" : "",
                         "\n",
                         0};
  say_parts(parts);
}

// A family of one major from more than one release, or from directories not known to hold one
// release: one line per foreign directory, which lands in foreign[] (at most `room`).
static long say_mixed(const struct lib *libs, long n, const char **foreign, long room) {
  long found = 0;
  for (long i = 0; i < n; ++i) {
    struct cudnn_name c;
    if (!parse_cudnn_name(libs[i].base, &c) || c.sub) continue;  // each major's dispatcher
    const char *home = libs[i].dir;
    const unsigned long own = dir_release(libs, n, home);
    int said = 0;  // a directory already named foreign is not a home again: one line a pair
    for (long f = 0; f < found; ++f) said |= text_eq(foreign[f], home);
    if (said) continue;
    for (long k = 0; k < n; ++k) {
      const unsigned long other = dir_release(libs, n, libs[k].dir);
      int listed = 0;
      for (long f = 0; f < found; ++f) listed |= text_eq(foreign[f], libs[k].dir);
      if (libs[k].major != libs[i].major || text_eq(libs[k].dir, home) || listed ||
          (own && own == other) || found == room)
        continue;
      static char a[32], b[32];
      const char *parts[] = {"cudnn-compat: report: MIXED cuDNN family: ",
                             own ? cudnn_number_text(own, a) : "an unknown release",
                             " from ",
                             home,
                             " and ",
                             other ? cudnn_number_text(other, b) : "an unknown release",
                             " from ",
                             libs[k].dir,
                             "\n",
                             0};
      say_parts(parts);
      foreign[found++] = libs[k].dir;
    }
  }
  return found;
}

// A directory whose family is of more than one release: a library there whose own word (its
// version function, or the name its file's link ends at) is another release's than its
// dispatcher's. One line each; returns the first such dispatcher, or 0.
static const struct lib *say_mixed_within(const struct lib *libs, long n) {
  const struct lib *first = 0;
  for (long i = 0; i < n; ++i) {
    struct cudnn_name c;
    if (!parse_cudnn_name(libs[i].base, &c) || c.sub || !libs[i].version) continue;
    for (long k = 0; k < n; ++k) {
      if (k == i || libs[k].major != libs[i].major || !text_eq(libs[k].dir, libs[i].dir) ||
          !libs[k].version || libs[k].version == libs[i].version)
        continue;
      static char a[32], b[32];
      say_parts((const char *const[]){
          "cudnn-compat: report: MIXED cuDNN family: ", cudnn_number_text(libs[i].version, a),
          " from ", libs[i].dir, " and ", cudnn_number_text(libs[k].version, b), " (",
          libs[k].version_from, ") in its own ", libs[k].base, "\n", 0});
      if (!first) first = &libs[i];
    }
  }
  return first;
}

// The initial LD_LIBRARY_PATH without the foreign directories, into out; 0 when none was on it.
static int path_without(const char **foreign, long n, char *out, long size) {
  const char *path = start_library_path();
  static char entry[kPath];
  long at = 0;
  int removed = 0;
  out[0] = 0;
  for (const char *p = path; p && *p;) {
    long k = 0;
    while (p[k] && p[k] != ':' && k < (long)sizeof entry - 1) entry[k] = p[k], ++k;
    entry[k] = 0;
    p += k + (p[k] == ':');
    int drop = 0;
    for (long i = 0; i < n; ++i) drop |= text_eq(entry, foreign[i]);
    removed |= drop;
    if (!drop && *entry)
      at = append_text(out, size, append_text(out, size, at, at ? ":" : ""), entry);
  }
  return removed;
}

// Where a directory's family is not whole: a place that has it all, or the directory mended.
static const char *whole_family_fix(const char *base, const char *release, const char *dir) {
  static char fix[2 * kPath];
  const char *parts[] = {"cudnn-compat resolve ",
                         base,
                         " --require ",
                         release,
                         "   # a place with the whole family; or reinstall the one in ",
                         dir,
                         0};
  long at = 0;
  for (const char *const *p = parts; *p; ++p) at = append_text(fix, sizeof fix, at, *p);
  return fix;
}

static void say_next_run(const char **foreign, long n, const struct lib *within, const char *late) {
  static char path[4 * kPath], release[32];
  const char *command = "nothing to change (one whole family per cuDNN major)";
  const char *rest = "";
  if (n && path_without(foreign, n, path, sizeof path)) {
    command = *path ? "export LD_LIBRARY_PATH=" : "unset LD_LIBRARY_PATH", rest = path;
  } else if (n && !base_head) {
    command = REPORT_USE_AUDIT;
  } else if (n) {
    command = "cudnn-compat doctor", rest = "   # names where each foreign library comes from";
  } else if (within) {
    command =
        whole_family_fix(within->base, cudnn_number_text(within->version, release), within->dir);
  } else if (refusals) {
    command = whole_family_fix(refusals->base, refusals->release, refusals->dir);
  } else if (withheld) {
    static char over[kPath + 64];
    append_text(over, sizeof over,
                append_text(over, sizeof over, 0, "   # the shim then hands over "), withheld);
    command = "leave report-only (CUDNN_COMPAT_USAGE, the map's [usage] mode)", rest = over;
  } else if (disabled) {
    // Nothing was judged, so nothing is known to change: doctor judges (helper 93: "unset" was
    // advised where the load fitted and where nothing installed did).
    command = "cudnn-compat doctor", rest = "   # CUDNN_COMPAT_DISABLE=1: the shim judged no load";
  } else if (late) {
    command = late;
  } else if (warned) {
    command = REPORT_NOTHING_FITS;
  }
  const char *parts[] = {"cudnn-compat: report: next run: ", command, rest, "\n", 0};
  say_parts(parts);
}

__attribute__((destructor)) static void report_at_exit(void) {
  // Under LD_PRELOAD a program that links cuDNN (DT_NEEDED) and never dlopens it asked the shim
  // nothing: the environment alone says whether it wants the report (read here, at exit, only).
  // A process without cuDNN says nothing (a shell's every command would).
  const int linked_only = !wanted && !is_audit_front() && report_asked(current_environment());
  if (linked_only) report_wanted(shim_map_path());
  if (!wanted || wanted_by != sys(SYS_getpid, 0, 0, 0) || another_copy_decides()) return;
  long n = 0;
  struct lib *libs = collect(&n);
  if (!libs || (linked_only && !n)) return;
  for (long i = 0; i < n; ++i) say_library(&libs[i], libs, n);
  for (const struct refusal *r = refusals; r; r = r->next) {
    const char *parts[] = {"cudnn-compat: report: refused ",
                           r->base,
                           r->foreign      ? ": links to "
                           : r->unreadable ? ": cannot be read by this user in "
                                           : ": not in ",
                           r->foreign ? r->foreign : r->dir,
                           r->foreign ? ", another release's file, in " : "",
                           r->foreign ? r->dir : "",
                           ", where this process's cuDNN ",
                           r->release,
                           " comes from, and no other place of that release has it\n",
                           0};
    say_parts(parts);
  }
  static const char *foreign[16];
  if (warned) {
    const char *line = after_prefix(warned, "cudnn-compat: ");
    say_parts((const char *const[]){
        "cudnn-compat: report: warned at the load: ", line ? line : warned, "\n", 0});
  }
  const long mixed = say_mixed(libs, n, foreign, 16);
  const struct lib *within = say_mixed_within(libs, n);
  say_next_run(foreign, mixed, within, recheck_at_exit(first_object()));
}
