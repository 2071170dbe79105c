// The model: cuDNN and CUDA versions, library and module names, the frameworks' rules and their
// verdicts, and the plain facts the layers above pass around. Pure: no file system, no process.
// Every layer of the engine speaks these structs, so the warning at `module load`, the redirect at
// run time and the answer of `cudnn-compat resolve` come from the same code.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_compat {

// A parse result: the value, or one sentence saying what was expected.
template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;

  static Parsed fail(std::string why) { return {std::nullopt, std::move(why)}; }
  explicit operator bool() const { return value.has_value(); }
  const T &operator*() const { return *value; }
  const T *operator->() const { return &*value; }
};

// ---------------------------------------------------------------------------------------------
// version.cc: every form a cuDNN or CUDA version takes in the wild.

// A version with as many components as the source carried: `libcudnn.so.5` knows only the major,
// a module `cudnn/5.1` no patch, a release name `8.9.2.26` a build number too. Unknown components
// stay unknown; nothing is guessed.
struct Version {
  int major = 0;
  std::optional<int> minor;
  std::optional<int> patch;
  std::optional<int> build;

  friend bool operator==(const Version &, const Version &) = default;
};

std::string to_string(const Version &v);                      // "5.1.10", "5.1", "5", "8.9.2.26"
int compare(const Version &a, const Version &b);              // unknown components sort first
bool is_prefix_of(const Version &pattern, const Version &v);  // 5.1 is a prefix of 5.1.10
// The same release: major, minor and patch equal (a library reports no build number).
bool same_release(const Version &a, const Version &b);

// cudnnGetVersion()/CUDNN_VERSION: major*1000+minor*100+patch up to 8.x, major*10000+... from 9.
Parsed<Version> parse_cudnn_number(std::string_view digits);
// The integer form of v in its own release's encoding; a missing minor or patch counts as 0.
std::int64_t cudnn_number(const Version &v);
// TensorFlow 2016-2018's "compatibility version": the number with the patch dropped (5103 -> 5100).
std::int64_t tensorflow_compat_number(const Version &v);

// cudnnGetCudartVersion(): major*1000 + minor*10 (12020 -> 12.2).
Parsed<Version> parse_cudart_number(std::string_view digits);

Parsed<Version> parse_dotted(std::string_view text);  // 5.1, 5.1.10, 8.9.2.26, v8.9.7
// The cuDNN a program was built with, as a need: a major alone (9: any 9.x the rule accepts) or
// a dotted version.
Parsed<Version> parse_required(std::string_view text);
Parsed<Version> parse_cuda(std::string_view text);   // a CUDA version as people write it: 12, 12.2
Parsed<Version> parse_tuple(std::string_view text);  // PyTorch's (8, 9, 2)

// ---------------------------------------------------------------------------------------------
// names.cc: library file names and module names.

// The cuDNN library a file name denotes: the dispatcher (`sub` empty) or a sub-library
// (`ops_infer`, `graph`, ...), with the version its name carries.
struct LibraryName {
  std::string sub;                 // "" for libcudnn itself
  std::optional<Version> version;  // nullopt for the unversioned libcudnn.so
  bool windows = false;            // cudnn64_8.dll, cudnn_ops64_9.dll

  friend bool operator==(const LibraryName &, const LibraryName &) = default;
};

