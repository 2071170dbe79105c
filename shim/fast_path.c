// Reads map.toml.decide (its one writer: src/core/decide/decision_table.cc), when the contract's
// rule (site_files.c, docs/contract.md) believes it.
#include "fast_path.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "arena.h"
#include "environment.h"
#include "look.h"
#include "node.h"
#include "record.h"
#include "search_dirs.h"
#include "shared/decision_key.h"
#include "shared/loadable.h"
#include "shim_text.h"
#include "site_files.h"
#include "sys.h"

struct identity {
  unsigned long ino, size, mtime_ns;
};

static struct identity identity_of(const struct stat *st) {
  return (struct identity){st->st_ino, (unsigned long)st->st_size, timespec_ns(&st->st_mtim)};
}

static int identify(const char *path, struct identity *id, struct stat *st) {
  if (look(path, st, 0) != 0 || !S_ISREG(st->st_mode)) return 0;
  *id = identity_of(st);
  return 1;
}

// "tab number" fields in a row.
static int numbers(const char **p, unsigned long *out, int n) {
  for (int i = 0; i < n; ++i)
    if (*(*p)++ != '\t' || !read_decimal(p, &out[i])) return 0;
  return 1;
}

// A line's text up to its end, copied into the arena (paths the loader may keep).
static const char *rest_of_line(const char *p) {
  return arena_strndup(p, line_end(p) - p);
}

static int trusted(const char *map, struct file_text *text) {
  text->data = 0, text->size = 0, text->capacity = 0;
  // The table's path, then its directory's right after it: one page touched, not two (a page
  // fault in every process that loads cuDNN). Callers hold the shim's lock.
  static char names[2 * 4096 + 16];
  char *table = names;
  struct site_seen seen;
  enum site_verdict verdict;
  if (!copy_text(table, 4096, map)) return 0;
  const long used = append_text(table, 4096 + 16, text_len(table), SITE_DECIDE_SUFFIX) + 1;
  char *dir = names + used;
  const long fd = site_open_table(map, table, dir, (long)sizeof names - used, &seen, &verdict);
  if (fd < 0) return 0;
  // A table larger than any map's is no table of ours: never read in the host.
  const int ok = seen.table.st_size <= SITE_FILE_MAX && fd_read_sized(fd, seen.table.st_size, text);
  sys(SYS_close, fd, 0, 0);
  const int believed = ok && site_judge_table(text->data, text->size, SITE_DECIDE_FORMAT, map,
                                              &seen) == SITE_BELIEVED;
  if (ok && seen.reader >= 0) note_decision_euid((unsigned long)seen.reader);
  return believed;
}

// The first line starting with prefix, from p on; 0 when none.
static const char *find(const char *p, const char *prefix) {
  for (; *p; p = next_line(p))
    if (after_prefix(p, prefix)) return after_prefix(p, prefix);
  return 0;
}

// One "lib" row: an entry's index, the identity its library was probed with, and its path.
struct lib_row {
  unsigned long index;
  struct identity id;
  const char *path;  // the rest of the row's line
};

// The next lib row from *p on, advancing *p past it; 0 when there is none (or it is damaged).
static int next_lib(const char **p, struct lib_row *row) {
  const char *q = find(*p, "lib\t");
  unsigned long f[4];
  if (!q) return 0;
  *p = next_line(q);
  --q;  // numbers() reads "\tN" fields
  if (!numbers(&q, f, 4) || *q != '\t') return 0;
  row->index = f[0], row->id.ino = f[1], row->id.size = f[2], row->id.mtime_ns = f[3];
  row->path = q + 1;
  return 1;
}

