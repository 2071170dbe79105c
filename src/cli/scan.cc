// cudnn-compat scan: the site's cuDNN modules and installs, probed, as a version map.
#include "cli.h"
#include "diagnostics.h"
#include "modules.h"
#include "read_file.h"
#include "scan_gather.h"
#include "text.h"

#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>

namespace cudnn_compat::cli {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::string modules = "auto", output, modulepath;
  std::vector<std::string> search, python;
  bool merge = false, prune = false, replace = false;
};

// What `scan --help` says after the options.
constexpr const char *kFooter = R"(
Lmod is asked through `$LMOD_DIR/spider -o spider-json $MODULEPATH` (its lpathA names each module's
library directories); Environment Modules through `module avail -a --json` and `module display`.
With --modules auto the shell's own system is asked (LMOD_CMD, MODULES_CMD, MODULESHOME, the
`module` function). Hidden modules count, and so do CUDA modules that carry cuDNN in their own
lib64. Every library directory is then probed for its true version and CUDA version: the name of
a module is never trusted. Modules whose library cannot be found or probed are reported on
stderr, not dropped silently; a broken modulefile with the module system's own error. A release
installed in several places (an EasyBuild and a Spack module) is one [[cudnn]] entry whose lib
and module are lists. --search follows symlinked directories at any depth, each directory once.

--python DIR finds the Python environments under DIR (a virtualenv, a conda installation with its
envs/, a directory of many): a wheel's cuDNN in <site-packages>/nvidia/cudnn/lib, its version from
the nvidia_cudnn_cu<N>-<version>.dist-info/METADATA beside it, and a conda environment's in
<prefix>/lib, its version from conda-meta/cudnn-<version>-<build>.json. Each is probed like any
other directory and listed with source = "wheel" or "conda" (the package's own version, with its
build number, where the library agrees with it).

An existing map at -o is never replaced by a plain scan: it holds the admin's policy and rules.
Fold the scan into it with --merge, or replace it with --replace. With --merge or --replace the old
map is kept as FILE.bak (or .bak.1, .2, ...: no backup is overwritten); with --merge the changes
are listed; the map and its cache are written atomically. A place of a release the old map already
lists is reported, not added (the admin's entry says where that release lives). Entries whose
module left the module tree are kept and listed; --prune drops them. An entry whose module is in
the tree but whose directory holds no cuDNN now (missing or unreadable) is kept as it was, and
listed. A hand_out the map says stays; comments stay beside their lines (those whose line is gone
are in the backup, and scan says so).

Examples:
  cudnn-compat scan -o /etc/cudnn-compat/map.toml
  cudnn-compat scan --search /usr/local --search /opt --merge -o /etc/cudnn-compat/map.toml
  cudnn-compat scan --modules none --search /usr/local/cuda
  cudnn-compat scan --python /opt/conda --python /shared/venvs --merge -o /etc/cudnn-compat/map.toml

Exit status: 0 written, 1 nothing found (then nothing is written: an existing -o map stays as it
was), an existing map that differs met without --merge or --replace, a write failed, or the map written is one every reader refuses (its directory writable by
others: see trusted_group; the map is kept), 2 bad usage or no such module system.)";

std::string canonical(const std::string &path) {
  std::error_code ec;
  return fs::weakly_canonical(path, ec).string();
}

// What the module system was asked, and what it lists.
struct Listed {
  std::vector<ScanModule> modules;
  std::optional<ModuleSystem> system;
  std::string modulepath, asked = "none";
  std::shared_ptr<std::set<std::string>> in_tree;  // every module listed, when a system was asked
  std::shared_ptr<std::map<std::string, ModuleLibs>> as_listed;  // by name
};

// The module system's cuDNN modules; nullopt when the system asked for is not here.
std::optional<Listed> modules_to_scan(const Options &o, std::vector<std::string> &problems) {
  Listed out;
  if (o.modules == "none") return out;
  out.system = find_module_system(parse_module_system(o.modules));
  out.modulepath = o.modulepath.empty() ? env("MODULEPATH").value_or("") : o.modulepath;
  if (!out.system && o.modules != "auto") {
    const ModuleSystemKind kind = *parse_module_system(o.modules);
    Error() << "no " << (kind == ModuleSystemKind::lmod ? "Lmod" : "Environment Modules")
            << " here (looked for " << module_system_places(kind) << ")";
    return std::nullopt;
  }
  if (out.system && out.modulepath.empty()) {
    problems.push_back("MODULEPATH is empty: no module tree to scan (use --modulepath)");
  } else if (out.system) {
    out.asked = to_string(out.system->kind);
    const Parsed<std::vector<ModuleLibs>> mods = list_cudnn_modules(*out.system, out.modulepath);
    if (!mods) problems.push_back(out.asked + ": " + mods.error);
    out.in_tree = std::make_shared<std::set<std::string>>();
    out.as_listed = std::make_shared<std::map<std::string, ModuleLibs>>();
    for (const ModuleLibs &m : mods ? *mods.value : std::vector<ModuleLibs>{}) {
      out.in_tree->insert(m.name);
      out.as_listed->emplace(m.name, m);
      out.modules.push_back({m.name, m.lib_dirs, is_cudnn_module(m.name), m.hidden, m.load_first});
    }
  }
  return out;
}

