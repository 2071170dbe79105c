// Reads map.toml.decide (its one writer: src/core/decide/decision_table.cc), when the contract's
// rule (site_files.c, docs/contract.md) believes it.
#include "fast_path.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "arena.h"
#include "node.h"
#include "shared/decision_key.h"
#include "shim_text.h"
#include "site_files.h"
#include "sys.h"

struct identity {
  unsigned long ino, size, mtime_ns;
};

static unsigned long mtime_ns(const struct stat *st) {
  return (unsigned long)st->st_mtim.tv_sec * 1000000000ul + (unsigned long)st->st_mtim.tv_nsec;
}

static int identify(const char *path, struct identity *id, struct stat *st) {
  if (sys4(SYS_newfstatat, AT_FDCWD, path, st, 0) != 0 || !S_ISREG(st->st_mode)) return 0;
  id->ino = st->st_ino, id->size = (unsigned long)st->st_size, id->mtime_ns = mtime_ns(st);
  return 1;
}

// Reads the next decimal number at *p; 0 when there is none.
static int number(const char **p, unsigned long *out) {
  return read_decimal(p, out);
}

// "tab number" fields in a row.
static int numbers(const char **p, unsigned long *out, int n) {
  for (int i = 0; i < n; ++i)
    if (*(*p)++ != '\t' || !number(p, &out[i])) return 0;
  return 1;
}

static const char *next_line(const char *p) {
  while (*p && *p != '\n') ++p;
  return *p ? p + 1 : p;
}

// A line's text up to its end, copied into the arena (paths the loader may keep).
static const char *rest_of_line(const char *p) {
  long n = 0;
  while (p[n] && p[n] != '\n') ++n;
  char *s = arena_alloc(n + 1);
  if (!s) return 0;
  for (long i = 0; i < n; ++i) s[i] = p[i];
  s[n] = 0;
  return s;
}

static int trusted(const char *map, struct file_text *text) {
  text->data = 0, text->size = 0, text->capacity = 0;
  static char table[4096 + 16], dir[4096];  // callers hold the shim's lock
  struct site_seen seen;
  enum site_verdict verdict;
  if (!copy_text(table, sizeof table - 16, map)) return 0;
  append_text(table, sizeof table, text_len(table), SITE_DECIDE_SUFFIX);
  const long fd = site_open_table(map, table, dir, sizeof dir, &seen, &verdict);
  if (fd < 0) return 0;
  static char block[4096];
  long n = 0;
  int ok = text_append(text, "", 0);
  while (ok && (n = sys_retry(SYS_read, fd, block, sizeof block)) > 0)
    ok = text_append(text, block, n);
  sys(SYS_close, fd, 0, 0);
  return ok && n == 0 &&
         site_judge_table(text->data, text->size, SITE_DECIDE_FORMAT, map, &seen) == SITE_BELIEVED;
}

// The first line starting with prefix, from p on; 0 when none.
static const char *find(const char *p, const char *prefix) {
  for (; *p; p = next_line(p))
    if (after_prefix(p, prefix)) return after_prefix(p, prefix);
  return 0;
}

// x.y or x.y.z, digits only; anything else is left to the engine's parser.
static int parse_need(const char *s, unsigned long v[3], int *parts) {
  *parts = 0;
  for (;;) {
    if (*parts == 3 || !number(&s, &v[*parts])) return 0;
    ++*parts;
    if (!*s) return 1;
    if (*s++ != '.') return 0;
  }
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
    if (*q == '-' ? key != 0 : (!number(&q, &row_key) || key == 0 || row_key > key)) continue;
    if (*q == '-') ++q;
    if (*q == '\t') found = q + 1;
  }
  return found;
}

static int listed(const char *list, unsigned long index) {
  for (unsigned long n; number(&list, &n); list += *list == ',') {
    if (n == index) return 1;
    if (*list != ',') break;
  }
  return 0;
}

// The loader's pick when the directories before ld.so.cache hold none: what the table recorded
// for ld.so.cache and the default directories, while /etc/ld.so.cache is the one it read.
static int system_pick(const char *table, const char *major, const char **pick) {
  struct stat st;
  struct identity id = {0, 0, 0};
  const int has_cache = identify("/etc/ld.so.cache", &id, &st);
  const char *p = find(table, "system\t");
  unsigned long f[3];
  if (!p) return 0;
  if (*p == '-' ? has_cache
                : (!has_cache || !numbers(&(const char *){p - 1}, f, 3) || f[0] != id.ino ||
                   f[1] != id.size || f[2] != id.mtime_ns))
    return 0;
  for (const char *q = table; (q = find(q, "sys\t")); q = next_line(q)) {
    const char *file = field_is(q, major);
    if (file) {
      *pick = *file == '\n' || !*file ? 0 : rest_of_line(file);
      return 1;
    }
  }
  return 0;
}

