// cudnn-compat scan: the site's cuDNN modules and installs, probed, as a version map.
#include "cli.h"
#include "modules.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace cudnn_compat::cli {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::string modules = "auto", output, modulepath;
  std::vector<std::string> search;
  bool merge = false;
};

// Library directories under the search roots, at most six levels down, without following loops.
std::vector<std::string> search_roots(const std::vector<std::string> &roots) {
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

struct Candidate {
  std::string dir, module;  // module empty for a search-root find
};

}  // namespace

// A release installed twice (an EasyBuild and a Spack module of one cuDNN) is listed once, under
// the entry listed first (the admin's, with --merge): the map holds one entry per release, and a
// map that `map validate` rejects would leave jobs and hooks without the map's cache and table.
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

void add_scan(CLI::App &app, Globals &g) {
  auto o = std::make_shared<Options>();
  CLI::App *cmd = app.add_subcommand(
      "scan", "Find every cuDNN the site offers, probe its true version, write the map");
  cmd->add_option("--modules", o->modules, "Module system to ask: auto, lmod, envmodules, none")
      ->check(CLI::IsMember({"auto", "lmod", "envmodules", "none"}));
  cmd->add_option("--modulepath", o->modulepath, "Module tree(s), colon-separated ($MODULEPATH)");
  cmd->add_option("--search", o->search,
                  "Also walk this directory for cuDNN installed without a module (repeatable)");
  cmd->add_option("-o,--output", o->output, "Write the map here (default: print it)");
  cmd->add_flag("--merge", o->merge,
                "Fold the scan into the existing map at -o: keeps its policy, [[require]] rules "
                "and hand-written entries");
  cmd->footer(R"(
Lmod is asked through `$LMOD_DIR/spider -o spider-json $MODULEPATH` (its lpathA names each module's
library directories); Environment Modules through `module avail -a --json` and `module display`.
Hidden modules count. Every library directory is then probed for its true version and CUDA
version: the name of a module is never trusted. Modules whose library cannot be found or probed
are reported on stderr, not dropped silently. With --merge the old map is kept as FILE.bak and the
changes are listed; the map and its cache are written atomically.

Examples:
  cudnn-compat scan -o /etc/cudnn-compat/map.toml
  cudnn-compat scan --search /usr/local --search /opt --merge -o /etc/cudnn-compat/map.toml
  cudnn-compat scan --modules none --search /usr/local/cuda

Exit status: 0 written, 1 nothing found or a write failed, 2 bad usage or no such module system.)");
  cmd->callback([o, &g] {
    std::vector<std::string> problems;
    std::vector<Candidate> candidates;
    // 1. The module system's cuDNN modules.
    if (o->modules != "none") {
      const std::optional<ModuleSystem> system = find_module_system(o->modules);
      const std::string modulepath =
          o->modulepath.empty() ? env("MODULEPATH").value_or("") : o->modulepath;
      if (!system && o->modules != "auto") {
        complain("no " + o->modules + " here (looked for $LMOD_DIR/spider or $MODULES_CMD)");
        g.exit_code = kUsage;
        return;
      }
      if (system && modulepath.empty()) {
        problems.push_back("MODULEPATH is empty: no module tree to scan (use --modulepath)");
      } else if (system) {
        const Parsed<std::vector<ModuleLibs>> mods = list_cudnn_modules(*system, modulepath);
        if (!mods) problems.push_back(system->kind + ": " + mods.error);
        for (const ModuleLibs &m : mods ? *mods.value : std::vector<ModuleLibs>{}) {
          bool found = false;
          for (const std::string &d : m.lib_dirs)
            if (dir_holds_cudnn(d)) {
              candidates.push_back({d, m.name});
              found = true;
            }
          if (!found)
            problems.push_back("module " + m.name +
                               ": no libcudnn.so.<major> in what it adds to "
                               "LD_LIBRARY_PATH" +
                               (m.lib_dirs.empty() ? std::string(" (nothing)") : ""));
        }
      }
    }
    // 2. Installs without a module.
    std::set<std::string> seen;
    for (const Candidate &c : candidates) {
      std::error_code ec;
      seen.insert(fs::weakly_canonical(c.dir, ec).string());
    }
    for (const std::string &d : search_roots(o->search))
      if (seen.insert(d).second) candidates.push_back({d, ""});

    // 3. Probe each directory once; a directory two modules share is listed under the first.
    std::vector<Installed> scanned;
    std::map<std::string, std::string> probed;  // canonical dir -> module it was listed under
    const ProbeOptions options = probe_options();
    const bool progress = candidates.size() > 20 && !g.json;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Candidate &c = candidates[i];
      if (progress && (i % 10 == 0 || i + 1 == candidates.size()))
        std::cerr << "scan: probing " << i + 1 << "/" << candidates.size() << ": " << c.dir << '\n';
      std::error_code ec;
      const std::string canonical = fs::weakly_canonical(c.dir, ec).string();
      if (const auto it = probed.find(canonical); it != probed.end()) {
        problems.push_back("module " + c.module + " shares " + c.dir + " with " + it->second +
                           "; listed once");
        continue;
      }
      probed[canonical] = c.module.empty() ? c.dir : c.module;
      const Parsed<std::vector<Probe>> found = probe(c.dir, options);
      if (!found) {
        problems.push_back((c.module.empty() ? c.dir : "module " + c.module) + ": " + found.error);
        continue;
      }
      for (const Probe &p : *found) {
        if (p.source == ProbeSource::filename) {
          problems.push_back(p.file + ": only its file name gives a version (" + p.note +
                             "); not listed");
          continue;
        }
        if (p.source == ProbeSource::header)
          problems.push_back(p.file + ": version from its header, the library did not load (" +
                             p.note + ")");
        scanned.push_back({p.version, c.dir, p.cuda, c.module, {}});
      }
    }

    // 4. The map: fresh, or folded into the admin's.
    Map map;
    MergeReport report;
    if (o->merge) {
      if (o->output.empty()) {
        complain("--merge needs -o FILE: the map to fold the scan into");
        g.exit_code = kUsage;
        return;
      }
      const LoadedMap old = load_site_map(o->output, true);
      if (!old.map) {
        for (const Diagnostic &d : old.diagnostics) std::cerr << to_string(d) << '\n';
        complain(o->output +
                 " is not a valid map; fix it (cudnn-compat map validate) or scan "
                 "without --merge");
        g.exit_code = kNo;
        return;
      }
      const MergeIo io{dir_holds_cudnn, [](const std::string &lib) {
                         std::error_code ec;
                         return fs::weakly_canonical(lib, ec).string();
                       }};
      map = merge_scan(*old.map, scanned, io, report);
    } else {
      map.path = o->output.empty() ? "<stdout>" : o->output;
      map.cudnn = scanned;
    }
    list_each_release_once(map, problems);
    if (!o->merge)
      for (const Installed &e : map.cudnn)
        report.added.push_back(to_string(e.version) + " " + e.lib);
    for (const std::string &p : problems) complain("scan: " + p);

    // 5. Out.
    const std::string text = format_map(map);
    if (!o->output.empty()) {
      std::string why = o->merge ? copy_file_atomically(o->output, o->output + ".bak") : "";
      if (why.empty()) why = write_file_through_link(o->output, text);
      if (!why.empty()) {
        complain(why);
        g.exit_code = kNo;
        return;
      }
      // The derived files; where they cannot be written, jobs parse the TOML and hooks ask.
      const MapLoad written = read_map_file(o->output);
      why = written.map || written.diagnostics.empty()
                ? write_job_caches(written, probe_options().helper)
                : to_string(written.diagnostics.front());
      if (!why.empty()) complain("note: " + why);
    } else if (!g.json) {
      std::cout << text;
    }
    if (g.json) {
      nlohmann::json entries = nlohmann::json::array();
      for (const Installed &e : map.cudnn)
        entries.push_back(
            {{"version", to_string(e.version)},
             {"lib", e.lib},
             {"cuda", json_of(e.cuda)},
             {"module", e.module.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.module)}});
      print_json({{"map", o->output.empty() ? nlohmann::json(nullptr) : nlohmann::json(o->output)},
                  {"cudnn", entries},
                  {"added", report.added},
                  {"changed", report.changed},
                  {"dropped", report.dropped},
                  {"problems", problems}});
    } else {
      for (const std::string &s : report.added) std::cerr << "scan: added " << s << '\n';
      for (const std::string &s : report.changed) std::cerr << "scan: changed " << s << '\n';
      for (const std::string &s : report.dropped) std::cerr << "scan: dropped " << s << '\n';
      std::cerr << "scan: " << map.cudnn.size() << " cuDNN release(s) in the map"
                << (o->output.empty() ? "" : " " + o->output) << '\n';
    }
    g.exit_code = map.cudnn.empty() ? kNo : kYes;
  });
}

}  // namespace cudnn_compat::cli
