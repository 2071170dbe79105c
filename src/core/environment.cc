// Where the engine reads the environment: nowhere else.
#include "cudnn_compat.h"

#include <cstdlib>
#include <filesystem>

#ifndef CUDNN_COMPAT_PREFIX
#error "the build defines CUDNN_COMPAT_PREFIX (the install prefix) for the map search path"
#endif

namespace cudnn_compat {

// secure_getenv: in a setuid process the environment belongs to someone else.
std::optional<std::string> env(const char *name) {
  const char *v = secure_getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::vector<std::string> map_search_path() {
  std::vector<std::string> path;
  if (std::optional<std::string> m = env("CUDNN_COMPAT_MAP")) path.push_back(*m);
  path.push_back(CUDNN_COMPAT_PREFIX "/etc/cudnn-compat/map.toml");
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
