// From the messages frameworks, cuDNN and the loader print to what happened, in versions people
// can read. Keyword-anchored parsing, no regular expressions: a job log can be huge and hostile,
// and libstdc++'s std::regex recurses per character.
#include "cudnn_compat.h"
#include "text.h"

#include <algorithm>
#include <cctype>

namespace cudnn_compat {
namespace {

constexpr std::size_t kMaxLine = 8192;  // longer lines are read up to here

// The text after the first occurrence of marker, or nullopt.
std::optional<std::string_view> after(std::string_view s, std::string_view marker) {
  const std::size_t i = s.find(marker);
  if (i == std::string_view::npos) return std::nullopt;
  return s.substr(i + marker.size());
}

// The leading version-like token of s ("5103", "7.6.0", "90.1", "(8, 9, 2)"), trimmed of
// punctuation that ends sentences.
std::string_view token(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s[0] == '(') return s.substr(0, s.find(')') + 1);
  std::size_t n = 0;
  while (n < s.size() && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')) ++n;
  std::string_view t = s.substr(0, n);
  while (!t.empty() && t.back() == '.') t.remove_suffix(1);
  return t;
}

// An integer from cudnnGetVersion() or a dotted/tuple version; nullopt when it is neither.
std::optional<Version> version_of(std::string_view t) {
  if (t.empty()) return std::nullopt;
  if (t[0] == '(') {
    if (Parsed<Version> v = parse_tuple(t)) return *v;
    return std::nullopt;
  }
  if (all_digits(t)) {
    if (Parsed<Version> v = parse_cudnn_number(t)) return *v;
    return std::nullopt;
  }
  if (Parsed<Version> v = parse_dotted(t)) return *v;
  return std::nullopt;
}

std::optional<Version> version_after(std::string_view s, std::string_view marker) {
  const std::optional<std::string_view> rest = after(s, marker);
  return rest ? version_of(token(*rest)) : std::nullopt;
}

// "5005 is cuDNN 5.0.5 ..." for every integer the message printed: people cannot read them.
std::string raw_numbers(std::string_view line) {
  std::string note;
  bool old_encoding = false, new_encoding = false;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] < '0' || line[i] > '9' ||
        (i > 0 && (std::isalnum(static_cast<unsigned char>(line[i - 1])) || line[i - 1] == '.' ||
                   line[i - 1] == ':'))) {
      ++i;
      continue;
    }
    std::size_t n = i;
    while (n < line.size() && line[n] >= '0' && line[n] <= '9') ++n;
    const std::string_view digits = line.substr(i, n - i);
    i = n;
    if (n < line.size() && (line[n] == '.' || line[n] == ']' || line[n] == ':') &&
        n + 1 < line.size() && line[n + 1] >= '0' && line[n + 1] <= '9')
      continue;  // part of a dotted version or a source position
    if (digits.size() < 4 || digits.size() > 5) continue;
    const Parsed<Version> v = parse_cudnn_number(digits);
    // No framework these messages come from ran on cuDNN 1-3: a 2018 there is a year.
    if (!v || v->major < 4) continue;
    const std::string text = std::string(digits) + " is cuDNN " + to_string(*v);
    if (note.find(text) != std::string::npos) continue;
    note += (note.empty() ? "" : ", ") + text;
    (v->major >= 9 ? new_encoding : old_encoding) = true;
  }
  if (note.empty()) return note;
  if (old_encoding) note += " (cudnnGetVersion(): major*1000 + minor*100 + patch";
  if (new_encoding)
    note += std::string(old_encoding ? "; from 9 on " : " (") + "major*10000 + minor*100 + patch";
  note += ")";
  if (line.find("compatibility version") != std::string_view::npos)
    note += "; TensorFlow's \"compatibility version\" is the same number without the patch";
  return note;
}

