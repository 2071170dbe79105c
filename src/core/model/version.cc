// Version numbers: the integer encodings, dotted strings and PyTorch tuples.
#include "model.h"
#include "text.h"

#include "shared/version_grammar.h"
#include "shim_text.h"

#include <array>

namespace cudnn_compat {

std::string to_string(const Version &v) {
  std::string s = std::to_string(v.major);
  for (const std::optional<int> &c : {v.minor, v.patch, v.build}) {
    if (!c) break;
    s += '.' + std::to_string(*c);
  }
  return s;
}

int compare(const Version &a, const Version &b) {
  const std::array<int, 4> x{a.major, a.minor.value_or(-1), a.patch.value_or(-1),
                             a.build.value_or(-1)};
  const std::array<int, 4> y{b.major, b.minor.value_or(-1), b.patch.value_or(-1),
                             b.build.value_or(-1)};
  return x < y ? -1 : x > y ? 1 : 0;
}

bool is_prefix_of(const Version &p, const Version &v) {
  auto same = [](const std::optional<int> &want, const std::optional<int> &have) {
    return !want || want == have;
  };
  return p.major == v.major && same(p.minor, v.minor) && same(p.patch, v.patch) &&
         same(p.build, v.build);
}

// 9.x changed the encoding from major*1000 to major*10000; the two ranges do not overlap, and
// nothing between 9000 and 89999 is a cuDNN release.
Parsed<Version> parse_cudnn_number(std::string_view digits) {
  const std::optional<std::int64_t> n = parse_uint(digits);
  if (!n) return Parsed<Version>::fail("expected a cuDNN version number such as 5103 or 90100");
  int part[3];
  if (cudnn_number_parts((unsigned long)*n, part))
    return {Version{part[0], part[1], part[2], {}}, {}};
  return Parsed<Version>::fail(
      quoted(digits) +
      " is not a cuDNN version number: those are 1000-8999 up to cuDNN 8 (5103 = 5.1.3) and "
      "90000 or more from cuDNN 9 (90100 = 9.1.0)");
}

std::int64_t cudnn_number(const Version &v) {
  return std::int64_t(cudnn_number_of(v.major, v.minor.value_or(0), v.patch.value_or(0)));
}

std::int64_t tensorflow_compat_number(const Version &v) {
  return cudnn_number(v) / 100 * 100;
}

Parsed<Version> parse_cudart_number(std::string_view digits) {
  const std::optional<std::int64_t> n = parse_uint(digits);
  if (!n || *n < 1000 || *n >= 1000000)
    return Parsed<Version>::fail(
        "expected a CUDA runtime number such as 12020 (12.2) or 8000 "
        "(8.0), as cudnnGetCudartVersion() returns");
  return {Version{int(*n / 1000), int(*n % 1000 / 10), {}, {}}, {}};
}

// The one grammar of written versions is the shim's (shim/shared/version_grammar.h): the fast
// path and the engine read every text alike.
namespace {
Version from_grammar(const cudnn_compat_version &g) {
  Version v{int(g.part[0]), {}, {}, {}};
  if (g.parts > 1) v.minor = int(g.part[1]);
  if (g.parts > 2) v.patch = int(g.part[2]);
  if (g.parts > 3) v.build = int(g.part[3]);
  return v;
}
}  // namespace

Parsed<Version> parse_dotted(std::string_view text) {
  cudnn_compat_version g;
  if (!cudnn_compat_parse_version(text.data(), text.size(), &g))
    return Parsed<Version>::fail(quoted(text) +
                                 " is not a version: expected major.minor[.patch[.build]] of "
                                 "at most " +
                                 std::to_string(CUDNN_COMPAT_VERSION_DIGITS) +
                                 " digits each, e.g. 5.1, 5.1.10 or 8.9.2.26");
  return {from_grammar(g), {}};
}

Parsed<Version> parse_required(std::string_view text) {
  cudnn_compat_version g;
  if (cudnn_compat_parse_required(text.data(), text.size(), &g)) return {from_grammar(g), {}};
  return Parsed<Version>::fail(quoted(text) +
                               " is not a version: expected a major, or major.minor[.patch], "
                               "e.g. 9, 5.1 or 5.1.10");
}

Parsed<Version> parse_cuda(std::string_view text) {
  cudnn_compat_version g;
  if (cudnn_compat_parse_cuda(text.data(), text.size(), &g)) return {from_grammar(g), {}};
  return Parsed<Version>::fail(quoted(text) +
                               " is not a CUDA version: expected a major or major.minor, e.g. "
                               "12 or 12.2");
}

Parsed<Version> parse_tuple(std::string_view text) {
  std::string_view s = trim(text);
  if (s.size() < 2 || s.front() != '(' || s.back() != ')')
    return Parsed<Version>::fail("expected a tuple such as (8, 9, 2)");
  std::string dotted;
  for (std::string_view p : split(s.substr(1, s.size() - 2), ',')) {
    if (!dotted.empty()) dotted += '.';
    dotted += trim(p);
  }
  Parsed<Version> v = parse_dotted(dotted);
  if (!v)
    return Parsed<Version>::fail(quoted(text) +
                                 " is not a version tuple: "
                                 "expected (major, minor[, patch]), e.g. (8, 9, 2)");
  return v;
}

bool same_release(const Version &a, const Version &b) {
  return a.major == b.major && a.minor == b.minor && a.patch == b.patch;
}

}  // namespace cudnn_compat