// Accepts a bare name or a path; only the last component is read.
Parsed<LibraryName> parse_library_name(std::string_view name);
// The cuDNN libraries among an object's DT_NEEDED entries that name a major, its main libraries
// (libcudnn.so.9) before its sub-libraries: a cuDNN 8 inference program links
// libcudnn_ops_infer.so.8 alone, and loads that major all the same (helper 97).
std::vector<std::string> cudnn_linked(const std::vector<std::string> &needed);
// The dispatcher of one major, libcudnn.so.<major>: what a directory is searched for.
LibraryName main_library(int major);
// The version a file name carries (libcudnn.so.8.9.7 -> 8.9.7), if it is a cuDNN name at all.
std::optional<Version> version_in_name(std::string_view path);
// True for any name parse_library_name accepts; the shim's front end asks this first.
bool is_cudnn_library_name(std::string_view name);
// The sub-libraries a dispatcher of this major loads (FACTS.md section 2); empty before 8.
const std::vector<std::string_view> &sub_libraries(int major);
// The file name a library of one major has, its SONAME: libcudnn_ops.so.9 for "ops",
// libcudnn.so.9 for "" (the dispatcher).
std::string library_file(std::string_view sub, int major);
// The names a dispatcher of `version` asks the loader for its sub-library `sub`, in its order:
// from 9.0 the exact release first, then ever shorter names (FACTS.md section 2).
std::vector<std::string> dispatcher_asks(std::string_view sub, const Version &version);

// A module that provides cuDNN: `cudnn/5.1`, `cuDNN/8.9.2.26-CUDA-12.1.1` (EasyBuild),
// `cudnn/8.9.7.29-12` (Spack), `cudnn/9.1.0.70_cuda12`.
struct ModuleName {
  std::string name;  // the module name as written, "cuDNN/8.9.2.26-CUDA-12.1.1"
  Version cudnn;
  std::optional<Version> cuda;
};
Parsed<ModuleName> parse_module_name(std::string_view text);
// Spack's short hash in a module name (cudnn/8.9.7.29-12-abcdefg): 7 of [a-z0-9], a letter among
// them.
bool is_spack_hash(std::string_view token);
// A name with a component that starts with '.' (cudnn/.5.1): Lmod and Environment Modules hide it.
bool hidden_module(std::string_view name);

// The module system a user is in and what it has loaded: the environment shows it (system layer),
// the advice is decided from it (decide layer).
enum class ModuleSystemKind { unknown, lmod, envmodules };
std::string_view to_string(ModuleSystemKind k);  // "lmod", "envmodules", "unknown"
// "lmod" or "envmodules", as the CLI's options and the hooks name them.
std::optional<ModuleSystemKind> parse_module_system(std::string_view name);
enum class Toolchain { none, easybuild, spack };
struct LoadedModule {
  std::string name;  // full name: cudnn/5.0
  std::string file;  // its modulefile, "" when not known
};
struct ModuleScene {
  ModuleSystemKind system = ModuleSystemKind::unknown;
  std::vector<LoadedModule> loaded;  // in load order
  std::vector<std::string> ebroots;  // the EBROOT<NAME> variables set (EasyBuild's installations)
  std::string app;                   // the application the advice is for (its module), or ""
  // The module command a hook checks, as the hook saw it: what it loaded and unloaded, in order,
  // and whether the map refuses it (on_module_mismatch = "error"). A refused command took no
  // effect, so its advice starts from the modules loaded before it.
  std::vector<std::string> command_loaded = {}, command_unloaded = {};
  bool refused = false;
};

// ---------------------------------------------------------------------------------------------
// sources.cc: where an installed cuDNN came from. Every answer names it: resolve, doctor, the
// shim's lines and its report.

enum class Source {
  module,  // an environment module's directory
  wheel,   // a pip wheel: <site-packages>/nvidia/cudnn/lib (nvidia-cudnn-cu12, -cu13, ...)
  conda,   // a conda package: <prefix>/lib, with conda-meta/cudnn-<version>-<build>.json
  system,  // installed for the whole machine without a module (/usr/local/cuda, the OS's)
  user,    // anywhere else: a user's own directory on LD_LIBRARY_PATH
};
std::string_view to_string(Source s);
std::optional<Source> parse_source(std::string_view name);
// The directory a cuDNN wheel installs its libraries into, by its path (the shim's C rule).
bool is_wheel_dir(std::string_view dir);
// A directory of the machine's own installs (under /usr/ or /lib; the shim's C rule).
bool is_system_install(const std::string &dir);

