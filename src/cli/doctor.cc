// cudnn-compat doctor: the environment as the loader will see it, like libtree for cuDNN.
#include "cli.h"
#include "diagnostics.h"
#include "doctor_facts.h"
#include "site_files.h"
#include "text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cudnn_compat::cli {
namespace {

namespace fs = std::filesystem;

const char *severity_name(Severity3 s) {
  return s == Severity3::problem ? "problem" : s == Severity3::warning ? "warning" : "ok";
}

struct Options {
  std::string require, cuda, program, map;
  bool nodes = false, node_report = false;
};

// The CUDA major of an installation: its version.json (CUDA 11.1 on), version.txt (before), else
// the major of the libcudart.so.<major> it holds.
std::optional<int> cuda_major_of_home(const std::string &home) {
  std::ifstream json(fs::path(home) / "version.json");
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
  std::ifstream txt(fs::path(home) / "version.txt");
  std::string word, version;
  while (txt >> word)
    if (word == "Version" && txt >> version)
      if (const std::optional<int> major = major_of(version)) return major;
  for (const char *lib : {"lib64", "lib"}) {
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(fs::path(home) / lib, ec)) {
      const std::string name = e.path().filename().string();
      if (name.starts_with("libcudart.so."))
        if (const std::optional<std::int64_t> major = parse_uint(split(name, '.')[2]))
          return int(*major);
    }
  }
  return std::nullopt;
}

// Whether this node believes each of the map's tables (docs/contract.md), and why not: a table not
// in use costs every job the engine and every checked module command a process.
struct TableUse {
  std::string file, verdict, why;
};
std::vector<TableUse> table_use(const std::string &map_path) {
  std::vector<TableUse> out;
  if (map_path.empty()) return out;
  for (TableKind kind : kAllTables) {
    const TableRead r = read_table(map_path, kind);
    out.push_back({table_path(map_path, kind), site_verdict_name(site_verdict(r.verdict)), r.why});
  }
  return out;
}

// The libraries the decision table was written with that are no longer those files (reinstalled
// since map validate): the shim asks them again, but the hooks' tables still judge the release as
// it was (an outside tester's finding: a cuDNN 9.20 directory replaced by 9.0.0 still fitted a
// need of 9.20 at `module load`). A stat per release.
std::vector<std::string> libraries_changed(const std::string &map_path) {
  std::vector<std::string> out;
  const TableRead r = map_path.empty() ? TableRead{} : read_table(map_path, TableKind::decide);
  if (!r.text) return out;
  for (const KnownLibrary &k : table_libraries(*r.text)) {
    const std::optional<FileStamp> now = stamp_file(k.path);
    if (!now || now->ino != k.ino || now->size != k.size || now->mtime_ns != k.mtime_ns)
      out.push_back(k.path);
  }
  return out;
}

// No map found at all: one line, where doctor looked and the command that writes one where this
// installation looks first. Not a finding: the answer about the loaded cuDNN stands without a map,
// and a node may be meant to have none; but the shim and the hooks do nothing there.
std::string no_map_line() {
  std::string looked;
  for (const std::string &p : map_search_path()) looked += (looked.empty() ? "" : ", ") + p;
  return "no version map (looked for " + looked + "); write one: cudnn-compat scan -o " +
         default_map_search(install_prefix()).front();
}

void print_json_report(const DoctorFacts &f, const std::string &map_path,
                       const std::vector<DoctorFinding> &findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const DoctorFinding &d : findings)
    list.push_back({{"severity", severity_name(d.severity)}, {"what", d.what}, {"fixes", d.fixes}});
  nlohmann::json path = nlohmann::json::array();
  for (const PathDir &d : f.path) {
    nlohmann::json releases = nlohmann::json::array();
    for (const Probe &p : d.probes) releases.push_back(json_of(p));
    path.push_back({{"dir", d.dir}, {"cudnn", releases}});
  }
  nlohmann::json tables = nlohmann::json::array();
  for (const TableUse &t : table_use(map_path))
    tables.push_back({{"file", t.file},
                      {"in_use", t.why.empty()},
                      {"verdict", t.verdict},
                      {"why", t.why.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.why)}});
  print_json(
      {{"modules", f.modules},
       {"tables", tables},
       {"libraries_changed", libraries_changed(map_path)},
       {"ld_library_path", path},
       {"shim", f.shim.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.shim)},
       {"node", json_of(f.node)},
       {"map", map_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(map_path)},
       {"no_map", map_path.empty() ? nlohmann::json(no_map_line()) : nlohmann::json(nullptr)},
       {"findings", list}});
}

