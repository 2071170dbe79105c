#include "doctor_facts.h"
#include "text.h"
#include "usage_record.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

std::vector<PathDir> probe_path(std::string_view ld_library_path, const DoctorIo &io) {
  std::vector<PathDir> out;
  for (std::string_view d : split(ld_library_path, ':')) {
    if (d.empty() || !io.holds_cudnn(std::string(d))) continue;
    const Parsed<std::vector<Probe>> p = io.probe_dir(std::string(d));
    out.push_back({std::string(d), p ? *p.value : std::vector<Probe>{}});
  }
  return out;
}

// The sub-libraries a family's dispatcher asks for: those FACTS.md knows of its major, and the
// others it or its graph library (which loads the engines) names - a later release's own, which a
// family of that release may lack (pytorch#188892). `named`: those the files name.
std::set<std::string> sub_names(const Resolution &r, const DoctorIo &io,
                                std::set<std::string> &named) {
  std::set<std::string> subs(sub_libraries(r.major).begin(), sub_libraries(r.major).end());
  if (!io.named_subs) return subs;
  named = io.named_subs(r.hit->path, r.major);
  subs.insert(named.begin(), named.end());
  return subs;
}

// Whether a sub-library's file, through its links, is named for a release (x.y at least): the
// shim refuses such a file of another release; one that names none it cannot tell apart.
bool names_release(const std::string &file) {
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec);
  const Parsed<LibraryName> named = parse_library_name(ec ? file : real.string());
  return named && named->version && named->version->minor;
}

// Where the dispatcher found at r.hit would take each sub-library from, when not its own dir.
void find_foreign_subs(Resolution &r, const LoaderContext &lc, const DoctorIo &io) {
  LoaderContext from_dispatcher = lc;
  from_dispatcher.requester = r.hit->path;
  const std::string home = fs::path(r.hit->path).parent_path().string();
  const std::vector<std::string> own =
      io.subs_in ? io.subs_in(home, r.major) : std::vector<std::string>{};
  std::set<std::string> named;
  for (const std::string &sub : sub_names(r, io, named)) {
    // One its own files name, that its directory lacks and no place the loader searches has:
    // cuDNN returns CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED at the first handle (helper 110:
    // doctor said ok).
    bool found = std::find(own.begin(), own.end(), sub) != own.end();
    for (const std::string &n : dispatcher_asks(sub, r.probe->version))
      if (const std::optional<LoaderHit> h = io.search(n, from_dispatcher)) {
        found = true;
        if (fs::path(h->path).parent_path().string() == home) break;
        r.foreign_subs.emplace_back(n, *h);
        // The shim takes a sub-library its family's directory holds from there; one it lacks, it
        // refuses from another release only where the file says it is one.
        if (!names_release(h->path) && std::find(own.begin(), own.end(), sub) == own.end())
          r.unnamed_foreign.push_back(h->path);
        break;
      }
    if (!found && named.contains(sub)) r.missing_subs.push_back(library_file(sub, r.major));
  }
}

Resolution follow(int major, const LoaderContext &lc, const DoctorIo &io, const Map *map) {
  Resolution r;
  r.major = major;
  r.hit = preloaded_family(lc, main_library(major), major);
  if (!r.hit) r.hit = io.search("libcudnn.so." + std::to_string(major), lc);
  if (r.hit) r.source = source_of_hit(*r.hit, map);
  if (r.hit) r.probe = io.probe_file(r.hit->path);
  if (r.hit && !r.probe && io.why_not_loaded) r.failed = io.why_not_loaded(r.hit->path);
  if (r.hit && r.probe) find_foreign_subs(r, lc, io);
  return r;
}

// Whether the engine is asked about a major's loader choice: the required major always; every
// major on a node whose GPUs or driver are known, since a release that cannot run there is no
// fit whatever the program needs (the shim passes it over with no requirement set).
bool judged(const DoctorFacts &f, const Resolution &r) {
  if (f.requires_major(r.major) || (r.hit && f.needs_cuda_alone())) return true;
  return r.hit && f.node && (!f.node->gpus.empty() || f.node->driver_cuda);
}

