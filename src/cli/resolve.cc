// cudnn-compat resolve: the file a process asking for a cuDNN library should get, and why.
#include "cli.h"
#include "decision_inputs.h"
#include "diagnostics.h"
#include "doctor_facts.h"

#include <filesystem>
#include <iostream>

namespace cudnn_compat::cli {
namespace {

struct Opts {
  std::string name, require, cuda, rule, map, program, gpu, driver;
  // The library that asks in --for's process when it is not --for itself (a framework's), and
  // the line that says so.
  std::string requester, asked_by;
};

// Where the loader searches for this request: as the object that asks - the framework's library
// (its RUNPATH), else --for itself (a program's or a library's own RUNPATH: helper 92 found a
// RUNPATH of --for's passed over for ld.so.cache while the process took the RUNPATH's copy).
LoaderContext search_context(const Opts &o) {
  return preloading_context(o.program, o.requester.empty() ? o.program : o.requester, env);
}

// The frameworks of the environment an interpreter belongs to (<env>/bin/python, with pyvenv.cfg
// or conda-meta/ in <env>): its own, whatever VIRTUAL_ENV names (helper 92: --for venvA's python
// answered for venvB's torch); else the active environment's.
std::vector<CudnnConsumer> interpreter_consumers(const std::string &program) {
  return interpreter_environment(program).empty()
             ? active_consumers(env("VIRTUAL_ENV"), env("CONDA_PREFIX"), {program},
                                python_search(env))
             : active_consumers(std::nullopt, std::nullopt, {program}, python_search(env));
}

// --for a Python interpreter, which links no cuDNN: in its environment the process gets the cuDNN
// a framework's library loads (torch's libtorch_cuda.so, through its RUNPATH: the wheel's), and
// with the shim every later load from that family. Answering for the interpreter's own search
// named the system's copy while the process mapped the wheel's (an outside tester found). The
// frameworks of that environment whose library loads the major asked for, in its order.
std::vector<CudnnConsumer> asking_frameworks(const Opts &o, const LibraryName &requested) {
  if (!is_python_interpreter(o.program)) return {};
  const Parsed<ElfDynamic> elf = read_elf_dynamic(o.program);
  if (elf && !cudnn_linked(elf->needed).empty()) return {};
  std::vector<CudnnConsumer> out;
  for (CudnnConsumer &c : interpreter_consumers(o.program))
    if (!c.library.empty() &&
        (!requested.version || !c.major || *c.major == requested.version->major))
      out.push_back(std::move(c));
  return out;
}

// Who asks for the answer given, and how to ask for each other framework of the environment.
std::string asked_by_words(const Opts &o, const std::vector<CudnnConsumer> &frameworks) {
  auto who = [](const CudnnConsumer &c) {
    return c.name + (c.version.empty() ? "" : " " + c.version);
  };
  std::string words = who(frameworks.front()) + "'s " + frameworks.front().library + ": " +
                      std::filesystem::path(o.program).filename().string() +
                      " links no cuDNN itself; with the shim, a process that loads that library "
                      "gets this file, and every later cuDNN load in it from the same directory";
  for (std::size_t i = 1; i < frameworks.size(); ++i)
    words +=
        "; for " + who(frameworks[i]) + ": resolve " + o.name + " --for " + frameworks[i].library;
  return words;
}

// With --for an interpreter, the framework library that asks in its process (see above).
void ask_as_framework(Opts &o, const LibraryName &requested) {
  const std::vector<CudnnConsumer> frameworks = asking_frameworks(o, requested);
  if (frameworks.empty()) return;
  o.requester = frameworks.front().library;
  o.asked_by = asked_by_words(o, frameworks);
}

// What the request is asked with: --for, matched against the map's [[require]] rules, and what
// the distribution of the file that asks pins (an explicit requirement still wins).
Asked asked_of(const Opts &o, const LibraryName &requested, std::optional<Rule> rule) {
  Asked asked{o.require, o.cuda, rule, {}, requested, {}};
  auto absolute = [](const std::string &file) {
    return std::filesystem::absolute(file).lexically_normal().string();
  };
  if (!o.program.empty()) asked.programs.push_back(absolute(o.program));
  const std::string asking = o.requester.empty() ? o.program : o.requester;
  if (!asking.empty() && o.require.empty() && !env_need(env).require)
    asked.pins = pins_of_file(absolute(asking));
  return asked;
}

// The node resolved for: --gpu/--driver (another node), else this one as the shim learns it.
Parsed<std::optional<NodeFacts>> node_for(const Opts &o, const Map *map) {
  if (o.gpu.empty() && o.driver.empty()) return {this_node(map), {}};
  Parsed<std::optional<NodeFacts>> f = node_overrides(o.gpu, o.driver);
  for (const auto &[from, to] :
       {std::pair{"CUDNN_COMPAT_GPU_ARCH", "--gpu"}, {"CUDNN_COMPAT_DRIVER_CUDA", "--driver"}})
    for (std::string *text : {&f.error, f.value && *f.value ? &(*f.value)->source : nullptr})
      for (std::size_t at; text && (at = text->find(from)) != std::string::npos;)
        text->replace(at, std::string_view(from).size(), to);
  return f;
}

nlohmann::json considered_json(const Map &map, const Choice &c) {
  nlohmann::json list = nlohmann::json::array();
  for (const Considered &k : c.considered) {
    nlohmann::json j = json_of(map.cudnn[k.entry]);
    j["fits"] = k.fits;
    j["why"] = k.why;
    list.push_back(j);
  }
  return list;
}

// "module cudnn/5.1", "wheel", "conda": where a place comes from, as every answer says.
std::string source_words(const Installed &e) {
  return std::string(to_string(source_of(e))) + (e.module.empty() ? "" : " " + e.module);
}

// The entries taken as their libraries report them, as the considered list shows them.
void print_considered(const Map &map, const Choice &c, const MapCorrections &said) {
  for (const std::string &s : said.corrected)
    std::cout << "  as its library reports it: " << s << '\n';
  std::cout << "  considered:\n";
  for (const Considered &k : c.considered) {
    const Installed &e = map.cudnn[k.entry];
    std::string label = to_string(e.version) + " (" + source_words(e) + ")";
    label.resize(std::max<std::size_t>(label.size() + 1, 28), ' ');
    std::cout << "    " << (k.fits ? "fits  " : "no    ") << label << k.why << '\n';
  }
}

void print_asked_by(const Opts &o) {
  if (!o.asked_by.empty()) std::cout << "  asked by " << o.asked_by << '\n';
}

nlohmann::json requester_json(const Opts &o) {
  return o.requester.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.requester);
}

nlohmann::json need_json(const Need &need) {
  return {{"cudnn", json_of(need.cudnn)},
          {"cuda", need.cuda_major ? nlohmann::json(*need.cuda_major) : nlohmann::json(nullptr)},
          {"rule", rule_name(need.rule)},
          {"source", need.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(need.source)},
          {"node", json_of(need.node)}};
}

// The module command that puts a fitting release on the loader's path without the shim, in the
// user's module system; "" when one is loaded already or none has a module. Only places whose
// library is there and loads count: a module of a place that is gone would fix nothing.
std::string module_fix(const Map &listed, const Need &need, const LibraryName &requested,
                       const Choice &choice) {
  if (choice.ranked.empty()) return "";
  const ModuleScene scene = module_scene_from_environment();
  const int major = requested.version ? requested.version->major
                                      : listed.cudnn[choice.ranked.front()].version.major;
  const Map map = places_that_load(listed, probe_options());
  for (std::size_t i : rank(map, need, requested))
    for (const LoadedModule &m : scene.loaded)
      if (m.name == map.cudnn[i].module) return "";
  const std::vector<std::string> fixes = installed_fixes(&map, need, major, scene);
  return fixes.empty() || !fixes.front().starts_with("module ") ? "" : fixes.front();
}

// Where the shim does not see the load, the process keeps the loader's own file whatever the
// answer: under LD_PRELOAD a cuDNN the asking object links (torch's libtorch_cuda.so, a program
// built with -lcudnn), mapped by the loader before any dlopen (helper 95: resolve named 9.23.0
// while the process kept the wheel's 9.20.0, silently); with the shim off or disabled, any
// (helper 97). The file it keeps instead, the words that say so and the fix; nothing where the
// shim sees the load or the two files are one.
struct Unseen {
  std::string file, words, fix;
};

// The cuDNN of a major that file links (DT_NEEDED), its main library first; "" when none.
std::string linked_of_major(const std::string &file, int major) {
  const Parsed<ElfDynamic> elf = read_elf_dynamic(file);
  for (const std::string &n : elf ? cudnn_linked(elf->needed) : std::vector<std::string>{})
    if (parse_library_name(n)->version->major == major) return n;
  return "";
}

// Every step between the process and the shim's answer in one command (shim_on_fix); a cuDNN
// LD_PRELOAD loads (`preloaded`, "" for none) is taken out first, as the whole list under the
// LD_PRELOAD front end, which LD_AUDIT replaces.
std::string unseen_fix(const std::string &mode, bool disabled, const std::string &preloaded,
                       const std::string &asking, const std::string &link) {
  if (preloaded.empty()) return shim_on_fix(mode, disabled, asking, link, "");
  const std::string why = "ld.so loads it before anything asks for cuDNN";
  return lift_disable(
      disabled,
      mode == "LD_PRELOAD"
          ? use_audit_instead("LD_PRELOAD loads " + preloaded + " before anything asks for cuDNN")
          : "remove " + preloaded + " from LD_PRELOAD" +
                (mode.empty() ? "; " + shim_on_fix("", false, "", "", "") : "") + "   # " + why,
      "");
}

std::optional<Unseen> kept_instead(const Opts &o, const LibraryName &routed,
                                   const std::string &answer) {
  const std::string asking = o.requester.empty() ? o.program : o.requester;
  if (asking.empty() || !routed.version) return std::nullopt;
  const LoaderContext where = search_context(o);
  const std::string mode =
      shim_in_env(env("LD_AUDIT").value_or(""), env("LD_PRELOAD").value_or(""), where).mode;
  const bool disabled = env("CUDNN_COMPAT_DISABLE").value_or("") == "1";
  const int major = routed.version->major;
  const std::string main = "libcudnn.so." + std::to_string(major);
  const std::string linked_name = linked_of_major(asking, major);
  // A cuDNN LD_PRELOAD loads is every later load of its family, whichever way the shim is on.
  std::optional<LoaderHit> hit = preloaded_family(where, routed, major);
  const bool listed = hit.has_value();
  const bool unseen = listed || (mode == "LD_PRELOAD" && !linked_name.empty());
  if (!mode.empty() && !disabled && !unseen) return std::nullopt;
  const std::string link = !linked_name.empty() && !listed ? linked_name : main;
  if (!listed) hit = loader_search(link, where);
  if (!hit) return std::nullopt;  // the link fails: the process does not start, as resolve says
  // The rest of the family comes from the linked file's directory: the shim keeps it whole.
  const std::filesystem::path linked = std::filesystem::path(hit->path).lexically_normal();
  const std::string kept = listed || link == o.name
                               ? linked.string()
                               : find_library_file(linked.parent_path().string(), routed, major)
                                     .value_or(linked.string());
  std::error_code ec;
  if (std::filesystem::equivalent(kept, answer, ec)) return std::nullopt;
  // The release is its dispatcher's (a sub-library reports none).
  const LibraryCheck c =
      check_library(find_library_file(linked.parent_path().string(), main_library(major), major)
                        .value_or(hit->path),
                    probe_options());
  return Unseen{kept,
                std::string("but ") + (unseen ? "" : "without the shim ") + "the process keeps " +
                    kept + " (" + (c.probe ? "cuDNN " + to_string(c.probe->version) + ", " : "") +
                    "from " + hit->from + "), as the loader alone would, not the file above",
                unseen_fix(mode, disabled, listed ? hit->named : "", asking, linked_name)};
}

void print_found(const Opts &o, const Globals &g, const Map &map, const Need &need,
                 const Choice &choice, const Resolved &f, const MapCorrections &said) {
  const Installed &e = *f.entry;
  const LibraryName requested = *parse_library_name(o.name);
  const std::string fix = module_fix(map, need, requested, choice);
  const std::optional<Unseen> unseen = kept_instead(o, requested, f.file);
  std::error_code ec;
  const std::string real = std::filesystem::canonical(f.file, ec).string();
  if (g.json) {
    print_json({{"request", o.name},
                {"requester", requester_json(o)},
                {"file", f.file},
                {"realpath", ec ? nlohmann::json(nullptr) : nlohmann::json(real)},
                {"version", to_string(e.version)},
                {"cuda", json_of(e.cuda)},
                {"module", e.module.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.module)},
                {"source", to_string(source_of(e))},
                {"need", need_json(need)},
                {"reason", f.reason},
                {"module_command", fix.empty() ? nlohmann::json(nullptr) : nlohmann::json(fix)},
                {"loaded_instead", unseen ? nlohmann::json({{"file", unseen->file},
                                                            {"reason", unseen->words},
                                                            {"fix", unseen->fix}})
                                          : nlohmann::json(nullptr)},
                {"skipped", f.skipped},
                {"as_library_reports", said.corrected},
                {"considered", considered_json(map, choice)},
                {"map", map.path}});
    return;
  }
  std::cout << o.name << " -> " << f.file << (ec || real == f.file ? "" : "  (" + real + ")")
            << '\n';
  print_asked_by(o);
  std::cout << "  " << f.reason << '\n' << "  source: " << source_words(e) << '\n';
  if (unseen) std::cout << "  " << unseen->words << "\n  to get it: " << unseen->fix << '\n';
  for (const std::string &s : f.skipped) std::cout << "  skipped: " << s << '\n';
  if (!fix.empty()) std::cout << "  without the shim: " << fix << '\n';
  print_considered(map, choice, said);
}