void print_text_report(const DoctorFacts &f, const std::string &map_path,
                       const std::vector<DoctorFinding> &findings) {
  std::cout << "modules: " << (f.modules.empty() ? "(none)" : "");
  for (const std::string &mod : f.modules) std::cout << mod << ' ';
  std::cout << '\n';
  if (map_path.empty()) std::cout << "map: " << no_map_line() << '\n';
  for (const TableUse &t : table_use(map_path))
    std::cout << "table: " << t.file << ": " << (t.why.empty() ? "in use" : "not in use: " + t.why)
              << '\n';
  for (const std::string &file : libraries_changed(map_path))
    std::cout << "table: " << file << " changed since map validate wrote the tables: the module "
              << "hooks judge its release as it was; run cudnn-compat map validate " << map_path
              << '\n';
  for (const PathDir &d : f.path)
    for (const Probe &p : d.probes)
      std::cout << "LD_LIBRARY_PATH: " << d.dir << ": " << describe(p) << '\n';
  for (const DoctorFinding &d : findings) {
    std::cout << severity_name(d.severity) << ": " << d.what << '\n';
    for (const std::string &fix : d.fixes) std::cout << "  fix: " << fix << '\n';
  }
}

// The mount point a directory lies under, from /proc/self/mountinfo (field 5, octal escapes for
// spaces and the like); "/" also when /proc says nothing.
std::string mount_point_of(const std::string &dir) {
  std::ifstream info("/proc/self/mountinfo");
  std::string line, best = "/";
  while (std::getline(info, line)) {
    std::istringstream fields(line);
    std::string skip, point;
    for (int i = 0; i < 4 && fields >> skip; ++i) {
    }
    if (!(fields >> point)) continue;
    std::string unescaped;
    for (std::size_t i = 0; i < point.size(); ++i)
      if (point[i] == '\\' && i + 3 < point.size()) {
        unescaped += char(std::stoi(point.substr(i + 1, 3), nullptr, 8));
        i += 3;
      } else {
        unescaped += point[i];
      }
    if (unescaped.size() > best.size() && (dir == unescaped || dir.starts_with(unescaped + "/")))
      best = unescaped;
  }
  return best;
}

// Inside a container, what came in from the host and does harm there: an LD_LIBRARY_PATH entry
// holding cuDNN that lies on a mount of its own - a directory bound in from the host, not the
// image's - comes before the container's own cuDNN (Apptainer passes the host's environment on
// by default, so a host module's directory does this where the site binds its software tree in);
// and an LD_AUDIT or LD_PRELOAD entry naming a file the container lacks (ld.so prints a line in
// every process: docs/containers.md).
std::vector<DoctorFinding> container_findings() {
  std::vector<DoctorFinding> out;
  const std::optional<std::string> evidence = container_evidence();
  if (!evidence) return out;
  const std::string where = "inside a container (" + *evidence + ")";
  const std::string path = env("LD_LIBRARY_PATH").value_or("");
  for (const std::string_view d : split(path, ':')) {
    std::error_code ec;
    const std::string dir = fs::canonical(std::string(d), ec).string();
    std::string held;  // its libcudnn.so.<major>, the name the loader asks for
    for (const fs::directory_entry &e :
         fs::directory_iterator(dir.empty() ? "/nonexistent" : dir, ec))
      if (const std::string name = e.path().filename().string();
          name.starts_with("libcudnn.so.") && name.find('.', 12) == std::string::npos)
        held = name;
    const std::string mount = held.empty() ? "/" : mount_point_of(dir);
    if (mount == "/") continue;
    out.push_back({Severity3::warning,
                   where + ", LD_LIBRARY_PATH names " + std::string(d) + ", which holds " + held +
                       " and is bound in from outside the image (at " + mount +
                       "): it comes before the container's own cuDNN. A host's LD_LIBRARY_PATH "
                       "carried into the container (a module loaded outside) does this",
                   {"start the container without the host's environment (apptainer --cleanenv), "
                    "or unset LD_LIBRARY_PATH inside",
                    "see which cuDNN the container has of its own: cudnn-compat doctor, after "
                    "unset LD_LIBRARY_PATH"}});
  }
  for (const char *var : {"LD_AUDIT", "LD_PRELOAD"}) {
    for (const std::string &entry : loader_list(var, env(var).value_or(""))) {
      std::error_code ec;
      if (entry.find('/') == std::string::npos || entry.find('$') != entry.npos ||
          fs::exists(entry, ec))
        continue;
      out.push_back(
          {Severity3::problem,
           where + ", " + var + " names " + entry +
               ", which is not here: ld.so prints \"ERROR: ld.so: object '" + entry +
               "' cannot be " + (var[3] == 'A' ? "loaded as audit interface" : "preloaded") +
               " ...\" in every process",
           {"bind its directory in read-only at the same path: cudnn-compat "
            "container-env prints the lines",
            std::string("or keep ") + var + " out of the container (apptainer --cleanenv)"}});
    }
  }
  return out;
}

