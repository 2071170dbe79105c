// Whether a cuDNN release fits a need: the one predicate behind resolve, the shim's selection,
// module-check and the hooks' fits table, so that they can never disagree.
#include "decide.h"

#include <set>

namespace cudnn_compat {

std::optional<std::string> major_conflict(const Need &need, std::optional<int> major) {
  if (!need.cudnn || !major || need.cudnn->major == *major) return std::nullopt;
  const std::string asked = std::to_string(*major);
  return "the program asks for cuDNN " + asked + " by name, which only a cuDNN " + asked +
         " can serve, not the " + to_string(*need.cudnn) + " required";
}

bool code_runs_on(const DeviceCode &code, int gpu) {
  for (int a : code.cubin)
    if (a / 10 == gpu / 10 && a % 10 <= gpu % 10) return true;
  for (int a : code.ptx)
    if (a <= gpu) return true;
  return false;
}

// From CUDA 11 on, a driver runs every minor release of its major (minor version compatibility;
// cuDNN's support matrix asks the CUDA 12 build for an r525 driver, CUDA 12.0); before, the
// runtime's own minor or newer.
bool driver_runs(const Version &driver, const Version &cuda) {
  if (driver.major != cuda.major) return driver.major > cuda.major;
  return cuda.major >= 11 || driver.minor.value_or(0) >= cuda.minor.value_or(0);
}

std::vector<int> known_gpus(const std::vector<const ReleaseCode *> &codes) {
  // Kepler to Blackwell, as NVIDIA numbers their compute capabilities.
  std::set<int> out = {30, 32, 35, 37, 50, 52, 53,  60,  61,  62,  70,  72, 75,
                       80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};
  for (const ReleaseCode *c : codes)
    for (const auto &[name, code] : *c) {
      out.insert(code.cubin.begin(), code.cubin.end());
      out.insert(code.ptx.begin(), code.ptx.end());
    }
  return {out.begin(), out.end()};
}

namespace {

// Whether a release with this code, built for cuda, runs on node; "" when it does.
std::string misfit_on(const NodeFacts &node, const ReleaseCode &code,
                      const std::optional<Version> &cuda) {
  for (int gpu : node.gpus)
    for (const auto &[library, c] : code)
      if (!code_runs_on(c, gpu))
        return "its " + library + " carries no code for compute capability " + arch_name(gpu) +
               " (" + describe(c) + ")";
  if (node.driver_cuda && cuda && !driver_runs(*node.driver_cuda, *cuda))
    return "it is built for CUDA " + to_string(*cuda) + " and this node's driver runs CUDA " +
           to_string(*node.driver_cuda) + " (" + node.source + ")";
  return "";
}

}  // namespace

Verdict fit(const Need &need, std::optional<int> major, const Version &release,
            const std::optional<Version> &cuda, Words words, const ReleaseCode &code) {
  // rank() asks without words: a site's thousand releases of other majors cost no strings.
  const auto no = [&](auto &&why) { return Verdict{false, words == Words::yes ? why() : ""}; };
  if (major && release.major != *major)
    return no([&] {
      return "it is cuDNN " + to_string(release) + ", not a cuDNN " + std::to_string(*major);
    });
  // Whatever the rule: JAX's, Caffe2's and PaddlePaddle's accept a newer major, but not for a
  // program that asks for one major by name and says it was built with another.
  if (const std::optional<std::string> conflict = major_conflict(need, major))
    return no([&] { return *conflict; });
  // A release whose CUDA is unknown cannot be confirmed for a CUDA need: handing it over could
  // fail at the first kernel launch, far from the load that chose it.
  if (need.cuda_major && !cuda)
    return no([&] {
      return "its CUDA version is unknown, so CUDA " + std::to_string(*need.cuda_major) +
             " cannot be confirmed";
    });
  if (need.cuda_major && cuda->major != *need.cuda_major)
    return no([&] {
      return "it is built for CUDA " + to_string(*cuda) + ", not CUDA " +
             std::to_string(*need.cuda_major);
    });
  if (need.node) {
    std::string why = misfit_on(*need.node, code, cuda);
    if (!why.empty()) return no([&why] { return std::move(why); });
  }
  Verdict v = need.cudnn ? judge(need.rule, release, *need.cudnn)
                         : Verdict{true, "same major, and no version was required"};
  if (v.compatible && need.below && compare(release, *need.below) >= 0)
    return no([&] {
      return "it is not below " + to_string(*need.below) + " (from " + need.source + ")";
    });
  // Every consumer in the process must be served by the one family it can have.
  for (const Need &other : need.also) {
    if (!v.compatible) break;
    const Verdict w = fit(other, major, release, cuda, words);
    if (!w.compatible)
      return no([&] { return v.reason + "; but for " + other.source + ": " + w.reason; });
  }
  return v;
}

std::set<int> gpus_served(const Installed &e, const std::vector<int> &gpus) {
  std::set<int> out;
  for (int gpu : gpus) {
    Need need;
    need.node = NodeFacts{{gpu}, std::nullopt, "", ""};
    if (fit(need, std::nullopt, e.version, e.cuda, Words::no, e.code).compatible) out.insert(gpu);
  }
  return out;
}

Verdict entry_fits(const Installed &e, const Need &need, std::optional<int> major, Words words) {
  // A relative lib would be read from wherever the job runs: never a candidate.
  if (!is_absolute_lib(e))
    return {false,
            words == Words::yes
                ? "its lib \"" + e.lib + "\" is relative; skipped (see `cudnn-compat map validate`)"
                : ""};
  // Past its retire_after day the release is handed over no more (issue 21).
  if (e.retired)
    return {false, words == Words::yes ? "it retired on " + e.retire_after +
                                             " (retire_after in the map); it is handed over no more"
                                       : ""};
  Verdict v = fit(need, major, e.version, e.cuda, words, e.code);
  if (!v.compatible && words == Words::yes && need.cuda_major && !e.cuda &&
      (!major || e.version.major == *major))
    v.reason += " (add cuda = \"...\" to its [[cudnn]] entry in the map)";
  return v;
}

}  // namespace cudnn_compat