// The engine's decision on each judged major's loader choice, with what the shim would load
// instead; for the required major also the shim's choice and its CUDA. Without a map the engine
// still judges the loader's choice.
void shim_choice(DoctorFacts &f, const Need &asked, const Map *map, const DoctorIo &io) {
  for (Resolution &r : f.resolved) {
    if (!judged(f, r)) continue;
    const bool required = f.requires_major(r.major);
    // Another major than the required one: any release of it, for the CUDA asked for
    // (CUDNN_COMPAT_CUDA, --cuda), on this node.
    Need need = required ? asked : Need{};
    if (!required) need.rule = asked.rule, need.cuda_major = asked.cuda_major, need.node = f.node;
    const std::string name = "libcudnn.so." + std::to_string(r.major);
    const Selection s = io.select(select_inputs(name, *parse_library_name(name), need, r.hit, map));
    r.verdict = s.loader_verdict;
    if (!map) continue;
    if (s.use) r.shim_use = *s.use;
    // With no requirement at all, the first major the shim would change is what it would load.
    if (!required && ((f.need && f.need->cudnn) || !s.use || !f.shim_choice.empty())) continue;
    f.shim_choice_major = r.major;
    if (s.use) {
      f.shim_choice = *s.use;
      if (const std::optional<Probe> p = io.probe_file(*s.use)) f.shim_choice_cuda = p->cuda;
    } else if (r.hit && s.say.empty()) {
      f.shim_choice = r.hit->path + " (the loader's own choice fits)";
      if (r.probe) f.shim_choice_cuda = r.probe->cuda;
    }
  }
}

// What each framework of the active Python environment will load, by its own library's search
// (its RUNPATH against LD_LIBRARY_PATH against the system), and what its pin says of that; lc is
// the program's view, the framework's library asking instead.
void gather_frameworks(DoctorFacts &f, const LoaderContext &lc, const NeedInputs &asked,
                       const Map *map, const DoctorIo &io) {
  if (!io.consumers) return;
  for (const CudnnConsumer &c : io.consumers(f.program)) {
    FrameworkView v;
    v.name = c.name + (c.version.empty() ? "" : " " + c.version);
    v.pin = c.pins.empty() ? "pins no cuDNN" : c.pins.front().text;
    v.library = c.library;
    v.runpath = c.wheel_runpath;
    v.links = c.major.has_value();
    if (!c.pins.empty())
      v.need = need_of_pin(c.pins.front(), map ? map->policy.rule : Rule::nvidia);
    if (!c.library.empty()) {
      const int major = c.major ? *c.major : v.need && v.need->cudnn ? v.need->cudnn->major : 9;
      LoaderContext asking = lc;
      asking.requester = c.library;
      v.resolved = follow(major, asking, io, map);
      // What the shim hands over instead, for doctor to say where it is on (helper 97), by the
      // need the shim derives when this library asks: an asked one before the pin (helper 105).
      const std::string name = "libcudnn.so." + std::to_string(major);
      NeedInputs in = asked;
      in.requested = *parse_library_name(name);
      in.pins = c.pins;
      in.programs.push_back(c.library);
      Parsed<Need> decides = derive_need(in, map);
      if (decides) decides.value->node = f.node;
      const bool over_pin = decides && decides->origin == NeedOrigin::asked && v.need;
      if (map && decides && decides->origin != NeedOrigin::none && v.resolved.hit && io.select) {
        const Selection s = io.select(
            select_inputs(name, *parse_library_name(name), *decides, v.resolved.hit, map));
        if (s.use) v.resolved.shim_use = *s.use;
        if (over_pin) {
          v.asked_over_pin = decides->source;
          v.shim_gives = s.use ? io.probe_file(*s.use) : v.resolved.probe;
        }
      }
    }
    f.frameworks.push_back(std::move(v));
  }
}

// Whether an installed family fits what this environment asks of it: a framework's pin, or the
// shim's choice.
bool asked_of(const DoctorFacts &f, const Installed &e) {
  Probe p;
  p.file = e.lib, p.version = e.version, p.cuda = e.cuda;
  if (!f.shim_choice.empty() && f.shim_choice.starts_with(e.lib + "/")) return true;
  return std::any_of(f.frameworks.begin(), f.frameworks.end(), [&](const FrameworkView &v) {
    return v.need && serves(*v.need, e.version.major, p).compatible;
  });
}

// The directories of the families the loader takes here (the program's, each framework's), in
// the one spelling the map's places are compared in.
std::set<std::string> taken_dirs(const DoctorFacts &f) {
  std::set<std::string> taken;
  const auto take = [&](const Resolution &r) {
    if (r.hit) taken.insert(canonical_dir(fs::path(r.hit->path).parent_path().string()));
  };
  std::for_each(f.resolved.begin(), f.resolved.end(), take);
  for (const FrameworkView &v : f.frameworks) take(v.resolved);
  return taken;
}