// What a Python distribution (a wheel's dist-info) or a conda package (its conda-meta record)
// requires of cuDNN: read by the system layer, turned into a need by the decisions.

// One clause of a version requirement: "==9.1.0.70", ">=9.1", "<10.0", "~=9.1", "==9.*".
struct VersionClause {
  std::string op;  // ==, !=, >=, <=, >, <, ~=, ===
  Version version;
  bool wildcard = false;  // ==9.* (pip), 9.1.* or a bare 9.1 (conda): a prefix
};

struct CudnnPin {
  std::string consumer;                // who asks: "torch", "jax-cuda12-plugin", conda's "pytorch"
  std::string consumer_version;        // "2.6.0"
  bool conda = false;                  // a conda package's depends, not a wheel's Requires-Dist
  std::string package;                 // what it asks for: "nvidia-cudnn-cu12", conda's "cudnn"
  std::vector<VersionClause> clauses;  // all of them hold
  std::optional<int> cuda_major;       // the CUDA of the wheel asked for (nvidia-cudnn-cu12: 12)
  std::string text;                    // the requirement as written
  std::string file;                    // where it was read: .../torch-2.6.0.dist-info/METADATA
};

// Any of the forms above, told apart by their shape; an integer that could be either a cuDNN or
// a CUDA number is read as cuDNN only where no cuDNN release could be meant otherwise.
struct Decoded {
  std::string input;
  std::string form;  // "cudnn-number", "dotted", "tuple", "library", "module", "cudart-number"
  Version version;
  std::optional<Version> cuda;
  std::optional<LibraryName> library;
};
Parsed<Decoded> decode(std::string_view text);
Parsed<Decoded> decode_cudart(std::string_view text);

// ---------------------------------------------------------------------------------------------
// rules.cc: how each framework judges a runtime cuDNN against the one it was built with.

enum class Rule {
  nvidia,           // NVIDIA's policy: same major; from 7 on runtime minor >= built minor
  tensorflow_2016,  // 2016-2018: same major.minor ("compatibility version")
  tensorflow_2018,  // 2018-2020: same minor, or from 7 on runtime minor >= built minor
  tensorflow,       // TensorFlow 2.x, XLA: same major, runtime minor >= built minor
  pytorch,          // today: same major; before 7 same minor, else runtime minor >= built minor
  pytorch_2017,     // 2017-2020: v/100 equal
  caffe2,           // equal, or from 7000 on runtime >= built or same major.minor
  jax,              // runtime/100 >= built/100; 9.10.0 only when built with it
  paddle,           // runtime >= built, whole number
  mxnet,            // equal, whole number
  exact,            // every known component equal
};

struct RuleInfo {
  Rule rule;
  std::string_view name;     // as written in maps and on the command line
  std::string_view summary;  // one line for --help and explanations
};
const std::vector<RuleInfo> &all_rules();
std::optional<Rule> parse_rule(std::string_view name);
std::string_view rule_name(Rule r);

struct Verdict {
  bool compatible = false;
  std::string reason;  // one sentence, versions as x.y.z
};
// A built_with without a minor (a major alone) accepts any release of that major the rule takes.
Verdict judge(Rule rule, const Version &runtime, const Version &built_with);
// The cuDNN numbers (cudnn_number of the build) at which a rule's verdict changes for every
// release alike, not only where a release is (Caffe2's "from 7000 on"): the decision table asks
// just before and at each.
const std::vector<std::int64_t> &rule_thresholds();
// The releases a rule accepts for a build, in words: "5.1.x", "7.6 or a newer 7.x", "8.9.7".
std::string acceptable_releases(Rule rule, const Version &built_with);
// The releases that meet a minimum a program states at run time ("needs cuDNN 5.1"): the major is
// the one its SONAME names, and before 7 the minor too (NVIDIA's rule), so not "5.1 or newer":
// "5.1.x", "9.1 or a newer 9.x", "8.9.6 or a newer 8.x".
std::string minimum_releases(const Version &minimum);

