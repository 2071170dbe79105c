/* Whether this process can load a library file: the check the shim's fast path and the engine
 * make before they hand over a file they did not see loaded in this process. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/* ld.so opens the file with the process's effective ids and maps it executable: 1 when the
 * effective ids may read it and its file system is not mounted noexec here, 0 otherwise (a file
 * only another user may read, a noexec mount, a file that is gone). Two system calls. */
int cudnn_compat_loadable(const char *path);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
