/* Whether this process can load a library file: the check the shim's fast path and the engine
 * make before they hand over a file they did not see loaded in this process. */
#pragma once

#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/* ld.so opens the file with the process's effective ids and maps it executable: 1 when the
 * effective ids may read it, it is a regular file and it may be mapped executable here, 0
 * otherwise (a file only another user may read, a noexec mount, a file that is gone). *st is the
 * opened file's, whose identity the caller checks: the path is looked up once. */
int cudnn_compat_loadable(const char *path, struct stat *st);

/* Whether ld.so's open of the file at path, of status st, passes the permission check for the
 * effective ids: in a search ld.so goes on to the next directory when that open is refused
 * (EACCES), so a file this process may not read is not the loader's pick. The mode bits answer
 * where they let it read, with no system call on the file; a refusal by them is confirmed by
 * the kernel (faccessat2), which knows ACLs and capabilities. */
int cudnn_compat_may_read(const char *path, const struct stat *st);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
