#include "scan_gather.h"
#include "text.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

struct Candidate {
  std::string dir, module;          // module empty for a search-root find
  std::optional<Source> source;     // a wheel's or conda env's (scan --python)
  std::optional<Version> declared;  // the version its package says (9.1.0.70)
  std::string package;              // "nvidia-cudnn-cu12 9.1.0.70 (.../METADATA)"
  bool hidden = false;              // its module is hidden: the map does not hand the place out
  std::vector<std::string> load_first = {};  // its module's parents in an Lmod hierarchy
};

// 1. The module system's cuDNN modules.
std::vector<Candidate> module_candidates(const std::vector<ScanModule> &modules, const ScanIo &io,
                                         std::vector<std::string> &problems) {
  std::vector<Candidate> candidates;
  for (const ScanModule &m : modules) {
    bool found = false;
    for (const std::string &d : m.lib_dirs)
      if (io.holds_cudnn(d)) {
        candidates.push_back({d, m.name, {}, {}, "", m.hidden, m.load_first});
        found = true;
      }
    if (found || !m.cudnn) continue;  // most CUDA modules carry no cuDNN
    const std::string broken = io.module_error ? io.module_error(m) : "";
    problems.push_back("module " + m.name +
                       (broken.empty() ? ": no libcudnn.so.<major> in what it adds to "
                                         "LD_LIBRARY_PATH" +
                                             (m.lib_dirs.empty() ? std::string(" (nothing)") : "")
                                       : ": its modulefile is broken: " + broken));
  }
  return candidates;
}

// 2. Python environments named by the admin, then installs without a module.
void add_python_finds(const std::vector<std::string> &roots, const ScanIo &io,
                      std::vector<Candidate> &candidates, std::vector<std::string> &problems) {
  std::set<std::string> seen;
  for (const Candidate &c : candidates) seen.insert(io.canonical(c.dir));
  for (const std::string &root : roots)
    for (const PythonPlace &p : io.python_walk(root))
      if (seen.insert(io.canonical(p.lib)).second) {
        candidates.push_back({p.lib, "", p.source, p.version, p.package + " (" + p.file + ")"});
        if (!p.note.empty()) problems.push_back(p.note + "; its library is read for its version");
      }
}

void add_search_finds(const std::vector<std::string> &roots, const ScanIo &io,
                      std::vector<Candidate> &candidates) {
  std::set<std::string> seen;
  for (const Candidate &c : candidates) seen.insert(io.canonical(c.dir));
  for (const std::string &d : io.walk(roots))
    if (seen.insert(io.canonical(d)).second) candidates.push_back({d, "", {}, {}, ""});
}

// A place as probed: the package's own version where the library agrees (it carries the build
// number the library does not report), its source where scan --python found it.
Installed place(const Candidate &c, const Probe &p, ScanFound &out) {
  Installed e{p.version, c.dir, p.cuda, c.module, {}, false, !c.hidden};
  e.source = c.source;
  e.load_first = c.load_first;
  if (c.declared && same_release(*c.declared, p.version))
    e.version = *c.declared;
  else if (c.declared)
    out.problems.push_back(c.dir + ": " + c.package + " says " + to_string(*c.declared) +
                           " but the library reports " + to_string(p.version) +
                           "; listed as the library says");
  return e;
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
  out.scanned.push_back(place(c, p, out));
}

// 3. Probe each directory once; modules that share a directory are places of its release.
void probe_candidates(const std::vector<Candidate> &candidates, const ScanIo &io, ScanFound &out) {
  std::map<std::string, Parsed<std::vector<Probe>>> probed;  // by canonical directory
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate &c = candidates[i];
    io.progress(i, candidates.size(), c.dir);
    const std::string canonical = io.canonical(c.dir);
    const bool again = probed.contains(canonical);
    if (!again) probed.emplace(canonical, io.probe(c.dir));
    const Parsed<std::vector<Probe>> &found = probed.at(canonical);
    if (again) {
      if (found)
        for (const Probe &p : *found)
          if (p.source != ProbeSource::filename) out.scanned.push_back(place(c, p, out));
      continue;
    }
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
                      const std::vector<std::string> &search_roots, const ScanIo &io,
                      const std::vector<std::string> &python_roots) {
  ScanFound out;
  std::vector<Candidate> candidates = module_candidates(modules, io, out.problems);
  if (!python_roots.empty()) add_python_finds(python_roots, io, candidates, out.problems);
  add_search_finds(search_roots, io, candidates);
  // A directory no map can name (a control character, bytes that are no UTF-8: TOML holds
  // neither) is left out and said; it made the whole scan write nothing (helper 109).
  std::erase_if(candidates, [&](const Candidate &c) {
    if (plain_text(c.dir) && plain_text(c.module)) return false;
    out.problems.push_back(cudnn_compat::quoted(plain_text(c.dir) ? c.module : c.dir) +
                           ": a name a map cannot hold (a control character or bytes that are "
                           "not UTF-8); left out - move or link it to a plain path");
    return true;
  });
  probe_candidates(candidates, io, out);
  return out;
}

std::vector<std::string> find_cudnn_dirs(const std::vector<std::string> &roots) {
  std::set<std::string> dirs;
  std::set<std::pair<dev_t, ino_t>> entered;
  std::vector<fs::path> todo;
  std::error_code ec;
  for (auto r = roots.rbegin(); r != roots.rend(); ++r)
    todo.push_back(fs::absolute(*r, ec).lexically_normal());
  while (!todo.empty()) {
    const fs::path dir = std::move(todo.back());
    todo.pop_back();
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        !entered.insert({st.st_dev, st.st_ino}).second)
      continue;
    // The path as walked, links kept: the admin's /opt/cudnn/9.1 outlives a move of the storage
    // it points to, which the physical path would not.
    if (dir_holds_cudnn(dir.string())) dirs.insert(dir.string());
    std::vector<fs::path> below;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec))
      if (it->is_directory(ec)) below.push_back(it->path());  // follows a symlink
    std::sort(below.begin(), below.end());  // the same walk, so the same path, every time
    todo.insert(todo.end(), below.rbegin(), below.rend());
  }
  return {dirs.begin(), dirs.end()};
}

}  // namespace cudnn_compat
