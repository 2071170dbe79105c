// Family readers for the version checks of the frameworks, in the wordings their sources print:
// TensorFlow (stream_executor/cuda/cuda_dnn.cc, every era), XLA/JAX, PyTorch
// (torch/backends/cudnn/__init__.py), Caffe2 (caffe2/core/common_cudnn.h), PaddlePaddle
// (gpu_resources.cc), MXNet (src/base.cc), OpenCV (dnn/src/cuda4dnn/init.hpp), TensorRT's
// logger and Theano (theano/gpuarray/dnn.py, theano/sandbox/cuda/dnn.py).
#include "explain_read.h"
#include "text.h"

namespace cudnn_compat::explain {
namespace {

// OpenCV divides cuDNN 9's major*10000 encoding as if it were major*1000: 90100 -> "90.1", so
// what follows the dot is one digit (the hundreds).
std::optional<Version> opencv_runtime(std::string_view t, std::string &note) {
  const std::vector<std::string_view> p = split(t, '.');
  const std::optional<std::int64_t> a = p.size() == 2 ? parse_uint(p[0]) : std::nullopt;
  const std::optional<std::int64_t> b = p.size() == 2 ? parse_uint(p[1]) : std::nullopt;
  if (a && b && *a >= 90 && *a < 100 && *b < 10) {
    const Version v{9, int(*a % 10 * 10 + *b), {}, {}};
    note = "OpenCV printed " + std::string(t) + " for cuDNN " + to_string(v) +
           ": it decodes cuDNN 9's version number (major*10000) as if it were cuDNN 8's "
           "(major*1000)";
    return v;
  }
  return version_of(t);
}

std::optional<Finding> read_tensorflow(std::string_view line) {
  if (auto r = after(line, "Loaded runtime CuDNN library: ")) {
    const std::optional<Version> runtime = version_of(token(*r));
    if (after(line, "(compatibility version"))
      return mismatch_in(line, "tensorflow", Rule::tensorflow_2016, runtime,
                         version_after(line, "compiled with"));
    // "but source was compiled with: 7.6.0", "but the source was compiled with: 7.1.4".
    const std::optional<Version> built = version_after(line, "compiled with");
    const Rule rule = after(line, "major and minor version needs to match or have higher minor")
                          ? Rule::tensorflow_2018
                          : Rule::tensorflow;
    // XLA prints the check for both: JAX's build names XLA's tree external/xla/, TensorFlow's
    // external/local_xla/ (external/org_tensorflow/, before 2023, was both JAX's and TF Serving's).
    const bool jax = after(line, "JAX") || after(line, "external/xla/");
    return mismatch(jax ? "jax" : "tensorflow", rule, runtime, built);
  }
  if (auto r = after(line, "Loaded cudnn library: "))
    return mismatch_in(line, "tensorflow", Rule::exact, version_of(token(*r)),
                       version_after(line, "but source was compiled against "));
  return std::nullopt;
}

std::optional<Finding> read_pytorch(std::string_view line) {
  // 2022 on: "compiled against (8, 3, 2) but linked against (8, 0, 3)"; now "but found runtime
  // version (8, 5, 0)".
  if (after(line, "PyTorch was compiled") && after(line, "against (")) {
    const std::size_t a = line.find("against (");
    std::optional<Version> runtime = version_after(line, "found runtime version ");
    if (!runtime) runtime = version_after(line, "but linked against ");
    return mismatch("pytorch", Rule::pytorch, runtime, version_of(token(line.substr(a + 8))));
  }
  if (after(line, "cuDNN version mismatch: PyTorch was compiled against"))
    return mismatch_in(line, "pytorch", Rule::pytorch_2017,
                       version_after(line, "but linked against "),
                       version_after(line, "PyTorch was compiled against "));
  // The same as users retype it in an issue's title ("cuDNN version mismatch:Pytorch was compiled
  // against 7102 but link against 7301", xingyizhou/CenterNet#119): read without its capitals,
  // its blank, or its "-ed", the runtime was lost and the advice was NVIDIA's rule, which that
  // PyTorch refuses. The folded line keeps the original's offsets.
  const std::string low = folded(line);
  if (has(low, "version mismatch") && has(low, "pytorch was compiled against "))
    for (std::string_view linked : {"but linked against ", "but link against "})
      if (const std::size_t at = low.find(linked); at != std::string::npos)
        return mismatch_in(line, "pytorch", Rule::pytorch_2017,
                           version_of(token(line.substr(at + linked.size()))),
                           version_after(low, "pytorch was compiled against "));
  return std::nullopt;
}

// Caffe2 prints each version as one integer in parentheses ("runtime (7005)"): blanks a copy put
// inside them (an issue title's "runtime (7 005)") are no part of it, and a first group alone
// ("7") would name another release.
std::optional<Version> caffe2_version_after(std::string_view line, std::string_view marker) {
  const std::string_view rest = after(line, marker).value_or("");
  std::string digits;
  for (const char c : rest.substr(0, rest.find(')'))) {
    if (is_digit(c))
      digits += c;
    else if (c != ' ')
      return version_after(line, marker);
  }
  return version_of(digits);
}

std::optional<Finding> read_others(std::string_view line) {
  if (after(line, "cuDNN compiled (") && after(line, "versions mismatch"))
    return mismatch_in(line, "caffe2", Rule::caffe2, caffe2_version_after(line, "and runtime ("),
                       caffe2_version_after(line, "cuDNN compiled ("));
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
  // NVIDIA's mnistCUDNN sample, the usual check of an install: "cudnnGetVersion() : 7102 ,
  // CUDNN_VERSION from cudnn.h : 7401 (7.4.1)" - the library it ran with and the header it was
  // compiled with; the same release twice is a healthy install.
  if (auto r = after(line, "cudnnGetVersion() : ")) {
    const std::optional<Version> runtime = version_of(token(*r));
    const std::optional<Version> header = version_after(line, "CUDNN_VERSION from cudnn.h : ");
    if (!runtime || !header || *runtime == *header) return std::nullopt;
    return mismatch("", Rule::nvidia, runtime, header,
                    "mnistCUDNN ran with one cuDNN library and was compiled with another "
                    "release's cudnn.h: " +
                        raw_numbers(line));
  }
  // TensorRT's logger: "[TRT] [W] TensorRT was linked against cuDNN 8.6.0 but loaded cuDNN 8.5.0".
  if (after(line, "TensorRT was linked against cuDNN "))
    return mismatch("tensorrt", Rule::nvidia, version_after(line, "but loaded cuDNN "),
                    version_after(line, "TensorRT was linked against cuDNN "));
  return std::nullopt;
}

// JAX prints cuDNN's version as major * 1000 + minor * 100 + patch whatever the release, so its
// minimum for cuDNN 9.1 is "9100" (xla_bridge's min_supported_version), which in cuDNN's own
// numbering (90100 from cuDNN 9) names no release.
std::optional<Version> jax_number_after(std::string_view s, std::string_view marker) {
  const std::optional<std::string_view> rest = after(s, marker);
  const std::string_view t = rest ? token(*rest) : std::string_view{};
  const std::optional<std::int64_t> n = t.size() == 4 ? parse_uint(t) : std::nullopt;
  if (n && *n >= 9000) return Version{int(*n / 1000), int(*n % 1000 / 100), int(*n % 100), {}};
  return version_after(s, marker);
}

std::optional<Finding> read_jax(std::string_view line, std::string_view next) {
  // jaxlib's C++ layer, one line.
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
    if (const std::optional<Version> min = jax_number_after(next, "Minimum supported: ")) {
      f.required = min;
      f.note = "JAX needs at least cuDNN " + to_string(*min);
    }
    return f;
  }
  return std::nullopt;
}

// Theano compares the cudnn.h it compiles against with the library it links: "Mixed dnn version.
// The header is version 5110 while the library is version 7401." or, earlier, "... a different
// version (5010, 5005)"; and refuses old releases: "cuDNN version is too old. Update to v5, was
// 3007."
std::optional<Finding> read_theano(std::string_view line) {
  if (after(line, "Mixed dnn version")) {
    std::optional<Version> header = version_after(line, "The header is version ");
    std::optional<Version> library = version_after(line, "the library is version ");
    if (auto pair = after(line, "a different version (")) {
      const std::vector<std::string_view> p = split(pair->substr(0, pair->find(')')), ',');
      if (p.size() == 2) header = version_of(trim(p[0])), library = version_of(trim(p[1]));
    }
    return mismatch_in(line, "theano", Rule::exact, library, header);
  }
  const std::string low = folded(line);
  // "cuDNN Version is too old. Update to v5, was 3007." and, on a context, "Can not use cuDNN
  // on context None: Version is too old. Update to v5, was 3007."
  if (auto r = after(low, "version is too old. update to v"); r && after(low, "cudnn")) {
    Finding f = found(FindingKind::outdated);
    f.framework = "theano";
    f.required = version_of(token(*r));
    f.runtime = version_after(low, ", was ");
    f.note = raw_numbers(line);
    return f;
  }
  // "Your cuDNN version is more recent than Theano. If you encounter problems, try updating
  // Theano or downgrading cuDNN to a version >= v5 and <= v7." (gpuarray; the old backend said
  // "more recent then" and "to version 4"): a warning about the release it loaded, named by the
  // "Using cuDNN version 7402" banner beside it.
  if (after(low, "cudnn version is more recent th") && after(low, "theano")) {
    Finding f = found(FindingKind::version_mismatch, "theano",
                      "Theano warns that this cuDNN is newer than the releases it was written "
                      "for: nothing failed yet; if something does, update Theano or take the "
                      "cuDNN it names");
    f.rule = Rule::exact;
    // The newest release it names: "to version 4", "<= v7".
    for (std::string_view bound : {"<= v", "to version "})
      if (const std::optional<Version> v = version_after(low, bound))
        f.older_than = Version{v->major + 1, {}, {}, {}};
    return f;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Finding> read_framework(std::string_view line, std::string_view next) {
  for (auto reader : {read_tensorflow, read_pytorch, read_others, read_theano})
    if (std::optional<Finding> f = reader(line)) return f;
  if (std::optional<Finding> f = read_jax(line, next)) return f;
  return read_other_framework(line, next);
}

}  // namespace cudnn_compat::explain
