// What the shim reads of its process's environment, and when (README "What it decides"):
// CUDNN_COMPAT_* as they are when the load happens (a program may set them before it imports its
// framework), the loader's own inputs as the loader read them at process start.
#pragma once

#include <link.h>

#pragma GCC visibility push(hidden)

// Setuid and friends: the environment is the caller's, not to be trusted (secure_getenv). Read
// once per process.
int secure_execution(void);
// The path the program was started by (AT_EXECFN: as given to execve, maybe relative), or 0.
const char *exec_path(void);

// The environment now. Under LD_PRELOAD libc's environ; under LD_AUDIT (no libc of ours) the
// main namespace libc's __environ once it is set up, else the environment the process started
// with. 0 in secure execution.
char **current_environment(void);
// The environment the process started with (what ld.so read LD_LIBRARY_PATH from).
char **initial_environment(void);
const char *env_value(char **env, const char *name);

// Under LD_AUDIT: each object of the main namespace, as la_objopen sees it; the program and its
// libc are where the live environment pointer is looked up.
void note_object(const struct link_map *map);

#pragma GCC visibility pop