static int same_identity(const struct identity *a, const struct identity *b) {
  return a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

// Whether a row's field equals word (a field ends at a tab).
static const char *field_is(const char *p, const char *word) {
  const char *rest = after_prefix(p, word);
  return rest && *rest == '\t' ? rest + 1 : 0;
}

// The fitting entries for a need, best first ("3,0,7"; "" when none fits), or 0 when the table
// has no row for it. key 0 stands for "no cuDNN version required".
static const char *fit_row(const char *table, const char *major, const char *cuda,
                           unsigned long key) {
  const char *found = 0;
  for (const char *p = table; (p = find(p, "fit\t")); p = next_line(p)) {
    const char *q = field_is(p, major);
    q = q ? field_is(q, cuda) : 0;
    if (!q) continue;
    unsigned long row_key = 0;
    if (*q == '-' ? key != 0 : (!read_decimal(&q, &row_key) || key == 0 || row_key > key)) continue;
    if (*q == '-') ++q;
    if (*q == '\t') found = q + 1;
  }
  return found;
}

static int listed(const char *list, unsigned long index) {
  for (unsigned long n; read_decimal(&list, &n); list += *list == ',') {
    if (n == index) return 1;
    if (*list != ',') break;
  }
  return 0;
}

// Whether the table's "run" rows constrain anything: a release with device code or a CUDA.
static int constrains(const char *table) {
  for (const char *p = table; (p = find(p, "run\t")); p = next_line(p)) {
    unsigned long index;
    if (!read_decimal(&p, &index) || *p++ != '\t') return 1;
    if (!after_prefix(p, "*\t-\n")) return 1;
  }
  return 0;
}

// Whether an entry runs on the node, by its "run" row: 1 yes, 0 no, -1 the table cannot say (a
// GPU it does not list, no row): the engine decides.
static int runs_here(const char *table, unsigned long index, const struct node_facts *node) {
  const char *known = find(table, "gpus\t");
  for (const char *p = table; (p = find(p, "run\t")); p = next_line(p)) {
    unsigned long i, n;
    if (!read_decimal(&p, &i) || i != index || *p++ != '\t') continue;
    const char *gpus = p;
    while (*p && *p != '\t') ++p;
    if (*p++ != '\t') return -1;
    for (int g = 0; g < node->gpus; ++g) {
      if (!known || !listed(known, node->gpu[g])) return -1;
      if (*gpus != '*' && !listed(gpus, node->gpu[g])) return 0;
    }
    if (*p == '-' || !node->driver) return 1;
    return read_decimal(&p, &n) ? node->driver >= n : -1;
  }
  return -1;
}

// Whether overrides agree with each other by the table's "gpu" rows: no GPU named whose first
// driver CUDA is newer than the driver named. A pair that contradicts, or a GPU without its row,
// is the engine's to say (in one line, with the loader's choice).
static int overrides_agree(const char *table, const struct node_facts *node) {
  for (int g = 0; g < node->gpus; ++g) {
    const char *p = table;
    unsigned long arch, first;
    while ((p = find(p, "gpu\t")) && (!read_decimal(&p, &arch) || arch != node->gpu[g]))
      p = next_line(p);
    if (!p || *p++ != '\t') return 0;
    if (*p != '-' && (!read_decimal(&p, &first) || node->driver < first)) return 0;
  }
  return 1;
}

// The node a decision is judged on; judge 0 when no release's run row constrains anything.
struct node_judge {
  int judge;
  struct node_facts node;
};

static int here_of(const char *table, unsigned long index, const struct node_judge *n) {
  return n->judge ? runs_here(table, index, &n->node) : 1;
}

// The first entry of a fit row (best first) that runs on the node; -1 when the table cannot say,
// -2 when none does.
static long first_here(const char *table, const char *row, const struct node_judge *n) {
  for (unsigned long i; read_decimal(&row, &i); row += *row == ',') {
    const int here = here_of(table, i, n);
    if (here != 0) return here < 0 ? -1 : (long)i;
    if (*row != ',') break;
  }
  return -2;
}

// Whether a lib row's path is text (the row's path runs to the end of its line).
static int row_path_is(const char *row_path, const char *text) {
  while (*text && *row_path == *text) ++row_path, ++text;
  return !*text && (*row_path == '\n' || !*row_path);
}

// The file of a lib row, to hand over: still the file that was probed, a main library of the
// requested major, and one this process can load (a file only another user may read, or on a
// noexec mount here, would fail the load where the engine's probe keeps the ordinary one).
static const char *handed_over(const struct lib_row *lib, int major) {
  struct stat st;
  struct cudnn_name c;
  const char *path = rest_of_line(lib->path);
  if (!path || !parse_cudnn_name(base_name(path), &c) || c.sub || c.major != major) return 0;
  if (!cudnn_compat_loadable(path, &st)) return 0;
  const struct identity id = identity_of(&st);
  return same_identity(&id, &lib->id) ? path : 0;
}

// Whether a lib row has the identity of the file at path.
static int table_holds(const char *table, const char *path) {
  struct stat st;
  struct identity id;
  struct lib_row lib;
  if (!identify(path, &id, &st)) return 0;
  for (const char *p = table; next_lib(&p, &lib);)
    if (same_identity(&lib.id, &id)) return 1;
  return 0;
}

// What the table says of the loader's pick, judged by its identity.
enum pick_verdict {
  PICK_UNKNOWN,    // a file the table does not know
  PICK_FITS,       // a fitting release, reached by the very path the table probed
  PICK_ELSEWHERE,  // a fitting release reached by another path (*at: the row of its probed path)
  PICK_MISFIT,
};

// A fitting release reached by another path than its probed one - a link in a directory of other
// sub-libraries - would take its family from there ($ORIGIN is the link's directory): the
// release is handed over at its probed path instead, whichever path reached it.
static enum pick_verdict judge_pick(const char *table, const char *row, const char *pick,
                                    const struct node_judge *n, struct lib_row *at, long *entry) {
  struct stat st;
  struct identity id;
  struct lib_row lib;
  enum pick_verdict v = PICK_UNKNOWN;
  if (!identify(pick, &id, &st)) return PICK_UNKNOWN;
  for (const char *p = table; next_lib(&p, &lib);) {
    if (!same_identity(&lib.id, &id)) continue;
    if (*entry < 0) *entry = (long)lib.index;
    const int here = here_of(table, lib.index, n);
    if (here < 0) return PICK_UNKNOWN;
    if (!here || !listed(row, lib.index)) {
      if (v == PICK_UNKNOWN) v = PICK_MISFIT;
    } else if (row_path_is(lib.path, pick)) {
      return PICK_FITS;
    } else if (v != PICK_ELSEWHERE) {
      v = PICK_ELSEWHERE, *at = lib;
    }
  }
  return v;
}

// The last answer was unknown because the table's rows need this node's GPUs and driver, which no
// process has learnt yet (no node file) nor the overrides give.
static int node_unlearnt;
int fast_node_unlearnt(void) {
  return node_unlearnt;
}

// The node: a release that cannot run on its GPUs or driver is passed over, as the engine does; 0
// when the table cannot say without the engine.
static int judge_node(const char *table, const struct fast_request *r, struct node_judge *n) {
  n->judge = constrains(table), n->node.gpus = 0, n->node.driver = 0, n->node.overridden = 0;
  if (n->judge && !node_facts(r->env, &n->node)) {
    node_unlearnt = 1;
    return 0;
  }
  if (n->node.overridden && !overrides_agree(table, &n->node)) return 0;
  // The map names nodes ([[node]]): whether one is this node, the engine tells (a glob on its
  // name), unless the overrides say what it has.
  return !(n->judge && find(table, "nodes\t") && !n->node.overridden);
}

static enum fast_answer decide(const char *table, const struct fast_request *r, const char **use,
                               struct fast_resolved *got) {
  // The engine's own grammar (shared/version_grammar.h; a major alone is a need too); a build
  // number (x.y.z.b), a text that is no version, another major or a patch the table does not
  // file is left to the engine.
  struct cudnn_compat_version need = {0, {0, 0, 0, 0}}, cuda = {0, {0, 0, 0, 0}};
  if (r->require &&
      (!cudnn_compat_parse_required(r->require, text_len(r->require), &need) || need.parts > 3 ||
       need.part[0] != r->major || need.part[2] >= CUDNN_COMPAT_TABLE_PATCHES))
    return FAST_UNKNOWN;
  if (r->cuda && !cudnn_compat_parse_cuda(r->cuda, text_len(r->cuda), &cuda)) return FAST_UNKNOWN;
  unsigned long rules;
  const char *q = find(table, "require\t");
  if (!q || !read_decimal(&q, &rules) || (!r->require && rules > 0) || !r->pick_known)
    return FAST_UNKNOWN;

  char major[24], cuda_class[24];
  format_decimal((unsigned long)r->major, major);
  // A major alone accepts every release of it, as no required version does: the same row.
  const unsigned long key =
      r->require && need.parts > 1
          ? cudnn_compat_decision_key(need.part[1], need.parts == 3, need.part[2])
          : 0;
  if (r->cuda) format_decimal(cuda.part[0], cuda_class);
  const char *row =
      r->cuda ? fit_row(table, major, cuda_class, key) : fit_row(table, major, "-", key);
  if (!row && r->cuda) row = fit_row(table, major, "*", key);
  if (!row) return FAST_UNKNOWN;
  // A pick no lib row holds (a wheel's copy) is the engine's whatever the node has: the node file
  // is read only for an answer that rests on it (a wheel's second process pays no node read).
  if (r->pick && !table_holds(table, r->pick)) return FAST_UNKNOWN;
  struct node_judge n;
  if (!judge_node(table, r, &n)) return FAST_UNKNOWN;

  struct lib_row lib;
  switch (r->pick ? judge_pick(table, row, r->pick, &n, &lib, &got->pick_entry) : PICK_MISFIT) {
    case PICK_UNKNOWN:
      return FAST_UNKNOWN;
    case PICK_FITS:
      got->use_entry = got->pick_entry;
      return FAST_KEEP;
    case PICK_ELSEWHERE:
      got->use_entry = (long)lib.index, got->same_release = 1;
      return (*use = handed_over(&lib, r->major)) ? FAST_USE : FAST_UNKNOWN;
    case PICK_MISFIT:
      break;
  }
  const long best = first_here(table, row, &n);
  if (best < 0) return FAST_UNKNOWN;  // nothing fits (the engine explains), or cannot say
  const unsigned long index = (unsigned long)best;
  got->use_entry = (long)index;
  for (const char *p = table; next_lib(&p, &lib);)
    if (lib.index == index) return (*use = handed_over(&lib, r->major)) ? FAST_USE : FAST_UNKNOWN;
  return FAST_UNKNOWN;
}

enum fast_answer fast_decide(const struct fast_request *r, const char **use) {
  struct file_text table;
  node_unlearnt = 0;
  if (!r->map || !trusted(r->map, &table)) {
    file_free(&table);
    return FAST_UNKNOWN;
  }
  struct fast_resolved got = {-1, -1, 0};
  const enum fast_answer a = decide(table.data, r, use, &got);
  record_table(table.data, r, a, *use, &got);
  file_free(&table);
  return a;
}

int fast_knows_file(const char *map, const char *file) {
  struct file_text table = {0};
  struct identity id;
  struct stat st;
  struct lib_row lib;
  int known = 0;
  if (map && identify(file, &id, &st) && trusted(map, &table))
    for (const char *p = table.data; !known && next_lib(&p, &lib);)
      known = same_identity(&lib.id, &id);
  file_free(&table);
  return known;
}

// ---------------------------------------------------------------------------------------------
// The table's places ("rel" rows: an entry's release number and source, then its version and
// module for usage records, joined to its "lib" row):
// the family rule's other places of one release, and the report's sources.

typedef int (*place_visit)(unsigned long number, const char *source, const char *dir, void *data);

static int each_place(const char *map, place_visit visit, void *data) {
  struct file_text table;
  if (!map || !trusted(map, &table)) {
    file_free(&table);
    return 0;
  }
  static char dir[4096], source[16];
  int stop = 0;
  for (const char *p = table.data; !stop && (p = find(p, "rel\t")); p = next_line(p)) {
    unsigned long f[2];
    const char *q = p - 1;  // numbers() reads "\tN" fields
    if (!numbers(&q, f, 2) || *q++ != '\t') continue;
    long n = 0;
    while (q[n] && q[n] != '\t' && q[n] != '\n' && n < (long)sizeof source - 1)
      source[n] = q[n], ++n;
    source[n] = 0;
    struct lib_row lib;
    for (const char *r = table.data; next_lib(&r, &lib);) {
      if (lib.index != f[0]) continue;
      long k = 0;
      while (lib.path[k] && lib.path[k] != '\n' && k < (long)sizeof dir - 1)
        dir[k] = lib.path[k], ++k;
      dir[k] = 0;
      char *slash = 0;
      for (char *c = dir; *c; ++c)
        if (*c == '/') slash = c;
      if (slash) *slash = 0, stop = visit(f[1], source, dir, data);
      break;
    }
  }
  file_free(&table);
  return stop;
}

struct same_release {
  unsigned long number;
  const char *base, *not_dir, *found;
};

static int holds_base(unsigned long number, const char *source, const char *dir, void *data) {
  (void)source;
  struct same_release *w = data;
  static char candidate[4096 + 256];
  if (number != w->number || text_eq(dir, w->not_dir) ||
      !join_path(candidate, sizeof candidate, dir, w->base) || !loader_may_open(candidate))
    return 0;
  w->found = arena_strdup(dir);
  return 1;
}

const char *fast_same_release(const char *map, unsigned long number, const char *base,
                              const char *not_dir) {
  struct same_release w = {number, base, not_dir, 0};
  each_place(map, holds_base, &w);
  return w.found;
}

struct place_query {
  const char *dir;
  unsigned long number;
  const char *source;
};

static int names_dir(unsigned long number, const char *source, const char *dir, void *data) {
  struct place_query *w = data;
  if (!text_eq(dir, w->dir)) return 0;
  w->number = number, w->source = arena_strdup(source);
  return 1;
}

int fast_place_of(const char *map, const char *dir, unsigned long *number, const char **source) {
  struct place_query w = {dir, 0, 0};
  if (!each_place(map, names_dir, &w)) return 0;
  *number = w.number, *source = w.source;
  return 1;
}
