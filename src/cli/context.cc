#include "cli.h"
#include "decision_inputs.h"
#include "diagnostics.h"
#include "site_contract.h"
#include "text.h"

#include <errno.h>
#include <unistd.h>
#include <filesystem>

namespace cudnn_compat::cli {

LoadedMap load_site_map(const std::string &explicit_path, bool fresh) {
  LoadedMap out;
  const std::optional<std::string> path = explicit_path.empty() ? find_map_path() : explicit_path;
  if (!path) return out;
  out.path = *path;
  MapLoad load = fresh ? read_map_file(*path) : load_map(*path);
  out.map = std::move(load.map);
  out.diagnostics = std::move(load.diagnostics);
  return out;
}

std::string map_not_found_message(bool to_admin) {
  std::string s = "no version map found (looked for";
  for (const std::string &p : map_search_path()) s += " " + p;
  if (!to_admin) return s + "); tell the site's admins";
  const std::string example = example_map_path(install_prefix().value_or(""));
  return s + "); set CUDNN_COMPAT_MAP, pass --map, or write one from " + example;
}

void report_unusable_map(const LoadedMap &m) {
  for (const Diagnostic &d : m.diagnostics) print_diagnostic(d);
  Error() << (m.path.empty() ? map_not_found_message()
                             : m.path + " is invalid; see `cudnn-compat map validate`");
}

std::string pkglib_dir() {
  // Installed and build trees alike: bin/cudnn-compat and lib/cudnn-compat/. Said once when this
  // program cannot find its own file (no /proc, run by a bare name from PATH).
  static const std::optional<std::string> self = [] {
    std::optional<std::string> p = program_path();
    if (!p)
      Note() << "cannot find this program's own file (no /proc/self/exe, and it was run as \"" +
                    std::string(program_invocation_name) +
                    "\", not by a path), nor its helpers beside it; run it by its path";
    return p;
  }();
  if (!self) return "lib/cudnn-compat";
  return (std::filesystem::path(*self).parent_path().parent_path() / "lib" / "cudnn-compat")
      .string();
}

ProbeOptions probe_options() {
  ProbeOptions o;
  o.helper = pkglib_dir() + "/cudnn-compat-probe";
  return o;
}

std::optional<NodeFacts> this_node(const Map *map) {
  return learn_node_facts(node_sources(env, probe_options().helper, 10000, map));
}

std::string program_named(const std::string &given) {
  std::error_code ec;
  if (given.empty() || given.find('/') != std::string::npos || std::filesystem::exists(given, ec))
    return given;
  const std::string path = env("PATH").value_or("");
  for (std::string_view dir : split(path, ':')) {
    const std::filesystem::path file = std::filesystem::path(dir.empty() ? "." : dir) / given;
    if (std::filesystem::is_regular_file(file, ec) && ::access(file.c_str(), X_OK) == 0)
      return file.string();
  }
  return given;
}

bool say_if_program_missing(const std::string &program) {
  std::error_code ec;
  if (program.empty() || std::filesystem::is_regular_file(program, ec)) return false;
  Warn() << "--for " + program +
                (std::filesystem::exists(program, ec) ? ": not a file" : ": no such file") +
                "; what it links and pins is not known";
  return true;
}

std::vector<PythonPlace> active_python_places(const std::vector<std::string> &programs) {
  std::vector<PythonPlace> places =
      active_places(env("VIRTUAL_ENV"), env("CONDA_PREFIX"), programs);
  for (const PythonPlace &p : places) {
    if (p.version) continue;
    // scan --python takes environments: a wheel's site-packages, a conda prefix.
    const std::filesystem::path lib(p.lib);
    const std::filesystem::path env = p.source == Source::wheel
                                          ? lib.parent_path().parent_path().parent_path()
                                          : lib.parent_path();
    Note() << p.note + ", so the cuDNN in " + p.lib +
                  " is not counted here; `cudnn-compat scan --python " + env.string() +
                  "` lists it by its library's own version";
  }
  return places;
}

void decide_on_node(const std::optional<NodeFacts> &node, Need &need, Map *map) {
  if (!node) return;
  if (const std::optional<std::string> why = node_unknown(*node)) {
    Note() << "this node's GPUs and driver are not known (" + *why +
                  "); this answer ignores them. Give them: CUDNN_COMPAT_GPU_ARCH=X.Y[,X.Y...] "
                  "CUDNN_COMPAT_DRIVER_CUDA=X.Y";
    return;
  }
  need.node = node;
  if (map && !node->gpus.empty()) *map = with_device_code(std::move(*map));
}

}  // namespace cudnn_compat::cli
