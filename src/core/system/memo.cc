// The engine's side of the memo (shim/shared/memo_format.h, read by shim/memo.c): a decision and
// everything it rested on, written where the shim of the next process on this node looks first.
// Written through the directory's descriptor, checked as the reader checks it, in one rename: a
// reader sees the old entry or the new one, never half.
#include "memo_format.h"
#include "system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <filesystem>

namespace cudnn_compat {
namespace {

std::uint64_t nanoseconds(const timespec &t) {
  return std::uint64_t(t.tv_sec) * 1'000'000'000u + std::uint64_t(t.tv_nsec);
}

std::vector<EnvRead> *recorder = nullptr;

bool one_line(std::string_view s) {
  return s.find('\n') == std::string_view::npos;
}

// A name the reader could have made: 16 hex digits and the suffix.
bool entry_name(std::string_view name) {
  const std::string_view suffix = CUDNN_COMPAT_MEMO_SUFFIX;
  return name.size() == 16 + suffix.size() && name.ends_with(suffix) &&
         std::all_of(name.begin(), name.begin() + 16,
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

bool dir_ok(int fd) {
  struct stat st {};
  struct statfs fs {};
  return fstat(fd, &st) == 0 && fstatfs(fd, &fs) == 0 &&
         cudnn_compat_memo_dir_ok(st.st_uid, st.st_mode, getuid(), long(fs.f_type));
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(std::size_t(n));
  }
  return true;
}

// Bounded: the oldest entries beyond the limit go, and the leftovers of writers that died.
void prune(int dir) {
  const int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : nullptr;
  if (!d) {
    if (fd >= 0) close(fd);
    return;
  }
  std::vector<std::pair<std::uint64_t, std::string>> entries;
  const std::uint64_t stale = nanoseconds({std::time(nullptr) - 60, 0});
  for (const dirent *e; (e = readdir(d));) {
    const std::string name = e->d_name;
    struct stat st {};
    if (fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (entry_name(name))
      entries.emplace_back(nanoseconds(st.st_mtim), name);
    else if (name.starts_with(".") && name.ends_with(".tmp") && nanoseconds(st.st_mtim) < stale)
      unlinkat(dir, name.c_str(), 0);
  }
  closedir(d);
  if (entries.size() <= CUDNN_COMPAT_MEMO_MAX_ENTRIES) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i + CUDNN_COMPAT_MEMO_MAX_ENTRIES < entries.size(); ++i)
    unlinkat(dir, entries[i].second.c_str(), 0);
}

}  // namespace

void record_env_reads(std::vector<EnvRead> *into) {
  recorder = into;
}

void note_env_read(const char *name, const std::optional<std::string> &value) {
  if (recorder) recorder->emplace_back(name, value);
}

std::optional<FileIdentity> identify_file(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino, std::uint64_t(st.st_size), nanoseconds(st.st_mtim),
                      nanoseconds(st.st_ctim)};
}

bool changed_lately(const FileIdentity &id, std::uint64_t since_ns) {
  return id.mtime_ns + CUDNN_COMPAT_MEMO_RACY_NS > since_ns ||
         id.ctime_ns + CUDNN_COMPAT_MEMO_RACY_NS > since_ns;
}

std::optional<std::string> format_memo_entry(const MemoEntry &e) {
  std::string out = CUDNN_COMPAT_MEMO_FORMAT "\nkey " + std::to_string(e.key.size()) + "\n" +
                    e.key + "\n" + CUDNN_COMPAT_MEMO_BUILD "\t" + e.build + "\n";
  bool ok = !e.build.empty() && one_line(e.build);
  for (const auto &[path, id] : e.files) {
    ok = ok && one_line(path);
    if (!id) {
      out += "gone\t" + path + "\n";
      continue;
    }
    out += "file";
    for (std::uint64_t n : {id->dev, id->ino, id->size, id->mtime_ns, id->ctime_ns})
      out += "\t" + std::to_string(n);
    out += "\t" + path + "\n";
  }
  for (const auto &[name, value] : e.env) {
    ok =
        ok && one_line(name) && name.find('=') == std::string::npos && one_line(value.value_or(""));
    out += value ? "env\t" + name + "=" + *value + "\n" : "unset\t" + name + "\n";
  }
  out += "answer\n" + e.answer + "end\n";
  if (!ok || out.size() > CUDNN_COMPAT_MEMO_MAX_BYTES) return std::nullopt;
  return out;
}

std::string write_memo_entry(const std::string &entry, const MemoEntry &e) {
  const std::filesystem::path path(entry);
  const std::string name = path.filename().string();
  if (!entry_name(name)) return "not a memo entry: " + entry;
  const std::optional<std::string> text = format_memo_entry(e);
  if (!text) return "the decision cannot be written as an entry";
  const Fd dir(open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() < 0 || !dir_ok(dir.get())) return "no memo directory of ours";
  const std::string tmp = "." + name + "." + std::to_string(getpid()) + ".tmp";
  bool ok;
  {
    const Fd out(
        openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    ok = out.get() >= 0 && write_all(out.get(), *text);
  }
  if (!ok || renameat(dir.get(), tmp.c_str(), dir.get(), name.c_str()) != 0) {
    unlinkat(dir.get(), tmp.c_str(), 0);
    return "cannot write " + entry;
  }
  return "";
}

void prune_memo(const std::string &entry) {
  const Fd dir(open(std::filesystem::path(entry).parent_path().c_str(),
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() >= 0 && dir_ok(dir.get())) prune(dir.get());
}

}  // namespace cudnn_compat