ScanIo system_scan_io(bool progress, const Listed &listed) {
  ProbeOptions options = probe_options();
  options.memo = std::make_shared<ProbeMemo>();  // a release copied into many directories
  ScanIo io;
  io.holds_cudnn = dir_holds_cudnn;
  io.canonical = canonical;
  io.walk = find_cudnn_dirs;
  io.python_walk = find_python_places;
  io.probe = [options](const std::string &dir) { return probe(dir, options); };
  io.progress = [progress](std::size_t i, std::size_t n, const std::string &dir) {
    if (progress && n > 20 && (i % 10 == 0 || i + 1 == n))
      std::cerr << "scan: probing " << i + 1 << "/" << n << ": " << dir << '\n';
  };
  if (listed.system)
    io.module_error = [system = *listed.system, path = listed.modulepath,
                       as_listed = listed.as_listed](const ScanModule &m) {
      return module_error(system, path, as_listed->at(m.name));
    };
  return io;
}

// 4. The map: fresh, or folded into the admin's; nullopt (and the exit code) when it cannot be.
std::optional<Map> scanned_map(const Options &o, const Listed &listed,
                               const std::vector<Installed> &scanned, MergeReport &report,
                               int &exit_code) {
  if (!o.merge) {
    Map map;
    map.path = o.output.empty() ? "<stdout>" : o.output;
    map.cudnn = scanned;
    group_releases(map.cudnn);
    leave_out_module_conflicts(map.cudnn, report.left_out);
    return map;
  }
  if (o.output.empty()) {
    Error() << "--merge needs -o FILE: the map to fold the scan into";
    exit_code = kUsage;
    return std::nullopt;
  }
  const LoadedMap old = load_site_map(o.output, true);
  if (!old.map) {
    for (const Diagnostic &d : old.diagnostics) print_diagnostic(d);
    Error() << o.output +
                   " is not a valid map; fix it (cudnn-compat map validate) or scan "
                   "without --merge";
    exit_code = kNo;
    return std::nullopt;
  }
  // The merged map is written from what this version reads: a key it does not know would vanish.
  bool unknown = false;
  for (const Diagnostic &d : old.diagnostics)
    if (d.message.starts_with(kUnknownKey)) {
      print_diagnostic(d);
      unknown = true;
    }
  if (unknown) {
    Error() << "scan --merge would drop what " << o.output
            << " holds that this cudnn-compat does not know (above); nothing written: remove "
               "or rename it first, or merge with the cudnn-compat that wrote it";
    exit_code = kNo;
    return std::nullopt;
  }
  MergeIo io{dir_holds_cudnn, canonical, {}, o.prune};
  if (listed.in_tree)
    io.in_tree = [in_tree = listed.in_tree](const std::string &m) { return in_tree->contains(m); };
  return merge_scan(*old.map, scanned, io, report);
}

// The directory -o names, made when it is not there (the first map of a fresh install goes into
// /etc/cudnn-compat): each missing level 0755 whatever the umask, as the package's own directories
// and as the map itself is 0644 (atomic_write.cc): a root umask of 077 would hide the map from
// every job. Said on stderr. The error, or "".
std::string make_map_directory(const std::string &output) {
  std::error_code ec;
  const fs::path dir = fs::absolute(output, ec).parent_path();
  std::vector<fs::path> missing;
  for (fs::path d = dir; !d.empty() && !fs::exists(d, ec); d = d.parent_path()) {
    missing.push_back(d);
    if (d == d.parent_path()) break;
  }
  for (auto d = missing.rbegin(); d != missing.rend(); ++d) {
    if (::mkdir(d->c_str(), 0755) == 0)
      ::chmod(d->c_str(), 0755);  // ours: the umask took its bits off
    else if (errno != EEXIST)
      return "cannot create the directory " + d->string() + " for the map: " + std::strerror(errno);
  }
  if (!missing.empty()) Note() << "created the directory " + dir.string() + " for the map";
  return "";
}