// Whether the table's "run" rows constrain anything: a release with device code or a CUDA.
static int constrains(const char *table) {
  for (const char *p = table; (p = find(p, "run\t")); p = next_line(p)) {
    unsigned long index;
    if (!number(&p, &index) || *p++ != '\t') return 1;
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
    if (!number(&p, &i) || i != index || *p++ != '\t') continue;
    const char *gpus = p;
    while (*p && *p != '\t') ++p;
    if (*p++ != '\t') return -1;
    for (int g = 0; g < node->gpus; ++g) {
      if (!known || !listed(known, node->gpu[g])) return -1;
      if (*gpus != '*' && !listed(gpus, node->gpu[g])) return 0;
    }
    if (*p == '-' || !node->driver) return 1;
    return number(&p, &n) ? node->driver >= n : -1;
  }
  return -1;
}

// The first entry of a fit row (best first) that runs on the node; -1 when the table cannot say,
// -2 when none does.
static long first_here(const char *table, const char *row, const struct node_facts *node,
                       int judge) {
  for (unsigned long n; number(&row, &n); row += *row == ',') {
    const int here = judge ? runs_here(table, n, node) : 1;
    if (here != 0) return here < 0 ? -1 : (long)n;
    if (*row != ',') break;
  }
  return -2;
}

static enum fast_answer decide(const char *table, const struct fast_request *r, const char **use) {
  unsigned long need[3] = {0, 0, 0}, cuda[3];
  int parts = 0, cuda_parts = 0;
  if (r->require &&
      (!parse_need(r->require, need, &parts) || parts < 2 || need[0] != (unsigned long)r->major))
    return FAST_UNKNOWN;  // another form, or another major: the engine says why
  if (r->cuda && (!parse_need(r->cuda, cuda, &cuda_parts) || cuda_parts > 2)) return FAST_UNKNOWN;
  unsigned long rules;
  const char *q = find(table, "require\t");
  if (!q || !number(&q, &rules) || (!r->require && rules > 0)) return FAST_UNKNOWN;

  char major[24], cuda_class[24];
  format_decimal((unsigned long)r->major, major);
  const char *pick = r->pick;
  if (!pick && !system_pick(table, major, &pick)) return FAST_UNKNOWN;

  const unsigned long key =
      r->require ? cudnn_compat_decision_key(need[1], parts == 3, need[2]) : 0;
  if (r->cuda) format_decimal(cuda[0], cuda_class);
  const char *row =
      r->cuda ? fit_row(table, major, cuda_class, key) : fit_row(table, major, "-", key);
  if (!row && r->cuda) row = fit_row(table, major, "*", key);
  if (!row) return FAST_UNKNOWN;
  // The node: a release that cannot run on its GPUs or driver is passed over, as the engine does.
  struct node_facts node;
  node.gpus = 0, node.driver = 0;
  const int judge = constrains(table);
  if (judge && !node_facts(r->env, &node)) return FAST_UNKNOWN;

  struct stat st;
  struct identity id;
  struct lib_row lib;
  if (pick) {
    if (!identify(pick, &id, &st)) return FAST_UNKNOWN;
    int known = 0;
    for (const char *p = table; !known && next_lib(&p, &lib);) known = same_identity(&lib.id, &id);
    if (!known) return FAST_UNKNOWN;
    const int here = judge ? runs_here(table, lib.index, &node) : 1;
    if (here < 0) return FAST_UNKNOWN;
    if (here && listed(row, lib.index)) return FAST_KEEP;
  }
  const long best = first_here(table, row, &node, judge);
  if (best < 0) return FAST_UNKNOWN;  // nothing fits (the engine explains), or cannot say
  const unsigned long index = (unsigned long)best;
  // The file to hand over must still be the one that was probed.
  for (const char *p = table; next_lib(&p, &lib);) {
    if (lib.index != index) continue;
    const char *path = rest_of_line(lib.path);
    if (!path || !identify(path, &id, &st) || !same_identity(&id, &lib.id)) return FAST_UNKNOWN;
    // A name that carries a major is served by that major only, whatever a table says.
    struct cudnn_name c;
    if (!parse_cudnn_name(base_name(path), &c) || c.sub || c.major != r->major) return FAST_UNKNOWN;
    *use = path;
    return FAST_USE;
  }
  return FAST_UNKNOWN;
}

enum fast_answer fast_decide(const struct fast_request *r, const char **use) {
  struct file_text table;
  if (!r->map || !trusted(r->map, &table)) {
    file_free(&table);
    return FAST_UNKNOWN;
  }
  const enum fast_answer a = decide(table.data, r, use);
  file_free(&table);
  return a;
}
