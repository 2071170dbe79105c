#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>

#include "auditors.h"
#include "elf_dynamic.h"

// ld.so's _r_debug; glibc 2.35 and later made it the extended form. The LD_PRELOAD copy is bound
// to it; an auditor is relocated before ld.so joins its namespace, so there it stays null and the
// base namespace's objects are asked instead (only ld.so defines it).
extern const struct r_debug_extended loader_debug __asm__("_r_debug") __attribute__((weak));

// The audit namespaces' first objects, in load order; 0 after the last.
static const struct link_map *auditor_after(const struct r_debug_extended **at) {
  for (*at = *at ? (*at)->r_next : 0; *at; *at = (*at)->r_next)
    if ((*at)->base.r_map) return (*at)->base.r_map;  // else unloaded (la_version said 0)
  return 0;
}

// The base namespace's entry: its r_map lists the process's objects in the loader's order. glibc
// sets r_version to 2, and r_next, only once there is a second namespace (an auditor's).
static const struct r_debug_extended *base_namespace(const struct link_map *objects) {
  const struct r_debug_extended *r = &loader_debug;
  for (const struct link_map *l = objects; l && !r; l = l->l_next)
    r = (const struct r_debug_extended *)dynamic_symbol(l, "_r_debug");
  return r && r->base.r_version >= 1 ? r : 0;
}

int auditors_before(objsearch_fn self, const struct link_map *objects, objsearch_fn *out, int max) {
  const struct r_debug_extended *at = base_namespace(objects);
  if (at && at->base.r_version < 2) return 0;
  int n = 0;
  for (const struct link_map *head; at && (head = auditor_after(&at));) {
    objsearch_fn f = (objsearch_fn)dynamic_symbol(head, "la_objsearch");
    if (f == self) return n <= max ? n : 0;
    if (f && n++ < max) out[n - 1] = f;
  }
  return 0;
}

// What tells a copy of this shim among auditors and preloads: its exports, not its path (a site's
// LD_AUDIT and a user's LD_PRELOAD may name two installs). Its own address is taken through a
// hidden alias: a reference to the exported name could be bound to another copy's.
__attribute__((visibility("default"))) const char cudnn_compat_shim[] = "libcudnn-compat";
extern const char own_mark[sizeof "libcudnn-compat"]
    __attribute__((alias("cudnn_compat_shim"), visibility("hidden")));

static int audit_front;
static const struct link_map *base_objects;  // for an audit copy, which has no _r_debug of its own

void audit_front_begins(void) {
  audit_front = 1;
}
int is_audit_front(void) {
  return audit_front;
}
void note_base_objects(const struct link_map *first) {
  base_objects = first;
}

int another_copy_decides(void) {
  static int known = -1;  // every auditor and preload is loaded before a copy's first call
  int decides = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (decides >= 0) return decides;
  const struct r_debug_extended *ns = base_namespace(base_objects);
  if (!ns) return 0;  // no telling (too early): this copy decides
  const void *first = 0;
  const struct r_debug_extended *at = ns->base.r_version >= 2 ? ns : 0;
  for (const struct link_map *head; !first && at && (head = auditor_after(&at));)
    first = dynamic_symbol(head, "cudnn_compat_shim");
  for (const struct link_map *l = ns->base.r_map; !first && l; l = l->l_next)
    first = dynamic_symbol(l, "cudnn_compat_shim");
  decides = first && first != own_mark;
  __atomic_store_n(&known, decides, __ATOMIC_RELAXED);
  return decides;
}
