// The system: what the machine says - a library's own version (probe), ELF files, the dynamic
// loader's search emulated, ld.so.cache, the environment and where the map is. Uses the model.
#pragma once

#include "model.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudnn_compat {

// probe.cc: the version a library reports about itself.
std::string_view to_string(ProbeSource s);

struct ProbeOptions {
  std::string helper;       // the cudnn-compat-probe executable
  int timeout_ms = 10'000;  // a library that hangs in its constructor is given up on
  std::shared_ptr<ProbeMemo> memo = nullptr;  // set by scan: one load per distinct library file
};

// The cuDNN sub-libraries a file's bytes name ("engines_tensor_ir" for the text
// "libcudnn_engines_tensor_ir.so"): a dispatcher, or its graph library, names the stem of each
// sub-library it loads (doctor, the probe). Empty when the file cannot be read.
std::set<std::string> named_subs(const std::string &file);
// Those a family asks for by name: its dispatcher's and its directory's libcudnn_graph.so.<major>
// (which loads the engines) named_subs. The one rule of which files name them.
std::set<std::string> family_named_subs(const std::string &dispatcher, int major);
// The sub-library files a family of release v names that its dispatcher's directory holds under
// none of the names the dispatcher asks ("libcudnn_engines_tensor_ir.so.9"): a wheel installed
// without one fails at cuDNN's first handle, and a place handed over must hold them all. Read only
// of the places a decision would hand over: a real family's names are 0.3 MB of its files.
std::vector<std::string> lacking_subs(const std::string &dispatcher, const Version &v);
// A file, or a directory holding one main cuDNN library per major. Loads each in a child process
// (a crashing library cannot take the caller down), then falls back to the version header beside
// it, then to the file name.
Parsed<std::vector<Probe>> probe(const std::string &path, const ProbeOptions &options);

// family_path.cc: the LD_LIBRARY_PATH a library in dir is probed with, so that it sees its family
// as the shim hands it over: dir first, then every entry of ld_library_path but those that hold
// another family of major (of any, when unknown) - the shim's rule (shim/shared/family_path.h).
std::string family_library_path(std::string_view ld_library_path, const std::string &dir,
                                std::optional<int> major);

// The file in dir that serves a request for `requested` (I/O: reads the directory).
std::optional<std::string> find_library_file(const std::string &dir, const LibraryName &requested,
                                             int major);
// Whether this process can load the file: readable with its effective ids, on a file system not
// mounted noexec here (shim/shared/loadable.c: the shim's fast path asks the same).
bool loadable_here(const std::string &file);
// The version a library reports itself, by loading it in a child (probe); nullopt when it does not
// load - a header or a file name is no answer here.
std::optional<Probe> probe_library(const std::string &file, const ProbeOptions &options);
// The same, with why there is no answer when the probe could not run at all.
LibraryCheck check_library(const std::string &file, const ProbeOptions &options);
// What a probe another process started (the shim's, beside the engine) says of file on fd, read
// until it ends or timeout_ms pass; fd is closed. nullopt when it gave no version (it failed, or
// never ran): ask check_library, which says why.
std::optional<LibraryCheck> read_probe_answer(int fd, const std::string &file, int timeout_ms);

// ---------------------------------------------------------------------------------------------
// fatbin.cc: the GPU code a library carries, from its .nv_fatbin section.

// Reads size bytes at offset into out (false past the end): injected, so the parser is pure.
using ReadAt = std::function<bool(std::uint64_t offset, void *out, std::size_t size)>;
// The architectures of the fatbin containers in a section of `size` bytes; why not, for one cut
// short or forged.
Parsed<DeviceCode> parse_fatbin(const ReadAt &read, std::uint64_t size);
// A library's device code (empty for one without a .nv_fatbin section).
Parsed<DeviceCode> read_device_code(const std::string &file);
// Every libcudnn*.so.<major> in dir that carries device code; why not, for one that cannot be read.
Parsed<ReleaseCode> read_release_code(const std::string &dir, int major);
// The device code of the family a library file (libcudnn.so.9) belongs to: its directory's; empty
// when it cannot be read (not judged on GPUs).
ReleaseCode family_code(const std::string &file);

// ---------------------------------------------------------------------------------------------
// node_facts.cc: what this node runs - its GPUs and its driver's CUDA - learnt once per boot.