// Where the map replaced or merged into is kept: FILE.bak, unless that holds another text (an
// earlier scan's backup of the admin's own map), then FILE.bak.1, .2, ...: a second --replace
// overwrote the only copy of what the admin wrote (helper 109).
std::string backup_name(const std::string &file) {
  const std::optional<std::string> now = read_regular_file(file, std::size_t(64) << 20);
  std::string bak = file + ".bak";
  // A link or other non-file at the name is replaced, never followed (copy_file_atomically).
  const auto kept = [&](const std::string &b) {
    std::error_code ec;
    return fs::is_regular_file(fs::symlink_status(b, ec)) &&
           read_regular_file(b, std::size_t(64) << 20) != now;
  };
  for (int n = 1; kept(bak); ++n) bak = file + ".bak." + std::to_string(n);
  return bak;
}

// 5. The map to -o (with its derived files) or stdout; false when it could not be written.
// False when the map could not be written; `refused` gets why every reader refuses the map
// written (its place: a directory others may write), which `map validate` would reject too.
// `comments_lost`: some comments of the map merged into had no line of the merged map to go with.
bool write_out(const Options &o, const Globals &g, const std::string &text, bool comments_lost,
               std::string &refused) {
  if (o.output.empty()) {
    if (!g.json) std::cout << text;
    return true;
  }
  if (const std::string why = make_map_directory(o.output); !why.empty()) {
    Error() << why;
    return false;
  }
  // A map already there is the admin's (its [policy], [[require]] rules, comments): replaced only
  // when asked, and then kept as FILE.bak (helper 105 r08: a plain `scan -o` dropped them all).
  std::error_code ec;
  const bool replaces = !o.merge && fs::file_size(o.output, ec) > 0 && !ec &&
                        read_regular_file(o.output, text.size() + 1) != text;
  if (replaces && !o.replace) {
    Error() << "scan: " << o.output
            << " already holds a map, which this scan would replace, with its [policy], "
               "[[require]] rules and comments; nothing written. Fold the scan into it: "
               "cudnn-compat scan --merge -o "
            << o.output << " (or replace it, kept as " << o.output << ".bak: --replace)";
    return false;
  }
  const std::string bak = backup_name(o.output);
  std::string why = o.merge || replaces ? copy_file_atomically(o.output, bak) : "";
  if (why.empty() && replaces && !o.merge) Note() << "the map it replaces is kept as " << bak;
  // Named whenever written: an admin looking for what a merge changed finds the map before it.
  if (why.empty() && o.merge)
    Note() << (comments_lost ? "comments of " + o.output +
                                   " whose line the merged map no longer has are not in it; the "
                                   "map merged into, with them, is kept as "
                             : "the map merged into is kept as ")
           << bak;
  if (why.empty()) why = write_file_through_link(o.output, text);
  if (!why.empty()) {
    Error() << why;
    return false;
  }
  // The derived files; where they cannot be written, jobs parse the TOML and hooks ask.
  const MapLoad written = read_map_file(o.output);
  if (!written.map && !written.diagnostics.empty()) {
    refused = why_invalid(written.diagnostics, o.output);
    return true;
  }
  why = write_job_caches(written, probe_options().helper);
  if (!why.empty()) Note() << why;
  return true;
}

void print_report(const Options &o, const Globals &g, const Map &map, const MergeReport &report,
                  const std::vector<std::string> &problems, const std::string &asked,
                  const nlohmann::json &system_command) {
  if (g.json) {
    nlohmann::json entries = nlohmann::json::array();
    for (const Installed &e : map.cudnn) entries.push_back(json_of(e));
    print_json({{"map", o.output.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.output)},
                {"cudnn", entries},
                {"added", report.added},
                {"changed", report.changed},
                {"dropped", report.dropped},
                {"gone", report.gone},
                {"unreadable", report.unreadable},
                {"left_out", report.left_out},
                {"problems", problems},
                {"system", asked},
                {"system_command", system_command}});
    return;
  }
  for (const std::string &s : report.added) std::cerr << "scan: added " << s << '\n';
  for (const std::string &s : report.changed) std::cerr << "scan: changed " << s << '\n';
  for (const std::string &s : report.dropped) std::cerr << "scan: dropped " << s << '\n';
  for (const std::string &s : report.gone) std::cerr << "scan: " << s << '\n';
  for (const std::string &s : report.unreadable) std::cerr << "scan: " << s << '\n';
  for (const std::string &s : report.left_out) std::cerr << "scan: " << s << '\n';
  std::cerr << "scan: " << release_count(map) << " cuDNN release(s) in the map"
            << (o.output.empty() ? "" : " " + o.output) << '\n';
}

