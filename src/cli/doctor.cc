// cudnn-compat doctor: the environment as the loader will see it, like libtree for cuDNN.
#include "cli.h"
#include "text.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace cudnn_compat::cli {
namespace {

namespace fs = std::filesystem;

const char *severity_name(Severity3 s) {
  return s == Severity3::problem ? "problem" : s == Severity3::warning ? "warning" : "ok";
}

// The CUDA major of an installation: its version.json (CUDA 11.1 on), version.txt (before), else
// the major of the libcudart.so.<major> it holds.
std::optional<int> cuda_major_of_home(const fs::path &home) {
  std::ifstream json(home / "version.json");
  // "12.2.20230823", "11.0.228": major.minor is what counts.
  const auto major_of = [](const std::string &v) -> std::optional<int> {
    const Parsed<Version> p = parse_cuda(v.substr(0, v.find('.', v.find('.') + 1)));
    return p ? std::optional<int>(p->major) : std::nullopt;
  };
  if (json) {
    const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_object() && j.contains("cuda") && j["cuda"].is_object() &&
        j["cuda"].contains("version") && j["cuda"]["version"].is_string())
      if (const std::optional<int> major = major_of(j["cuda"]["version"].get<std::string>()))
        return major;
  }
  std::ifstream txt(home / "version.txt");
  std::string word, version;
  while (txt >> word)
    if (word == "Version" && txt >> version)
      if (const std::optional<int> major = major_of(version)) return major;
  for (const char *lib : {"lib64", "lib"}) {
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(home / lib, ec)) {
      const std::string name = e.path().filename().string();
      if (name.starts_with("libcudart.so."))
        if (const std::optional<std::int64_t> major = parse_uint(split(name, '.')[2]))
          return int(*major);
    }
  }
  return std::nullopt;
}

// The loaded CUDA: a cuda module (cuda/12.2, CUDA/12.2.0, Spack's cuda/12.2.0-abcdefg), else the
// installation CUDA_HOME (or CUDA_PATH) names.
void loaded_cuda(DoctorFacts &f) {
  for (const std::string &mod : f.modules) {
    const std::size_t slash = mod.find('/');
    if (slash == std::string::npos || lower(mod.substr(0, slash)) != "cuda") continue;
    const std::string version = mod.substr(slash + 1, mod.find('-', slash) - slash - 1);
    if (const Parsed<Version> v = parse_cuda(version)) {
      f.cuda_major = v->major;
      f.cuda_from = "module " + mod;
    }
  }
  if (f.cuda_major) return;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const std::optional<std::string> home = env(var))
      if (const std::optional<int> major = cuda_major_of_home(*home)) {
        f.cuda_major = major;
        f.cuda_from = std::string(var) + "=" + *home;
        return;
      }
}

}  // namespace

Selection shim_selection(const Need &need, const std::string &name,
                         const std::optional<LoaderHit> &loader, const Map &map,
                         const ProbeOptions &options) {
  SelectInputs in;
  in.name = name;
  in.requested = *parse_library_name(in.name);
  in.need = need;
  in.loader = loader;
  in.map = &map;
  SelectIo io;
  io.probe = [&options](const std::string &file) { return probe_library(file, options); };
  io.find_file = find_library_file;
  return select_library(in, io);
}

