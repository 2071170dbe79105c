// The auditors of this process, as ld.so lists them: glibc 2.35 and later chain each namespace
// from ld.so's _r_debug (r_version 2, r_next) in the order the auditors were loaded, and each
// audit namespace's first object is its auditor. Before 2.35 there is no chain and nothing is
// found.
#pragma once

#include <link.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

typedef char *(*objsearch_fn)(const char *, uintptr_t *, unsigned int);

// The la_objsearch of each auditor loaded before the one whose la_objsearch is `self`, in
// LD_AUDIT order, into out[0..max): their count, or 0 when `self` is not among them or more came
// first than fit (none rather than some). `objects`: the base namespace's link map.
int auditors_before(objsearch_fn self, const struct link_map *objects, objsearch_fn *out, int max);
// la_version was called: this copy is the LD_AUDIT one.
void audit_front_begins(void);
int is_audit_front(void);
// This is the LD_PRELOAD copy, and a copy of this shim (of any path) is loaded by LD_AUDIT as
// well: that one sees every load this one would route (la_objsearch runs for the dlopen this copy
// passes on) and decides it, so this one stands down, or the process would hear each line and
// each report twice.
int audit_copy_decides(void);

#pragma GCC visibility pop
