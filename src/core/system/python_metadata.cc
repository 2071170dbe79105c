// The files pip and conda write about what they installed: a wheel's METADATA and RECORD
// (packaging.python.org, "Core metadata specifications" and "Recording installed projects"), a
// conda-meta record (docs.conda.io, "Package specification"), and the requirement grammars in
// them (PEP 508 with PEP 440 versions; conda's match specs). Pure: the readers are in
// python_env.cc.
#include "system.h"

#include "text.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace cudnn_compat {
namespace {

// The release part of a PEP 440 or conda version: "9.1.0.70" -> 9.1.0.70, "9.0a0" -> 9.0,
// "10.0.post1" -> 10.0, "9.*" -> 9 (wildcard). nullopt when it does not start with a number.
std::optional<Version> release_part(std::string_view text, bool &wildcard) {
  wildcard = false;
  text = trim(text);
  if (const std::size_t epoch = text.find('!'); epoch != std::string_view::npos)
    text.remove_prefix(epoch + 1);  // PEP 440's "1!9.1.0"
  if (text.starts_with('v')) text.remove_prefix(1);
  int parts[4] = {};
  std::size_t n = 0;
  std::size_t i = 0;
  while (i < text.size() && n < 4) {
    std::size_t j = i;
    while (j < text.size() && is_digit(text[j])) ++j;
    if (j == i || j - i > 6) break;
    parts[n++] = int(*parse_uint(text.substr(i, j - i)));
    if (j + 1 < text.size() && text[j] == '.' && text[j + 1] == '*') {
      wildcard = true;
      break;
    }
    if (j >= text.size() || text[j] != '.') break;
    i = j + 1;
  }
  if (n == 0) return std::nullopt;
  Version v{parts[0], {}, {}, {}};
  if (n > 1) v.minor = parts[1];
  if (n > 2) v.patch = parts[2];
  if (n > 3) v.build = parts[3];
  return v;
}

// "cu12" at the end of nvidia-cudnn-cu12: the CUDA major that wheel is built for.
std::optional<int> cuda_of_wheel(std::string_view normalized) {
  const std::size_t at = normalized.rfind("-cu");
  if (at == std::string_view::npos) return std::nullopt;
  const std::optional<std::int64_t> n = parse_uint(normalized.substr(at + 3));
  return n && *n < 1000 ? std::optional<int>(int(*n)) : std::nullopt;
}

// Comma-separated clauses ("<10.0,>=9.8"); '|' alternatives keep only the first (conda).
std::vector<VersionClause> parse_clauses(std::string_view spec, bool bare_is_prefix) {
  std::vector<VersionClause> out;
  spec = spec.substr(0, spec.find('|'));
  for (std::string_view part : split(spec, ',')) {
    part = trim(part);
    if (part.empty()) continue;
    std::size_t op_end = 0;
    while (op_end < part.size() &&
           std::string_view("=!<>~").find(part[op_end]) != std::string_view::npos)
      ++op_end;
    VersionClause c;
    c.op = std::string(part.substr(0, op_end));
    bool wildcard = false;
    const std::optional<Version> v = release_part(part.substr(op_end), wildcard);
    if (!v) continue;
    c.version = *v;
    c.wildcard = wildcard;
    if (c.op.empty()) {  // conda: "9.1.0.70" exact, "9.1" or "9.1.*" a prefix
      c.op = "==";
      c.wildcard = wildcard || (bare_is_prefix && !v->patch);
    }
    if (c.op == "=") c.op = "==", c.wildcard = true;  // conda's "=9.1": 9.1.*
    out.push_back(c);
  }
  return out;
}

// A marker operand as it is on Linux x86-64: a quoted string's text, a variable's value, or
// nullopt for a variable that depends on the interpreter (python_version, extra, ...).
std::optional<std::string_view> operand(std::string_view side) {
  static const std::pair<std::string_view, std::string_view> kHere[] = {
      {"platform_system", "Linux"},
      {"sys_platform", "linux"},
      {"platform_machine", "x86_64"},
      {"os_name", "posix"}};
  side = trim(side);
  if (side.size() >= 2 && (side.front() == '"' || side.front() == '\'') &&
      side.back() == side.front())
    return side.substr(1, side.size() - 2);
  for (const auto &[name, value] : kHere)
    if (side == name) return value;
  return std::nullopt;
}

// One marker atom, `platform_system == "Linux"` or `platform_machine in "aarch64 arm64"` (PEP
// 508: a string's `in` is containment), as it holds on Linux x86-64. Atoms of variables that
// depend on the interpreter are taken as holding: the distribution is installed, so pip judged
// them so.
bool atom_holds(std::string_view atom) {
  for (std::string_view op : {" not in ", " in ", "!=", "=="}) {
    const std::size_t at = atom.find(op);
    if (at == std::string_view::npos) continue;
    const std::optional<std::string_view> lhs = operand(atom.substr(0, at)),
                                          rhs = operand(atom.substr(at + op.size()));
    if (!lhs || !rhs) return true;
    const bool in = op.find("in") != std::string_view::npos;
    const bool holds = in ? rhs->find(*lhs) != std::string_view::npos : *lhs == *rhs;
    return holds == (op == "==" || op == " in ");
  }
  return true;
}

// A PEP 508 marker on Linux x86-64: `or` of `and`s of atoms (parentheses are read as plain
// grouping of the same: the markers frameworks write do not nest differently).
bool markers_hold(std::string_view markers) {
  // Any run of blanks is one space (pip's grammar allows tabs around `in` and `and`).
  std::string flat;
  for (char c : markers)
    if (c == ' ' || c == '\t')
      flat += flat.ends_with(' ') ? "" : " ";
    else if (c != '(' && c != ')')
      flat += c;
  std::string_view rest = flat;
  for (;;) {
    const std::size_t or_at = rest.find(" or ");
    std::string_view any = rest.substr(0, or_at);
    bool all = true;
    for (;;) {
      const std::size_t and_at = any.find(" and ");
      all = all && atom_holds(any.substr(0, and_at));
      if (and_at == std::string_view::npos) break;
      any.remove_prefix(and_at + 5);
    }
    if (all) return true;
    if (or_at == std::string_view::npos) return false;
    rest.remove_prefix(or_at + 4);
  }
}

// The leading distribution or package name of a requirement.
std::string_view leading_name(std::string_view &text) {
  text = trim(text);
  std::size_t n = 0;
  while (n < text.size() && (std::isalnum(static_cast<unsigned char>(text[n])) || text[n] == '-' ||
                             text[n] == '_' || text[n] == '.'))
    ++n;
  const std::string_view name = text.substr(0, n);
  text = trim(text.substr(n));
  return name;
}

std::vector<std::string> strings_of(const nlohmann::json &j, const char *key) {
  std::vector<std::string> out;
  if (!j.contains(key) || !j[key].is_array()) return out;
  for (const nlohmann::json &e : j[key])
    if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

std::string string_of(const nlohmann::json &j, const char *key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

}  // namespace

std::optional<Version> package_release(std::string_view text) {
  bool wildcard = false;
  const std::optional<Version> v = release_part(text, wildcard);
  return wildcard ? std::nullopt : v;
}

DistMetadata parse_dist_metadata(std::string_view text) {
  DistMetadata out;
  std::string *last = nullptr;  // the value a continuation line belongs to
  for (std::string_view rest = text; !rest.empty();) {
    const std::size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) break;  // the headers end; the description follows
    if (line.front() == ' ' || line.front() == '\t') {
      if (last) *last += " " + std::string(trim(line));
      continue;
    }
    const std::size_t colon = line.find(':');
    last = nullptr;
    if (colon == std::string_view::npos) continue;
    const std::string key = lower(line.substr(0, colon));
    const std::string value(trim(line.substr(colon + 1)));
    if (key == "name") last = &(out.name = value);
    if (key == "version") last = &(out.version = value);
    if (key == "requires-dist") last = &out.requires_dist.emplace_back(value);
  }
  return out;
}

std::vector<std::string> parse_record(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view rest = text; !rest.empty();) {
    std::string path;
    std::size_t i = 0;
    if (rest.front() == '"') {  // a quoted field: "" is one quote, commas and newlines are text
      for (i = 1; i < rest.size(); ++i) {
        if (rest[i] != '"') {
          path += rest[i];
        } else if (i + 1 < rest.size() && rest[i + 1] == '"') {
          path += '"';
          ++i;
        } else {
          ++i;
          break;
        }
      }
    } else {
      while (i < rest.size() && rest[i] != ',' && rest[i] != '\n' && rest[i] != '\r')
        path += rest[i++];
    }
    const std::size_t eol = rest.find('\n', i);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    if (!path.empty()) out.push_back(std::move(path));
  }
  return out;
}

