#include "scan_gather.h"

#include <filesystem>
#include <map>
#include <set>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

struct Candidate {
  std::string dir, module;  // module empty for a search-root find
};

// 1. The module system's cuDNN modules.
std::vector<Candidate> module_candidates(const std::vector<ScanModule> &modules, const ScanIo &io,
                                         std::vector<std::string> &problems) {
  std::vector<Candidate> candidates;
  for (const ScanModule &m : modules) {
    bool found = false;
    for (const std::string &d : m.lib_dirs)
      if (io.holds_cudnn(d)) {
        candidates.push_back({d, m.name});
        found = true;
      }
    if (!found)
      problems.push_back("module " + m.name +
                         ": no libcudnn.so.<major> in what it adds to "
                         "LD_LIBRARY_PATH" +
                         (m.lib_dirs.empty() ? std::string(" (nothing)") : ""));
  }
  return candidates;
}

// 2. Installs without a module.
void add_search_finds(const std::vector<std::string> &roots, const ScanIo &io,
                      std::vector<Candidate> &candidates) {
  std::set<std::string> seen;
  for (const Candidate &c : candidates) seen.insert(io.canonical(c.dir));
  for (const std::string &d : io.walk(roots))
    if (seen.insert(d).second) candidates.push_back({d, ""});
}

// What one probed library adds: an entry, a problem, or both.
void take_probe(const Candidate &c, const Probe &p, ScanFound &out) {
  if (p.source == ProbeSource::filename) {
    out.problems.push_back(p.file + ": only its file name gives a version (" + p.note +
                           "); not listed");
    return;
  }
  if (p.source == ProbeSource::header)
    out.problems.push_back(p.file + ": version from its header, the library did not load (" +
                           p.note + ")");
  out.scanned.push_back({p.version, c.dir, p.cuda, c.module, {}});
}

// 3. Probe each directory once; a directory two modules share is listed under the first.
void probe_candidates(const std::vector<Candidate> &candidates, const ScanIo &io, ScanFound &out) {
  std::map<std::string, std::string> probed;  // canonical dir -> module it was listed under
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate &c = candidates[i];
    io.progress(i, candidates.size(), c.dir);
    const std::string canonical = io.canonical(c.dir);
    if (const auto it = probed.find(canonical); it != probed.end()) {
      out.problems.push_back("module " + c.module + " shares " + c.dir + " with " + it->second +
                             "; listed once");
      continue;
    }
    probed[canonical] = c.module.empty() ? c.dir : c.module;
    const Parsed<std::vector<Probe>> found = io.probe(c.dir);
    if (!found) {
      out.problems.push_back((c.module.empty() ? c.dir : "module " + c.module) + ": " +
                             found.error);
      continue;
    }
    for (const Probe &p : *found) take_probe(c, p, out);
  }
}

}  // namespace

ScanFound gather_scan(const std::vector<ScanModule> &modules,
                      const std::vector<std::string> &search_roots, const ScanIo &io) {
  ScanFound out;
  std::vector<Candidate> candidates = module_candidates(modules, io, out.problems);
  add_search_finds(search_roots, io, candidates);
  probe_candidates(candidates, io, out);
  return out;
}

std::vector<std::string> find_cudnn_dirs(const std::vector<std::string> &roots) {
  std::set<std::string> dirs;
  for (const std::string &root : roots) {
    std::error_code ec;
    if (dir_holds_cudnn(root)) dirs.insert(fs::weakly_canonical(root, ec).string());
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
      if (it.depth() >= 6) it.disable_recursion_pending();
      if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
      if (dir_holds_cudnn(it->path().string()))
        dirs.insert(fs::weakly_canonical(it->path(), ec).string());
    }
  }
  return {dirs.begin(), dirs.end()};
}

// The map holds one entry per release, and a map that `map validate` rejects would leave jobs and
// hooks without the map's cache and table.
void list_each_release_once(Map &map, std::vector<std::string> &problems) {
  const auto repeats = repeated_releases(map.cudnn);
  const auto name = [](const Installed &e) {
    return (e.module.empty() ? "" : "module " + e.module + " ") + "(" + e.lib + ")";
  };
  for (auto it = repeats.rbegin(); it != repeats.rend(); ++it) {  // from the back: indices hold
    const Installed &e = map.cudnn[it->first], &kept = map.cudnn[it->second];
    problems.push_back(name(e) + ": cuDNN " + to_string(e.version) +
                       (e.cuda ? " for CUDA " + to_string(*e.cuda) : "") +
                       " is already listed as " + name(kept) +
                       "; the map lists a release once, so not listed" +
                       (e.module.empty() ? "" : " (the hooks will not check " + e.module + ")"));
    map.cudnn.erase(map.cudnn.begin() + static_cast<std::ptrdiff_t>(it->first));
  }
}

}  // namespace cudnn_compat
