// One look at a file per decision. A decision asks about the same few files from several places
// (the loader's pick: where the loader finds it, the decision table's identity of it, the memo's
// key; the map: the table's trust check, the memo's grounds), and at 10,000 ranks each repeated
// stat is 10,000 metadata operations on the shared file system. Between look_begin and look_end
// (the shim's lock held) the first answer for a path is the answer; outside, every look is a
// system call, so nothing outlives the decision that saw it.
#pragma once

#include <sys/stat.h>

#pragma GCC visibility push(hidden)

void look_begin(void);
void look_end(void);
// stat (nofollow 0) or lstat (1) of path: 0, or -errno. An lstat of a file that is no link
// answers a later stat of the same path too.
long look(const char *path, struct stat *st, int nofollow);

#pragma GCC visibility pop
