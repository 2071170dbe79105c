// cudnn-compat module-check: what the Lmod and Environment Modules hooks ask at `module load`.
#include "cli.h"
#include "diagnostics.h"
#include "modules.h"
#include "text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace cudnn_compat::cli {
namespace {

struct Options {
  std::vector<std::string> needs, loaded, command_loaded, command_unloaded;
  std::string map, system;
};

// The hook's module state: its system and loaded modules (NAME=FILE), the rest from the environment
// the module command leaves (EBROOT* variables).
ModuleScene scene_of(const Options &o) {
  ModuleScene scene = module_scene_from_environment();
  if (const std::optional<ModuleSystemKind> asked = parse_module_system(o.system))
    scene.system = *asked;
  scene.loaded.clear();
  for (const std::string &l : o.loaded) {
    const std::size_t eq = l.find('=');
    scene.loaded.push_back({l.substr(0, eq), eq == std::string::npos ? "" : l.substr(eq + 1)});
  }
  scene.command_loaded = o.command_loaded;
  scene.command_unloaded = o.command_unloaded;
  return scene;
}

// A loaded cuDNN module the map does not list (a user's own, in ~/modulefiles) is judged by the
// library it put on LD_LIBRARY_PATH: each directory there that holds cuDNN becomes an entry of
// that module for this check, with the release the map lists there, else the one a probe reports.
// With several such modules, a directory counts for the one whose modulefile names it. Costs a
// probe per directory the map does not list, only when such a module is loaded.
void add_unlisted_modules(Map &map, const ModuleScene &scene) {
  std::vector<const LoadedModule *> unlisted;
  for (const LoadedModule &m : scene.loaded)
    if (is_cudnn_module(m.name) &&
        std::none_of(map.cudnn.begin(), map.cudnn.end(),
                     [&](const Installed &e) { return e.module == m.name; }))
      unlisted.push_back(&m);
  if (unlisted.empty()) return;
  std::error_code ec;
  const ProbeOptions options = probe_options();
  const std::vector<Installed> listed = map.cudnn;
  const std::string path = env("LD_LIBRARY_PATH").value_or("");
  for (std::string_view d : split(path, ':')) {
    const std::string dir(d);
    if (dir.empty() || !dir_holds_cudnn(dir)) continue;
    std::vector<Installed> here;
    for (const Installed &e : listed)
      if (std::filesystem::equivalent(e.lib, dir, ec)) here.push_back(e);
    if (here.empty())
      if (const Parsed<std::vector<Probe>> probes = probe(dir, options))
        for (const Probe &p : *probes.value) here.push_back({p.version, dir, p.cuda, "", {}});
    for (const LoadedModule *m : unlisted) {
      std::ifstream file(m->file);
      const std::string text((std::istreambuf_iterator<char>(file)), {});
      if (unlisted.size() > 1 && text.find(dir) == std::string::npos) continue;
      for (Installed e : here) {
        e.module = m->name, e.joined = false;
        map.cudnn.push_back(e);
      }
    }
  }
}

// How an application's modulefile says what it was built with, in its own module system's
// language (a Lua author is not shown Tcl).
std::string unreadable_hint(std::optional<ModuleSystemKind> system) {
  const bool lua = system != ModuleSystemKind::envmodules;
  return std::string(" (the application's modulefile says which cuDNN it was built with: ") +
         (lua ? "cudnn_requires(\"8.9\")" : "cudnn-requires 8.9") +
         ", or the lines `cudnn-compat modulefiles --format " + (lua ? "lua" : "tcl") +
         " --requires 8.9` prints, which load without the site package too)";
}

// Each release judged or advised as its library reports it, as the shim hands it over and the
// hooks' tables hold it: a map entry that misnames its release (which map validate warns of)
// turned the advice around (an outside tester's finding). Asked: the loaded modules' releases and
// those of the majors needed, a probe each, only where the hooks have no table to read.
// A place whose directory holds no cuDNN library is none to advise, as in the hooks' tables.
Map as_reported_for(const Map &map, const std::vector<AppNeed> &apps, const ModuleScene &scene,
                    std::vector<Installed> &gone) {
  MapCorrections said;
  const Map out = as_their_libraries_report(
      map,
      [&](const Installed &e) {
        return std::any_of(apps.begin(), apps.end(),
                           [&](const AppNeed &a) { return a.cudnn.major == e.version.major; }) ||
               std::any_of(scene.loaded.begin(), scene.loaded.end(),
                           [&](const LoadedModule &l) { return l.name == e.module; });
      },
      probe_options(), said);
  return places_present(out, &gone);
}

int check(const Options &o, const Globals &g) {
  std::vector<AppNeed> apps;
  // A need the check cannot read (a modulefile's `cudnn-requires 9.x`) is said, and the others are
  // still checked: one broken modulefile must not let a misfit through, in strict mode least of
  // all.
  std::vector<ModuleFinding> unreadable;
  for (const std::string &n : o.needs) {
    const Parsed<AppNeed> a = parse_app_need(n);
    if (a) {
      apps.push_back(*a);
    } else if (n.find('=') == std::string::npos || n.starts_with('=')) {
      Error() << a.error;  // not what a hook passes: the caller's mistake
      return kUsage;
    } else {
      // The hint is how a modulefile writes its version: no help for a name it cannot have.
      const std::string name = n.substr(0, n.find('='));
      unreadable.push_back(
          {false,
           "cannot check " + a.error +
               (printable(name) == name ? unreadable_hint(parse_module_system(o.system)) : "")});
    }
  }
  const LoadedMap m = load_site_map(o.map);
  if (!m.map) {
    // Told to a user at `module load`, who can neither pass --map to the hook nor write a map.
    const std::string why =
        m.path.empty() ? map_not_found_message(false) : why_invalid(m.diagnostics, m.path);
    if (g.json)
      print_json({{"map", m.path}, {"findings", nlohmann::json::array()}, {"note", why}});
    else
      std::cout << "note: cannot check the cuDNN modules: " << why << '\n';
    return kYes;
  }
  const ModuleScene scene = scene_of(o);
  std::vector<Installed> gone;
  Map map = as_reported_for(*m.map, apps, scene, gone);
  add_unlisted_modules(map, scene);
  std::vector<ModuleFinding> findings = check_loaded_modules(map, apps, scene, gone);
  findings.insert(findings.begin(), unreadable.begin(), unreadable.end());
  if (g.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const ModuleFinding &f : findings)
      list.push_back({{"severity", f.error ? "error" : "warning"}, {"message", f.message}});
    print_json({{"map", m.path}, {"findings", list}});
  } else {
    for (const ModuleFinding &f : findings)
      std::cout << (f.error ? "error: " : "warning: ") << f.message << '\n';
  }
  return findings.empty() ? kYes : kNo;
}

}  // namespace

