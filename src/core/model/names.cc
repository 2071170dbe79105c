// Library file names, module names, and telling all version forms apart (decode).
#include "model.h"
#include "text.h"

#include "shim_text.h"

namespace cudnn_compat {
namespace {

// A sub-library's name part: lower-case words joined by '_' ("ops_infer", "engines_precompiled").
bool is_sub_name(std::string_view s) {
  if (s.empty() || s.front() == '_' || s.back() == '_') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
  return true;
}

// libcudnn.so, libcudnn.so.5, libcudnn.so.8.9.7, libcudnn_ops_infer.so.8, libcudnn_graph.so.9.19.0:
// read by the shim's own parser, the one grammar of these names (DESIGN.md).
std::optional<LibraryName> parse_elf_name(std::string_view base) {
  const std::string text(base);
  cudnn_name c{};
  if (text.find('\0') != std::string::npos || !parse_cudnn_name(text.c_str(), &c))
    return std::nullopt;
  LibraryName name;
  if (c.sub) name.sub = std::string(c.sub_name, std::size_t(c.sub_len));
  if (c.parts == 0) return name;
  Version v{c.version[0], {}, {}, {}};
  if (c.parts > 1) v.minor = c.version[1];
  if (c.parts > 2) v.patch = c.version[2];
  if (c.parts > 3) v.build = c.version[3];
  name.version = v;
  return name;
}

// cudnn64_8.dll, cudnn_ops64_9.dll, cudnn_ops_infer64_8.dll: Windows names carry the major only.
std::optional<LibraryName> parse_dll_name(std::string_view original) {
  const std::string base = lower(original);
  std::string_view s = base;
  if (!s.starts_with("cudnn") || !s.ends_with(".dll")) return std::nullopt;
  s = s.substr(5, s.size() - 5 - 4);
  const std::size_t tag = s.rfind("64_");
  if (tag == std::string_view::npos) return std::nullopt;
  const std::optional<std::int64_t> major = parse_uint(s.substr(tag + 3));
  if (!major || *major > 999) return std::nullopt;
  LibraryName name;
  name.windows = true;
  name.version = Version{int(*major), {}, {}, {}};
  const std::string_view sub = s.substr(0, tag);
  if (!sub.empty()) {
    if (sub[0] != '_' || !is_sub_name(sub.substr(1))) return std::nullopt;
    name.sub = std::string(sub.substr(1));
  }
  return name;
}

}  // namespace

bool is_spack_hash(std::string_view t) {
  if (t.size() != 7) return false;
  bool letter = false;
  for (char c : t) {
    if (c >= 'a' && c <= 'z')
      letter = true;
    else if (c < '0' || c > '9')
      return false;
  }
  return letter;
}

bool hidden_module(std::string_view name) {
  for (std::string_view part : split(name, '/'))
    if (part.starts_with('.')) return true;
  return false;
}

std::string_view to_string(ModuleSystemKind k) {
  return k == ModuleSystemKind::lmod         ? "lmod"
         : k == ModuleSystemKind::envmodules ? "envmodules"
                                             : "unknown";
}

std::optional<ModuleSystemKind> parse_module_system(std::string_view name) {
  for (ModuleSystemKind k : {ModuleSystemKind::lmod, ModuleSystemKind::envmodules})
    if (to_string(k) == name) return k;
  return std::nullopt;
}

Parsed<LibraryName> parse_library_name(std::string_view name) {
  // Linux paths split at '/' only (the loader's view); Windows ones at '\\' too.
  const std::size_t slash = name.rfind('/');
  std::optional<LibraryName> parsed =
      parse_elf_name(slash == std::string_view::npos ? name : name.substr(slash + 1));
  if (!parsed) parsed = parse_dll_name(basename_of(name));
  if (!parsed)
    return Parsed<LibraryName>::fail(
        quoted(name) +
        " is not a cuDNN library name: expected libcudnn.so[.N...], libcudnn_<sub>.so[.N...], "
        "cudnn64_N.dll or cudnn_<sub>64_N.dll");
  return {parsed, {}};
}

std::vector<std::string> cudnn_linked(const std::vector<std::string> &needed) {
  std::vector<std::string> mains, subs;
  for (const std::string &n : needed)
    if (const Parsed<LibraryName> ln = parse_library_name(n); ln && ln->version)
      (ln->sub.empty() ? mains : subs).push_back(n);
  mains.insert(mains.end(), subs.begin(), subs.end());
  return mains;
}

LibraryName main_library(int major) {
  return LibraryName{"", Version{major, {}, {}, {}}, false};
}

std::optional<Version> version_in_name(std::string_view path) {
  const Parsed<LibraryName> name = parse_library_name(path);
  return name ? name->version : std::nullopt;
}

bool is_cudnn_library_name(std::string_view name) {
  return parse_library_name(name).value.has_value();
}

const std::vector<std::string_view> &sub_libraries(int major) {
  static const std::vector<std::string_view> none;
  static const std::vector<std::string_view> v8{"ops_infer", "ops_train", "cnn_infer",
                                                "cnn_train", "adv_infer", "adv_train"};
  static const std::vector<std::string_view> v9{
      "graph", "ops", "cnn", "adv", "engines_precompiled", "engines_runtime_compiled", "heuristic"};
  return major < 8 ? none : major == 8 ? v8 : v9;
}

std::string library_file(std::string_view sub, int major) {
  return (sub.empty() ? std::string("libcudnn") : "libcudnn_" + std::string(sub)) + ".so." +
         std::to_string(major);
}

std::vector<std::string> dispatcher_asks(std::string_view sub, const Version &version) {
  const std::string stem = "libcudnn_" + std::string(sub) + ".so";
  if (version.major < 9) return {library_file(sub, version.major)};
  const Version minor{version.major, version.minor, {}, {}};
  return {stem + "." + to_string(Version{version.major, version.minor, version.patch, {}}),
          stem + "." + to_string(minor), library_file(sub, version.major), stem};
}

Parsed<ModuleName> parse_module_name(std::string_view text) {
  const std::string_view s = trim(text);
  const auto fail = [&](const std::string &why) {
    return Parsed<ModuleName>::fail(quoted(s) + " " + why +
                                    ": expected a module name such as cudnn/5.1, "
                                    "cuDNN/8.9.2.26-CUDA-12.1.1 or cudnn/8.9.7.29-12");
  };
  const std::vector<std::string_view> path = split(s, '/');
  if (path.size() < 2 || lower(path[path.size() - 2]) != "cudnn")
    return fail("is not a cuDNN module name");

  const std::string tag = lower(path.back());
  const std::size_t end = tag.find_first_not_of("0123456789.");
  std::string_view version_part = std::string_view(tag).substr(0, end);
  while (version_part.ends_with('.')) version_part.remove_suffix(1);
  const Parsed<Version> version = parse_dotted(version_part);
  if (!version) return fail("carries no major.minor version");

  ModuleName m{std::string(s), *version, std::nullopt};
  // What follows the version: a CUDA version in any of the schemes, and Spack's hash.
  std::vector<std::string_view> tokens;
  for (std::string_view a : split(std::string_view(tag).substr(version_part.size()), '-'))
    for (std::string_view b : split(a, '_'))
      if (!b.empty()) tokens.push_back(b);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::string_view t = tokens[i];
    if (t == "cuda" && i + 1 < tokens.size())
      t = tokens[++i];
    else if (t.starts_with("cuda"))
      t.remove_prefix(4);
    else if (t.starts_with("cu") && all_digits(t.substr(2)))
      t.remove_prefix(2);
    else if (is_spack_hash(t))
      continue;
    if (m.cuda) return fail("names a CUDA version twice");
    if (all_digits(t) && t.size() <= 3) {
      m.cuda = Version{int(*parse_uint(t)), {}, {}, {}};
      continue;
    }
    const Parsed<Version> cuda = parse_dotted(t);
    if (!cuda) return fail("has an unrecognised suffix '" + std::string(t) + "'");
    m.cuda = *cuda;
  }
  return {m, {}};
}

