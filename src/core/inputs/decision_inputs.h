// Where the inputs of a decision come from, for every caller - the engine (src/select), doctor,
// doctor --nodes and resolve - so that what they decide from cannot drift apart: a flag wins over
// its variable, [[require]] globs see the caller's program paths, the loader sees the
// environment's LD_LIBRARY_PATH.
#pragma once

#include "decide.h"
#include "system.h"

#include <functional>
#include <map>

namespace cudnn_compat {

using EnvReader = std::function<std::optional<std::string>(const char *name)>;

struct Asked {                        // what the caller was told beyond the environment
  std::string require, cuda;          // --require, --cuda; empty: the environment's (env_need)
  std::optional<Rule> rule;           // --rule; else the map's policy
  std::vector<std::string> programs;  // paths a [[require]] glob may name
  std::optional<LibraryName> requested;
  std::vector<CudnnPin> pins = {};  // what the Python distributions in the process pin
};
NeedInputs need_inputs(const Asked &asked, const EnvReader &read_env);
// What the environment asks for, as the shim reads it (shim/shared/asked_need.h): the user's
// CUDNN_COMPAT_REQUIRE / _CUDA, else the need of the application module loaded last
// (CUDNN_COMPAT_NEEDS), with where each came from.
struct EnvNeed {
  std::optional<std::string> require;
  std::string require_source;
  std::optional<std::string> cuda;
  std::string cuda_source;
};
EnvNeed env_need(const EnvReader &read_env);

// What a Python interpreter searches beyond its environment, from the environment.
PythonSearch python_search(const EnvReader &read_env);
// The loader's view of a process run as `executable` in which `requester` asks (either may be
// empty): LD_LIBRARY_PATH and secure mode from the environment.
LoaderContext loader_context(const std::string &executable, const std::string &requester,
                             const EnvReader &read_env);
// The same, with the objects LD_PRELOAD loads, for resolve and doctor: the engine, which runs
// without LD_PRELOAD, must not read it (the memo keeps every variable read as a ground, and the
// next process, preloading the shim, would never match it).
LoaderContext preloading_context(const std::string &executable, const std::string &requester,
                                 const EnvReader &read_env);

// The map as a process in a Python environment sees it: the site's places, then the active
// environment's (wheels and conda envs, `places`) that the map does not list, each with its
// source. With no map, those places alone under the default policy; nullopt when neither.
std::optional<Map> with_places(const Map *map, const std::vector<PythonPlace> &places);
// A directory in one spelling, as with_places compares places: as the loader names one
// ($ORIGIN/../../nvidia/cudnn/lib), as a map or a link does.
std::string canonical_dir(const std::string &dir);
// Where the loader's own pick comes from: the place of the map that holds it, else a wheel or
// conda environment by its directory, else the system (ld.so.cache, the default directories, a
// directory under /usr or /lib) or the user (anywhere else on LD_LIBRARY_PATH, RPATH, RUNPATH).
Source source_of_hit(const LoaderHit &hit, const Map *map);

// Where this node's facts come from for a caller with this environment: its overrides, its
// user's node file, the NVML probe (helper) within timeout_ms.
// and the map's first [[node]] entry whose name matches this node's (a glob).
NodeSources node_sources(const EnvReader &read_env, const std::string &helper, int timeout_ms,
                         const Map *map = nullptr);

// The engine's inputs for a request of `name`, which parses as `requested`, by a process that
// needs `need` and would get `loader` without the shim.
SelectInputs select_inputs(const std::string &name, const LibraryName &requested, const Need &need,
                           const std::optional<LoaderHit> &loader, const Map *map);

// The libraries the map's decision table knows, as it knew them when the map had this stamp, and
// the device code it recorded for their families: the engine's and resolve's view of the table.
std::vector<KnownLibrary> known_libraries(const std::string &map_path, const FileStamp &stamp,
                                          std::map<std::size_t, ReleaseCode> &codes);
// The engine's edges for select_library. A file the map's decision table knows by its identity
// is taken at the table's word (remembered_probe), so that the engine and the shim's fast path
// answer alike, when this process can load both it and the path the table probed it at; any other
// file is asked of `probe`. Files are found as the shim hands them over. Keeps a reference to
// known, which must outlive the result.
SelectIo engine_io(const std::vector<KnownLibrary> &known, const Map *map, bool cuda_needed,
                   std::function<LibraryCheck(const std::string &file)> probe);

}  // namespace cudnn_compat