// Which module system was asked, and how: with --modules auto it is the shell's own (or the first
// found), and an admin who has both must be able to tell which tree became the map.
void say_system(const Options &o, const Listed &listed) {
  if (o.modules == "none") return;
  if (!listed.system)
    std::cerr << "scan: no module system found (no $LMOD_DIR/spider, $MODULES_CMD or Debian's "
                 "modulecmd.tcl); only --search directories are scanned\n";
  else
    std::cerr << "scan: asked "
              << (listed.system->kind == ModuleSystemKind::lmod ? "Lmod" : "Environment Modules")
              << " (" << listed.system->command << ") about MODULEPATH=" << listed.modulepath
              << '\n';
}

int scan(const Options &o, const Globals &g) {
  std::vector<std::string> problems;
  const std::optional<Listed> listed = modules_to_scan(o, problems);
  if (!listed) return kUsage;
  if (!g.json) say_system(o, *listed);
  for (const std::string &root : o.search) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec))
      problems.push_back("--search " + root + ": no such directory (not mounted?)");
  }
  ScanFound found =
      gather_scan(listed->modules, o.search, system_scan_io(!g.json, *listed), o.python);
  problems.insert(problems.end(), found.problems.begin(), found.problems.end());
  // A scan that found nothing (an empty MODULEPATH under cron, a tree not mounted) says nothing
  // about what is installed: the map it would replace, and its admin's edits, stay.
  // On stdout too: an empty map printed is one redirected over a good map's place.
  if (found.scanned.empty()) {
    for (const std::string &p : problems) Warn() << "scan: " << p;
    std::error_code ec;
    Error() << "scan: found no cuDNN; "
            << (o.output.empty()                        ? "no map printed"
                : std::filesystem::exists(o.output, ec) ? o.output + " is left as it was"
                                                        : "nothing written to " + o.output);
    return kNo;
  }
  MergeReport report;
  int exit_code = kYes;
  std::optional<Map> map = scanned_map(o, *listed, found.scanned, report, exit_code);
  if (!map) return exit_code;
  if (!o.merge)
    for (const Installed &e : map->cudnn)
      report.added.push_back(to_string(e.version) + " " + e.lib);
  for (const std::string &p : problems) Warn() << "scan: " << p;
  CarriedComments carried{format_map(*map)};
  if (o.merge)  // what the admin wrote beside the keys the map keeps stays beside them
    carried = carry_comments(read_regular_file(o.output, std::size_t(64) << 20).value_or(""),
                             carried.text);
  const std::string &text = carried.text;
  // The last guard: jobs, hooks and resolve would all refuse what validate rejects.
  if (const MapLoad check = parse_map(text, map->path); !check.map) {
    for (const Diagnostic &d : check.diagnostics) print_diagnostic(d);
    Error() << "scan: the map found would not validate; nothing written";
    return kNo;
  }
  std::string refused;
  if (!write_out(o, g, text, carried.lost, refused)) return kNo;
  // Written, and kept (nothing the scan found is lost), but no job or hook would read it.
  if (!refused.empty()) {
    Error() << refused;
    problems.push_back(refused);
  }
  print_report(o, g, *map, report, problems, listed->asked,
               listed->system && listed->asked != "none" ? nlohmann::json(listed->system->command)
                                                         : nlohmann::json(nullptr));
  return map->cudnn.empty() || !refused.empty() ? kNo : kYes;
}

}  // namespace

void add_scan(CLI::App &app, Globals &g) {
  auto o = std::make_shared<Options>();
  CLI::App *cmd = app.add_subcommand(
      "scan", "Find every cuDNN the site offers, probe its true version, write the map");
  cmd->add_option("--modules", o->modules, "Module system to ask: auto, lmod, envmodules, none")
      ->check(CLI::IsMember({"auto", "lmod", "envmodules", "none"}));
  cmd->add_option("--modulepath", o->modulepath, "Module tree(s), colon-separated ($MODULEPATH)");
  cmd->add_option("--search", o->search,
                  "Also walk this directory for cuDNN installed without a module (repeatable)")
      ->type_name("DIR");
  cmd->add_option("--python", o->python,
                  "Also find the cuDNN of the Python environments under this directory: pip "
                  "wheels (site-packages/nvidia/cudnn/lib) and conda envs (repeatable)")
      ->type_name("DIR");
  cmd->add_option("-o,--output", o->output, "Write the map here (default: print it)")
      ->type_name("FILE");
  cmd->add_flag("--merge", o->merge,
                "Fold the scan into the existing map at -o: keeps its policy, [[require]] rules "
                "and hand-written entries");
  cmd->add_flag("--replace", o->replace,
                "Without --merge: replace the map already at -o (kept as FILE.bak); without "
                "either, an existing map that differs is left as it is");
  cmd->add_flag("--prune", o->prune,
                "With --merge: drop the entries whose module is no longer in the module tree "
                "(without it they are kept and listed)");
  cmd->footer(kFooter);
  cmd->callback([o, &g] { g.exit_code = scan(*o, g); });
}

}  // namespace cudnn_compat::cli
