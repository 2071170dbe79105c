#include "environment.h"

#include <elf.h>

#include "arena.h"
#include "elf_dynamic.h"
#include "shim_text.h"
#include "sys.h"

extern char **environ __attribute__((weak));

static int auxv_read, secure = 1;  // cannot tell: assume the worst
static const char *execfn;

static void read_auxv(void) {
  if (auxv_read) return;
  auxv_read = 1;
  struct file_text f;
  if (!file_read("/proc/self/auxv", &f)) return;
  const long n = f.size / (long)sizeof(Elf64_auxv_t);
  for (long i = 0; i < n; ++i) {
    const Elf64_auxv_t *a = (const Elf64_auxv_t *)f.data + i;
    if (a->a_type == AT_SECURE) secure = a->a_un.a_val != 0;
    if (a->a_type == AT_EXECFN) execfn = (const char *)a->a_un.a_val;
  }
  file_free(&f);
}

int secure_execution(void) {
  read_auxv();
  return secure;
}

const char *exec_path(void) {
  read_auxv();
  return secure ? 0 : execfn;
}

char **initial_environment(void) {
  static char **list;
  if (list) return list;
  struct file_text f;
  if (!file_read("/proc/self/environ", &f)) return 0;
  long count = 0;
  for (long at = 0; at < f.size; at += text_len(f.data + at) + 1) ++count;
  char **out = arena_alloc((count + 1) * (long)sizeof *out);
  char *copy = arena_alloc(f.size + 1);
  if (out && copy) {
    for (long i = 0; i <= f.size; ++i) copy[i] = f.data[i];
    long n = 0;
    for (long at = 0; at < f.size; at += text_len(copy + at) + 1) out[n++] = copy + at;
    out[n] = 0;
    list = out;
  }
  file_free(&f);
  return list;
}

static const struct link_map *main_map, *libc_map;

void note_object(const struct link_map *map) {
  if (!main_map) main_map = map;  // the first object of the base namespace
  if (!libc_map && map->l_name && after_prefix(base_name(map->l_name), "libc.so.")) libc_map = map;
}

// The program's live environment pointer. A program that names `environ` has it copied into its
// own data (a copy relocation): libc then uses that copy, and setenv() changes only it, so the
// program's definition comes before libc's own.
static char ***environ_variable(void) {
  char ***found = main_map ? dynamic_symbol(main_map, "__environ") : 0;
  if (!found && main_map) found = dynamic_symbol(main_map, "environ");
  if (!found && libc_map) found = dynamic_symbol(libc_map, "__environ");
  return found;
}

char **current_environment(void) {
  if (secure_execution()) return 0;
  if (&environ) return environ;
  static char ***live;
  if (!live) live = environ_variable();
  if (live && *live) return *live;
  return initial_environment();
}

const char *env_value(char **env, const char *name) {
  for (char **e = env; e && *e; ++e) {
    const char *v = after_prefix(*e, name);
    if (v && *v == '=') return v + 1;
  }
  return 0;
}
