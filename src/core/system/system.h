// The system: what the machine says - a library's own version (probe), ELF files, the dynamic
// loader's search emulated, ld.so.cache, the environment and where the map is. Uses the model.
#pragma once

#include "model.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_compat {

// probe.cc: the version a library reports about itself.
std::string_view to_string(ProbeSource s);

struct ProbeOptions {
  std::string helper;       // the cudnn-compat-probe executable
  int timeout_ms = 10'000;  // a library that hangs in its constructor is given up on
  std::shared_ptr<ProbeMemo> memo = nullptr;  // set by scan: one load per distinct library file
};

// A file, or a directory holding one main cuDNN library per major. Loads each in a child process
// (a crashing library cannot take the caller down), then falls back to the version header beside
// it, then to the file name.
Parsed<std::vector<Probe>> probe(const std::string &path, const ProbeOptions &options);

// family_path.cc: the LD_LIBRARY_PATH a library in dir is probed with, so that it sees its family
// as the shim hands it over: dir first, then every entry of ld_library_path but those that hold
// another family (pure; the predicate does the I/O).
std::string family_library_path(std::string_view ld_library_path, const std::string &dir,
                                const std::function<bool(const std::string &)> &other_family);
// An entry (not dir itself) holding a versioned cuDNN library of major (of any, when unknown).
bool holds_other_family(const std::string &entry, const std::string &dir, std::optional<int> major);

// The file in dir that serves a request for `requested` (I/O: reads the directory).
std::optional<std::string> find_library_file(const std::string &dir, const LibraryName &requested,
                                             int major);
// The version a library reports itself, by loading it in a child (probe); nullopt when it does not
// load - a header or a file name is no answer here.
std::optional<Probe> probe_library(const std::string &file, const ProbeOptions &options);
// The same, with why there is no answer when the probe could not run at all.
LibraryCheck check_library(const std::string &file, const ProbeOptions &options);

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
  std::string nvidia_smi = "nvidia-smi";
  std::string proc_version = "/proc/driver/nvidia/version";
};
// The overrides checked (pure): no value when neither is set; why not, for a bad value or two
// that contradict each other (a GPU its driver is too old to know).
Parsed<std::optional<NodeFacts>> node_overrides(std::string_view gpu_arch,
                                                std::string_view driver_cuda);
// cudnn-compat-probe --nvml's lines ("gpu 7.5", "driver 12020", "libcuda 12040", "error TEXT",
// "absent TEXT"): nullopt when there is no NVML (pure).
std::optional<NodeFacts> parse_nvml_answer(std::string_view out);
NodeFacts parse_nvidia_smi(std::string_view out);                 // "7.5, 535.104.05" lines
std::optional<Version> parse_proc_driver(std::string_view text);  // the driver's CUDA
std::string format_node_file(const NodeFacts &f);                 // pure
std::optional<NodeFacts> parse_node_file(std::string_view text);  // pure; nullopt: cut short
// dir/node-<boot id>-<node>: a reboot (a new driver) starts afresh; "" without a boot id.
std::string node_file_path(const std::string &dir, std::string_view node);
// This node's facts (none known on a node without NVML, nvidia-smi or an NVIDIA driver).
std::optional<NodeFacts> learn_node_facts(const NodeSources &sources);

// ---------------------------------------------------------------------------------------------
// loader.cc: where glibc's ld.so finds a bare name (I/O: reads ELF files and ld.so.cache).

struct ElfDynamic {
  std::vector<std::string> needed;
  std::string rpath, runpath, soname;
};
Parsed<ElfDynamic> read_elf_dynamic(const std::string &file);
// A colon list with $ORIGIN, $LIB (lib: "lib/x86_64-linux-gnu" on Debian, "lib64" on RHEL) and
// $PLATFORM expanded; an empty entry is ".".
std::vector<std::string> expand_search_path(std::string_view list, const std::string &origin,
                                            std::string_view lib = "lib/x86_64-linux-gnu");
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
};
// In the loader's order: RPATH (without RUNPATH), LD_LIBRARY_PATH, RUNPATH, cache, defaults;
// loader_search tries each directory's glibc-hwcaps subdirectories (hwcaps) before it.
std::vector<SearchStep> loader_search_path(const LoaderContext &in);
std::optional<LoaderHit> loader_search(const std::string &name, const LoaderContext &in);
// A directory holding a main cuDNN library (libcudnn.so.<N>) itself.
bool dir_holds_cudnn(const std::string &dir);

// ---------------------------------------------------------------------------------------------
// environment.cc: the edges where the environment is read.

std::optional<std::string> env(const char *name);  // secure_getenv; empty counts as unset
// The prefix a program in dir belongs to: dir without its bin/ or lib/cudnn-compat/ (pure).
std::optional<std::string> prefix_of_program_dir(std::string_view dir);
// The running program's prefix, from /proc/self/exe: an installed tree may be moved.
std::optional<std::string> install_prefix();
// The user's module system as the environment shows it: which system, the loaded modules and their
// files (LOADEDMODULES, _LMFILES_), EBROOT* variables, the first application in CUDNN_COMPAT_NEEDS.
ModuleScene module_scene_from_environment();
// $CUDNN_COMPAT_MAP, <prefix>/etc/cudnn-compat/map.toml, /etc/cudnn-compat/map.toml.
std::optional<std::string> find_map_path();
std::vector<std::string> map_search_path();

}  // namespace cudnn_compat
