// What a loaded object's dynamic section says, read from memory: the loader has it mapped, so
// nothing is read from disk (a 1 GiB requester costs what a small one does).
#pragma once

#include <link.h>

#pragma GCC visibility push(hidden)

// The string of a DT_RPATH or DT_RUNPATH entry, or 0.
const char *dynamic_string(const struct link_map *map, long tag);
// The major of the first cuDNN library among the object's DT_NEEDED names (libcudnn.so.9: 9), or
// -1 when it links none.
int needed_cudnn_major(const struct link_map *map);
// The DT_SONAME of the ELF file at path, read from the file (a handful of preads: only where a
// name tells no major, a development link's end), into out; 0 when it has none or is no ELF64.
const char *file_soname(const char *path, char *out, long size);
// The address of a defined symbol, through DT_GNU_HASH; 0 when absent.
void *dynamic_symbol(const struct link_map *map, const char *name);

#pragma GCC visibility pop
