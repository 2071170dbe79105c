#include "decision_inputs.h"
#include "node_file.h"

#include <unistd.h>

namespace cudnn_compat {
namespace {

// The flag when given, else the variable; `source` names whichever it was.
std::optional<std::string> flag_or_env(const std::string &flag, const char *flag_name,
                                       const char *var, const EnvReader &read_env,
                                       std::string &source) {
  source = flag.empty() ? var : flag_name;
  return flag.empty() ? read_env(var) : flag;
}

}  // namespace

NeedInputs need_inputs(const Asked &asked, const EnvReader &read_env) {
  NeedInputs in;
  in.require =
      flag_or_env(asked.require, "--require", "CUDNN_COMPAT_REQUIRE", read_env, in.require_source);
  in.cuda = flag_or_env(asked.cuda, "--cuda", "CUDNN_COMPAT_CUDA", read_env, in.cuda_source);
  in.rule = asked.rule;
  in.programs = asked.programs;
  if (asked.requested) in.requested = *asked.requested;
  return in;
}

LoaderContext loader_context(const std::string &executable, const std::string &requester,
                             const EnvReader &read_env) {
  LoaderContext lc;
  lc.executable = executable;
  lc.requester = requester;
  lc.ld_library_path = read_env("LD_LIBRARY_PATH").value_or("");
  lc.secure = read_env("CUDNN_COMPAT_SECURE").has_value();
  return lc;
}

NodeSources node_sources(const EnvReader &read_env, const std::string &helper, int timeout_ms) {
  NodeSources s;
  s.helper = helper;
  s.timeout_ms = timeout_ms;
  s.gpu_arch = read_env("CUDNN_COMPAT_GPU_ARCH").value_or("");
  s.driver_cuda = read_env("CUDNN_COMPAT_DRIVER_CUDA").value_or("");
  s.memo_dir = CUDNN_COMPAT_NODE_DIR_PREFIX + std::to_string(geteuid());
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  s.node = read_env("SLURMD_NODENAME").value_or(host);
  return s;
}

SelectInputs select_inputs(const std::string &name, const LibraryName &requested, const Need &need,
                           const std::optional<LoaderHit> &loader, const Map *map) {
  SelectInputs in;
  in.name = name;
  in.requested = requested;
  in.need = need;
  in.loader = loader;
  in.map = map;
  return in;
}

}  // namespace cudnn_compat
