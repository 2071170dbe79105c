// What the decision table's writer learns from the file system and the libraries themselves.
#include "facts.h"

#include <set>

namespace cudnn_compat {

TableFacts gather_table_facts(const Map &map, const ProbeOptions &options) {
  TableFacts facts;
  std::set<int> majors;
  for (const Installed &e : map.cudnn) {
    std::optional<std::string> file;
    if (!e.lib.empty() && e.lib.front() == '/')  // never a path relative to wherever this runs
      file = find_library_file(e.lib, main_library(e.version.major), e.version.major);
    facts.probes.push_back(file ? probe_library(*file, options) : std::nullopt);
    facts.files.push_back(file ? stamp_file(*file) : std::nullopt);
    facts.codes.push_back(file ? read_release_code(e.lib, e.version.major)
                               : Parsed<ReleaseCode>{ReleaseCode{}, {}});
    majors.insert(e.version.major);
  }
  facts.ld_cache = stamp_file("/etc/ld.so.cache");
  LoaderContext system_only;
  system_only.before_cache.emplace();
  for (int major : majors) {
    const std::optional<LoaderHit> hit =
        loader_search("libcudnn.so." + std::to_string(major), system_only);
    facts.system.emplace_back(major, hit ? hit->path : "");
  }
  return facts;
}

Map with_device_code(Map map) {
  for (Installed &e : map.cudnn)
    if (is_absolute_lib(e))
      e.code = read_release_code(e.lib, e.version.major).value.value_or(ReleaseCode{});
  return map;
}

}  // namespace cudnn_compat
