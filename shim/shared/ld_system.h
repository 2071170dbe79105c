/* ld.so's search after a requester's own directories: /etc/ld.so.cache, then the default
 * directories glibc is built with. The one reading of both, in C without libc: the shim finds
 * the file the loader takes from them itself (a node-local fact: the cache changes with every
 * ldconfig, and differs from node to node), and the engine's loader emulation reads them through
 * the same code. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

/* The file ld.so takes for name from the cache bytes data[0..size): 1 and *path (a string inside
 * data) when the cache names one, 0 when it names none. hwcaps lists the glibc-hwcaps
 * subdirectories this CPU supports, best first (x86-64-v3, ...); with hwcaps_count < 0 (not
 * known) a name the cache also lists in such a subdirectory returns -1: cannot tell. Reads the
 * new format, the old one and the compat layout (old, then new: the new one wins, as in ld.so). */
int cudnn_compat_ld_cache_find(const char *data, unsigned long size, const char *name,
                               const char *const *hwcaps, int hwcaps_count, const char **path);

/* The default directories of a glibc whose ld.so lives in loader_dir, in its order (SYSTEM_DIRS):
 * Debian/Ubuntu multiarch, RHEL/Fedora/SUSE lib64, else /lib and /usr/lib. NULL-terminated. */
const char *const *cudnn_compat_default_dirs(const char *loader_dir);

/* How ld.so splits each search list (elf/dl-load.c): LD_LIBRARY_PATH at either character, RPATH
 * and RUNPATH at ':' alone (a ';' there is part of a directory's name). */
#define CUDNN_COMPAT_LIBRARY_PATH_SEPARATORS ":;"
#define CUDNN_COMPAT_RUNPATH_SEPARATORS ":"
/* And the lists of objects it loads first (elf/rtld.c): LD_AUDIT at ':' alone, LD_PRELOAD at
 * ' ' and ':' (handle_preload_list). */
#define CUDNN_COMPAT_AUDIT_SEPARATORS ":"
#define CUDNN_COMPAT_PRELOAD_SEPARATORS " :"

/* The length of the dynamic string token NAME ("ORIGIN", "LIB", "PLATFORM") at s, whose n bytes
 * start with its '$': $NAME where no name character ([A-Za-z0-9_]) follows, or ${NAME}; 0 when it
 * is neither, and then the '$' is a character of the directory's name (glibc's is_dst). */
unsigned long cudnn_compat_token_length(const char *s, unsigned long n, const char *name);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
