// What the shim reads of its process's environment, and when (docs/shim.md "What it decides"):
// CUDNN_COMPAT_* as they are when the load happens (a program may set them before it imports its
// framework), the loader's own inputs as the loader read them at process start - copied then, in
// the shim's ELF constructor, without /proc.
#pragma once

#include <link.h>
#include <time.h>

#pragma GCC visibility push(hidden)

// Setuid and friends: the environment is the caller's, not to be trusted (secure_getenv). Read
// at the start (AT_SECURE), or once from /proc/self/auxv by a shim loaded later.
int secure_execution(void);
// The path the program was started by (AT_EXECFN: as given to execve, maybe relative), or 0.
const char *exec_path(void);
// LD_LIBRARY_PATH as ld.so read it at the start (a later setenv changes nothing for ld.so), or 0.
const char *start_library_path(void);
// The directory of this library as LD_AUDIT (audit != 0) or LD_PRELOAD named it at the start, when
// one absolute entry there names libcudnn-compat.so; else 0. For hosts without /proc.
const char *start_shim_dir(int audit);
// Whether LD_PRELOAD at the start lists path itself: ld.so loaded it before anything asked.
int start_preloads(const char *path);
// The real (effective != 0: the effective) uid the kernel started the program with (AT_UID,
// AT_EUID), or -1 when the start was not seen (a shim loaded later, by a dlopen of its own).
long start_uid(int effective);
// The real uid without a call a seccomp filter may kill the host for (getuid): the one the program
// was started with while the effective uid (euid, now) is still what it was then, the same; -1
// where that cannot be told so (ids that differ or changed, a start not seen).
// A process can change its real uid alone only with CAP_SETUID (root's; a setuid or
// file-capability program runs in secure execution, which the shim leaves alone).
long quiet_real_uid(unsigned long euid);
// AT_PHDR: the address of the program's headers, in its first mapping; 0 when not seen.
unsigned long start_program_header(void);

// clock_gettime(clock, ts) through the vDSO where the process has one (no system call), else
// the system call; ts is {long sec, nsec}.
void clock_now(long clock, void *ts);

// Milliseconds on the monotonic clock (a decision's deadline, the lock's waits).
static inline long now_ms(void) {
  struct {
    long sec, nsec;
  } ts = {0, 0};
  clock_now(CLOCK_MONOTONIC, &ts);
  return ts.sec * 1000 + ts.nsec / 1000000;
}

// The effective uid, asked once per decision: the decision table's trust check (which notes what
// it asked) and the usage record's ownership check (its spool file, its drop count) both need it,
// microseconds apart. forget_decision_ids() at the start of every decision (a process may change
// its ids between two).
unsigned long decision_euid(void);
int decision_euid_known(void);  // known without a system call (the table's reader noted it)
void note_decision_euid(unsigned long euid);
void forget_decision_ids(void);

// The environment now. Under LD_PRELOAD libc's environ; under LD_AUDIT (no libc of ours) the
// main namespace libc's __environ once it is set up, else the environment the process started
// with. 0 in secure execution.
char **current_environment(void);
const char *env_value(char **env, const char *name);

// The need the environment asks for (shared/asked_need.h): the cuDNN version and the CUDA major
// as NUL-ended texts, 0 for none; from_module: either came from CUDNN_COMPAT_NEEDS. The texts
// last until the next call (decisions are one at a time).
struct asked_need {
  const char *require, *cuda;
  int from_module;
};
void read_asked_need(char **env, struct asked_need *out);

// The program, when it was run through the loader (`ld.so PROG`, whose own path /proc/self/exe
// and the kernel's AT_EXECFN then give): PROG's path as the loader was given it, made absolute
// at the start; 0 when the kernel started the program itself (or the shim cannot tell).
const char *loader_run_program(void);

// Under LD_AUDIT: each object of the main namespace, as la_objopen sees it; the program and its
// libc are where the live environment pointer is looked up.
void note_object(const struct link_map *map);
// Under LD_AUDIT: the program is about to run main (la_preinit).
void program_begins(void);

#pragma GCC visibility pop