// A map named that cannot be used: said first, where the rest of the report (the advice
// most of all) would otherwise read as if the site had no map (admin tester helper 115, finding 9:
// "ask the admins for cuDNN 5.1.x" where the named map lists 5.1.10 and was not there).
std::optional<DoctorFinding> unusable_map(const LoadedMap &m) {
  if (m.map || m.path.empty()) return std::nullopt;
  std::vector<std::string> fixes{"cudnn-compat map validate " + m.path +
                                 "   # for the site's admins: what is wrong, and where"};
  if (env("CUDNN_COMPAT_MAP"))
    fixes.push_back("or unset CUDNN_COMPAT_MAP, or point it at the site's map");
  // One that is not there is a setting pointing nowhere (a warning, as no map at all is); one
  // there and refused is the site's map broken.
  std::error_code ec;
  return DoctorFinding{fs::exists(m.path, ec) ? Severity3::problem : Severity3::warning,
                       "the version map is not used: " + why_invalid(m.diagnostics, m.path) +
                           "; the shim hands nothing over, and no advice below can name a "
                           "module of it",
                       fixes};
}

int doctor(const Options &o, const Globals &g) {
  const LoadedMap m = load_site_map(o.map);
  std::error_code ec;
  const std::string given = program_named(o.program);
  const std::string program = given.empty() ? "" : fs::absolute(given, ec).string();
  // What a file that is not there links is not "no cuDNN" (helper 94).
  const bool missing = say_if_program_missing(given);
  // The active Python environment's cuDNN are places beside the map's.
  std::optional<Map> seen = with_places(m.map ? &*m.map : nullptr, active_python_places({program}));
  Asked asked{o.require, o.cuda, std::nullopt, {}, std::nullopt};
  if (!program.empty()) asked.programs = {program};
  const NeedInputs inputs = need_inputs(asked, env);
  Parsed<Need> need = derive_need(inputs, seen ? &*seen : nullptr);
  if (!need) {
    Error() << need.error;
    return kUsage;
  }
  // The node's GPUs and driver, as resolve and the shim learn them and decide on them: with no
  // requirement too, since the shim passes over a release that cannot run here.
  decide_on_node(this_node(m.map ? &*m.map : nullptr), *need.value, seen ? &*seen : nullptr);
  const Map *map = seen ? &*seen : nullptr;
  DoctorIo io = system_doctor_io(probe_options());
  io.cuda_major_of_home = cuda_major_of_home;
  const DoctorFacts f = gather_doctor_facts(missing ? "" : program, *need.value, map, io, inputs);
  // Advice names only modules whose place is there and loads.
  const std::optional<Map> present =
      map ? std::optional(places_that_load(*map, probe_options())) : std::nullopt;
  std::vector<DoctorFinding> findings = diagnose(f, present ? &*present : nullptr);
  if (std::optional<DoctorFinding> u = unusable_map(m)) findings.insert(findings.begin(), *u);
  for (DoctorFinding &c : container_findings()) findings.push_back(std::move(c));
  if (g.json)
    print_json_report(f, m.path, findings);
  else
    print_text_report(f, m.path, findings);
  const bool problem = std::any_of(findings.begin(), findings.end(), [](const DoctorFinding &d) {
    return d.severity == Severity3::problem;
  });
  return problem ? kNo : kYes;
}

// What `doctor --help` says below its options.
constexpr const char *kDoctorFooter = R"(
Inside a Python environment (VIRTUAL_ENV, CONDA_PREFIX, or --for a program in one), each
framework that pins cuDNN (torch's nvidia-cudnn-cu12==9.1.0.70, the JAX CUDA plugin's range, a
conda package's depends) comes first: which copy its library will load and why (its RUNPATH to
the wheel against LD_LIBRARY_PATH against the system), whether that fits its pin, and a family
that would mix (a sub-library its directory lacks, taken from another release) before it happens.
The wheels and conda envs of that environment count as places beside the map's.