// The installed families the loader does not take here, of the majors followed: the ones a lone
// sub-library could join, or the fixes lead to.
std::vector<const Installed *> untaken_families(const DoctorFacts &f, const Map &map) {
  const std::set<std::string> taken = taken_dirs(f);
  std::vector<const Installed *> out;
  for (const Installed &e : map.cudnn)
    if (!taken.contains(canonical_dir(e.lib)) &&
        std::any_of(f.resolved.begin(), f.resolved.end(),
                    [&](const Resolution &r) { return r.major == e.version.major; }))
      out.push_back(&e);
  return out;
}

// The installed families of a followed major that a lone sub-library of LD_LIBRARY_PATH, its file
// named for no release, would join: they lack it and their dispatcher or graph library names it.
// A family the loader already takes is judge_mixed's (its foreign_subs).
void gather_strays(DoctorFacts &f, const std::vector<const Installed *> &families,
                   const std::string &ld_library_path, const DoctorIo &io) {
  if (!io.subs_in || !io.named_subs || !io.holds_cudnn) return;
  for (std::string_view d : split(ld_library_path, ':')) {
    const std::string dir(d);
    if (dir.empty() || io.holds_cudnn(dir)) continue;
    for (const Installed *e : families) {
      const int major = e->version.major;
      const std::vector<std::string> own = io.subs_in(e->lib, major);
      for (const std::string &sub : io.subs_in(dir, major)) {
        const std::string file = dir + "/" + library_file(sub, major);
        if (!names_release(file) && std::find(own.begin(), own.end(), sub) == own.end() &&
            io.named_subs(e->lib + "/" + library_file("", major), major).contains(sub))
          f.strays.push_back({file, sub, e->lib, e->version, source_of(*e), asked_of(f, *e)});
      }
    }
  }
}

// The families doctor's fixes lead to, where the loader takes another: each is followed from its
// own dispatcher, so that one that will fail once reached is said before the user goes there
// (helper 113: each fix for a misfit led to a wheel that lacks a sub-library, and doctor said ok
// once the shim was on).
void gather_fix_targets(DoctorFacts &f, const std::vector<const Installed *> &families,
                        const LoaderContext &lc, const DoctorIo &io) {
  if (!io.search) return;
  for (const Installed *e : families) {
    if (!asked_of(f, *e)) continue;
    Resolution r;
    r.major = e->version.major;
    r.hit = LoaderHit{e->lib + "/" + library_file("", r.major), "its place"};
    r.source = source_of(*e);
    r.probe = Probe{};
    r.probe->file = r.hit->path, r.probe->version = e->version, r.probe->cuda = e->cuda;
    find_foreign_subs(r, lc, io);
    if (!r.missing_subs.empty()) f.fix_targets.push_back(std::move(r));
  }
}

// The loaded CUDA: a cuda module, else the installation CUDA_HOME (or CUDA_PATH) names.
void cuda_of(DoctorFacts &f, const DoctorIo &io) {
  std::tie(f.cuda_major, f.cuda_from) = loaded_cuda(f.modules);
  if (f.cuda_major || !io.cuda_major_of_home) return;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const std::optional<std::string> home = io.env(var))
      if (const std::optional<int> major = io.cuda_major_of_home(*home)) {
        f.cuda_major = major;
        f.cuda_from = std::string(var) + "=" + *home;
        return;
      }
}

}  // namespace

std::vector<int> majors_to_follow(const DoctorFacts &f) {
  std::vector<int> majors;
  if (f.need && f.need->cudnn) majors.push_back(f.need->cudnn->major);
  for (const PathDir &d : f.path)
    for (const Probe &p : d.probes) majors.push_back(p.version.major);
  for (const std::string &n : f.program_needs)
    majors.push_back(parse_library_name(n)->version->major);
  // A framework's library says which (a warning that no libcudnn.so.8 is found beside torch's 9
  // answered a question nobody asked).
  for (const FrameworkView &v : f.frameworks)
    if (!v.library.empty()) majors.push_back(v.resolved.major);
  if (majors.empty()) majors = {8, 9};  // nothing says which: the two current majors
  std::sort(majors.begin(), majors.end());
  majors.erase(std::unique(majors.begin(), majors.end()), majors.end());
  return majors;
}