// The shim leaves such a load as it was: what the process gets then, for the name it routed the
// request as (libcudnn.so as libcudnn.so.9: the loader's file for that), else for the name asked,
// which the ordinary load then takes (libcudnn.so, routed as libcudnn.so.5, may be the system's
// cuDNN 9: "the load fails" was false, an outside tester found).
struct AsUsual {
  std::string words;
  std::optional<std::string> file;  // what the ordinary load takes; nullopt: it fails
};
AsUsual load_as_usual(const Opts &o, const std::string &routed_as) {
  const LoaderContext where = search_context(o);
  if (const std::optional<LoaderHit> hit = loader_search(routed_as, where))
    return {
        "the process loads " + hit->path + " as usual (from " + hit->from + "), which does not fit",
        hit->path};
  const std::optional<LoaderHit> asked =
      routed_as == o.name ? std::nullopt : loader_search(o.name, where);
  if (!asked) return {"the loader finds no " + routed_as + ": the load fails", std::nullopt};
  const LibraryCheck c = check_library(asked->path, probe_options());
  return {"the loader finds no " + routed_as + "; the process loads " + o.name +
              " as usual: " + asked->path + " (from " + asked->from + ")" +
              (c.probe ? ", a cuDNN " + to_string(c.probe->version) + ", which does not fit"
                       : ", " + no_answer(asked->path, c)),
          asked->path};
}