struct NodeSources {
  std::string helper;       // cudnn-compat-probe: NVML is loaded in it, never in the caller
  int timeout_ms = 10'000;  // the one deadline, for an NVML or nvidia-smi that hangs
  std::string gpu_arch;     // CUDNN_COMPAT_GPU_ARCH ("" unset)
  std::string driver_cuda;  // CUDNN_COMPAT_DRIVER_CUDA ("" unset)
  std::string memo_dir;     // where the node file of this boot goes ("" none)
  std::string node;         // this node's name (the node file's key, with the boot id)
  // The map's [[node]] entry for this node, when one matches: its values and its words.
  std::string map_gpu_arch = {}, map_driver_cuda = {}, map_entry = {};
  std::string nvidia_smi = "nvidia-smi";
  std::string proc_version = "/proc/driver/nvidia/version";
};
// The overrides checked (pure): no value when neither is set; why not, for a bad value or two
// that contradict each other (a GPU its driver is too old to know).
Parsed<std::optional<NodeFacts>> node_overrides(std::string_view gpu_arch,
                                                std::string_view driver_cuda);
// The same check of a map's [[node]] entry, its errors in the entry's words (gpu_arch,
// driver_cuda): the engine's at run time and `map validate`'s.
Parsed<std::optional<NodeFacts>> node_entry_facts(std::string_view gpu_arch,
                                                  std::string_view driver_cuda);
// cudnn-compat-probe --nvml's lines ("gpu 7.5", "driver 12020", "libcuda 12040", "error TEXT",
// "absent TEXT"): nullopt when there is no NVML (pure).
std::optional<NodeFacts> parse_nvml_answer(std::string_view out);
NodeFacts parse_nvidia_smi(std::string_view out);                 // "7.5, 535.104.05" lines
std::optional<Version> parse_proc_driver(std::string_view text);  // the driver's CUDA
// The node file's text for this boot (shim/shared/node_file.h), and its facts (pure): nullopt
// when cut short or of another boot (its boot line not boot).
std::string format_node_file(const NodeFacts &f, std::string_view boot);
std::optional<NodeFacts> parse_node_file(std::string_view text, std::string_view boot);
// dir/node-<node>; "" where dir is not this user's own or nobody else may write it.
std::string node_file_path(const std::string &dir, std::string_view node);
// This node's facts (none known on a node without NVML, nvidia-smi or an NVIDIA driver).
std::optional<NodeFacts> learn_node_facts(const NodeSources &sources);
// Why this node's GPUs and driver could not be learnt (NVML failed or hung, the probe did not
// start, a bad override), or nullopt when they were - also on a node without an NVIDIA driver.
std::optional<std::string> node_unknown(const NodeFacts &f);

// ---------------------------------------------------------------------------------------------
// loader.cc: where glibc's ld.so finds a bare name (I/O: reads ELF files and ld.so.cache).

struct ElfDynamic {
  std::vector<std::string> needed;
  std::string rpath, runpath, soname;
};
Parsed<ElfDynamic> read_elf_dynamic(const std::string &file);
// A search list split at separators (shim/shared/ld_system.h's: ":" for RPATH and RUNPATH, ":;"
// for LD_LIBRARY_PATH) with the tokens $ORIGIN, $LIB (lib: "lib/x86_64-linux-gnu" on Debian,
// "lib64" on RHEL) and $PLATFORM expanded as glibc does (cudnn_compat_token_length); another '$'
// is itself; an entry whose $ORIGIN is unknown (origin empty) is dropped; an empty entry is ".".
std::vector<std::string> expand_search_path(std::string_view list, const std::string &origin,
                                            std::string_view lib, std::string_view separators);
// The glibc-hwcaps subdirectories ld.so searches on this CPU, best first ("x86-64-v3", ...).
std::vector<std::string> glibc_hwcaps_subdirs();
// What ld.so.cache bytes (new, old or compat layout) say name is, preferring the entry from the
// first of hwcaps that has one (pure).
std::optional<std::string> ld_cache_find(std::string_view file, std::string_view name,
                                         const std::vector<std::string> &hwcaps);
