// Generic file reading (lib layer): files a user or a package manager left, read without waiting.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace cudnn_compat {

// The whole of the regular file at path, or nothing: a FIFO, a device or a directory in its place
// is not opened for reading (opened non-blocking, it is passed over at once instead of holding
// the reader until a writer comes), nor is a file longer than max bytes read.
// *why, when given, says in words why nothing was read ("is a FIFO, not a regular file").
std::optional<std::string> read_regular_file(const std::string &path, std::size_t max,
                                             std::string *why = nullptr);

}  // namespace cudnn_compat
