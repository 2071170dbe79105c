#include "decision_inputs.h"
#include "asked_need.h"
#include "node_file.h"
#include "text.h"

#include <fnmatch.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace cudnn_compat {
namespace {

const char *c_str(const std::optional<std::string> &v) {
  return v ? v->c_str() : nullptr;
}

std::optional<std::string> text(cudnn_compat_text t) {
  return t.s ? std::optional<std::string>(std::string(t.s, t.n)) : std::nullopt;
}

std::string source_of(cudnn_compat_need_from from, const char *var, cudnn_compat_text module) {
  // Every line that says where a need came from is one line: a carriage return or an escape in
  // the module's name would rewrite the terminal's (an outside tester's finding).
  return from == CUDNN_COMPAT_NEED_MODULE
             ? "CUDNN_COMPAT_NEEDS (" + printable(std::string_view(module.s, module.n)) + ")"
             : std::string(var);
}

// The flag when given, else what the environment asks; `source` names whichever it was.
std::optional<std::string> flag_or(const std::string &flag, const char *flag_name,
                                   std::optional<std::string> asked, std::string asked_source,
                                   std::string &source) {
  source = flag.empty() ? std::move(asked_source) : flag_name;
  return flag.empty() ? std::move(asked) : flag;
}

}  // namespace

EnvNeed env_need(const EnvReader &read_env) {
  // The module systems' records count only beside a CUDNN_COMPAT_NEEDS, and are read only then,
  // as the shim reads them: every variable read is a line the memo's entry is checked against in
  // each later process.
  const std::optional<std::string> require = read_env("CUDNN_COMPAT_REQUIRE"),
                                   cuda = read_env("CUDNN_COMPAT_CUDA"),
                                   needs = read_env("CUDNN_COMPAT_NEEDS");
  auto beside_needs = [&](const char *name) { return needs ? read_env(name) : std::nullopt; };
  const std::optional<std::string> require_stack =
                                       beside_needs("__LMOD_STACK_CUDNN_COMPAT_REQUIRE"),
                                   cuda_stack = beside_needs("__LMOD_STACK_CUDNN_COMPAT_CUDA"),
                                   require_pushed =
                                       beside_needs("__MODULES_PUSHENV_CUDNN_COMPAT_REQUIRE"),
                                   cuda_pushed =
                                       beside_needs("__MODULES_PUSHENV_CUDNN_COMPAT_CUDA");
  const cudnn_compat_need_env in{c_str(require),       c_str(cuda),       c_str(needs),
                                 c_str(require_stack), c_str(cuda_stack), c_str(require_pushed),
                                 c_str(cuda_pushed)};
  cudnn_compat_asked_need need;
  cudnn_compat_read_need(&in, &need);
  return {text(need.require), source_of(need.require_from, "CUDNN_COMPAT_REQUIRE", need.module),
          text(need.cuda), source_of(need.cuda_from, "CUDNN_COMPAT_CUDA", need.module)};
}

NeedInputs need_inputs(const Asked &asked, const EnvReader &read_env) {
  NeedInputs in;
  EnvNeed from_env = env_need(read_env);
  in.require = flag_or(asked.require, "--require", std::move(from_env.require),
                       std::move(from_env.require_source), in.require_source);
  in.cuda = flag_or(asked.cuda, "--cuda", std::move(from_env.cuda), std::move(from_env.cuda_source),
                    in.cuda_source);
  in.rule = asked.rule;
  in.programs = asked.programs;
  if (asked.requested) in.requested = *asked.requested;
  in.pins = asked.pins;
  return in;
}

PythonSearch python_search(const EnvReader &read_env) {
  PythonSearch s;
  s.pythonpath = read_env("PYTHONPATH");
  s.user_base = read_env("PYTHONUSERBASE");
  s.home = read_env("HOME");
  s.no_user_site = !read_env("PYTHONNOUSERSITE").value_or("").empty();
  return s;
}

LoaderContext loader_context(const std::string &executable, const std::string &requester,
                             const EnvReader &read_env) {
  LoaderContext lc;
  lc.executable = executable;
  lc.requester = requester;
  lc.ld_library_path = read_env("LD_LIBRARY_PATH").value_or("");
  lc.secure = read_env("CUDNN_COMPAT_SECURE").has_value();
  return lc;
}

LoaderContext preloading_context(const std::string &executable, const std::string &requester,
                                 const EnvReader &read_env) {
  LoaderContext lc = loader_context(executable, requester, read_env);
  lc.preloaded = preloaded_objects(read_env("LD_PRELOAD").value_or(""), lc);
  return lc;
}