void print_nothing_fits(const Opts &o, const Globals &g, const std::string &routed_as,
                        const Map &map, const Need &need, const Choice &choice, const Resolved &f,
                        const MapCorrections &said) {
  std::string advice;
  const LibraryName requested = *parse_library_name(o.name);
  const std::optional<int> asked =
      requested.version ? std::optional<int>(requested.version->major) : std::nullopt;
  if (const std::optional<std::string> conflict = major_conflict(need, asked))
    advice = "The requirement should be the cuDNN " + std::to_string(*asked) +
             " release the program was built with: " + *conflict + ".";
  else if (!relative_fits(map, need, wanted_major(need, requested)).empty())
    advice = "Write that lib in " + map.path +
             " as an absolute path (a relative one would be read from each job's working "
             "directory); cudnn-compat map validate names each.";
  else if (!choice.ranked.empty())  // releases that fit are listed, their files gone
    advice = "The map is out of date: ask the admins to run cudnn-compat map validate.";
  else if (need.cudnn)
    advice = "Ask the admins for " + release_to_ask_for(need, need.cudnn->major) +
             ", or rebuild the program against an installed release.";
  const std::string reason = choice.ranked.empty()
                                 ? choice.reason
                                 : "every fitting release lacks " + o.name + " in its directory";
  const AsUsual as_usual = load_as_usual(o, routed_as);
  if (g.json) {
    print_json({{"request", o.name},
                {"requester", requester_json(o)},
                {"file", nullptr},
                {"need", need_json(need)},
                {"loaded_as_usual",
                 as_usual.file ? nlohmann::json(*as_usual.file) : nlohmann::json(nullptr)},
                {"reason", reason},
                {"advice", advice},
                {"skipped", f.skipped},
                {"as_library_reports", said.corrected},
                {"considered", considered_json(map, choice)},
                {"map", map.path}});
    return;
  }
  std::cout << o.name << ": " << reason << '\n';
  print_asked_by(o);
  std::cout << "  " << as_usual.words << '\n';
  for (const std::string &s : f.skipped) std::cout << "  skipped: " << s << '\n';
  if (!choice.considered.empty()) print_considered(map, choice, said);
  if (!advice.empty()) std::cout << "  " << advice << '\n';
}