void add_doctor(CLI::App &app, Globals &g) {
  struct Options {
    std::string require, cuda, program, map;
    bool nodes = false, node_report = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App *cmd = app.add_subcommand(
      "doctor", "Check this environment: which cuDNN each program will really load, and why");
  cmd->add_option("--require", o->require, "The cuDNN the program was built with, e.g. 5.1");
  cmd->add_option("--cuda", o->cuda, "The CUDA major it needs");
  cmd->add_option("--for", o->program, "The program: its RUNPATH/RPATH and linked cuDNN count");
  cmd->add_option("--map", o->map, "The map (default: $CUDNN_COMPAT_MAP, then the installed map)");
  cmd->add_flag("--nodes", o->nodes,
                "Inside a Slurm allocation: ask every node of it (srun, one task per node) and "
                "print one table; exit 1 when a node misfits or the nodes' maps differ");
  cmd->add_flag("--node-report", o->node_report, "One node's answer for --nodes")->group("");
  cmd->footer(R"(
Reads the loaded modules (LOADEDMODULES, Lmod and Environment Modules alike), probes every
directory on LD_LIBRARY_PATH that holds cuDNN for its true version, and follows the loader's real
order (RPATH, LD_LIBRARY_PATH, RUNPATH of --for, ld.so.cache, default directories) to the file
each libcudnn.so.<major> becomes. Then: whether it fits what the program needs (--require,
CUDNN_COMPAT_REQUIRE or a [[require]] rule of the map), mixed families (a sub-library the
dispatcher would take from another directory), several releases of one major on the path, a cuDNN
built for another CUDA major than the loaded CUDA, and whether the shim is on.

With --nodes, inside a Slurm allocation (salloc, sbatch), every node of it answers for itself, in
one task per node: its map's digest (equal maps, equal digests, comments aside), the file
libcudnn.so.<major> of the requirement resolves to there with the shim on, whether it fits, and the
verdict. The table names a node that misfits and a node whose map differs from most nodes'.

Examples:
  cudnn-compat doctor --require 5.1
  salloc -N4 cudnn-compat doctor --nodes --require 5.1
  cudnn-compat doctor --for /opt/apps/tensorflow/1.0/bin/python
  cudnn-compat --json doctor

Exit status: 0 nothing wrong (warnings allowed), 1 a problem (with --nodes: a node misfits, does
not answer, or the nodes' maps differ), 2 bad usage (--nodes outside an allocation).)");
  cmd->callback([o, &g] {
    if (o->nodes || o->node_report) {
      g.exit_code =
          o->nodes ? doctor_nodes(o->require, o->map, g) : doctor_node_report(o->require, o->map);
      return;
    }
    const LoadedMap m = load_site_map(o->map);
    const Map *map = m.map ? &*m.map : nullptr;
    const ProbeOptions options = probe_options();
    DoctorFacts f;
    const std::string ld_path = env("LD_LIBRARY_PATH").value_or("");
    f.scene = module_scene_from_environment();
    for (const LoadedModule &mod : f.scene.loaded) f.modules.push_back(mod.name);
    std::error_code ec;
    f.program = o->program.empty() ? "" : fs::absolute(o->program, ec).string();

    // What the program needs.
    NeedInputs ni;
    ni.require = o->require.empty() ? env("CUDNN_COMPAT_REQUIRE") : o->require;
    ni.require_source = o->require.empty() ? "CUDNN_COMPAT_REQUIRE" : "--require";
    ni.cuda = o->cuda.empty() ? env("CUDNN_COMPAT_CUDA") : o->cuda;
    ni.cuda_source = o->cuda.empty() ? "CUDNN_COMPAT_CUDA" : "--cuda";
    if (!f.program.empty()) ni.programs = {f.program};
    const Parsed<Need> need = derive_need(ni, map);
    if (!need) {
      complain(need.error);
      g.exit_code = kUsage;
      return;
    }
    if (need->cudnn) f.need = *need;

    // LD_LIBRARY_PATH, probed.
    std::vector<int> majors;
    if (f.need) majors.push_back(f.need->cudnn->major);
    for (std::string_view d : split(ld_path, ':')) {
      if (d.empty() || !dir_holds_cudnn(std::string(d))) continue;
      const Parsed<std::vector<Probe>> p = probe(std::string(d), options);
      PathDir pd{std::string(d), p ? *p.value : std::vector<Probe>{}};
      for (const Probe &pr : pd.probes) majors.push_back(pr.version.major);
      f.path.push_back(std::move(pd));
    }
    if (!f.program.empty())
      if (const Parsed<ElfDynamic> elf = read_elf_dynamic(f.program))
        for (const std::string &n : elf->needed)
          if (const Parsed<LibraryName> ln = parse_library_name(n);
              ln && ln->sub.empty() && ln->version) {
            f.program_needs.push_back(n);
            majors.push_back(ln->version->major);
          }
    if (majors.empty()) majors = {8, 9};  // nothing says which: the two current majors
    std::sort(majors.begin(), majors.end());
    majors.erase(std::unique(majors.begin(), majors.end()), majors.end());

    // What the loader does with each major.
    LoaderContext lc;
    lc.requester = lc.executable = f.program;
    lc.ld_library_path = ld_path;
    for (int major : majors) {
      Resolution r;
      r.major = major;
      r.hit = loader_search("libcudnn.so." + std::to_string(major), lc);
      if (r.hit) r.probe = probe_library(r.hit->path, options);
      if (r.hit && r.probe) {
        LoaderContext from_dispatcher = lc;
        from_dispatcher.requester = r.hit->path;
        const std::string home = fs::path(r.hit->path).parent_path().string();
        for (std::string_view sub : sub_libraries(major)) {
          std::vector<std::string> names;
          if (major >= 9)  // the dispatcher asks for its exact release first
            names.push_back("libcudnn_" + std::string(sub) + ".so." + to_string(r.probe->version));
          names.push_back("libcudnn_" + std::string(sub) + ".so." + std::to_string(major));
          for (const std::string &n : names)
            if (const std::optional<LoaderHit> h = loader_search(n, from_dispatcher)) {
              if (fs::path(h->path).parent_path().string() != home)
                r.foreign_subs.emplace_back(n, *h);
              break;
            }
        }
      }
      f.resolved.push_back(std::move(r));
    }

    loaded_cuda(f);
    const std::string audit = env("LD_AUDIT").value_or(""),
                      preload = env("LD_PRELOAD").value_or("");
    f.shim = audit.find("libcudnn-compat.so") != std::string::npos     ? "LD_AUDIT"
             : preload.find("libcudnn-compat.so") != std::string::npos ? "LD_PRELOAD"
                                                                       : "";

    // What the shim would do for the required major: the engine's own decision.
    if (f.need && map)
      for (const Resolution &r : f.resolved)
        if (r.major == f.need->cudnn->major) {
          const Selection s = shim_selection(*f.need, "libcudnn.so." + std::to_string(r.major),
                                             r.hit, *map, options);
          if (s.use) {
            f.shim_choice = *s.use;
            if (const std::optional<Probe> p = probe_library(*s.use, options))
              f.shim_choice_cuda = p->cuda;
          } else if (r.hit && s.say.empty()) {
            f.shim_choice = r.hit->path + " (the loader's own choice fits)";
            if (r.probe) f.shim_choice_cuda = r.probe->cuda;
          }
        }
    const std::vector<DoctorFinding> findings = diagnose(f, map);
    bool problem = false;
    nlohmann::json list = nlohmann::json::array();
    for (const DoctorFinding &d : findings) {
      problem |= d.severity == Severity3::problem;
      list.push_back(
          {{"severity", severity_name(d.severity)}, {"what", d.what}, {"fixes", d.fixes}});
    }
    if (g.json) {
      nlohmann::json path = nlohmann::json::array();
      for (const PathDir &d : f.path) {
        nlohmann::json releases = nlohmann::json::array();
        for (const Probe &p : d.probes) releases.push_back(json_of(p));
        path.push_back({{"dir", d.dir}, {"cudnn", releases}});
      }
      print_json({{"modules", f.modules},
                  {"ld_library_path", path},
                  {"shim", f.shim.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.shim)},
                  {"map", m.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.path)},
                  {"findings", list}});
    } else {
      std::cout << "modules: " << (f.modules.empty() ? "(none)" : "");
      for (const std::string &mod : f.modules) std::cout << mod << ' ';
      std::cout << '\n';
      for (const PathDir &d : f.path)
        for (const Probe &p : d.probes)
          std::cout << "LD_LIBRARY_PATH: " << d.dir << ": " << describe(p) << '\n';
      for (const DoctorFinding &d : findings) {
        std::cout << severity_name(d.severity) << ": " << d.what << '\n';
        for (const std::string &fix : d.fixes) std::cout << "  fix: " << fix << '\n';
      }
    }
    g.exit_code = problem ? kNo : kYes;
  });
}

}  // namespace cudnn_compat::cli
