// Generic file writing (lib layer): a file is replaced whole or not at all.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

namespace cudnn_compat {

// Replaces path with text in one rename, so a reader sees the old file or the new one, never half.
// A link at path is replaced, never followed. The new file takes the owner, group and mode of the
// regular file at `like` when given, else of the regular file it replaces (else 0644, ours).
// Returns an empty string, or why it failed (the old file is then untouched).
std::string write_file_atomically(const std::string &path, std::string_view text,
                                  const std::string &like = {});
// The same, the new file always ours (the effective uid and gid) with `mode`, whoever owned the
// file it replaces and whatever its mode: a file rewritten because it was not to be trusted (the
// node file) is not made again in the image of the one it replaces.
std::string write_own_file_atomically(const std::string &path, std::string_view text, mode_t mode);
// The same through a link at path: the file the link leads to is replaced, the link stays (a map
// shared by a link keeps serving every name of it).
std::string write_file_through_link(const std::string &path, std::string_view text);
// The file a link at path leads to (path itself when it is no link), or why there is none.
std::string link_target(const std::string &path, std::string &target);
// Whether a and b name one file: the same inode where both exist, else the same absolute path.
bool same_file(const std::string &a, const std::string &b);

// Writing several files all or none: each is first staged (written whole, synced, owned as
// write_file_atomically would make it) in a temporary file beside its target, and only when every
// one is staged are they renamed into place; discarding removes the temporary file, the target
// untouched. Staging fails exactly where the real write would, short of the rename.
struct StagedFile {
  std::string target, tmp;  // tmp empty: nothing staged (or committed, or discarded)
};
std::string stage_file(const std::string &path, std::string_view text, StagedFile &staged,
                       const std::string &like = {});
std::string commit_staged(StagedFile &staged);
void discard_staged(StagedFile &staged);

// A copy of from at to, written as above (a backup: a link planted at `to` is replaced), with
// from's owner, group and mode.
std::string copy_file_atomically(const std::string &from, const std::string &to);

}  // namespace cudnn_compat
