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
// The base namespace's objects, as the audit copy learns them (la_objopen of the main program).
void note_base_objects(const struct link_map *first);
// Another copy of this shim (of any path) decides this process's loads, and this one stands down,
// or the process would hear each line and each report twice: the first LD_AUDIT copy decides
// (it sees every load, the dlopen an LD_PRELOAD copy passes on included), else the first
// LD_PRELOAD one in the loader's order (a second one's dlopen is the first one's RTLD_NEXT).
int another_copy_decides(void);

#pragma GCC visibility pop
