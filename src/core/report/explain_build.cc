// Building: configure and CMake steps that do not find or do not accept cuDNN (CMake's
// FindPackageHandleStandardArgs, dlib's cmake_utils/find_cudnn.txt, PyTorch's and OpenCV's
// CMake, TensorFlow's configure.py), compilers missing cudnn.h or meeting another cuDNN API,
// linkers missing the library.
#include "explain_read.h"
#include "text.h"

namespace cudnn_compat::explain {
namespace {

Finding at_build(FindingKind kind, std::string note = {}) {
  Finding f = found(kind, {}, std::move(note));
  f.build_time = true;
  return f;
}

// A build finding of kind, with note, when line says any of words.
std::optional<Finding> when_any(std::string_view line,
                                std::initializer_list<std::string_view> words, FindingKind kind,
                                std::string_view note) {
  for (std::string_view w : words)
    if (after(line, w)) return at_build(kind, std::string(note));
  return std::nullopt;
}

// A quoted or bare version after marker: CMake writes Found unsuitable version "7.6.5".
std::optional<Version> quoted_version_after(std::string_view s, std::string_view marker) {
  auto r = after(s, marker);
  if (!r) return std::nullopt;
  std::string_view t = trim(*r);
  while (!t.empty() && (t[0] == '"' || t[0] == '\'' || t[0] == 'v' || t[0] == 'V'))
    t.remove_prefix(1);
  return version_of(token(t));
}

// cudnn.h, cudnn_version.h: a compiler that cannot find cuDNN's headers.
std::optional<Finding> read_header(std::string_view line) {
  for (std::string_view header : {"cudnn_version.h", "cudnn.h"}) {
    const std::size_t at = line.find(header);
    if (at == std::string_view::npos) continue;
    const std::string low = folded(line);
    bool missing = false;
    for (std::string_view words : {"no such file", "file not found", "cannot open include file",
                                   "could not find", "cannot find", "can't find", "not found"})
      missing = missing || low.find(words) != std::string::npos;
    if (!missing || line.substr(at + header.size()).starts_with("pp")) continue;  // cudnn.hpp
    Finding f = at_build(FindingKind::library_not_found);
    f.library = std::string(header);
    if (auto r = after(line, "matching version '")) f.required = version_of(token(*r));
    return f;
  }
  return std::nullopt;
}

std::optional<Finding> read_linker(std::string_view line) {
  if (after(line, "cannot find -lcudnn")) {
    Finding f = at_build(FindingKind::library_not_found);
    f.library = "libcudnn.so";
    f.note = "the linker's -lcudnn asks for libcudnn.so, the development link";
    return f;
  }
  if (auto r = after(line, "cannot open input file '")) {
    const std::string lib = library_at(*r);
    if (lower(lib).starts_with("cudnn") && lib.ends_with(".lib")) {
      Finding f = at_build(FindingKind::library_not_found);
      f.library = lib;
      return f;
    }
  }
  return when_any(line, {"undefined reference to `cudnn", "unresolved external symbol cudnn"},
                  FindingKind::library_not_found,
                  "the link did not include cuDNN (-lcudnn and its directory), or took a cuDNN "
                  "release that lacks this function");
}

// The compiler meets a cuDNN API other than the one the source was written for.
std::optional<Finding> read_api_change(std::string_view line) {
  const std::string low = folded(line);
  if (!after(low, "error") || !after(low, "cudnn")) return std::nullopt;
  return when_any(low,
                  {"too few arguments to function", "too many arguments to function",
                   "was not declared in this scope", "is undefined", "has not been declared",
                   "undeclared identifier", "use of undeclared", "has no member named",
                   "undeclared (first use", "unknown type name", "does not name a type"},
                  FindingKind::version_mismatch,
                  "the source was written for another cuDNN API than the cudnn.h it compiles "
                  "against");
}

std::optional<Finding> read_configure(std::string_view line) {
  const std::string low = folded(line);
  // CMake's own capitals: "Could NOT find CUDNN (missing: ...)"; TensorFlow's Windows self-check
  // says "Could not find cuDNN." at run time.
  const std::optional<std::string_view> cmake = after(line, "Could NOT find ");
  if (auto r = cmake ? std::optional<std::string>(folded(*cmake)) : std::nullopt;
      r && r->starts_with("cudnn")) {
    Finding f = at_build(FindingKind::library_not_found);
    if (after(*r, "unsuitable version")) {
      f.kind = FindingKind::outdated;
      f.runtime = quoted_version_after(*r, "unsuitable version");
      f.required = quoted_version_after(*r, "required is at least");
      if (!f.required) f.required = quoted_version_after(*r, "required is exact version");
    }
    return f;
  }
  if (auto r = after(low, "cudnn v")) {
    if (after(*r, "or greater not found")) {
      Finding f = at_build(FindingKind::library_not_found);
      f.required = version_of(token(*r));
      return f;
    }
  }
  // PyTorch's, OpenCV's, TensorFlow's and MindSpore's configure steps.
  for (std::string_view words :
       {"cudnn not found. compiling", "cannot find cudnn library. turning",
        "requires cudnn. please", "invalid path to cudnn", "failed to find cudnn library"})
    if (auto r = after(low, words)) {
      Finding f = at_build(FindingKind::library_not_found);
      if (words == "invalid path to cudnn") f.required = version_of(token(*r));
      return f;
    }
  return std::nullopt;
}

}  // namespace

std::optional<Finding> read_build(std::string_view line) {
  for (auto reader : {read_header, read_linker, read_api_change, read_configure})
    if (std::optional<Finding> f = reader(line)) return f;
  return std::nullopt;
}

}  // namespace cudnn_compat::explain