void add_module_check(CLI::App &app, Globals &g) {
  auto o = std::make_shared<Options>();
  CLI::App *cmd = app.add_subcommand(
      "module-check", "Check loaded cuDNN modules against loaded applications (for module hooks)");
  cmd->add_option("--need", o->needs, "An application's need: MODULE=VERSION[,cuda=N]")->required();
  cmd->add_option("--loaded", o->loaded,
                  "A loaded module's full name, with its modulefile after '=' when known: "
                  "cudnn/5.0 or jax/0.4=/apps/modules/Compiler/GCC/12.3.0/jax/0.4.lua");
  cmd->add_option("--command-loaded", o->command_loaded,
                  "A module the checked command loaded, in order (repeat the option)");
  cmd->add_option("--command-unloaded", o->command_unloaded,
                  "A module the checked command unloaded (a swap's old module)");
  cmd->add_option("--system", o->system, "The module system that asks: lmod or envmodules")
      ->check(CLI::IsMember({"lmod", "envmodules"}));
  add_map_option(cmd, o->map);
  cmd->footer(R"(
The Lmod hook (share/cudnn-compat/lmod/SitePackage.lua) and the Environment Modules siteconfig
(share/cudnn-compat/envmodules/siteconfig.tcl) run this after each module command. A cuDNN module
is known by the `module` field of its [[cudnn]] entry, so its true version comes from the map, not
from its name; a loaded cuDNN module the map does not list (a user's own) is known by the library
it put on LD_LIBRARY_PATH, probed. Prints one line per misfit, "warning: ..." or, with [policy] on_module_mismatch =
"error", "error: ...", ending in the command that fixes it in that module system: `module swap OLD
NEW` (Lmod) or `module switch OLD NEW` (Environment Modules), never a hidden module, the release of
the application's own toolchain first (EasyBuild: a modulefile under Compiler/, MPI/ or
modules/all/, or its EBROOT<NAME> set; Spack: a hash in its name or an architecture directory).
Under "error" the hook refuses the command, so none of it takes effect: told what the command
loaded and unloaded (--command-loaded, --command-unloaded), the advice starts from the modules
loaded before it: the command again with the fitting cuDNN module in the misfit's place
(`module load tensorflow/1.0 cudnn/5.1`), or the swap and then the command's other loads.
A module inside an Lmod hierarchy (the map's load_first) is advised after its parents
(`module unload cudnn/8.6 && module load gcc/12.2.0 cudnn/8.9`), one the loaded parents reach
first, and a parent that replaces a loaded version is said with its cost. With two applications
loaded, only a release that fits both is advised, else the line says none does. Module names
that are not plain are shell-quoted: the advice is pasted.
A missing or invalid map gives one "note: ..." line and exit 0: a hook must never break `module
load` through its own faults.

Example:
  cudnn-compat module-check --system lmod --need tensorflow/1.0=5.1 --loaded cudnn/5.0 \
    --loaded tensorflow/1.0=/apps/modules/tensorflow/1.0.lua

Exit status: 0 everything fits (or nothing to check), 1 a misfit, 2 bad usage.)");
  cmd->callback([o, &g] { g.exit_code = check(*o, g); });
}

}  // namespace cudnn_compat::cli