std::optional<CondaRecord> parse_conda_record(std::string_view json) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  CondaRecord r{string_of(j, "name"), string_of(j, "version"), string_of(j, "build"),
                strings_of(j, "depends"), strings_of(j, "files")};
  if (r.name.empty() || r.version.empty()) return std::nullopt;
  return r;
}

std::string normalize_dist_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool sep = c == '-' || c == '_' || c == '.';
    if (sep && !out.empty() && out.back() == '-') continue;
    out += sep ? '-' : char(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<CudnnPin> cudnn_requirement(std::string_view requirement) {
  std::string_view rest = requirement;
  const std::string name = normalize_dist_name(leading_name(rest));
  if (!name.starts_with("nvidia-cudnn-cu")) return std::nullopt;
  if (rest.starts_with('[')) rest = trim(rest.substr(std::min(rest.find(']') + 1, rest.size())));
  const std::size_t semi = rest.find(';');
  if (semi != std::string_view::npos && !markers_hold(rest.substr(semi + 1))) return std::nullopt;
  std::string_view spec = trim(rest.substr(0, semi));
  if (spec.starts_with('(') && spec.ends_with(')')) spec = spec.substr(1, spec.size() - 2);
  if (spec.starts_with('@')) spec = {};  // a URL: no version said
  CudnnPin pin;
  pin.package = name;
  pin.clauses = parse_clauses(spec, false);
  pin.cuda_major = cuda_of_wheel(name);
  pin.text = std::string(trim(requirement));
  return pin;
}

std::optional<CudnnPin> cudnn_depend(std::string_view depend) {
  std::string_view rest = depend;
  if (leading_name(rest) != "cudnn") return std::nullopt;
  CudnnPin pin;
  pin.conda = true;
  pin.package = "cudnn";
  // "cudnn 8.9.7.29 h1234_0": the version, then the build string.
  pin.clauses = parse_clauses(rest.substr(0, rest.find(' ')), true);
  pin.text = std::string(trim(depend));
  return pin;
}

namespace {

// The CUDA a conda build string names: conda-forge's "cuda126py311h1234567_300", the pytorch
// channel's "py3.11_cuda12.1_cudnn8.9.2_0", an older "cuda92_..." (CUDA 9.2).
std::optional<int> build_string_cuda(std::string_view build) {
  for (std::size_t at = build.find("cuda"); at != std::string_view::npos;
       at = build.find("cuda", at + 4)) {
    std::string_view digits = build.substr(at + 4);
    std::size_t n = 0;
    while (n < digits.size() && is_digit(digits[n])) ++n;
    if (n == 0 || n > 3) continue;
    const bool dotted = n < digits.size() && digits[n] == '.';
    // Without a dot the last digit is the minor: 92 is 9.2, 126 is 12.6.
    const std::size_t major_digits = dotted ? n : n - 1;
    if (major_digits == 0) continue;
    return int(*parse_uint(digits.substr(0, major_digits)));
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> conda_cuda_major(const CondaRecord &r) {
  // The packages that pin a build's CUDA: the CUDA 12 world's cuda-version and cuda-cudart
  // (conda-forge's pytorch depends on the latter alone), the pytorch channel's pytorch-cuda, and
  // CUDA 11's cudatoolkit.
  static constexpr std::array<std::string_view, 5> kCudaPackages{
      "cuda-version", "cuda-cudart", "cuda-runtime", "pytorch-cuda", "cudatoolkit"};
  for (const std::string &d : r.depends) {
    std::string_view rest = d;
    const std::string_view name = leading_name(rest);
    if (std::find(kCudaPackages.begin(), kCudaPackages.end(), name) == kCudaPackages.end())
      continue;
    for (const VersionClause &c : parse_clauses(rest.substr(0, rest.find(' ')), true))
      if (c.op == ">=" || c.op == "==" || c.op == ">") return c.version.major;
  }
  return build_string_cuda(r.build);
}

}  // namespace cudnn_compat
