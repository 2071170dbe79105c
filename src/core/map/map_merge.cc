// `scan --merge`: a fresh scan folded into the admin's map without losing what the admin wrote.
#include "map.h"

namespace cudnn_compat {
namespace {

std::string describe(const Installed &e) {
  std::string s = "cuDNN " + to_string(e.version);
  if (e.cuda) s += " for CUDA " + to_string(*e.cuda);
  if (!e.module.empty()) s += " (" + e.module + ")";
  return s + " in " + e.lib;
}

}  // namespace

Map merge_scan(const Map &old, const std::vector<Installed> &scanned, const MergeIo &io,
               MergeReport &report) {
  Map out = old;
  out.cudnn.clear();
  std::vector<bool> used(scanned.size(), false);
  for (const Installed &e : old.cudnn) {
    std::size_t i = 0;
    const std::string dir = io.canonical(e.lib);
    while (i < scanned.size() && (used[i] || io.canonical(scanned[i].lib) != dir)) ++i;
    if (i < scanned.size()) {
      used[i] = true;
      Installed updated = e;  // keeps the admin's position and anything the scan cannot know
      updated.version = scanned[i].version;
      if (scanned[i].cuda) updated.cuda = scanned[i].cuda;
      if (!scanned[i].module.empty()) updated.module = scanned[i].module;
      if (!(updated.version == e.version) || !(updated.cuda == e.cuda) ||
          updated.module != e.module)
        report.changed.push_back(describe(e) + " -> " + describe(updated));
      out.cudnn.push_back(std::move(updated));
    } else if (io.holds_cudnn(e.lib)) {
      out.cudnn.push_back(e);  // hand-written, or outside what was scanned: the admin's word
    } else {
      report.dropped.push_back(describe(e) + " (the directory holds no cuDNN any more)");
    }
  }
  for (std::size_t i = 0; i < scanned.size(); ++i) {
    if (used[i]) continue;
    out.cudnn.push_back(scanned[i]);
    report.added.push_back(describe(scanned[i]));
  }
  return out;
}

}  // namespace cudnn_compat
