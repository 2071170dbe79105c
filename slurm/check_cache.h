// The node's answer, remembered for the rest of the job. Every srun step of a job asks the same
// question on the same node, and the answer changes only with the map, so the key holds the map's
// stamp (device, inode, size, mtime) and a changed map is checked again. The files live in
// /tmp/cudnn-compat-spank.<uid>/ (mode 0700, the user's own), named <job id>.<hash of the key>,
// and the job's epilog removes them.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "node_check.h"

// Writes the key of this check; -1 when it cannot be cached (no map path known, or no stat).
int check_cache_key(char *key, size_t size, uint32_t job, const char *node, const char *require,
                    const char *map, const char *cuda);
// 0 and the answer when this key was answered before in this job.
int check_cache_get(uint32_t job, const char *key, enum node_fit *fit, char *line, size_t size);
void check_cache_put(uint32_t job, const char *key, enum node_fit fit, const char *line);
// Removes the job's answers (the job epilog, as root).
void check_cache_drop(uint32_t job, uid_t uid);
