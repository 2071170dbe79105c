// The library path a candidate is probed with: its family as the shim will hand it over.
#include "system.h"
#include "text.h"

#include <filesystem>

namespace cudnn_compat {

std::string family_library_path(std::string_view ld_library_path, const std::string &dir,
                                const std::function<bool(const std::string &)> &other_family) {
  // LD_LIBRARY_PATH comes before the dispatcher's RUNPATH $ORIGIN, so any directory on it that
  // holds the same sub-library names would lend the dispatcher a foreign family (FACTS.md 2).
  std::string out = dir;
  if (ld_library_path.empty()) return out;
  for (std::string_view entry : split(ld_library_path, ':'))
    if (!other_family(std::string(entry))) out.append(":").append(entry);
  return out;
}

bool holds_other_family(const std::string &entry, const std::string &dir,
                        std::optional<int> major) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path = entry.empty() ? fs::path(".") : fs::path(entry);
  if (fs::equivalent(path, dir, ec)) return false;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    const Parsed<LibraryName> n = parse_library_name(it->path().filename().string());
    if (n && !n->windows && n->version && (!major || n->version->major == *major)) return true;
  }
  return false;
}

}  // namespace cudnn_compat
