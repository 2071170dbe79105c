// Whether a cuDNN release fits a need: the one predicate behind resolve, the shim's selection,
// module-check and the hooks' fits table, so that they can never disagree.
#include "decide.h"

namespace cudnn_compat {

std::optional<std::string> major_conflict(const Need &need, std::optional<int> major) {
  if (!need.cudnn || !major || need.cudnn->major == *major) return std::nullopt;
  const std::string asked = std::to_string(*major);
  return "the program asks for cuDNN " + asked + " by name, which only a cuDNN " + asked +
         " can serve, but the requirement is " + to_string(*need.cudnn);
}

Verdict fit(const Need &need, std::optional<int> major, const Version &release,
            const std::optional<Version> &cuda, Words words) {
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
  Verdict v = fit(need, major, e.version, e.cuda, words);
  if (!v.compatible && words == Words::yes && need.cuda_major && !e.cuda &&
      (!major || e.version.major == *major))
    v.reason += " (add cuda = \"...\" to its [[cudnn]] entry in the map)";
  return v;
}

}  // namespace cudnn_compat
