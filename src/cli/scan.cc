// cudnn-compat scan: the site's cuDNN modules and installs, probed, as a version map.
#include "cli.h"
#include "modules.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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
  bool merge = false, prune = false;
};

// Library directories under the search roots at any depth, through symlinked directories too;
// each directory is entered once (by device and inode), so a symlink loop ends.
std::vector<std::string> search_roots(const std::vector<std::string> &roots) {
  std::set<std::string> dirs;
  std::set<std::pair<dev_t, ino_t>> entered;
  std::vector<fs::path> todo(roots.rbegin(), roots.rend());
  while (!todo.empty()) {
    const fs::path dir = std::move(todo.back());
    todo.pop_back();
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        !entered.insert({st.st_dev, st.st_ino}).second)
      continue;
    std::error_code ec;
    if (dir_holds_cudnn(dir.string())) dirs.insert(fs::weakly_canonical(dir, ec).string());
    std::vector<fs::path> below;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec))
      if (it->is_directory(ec)) below.push_back(it->path());  // follows a symlink
    todo.insert(todo.end(), below.rbegin(), below.rend());
  }
  return {dirs.begin(), dirs.end()};
}

struct Candidate {
  std::string dir, module;  // module empty for a search-root find
};

}  // namespace

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
  cmd->add_flag("--prune", o->prune,
                "With --merge: drop the entries whose module is no longer in the module tree "
                "(without it they are kept and listed)");
  cmd->footer(R"(
Lmod is asked through `$LMOD_DIR/spider -o spider-json $MODULEPATH` (its lpathA names each module's
library directories); Environment Modules through `module avail -a --json` and `module display`.
With --modules auto the shell's own system is asked (LMOD_CMD, MODULES_CMD, MODULESHOME, the
`module` function). Hidden modules count, and so do CUDA modules that carry cuDNN in their own
lib64. Every library directory is then probed for its true version and CUDA version: the name of
a module is never trusted. Modules whose library cannot be found or probed are reported on
stderr, not dropped silently; a broken modulefile with the module system's own error. A release
installed in several places (an EasyBuild and a Spack module) is one [[cudnn]] entry whose lib
and module are lists. --search follows symlinked directories at any depth, each directory once.

With --merge the old map is kept as FILE.bak and the changes are listed; the map and its cache are
written atomically. A place of a release the old map already lists is reported, not added (the
admin's entry says where that release lives). Entries whose module left the module tree are kept
and listed; --prune drops them.

Examples:
  cudnn-compat scan -o /etc/cudnn-compat/map.toml
  cudnn-compat scan --search /usr/local --search /opt --merge -o /etc/cudnn-compat/map.toml
  cudnn-compat scan --modules none --search /usr/local/cuda

Exit status: 0 written, 1 nothing found or a write failed, 2 bad usage or no such module system.)");
  cmd->callback([o, &g] {
    std::vector<std::string> problems;
    std::vector<Candidate> candidates;
    std::shared_ptr<std::set<std::string>> in_tree;  // every module listed, when a system was asked
    std::string asked = "none";                      // the module system asked
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
        asked = system->kind;
        const Parsed<std::vector<ModuleLibs>> mods = list_cudnn_modules(*system, modulepath);
        if (!mods) problems.push_back(system->kind + ": " + mods.error);
        in_tree = std::make_shared<std::set<std::string>>();
        for (const ModuleLibs &m : mods ? *mods.value : std::vector<ModuleLibs>{}) {
          in_tree->insert(m.name);
          bool found = false;
          for (const std::string &d : m.lib_dirs)
            if (dir_holds_cudnn(d)) {
              candidates.push_back({d, m.name});
              found = true;
            }
          if (found || !is_cudnn_module(m.name)) continue;  // most CUDA modules carry no cuDNN
          const std::string broken = module_error(*system, modulepath, m);
          problems.push_back("module " + m.name +
                             (broken.empty()
                                  ? ": no libcudnn.so.<major> in what it adds to "
                                    "LD_LIBRARY_PATH" +
                                        (m.lib_dirs.empty() ? std::string(" (nothing)") : "")
                                  : ": its modulefile is broken: " + broken));
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

    // 3. Probe each directory once; modules that share a directory are places of its release.
    std::vector<Installed> scanned;
    std::map<std::string, Parsed<std::vector<Probe>>> probed;  // by canonical directory
    ProbeOptions options = probe_options();
    options.memo = std::make_shared<ProbeMemo>();  // a release copied into many directories
    const bool progress = candidates.size() > 20 && !g.json;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Candidate &c = candidates[i];
      if (progress && (i % 10 == 0 || i + 1 == candidates.size()))
        std::cerr << "scan: probing " << i + 1 << "/" << candidates.size() << ": " << c.dir << '\n';
      std::error_code ec;
      const std::string canonical = fs::weakly_canonical(c.dir, ec).string();
      const bool again = probed.contains(canonical);
      if (!again) probed.emplace(canonical, probe(c.dir, options));
      const Parsed<std::vector<Probe>> &found = probed.at(canonical);
      if (again) {
        if (found)
          for (const Probe &p : *found)
            if (p.source != ProbeSource::filename)
              scanned.push_back({p.version, c.dir, p.cuda, c.module, {}});
        continue;
      }
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
      MergeIo io;
      io.holds_cudnn = dir_holds_cudnn;
      io.canonical = [](const std::string &lib) {
        std::error_code ec;
        return fs::weakly_canonical(lib, ec).string();
      };
      if (in_tree) io.in_tree = [in_tree](const std::string &m) { return in_tree->contains(m); };
      io.prune = o->prune;
      map = merge_scan(*old.map, scanned, io, report);
    } else {
      map.path = o->output.empty() ? "<stdout>" : o->output;
      map.cudnn = scanned;
      group_releases(map.cudnn);
    }
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
                  {"gone", report.gone},
                  {"left_out", report.left_out},
                  {"problems", problems},
                  {"system", asked}});
    } else {
      for (const std::string &s : report.added) std::cerr << "scan: added " << s << '\n';
      for (const std::string &s : report.changed) std::cerr << "scan: changed " << s << '\n';
      for (const std::string &s : report.dropped) std::cerr << "scan: dropped " << s << '\n';
      for (const std::string &s : report.gone) std::cerr << "scan: " << s << '\n';
      for (const std::string &s : report.left_out) std::cerr << "scan: " << s << '\n';
      std::cerr << "scan: "
                << std::ranges::count_if(map.cudnn, [](const Installed &e) { return !e.joined; })
                << " cuDNN release(s) in the map" << (o->output.empty() ? "" : " " + o->output)
                << '\n';
    }
    g.exit_code = map.cudnn.empty() ? kNo : kYes;
  });
}

}  // namespace cudnn_compat::cli