Reads the loaded modules (LOADEDMODULES, Lmod and Environment Modules alike), probes every
directory on LD_LIBRARY_PATH that holds cuDNN for its true version, and follows the loader's real
order (RPATH, LD_LIBRARY_PATH, RUNPATH of --for, ld.so.cache, default directories) to the file
each libcudnn.so.<major> becomes. Then: whether it fits what the program needs (--require,
CUDNN_COMPAT_REQUIRE or a [[require]] rule of the map), mixed families (a sub-library the
dispatcher would take from another directory), several releases of one major on the path, a cuDNN
built for another CUDA major than the loaded CUDA, and whether the shim is on. On a node whose
GPUs and driver are known (NVML, nvidia-smi, $CUDNN_COMPAT_GPU_ARCH and $CUDNN_COMPAT_DRIVER_CUDA,
learnt as resolve and the shim learn them), the loader's choice fits only if it runs there, with
a requirement or without one: the verdict and what the shim would load are the shim's own
decision, and the fix names the module of a release that runs (docs/gpu.md). Facts that cannot be
learnt are said in one line.

With --nodes, inside a Slurm allocation (salloc, sbatch), every node of it answers for itself, in
one task per node, about what a job gets there: whether its steps load the SPANK plugin (the
plugin describes itself for this step), the map the plugin gives jobs there (map=.../%n.toml
expanded; else the usual search; --map overrides) and its digest (equal maps, equal digests,
comments aside), the file libcudnn.so.<major> of the requirement resolves to there with the shim
on, whether it fits, and the verdict. A node's problems: a misfit, an invalid or missing map, the
plugin's shim or cudnn-compat missing beside it, no plugin where other nodes have one (--cudnn
does nothing there), a map whose content differs from most nodes' that read the same path (a copy
that drifted). A verdict too long for the table follows it whole.

Inside an Apptainer or Singularity container (APPTAINER_CONTAINER or SINGULARITY_CONTAINER set,
or /.singularity.d there), whose runtime carries the host's environment in, it also flags what
came with it: an LD_LIBRARY_PATH directory holding cuDNN that is bound in from outside the image
(a mount of its own, /proc/self/mountinfo), which comes before the container's own, and an
LD_AUDIT or LD_PRELOAD file the container lacks, for which ld.so prints a line in every process
(cudnn-compat container-env prints what binds it in).

Each of the map's tables (map.toml.cache, .fits, .misfits, .decide) is "in use" on this node when
this node's readers believe it, else "not in use" and why (docs/contract.md): a table not in use
costs every job the engine and every checked module command a process.

Examples:
  cudnn-compat doctor --require 5.1
  salloc -N4 cudnn-compat doctor --nodes --require 5.1
  cudnn-compat doctor --for /opt/apps/tensorflow/1.0/bin/python
  cudnn-compat --json doctor

Exit status: 0 nothing wrong (warnings allowed), 1 a problem (with --nodes: a node has one, or
does not answer), 2 bad usage (--nodes outside an allocation).)";

}  // namespace

void add_doctor(CLI::App &app, Globals &g) {
  auto o = std::make_shared<Options>();
  CLI::App *cmd = app.add_subcommand(
      "doctor", "Check this environment: which cuDNN each program will really load, and why");
  cmd->add_option("--require", o->require, "The cuDNN the program was built with, e.g. 5.1");
  cmd->add_option("--cuda", o->cuda, "The CUDA major it needs");
  cmd->add_option("--for", o->program, "The program: its RUNPATH/RPATH and linked cuDNN count")
      ->type_name("FILE");
  add_map_option(cmd, o->map);
  cmd->add_flag("--nodes", o->nodes,
                "Inside a Slurm allocation: ask every node of it (srun, one task per node) what "
                "its jobs get, in one table; exit 1 when a node has a problem");
  cmd->add_flag("--node-report", o->node_report, "One node's answer for --nodes")->group("");
  cmd->footer(kDoctorFooter);
  cmd->callback([o, &g] {
    if (o->nodes || o->node_report)
      g.exit_code =
          o->nodes ? doctor_nodes(o->require, o->map, g) : doctor_node_report(o->require, o->map);
    else
      g.exit_code = doctor(*o, g);
  });
}

}  // namespace cudnn_compat::cli