std::optional<std::string> ld_cache_lookup(
    const std::string &name, const std::string &cache = "/etc/ld.so.cache",
    const std::vector<std::string> &hwcaps = glibc_hwcaps_subdirs());
// The default directories of a glibc whose loader lives in loader_dir (pure), and of this one.
std::vector<std::string> default_directories(std::string_view loader_dir);
std::vector<std::string> loader_default_dirs();

struct SearchStep {
  std::string dir;   // for the ld.so.cache step, the cache file
  std::string from;  // "LD_LIBRARY_PATH", "RUNPATH of /x/libfoo.so", "ld.so.cache", ...
};
struct Preloaded {
  std::string file, soname, entry;  // entry: as LD_PRELOAD writes it
};
struct LoaderContext {
  std::string requester;   // the object that asks (its RUNPATH/RPATH count), or ""
  std::string executable;  // the main program (its RPATH is inherited)
  std::string ld_library_path;
  bool secure = false;  // setuid: LD_LIBRARY_PATH is ignored
  std::string ld_cache = "/etc/ld.so.cache";
  std::vector<std::string> hwcaps = glibc_hwcaps_subdirs();
  std::vector<std::string> default_dirs = loader_default_dirs();
  // The directories before ld.so.cache as the loader itself lists them for the requester (the
  // shim passes them, shim/protocol.h); when set, RPATH, LD_LIBRARY_PATH and RUNPATH are not
  // read from the files and the environment.
  std::optional<std::vector<SearchStep>> before_cache;
  // LD_PRELOAD's objects, loaded before anything asks: a bare name whose SONAME one of them
  // carries is that object, wherever the search would go (preloaded_objects).
  std::vector<Preloaded> preloaded;
};
// loader_lists.cc: what ld.so takes from LD_AUDIT and LD_PRELOAD (I/O: reads ELF files).

// The entries of LD_AUDIT (split at colons) or LD_PRELOAD (at spaces and colons, as rtld.c's
// handle_preload_list does), in order; empty ones dropped (pure).
std::vector<std::string> loader_list(std::string_view var, std::string_view value);
// The objects an LD_PRELOAD value loads: a bare entry searched as in lc; an entry that does not
// load, or has no SONAME, is left out (no later name can match it).
std::vector<Preloaded> preloaded_objects(std::string_view ld_preload, const LoaderContext &lc);
// Where LD_PRELOAD loads a cuDNN library of major (lc.preloaded), its main library or a
// sub-library, the process's family of that major is its directory's, since the shim keeps a
// family whole (helper 100: a preloaded libcudnn_ops.so.9 of 9.1.0 gave torch 9.1.0 while doctor
// said "ok"): the file there that serves `requested` (the preloaded one where it is that), from
// "LD_PRELOAD", named as the list writes it. nullopt where LD_PRELOAD loads none of that major.
std::optional<LoaderHit> preloaded_family(const LoaderContext &lc, const LibraryName &requested,
                                          int major);
// The shim as ld.so takes it: the first entry of LD_AUDIT, then of LD_PRELOAD, that loads and is
// the shim (its SONAME: a site's link or copy of another name is the shim too) with its engine
// beside it. Named by its file's name alone it may be nothing: ld.so prints "cannot be loaded as
// audit interface ... ignored" for a missing or empty file and runs on without it.
struct ShimInEnv {
  std::string mode;  // "LD_AUDIT" or "LD_PRELOAD"; "" when off
  std::string file;
  std::string ignored;  // when off: why an entry that names the shim does nothing, in words
};
ShimInEnv shim_in_env(std::string_view ld_audit, std::string_view ld_preload,
                      const LoaderContext &lc);

// In the loader's order: RPATH (without RUNPATH), LD_LIBRARY_PATH, RUNPATH, cache, defaults;
// loader_search tries each directory's glibc-hwcaps subdirectories (hwcaps) before it.
std::vector<SearchStep> loader_search_path(const LoaderContext &in);
std::optional<LoaderHit> loader_search(const std::string &name, const LoaderContext &in);
// A directory holding a main cuDNN library (libcudnn.so.<N>) itself.
bool dir_holds_cudnn(const std::string &dir);

// ---------------------------------------------------------------------------------------------
// python_metadata.cc: the files pip and conda write about what they installed, read (pure).

