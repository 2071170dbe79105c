// Family readers for the loaders of the frameworks, in the wordings their sources print: Torch7's
// cudnn.torch (ffi.lua), PaddlePaddle's dynamic loader (platform/dynload/dynamic_loader.cc and
// dynload/cudnn.cc), ONNX Runtime's provider bridge (provider_bridge_ort.cc,
// onnxruntime_pybind_state.cc), TensorFlow's Windows import self-check (self_check.py) and its
// "DNN library" errors, CuPy's setup (install/build.py).
#include "explain_read.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat::explain {
namespace {

// cudnn.torch: "'libcudnn (R5) not found in library path." - its next lines name the file. A
// page that wrapped it before "(R5)" may join the two without the space.
std::optional<Finding> read_torch7(std::string_view line, std::string_view next) {
  std::optional<std::string_view> r = after(line, "libcudnn (R");
  if (!r) r = after(line, "libcudnn(R");
  if (!r || !after(*r, "not found")) return std::nullopt;
  Finding f = found(FindingKind::library_not_found);
  f.framework = "torch7";
  f.required = version_of(token(*r));
  // Only the file of that release the message itself goes on to name, not another message's.
  for (const std::string &name : file_names(next)) {
    const Parsed<LibraryName> n = parse_library_name(name);
    if (n && n->sub.empty() && n->version && f.required && n->version->major == f.required->major &&
        name.find(".so") != std::string::npos) {
      f.library = name;
      break;
    }
  }
  return f;
}

// Paddle: "The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not
// configured correctly. (error code is 126)" - 126 not found, 127 found but lacking a function -
// or the dlerror in place of the code; "Cannot load cudnn shared library. Cannot invoke method
// cudnnGetVersion."
std::optional<Finding> read_paddle(std::string_view line) {
  if (auto r = after(line, "The third-party dynamic library (")) {
    const std::string lib = library_at(r->substr(0, r->find(')')));
    if (!names_cudnn_library(lib)) return std::nullopt;
    Finding f = found(FindingKind::library_not_found);
    f.framework = "paddlepaddle";
    f.library = std::string(basename_of(lib));
    f.windows_error = windows_code(*r);
    if (f.windows_error == 127 || after(*r, "undefined symbol"))
      f.kind = FindingKind::sublibrary_mismatch;
    return f;
  }
  if (after(line, "Cannot load cudnn shared library"))
    return found(FindingKind::library_not_found, "paddlepaddle",
                 "Paddle opens the unversioned libcudnn.so on Linux: it needs the development "
                 "link or a directory that has it");
  return std::nullopt;
}

// ONNX Runtime on Windows: 'Error loading "...onnxruntime_providers_cuda.dll" which depends on
// "cudnn64_9.dll" which is missing.', then "Failed to create CUDAExecutionProvider. Require cuDNN
// 9.* and CUDA 12.*".
std::optional<Finding> read_onnxruntime(std::string_view line) {
  if (auto r = after(line, "which depends on ")) {
    const std::string_view name = r->substr(std::min(r->size(), r->find_first_not_of("\" '")));
    if (std::optional<Finding> f = not_found(library_at(name))) {
      f->framework = "onnxruntime";
      f->windows_error = windows_code(line);
      return f;
    }
  }
  // 'LoadLibrary failed with error 126 "" when trying to load "...onnxruntime_providers_cuda.dll"':
  // a DLL the CUDA provider needs is missing, cuDNN's or CUDA's, and the line names neither.
  if (after(line, "onnxruntime_providers_cuda") && windows_code(line) == 126 &&
      after(line, "when trying to load")) {
    Finding f = found(FindingKind::library_not_found, "onnxruntime",
                      "a DLL that ONNX Runtime's CUDA provider needs is missing: cuDNN's "
                      "(cudnn64_9.dll) or CUDA's; the line does not say which");
    f.windows_error = 126;
    return f;
  }
  if (auto r = after(line, "Require cuDNN ")) {
    Finding f = found(FindingKind::library_not_found);
    f.framework = "onnxruntime";
    f.required = version_of(token(*r));
    f.windows_error = windows_code(line);
    return f;
  }
  return std::nullopt;
}

// TensorFlow on Windows checks its DLLs at import: "Could not find 'cudnn64_7.dll'. TensorFlow
// requires that this DLL be installed ..."; later "DNN library is not found." says only that no
// cuDNN could be used, which a line before usually explains.
std::optional<Finding> read_tensorflow_loading(std::string_view line) {
  if (auto r = after(line, "Could not find '"))
    if (std::optional<Finding> f = not_found(library_at(*r))) {
      f->framework = "tensorflow";
      // self_check.py goes on: "You may install the necessary DLL by downloading cuDNN 7 ...".
      f->required = version_after(line, "by downloading cuDNN ");
      return f;
    }
  for (std::string_view what :
       {"DNN library initialization failed", "This is probably because cuDNN failed to initialize",
        "DNN library is not found"})
    if (after(line, what)) {
      Finding f;  // not recognised on its own: it points at what came before
      f.note = what.starts_with("This") ? "cuDNN failed to initialize" : std::string(what);
      return f;
    }
  return std::nullopt;
}

// CuPy's setup: "*** WARNING: Unsupported cuDNN version: 7001" with the range it supports on the
// next line.
std::optional<Finding> read_cupy(std::string_view line, std::string_view next) {
  // Chainer, when CuPy was built without cuDNN: "cuDNN is not enabled.\nPlease reinstall CuPy
  // after you install cudnn" (chainer/backends/cuda.py). A warning Python prints at import: the
  // run's, though the fix is a build.
  if (after(line, "reinstall CuPy after you install cudnn"))
    return found(FindingKind::library_not_found, "chainer",
                 "CuPy was built without cuDNN: install cuDNN, then reinstall CuPy");
  auto r = after(line, "Unsupported cuDNN version: ");
  if (!r) return std::nullopt;
  Finding f = found(FindingKind::version_mismatch);
  f.framework = "cupy";
  f.build_time = true;
  f.runtime = version_of(token(*r));
  const std::string_view first = next.substr(0, next.find_first_of("\r\n"));
  if (auto w = after(first, "WARNING: ")) f.note = "CuPy says: " + std::string(trim(*w));
  // "cuDNN v4<= and <=v6 is required": a release past the range needs an older one.
  if (const std::optional<Version> newest = upper_bound_in(folded(first));
      newest && f.runtime && newest->major < f.runtime->major)
    f.older_than = Version{newest->major + 1, {}, {}, {}};
  return f;
}

// cudnn.torch's own version check (ffi.lua): "These bindings are for CUDNN 5.x (5005 <=
// cudnn.version > 6000) , while the loaded CuDNN is version: 6021", and R4's "These bindings are
// for version 4005 or above, while the loaded CuDNN is version: 4004".
std::optional<Finding> read_torch7_bindings(std::string_view line) {
  auto r = after(line, "These bindings are for ");
  if (!r) return std::nullopt;
  const std::optional<Version> loaded = version_after(line, "the loaded CuDNN is version: ");
  if (auto v = after(*r, "version "); v && after(*v, "or above")) {
    Finding f = found(FindingKind::outdated, "torch7");
    f.runtime = loaded;
    f.required = version_of(token(*v));
    f.note = raw_numbers(line);
    return f;
  }
  return mismatch(
      "torch7", Rule::exact, loaded, version_after(*r, "CUDNN "),
      "cudnn.torch's bindings accept one cuDNN major (their branch R" +
          std::string(token(r->substr(std::min(r->size(), r->find_first_of("0123456789"))))) + ")");
}

}  // namespace

std::optional<Finding> read_other_framework(std::string_view line, std::string_view next) {
  if (std::optional<Finding> f = read_torch7_bindings(line)) return f;
  if (std::optional<Finding> f = read_torch7(line, next)) return f;
  if (std::optional<Finding> f = read_paddle(line)) return f;
  if (std::optional<Finding> f = read_onnxruntime(line)) return f;
  if (std::optional<Finding> f = read_tensorflow_loading(line)) return f;
  return read_cupy(line, next);
}

}  // namespace cudnn_compat::explain
