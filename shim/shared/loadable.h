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

/* Whether ld.so's open of a file of this status passes the permission check for the effective
 * ids, by its mode bits (ACLs are not read): in a search ld.so goes on to the next directory when
 * that open is refused (EACCES), so a file this user cannot read is not the loader's pick. No file
 * system call. */
int cudnn_compat_may_read(const struct stat *st);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
