/* The library path a cuDNN library is probed with: its family as the shim hands it over. The one
 * rule, in C without libc: the shim starts the loader's file's probe itself, beside the engine
 * (run_engine.c), and the engine's own probes (src/core/system/probe.cc) use the same. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/* What a probe's environment leaves out of the caller's (each "NAME="): nothing that would load a
 * shim or preload into it, the caller's switch, and the library path it is given instead. */
#define CUDNN_COMPAT_PROBE_DROPPED_ENV \
  { "LD_PRELOAD=", "LD_AUDIT=", "CUDNN_COMPAT_DISABLE=", "LD_LIBRARY_PATH=" }
/* ... and what it adds after LD_LIBRARY_PATH: the shim switched off should one come in another
 * way (a system-wide preload). */
#define CUDNN_COMPAT_PROBE_SWITCH_OFF "CUDNN_COMPAT_DISABLE=1"

/* "dir" then every entry of ld_library_path (0: none) that holds no cuDNN library of another
 * family of this major (-1: of any major), into out[0..size): LD_LIBRARY_PATH comes before the
 * dispatcher's RUNPATH $ORIGIN, so a directory on it that holds the same sub-library names would
 * lend the dispatcher a foreign family (FACTS.md 2). 0 when it does not fit. */
int cudnn_compat_family_path(const char *ld_library_path, const char *dir, int major, char *out,
                             long size);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
