// What the decision table's writer learns from the file system and the libraries themselves.
#include "facts.h"

namespace cudnn_compat {

TableFacts gather_table_facts(const Map &map, const ProbeOptions &asked) {
  // A release copied into a directory per module is loaded once (the memo's own checks); a memo
  // of this pass's own, so that every answer is as fresh as the stamps beside it.
  ProbeOptions options = asked;
  if (!options.memo) options.memo = std::make_shared<ProbeMemo>();
  TableFacts facts;
  for (const Installed &e : map.cudnn) {
    std::optional<std::string> file;
    if (!e.lib.empty() && e.lib.front() == '/')  // never a path relative to wherever this runs
      file = find_library_file(e.lib, main_library(e.version.major), e.version.major);
    facts.probes.push_back(file ? probe_library(*file, options) : std::nullopt);
    const std::optional<Probe> &p = facts.probes.back();
    facts.lacks.push_back(p ? lacking_subs(*file, p->version) : std::vector<std::string>{});
    facts.files.push_back(file ? stamp_file(*file) : std::nullopt);
    facts.codes.push_back(file ? read_release_code(e.lib, e.version.major)
                               : Parsed<ReleaseCode>{ReleaseCode{}, {}});
    const std::optional<std::string> other =
        file || !is_absolute_lib(e) ? std::nullopt : entry_main_library(e);
    facts.other_major.push_back(other ? probe_library(*other, options) : std::nullopt);
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