// The name the shim decides a request as (shim/shim.c, route_without_major): a name without a
// major as the name of one - the required one, else the one the loader's own file is of (the name
// its links end at, else its SONAME); the name itself where none can be told.
std::string routed_name(const Opts &o, const LibraryName &requested, const Need &need) {
  if (requested.version || requested.windows) return o.name;
  std::optional<int> major = need.cudnn ? std::optional<int>(need.cudnn->major) : std::nullopt;
  const std::optional<LoaderHit> hit =
      major ? std::nullopt : loader_search(o.name, search_context(o));
  auto major_of = [](const std::string &name) -> std::optional<int> {
    const Parsed<LibraryName> n = parse_library_name(name);
    return n && n->version ? std::optional<int>(n->version->major) : std::nullopt;
  };
  if (hit) {
    std::error_code ec;
    const std::filesystem::path end = std::filesystem::canonical(hit->path, ec);
    major = ec ? std::nullopt : major_of(end.filename().string());
    if (!major)
      if (const Parsed<ElfDynamic> elf = read_elf_dynamic(hit->path)) major = major_of(elf->soname);
  }
  if (!major) return o.name;
  const std::string stem = requested.sub.empty() ? "libcudnn" : "libcudnn_" + requested.sub;
  return stem + ".so." + std::to_string(*major);
}

