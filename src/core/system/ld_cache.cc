// /etc/ld.so.cache as glibc's ld.so reads it, in all three layouts (shim/shared/ld_system.c),
// and the glibc-hwcaps subdirectories this CPU supports.
#include "system.h"

#include "shared/ld_system.h"

#include <fstream>

namespace cudnn_compat {

// The reading itself is the shim's (shim/shared/ld_system.c): the file the engine's emulation
// finds in the cache is the one the shim's fast path finds.
std::optional<std::string> ld_cache_find(std::string_view file, std::string_view name,
                                         const std::vector<std::string> &hwcaps) {
  const std::string key(name);
  std::vector<const char *> subdirs;
  subdirs.reserve(hwcaps.size());
  for (const std::string &h : hwcaps) subdirs.push_back(h.c_str());
  const char *path = nullptr;
  if (key.find('\0') != std::string::npos ||
      cudnn_compat_ld_cache_find(file.data(), file.size(), key.c_str(), subdirs.data(),
                                 int(subdirs.size()), &path) != 1)
    return std::nullopt;
  return std::string(path);
}

std::optional<std::string> ld_cache_lookup(const std::string &name, const std::string &cache,
                                           const std::vector<std::string> &hwcaps) {
  std::ifstream in(cache, std::ios::binary);
  if (!in) return std::nullopt;
  std::string data;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size <= 0 || size > (std::streamoff(64) << 20)) return std::nullopt;
  data.resize(std::size_t(size));
  in.seekg(0);
  in.read(data.data(), size);
  return ld_cache_find(data, name, hwcaps);
}

std::vector<std::string> glibc_hwcaps_subdirs() {
  // glibc's order (sysdeps/x86_64/dl-hwcaps-subdirs.c), each only where the CPU and kernel
  // support the whole level, as ld.so itself decides from the CPU's features.
  std::vector<std::string> out;
// (clang knows the level names only from clang 15 on.)
#if defined(__x86_64__) && (!defined(__clang__) || __clang_major__ >= 15)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) out.emplace_back("x86-64-v4");
  if (__builtin_cpu_supports("x86-64-v3")) out.emplace_back("x86-64-v3");
  if (__builtin_cpu_supports("x86-64-v2")) out.emplace_back("x86-64-v2");
#endif
  return out;
}

}  // namespace cudnn_compat
