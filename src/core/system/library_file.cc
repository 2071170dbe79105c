// The file in a directory that serves a request for a cuDNN library, as the shim hands it over.
#include "system.h"

#include "shared/loadable.h"

#include <filesystem>

namespace cudnn_compat {

std::optional<std::string> find_library_file(const std::string &dir, const LibraryName &requested,
                                             int major) {
  namespace fs = std::filesystem;
  const std::string stem =
      requested.sub.empty() ? "libcudnn.so" : "libcudnn_" + requested.sub + ".so";
  const std::string base = stem + "." + std::to_string(major);
  std::error_code ec;
  // The exact name asked for first (cuDNN 9's dispatcher asks for libcudnn_graph.so.9.19.0), then
  // the SONAME, then any fuller name of that major: installs without the SONAME link exist.
  if (requested.version && requested.version->major == major && !requested.windows) {
    const fs::path exact = fs::path(dir) / (stem + "." + to_string(*requested.version));
    if (fs::exists(exact, ec)) return exact.string();
  }
  const fs::path soname = fs::path(dir) / base;
  if (fs::exists(soname, ec)) return soname.string();
  std::optional<std::string> best;
  std::optional<Version> best_version;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(base + ".") || !fs::exists(it->path(), ec)) continue;
    const Parsed<LibraryName> parsed = parse_library_name(name);
    if (!parsed || !parsed->version || parsed->sub != requested.sub) continue;
    if (!best_version || compare(*parsed->version, *best_version) > 0) {
      best = it->path().string();
      best_version = parsed->version;
    }
  }
  return best;
}

bool loadable_here(const std::string &file) {
  struct stat st {};
  return cudnn_compat_loadable(file.c_str(), &st) != 0;
}

}  // namespace cudnn_compat
