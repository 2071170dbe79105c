// A file read in place with pread: ELF headers and sections of libraries that may be GiBs, a few
// bytes at a time (elf_dynamic.cc, fatbin.cc).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace cudnn_compat {

class Fd {
 public:
  explicit Fd(const std::string &path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;

  // Exactly size bytes at offset, or false.
  bool read(std::uint64_t offset, void *out, std::size_t size) const {
    auto *p = static_cast<char *>(out);
    while (size > 0) {
      const ssize_t n = pread(fd_, p, size, off_t(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n, size -= std::size_t(n), offset += std::uint64_t(n);
    }
    return true;
  }
  // The NUL-terminated string at offset, read in small pieces; nullopt past limit bytes or EOF.
  std::optional<std::string> string_at(std::uint64_t offset, std::size_t limit) const {
    std::string s;
    char buf[256];
    while (s.size() < limit) {
      ssize_t n;
      while ((n = pread(fd_, buf, sizeof buf, off_t(offset + s.size()))) < 0 && errno == EINTR) {
      }
      if (n <= 0) return std::nullopt;
      const std::size_t len = strnlen(buf, std::size_t(n));
      s.append(buf, len);
      if (len < std::size_t(n)) return s;
    }
    return std::nullopt;
  }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

// A section of an ELF file: its name and where its bytes are (none for SHT_NOBITS).
struct ElfSection {
  std::string name;
  std::uint64_t offset = 0, size = 0;
  bool within = true;  // false: it runs past the end of the file (a copy cut short)
};
struct ElfSections {
  std::vector<ElfSection> sections;  // empty: the file has no section table
  std::string error;  // not a 64-bit ELF file, or a cut-short table: why none can be read
};
// The sections of a 64-bit ELF file of file_size bytes that have bytes in it (no SHT_NOBITS).
ElfSections elf_sections(const Fd &fd, std::uint64_t file_size);

}  // namespace cudnn_compat
