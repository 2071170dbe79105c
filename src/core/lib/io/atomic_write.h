// Generic file writing (lib layer): a file is replaced whole or not at all.
#pragma once

#include <string>
#include <string_view>

namespace cudnn_compat {

// Replaces path with text in one rename, so a reader sees the old file or the new one, never half.
// A link at path is replaced, never followed. The new file takes the owner, group and mode of the
// regular file at `like` when given, else of the regular file it replaces (else 0644, ours).
// Returns an empty string, or why it failed (the old file is then untouched).
std::string write_file_atomically(const std::string &path, std::string_view text,
                                  const std::string &like = {});
// The same through a link at path: the file the link leads to is replaced, the link stays (a map
// shared by a link keeps serving every name of it).
std::string write_file_through_link(const std::string &path, std::string_view text);
// A copy of from at to, written as above (a backup: a link planted at `to` is replaced), with
// from's owner, group and mode.
std::string copy_file_atomically(const std::string &from, const std::string &to);

}  // namespace cudnn_compat