// The engine's decision with the engine's edges: a file the site map's decision table knows is
// judged, and handed over, where the table probed it (the loader may reach the same file by
// another path: ld.so.cache's /usr/local/cuda-13.0/lib for the map's /usr/local/cuda/lib64).
Selection engine_selection(const std::string &main, const Map *site, const Map &map,
                           const Need &need, const std::optional<LoaderHit> &hit) {
  std::map<std::size_t, ReleaseCode> codes;
  const std::optional<FileStamp> stamp = site ? stamp_file(site->path) : std::nullopt;
  const std::vector<KnownLibrary> known =
      stamp ? known_libraries(site->path, *stamp, codes) : std::vector<KnownLibrary>{};
  SelectIo io = engine_io(known, site, need.cuda_major.has_value(), [](const std::string &file) {
    return check_library(file, probe_options());
  });
  if (need.node && need.node->problem.empty() && !need.node->gpus.empty()) io.code = family_code;
  return select_library(select_inputs(main, *parse_library_name(main), need, hit, &map), io);
}

// Where the loader's own choice fits, the shim keeps it (a user's own cuDNN, the system's, a
// module's older fitting release): the process gets it, and so this answer names it (the Slurm
// plugin's node check asks resolve). The engine's own decision says so, the node's GPUs and
// driver included; a sub-library is decided by its family's main library, and comes from that
// one's directory (shim/shim.c, decide_for_sub). Printed, and true, when it does.
bool print_loader_kept(const Opts &o, const Globals &g, const LibraryName &routed, const Map *site,
                       const Map &map, const Need &need, const Choice &choice,
                       const MapCorrections &said) {
  // A main library asked for by path is that file, as the loader takes it and the shim judges it,
  // whatever its name carries (helper 109: resolve judged the ld.so.cache's instead, and named it;
  // helper 110: .../libcudnn.so.9.1.0 was ranked against the map).
  const bool by_path = routed.sub.empty() && o.name.find('/') != std::string::npos;
  // A name with more than the major (libcudnn_graph.so.9.1.0) is a file of that exact name.
  if (!routed.version || (routed.version->minor && !by_path) || routed.windows) return false;
  const int major = routed.version->major;
  const std::string main = by_path ? o.name : "libcudnn.so." + std::to_string(major);
  const std::optional<LoaderHit> hit = loader_search(main, search_context(o));
  if (!hit) return false;
  const Selection s = engine_selection(main, site, map, need, hit);
  if (s.outcome != Outcome::fit || !s.loader_release || !s.loader_verdict) return false;
  const std::string main_file = s.use.value_or(hit->path);
  const std::optional<std::string> found =
      routed.sub.empty()
          ? main_file
          : find_library_file(std::filesystem::path(main_file).parent_path().string(), routed,
                              major);
  if (!found) return false;
  const std::string &file = *found;
  std::string reason = "the loader's own choice (from " + hit->from + ") is cuDNN " +
                       to_string(*s.loader_release) + ", which fits (" + s.loader_verdict->reason +
                       "): the shim keeps it";
  if (choice.ranked.empty()) reason += "; of the map's places, " + choice.reason;
  if (g.json) {
    print_json({{"request", o.name},
                {"requester", requester_json(o)},
                {"file", file},
                {"version", to_string(*s.loader_release)},
                {"cuda", json_of(s.loader_cuda)},
                {"source", hit->from},
                {"need", need_json(need)},
                {"reason", reason},
                {"as_library_reports", said.corrected},
                {"considered", considered_json(map, choice)},
                {"map", map.path}});
    return true;
  }
  std::cout << o.name << " -> " << file << '\n';
  print_asked_by(o);
  std::cout << "  " << reason << '\n'
            << "  source: " << to_string(source_of_hit(*hit, site)) << '\n';
  if (need.cudnn) std::cout << "  need: " << describe(need, major) << '\n';
  if (!choice.considered.empty()) print_considered(map, choice, said);
  return true;
}

