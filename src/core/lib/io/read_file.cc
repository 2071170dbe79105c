#include "read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cudnn_compat {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "no regular file";
}

}  // namespace

ReadEnd read_to_end(int fd, std::string &text, std::size_t max) {
  constexpr std::size_t kBlock = 65536;
  for (;;) {
    const std::size_t had = text.size();
    text.resize(had + kBlock);
    const ssize_t n = read(fd, text.data() + had, kBlock);
    text.resize(had + std::size_t(n > 0 ? n : 0));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ReadEnd::failed;
    if (n == 0) return ReadEnd::done;
    if (text.size() > max) return ReadEnd::too_long;
  }
}

std::optional<std::string> read_regular_file(const std::string &path, std::size_t max,
                                             std::string *why) {
  std::string reason;
  std::optional<std::string> text;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  struct stat st {};
  if (fd < 0) {
    reason = std::string("cannot be opened (") + std::strerror(errno) + ")";
  } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    reason = "is " + kind_of(st.st_mode) + ", not a regular file";
  } else if (std::size_t(st.st_size) > max) {
    reason = "is larger than " + std::to_string(max >> 20) + " MiB";
  } else {
    text.emplace();
    const ReadEnd end = read_to_end(fd, *text, max);
    if (end != ReadEnd::done) {
      reason = end == ReadEnd::failed
                   ? std::string("cannot be read (") + std::strerror(errno) + ")"
                   : "grew past " + std::to_string(max >> 20) + " MiB while read";
      text.reset();
    }
  }
  if (fd >= 0) close(fd);
  if (why) *why = reason;
  return text;
}

}  // namespace cudnn_compat
