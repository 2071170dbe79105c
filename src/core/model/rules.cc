// The compatibility rules of NVIDIA and of each framework (FACTS.md section 3), as pure functions.
//
// Integer rules compare CUDNN_VERSION numbers in each release's own encoding, as the frameworks
// do. Where a patch level is unknown (a requirement of "5.1"), it matches any patch: rules that
// compare whole numbers then compare major.minor only.
#include "model.h"

namespace cudnn_compat {
namespace {

Verdict yes(std::string why) {
  return {true, std::move(why)};
}
Verdict no(std::string why) {
  return {false, std::move(why)};
}

std::string mm(const Version &v) {
  return std::to_string(v.major) + '.' + std::to_string(*v.minor);
}

bool patch_known(const Version &r, const Version &b) {
  return r.patch && b.patch;
}

// The whole-number comparison the integer rules make, at major.minor granularity when a patch is
// not known. Returns <0, 0, >0.
std::int64_t number_cmp(const Version &r, const Version &b) {
  const std::int64_t scale = patch_known(r, b) ? 1 : 100;
  return cudnn_number(r) / scale - cudnn_number(b) / scale;
}

Verdict major_differs(const Version &r, const Version &b) {
  return no("the major versions differ (" + std::to_string(r.major) + " vs " +
            std::to_string(b.major) + ")");
}

Verdict minor_must_match(const Version &r, const Version &b, std::string_view who) {
  if (*r.minor == *b.minor) return yes("same major and minor version (" + mm(b) + ")");
  return no(std::string(who) + " the minor version must match (" + mm(r) + " vs " + mm(b) + ")");
}

Verdict minor_at_least(const Version &r, const Version &b, std::string_view who) {
  if (*r.minor >= *b.minor)
    return yes("same major, and runtime minor " + std::to_string(*r.minor) + " >= built minor " +
               std::to_string(*b.minor));
  return no(std::string(who) + ", the runtime minor version must be at least the one built with (" +
            mm(r) + " < " + mm(b) + ")");
}

// Same major; before 7 the minor must match, from 7 on it may be newer. NVIDIA's policy, and what
// TensorFlow 2018-2020 and PyTorch enforce.
Verdict major_then_minor_by_era(const Version &r, const Version &b) {
  if (r.major != b.major) return major_differs(r, b);
  if (b.major < 7) return minor_must_match(r, b, "before cuDNN 7");
  return minor_at_least(r, b, "from cuDNN 7 on");
}

Verdict exact(const Version &r, const Version &b) {
  if (r.major != b.major) return major_differs(r, b);
  if (*r.minor != *b.minor) return minor_must_match(r, b, "the exact rule says");
  if (patch_known(r, b) && r.patch != b.patch)
    return no("the exact rule needs the same patch level (" + to_string(r) + " vs " + to_string(b) +
              ")");
  if (r.build && b.build && r.build != b.build)
    return no("the exact rule needs the same build (" + to_string(r) + " vs " + to_string(b) + ")");
  return yes(patch_known(r, b) ? "the versions are identical"
                               : "same major.minor, and no patch level to compare");
}

// Caffe2 accepts a newer runtime for builds from this number on (cuDNN 7.0.0).
constexpr std::int64_t kCaffe2NewerFrom = 7000;

// "(7005 op 7102)": the whole numbers the integer rules compared, for their refusals only.
std::string numbers(const Version &r, std::string_view op, const Version &b) {
  std::string s = "(";
  s.append(std::to_string(cudnn_number(r))).append(" ").append(op).append(" ");
  return s.append(std::to_string(cudnn_number(b))).append(")");
}

Verdict judge_known(Rule rule, const Version &r, const Version &b) {
  switch (rule) {
    case Rule::nvidia:
    case Rule::tensorflow_2018:
    case Rule::pytorch:
      return major_then_minor_by_era(r, b);
    case Rule::tensorflow_2016: {
      const std::string rc = std::to_string(tensorflow_compat_number(r));
      const std::string bc = std::to_string(tensorflow_compat_number(b));
      if (rc == bc) return yes("same compatibility version " + rc + " (major.minor " + mm(b) + ")");
      return no(
          "TensorFlow 2016-2018 needs the same major.minor, newer or older (compatibility "
          "version " +
          rc + " vs " + bc + ")");
    }
    case Rule::tensorflow:
      if (r.major != b.major) return major_differs(r, b);
      return minor_at_least(r, b, "for TensorFlow 2.x and XLA");
    case Rule::pytorch_2017:
      if (cudnn_number(r) / 100 == cudnn_number(b) / 100) return yes("same major.minor " + mm(b));
      return no("PyTorch 2017-2020 needs the same major.minor (" + mm(r) + " vs " + mm(b) + ")");
    case Rule::caffe2:
      if (number_cmp(r, b) == 0) return yes("the versions are equal");
      if (cudnn_number(b) >= kCaffe2NewerFrom &&
          (number_cmp(r, b) > 0 || cudnn_number(r) / 100 == cudnn_number(b) / 100))
        return yes("from cuDNN 7 on Caffe2 accepts a newer runtime or the same major.minor");
      return no("Caffe2 needs the same version, or from cuDNN 7 on a newer one " +
                numbers(r, "vs", b));
    case Rule::jax:
      if (r == Version{9, 10, 0, {}} &&
          !(b.major == 9 && b.minor == 10 && b.patch.value_or(0) == 0))
        return no(
            "cuDNN 9.10.0 broke backward compatibility of block-scale enums; JAX refuses it "
            "unless built with it");
      if (cudnn_number(r) / 100 >= cudnn_number(b) / 100)
        return yes("JAX accepts a runtime no older than the major.minor it was built with");
      return no("JAX needs a runtime no older than the major.minor it was built with (" + mm(r) +
                " < " + mm(b) + ")");
    case Rule::paddle:
      if (number_cmp(r, b) >= 0)
        return yes("PaddlePaddle accepts a runtime no older than its build");
      return no("PaddlePaddle warns when the runtime is older than its build " +
                numbers(r, "<", b));
    case Rule::mxnet:
      if (number_cmp(r, b) == 0) return yes("the versions are equal");
      return no("MXNet warns unless the versions are equal " + numbers(r, "vs", b));
    case Rule::exact:
      return exact(r, b);
  }
  return no("unknown rule");
}

}  // namespace

const std::vector<std::int64_t> &rule_thresholds() {
  static const std::vector<std::int64_t> numbers{kCaffe2NewerFrom};
  return numbers;
}

const std::vector<RuleInfo> &all_rules() {
  static const std::vector<RuleInfo> rules{
      {Rule::nvidia, "nvidia",
       "NVIDIA's policy: same major; before 7 same minor, from 7 on runtime minor >= built"},
      {Rule::tensorflow_2016, "tensorflow-2016",
       "TensorFlow 2016-2018: same major.minor exactly (\"compatibility version\")"},
      {Rule::tensorflow_2018, "tensorflow-2018",
       "TensorFlow 2018-2020: same major; same minor, or from 7 on runtime minor >= built"},
      {Rule::tensorflow, "tensorflow",
       "TensorFlow 2.x, XLA: same major and runtime minor >= built"},
      {Rule::pytorch, "pytorch",
       "PyTorch: same major; before 7 same minor, else runtime minor >= built"},
      {Rule::pytorch_2017, "pytorch-2017", "PyTorch 2017-2020: same major.minor"},
      {Rule::caffe2, "caffe2", "Caffe2: equal, or from 7 on newer or same major.minor"},
      {Rule::jax, "jax", "JAX: runtime major.minor >= built; 9.10.0 only if built with it"},
      {Rule::paddle, "paddle", "PaddlePaddle: runtime >= built"},
      {Rule::mxnet, "mxnet", "MXNet: runtime == built"},
      {Rule::exact, "exact", "the same release: major, minor and patch"},
  };
  return rules;
}

std::optional<Rule> parse_rule(std::string_view name) {
  for (const RuleInfo &r : all_rules())
    if (r.name == name) return r.rule;
  return std::nullopt;
}

std::string_view rule_name(Rule r) {
  for (const RuleInfo &i : all_rules())
    if (i.rule == r) return i.name;
  return "?";
}

Verdict judge(Rule rule, const Version &runtime, const Version &built_with) {
  if (!runtime.minor)
    return no("cannot judge cuDNN " + to_string(runtime) +
              " without its minor version; give at least major.minor");
  if (built_with.minor) return judge_known(rule, runtime, built_with);
  // A major alone ("built with cuDNN 9", ONNX Runtime's "Require cuDNN 9.*") is a need for any
  // release of that major the rule accepts: judged as if built with the runtime's own minor, or
  // with x.0 for another major (the rules that take a newer major compare whole numbers).
  Version b = runtime;
  b.major = built_with.major;
  if (b.major != runtime.major) b = Version{built_with.major, 0, {}, {}};
  b.build.reset();
  Verdict v = judge_known(rule, runtime, b);
  if (!v.compatible || b.major != runtime.major) return v;
  return yes("built with cuDNN " + std::to_string(b.major) + " without a minor version: any " +
             std::to_string(b.major) + ".x serves");
}

std::string acceptable_releases(Rule rule, const Version &b) {
  const std::string major = std::to_string(b.major);
  if (!b.minor) return major + ".x";
  const std::string minor = b.minor ? mm(b) : major;
  std::string full = to_string(b);
  const bool newer_minor_ok = b.major >= 7;
  switch (rule) {
    case Rule::nvidia:
    case Rule::tensorflow_2018:
    case Rule::pytorch:
      return newer_minor_ok ? minor + " or a newer " + major + ".x" : minor + ".x";
    case Rule::tensorflow:
      return minor + " or a newer " + major + ".x";
    case Rule::tensorflow_2016:
    case Rule::pytorch_2017:
      return minor + ".x";
    case Rule::caffe2:
      return newer_minor_ok ? minor + ".x or anything newer" : full;
    case Rule::jax:
      return minor + " or newer";
    case Rule::paddle:
      return full + " or newer";
    case Rule::mxnet:
    case Rule::exact:
      return b.patch ? full : minor + ".x";
  }
  return full;
}

std::string minimum_releases(const Version &m) {
  if (!m.minor || !m.patch) return acceptable_releases(Rule::nvidia, m);
  // A patch is part of the minimum ("below 8.9.6" refuses 8.9.5), which no build rule weighs.
  return to_string(m) + " or a newer " + (m.major >= 7 ? std::to_string(m.major) : mm(m)) + ".x";
}

}  // namespace cudnn_compat
