// What the decision table's writer learns from the file system and the libraries themselves.
#include "facts.h"

namespace cudnn_compat {

TableFacts gather_table_facts(const Map &map, const ProbeOptions &options) {
  TableFacts facts;
  for (const Installed &e : map.cudnn) {
    std::optional<std::string> file;
    if (!e.lib.empty() && e.lib.front() == '/')  // never a path relative to wherever this runs
      file = find_library_file(e.lib, main_library(e.version.major), e.version.major);
    facts.probes.push_back(file ? probe_library(*file, options) : std::nullopt);
    facts.files.push_back(file ? stamp_file(*file) : std::nullopt);
  }
  return facts;
}

}  // namespace cudnn_compat
