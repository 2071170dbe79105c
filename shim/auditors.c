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

static const struct r_debug_extended *base_namespace(const struct link_map *objects) {
  const struct r_debug_extended *r = &loader_debug;
  for (const struct link_map *l = objects; l && !r; l = l->l_next)
    r = (const struct r_debug_extended *)dynamic_symbol(l, "_r_debug");
  return r && r->base.r_version >= 2 ? r : 0;
}

int auditors_before(objsearch_fn self, const struct link_map *objects, objsearch_fn *out, int max) {
  const struct r_debug_extended *at = base_namespace(objects);
  int n = 0;
  for (const struct link_map *head; at && (head = auditor_after(&at));) {
    objsearch_fn f = (objsearch_fn)dynamic_symbol(head, "la_objsearch");
    if (f == self) return n <= max ? n : 0;
    if (f && n++ < max) out[n - 1] = f;
  }
  return 0;
}

// What tells a copy of this shim among auditors: its exports, not its path (a site's LD_AUDIT and
// a user's LD_PRELOAD may name two installs).
__attribute__((visibility("default"))) const char cudnn_compat_shim[] = "libcudnn-compat";

static int audit_front;

void audit_front_begins(void) {
  audit_front = 1;
}
int is_audit_front(void) {
  return audit_front;
}

int audit_copy_decides(void) {
  static int known = -1;  // the auditors are all loaded before this copy's first call
  int decides = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (decides >= 0) return decides;
  decides = 0;
  const struct r_debug_extended *at = base_namespace(0);
  for (const struct link_map *head; !audit_front && at && (head = auditor_after(&at));)
    decides = decides || dynamic_symbol(head, "cudnn_compat_shim") != 0;
  __atomic_store_n(&known, decides, __ATOMIC_RELAXED);
  return decides;
}
