// Where the inputs of a decision come from, for every caller - the engine (src/select), doctor,
// doctor --nodes and resolve - so that what they decide from cannot drift apart: a flag wins over
// its variable, [[require]] globs see the caller's program paths, the loader sees the
// environment's LD_LIBRARY_PATH.
#pragma once

#include "decide.h"
#include "system.h"

#include <functional>

namespace cudnn_compat {

using EnvReader = std::function<std::optional<std::string>(const char *name)>;

struct Asked {                        // what the caller was told beyond the environment
  std::string require, cuda;          // --require, --cuda; empty: CUDNN_COMPAT_REQUIRE, _CUDA
  std::optional<Rule> rule;           // --rule; else the map's policy
  std::vector<std::string> programs;  // paths a [[require]] glob may name
  std::optional<LibraryName> requested;
};
NeedInputs need_inputs(const Asked &asked, const EnvReader &read_env);

// The loader's view of a process run as `executable` in which `requester` asks (either may be
// empty): LD_LIBRARY_PATH and secure mode from the environment.
LoaderContext loader_context(const std::string &executable, const std::string &requester,
                             const EnvReader &read_env);

// Where this node's facts come from for a caller with this environment: its overrides, its
// user's node file, the NVML probe (helper) within timeout_ms.
NodeSources node_sources(const EnvReader &read_env, const std::string &helper, int timeout_ms);

// The engine's inputs for a request of `name`, which parses as `requested`, by a process that
// needs `need` and would get `loader` without the shim.
SelectInputs select_inputs(const std::string &name, const LibraryName &requested, const Need &need,
                           const std::optional<LoaderHit> &loader, const Map *map);

}  // namespace cudnn_compat