// A wheel's METADATA (core metadata: "Key: value" headers up to the first blank line).
struct DistMetadata {
  std::string name, version;
  std::vector<std::string> requires_dist;  // each Requires-Dist value as written
};
DistMetadata parse_dist_metadata(std::string_view text);
// A dist-info RECORD (CSV: path,hash,size): the paths, relative to site-packages.
std::vector<std::string> parse_record(std::string_view text);
// A conda-meta/<name>-<version>-<build>.json record; nullopt when it is no such JSON object.
struct CondaRecord {
  std::string name, version, build;
  std::vector<std::string> depends;  // match specs: "cudnn >=9.1.0.70,<10.0a0"
  std::vector<std::string> files;    // relative to the prefix
};
std::optional<CondaRecord> parse_conda_record(std::string_view json);
// PEP 503: lower case, runs of '-', '_' and '.' as one '-' (nvidia_cudnn_cu12 ->
// nvidia-cudnn-cu12).
std::string normalize_dist_name(std::string_view name);
// The cuDNN wheel (nvidia-cudnn-cu<N>) a Requires-Dist value asks for, with its version clauses,
// when its markers hold on Linux x86-64 (an `extra` counts as requested); nullopt for any other.
std::optional<CudnnPin> cudnn_requirement(std::string_view requirement);
// The cudnn a conda depends entry asks for ("cudnn >=8.9.2.26,<9.0a0", "cudnn 9.1.*").
std::optional<CudnnPin> cudnn_depend(std::string_view depend);
// The CUDA major a conda package is built for, from its depends (cuda-version, cuda-cudart,
// pytorch-cuda, cudatoolkit), else from its build string ("cuda126py311...", "..._cuda12.1_...").
std::optional<int> conda_cuda_major(const CondaRecord &r);

// ---------------------------------------------------------------------------------------------
// python_env.cc: cuDNN installed by pip and conda, and the distributions that ask for it (I/O).

struct PythonPlace {
  std::string lib;  // <site-packages>/nvidia/cudnn/lib, or <prefix>/lib
  // As the wheel's METADATA or the conda record says (x.y.z.b); none where that is no x.y.z
  // (note says so), and then only a probe of the library tells.
  std::optional<Version> version;
  std::optional<Version> cuda;
  Source source = Source::wheel;  // wheel or conda
  std::string package;            // "nvidia-cudnn-cu12 9.1.0.70", "cudnn 9.1.0.70 (conda)"
  std::string file;               // the METADATA or conda-meta record it was read from
  std::string note = {};          // why its package's version was not taken, else ""
};
// The release part of a package's version, PEP 440's or conda's ("9.1.0.70.post1",
// "9.1.0.70+cu124", "1!9.1.0": the numbers up to the first that is not one); none for a wildcard
// or a text that does not start with a number.
std::optional<Version> package_release(std::string_view text);
// The wheels' and conda environments' cuDNN under root: a virtualenv, a site-packages, a conda
// prefix or installation (envs/ included), or a tree of them; each directory visited once.
std::vector<PythonPlace> find_python_places(const std::string &root);
// The cuDNN of one site-packages directory (a wheel's) and of one conda prefix.
std::optional<PythonPlace> wheel_place(const std::string &site_packages);
std::optional<PythonPlace> conda_place(const std::string &prefix);
// A conda prefix's lib/ directory: the shim's rule (conda_meta_beside), and conda-meta/ is there.
bool is_conda_lib_dir(const std::string &dir);
// The site-packages directories of a virtualenv or conda prefix (lib/python3.*/site-packages).
std::vector<std::string> site_packages_of(const std::string &prefix);
// The environment a file lives in: the site-packages (or Debian's dist-packages) directory above
// it and the conda prefix above it (one holding conda-meta/); "" when none.
struct FileEnvironment {
  std::string site_packages, conda_prefix;
};
FileEnvironment environment_of(const std::string &file);
// What the distribution that installed `file` requires of cuDNN: the wheel whose RECORD lists it
// (top_level.txt tried first) and the conda package whose record lists it. Empty when neither
// asks for cuDNN.
std::vector<CudnnPin> pins_of_file(const std::string &file);
// pins_of_file() of the files of a process (the requester first, then its mapped objects): the
// pins of every consumer in it, each once, those of the first file first. Only files below a
// site-packages or in a conda prefix's lib/ are looked at.
std::vector<CudnnPin> pins_of_files(const std::vector<std::string> &files);
// A framework installed in an environment and the library of it that loads cuDNN: one whose
// DT_NEEDED names a cuDNN main library, or whose RUNPATH leads to a wheel's nvidia/cudnn/lib
// (libtorch_cuda.so: $ORIGIN/../../nvidia/cudnn/lib).
struct CudnnConsumer {
  std::string name, version;   // "torch", "2.6.0"; a conda package's name and version
  std::vector<CudnnPin> pins;  // what it requires of cuDNN; none for one whose library loads it
  std::string library;         // its library that loads cuDNN
  std::optional<int> major;    // the cuDNN major that library links, when it says
  bool wheel_runpath = false;  // its RUNPATH (or RPATH) leads to a wheel's nvidia/cudnn/lib
};
// The consumers among the distributions of a site-packages directory and the packages of a
// conda prefix (either may be ""): those that pin cuDNN, and the distributions that pin none but
// whose library links cuDNN or finds a wheel's, with their libraries read from
// RECORD and the conda record.
std::vector<CudnnConsumer> cudnn_consumers(const std::string &site_packages,
                                           const std::string &conda_prefix);
