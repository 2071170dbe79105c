// What a process needs: an explicit requirement, else what the frameworks in it pin, else the
// map's [[require]] rules, else the version in the name it asked for.
#include "decide.h"

#include <fnmatch.h>

namespace cudnn_compat {

Parsed<Need> derive_need(const NeedInputs &in, const Map *map) {
  Need need;
  need.rule = in.rule ? *in.rule : map ? map->policy.rule : Rule::nvidia;

  if (in.require) {
    const Parsed<Version> v = parse_required(*in.require);
    if (!v) return Parsed<Need>::fail(in.require_source + ": " + v.error);
    need.cudnn = *v;
    need.source = in.require_source;
    need.origin = NeedOrigin::asked;
  }
  if (in.cuda) {
    const Parsed<Version> v = parse_cuda(*in.cuda);
    if (!v) return Parsed<Need>::fail(in.cuda_source + ": " + v.error);
    need.cuda_major = v->major;
    need.cuda_source = in.cuda_source;
  }
  if (!need.cudnn && !in.pins.empty()) {
    std::vector<Need> needs;
    // A pin of another major is another family's (torch's cuDNN 9 beside a library that links
    // libcudnn.so.8): it does not weigh this one (helper 97).
    const auto of_this_major = [&](const Need &n) {
      return !in.requested.version || !n.cudnn || n.cudnn->major == in.requested.version->major;
    };
    for (const CudnnPin &pin : in.pins)
      if (std::optional<Need> n = need_of_pin(pin, need.rule); n && of_this_major(*n))
        needs.push_back(std::move(*n));
    if (!needs.empty()) {
      Need pinned = combined_need(needs);
      pinned.origin = NeedOrigin::pin;
      // CUDNN_COMPAT_CUDA (or --cuda) still says which CUDA the job runs.
      if (need.cuda_major) {
        pinned.cuda_major = need.cuda_major;
        pinned.cuda_source = need.cuda_source;
        for (Need &other : pinned.also) other.cuda_major = need.cuda_major;
      }
      return {pinned, {}};
    }
  }
  if (!need.cudnn && map) {
    for (const RequireRule &r : map->require) {
      for (const std::string &program : in.programs) {
        if (program.empty() || fnmatch(r.match.c_str(), program.c_str(), 0) != 0) continue;
        need.cudnn = r.cudnn;
        if (!need.cuda_major && r.cuda) need.cuda_major = r.cuda->major;
        need.origin = NeedOrigin::rule;
        need.source = map->path + ":" + std::to_string(r.pos.line) + " ([[require]] match \"" +
                      r.match + "\" on " + program + ")";
        return {need, {}};
      }
    }
  }
  if (!need.cudnn && in.requested.version && in.requested.version->minor) {
    need.cudnn = *in.requested.version;
    need.source = "the version in the requested name";
    need.origin = NeedOrigin::name;
  }
  return {need, {}};
}

}  // namespace cudnn_compat
