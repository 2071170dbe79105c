// The one decision of which module command fixes a need, for every place that advises one (the
// hooks through module-check, explain, doctor, resolve): `module load X` alone fails on a conflict
// under Environment Modules and, under Lmod, loads X beside the misfit when the two share no
// family.
#include "decide.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat {
namespace {

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// The last '-' separated word of a module's version: Spack's hash when there is one.
std::string_view last_word(std::string_view name) {
  const std::size_t dash = name.rfind('-'), slash = name.rfind('/');
  return dash == std::string_view::npos || (slash != std::string_view::npos && dash < slash)
             ? std::string_view()
             : name.substr(dash + 1);
}

// EasyBuild names an installation's root EBROOT<NAME>: the name upper-cased, '-' as "MIN".
std::string ebroot_of(std::string_view module) {
  std::string out = "EBROOT";
  for (char c : module.substr(0, module.find('/')))
    out += c == '-' ? std::string("MIN") : std::string(1, char(std::toupper((unsigned char)c)));
  return out;
}

// A module of the map, else one whose name is a cuDNN module name: its release's major, if known.
std::optional<std::optional<int>> cudnn_major(const Map *map, const std::string &name) {
  if (map)
    for (const Installed &e : map->cudnn)
      if (e.module == name) return std::optional<int>(e.version.major);
  if (const Parsed<ModuleName> m = parse_module_name(name))
    return std::optional<int>(m->cudnn.major);
  return std::nullopt;
}

}  // namespace

Toolchain release_toolchain(const Installed &e) {
  const std::string lib = lower(e.lib);
  if (has(e.module, "-CUDA-") || has(lib, "/easybuild/")) return Toolchain::easybuild;
  if (is_spack_hash(last_word(e.module)) || has(lib, "/spack/")) return Toolchain::spack;
  return Toolchain::none;
}

Toolchain app_toolchain(const ModuleScene &scene, std::string_view module) {
  std::string file;
  for (const LoadedModule &m : scene.loaded)
    if (m.name == module) file = m.file;
  // Spack's trees sit under an architecture directory (linux-rhel8-x86_64); EasyBuild's
  // hierarchy under Core/, Compiler/<toolchain>/, MPI/..., its flat tree under modules/all/.
  if (is_spack_hash(last_word(module)) || has(file, "/linux-") || has(file, "/spack/"))
    return Toolchain::spack;
  if (has(file, "/Compiler/") || has(file, "/MPI/") || has(file, "/modules/all/") ||
      std::find(scene.ebroots.begin(), scene.ebroots.end(), ebroot_of(module)) !=
          scene.ebroots.end())
    return Toolchain::easybuild;
  return Toolchain::none;
}

std::string loaded_cudnn_module(const ModuleScene &scene, const Map *map,
                                std::optional<int> major) {
  std::string last;
  for (const LoadedModule &m : scene.loaded) {
    const std::optional<std::optional<int>> of = cudnn_major(map, m.name);
    if (!of) continue;
    if (major && *of == major) return m.name;
    last = m.name;
  }
  return last;
}