// The word that ends at "marker" in s: "libcudnn.so.8" in "libcudnn.so.8: cannot open ...".
std::string word_before(std::string_view s, std::size_t at) {
  std::size_t b = at;
  while (b > 0 && s[b - 1] != ' ' && s[b - 1] != '\'' && s[b - 1] != '"' && s[b - 1] != '{' &&
         s[b - 1] != ',' && s[b - 1] != '(' && s[b - 1] != '\t')
    --b;
  return std::string(s.substr(b, at - b));
}

// The library name starting s: "libcudnn_cnn_infer.so.8" in "libcudnn_cnn_infer.so.8. Error".
std::string library_at(std::string_view s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && s[n] != ' ' && s[n] != '\'' && s[n] != '"' && s[n] != ';' && s[n] != ',' &&
         s[n] != '}' && s[n] != ':')
    ++n;
  std::string_view w = s.substr(0, n);
  while (!w.empty() && w.back() == '.') w.remove_suffix(1);
  return std::string(w);
}

Finding found(FindingKind kind) {
  Finding f;
  f.recognized = true;
  f.kind = kind;
  return f;
}

// A cuDNN library the loader could not find, named by a message; nothing for any other library.
std::optional<Finding> not_found(std::string_view library) {
  if (!is_cudnn_library_name(library)) return std::nullopt;
  Finding f = found(FindingKind::library_not_found);
  f.library = std::string(basename_of(library));
  return f;
}

Finding mismatch(std::string framework, Rule rule, std::optional<Version> runtime,
                 std::optional<Version> built, std::string note = {}) {
  Finding f = found(FindingKind::version_mismatch);
  f.framework = std::move(framework);
  f.rule = rule;
  f.runtime = runtime;
  f.built_with = built;
  f.note = std::move(note);
  return f;
}

// mismatch() with the raw numbers of the line explained.
Finding mismatch_in(std::string_view line, std::string framework, Rule rule,
                    std::optional<Version> runtime, std::optional<Version> built) {
  return mismatch(std::move(framework), rule, runtime, built, raw_numbers(line));
}

// OpenCV divides cuDNN 9's major*10000 encoding as if it were major*1000: 90100 -> "90.1".
std::optional<Version> opencv_runtime(std::string_view t, std::string &note) {
  const std::vector<std::string_view> p = split(t, '.');
  const std::optional<std::int64_t> a = p.size() == 2 ? parse_uint(p[0]) : std::nullopt;
  const std::optional<std::int64_t> b = p.size() == 2 ? parse_uint(p[1]) : std::nullopt;
  if (a && b && *a >= 90 && *a < 100) {
    const Version v{9, int(*a % 10 * 10 + *b), {}, {}};
    note = "OpenCV printed " + std::string(t) + " for cuDNN " + to_string(v) +
           ": it decodes cuDNN 9's version number (major*10000) as if it were cuDNN 8's "
           "(major*1000)";
    return v;
  }
  return version_of(t);
}

