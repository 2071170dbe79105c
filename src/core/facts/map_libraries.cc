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

}  // namespace cudnn_compat
