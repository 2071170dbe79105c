// The library path a candidate is probed with: the shim's C rule (shim/shared/family_path.h), so
// that the probe the shim starts itself and the engine's see the same family.
#include "system.h"

#include "shared/family_path.h"

namespace cudnn_compat {

std::string family_library_path(std::string_view ld_library_path, const std::string &dir,
                                std::optional<int> major) {
  const std::string path(ld_library_path);
  // Every entry kept fits: dir, then ':' before each of ld_library_path's entries, and the NUL.
  std::string out(dir.size() + path.size() + 2, '\0');
  if (!cudnn_compat_family_path(path.c_str(), dir.c_str(), major.value_or(-1), out.data(),
                                long(out.size())))
    return dir;
  out.resize(out.find('\0'));
  return out;
}

}  // namespace cudnn_compat
