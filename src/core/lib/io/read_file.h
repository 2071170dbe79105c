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

enum class ReadEnd { done, failed, too_long };

// Appends what fd holds up to its end to *text, straight into the string's heap storage: the
// tool runs under whatever stack limit the user's shell set (`ulimit -s 64` is seen on sites), so
// no block buffer sits on the stack. failed leaves errno as read(2) set it; too_long stops once
// *text would pass max bytes.
ReadEnd read_to_end(int fd, std::string &text, std::size_t max = std::string().max_size());

}  // namespace cudnn_compat