// A place whose library does not load is passed over, as the shim passes it over, and said among
// the skipped (helper 97: resolve named a cut-short library the shim refused).
void pass_over_unloadable(Map &map, MapCorrections &said) {
  std::erase_if(map.cudnn, [&](const Installed &e) {
    return std::ranges::any_of(said.unloadable, [&](const auto &u) { return u.first == e.lib; });
  });
  group_releases(map.cudnn);
  for (const auto &[lib, words] : said.unloadable) said.dropped.push_back(words);
}

// The shim leaves a load by a path that is not there failing, as the loader has it: said.
bool path_absent(const std::string &name) {
  std::error_code ec;
  if (name.find('/') == std::string::npos || std::filesystem::exists(name, ec)) return false;
  Error() << name +
                 ": no such file; a load by a path that is not there fails, with the shim as "
                 "without it";
  return true;
}

int run(Opts o, const Globals &g) {
  const Parsed<LibraryName> requested = parse_library_name(o.name);
  if (!requested) {
    Error() << requested.error;
    return kUsage;
  }
  if (path_absent(o.name)) return kNo;
  o.program = program_named(o.program);
  // What is there but no file is not read: a FIFO named by mistake blocked resolve forever (helper
  // 109). A path to be still answers the map's [[require]] globs.
  if (std::error_code ec;
      say_if_program_missing(o.program) && std::filesystem::exists(o.program, ec))
    o.program.clear();
  ask_as_framework(o, *requested);
  std::optional<Rule> rule;
  if (!o.rule.empty() && !(rule = parse_rule(o.rule))) {
    Error() << "unknown rule '" + o.rule + "'; expected one of:\n" + rule_list();
    return kUsage;
  }
  const Asked asked = asked_of(o, *requested, rule);
  std::vector<std::string> files = asked.programs;
  if (!o.requester.empty()) files.push_back(o.requester);
  const LoadedMap m = load_site_map(o.map);
  const std::vector<PythonPlace> places =
      m.map || m.path.empty() ? active_python_places(files) : std::vector<PythonPlace>{};
  std::optional<Map> map = with_places(m.map ? &*m.map : nullptr, places);
  if (!map) {
    report_unusable_map(m);
    return kNo;
  }
  const Parsed<std::optional<NodeFacts>> node = node_for(o, m.map ? &*m.map : nullptr);
  if (!node) {
    Error() << node.error;
    return kUsage;
  }
  Parsed<Need> need = derive_need(need_inputs(asked, env), &*map);
  if (!need) {
    Error() << need.error;
    return kUsage;
  }
  decide_on_node(*node, *need.value, &*map);
  MapCorrections said;
  const std::optional<int> major = wanted_major(*need, *requested);
  map = as_their_libraries_report(
      *map, [&](const Installed &e) { return !major || e.version.major == *major; },
      probe_options(), said);
  pass_over_unloadable(*map, said);
  const std::string routed_as = routed_name(o, *requested, *need);
  const LibraryName routed = *parse_library_name(routed_as);
  const Choice choice = choose(*map, *need, routed);
  if (print_loader_kept(o, g, routed, m.map ? &*m.map : nullptr, *map, *need, choice, said))
    return kYes;
  Resolved found = resolve_file(*map, choice, routed, o.name, find_library_file);
  found.skipped.insert(found.skipped.begin(), said.dropped.begin(), said.dropped.end());
  if (found.entry) {
    print_found(o, g, *map, *need, choice, found, said);
    return kYes;
  }
  print_nothing_fits(o, g, routed_as, *map, *need, choice, found, said);
  return kNo;
}

}  // namespace

