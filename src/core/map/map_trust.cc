// Whether a map may steer anyone's jobs: as sudo and ssh refuse a sudoers or authorized_keys file
// that someone else could have written, the engine refuses a map that anyone but its owner can
// change, or whose owner is neither root nor the user who reads it.
#include "map.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

namespace cudnn_compat {
namespace {

std::string octal(unsigned mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777);
  return buf;
}

std::optional<FileOwner> owner_of(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileOwner{std::uint64_t(st.st_uid), unsigned(st.st_mode)};
}

std::string parent_of(const std::string &path) {
  const std::filesystem::path p = std::filesystem::absolute(path).parent_path();
  return p.empty() ? "/" : p.string();
}

}  // namespace

std::optional<std::string> untrusted_because(const FileOwner &o, std::uint64_t reader) {
  if (o.uid != 0 && o.uid != reader)
    return "is owned by uid " + std::to_string(o.uid) +
           ", neither root nor you; have root (or you) own it (chown)";
  if (o.mode & (S_IWGRP | S_IWOTH))
    return "is writable by others than its owner (mode " + octal(o.mode) +
           "); make it writable by its owner only (chmod go-w" +
           (S_ISDIR(o.mode) ? ", or move the map to a directory only its owner writes)" : ")");
  return std::nullopt;
}

std::optional<std::string> map_trust_problem(const std::string &path) {
  const std::optional<FileOwner> file = owner_of(path);
  if (!file || !S_ISREG(file->mode)) return std::nullopt;  // reading it says what it is instead
  const std::uint64_t me = geteuid();
  // The directory that holds the name (who can replace the map or plant a link there), and when
  // the name is a link, the directory of the file it leads to.
  std::vector<std::string> dirs = {parent_of(path)};
  std::error_code ec;
  if (std::filesystem::is_symlink(path, ec))
    dirs.push_back(parent_of(std::filesystem::canonical(path, ec).string()));
  for (const std::string &d : dirs)
    if (const std::optional<FileOwner> o = owner_of(d))
      if (std::optional<std::string> why = untrusted_because(*o, me))
        return "refused: its directory " + d + " " + *why;
  if (std::optional<std::string> why = untrusted_because(*file, me)) return "refused: it " + *why;
  return std::nullopt;
}

}  // namespace cudnn_compat