// What an interpreter searches for packages beyond its own environment, as Python's site.py
// reads the environment: PYTHONPATH, the user site (PYTHONUSERBASE, else ~/.local) unless
// PYTHONNOUSERSITE is set.
struct PythonSearch {
  std::optional<std::string> pythonpath, user_base, home;
  bool no_user_site = false;
};
// The site directories an interpreter (a file named python*) searches before its environment's,
// in its order: PYTHONPATH's directories, then its version's user site where site.py enables one
// (not inside a virtualenv or conda env). pip install --user and a module's PYTHONPATH put
// frameworks there (helper 97: resolve --for /usr/bin/python3 did not see them).
std::vector<std::string> interpreter_search_sites(const std::string &program,
                                                  const PythonSearch &search);
// The consumers of the active environment: $VIRTUAL_ENV, $CONDA_PREFIX and the environments of
// the given files, as active_places() finds them, after what an interpreter among the files
// searches first (interpreter_search_sites).
std::vector<CudnnConsumer> active_consumers(const std::optional<std::string> &virtual_env,
                                            const std::optional<std::string> &conda_prefix,
                                            const std::vector<std::string> &files,
                                            const PythonSearch &search = {});
// The files a process has mapped, from its /proc/<pid>/maps (the libraries loaded in it).
std::vector<std::string> mapped_files(const std::string &maps);
// Whether a program is a Python interpreter, by its name (python, python3, python3.11).
bool is_python_interpreter(const std::string &program);
// The environment a Python interpreter is the program of: <env> for <env>/bin/python beside
// <env>/pyvenv.cfg (a virtualenv) or <env>/conda-meta/ (a conda env); "" for any other file.
std::string interpreter_environment(const std::string &program);
// The places of the active environment: $VIRTUAL_ENV, $CONDA_PREFIX and the environments of the
// given files (the program, the library asking for cuDNN), each once.
std::vector<PythonPlace> active_places(const std::optional<std::string> &virtual_env,
                                       const std::optional<std::string> &conda_prefix,
                                       const std::vector<std::string> &files);

// ---------------------------------------------------------------------------------------------
// environment.cc: the edges where the environment is read.