void add_resolve(CLI::App &app, Globals &g) {
  auto o = std::make_shared<Opts>();
  CLI::App *cmd =
      app.add_subcommand("resolve", "Name the installed cuDNN file a request should get, and why");
  cmd->add_option("NAME", o->name, "The library asked for: libcudnn.so.8, libcudnn_ops.so.9, ...")
      ->required();
  cmd->add_option(
      "--require", o->require,
      "The cuDNN the program was built with, 5.1 or 5.1.3 (default: $CUDNN_COMPAT_REQUIRE)");
  cmd->add_option("--cuda", o->cuda,
                  "The CUDA major the program needs (default: $CUDNN_COMPAT_CUDA)");
  cmd->add_option("--rule", o->rule,
                  "Whose compatibility rule applies (default: the map's [policy] rule)");
  add_map_option(cmd, o->map);
  cmd->add_option("--for", o->program,
                  "The program that asks, matched against the map's [[require]] rules")
      ->type_name("FILE");
  cmd->add_option("--gpu", o->gpu,
                  "Resolve for a node with these GPUs: compute capabilities X.Y[,X.Y...] "
                  "(default: this node's, or $CUDNN_COMPAT_GPU_ARCH)")
      ->type_name("X.Y");
  cmd->add_option("--driver", o->driver,
                  "Resolve for a node whose driver runs this CUDA (default: this node's, or "
                  "$CUDNN_COMPAT_DRIVER_CUDA)")
      ->type_name("X.Y");
  cmd->footer(R"(
The requirement is taken, in this order, from --require or $CUDNN_COMPAT_REQUIRE (where an
application module set that, the need of the one loaded last, from $CUDNN_COMPAT_NEEDS), from what the
Python distribution that installed --for pins (torch's nvidia-cudnn-cu12==9.1.0.70 in its
METADATA, a conda package's depends; under that framework's rule), from the first [[require]]
rule of the map whose glob matches --for, and from the version in NAME itself. Besides the map's
places, the cuDNN of the active environment count: the wheel of $VIRTUAL_ENV, the conda env of
$CONDA_PREFIX, and those of --for's own environment; every place says its source (module, wheel,
conda, system, user). --for a Python interpreter (a name starting with python) that links no
cuDNN is answered for its environment's framework library that loads that major (torch's
libtorch_cuda.so, through its RUNPATH), which the answer names. Among
the installed releases that satisfy it under the rule, the map's [policy] prefer picks one. When
no fitting release's module is loaded, "without the shim:" names the module command that would
load one in your module system (module swap/switch or load; the same advice as explain, doctor
and the module hooks).
On a node whose GPUs are known (NVML, nvidia-smi, the overrides, or --gpu and --driver for a node
you are not on), a release fits only if every library of its family that carries device code has
code for each GPU (a cubin of the same major and an equal or lower minor, or PTX of an equal or
older architecture) and the driver runs its CUDA (docs/gpu.md). Where this node's facts cannot be
learnt (NVML fails, its probe does not start), one line on stderr says so: the answer then ignores
them, unless the overrides give them.
A sub-library (libcudnn_ops.so.9) resolves into the directory of the chosen main library, so a
family is never mixed.

Examples:
  cudnn-compat resolve libcudnn.so.5 --require 5.1
  cudnn-compat resolve libcudnn_cnn_infer.so.8 --require 8.9 --cuda 12 --json
  cudnn-compat resolve libcudnn.so.9 --for /opt/apps/tensorflow/2.16/bin/python
  cudnn-compat resolve libcudnn.so.9 --gpu 7.0 --driver 12.2

Where no release of the map fits but the file the loader would take does (a user's own cuDNN on
LD_LIBRARY_PATH, the system's in ld.so.cache), that file is the answer: the shim keeps it.

Exit status: 0 a file was found, 1 nothing installed fits (or no valid map), 2 bad usage.)");
  cmd->callback([o, &g] { g.exit_code = run(*o, g); });
}

}  // namespace cudnn_compat::cli
