#include "cudnn_compat.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cudnn_compat {

std::string write_file_atomically(const std::string &path, std::string_view text) {
  // The temporary file sits beside the target: rename() is atomic only within one file system.
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) return "cannot create a temporary file beside " + path + ": " + std::strerror(errno);
  const auto fail = [&](const char *what) {
    std::string why = std::string(what) + " " + tmp + ": " + std::strerror(errno);
    close(fd);
    unlink(tmp.c_str());
    return why;
  };
  // Keep the mode of the file being replaced, so a map an admin made world-readable stays so.
  struct stat st {};
  const mode_t mode = stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0644;
  if (fchmod(fd, mode) != 0) return fail("cannot set the mode of");
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("cannot write");
    done += std::size_t(n);
  }
  if (fsync(fd) != 0) return fail("cannot sync");
  if (close(fd) != 0) {
    unlink(tmp.c_str());
    return "cannot close " + tmp + ": " + std::strerror(errno);
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno);
    unlink(tmp.c_str());
    return why;
  }
  return {};
}

}  // namespace cudnn_compat