std::string canonical_dir(const std::string &dir) {
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::weakly_canonical(dir, ec);
  return ec ? std::filesystem::path(dir).lexically_normal().string() : real.string();
}

std::optional<Map> with_places(const Map *map, const std::vector<PythonPlace> &places) {
  if (!map && places.empty()) return std::nullopt;
  Map out = map ? *map : Map{};
  if (!map) out.path = "the active Python environment (no version map)";
  std::vector<std::string> listed;
  for (const Installed &e : out.cudnn) listed.push_back(canonical_dir(e.lib));
  for (const PythonPlace &p : places) {
    const std::string dir = canonical_dir(p.lib);
    // A place whose package gives no release is not weighed unread (its note says so).
    if (!p.version || std::find(listed.begin(), listed.end(), dir) != listed.end()) continue;
    Installed e{*p.version, p.lib, p.cuda, "", {}};
    e.source = p.source;
    e.claimed_in = p.file;
    out.cudnn.push_back(std::move(e));
    listed.push_back(dir);
  }
  return out;
}

Source source_of_hit(const LoaderHit &hit, const Map *map) {
  // As the loader names it: a framework's RUNPATH ($ORIGIN/../../nvidia/cudnn/lib) is read by
  // its text, as the shim reads it.
  const std::string dir = std::filesystem::path(hit.path).parent_path().lexically_normal().string();
  const std::string real = canonical_dir(dir);
  if (map)
    for (const Installed &e : map->cudnn)
      if (canonical_dir(e.lib) == real) return source_of(e);
  if (is_wheel_dir(dir)) return Source::wheel;
  if (is_conda_lib_dir(dir)) return Source::conda;
  const bool system =
      hit.from == "ld.so.cache" || hit.from == "the default directories" || is_system_install(real);
  return system ? Source::system : Source::user;
}

NodeSources node_sources(const EnvReader &read_env, const std::string &helper, int timeout_ms,
                         const Map *map) {
  NodeSources s;
  s.helper = helper;
  s.timeout_ms = timeout_ms;
  s.gpu_arch = read_env("CUDNN_COMPAT_GPU_ARCH").value_or("");
  s.driver_cuda = read_env("CUDNN_COMPAT_DRIVER_CUDA").value_or("");
  s.memo_dir = CUDNN_COMPAT_NODE_DIR_PREFIX + std::to_string(geteuid());
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  // A $SLURMD_NODENAME that cannot be a file's name is passed over, as every reader does.
  const std::optional<std::string> slurm = read_env("SLURMD_NODENAME");
  s.node = slurm && cudnn_compat_node_name_usable(slurm->c_str()) ? *slurm : host;
  for (const NodeEntry &n : map ? map->nodes : std::vector<NodeEntry>{})
    if (fnmatch(n.name.c_str(), s.node.c_str(), 0) == 0) {
      s.map_gpu_arch = n.gpu_arch, s.map_driver_cuda = n.driver_cuda;
      s.map_entry =
          "the map's [[node]] \"" + n.name + "\" (line " + std::to_string(n.pos.line) + ")";
      break;
    }
  return s;
}

SelectInputs select_inputs(const std::string &name, const LibraryName &requested, const Need &need,
                           const std::optional<LoaderHit> &loader, const Map *map) {
  SelectInputs in;
  in.name = name;
  in.requested = requested;
  in.need = need;
  in.loader = loader;
  in.map = map;
  if (loader) in.loader_source = source_of_hit(*loader, map);
  return in;
}

std::vector<KnownLibrary> known_libraries(const std::string &map_path, const FileStamp &stamp,
                                          std::map<std::size_t, ReleaseCode> &codes) {
  const TableRead table = read_table(map_path, TableKind::decide);
  // The map must still be the one the table and the load saw: an edit since is not known.
  if (!table.text || stamp_file(map_path) != stamp) return {};
  codes = table_codes(*table.text);
  return table_libraries(*table.text);
}

SelectIo engine_io(const std::vector<KnownLibrary> &known, const Map *map, bool cuda_needed,
                   std::function<LibraryCheck(const std::string &file)> probe) {
  SelectIo io;
  io.probe = [&known, map, cuda_needed,
              probe = std::move(probe)](const std::string &file) -> LibraryCheck {
    const std::optional<FileStamp> id = map ? stamp_file(file) : std::nullopt;
    if (id)
      if (std::optional<Probe> p = remembered_probe(known, *map, file, *id, cuda_needed);
          p && loadable_here(file) && loadable_here(p->file))
        return p;
    return probe(file);
  };
  io.find_file = find_library_file;
  io.lacks = lacking_subs;
  return io;
}

}  // namespace cudnn_compat
