// A framework's pin of cuDNN as a need. torch pins its wheel exactly
// (nvidia-cudnn-cu12==9.1.0.70), the JAX CUDA plugin gives a range (nvidia-cudnn-cu12<10.0,>=9.8),
// a conda package a match spec (cudnn >=8.9.2.26,<9.0a0): the lower bound is the cuDNN the
// framework was built with, judged by that framework's own rule (FACTS.md section 3).
#include "decide.h"
#include "text.h"

#include <algorithm>
#include <array>
#include <utility>

namespace cudnn_compat {
namespace {

// Distribution and conda package names (normalized) by the framework they belong to; a name
// ending in '*' is a prefix.
constexpr std::array<std::pair<std::string_view, Rule>, 14> kFrameworks = {{
    {"torch", Rule::pytorch},
    {"pytorch", Rule::pytorch},  // conda
    {"pytorch-gpu", Rule::pytorch},
    {"jax", Rule::jax},
    {"jaxlib", Rule::jax},
    {"jax-cuda*", Rule::jax},  // jax-cuda12-plugin, jax-cuda12-pjrt, jax-cuda13-plugin
    {"tensorflow", Rule::tensorflow},
    {"tensorflow-*", Rule::tensorflow},  // -gpu, -cpu, -base (conda), -intel
    {"tf-nightly", Rule::tensorflow},
    {"tf-nightly-*", Rule::tensorflow},
    {"paddlepaddle", Rule::paddle},
    {"paddlepaddle-gpu", Rule::paddle},
    {"mxnet", Rule::mxnet},
    {"mxnet-*", Rule::mxnet},
}};

bool names(std::string_view pattern, std::string_view name) {
  return pattern.ends_with('*') ? name.starts_with(pattern.substr(0, pattern.size() - 1))
                                : name == pattern;
}

std::string pin_source(const CudnnPin &pin) {
  return "the pin of " + pin.consumer +
         (pin.consumer_version.empty() ? "" : " " + pin.consumer_version) + ": " + pin.text +
         (pin.file.empty() ? "" : " in " + pin.file);
}

// The release x.y.z of a pin's version: a wheel's build number (9.1.0.70) is no part of what a
// library reports.
Version release_of(Version v) {
  v.build.reset();
  return v;
}

// The greatest lower bound and the least upper bound. "~=9.1" and "==9.1.*" allow 9.1 itself
// and up; a bound with no minor ("==9.*") says no more than the major does.
void take_clause(const VersionClause &c, Need &need, std::optional<Version> &upper) {
  const Version v = release_of(c.version);
  const bool lower = c.op == ">=" || c.op == ">" || c.op == "~=" || c.op == "==" || c.op == "===";
  if (lower && v.minor && (!need.cudnn || compare(v, *need.cudnn) > 0)) need.cudnn = v;
  if (c.op == "<" && (!upper || compare(v, *upper) < 0)) upper = v;
}

}  // namespace

std::optional<Rule> framework_rule(std::string_view distribution) {
  for (const auto &[pattern, rule] : kFrameworks)
    if (names(pattern, distribution)) return rule;
  return std::nullopt;
}

std::string reinstall(const std::string &install) {
  const std::size_t verb = install.find(" install ");
  if (verb == std::string::npos) return install;
  return install.substr(0, verb + 9) + "--force-reinstall " + install.substr(verb + 9);
}

std::optional<Need> need_of_pin(const CudnnPin &pin, Rule fallback) {
  Need need;
  need.rule = framework_rule(pin.consumer).value_or(fallback);
  need.cuda_major = pin.cuda_major;
  need.source = pin_source(pin);
  // The requirement as written, less a wheel's environment markers ("; platform_system == ...").
  const std::string_view spec = trim(std::string_view(pin.text).substr(0, pin.text.find(';')));
  need.install = (pin.conda ? "conda install '" : "pip install '") + std::string(spec) + "'";
  std::optional<Version> upper;
  for (const VersionClause &c : pin.clauses) take_clause(c, need, upper);
  if (!need.cudnn && !upper) return std::nullopt;
  // "<10.0" with a 9.x lower bound says only "a cuDNN 9": the major does that already. An upper
  // bound inside the major (<9.5) stays.
  if (upper && !(need.cudnn && upper->major > need.cudnn->major && !upper->minor.value_or(0) &&
                 !upper->patch.value_or(0)))
    need.below = upper;
  return need;
}

Need combined_need(const std::vector<Need> &needs) {
  Need first = needs.front();
  for (std::size_t i = 1; i < needs.size(); ++i) {
    const Need &n = needs[i];
    const bool same = n.cudnn == first.cudnn && n.rule == first.rule && n.below == first.below &&
                      n.cuda_major == first.cuda_major;
    const bool listed = std::any_of(first.also.begin(), first.also.end(),
                                    [&](const Need &o) { return o.source == n.source; });
    if (!same && !listed) first.also.push_back(n);
  }
  return first;
}

}  // namespace cudnn_compat
