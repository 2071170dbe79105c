// What only the file system can tell about the map's lib directories.
#include "facts.h"

#include <filesystem>

namespace cudnn_compat {

std::vector<Diagnostic> check_map_libraries(const Map &map) {
  namespace fs = std::filesystem;
  std::vector<Diagnostic> out;
  for (const Installed &e : map.cudnn) {
    std::error_code ec;
    if (!is_absolute_lib(e)) {
      out.push_back({Severity::error, map.path, e.pos,
                     "lib \"" + e.lib + "\" of cuDNN " + to_string(e.version) +
                         " is relative: each job would load it from its own working directory. "
                         "Jobs skip this entry; write the absolute directory"});
    } else if (!fs::is_directory(e.lib, ec)) {
      out.push_back({Severity::warning, map.path, e.pos,
                     "lib \"" + e.lib + "\" of cuDNN " + to_string(e.version) +
                         " is not a directory; resolve skips it"});
    } else if (!find_library_file(e.lib, main_library(e.version.major), e.version.major)) {
      out.push_back({Severity::warning, map.path, e.pos,
                     "lib \"" + e.lib + "\" holds no libcudnn.so." +
                         std::to_string(e.version.major) +
                         "*; is 'lib' the directory of the libraries (often .../lib64)?"});
    }
  }
  return out;
}

Map places_that_load(const Map &map, const ProbeOptions &options) {
  Map out = map;
  out.cudnn.clear();
  for (const Installed &e : map.cudnn) {
    if (!is_absolute_lib(e)) continue;
    const std::optional<std::string> file =
        find_library_file(e.lib, main_library(e.version.major), e.version.major);
    const std::optional<Probe> p = file ? probe_library(*file, options) : std::nullopt;
    if (file && library_disagreement(e, p).empty()) {
      out.cudnn.push_back(e);
      out.cudnn.back().cuda = release_cuda(e, p);
    }
  }
  group_releases(out.cudnn);  // a table whose first place is gone starts at its next
  return out;
}

Map with_library_cuda(const Map &map, std::optional<int> major, const ProbeOptions &options) {
  Map out = map;
  for (Installed &e : out.cudnn) {
    if (!is_absolute_lib(e) || (major && e.version.major != *major)) continue;
    if (const std::optional<std::string> file =
            find_library_file(e.lib, main_library(e.version.major), e.version.major))
      e.cuda = release_cuda(e, probe_library(*file, options));
  }
  return out;
}

Map places_their_libraries_confirm(const Map &map, const ProbeOptions &options,
                                   std::vector<std::string> &dropped) {
  Map out = map;
  out.cudnn.clear();
  for (const Installed &e : map.cudnn) {
    const std::optional<std::string> file =
        e.claimed_in.empty()
            ? std::nullopt
            : find_library_file(e.lib, main_library(e.version.major), e.version.major);
    const LibraryCheck c = file ? check_library(*file, options) : LibraryCheck{};
    const std::optional<Probe> &p = c.probe;
    if (file && !p)
      dropped.push_back(no_answer(*file, c) + "; " + claimed_by(e) + to_string(e.version));
    else if (p && !same_release(p->version, e.version))
      dropped.push_back(claimed_by(e) + to_string(e.version) + " but " + *file + " reports " +
                        to_string(p->version));
    else
      out.cudnn.push_back(e);
  }
  return out;
}

}  // namespace cudnn_compat
