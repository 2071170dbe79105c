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

std::optional<std::string> entry_main_library(const Installed &e) {
  if (std::optional<std::string> file =
          find_library_file(e.lib, main_library(e.version.major), e.version.major))
    return file;
  std::optional<int> other;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(e.lib, ec), end; !ec && it != end; it.increment(ec))
    if (const Parsed<LibraryName> n = parse_library_name(it->path().filename().string());
        n && n->sub.empty() && !n->windows && n->version && (!other || n->version->major < *other))
      other = n->version->major;
  return other ? find_library_file(e.lib, main_library(*other), *other) : std::nullopt;
}

Map places_that_load(const Map &map, const ProbeOptions &options) {
  Map out = map;
  out.cudnn.clear();
  for (const Installed &e : map.cudnn) {
    if (!is_absolute_lib(e)) continue;
    const std::optional<std::string> file = entry_main_library(e);
    const std::optional<Probe> p = file ? probe_library(*file, options) : std::nullopt;
    if (library_spoke(p)) out.cudnn.push_back(as_library_reports(e, p));
  }
  group_releases(out.cudnn);  // a table whose first place is gone starts at its next
  return out;
}

Map places_present(const Map &map, std::vector<Installed> *gone) {
  Map out = map;
  std::erase_if(out.cudnn, [&](const Installed &e) {
    const bool away = is_absolute_lib(e) && !entry_main_library(e);
    if (away && gone) gone->push_back(e);
    return away;
  });
  group_releases(out.cudnn);  // a release whose first place is gone starts at its next
  return out;
}

Map as_their_libraries_report(const Map &map, const std::function<bool(const Installed &)> &ask,
                              const ProbeOptions &options, MapCorrections &said) {
  Map out = map;
  out.cudnn.clear();
  for (const Installed &e : map.cudnn) {
    const bool asked = is_absolute_lib(e) && ask(e);
    const std::optional<std::string> file = asked ? entry_main_library(e) : std::nullopt;
    const LibraryCheck c = file ? check_library(*file, options) : LibraryCheck{};
    const std::optional<Probe> &p = c.probe;
    // An environment's place is the library's word or none: its record is no site's promise.
    if (file && !p && !e.claimed_in.empty()) {
      said.dropped.push_back(no_answer(*file, c) + "; " + claimed_by(e) + to_string(e.version));
      continue;
    }
    if (file && !p && c.not_run.empty()) said.unloadable.emplace_back(e.lib, no_answer(*file, c));
    if (library_spoke(p) && !same_release(p->version, e.version))
      said.corrected.push_back(claimed_by(e) + to_string(e.version) + " but " + *file +
                               " reports " + to_string(p->version));
    out.cudnn.push_back(as_library_reports(e, p));
  }
  return out;
}

}  // namespace cudnn_compat
