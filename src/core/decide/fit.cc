// Whether a cuDNN release fits a need: the one predicate behind resolve, the shim's selection,
// module-check and the hooks' fits table, so that they can never disagree.
#include "decide.h"

namespace cudnn_compat {

Verdict fit(const Need &need, std::optional<int> major, const Version &release,
            const std::optional<Version> &cuda, Words words) {
  // rank() asks without words: a site's thousand releases of other majors cost no strings.
  const auto no = [&](auto &&why) { return Verdict{false, words == Words::yes ? why() : ""}; };
  if (major && release.major != *major)
    return no([&] {
      return "it is cuDNN " + to_string(release) + ", not a cuDNN " + std::to_string(*major);
    });
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
  if (!need.cudnn) return {true, "same major, and no version was required"};
  return judge(need.rule, release, *need.cudnn);
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