// ---------------------------------------------------------------------------------------------
// Facts the system layer finds and the layers above judge (probe.cc, loader.cc fill them in).

enum class ProbeSource { library, header, filename };

struct Probe {
  std::string file;  // the libcudnn.so.<major> that was probed
  Version version;
  std::optional<Version> cuda;
  ProbeSource source = ProbeSource::library;
  std::string note;  // why a better source was not used, empty when the library answered
  // Why the library could not be asked at all (the probe program did not start: no process left
  // under `ulimit -u`, a noexec mount), empty when it was: such a library has not failed to load.
  std::string not_run = {};
  // The library's sub-libraries that its load and checks mapped (the probe's answer rests on them
  // too), as the loader named them; empty when no probe ran.
  std::vector<std::string> family = {};
  // Why the library ran and did not load, in the probe's words ("its sub-libraries are not one
  // release: ..."), when source is not the library.
  std::string failed = {};
};

// What a library says of itself when loaded (the probe's answer only), or why there is none.
struct LibraryCheck {
  std::optional<Probe> probe;  // it loaded and reported its version
  std::string not_run;         // else: the check could not run (why); empty: it does not load
  // Else what its load mapped of its family before it failed (a foreign sub-library): the answer
  // "it does not load" holds while they are as they were; and why it failed, when it says.
  std::vector<std::string> family;
  std::string failed;
  LibraryCheck(std::optional<Probe> p = std::nullopt, std::string why = {},  // NOLINT: implicit
               std::vector<std::string> mapped = {}, std::string failure = {})
      : probe(std::move(p)),
        not_run(std::move(why)),
        family(std::move(mapped)),
        failed(std::move(failure)) {}
};

// What the libraries a scan already loaded answered, by file size: a library byte for byte the
// same as one of them answers the same (one release copied into a directory per module).
struct ProbeMemo {
  std::map<std::uintmax_t, std::vector<Probe>> answered;
};

// The device code of one library (its .nv_fatbin section): the GPU architectures its cubins are
// for and those of its PTX, as compute capability major * 10 + minor (sm_75 -> 75, sm_121 -> 121).
struct DeviceCode {
  std::set<int> cubin, ptx;
  friend bool operator==(const DeviceCode &, const DeviceCode &) = default;
};
// A release's device code: each library of its family that carries any (file name, code). Empty
// when none does: the release cannot be judged on GPUs, and is not.
using ReleaseCode = std::vector<std::pair<std::string, DeviceCode>>;
// "sm_75 80 86, PTX 121" (pure).
std::string describe(const DeviceCode &code);
// "7.5" for 75 (pure).
std::string arch_name(int arch);

// What a node runs: its GPUs' compute capabilities (as DeviceCode's, one per GPU; empty when
// unknown) and the CUDA version its driver runs (CUDA forward compatibility included), learnt from
// `source`. A node whose facts could not be learnt (NVML failed) carries why in `problem`:
// decisions there keep the loader's choice rather than guess.
struct NodeFacts {
  std::vector<int> gpus;
  std::optional<Version> driver_cuda;
  std::string source;   // "CUDNN_COMPAT_GPU_ARCH", "NVML", "nvidia-smi", ...
  std::string problem;  // empty when the facts were learnt
};
// "7.5,9.0" (pure).
std::string gpu_list(const std::vector<int> &gpus);
// The first CUDA whose driver knows GPUs of compute capability arch (nullopt: unknown arch).
std::optional<Version> first_cuda_for(int arch);
// The newest CUDA a Linux driver of this version (535.104.05 -> 535, 104) runs, by NVIDIA's
// table of minimum drivers (CUDA toolkit release notes); nullopt for one older than CUDA 9.0's.
std::optional<Version> driver_cuda_for(int driver_major, int driver_minor);

struct LoaderHit {
  std::string path;
  std::string from;
  std::string named = {};  // from LD_PRELOAD: its entry as written (a bare name, a sub-library's)
};

}  // namespace cudnn_compat
