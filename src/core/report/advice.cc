// What a recognised error means and what fixes it: the rule in words, the installed modules that
// would fit, or the release to ask the admins for. Every version, status code and file named here
// comes from the finding, that is from the message itself; nothing is filled in.
#include "advice.h"
#include "explain_read.h"
#include "reports.h"

#include <array>
#include <set>

namespace cudnn_compat {
namespace {

std::string who(const Finding &f) {
  if (f.framework.empty()) return f.build_time ? "the code being built" : "the program";
  return f.framework;
}

std::string nowhere(const Map *map) {
  return map ? " (none is installed)" : " (no version map here to look in)";
}

// The major the finding is about: the library's name, else a version it names.
std::optional<int> major_of(const Finding &f) {
  if (const Parsed<LibraryName> n = parse_library_name(explain::canonical_library(f.library));
      n && n->version)
    return n->version->major;
  for (const std::optional<Version> &v : {f.built_with, f.required, f.runtime})
    if (v) return v->major;
  return std::nullopt;
}

// The verdicts of the framework's rule and NVIDIA's on two versions that carry a minor each.
void judge_pair(const Finding &f, Rule rule, Advice &a) {
  const Version &r = *f.runtime, &b = *f.built_with;
  if (!r.minor || !b.minor) return;  // cuDNN 9 against 9.1: no rule can say
  const Verdict v = judge(rule, r, b);
  const Verdict nvidia = judge(Rule::nvidia, r, b);
  a.compatible = v.compatible;
  a.nvidia_compatible = nvidia.compatible;
  a.rule = "rule " + std::string(rule_name(rule)) + (v.compatible ? " accepts: " : " refuses: ") +
           v.reason + "; NVIDIA's own policy " +
           (nvidia.compatible ? "would accept them" : "agrees: " + nvidia.reason);
}

// Releases that serve `want` under rule, from the map; else what to ask for.
// (cuda: the CUDA major the message needs it built for, when it names one.)
void fixes_for(const Version &want, Rule rule, const Map *map, const ModuleScene &scene,
               std::string_view words, Advice &a, std::optional<int> cuda = std::nullopt) {
  const Need need{want, cuda, rule, "the message"};
  const std::string for_cuda = cuda ? " built for CUDA " + std::to_string(*cuda) : "";
  a.fixes = installed_fixes(map, need, want.major, scene);
  if (a.fixes.empty())
    a.fixes.push_back("ask the admins for cuDNN " + std::string(words) + for_cuda + nowhere(map));
  a.fixes.push_back("cudnn-compat resolve libcudnn.so." + std::to_string(want.major) +
                    " --require " + to_string(want) +
                    (rule == Rule::paddle ? " --rule " + std::string(rule_name(rule)) : "") +
                    (cuda ? " --cuda " + std::to_string(*cuda) : ""));
}

// Code that needs a cuDNN older than a release: below a major ("older than 9": a removed API, a
// refused range) the major before serves; below a minor or patch ("up to 9.1", an exact pin's
// next patch) the releases of that major under it, from the message's minimum on.
void advise_older(const Finding &f, const Map *map, const ModuleScene &scene, Advice &a) {
  const Version &top = *f.older_than;
  const bool within = top.minor.value_or(0) > 0 || top.patch.value_or(0) > 0;
  const int major = within ? top.major : top.major - 1;
  const std::optional<Version> from =
      f.required && f.required->major == major ? f.required : std::nullopt;
  const std::string subject =
      f.framework.empty() && f.build_time ? std::string("the code being built") : who(f);
  // "up to 9.1" read back as 9.1 and "<= 9.1.1" as 9.1.1, not as "older than 9.2" or "9.1.2".
  const std::optional<Version> newest =
      !within      ? std::nullopt
      : !top.patch ? std::optional(Version{major, *top.minor - 1, {}, {}})
      : *top.patch ? std::optional(Version{major, top.minor, *top.patch - 1, {}})
                   : std::nullopt;
  const std::string wanted =
      f.exact  ? "cuDNN " + to_string(*from) + " exactly"
      : from   ? "cuDNN " + to_string(*from) + " or newer, older than " + to_string(top)
      : newest ? "cuDNN " + to_string(*newest) + " or older"
               : "a cuDNN older than " + to_string(top);
  a.what = subject + " needs " + wanted +
           (f.runtime ? " but " + std::string(f.build_time ? "the build found" : "loaded") +
                            " cuDNN " + to_string(*f.runtime)
                      : std::string());
  Need need{from.value_or(Version{major, {}, {}, {}}), std::nullopt,
            from ? Rule::paddle : Rule::nvidia, "the message"};
  if (within) need.below = top;
  a.fixes = installed_fixes(map, need, major, scene);
  if (a.fixes.empty())
    a.fixes.push_back("ask the admins for " +
                      (f.exact ? "cuDNN " + to_string(*from)
                       : within
                           ? "a cuDNN " + std::to_string(major) + " older than " + to_string(top)
                           : "cuDNN " + std::to_string(major)) +
                      nowhere(map));
  if (f.build_time)
    for (std::string &fix : a.fixes) fix += ", then configure and build again";
  if (within) return;
  if (!f.framework.empty())
    a.fixes.push_back("or update " + f.framework + " to a release written for cuDNN " +
                      to_string(top));
  else
    a.fixes.push_back("or port the code to the cuDNN " + to_string(top) +
                      " API (its release notes name each removed call's replacement)");
}

// A check that calls one release two (OpenCV 4.10 reading cuDNN 9's number as cuDNN 8's): no
// other cuDNN silences it.
void false_alarm(const Finding &f, Advice &a) {
  a.what = who(f) + " loaded cuDNN " + to_string(*f.runtime) +
           " and was built with the same release: its check misreads the version";
  a.compatible = true;
  a.fixes = {"none needed: the message is a false alarm of " + who(f) +
             "'s version check; a release of it with the check fixed silences it"};
}

// A minimum it names (below_minimum: one the runtime misses), for a build or a run.
void advise_minimum(const Finding &f, bool below_minimum, const Map *map, const ModuleScene &scene,
                    Advice &a) {
  if (below_minimum) a.compatible = false;
  // A build takes any newer cudnn.h; a process loads the major its SONAME names.
  const std::string wanted = f.build_time
                                 ? to_string(*f.required) + (f.required->minor ? " or newer" : "")
                                 : minimum_releases(*f.required);
  a.what = who(f) + " needs cuDNN " + wanted +
           (f.for_cuda ? " for CUDA " + std::to_string(*f.for_cuda) : "") +
           (f.runtime ? " but found cuDNN " + to_string(*f.runtime) : std::string());
  // A minimum with a patch above 0 ("9.1.1 or newer") is one no build rule weighs (NVIDIA's
  // takes any 9.1.x for 9.1.1, the release refused among them): PaddlePaddle's rule, runtime >=
  // required, within the SONAME's major (helper 97).
  const bool patch = f.required->patch && *f.required->patch > 0;
  fixes_for(*f.required, patch ? Rule::paddle : Rule::nvidia, map, scene, wanted, a, f.for_cuda);
  if (f.build_time)
    for (std::string &fix : a.fixes)
      if (!fix.starts_with("cudnn-compat")) fix += ", then configure and build again";
}

void advise_versions(const Finding &f, Rule rule, const Map *map, const ModuleScene &scene,
                     Advice &a) {
  if (f.older_than && (f.older_than->major > 1 || f.older_than->minor.value_or(0) > 0))
    return advise_older(f, map, scene, a);
  // A minimum the runtime misses decides, whatever the pair ("Version JAX was built against:
  // 8907 / Minimum supported: 9100 / Installed version: 8907").
  const bool below_minimum = f.required && f.runtime && compare(*f.runtime, *f.required) < 0;
  if (f.runtime && f.built_with && !below_minimum && *f.runtime == *f.built_with)
    return false_alarm(f, a);
  if (f.runtime && f.built_with && !below_minimum) {
    a.what = who(f) + " loaded cuDNN " + to_string(*f.runtime) + " but was built with cuDNN " +
             to_string(*f.built_with);
    judge_pair(f, rule, a);
    fixes_for(*f.built_with, rule, map, scene, acceptable_releases(rule, *f.built_with), a);
    if (a.compatible == true)
      a.fixes.insert(a.fixes.begin(),
                     "none needed: the rule accepts this pair, the message is a "
                     "warning (the lines below silence it)");
    return;
  }
  if (f.required) return advise_minimum(f, below_minimum, map, scene, a);
  if (f.built_with) {
    a.what = who(f) + " was built with cuDNN " + to_string(*f.built_with) +
             " and refuses the cuDNN it loaded (the message does not name it)";
    fixes_for(*f.built_with, rule, map, scene, acceptable_releases(rule, *f.built_with), a);
    return;
  }
  if (f.build_time && !f.runtime) {
    a.what = who(f) + " and the cudnn.h it compiles against come from different cuDNN releases";
    a.fixes.push_back(
        "build against the cuDNN release the code was written for (its README or "
        "build files name it): CMAKE_PREFIX_PATH or CPATH to that release");
    a.fixes.push_back(
        "or port the code to the API of the cuDNN it found (cuDNN's release notes "
        "name each changed call)");
    return;
  }
  a.what = f.status.empty() ? who(f) + " and the cuDNN it loaded come from different releases"
                            : "cuDNN refused a version mismatch (" + f.status + ")";
  if (f.runtime) a.what += "; it loaded cuDNN " + to_string(*f.runtime);
  if (!f.runtime) a.what += ": the program or one of its libraries was built against another cuDNN";
  const std::optional<int> major = major_of(f);
  a.fixes.push_back("cudnn-compat resolve libcudnn.so" +
                    (major ? "." + std::to_string(*major) : std::string()) +
                    " --require <the cuDNN it was built with>");
}

// Every installed release with a module, for a build that named none: any of them serves.
std::vector<std::string> every_module(const Map *map, const ModuleScene &scene) {
  std::vector<std::string> out;
  if (map)
    for (const Installed &e : map->cudnn)
      if (!e.module.empty() && e.hand_out) {
        const std::string swap = parent_swap(scene, e);
        out.push_back(module_command(scene, map, loaded_cudnn_module(scene, map, std::nullopt), e) +
                      "   # cuDNN " + to_string(e.version) + (swap.empty() ? "" : "; " + swap));
      }
  return out;
}

// What mends a library the loader found and could not load, by the loader's reason: the first row
// whose words the reason holds (at its start, where `leads`); `fix` names the library where {}
// stands.
struct Mend {
  std::array<std::string_view, 2> said;
  bool leads;
  std::string_view fix;
};
constexpr Mend kMends[] = {
    {{"Permission denied"},
     true,
     "make {} and each directory above it readable by this user (`ls -l` shows whose they are; "
     "ask the admins if they are the site's)"},
    {{"wrong ELF class", "ELF file's phentsize"},
     true,
     "install the cuDNN built for this machine's architecture: {} is for another (32-bit, or "
     "another CPU)"},
    {{"failed to map segment"},
     true,
     "load cuDNN from a file system that allows programs: {} is on one mounted noexec (or it is "
     "cut short)"},
    {{"paging file", "页面文件"},
     false,
     "raise Windows' paging file (System, Advanced system settings, Performance, Virtual memory) "
     "or start fewer processes at once: {} is there, Windows could not map it"},
    {{"static TLS"},
     false,
     "load {} before the process's other libraries (import it first, or LD_PRELOAD it), or give "
     "glibc more room: GLIBC_TUNABLES=glibc.rtld.optional_static_tls=2048"},
    {{"executable stack"},
     false,
     "clear the executable-stack flag of {} (patchelf --clear-execstack, or execstack -c): the "
     "system refuses it (SELinux, a hardened kernel)"},
    {{"Too many open files"},
     false,
     "raise the open-file limit (ulimit -n) or open fewer files at once: {} is there"},
    {{"Stale file handle", "Transport endpoint"},
     false,
     "remount the file system that holds {} (NFS or FUSE lost it), then retry"},
    {{"memory", "内存"},
     false,
     "free memory (fewer processes or data loader workers at once): {} is there, the system had "
     "no memory to load it"},
    {{"access is denied"}, false, "make {} readable by this user, or run where it is"},
    {{"Access is denied"}, true, "make {} readable by this user, or run where it is"},
    {{"Input/output error"}, false, "copy cuDNN again onto a healthy disk: reading {} failed"},
    {{"Win32"}, false, "install the 64-bit cuDNN again: {} is 32-bit or damaged"},
    {{"initialisation"},
     false,
     "check what {} loads in turn (its CUDA release, the driver): it is there but failed to start"},
    {{"file too short", "invalid ELF header"},
     true,
     "install cuDNN again: {} is empty, cut short or no library (an unfinished copy, a Git LFS "
     "pointer)"},
};

std::string mend_unloadable(const std::string &lib, std::string_view why) {
  for (const Mend &m : kMends)
    for (std::string_view words : m.said)
      if (!words.empty() && (m.leads ? why.starts_with(words) : why.find(words) != why.npos)) {
        std::string fix(m.fix);
        return fix.replace(fix.find("{}"), 2, lib);
      }
  // Any other reason: the file is there, and what to mend is what the loader said.
  return "mend what the loader said (" + std::string(why) + "): " + lib +
         " is there, so installing cuDNN again will not help";
}

void advise_missing(const Finding &f, Rule rule, const Map *map, const ModuleScene &scene,
                    Advice &a) {
  const std::string lib = f.library.empty() ? "a cuDNN library" : f.library;
  if (f.build_time)
    a.what = "the build found no " + (f.library.empty() ? "cuDNN library" : f.library) +
             (f.required ? " of cuDNN " + to_string(*f.required) : "");
  else if (f.windows_error == 126 && f.unloadable.empty())
    a.what = "Windows could not load " + lib + " or one of its dependencies (error 126: not found)";
  else if (!f.unloadable.empty())
    a.what = "the loader found " + lib + " but could not load it: " + f.unloadable;
  else
    a.what = f.library.empty() ? "a cuDNN library could not be loaded"
                               : "the loader found no " + f.library + " on its search path";
  if (!f.status.empty()) a.what += " (" + f.status + ")";
  const std::optional<int> major = major_of(f);
  if (!major && f.build_time) a.fixes = every_module(map, scene);
  if (major) {
    const Need need{f.required, std::nullopt, rule, ""};
    a.fixes = installed_fixes(map, need, *major, scene);
    // A file that is there wants mending, not another install.
    if (a.fixes.empty() && f.unloadable.empty())
      a.fixes.push_back("ask the admins for cuDNN " +
                        (f.required ? to_string(*f.required) : std::to_string(*major)) +
                        nowhere(map));
  }
  if (!f.unloadable.empty()) a.fixes.insert(a.fixes.begin(), mend_unloadable(lib, f.unloadable));
  if (f.build_time)
    for (std::string &fix : a.fixes) fix += ", then configure and build again";
  if (f.build_time)
    a.fixes.push_back(
        "point the build at cuDNN: CMAKE_PREFIX_PATH (CMake), CPATH and LIBRARY_PATH "
        "(compiler and linker) to the directory that holds include/cudnn.h");
  else if (const std::string known = explain::canonical_library(f.library); !known.empty())
    a.fixes.push_back("cudnn-compat resolve " + known);
  else
    a.fixes.push_back("cudnn-compat resolve libcudnn.so" +
                      (major ? "." + std::to_string(*major) : std::string()));
}

void advise_mixed(const Finding &f, Advice &a) {
  if (f.windows_error == 127)
    a.what = (f.library.empty() ? "a cuDNN DLL" : f.library) +
             " was found but lacks a function its caller needs (Windows error 127): it comes from "
             "another cuDNN release than the one expected (mixed or older DLLs on PATH)";
  else
    a.what = (f.library.empty() ? std::string("cuDNN's sub-libraries")
                                : f.library + " was found, but it") +
             " came from another release than the rest of cuDNN (a mixed family: a second cuDNN of "
             "the same major earlier on the search path)";
  if (!f.status.empty()) a.what += " (" + f.status + ")";
  a.fixes.push_back(f.windows_error == 127
                        ? "keep the DLLs of one cuDNN release on PATH (remove the other copy)"
                        : CUDNN_COMPAT_SHIM_ON
                        "   # keeps every libcudnn_* in "
                        "the dispatcher's directory");
}

// The C and C++ runtimes of the system, not of CUDA: GCC's (libstdc++, libgcc_s) and glibc's.
bool system_runtime(std::string_view name) {
  for (std::string_view p : {"libstdc++.so", "libgcc_s.so", "libc.so", "libm.so", "libpthread.so",
                             "libdl.so", "librt.so", "ld-linux"})
    if (name.starts_with(p)) return true;
  return false;
}

void advise_dependency(const Finding &f, Advice &a) {
  const std::string lib = f.library.empty() ? "cuDNN" : f.library;
  if (system_runtime(f.missing)) {
    const bool gcc = f.missing.starts_with("libstdc++") || f.missing.starts_with("libgcc_s");
    a.what = lib + " was built against a newer " + f.missing + " than the one the loader found" +
             (gcc ? " (GCC's C++ runtime)" : " (the system's C library)");
    a.fixes.push_back(gcc ? "module load gcc/<a release at least as new as the one this cuDNN was "
                            "built with>   # its lib64 provides a newer " +
                                f.missing
                          : "run on a node whose operating system (glibc) is new enough for this "
                            "cuDNN, or use a cuDNN release built for this one");
    return;
  }
  // The readers say " lacks " when the dependency was there, but of another CUDA release.
  a.what =
      f.note.find(" lacks ") != std::string::npos
          ? lib + " needs " + f.missing +
                " of the CUDA release it was built for; the one "
                "the loader found is of another release"
      : !f.unloadable.empty()
          ? lib + " needs " + f.missing + ", which was found but does not load: " + f.unloadable
          : lib + " was found but needs " + f.missing + ", which the loader cannot find";
  if (f.missing == "zlibwapi.dll")
    a.fixes.push_back(
        "put zlibwapi.dll (zlib's Windows build, which cuDNN 8.3 and later on Windows "
        "need) in a directory on PATH");
  else if (f.missing.rfind("libcuda.so", 0) == 0)
    a.fixes.push_back("run on a node with the NVIDIA driver (" + f.missing +
                      " comes with the driver, not with CUDA)");
  else
    a.fixes.push_back("module load cuda/<the CUDA major this cuDNN was built for>   # provides " +
                      f.missing);
}

// The node facts resolve takes for a node you are not on, from what the message or the log named.
std::string resolve_for_node(const Finding &f) {
  return "cudnn-compat resolve --gpu " + (f.gpu ? to_string(*f.gpu) : std::string("<X.Y>")) +
         " --driver " + (f.driver_cuda ? to_string(*f.driver_cuda) : std::string("<X.Y>")) +
         "   # the installed release that runs on this GPU and driver" +
         (f.gpu && f.driver_cuda ? "" : " (nvidia-smi shows both)");
}

// The installed releases that run on the GPU and driver the message named (the map's device code,
// read by the caller, judged by fit()), best first, of the newest major that has one: module
// commands for those with a module. Nothing when the message names neither, or without a map.
std::vector<std::string> releases_for_node(const Finding &f, const Map *map,
                                           const ModuleScene &scene) {
  if (!map || (!f.gpu && !f.driver_cuda)) return {};
  Need need;
  need.rule = map->policy.rule;
  need.source = "the message";
  need.node = NodeFacts{{}, f.driver_cuda, "named in the message", ""};
  if (f.gpu) need.node->gpus.push_back(f.gpu->major * 10 + f.gpu->minor.value_or(0));
  std::set<int> majors;
  for (const Installed &e : map->cudnn) majors.insert(e.version.major);
  const std::string where =
      (f.gpu ? "runs on compute capability " + to_string(*f.gpu) : "runs") +
      (f.driver_cuda ? " with a CUDA " + to_string(*f.driver_cuda) + " driver" : std::string());
  for (auto m = majors.rbegin(); m != majors.rend(); ++m) {
    std::vector<std::string> fixes = installed_fixes(map, need, *m, scene);
    if (fixes.empty()) continue;
    for (std::string &fix : fixes)
      if (fix.find("   # cuDNN ") != std::string::npos) fix += ": " + where;
    return fixes;
  }
  return {};
}

void advise_arch(const Finding &f, const Map *map, const ModuleScene &scene, Advice &a) {
  const std::string gpu =
      f.gpu ? "this GPU (compute capability " + to_string(*f.gpu) + ")" : "this GPU";
  const std::string sm =
      f.gpu ? "sm_" + std::to_string(f.gpu->major) + std::to_string(f.gpu->minor.value_or(0))
            : "its architecture";
  a.what = (f.status.empty() ? "the program or a library it loaded (cuDNN, the framework, an "
                               "extension) carries no code for "
                             : "the cuDNN release loaded carries no code for ") +
           gpu + ": it was built for other GPU architectures (not a version mismatch)";
  if (!f.status.empty()) a.what += " (" + f.status + ")";
  a.fixes.push_back(
      "use a cuDNN release, and a framework build, that carry code (cubins or PTX) "
      "for " +
      sm + ": an older release for an old GPU, a newer one for a new GPU");
  for (std::string &fix : releases_for_node(f, map, scene)) a.fixes.push_back(std::move(fix));
  a.fixes.push_back(resolve_for_node(f));
}

void advise_driver(const Finding &f, const Map *map, const ModuleScene &scene, Advice &a) {
  a.what = "the node's NVIDIA driver" +
           (f.driver_cuda ? " (it runs CUDA " + to_string(*f.driver_cuda) + " and older)"
                          : std::string()) +
           " is older than the CUDA the program or its cuDNN was built for (not a cuDNN version "
           "mismatch)";
  a.fixes.push_back(
      "run on a node whose driver supports that CUDA (or, on data-centre GPUs, "
      "with the cuda-compat package), or use a cuDNN release and framework build "
      "for the CUDA this driver runs");
  for (std::string &fix : releases_for_node(f, map, scene)) a.fixes.push_back(std::move(fix));
  a.fixes.push_back(resolve_for_node(f));
}

}  // namespace

std::vector<std::string> installed_fixes(const Map *map, const Need &need, int major,
                                         const ModuleScene &scene) {
  std::vector<std::string> out;
  if (!map) return out;
  LibraryName any;
  any.version = Version{major, {}, {}, {}};
  const std::string old = loaded_cudnn_module(scene, map, major);
  for (std::size_t i : advised_releases(*map, need, any, scene, app_toolchain(scene, scene.app))) {
    const Installed &e = map->cudnn[i];
    const std::string swap = parent_swap(scene, e);
    out.push_back(module_command(scene, map, old, e) + "   # cuDNN " + to_string(e.version) +
                  (swap.empty() ? "" : "; " + swap));
  }
  // Installed, but in no module (the system's copy, a wheel's, a conda environment's): the shim
  // hands it over; a message that names only a major asks for that major.
  if (const std::vector<std::size_t> places = rank(*map, need, any);
      out.empty() && !places.empty()) {
    const Installed &best = map->cudnn[places.front()];
    // A place of the active Python environment is no map's (helper 111: "from the map" where
    // there was none). A framework's pin the shim reads itself: a requirement would only lose its
    // bounds (helper 114: REQUIRE=9.0 for ">=9.0,<9.5" kept a 9.20 the pin refuses).
    const bool pinned = need.origin == NeedOrigin::pin;
    out.push_back("export " +
                  (pinned
                       ? std::string()
                       : "CUDNN_COMPAT_REQUIRE=" +
                             (need.cudnn ? to_string(*need.cudnn) : std::to_string(major)) + " ") +
                  "LD_AUDIT=$(cudnn-compat shim-path)   # the shim " +
                  (pinned ? "follows the pin and " : "") + "picks it from " +
                  (best.claimed_in.empty() ? "the map" : "the active environment"));
    out.push_back("or: export LD_LIBRARY_PATH=" + best.lib + ":$LD_LIBRARY_PATH   # cuDNN " +
                  to_string(best.version));
  }
  return out;
}

std::string shim_on_fix(const std::string &mode, bool disabled, const std::string &asker,
                        const std::string &linked, const std::string &why) {
  const std::string comment = why.empty() ? "" : "   # " + why;
  const std::string fix = mode.empty()                              ? CUDNN_COMPAT_SHIM_ON + comment
                          : mode == "LD_PRELOAD" && !linked.empty() ? use_audit_fix(asker, linked)
                                                                    : "";
  return lift_disable(disabled, fix, why);
}

std::string lift_disable(bool disabled, const std::string &fix, const std::string &why) {
  if (!disabled) return fix;
  if (!fix.empty()) return "unset CUDNN_COMPAT_DISABLE; " + fix;
  return "unset CUDNN_COMPAT_DISABLE" + (why.empty() ? "" : "   # the shim then " + why);
}

std::string use_audit_instead(const std::string &why) {
  return std::string(CUDNN_COMPAT_USE_AUDIT) + "   # " + why;
}

std::string use_audit_fix(const std::string &library, const std::string &linked) {
  return use_audit_instead("under LD_PRELOAD the shim does not see " + library + "'s link of " +
                           linked);
}

Advice advise(const Finding &f, const Map *map, const ModuleScene &scene) {
  Advice a;
  const Rule rule = f.rule.value_or(map ? map->policy.rule : Rule::nvidia);
  switch (f.kind) {
    case FindingKind::version_mismatch:
    case FindingKind::outdated:
      advise_versions(f, rule, map, scene, a);
      break;
    case FindingKind::library_not_found:
      advise_missing(f, rule, map, scene, a);
      break;
    case FindingKind::sublibrary_mismatch:
      advise_mixed(f, a);
      break;
    case FindingKind::dependency_not_found:
      advise_dependency(f, a);
      break;
    case FindingKind::arch_mismatch:
      advise_arch(f, map, scene, a);
      break;
    case FindingKind::driver_too_old:
      advise_driver(f, map, scene, a);
      break;
    case FindingKind::unknown:
      a.what = f.note;
      break;
  }
  return a;
}

}  // namespace cudnn_compat
