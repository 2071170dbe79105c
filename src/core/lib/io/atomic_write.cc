// Files the admin's tools write beside the site map, often as root, in directories others may be
// able to write into: every write goes to a fresh mkstemp file beside the target and is renamed
// over it, so nothing planted at the target's name (a link to /etc/shadow) is ever followed.
#include "atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cudnn_compat {
namespace {

struct Ownership {
  uid_t uid;
  gid_t gid;
  mode_t mode;
};

// Whose file this becomes: that of the regular file at `like`, else of the regular file being
// replaced (lstat: a link there is not the admin's file), else ours with mode 0644.
Ownership ownership_for(const std::string &path, const std::string &like) {
  struct stat st {};
  const bool found = like.empty() ? lstat(path.c_str(), &st) == 0 : stat(like.c_str(), &st) == 0;
  if (found && S_ISREG(st.st_mode)) return {st.st_uid, st.st_gid, mode_t(st.st_mode & 07777)};
  return {geteuid(), getegid(), 0644};
}

// Writes text to a fresh temporary file beside path, owned as o says; staged names it.
std::string stage_owned(const std::string &path, std::string_view text, StagedFile &staged,
                        const Ownership &o) {
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
  // Owner first: chown clears the set-id bits a mode may carry.
  // Not root: a member of the file's group (the map's trusted admin group) can give the group
  // alone.
  if ((o.uid != geteuid() || o.gid != getegid()) && fchown(fd, o.uid, o.gid) != 0 &&
      (errno != EPERM || fchown(fd, uid_t(-1), o.gid) != 0))
    return fail("cannot give the owner and group of the file it replaces to");
  if (fchmod(fd, o.mode) != 0) return fail("cannot set the mode of");
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
  staged = {path, tmp};
  return {};
}

}  // namespace

std::string stage_file(const std::string &path, std::string_view text, StagedFile &staged,
                       const std::string &like) {
  return stage_owned(path, text, staged, ownership_for(path, like));
}

std::string commit_staged(StagedFile &staged) {
  if (staged.tmp.empty()) return {};
  std::string why;
  if (rename(staged.tmp.c_str(), staged.target.c_str()) != 0) {
    why = "cannot rename " + staged.tmp + " to " + staged.target + ": " + std::strerror(errno);
    unlink(staged.tmp.c_str());
  }
  staged.tmp.clear();
  return why;
}

void discard_staged(StagedFile &staged) {
  if (!staged.tmp.empty()) unlink(staged.tmp.c_str());
  staged.tmp.clear();
}

std::string write_file_atomically(const std::string &path, std::string_view text,
                                  const std::string &like) {
  StagedFile staged;
  std::string why = stage_file(path, text, staged, like);
  return why.empty() ? commit_staged(staged) : why;
}

std::string write_own_file_atomically(const std::string &path, std::string_view text, mode_t mode) {
  StagedFile staged;
  std::string why = stage_owned(path, text, staged, {geteuid(), getegid(), mode});
  return why.empty() ? commit_staged(staged) : why;
}

std::string link_target(const std::string &path, std::string &target) {
  std::error_code ec;
  target = path;
  if (!std::filesystem::is_symlink(path, ec)) return {};
  target = std::filesystem::canonical(path, ec).string();
  if (ec) return path + " is a link to nothing (" + ec.message() + "); remove it or fix it";
  return {};
}

std::string write_file_through_link(const std::string &path, std::string_view text) {
  std::string target;
  const std::string why = link_target(path, target);
  return why.empty() ? write_file_atomically(target, text) : why;
}

std::string copy_file_atomically(const std::string &from, const std::string &to) {
  std::ifstream in(from, std::ios::binary);
  std::ostringstream text;
  if (!(in && text << in.rdbuf())) return "cannot read " + from + ": " + std::strerror(errno);
  return write_file_atomically(to, text.str(), from);
}

bool same_file(const std::string &a, const std::string &b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) ||
         std::filesystem::absolute(a, ec).lexically_normal() ==
             std::filesystem::absolute(b, ec).lexically_normal();
}

}  // namespace cudnn_compat