std::pair<std::optional<int>, std::string> loaded_cuda(const std::vector<std::string> &modules) {
  std::pair<std::optional<int>, std::string> out;
  for (const std::string &mod : modules) {
    const std::size_t slash = mod.find('/');
    if (slash == std::string::npos || lower(mod.substr(0, slash)) != "cuda") continue;
    if (const Parsed<Version> v =
            parse_cuda(mod.substr(slash + 1, mod.find('-', slash) - slash - 1)))
      out = {v->major, "module " + mod};
  }
  return out;
}

DoctorFacts gather_doctor_facts(const std::string &program, const Need &need, const Map *map,
                                const DoctorIo &io, const NeedInputs &asked) {
  DoctorFacts f;
  if (need.cudnn || need.cuda_major) f.need = need;
  f.node = need.node;
  const std::string loaded = io.env("LOADEDMODULES").value_or("");
  for (std::string_view s : split(loaded, ':'))
    if (!s.empty()) f.modules.emplace_back(s);
  f.program = program;
  f.path = probe_path(io.env("LD_LIBRARY_PATH").value_or(""), io);
  if (!program.empty()) f.program_needs = cudnn_linked(io.needed(program));
  const LoaderContext lc = preloading_context(program, program, io.env);
  gather_frameworks(f, lc, asked, map, io);
  for (int major : majors_to_follow(f)) f.resolved.push_back(follow(major, lc, io, map));
  if (io.scene) f.scene = io.scene();
  cuda_of(f, io);
  const ShimInEnv shim =
      shim_in_env(io.env("LD_AUDIT").value_or(""), io.env("LD_PRELOAD").value_or(""), lc);
  f.shim = shim.mode;
  f.shim_ignored = shim.ignored;
  // A pure pass-through, as the shim reads it: on, but changing nothing; off, a switch that
  // turning it on leaves to undo.
  if (io.env("CUDNN_COMPAT_DISABLE").value_or("") == "1")
    f.shim_disabled = "CUDNN_COMPAT_DISABLE=1";
  const std::optional<std::string> usage = io.env(CUDNN_COMPAT_USAGE_ENV);
  if (cudnn_compat_usage_env_report_only(usage ? usage->c_str() : nullptr))
    f.report_only = CUDNN_COMPAT_USAGE_ENV "=" + printable(*usage);
  else if (map && map->usage.mode == UsageMode::report_only)
    f.report_only = "the map's [usage] mode";
  shim_choice(f, need, map, io);
  if (map) {
    const std::vector<const Installed *> untaken = untaken_families(f, *map);
    gather_strays(f, untaken, io.env("LD_LIBRARY_PATH").value_or(""), io);
    gather_fix_targets(f, untaken, lc, io);
  }
  return f;
}

DoctorIo system_doctor_io(const ProbeOptions &options) {
  DoctorIo io;
  io.env = env;
  io.holds_cudnn = dir_holds_cudnn;
  io.probe_dir = [options](const std::string &dir) { return probe(dir, options); };
  io.probe_file = [options](const std::string &file) { return probe_library(file, options); };
  io.why_not_loaded = [options](const std::string &file) {
    return no_answer(file, check_library(file, options));
  };
  io.search = loader_search;
  io.scene = module_scene_from_environment;
  io.needed = [](const std::string &file) {
    const Parsed<ElfDynamic> elf = read_elf_dynamic(file);
    return elf ? elf->needed : std::vector<std::string>{};
  };
  io.select = [probe_file = io.probe_file](const SelectInputs &in) {
    return select_library(in, SelectIo{probe_file, find_library_file, family_code, lacking_subs});
  };
  io.consumers = [](const std::string &program) {
    return active_consumers(env("VIRTUAL_ENV"), env("CONDA_PREFIX"), {program}, python_search(env));
  };
  // Each family's names read once a run: the program's, each framework's and the fixes' families
  // are often one, and a real libcudnn_graph is megabytes.
  io.named_subs = [read = std::make_shared<std::map<std::string, std::set<std::string>>>()](
                      const std::string &dispatcher, int major) {
    auto [it, fresh] = read->try_emplace(dispatcher);
    if (fresh) it->second = family_named_subs(dispatcher, major);
    return it->second;
  };
  io.subs_in = [](const std::string &dir, int major) {
    std::vector<std::string> subs;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (const Parsed<LibraryName> n = parse_library_name(it->path().filename().string());
          n && !n->sub.empty() && n->version && n->version->major == major)
        subs.push_back(n->sub);
    return subs;
  };
  return io;
}

}  // namespace cudnn_compat
