// cudnn-compat module-check: what the Lmod and Environment Modules hooks ask at `module load`.
#include "cli.h"
#include "diagnostics.h"

#include <iostream>

namespace cudnn_compat::cli {

void add_module_check(CLI::App &app, Globals &g) {
  struct Options {
    std::vector<std::string> needs, loaded;
    std::string map;
  };
  auto o = std::make_shared<Options>();
  CLI::App *cmd = app.add_subcommand(
      "module-check", "Check loaded cuDNN modules against loaded applications (for module hooks)");
  cmd->add_option("--need", o->needs, "An application's need: MODULE=VERSION[,cuda=N]")->required();
  cmd->add_option("--loaded", o->loaded, "A loaded module's full name, e.g. cudnn/5.0");
  cmd->add_option("--map", o->map, "The map (default: $CUDNN_COMPAT_MAP, then the installed map)");
  cmd->footer(R"(
The Lmod hook (share/cudnn-compat/lmod/SitePackage.lua) and the Environment Modules siteconfig
(share/cudnn-compat/envmodules/siteconfig.tcl) run this after each module command. A cuDNN module
is known by the `module` field of its [[cudnn]] entry, so its true version comes from the map, not
from its name. Prints one line per misfit, "warning: ..." or, with [policy] on_module_mismatch =
"error", "error: ...". A missing or invalid map gives one "note: ..." line and exit 0: a hook must
never break `module load` through its own faults.

Example:
  cudnn-compat module-check --need tensorflow/1.0=5.1 --loaded cudnn/5.0 --loaded tensorflow/1.0

Exit status: 0 everything fits (or nothing to check), 1 a misfit, 2 bad usage.)");
  cmd->callback([o, &g] {
    std::vector<AppNeed> apps;
    for (const std::string &n : o->needs) {
      const Parsed<AppNeed> a = parse_app_need(n);
      if (!a) {
        Error() << a.error;
        g.exit_code = kUsage;
        return;
      }
      apps.push_back(*a);
    }
    const LoadedMap m = load_site_map(o->map);
    if (!m.map) {
      const std::string why = m.path.empty()          ? map_not_found_message()
                              : m.diagnostics.empty() ? m.path + " is invalid"
                                                      : to_string(m.diagnostics.front());
      if (g.json)
        print_json({{"map", m.path}, {"findings", nlohmann::json::array()}, {"note", why}});
      else
        std::cout << "note: cudnn-compat cannot check the cuDNN modules: " << why << '\n';
      return;
    }
    const std::vector<ModuleFinding> findings = check_loaded_modules(*m.map, apps, o->loaded);
    if (g.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const ModuleFinding &f : findings)
        list.push_back({{"severity", f.error ? "error" : "warning"}, {"message", f.message}});
      print_json({{"map", m.path}, {"findings", list}});
    } else {
      for (const ModuleFinding &f : findings)
        std::cout << (f.error ? "error: " : "warning: ") << f.message << '\n';
    }
    g.exit_code = findings.empty() ? kYes : kNo;
  });
}

}  // namespace cudnn_compat::cli