namespace {

bool among(const std::vector<std::string> &list, const std::string &name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// A module's name without its version (gcc of gcc/12.2.0): a module system loads one of each.
std::string_view name_of(std::string_view module) {
  return module.substr(0, module.rfind('/'));
}

// The modules loaded where the advice starts: after a refusal, those loaded before the command
// (its loads gone, its unloads undone).
std::vector<std::string> loaded_at_start(const ModuleScene &scene) {
  std::vector<std::string> out;
  for (const LoadedModule &m : scene.loaded)
    if (!scene.refused || !among(scene.command_loaded, m.name)) out.push_back(m.name);
  if (scene.refused)
    for (const std::string &m : scene.command_unloaded)
      if (!among(out, m)) out.push_back(m);
  return out;
}

}  // namespace

std::string parent_swap(const ModuleScene &scene, const Installed &e) {
  // After a refusal, what the command loaded too: the user meant to have it.
  std::vector<std::string> loaded = loaded_at_start(scene);
  if (scene.refused)
    loaded.insert(loaded.end(), scene.command_loaded.begin(), scene.command_loaded.end());
  std::string in, out;
  for (const std::string &p : e.load_first)
    for (const std::string &m : loaded)
      if (m != p && name_of(m) == name_of(p) && !among(loaded, p)) {
        in += (in.empty() ? "" : " ") + p;
        out += (out.empty() ? "" : " ") + m;
      }
  if (in.empty()) return "";
  return "it loads " + in + " in place of " + out + ": modules loaded for " + out +
         " go inactive unless built for " + in + " too";
}

bool reachable(const ModuleScene &scene, const Installed &e) {
  const std::vector<std::string> loaded = loaded_at_start(scene);
  return std::all_of(e.load_first.begin(), e.load_first.end(),
                     [&](const std::string &m) { return among(loaded, m); });
}

// The advice is one command line: what leaves (the misfit, or after a refusal the cuDNN module a
// refused swap took out: loaded again), the modules the new one needs loaded first (an Lmod
// hierarchy's parents: a swap to a module not on MODULEPATH fails, so the old one is unloaded
// and the parents loaded in one `module load`), and after a refusal the command's other loads
// (the framework), none of which happened. Every module name is a shell word: the line is pasted.
// "" when nothing is to be run: the refusal left the fitting module loaded.
std::string module_command(const ModuleScene &scene, const Map *map, const std::string &old_module,
                           const Installed &to) {
  const std::string &module = to.module;
  std::string leaves = old_module;
  std::vector<std::string> loads;
  if (scene.refused && !old_module.empty()) {
    for (const std::string &m : scene.command_loaded)
      if (m != old_module && m != module && !among(scene.command_unloaded, m)) loads.push_back(m);
    if (among(scene.command_loaded, old_module)) {
      ModuleScene before;
      for (const std::string &m : scene.command_unloaded) before.loaded.push_back({m, ""});
      leaves = loaded_cudnn_module(before, map, std::nullopt);
    }
  }
  const bool still_loaded = scene.refused && leaves == module;
  if (leaves == module) leaves.clear();
  const std::vector<std::string> loaded = loaded_at_start(scene);
  std::vector<std::string> first;
  for (const std::string &m : to.load_first)
    if (!among(loaded, m) && !among(loads, m)) first.push_back(m);
  // A load of another version of a parent (the refused command's gcc/11.3.0 beside gcc/12.2.0)
  // would swap it out again: a module system loads one version of a name.
  std::vector<std::string> load_line = first;
  for (const std::string &m : loads)
    if (std::none_of(first.begin(), first.end(),
                     [&](const std::string &p) { return name_of(p) == name_of(m); }))
      load_line.push_back(m);
  if (still_loaded && load_line.empty()) return "";
  const auto words = [](const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names) out += (out.empty() ? "" : " ") + shell_word(n);
    return out;
  };
  if (leaves.empty() || !first.empty()) {
    load_line.push_back(module);
    return (leaves.empty() ? "" : "module unload " + shell_word(leaves) + " && ") + "module load " +
           words(load_line);
  }
  return std::string(scene.system == ModuleSystemKind::envmodules ? "module switch "
                                                                  : "module swap ") +
         shell_word(leaves) + " " + shell_word(module) +
         (loads.empty() ? "" : " && module load " + words(loads));
}

std::vector<std::size_t> advised_releases(const Map &map, const Need &need,
                                          const LibraryName &requested, const ModuleScene &scene,
                                          Toolchain app) {
  std::vector<std::size_t> out;
  for (std::size_t i : rank(map, need, requested))
    if (!map.cudnn[i].module.empty()) out.push_back(i);
  if (app != Toolchain::none)
    std::stable_partition(out.begin(), out.end(),
                          [&](std::size_t i) { return release_toolchain(map.cudnn[i]) == app; });
  // One the loaded modules reach before one behind another compiler: that swap would take the
  // application's own toolchain away.
  std::stable_partition(out.begin(), out.end(),
                        [&](std::size_t i) { return reachable(scene, map.cudnn[i]); });
  return out;
}

}  // namespace cudnn_compat
