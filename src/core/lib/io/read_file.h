// Generic file reading (lib layer): files a user or a package manager left, read without waiting.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace cudnn_compat {

// The whole of the regular file at path, or nothing: a FIFO, a device or a directory in its place
// is not opened for reading (opened non-blocking, it is passed over at once instead of holding
// the reader until a writer comes), nor is a file longer than max bytes read.
std::optional<std::string> read_regular_file(const std::string &path, std::size_t max);

}  // namespace cudnn_compat
