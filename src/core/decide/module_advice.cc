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

std::string module_command(const ModuleScene &scene, const std::string &old_module,
                           const std::string &module) {
  if (old_module.empty() || old_module == module) return "module load " + module;
  return std::string(scene.system == ModuleSystemKind::envmodules ? "module switch "
                                                                  : "module swap ") +
         old_module + " " + module;
}

std::vector<std::size_t> advised_releases(const Map &map, const Need &need,
                                          const LibraryName &requested, Toolchain app) {
  std::vector<std::size_t> out;
  for (std::size_t i : rank(map, need, requested))
    if (!map.cudnn[i].module.empty()) out.push_back(i);
  if (app != Toolchain::none)
    std::stable_partition(out.begin(), out.end(),
                          [&](std::size_t i) { return release_toolchain(map.cudnn[i]) == app; });
  return out;
}

}  // namespace cudnn_compat
