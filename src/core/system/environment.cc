// Where the engine reads the environment: nowhere else.
#include "system.h"

#include <cstdlib>
#include <filesystem>

#if !defined(CUDNN_COMPAT_BINDIR) || !defined(CUDNN_COMPAT_PKGLIBDIR) || \
    !defined(CUDNN_COMPAT_SYSCONFDIR)
#error "the build defines the install layout (bin, lib/cudnn-compat, etc) relative to the prefix"
#endif

namespace cudnn_compat {

// secure_getenv: in a setuid process the environment belongs to someone else.
std::optional<std::string> env(const char *name) {
  const char *v = secure_getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::optional<std::string> prefix_of_program_dir(std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  for (std::string_view sub : {"/" CUDNN_COMPAT_BINDIR, "/" CUDNN_COMPAT_PKGLIBDIR})
    if (dir.ends_with(sub)) {
      dir.remove_suffix(sub.size());
      return std::string(dir.empty() ? "/" : dir);
    }
  return std::nullopt;
}

std::optional<std::string> install_prefix() {
  // The running program's own file: an installed tree that was moved finds itself where it is now.
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return prefix_of_program_dir(self.parent_path().string());
}

std::vector<std::string> map_search_path() {
  std::vector<std::string> path;
  if (std::optional<std::string> m = env("CUDNN_COMPAT_MAP")) path.push_back(*m);
  if (std::optional<std::string> prefix = install_prefix())
    path.push_back(
        (std::filesystem::path(*prefix) / CUDNN_COMPAT_SYSCONFDIR / "cudnn-compat/map.toml")
            .lexically_normal()
            .string());
  path.push_back("/etc/cudnn-compat/map.toml");
  return path;
}

std::optional<std::string> find_map_path() {
  // A map named explicitly is taken even when missing, so its absence is reported, not skipped.
  if (std::optional<std::string> m = env("CUDNN_COMPAT_MAP")) return m;
  for (const std::string &p : map_search_path()) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) return p;
  }
  return std::nullopt;
}

}  // namespace cudnn_compat