std::optional<std::string> env(const char *name);  // secure_getenv; empty counts as unset
// The prefix a program in dir belongs to: dir without its bin/ or lib/cudnn-compat/ (pure).
std::optional<std::string> prefix_of_program_dir(std::string_view dir);
// The running program's file: /proc/self/exe, else (no /proc: a chroot, a sandbox) the path it
// was run by when that has a slash (the shim runs its engine by an absolute one), its real path;
// nullopt when it was found on PATH.
std::optional<std::string> program_path();
// The running program's GNU build ID, in lower-case hex, read from its own image (no file is
// opened); empty when it was linked without one. It names the build, wherever the file is.
std::string program_build_id();
// The running program's prefix, from program_path(): an installed tree may be moved.
std::optional<std::string> install_prefix();
// The module system this shell runs, from what each exports: Lmod LMOD_CMD (LMOD_VERSION),
// Environment Modules MODULES_CMD; both set MODULESHOME, and bash exports the `module` function's
// body. The one reading of it: doctor, module-check and scan ask it alike.
ModuleSystemKind shell_module_system();
// The user's module system as the environment shows it: which system, the loaded modules and their
// files (LOADEDMODULES, _LMFILES_), EBROOT* variables, the first application in CUDNN_COMPAT_NEEDS.
ModuleScene module_scene_from_environment();
// Whether this process runs inside a container whose runtime carried the host's environment in
// (Apptainer, Singularity), and what says so ("APPTAINER_CONTAINER is set"); nullopt elsewhere,
// also in Docker and Podman containers, which start from the image's environment. The files
// looked at, for a decision that rests on the answer (the engine's memo).
std::optional<std::string> container_evidence();
const std::vector<std::string> &container_marker_files();
// The installed map of a tree at prefix: <prefix>/<sysconfdir>/cudnn-compat/map.toml, the
// sysconfdir's own when it is absolute, and the system map for the prefix /usr (no /usr/etc).
// And the example map the tree holds: beside the installed map, or under share/ where that map is
// outside the prefix (cmake/SiteContract.cmake), or where a tree laid out for /usr was unpacked
// elsewhere (the first looks only at the path, the second also at the files).
std::string installed_map_path(const std::string &prefix);
std::string example_map_path(const std::string &prefix);
// $CUDNN_COMPAT_MAP, the installed map (above), /etc/cudnn-compat/map.toml.
std::optional<std::string> find_map_path();
std::vector<std::string> map_search_path();
// The search after $CUDNN_COMPAT_MAP for a tree at prefix (none known: the system map alone), and
// the same in words, as --help and the manual pages say it: "A, then B" for that prefix, or, with
// no prefix, the rule for every installation ("<prefix>/...", and the prefix /usr where it
// differs). One rule: map_search_path() takes the list from the first.
std::vector<std::string> default_map_search(const std::optional<std::string> &prefix);
std::string default_map_search_text(const std::optional<std::string> &prefix);

// ---------------------------------------------------------------------------------------------
// memo.cc: the engine's side of the per-node memo of its decisions (shim/shared/memo_format.h).

// A variable env() was asked for, and what it said (nullopt: unset or empty).
using EnvRead = std::pair<std::string, std::optional<std::string>>;
// From now on every env() call is appended to *into (nullptr: no longer): a remembered decision
// holds only while the variables it read say the same.
void record_env_reads(std::vector<EnvRead> *into);
void note_env_read(const char *name, const std::optional<std::string> &value);

// A file's identity on this node: its device is part of it (the memo is never shared).
struct FileIdentity {
  std::uint64_t dev = 0, ino = 0, size = 0, mtime_ns = 0, ctime_ns = 0;
  friend bool operator==(const FileIdentity &, const FileIdentity &) = default;
};
std::optional<FileIdentity> identify_file(const std::string &path);  // stat, links followed
// git's racy rule: changed so shortly before since_ns (CLOCK_REALTIME) that a change in the same
// tick of its file system's clock would leave the identity as it is.
bool changed_lately(const FileIdentity &id, std::uint64_t since_ns);

struct MemoEntry {
  std::string key;    // the shim's, verbatim
  std::string build;  // the engine's build ID (program_build_id): its entries hold for its shim
  std::vector<std::pair<std::string, std::optional<FileIdentity>>> files;  // nullopt: not there
  std::vector<EnvRead> env;
  std::string answer;  // shim/protocol.h's lines, each ended by a newline
};
// The entry's text (pure); nullopt when it cannot be written (a line break in a field, too large).
std::optional<std::string> format_memo_entry(const MemoEntry &e);
// Writes e at entry (DIR/<hash>.memo, as the shim named it) when DIR is the memo directory the
// shim checks; empty, or why not (nobody is told: a memo that cannot be written is only slower).
std::string write_memo_entry(const std::string &entry, const MemoEntry &e);
// Keeps the directory of entry within its bound: the oldest entries beyond it go, and the
// leftovers of writers that died. Apart from the write, so that the engine does it after its
// answer, while the process it answered goes on.
void prune_memo(const std::string &entry);

}  // namespace cudnn_compat
