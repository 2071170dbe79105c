#include "read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace cudnn_compat {

std::optional<std::string> read_regular_file(const std::string &path, std::size_t max) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && std::size_t(st.st_size) <= max) {
    text.emplace();
    char buffer[65536];
    for (;;) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 || text->size() + std::size_t(n) > max) {
        text.reset();
        break;
      }
      if (n == 0) break;
      text->append(buffer, std::size_t(n));
    }
  }
  close(fd);
  return text;
}

}  // namespace cudnn_compat
