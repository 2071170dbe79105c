// `scan --merge`: a fresh scan folded into the admin's map without losing what the admin wrote.
#include "map.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat {
namespace {

std::string describe(const Installed &e) {
  std::string s = "cuDNN " + to_string(e.version);
  if (e.cuda) s += " for CUDA " + to_string(*e.cuda);
  if (!e.module.empty())
    s += " (" + e.module +
         (e.load_first.empty() ? "" : ", loaded after " + join(e.load_first, " ")) + ")";
  return s + " in " + e.lib + (e.hand_out ? "" : ", not handed out");
}

// The unused scanned place in dir: the one under e's own module first (two modules may add one
// directory), else any.
std::size_t found_again(const Installed &e, const std::string &dir,
                        const std::vector<Installed> &scanned, const std::vector<std::string> &dirs,
                        const std::vector<bool> &used) {
  std::size_t any = scanned.size();
  for (std::size_t i = 0; i < scanned.size(); ++i) {
    if (used[i] || dirs[i] != dir) continue;
    if (scanned[i].module == e.module) return i;
    any = std::min(any, i);
  }
  return any;
}

// An entry the scan did not find: the admin's word while its directory holds cuDNN, unless its
// module left the module tree and --prune says to drop such entries. One whose module is still in
// the tree is kept as it was though its directory holds no cuDNN now: a file system briefly away
// during a nightly merge is no uninstall (helper 115: the entry was dropped, and the next merge
// added it back without the admin's retire_after and hand_out).
void keep_unfound(const Installed &e, const MergeIo &io, Map &out, MergeReport &report) {
  const bool module_known = io.in_tree && !e.module.empty();
  const bool listed = module_known && io.in_tree(e.module);
  const bool holds = io.holds_cudnn(e.lib);
  if (!holds && !listed)
    return report.dropped.push_back(describe(e) + " (the directory holds no cuDNN any more)");
  if (!holds)
    report.unreadable.push_back(describe(e) + ": its directory holds no cuDNN now (missing or " +
                                "unreadable), though module " + e.module +
                                " is in the module tree; kept as it was (delete the entry if the "
                                "release is gone for good)");
  const bool gone = module_known && !listed;
  if (gone && io.prune)
    return report.dropped.push_back(describe(e) + " (module " + e.module +
                                    " is no longer in the module tree)");
  if (gone)
    report.gone.push_back(describe(e) + ": module " + e.module +
                          " is no longer in the module tree; kept (--prune drops it)");
  out.cudnn.push_back(e);  // hand-written, or outside what was scanned: the admin's word
}

}  // namespace

void leave_out_module_conflicts(std::vector<Installed> &cudnn, std::vector<std::string> &left_out) {
  const std::vector<std::pair<std::size_t, std::size_t>> conflicts = modules_on_two_releases(cudnn);
  if (conflicts.empty()) return;
  std::vector<bool> drop(cudnn.size(), false);
  for (const auto &[i, first] : conflicts) {
    drop[i] = true;
    left_out.push_back(describe(cudnn[i]) + ": module " + cudnn[i].module + " is listed for " +
                       describe(cudnn[first]) +
                       "; not added (a module loads one release: if the module now loads this "
                       "one, correct that entry)");
  }
  std::vector<Installed> kept;
  for (std::size_t i = 0; i < cudnn.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(cudnn[i]));
  cudnn = std::move(kept);
  group_releases(cudnn);  // a table whose first place was left out starts at its next
}

Map merge_scan(const Map &old, const std::vector<Installed> &scanned, const MergeIo &io,
               MergeReport &report) {
  Map out = old;
  out.cudnn.clear();
  std::vector<bool> used(scanned.size(), false);
  std::vector<std::string> dirs;
  dirs.reserve(scanned.size());
  for (const Installed &s : scanned) dirs.push_back(io.canonical(s.lib));
  for (const Installed &e : old.cudnn) {
    const std::size_t i = found_again(e, io.canonical(e.lib), scanned, dirs, used);
    if (i == scanned.size()) {
      keep_unfound(e, io, out, report);
      continue;
    }
    used[i] = true;
    Installed updated = e;  // keeps the admin's position and anything the scan cannot know
    updated.version = scanned[i].version;
    if (scanned[i].cuda) updated.cuda = scanned[i].cuda;
    // A module found again brings where it sits in an Lmod hierarchy now; a scan that finds no
    // parents (Environment Modules prints none) keeps the admin's.
    if (!scanned[i].module.empty()) updated.module = scanned[i].module;
    if (!scanned[i].load_first.empty()) updated.load_first = scanned[i].load_first;
    // Withdrawn stays withdrawn: a place the map withholds is not handed out again because its
    // module is visible now (the admin deletes hand_out = false for that), and one whose module
    // has been hidden since is withheld from now on, unless the map says hand_out = true itself:
    // that is how an admin hands a hidden build out after all (helper 115: a merge took it back).
    updated.hand_out = e.hand_out && (scanned[i].hand_out || e.hand_out_written);
    if (!(updated.version == e.version) || !(updated.cuda == e.cuda) ||
        updated.module != e.module || updated.load_first != e.load_first ||
        updated.hand_out != e.hand_out)
      report.changed.push_back(describe(e) + " -> " + describe(updated));
    out.cudnn.push_back(std::move(updated));
  }
  for (std::size_t i = 0; i < scanned.size(); ++i) {
    if (used[i]) continue;
    const auto listed = std::find_if(old.cudnn.begin(), old.cudnn.end(), [&](const Installed &e) {
      return to_string(e.version) == to_string(scanned[i].version) && e.cuda == scanned[i].cuda;
    });
    if (listed != old.cudnn.end()) {
      report.left_out.push_back(describe(scanned[i]) + ": the map lists this release in " +
                                listed->lib +
                                "; not added (add it to that entry's lib and "
                                "module lists to list both)");
      continue;
    }
    out.cudnn.push_back(scanned[i]);
    report.added.push_back(describe(scanned[i]));
  }
  group_releases(out.cudnn);
  leave_out_module_conflicts(out.cudnn, report.left_out);
  return out;
}

}  // namespace cudnn_compat