Parsed<Decoded> decode(std::string_view text) {
  const std::string_view s = trim(text);
  Decoded d{std::string(s), "", {}, std::nullopt, std::nullopt};
  if (s.empty())
    return Parsed<Decoded>::fail("expected a version, a library name or a module name");

  if (all_digits(s)) {
    const Parsed<Version> v = parse_cudnn_number(s);
    if (!v) {
      const bool cuda_like = parse_cudart_number(s).value.has_value();
      return Parsed<Decoded>::fail(
          v.error + (cuda_like ? "; if it came from cudnnGetCudartVersion(), use --cudart" : ""));
    }
    d.form = "cudnn-number";
    d.version = *v;
    return {d, {}};
  }
  if (s.front() == '(') {
    const Parsed<Version> v = parse_tuple(s);
    if (!v) return Parsed<Decoded>::fail(v.error);
    d.form = "tuple";
    d.version = *v;
    return {d, {}};
  }
  if (const Parsed<LibraryName> lib = parse_library_name(s)) {
    if (!lib->version)
      return Parsed<Decoded>::fail(quoted(s) +
                                   " carries no version: the loader takes whichever cuDNN it "
                                   "finds first under that name");
    d.form = "library";
    d.version = *lib->version;
    d.library = *lib;
    return {d, {}};
  }
  if (s.find('/') != std::string_view::npos) {
    const Parsed<ModuleName> m = parse_module_name(s);
    if (!m) return Parsed<Decoded>::fail(m.error);
    d.form = "module";
    d.version = m->cudnn;
    d.cuda = m->cuda;
    return {d, {}};
  }
  const Parsed<Version> v = parse_dotted(s);
  if (!v) return Parsed<Decoded>::fail(v.error);
  d.form = "dotted";
  d.version = *v;
  return {d, {}};
}

Parsed<Decoded> decode_cudart(std::string_view text) {
  const std::string_view s = trim(text);
  const Parsed<Version> v = all_digits(s) ? parse_cudart_number(s) : parse_dotted(s);
  if (!v) return Parsed<Decoded>::fail(v.error);
  return {Decoded{std::string(s), all_digits(s) ? "cudart-number" : "dotted", *v, std::nullopt,
                  std::nullopt},
          {}};
}

}  // namespace cudnn_compat