// One line, or nothing it recognises. `next` holds the lines after it, for messages that span
// several (JAX's).
std::optional<Finding> read_line(std::string_view line, std::string_view next) {
  // TensorFlow 2016-2018 and its first form.
  if (auto r = after(line, "Loaded runtime CuDNN library: ")) {
    const std::optional<Version> runtime = version_of(token(*r));
    if (after(line, "(compatibility version"))
      return mismatch_in(line, "tensorflow", Rule::tensorflow_2016, runtime,
                         version_after(line, "but source was compiled with "));
    const std::optional<Version> built = version_after(line, "but source was compiled with: ");
    const Rule rule = after(line, "major and minor version needs to match or have higher minor")
                          ? Rule::tensorflow_2018
                          : Rule::tensorflow;
    return mismatch(after(line, "JAX") ? "jax" : "tensorflow", rule, runtime, built);
  }
  if (auto r = after(line, "Loaded cudnn library: "))
    return mismatch_in(line, "tensorflow", Rule::exact, version_of(token(*r)),
                       version_after(line, "but source was compiled against "));
  // PyTorch.
  if (after(line, "PyTorch was compiled") && after(line, "against (")) {
    const std::size_t a = line.find("against (");
    return mismatch("pytorch", Rule::pytorch, version_after(line, "found runtime version "),
                    version_of(token(line.substr(a + 8))));
  }
  if (after(line, "cuDNN version mismatch: PyTorch was compiled against"))
    return mismatch_in(line, "pytorch", Rule::pytorch_2017,
                       version_after(line, "but linked against "),
                       version_after(line, "PyTorch was compiled against "));
  // Caffe2, PaddlePaddle, MXNet, OpenCV.
  if (after(line, "cuDNN compiled (") && after(line, "versions mismatch"))
    return mismatch_in(line, "caffe2", Rule::caffe2, version_after(line, "and runtime ("),
                       version_after(line, "cuDNN compiled ("));
  if (after(line, "Paddle is compiled with CUDNN "))
    return mismatch("paddlepaddle", Rule::paddle,
                    version_after(line, "CUDNN version in your machine is "),
                    version_after(line, "Paddle is compiled with CUDNN "));
  if (after(line, "cuDNN lib mismatch: linked-against version "))
    return mismatch_in(line, "mxnet", Rule::mxnet, version_after(line, "linked-against version "),
                       version_after(line, "compiled-against version "));
  if (auto r = after(line, "cuDNN reports version ")) {
    std::string note;
    const std::optional<Version> runtime = opencv_runtime(token(*r), note);
    return mismatch("opencv", Rule::nvidia, runtime, version_after(line, "with the version "),
                    note);
  }
  // JAX's C++ layer (jaxlib), one line.
  if (auto r = after(line, "Found cuDNN version ")) {
    if (after(line, "but JAX was built against version ")) {
      Finding f = mismatch_in(line, "jax", Rule::jax, version_of(token(*r)),
                              version_after(line, "but JAX was built against version "));
      f.kind = FindingKind::outdated;
      return f;
    }
  }
  // JAX's Python layer: three lines.
  if (after(line, "Outdated cuDNN installation found")) {
    Finding f = mismatch("jax", Rule::jax, version_after(next, "Installed version: "),
                         version_after(next, "Version JAX was built against: "));
    f.kind = FindingKind::outdated;
    if (const std::optional<Version> min = version_after(next, "Minimum supported: "))
      f.note = "JAX needs at least cuDNN " + to_string(*min);
    return f;
  }
  // cuDNN's own status codes.
  if (after(line, "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"))
    return found(FindingKind::sublibrary_mismatch);
  if (after(line, "CUDNN_STATUS_VERSION_MISMATCH")) return found(FindingKind::version_mismatch);
  // cuDNN's own loader: a sub-library's dependency, or no candidate at all.
  if (auto r = after(line, "Could not load library ")) {
    Finding f = found(FindingKind::library_not_found);
    f.library = library_at(*r);
    if (auto e = after(*r, "Error: ")) {
      const std::string dep = library_at(*e);
      const bool a_library =
          dep.find(".so") != std::string::npos || dep.find(".dll") != std::string::npos;
      if (after(*e, "undefined symbol"))
        f.kind = FindingKind::sublibrary_mismatch;  // it loaded, but from another release
      else if (a_library && !is_cudnn_library_name(dep)) {
        f.kind = FindingKind::dependency_not_found;
        f.missing = dep;
      }
    }
    if (is_cudnn_library_name(f.library)) return f;
  }
  // cuDNN 9's dispatcher, when a sub-library of another release answered its dlopen.
  if (auto r = after(line, "Could not load symbol ")) {
    if (auto e = after(*r, "Error: "); e && after(*e, "undefined symbol")) {
      Finding f = found(FindingKind::sublibrary_mismatch);
      f.library = std::string(basename_of(e->substr(0, e->find(':'))));
      if (is_cudnn_library_name(f.library)) return f;
    }
  }
  if (auto r = after(line, "Unable to load any of {")) {
    Finding f = found(FindingKind::library_not_found);
    const std::string_view list = r->substr(0, r->find('}'));
    for (std::string_view name : split(list, ',')) f.library = std::string(trim(name));
    if (is_cudnn_library_name(f.library)) return f;
  }
  // The dynamic loader, directly or through a framework.
  for (std::string_view marker : {": cannot open shared object file", "'; dlerror"})
    if (const std::size_t at = line.find(marker); at != std::string_view::npos)
      if (std::optional<Finding> f = not_found(word_before(line, at))) return f;
  for (std::string_view marker :
       {"Could not load dynamic library '", "Couldn't open CUDA library "})
    if (auto r = after(line, marker))
      if (std::optional<Finding> f = not_found(library_at(*r))) return f;
  // Windows: "Could not locate cudnn_ops_infer64_8.dll", "Error loading "...\cudnn64_8.dll"".
  for (std::string_view marker : {"Could not locate ", "Error loading "}) {
    if (auto r = after(line, marker)) {
      std::string_view w = trim(*r);
      if (!w.empty() && w[0] == '"') w.remove_prefix(1);
      w = w.substr(0, w.find('"'));
      if (std::optional<Finding> f = not_found(library_at(basename_of(w)))) return f;
    }
  }
  if (after(line, "Invalid handle. Cannot load symbol cudnn"))
    return found(FindingKind::library_not_found);
  if (after(line, "DNN library initialization failed") ||
      after(line, "This is probably because cuDNN failed to initialize")) {
    Finding f;  // not recognised on its own: it points at what came before
    f.note = after(line, "DNN library initialization failed") ? "DNN library initialization failed"
                                                              : "cuDNN failed to initialize";
    return f;
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(FindingKind k) {
  switch (k) {
    case FindingKind::version_mismatch:
      return "version-mismatch";
    case FindingKind::library_not_found:
      return "library-not-found";
    case FindingKind::sublibrary_mismatch:
      return "sublibrary-mismatch";
    case FindingKind::dependency_not_found:
      return "dependency-not-found";
    case FindingKind::outdated:
      return "outdated";
    case FindingKind::unknown:
      break;
  }
  return "unknown";
}

std::vector<Finding> find_errors(std::string_view log) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < log.size();) {
    std::size_t end = log.find('\n', at);
    if (end == std::string_view::npos) end = log.size();
    lines.push_back(log.substr(at, std::min(end - at, kMaxLine)));
    at = end + 1;
  }
  std::vector<Finding> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // The lines after this one, for messages that continue there (at most a few).
    const std::size_t next_end = std::min(lines.size(), i + 6);
    std::string next;
    for (std::size_t j = i + 1; j < next_end; ++j) next.append(lines[j]).append("\n");
    std::optional<Finding> f = read_line(lines[i], next);
    if (!f) continue;
    f->line = i + 1;
    f->text = std::string(trim(lines[i]));
    // "DNN library initialization failed" says only that something before it went wrong.
    if (!f->recognized && !out.empty()) {
      out.back().note += std::string(out.back().note.empty() ? "" : "; ") + "it made \"" + f->note +
                         "\" at line " + std::to_string(i + 1);
      continue;
    }
    // A line that repeats the previous finding (the same message logged twice) adds nothing.
    if (!out.empty() && out.back().kind == f->kind && out.back().runtime == f->runtime &&
        out.back().built_with == f->built_with && out.back().library == f->library &&
        out.back().missing == f->missing)
      continue;
    if (f->kind == FindingKind::library_not_found && f->library.empty() && !out.empty() &&
        out.back().line + 1 >= f->line)
      continue;  // "Invalid handle" right after the "Unable to load" it follows from
    out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace cudnn_compat
