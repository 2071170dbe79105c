// What runs on this node: a release or a program without code for the GPU's architecture
// (CUDNN_STATUS_ARCH_MISMATCH, CUDA's "no kernel image is available for execution on the device",
// PyTorch's "with CUDA capability sm_86 is not compatible with the current PyTorch
// installation", TensorFlow's "Ignoring visible gpu device (...) with Cuda compute capability
// 3.0. The minimum required Cuda capability is 3.5."), and a driver older than the CUDA a release
// or program was built for ("CUDA driver version is insufficient for CUDA runtime version",
// PyTorch's "The NVIDIA driver on your system is too old (found version 11040)"). Neither is a
// cuDNN version problem: no cuDNN release number is read here, and the fix is the release that
// runs on that GPU and driver.
#include "explain_read.h"
#include "text.h"

#include <cctype>

namespace cudnn_compat::explain {
namespace {

// A compute capability written as sm_86, 8.6, "7 0", (7, 0) or darknet's 860.
std::optional<Version> capability_token(std::string_view s) {
  s = s.substr(std::min(s.size(), s.find_first_not_of(" \t:=(\"'")));
  if (s.starts_with("sm_") || s.starts_with("sm ") || s.starts_with("compute_")) {
    s.remove_prefix(s.find_first_of("_ ") + 1);
    std::size_t n = 0;
    while (n < s.size() && is_digit(s[n])) ++n;
    if (n < 2 || n > 3) return std::nullopt;
    const int v = int(*parse_uint(s.substr(0, n)));
    return Version{v / 10, v % 10, {}, {}};
  }
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  if (n == 0) return std::nullopt;
  const int major = int(*parse_uint(s.substr(0, std::min<std::size_t>(n, 6))));
  if (n == 3 && major >= 100) return Version{major / 100, major / 10 % 10, {}, {}};  // 860
  if (n > 2 || n == s.size()) return std::nullopt;
  // 7.0, "7 0", "7, 0"
  std::size_t m = n;
  while (m < s.size() && (s[m] == '.' || s[m] == ' ' || s[m] == ',')) ++m;
  if (m == n || m - n > 2 || m >= s.size() || !is_digit(s[m])) return std::nullopt;
  const int minor = s[m] - '0';
  if (major < 1 || major > 20) return std::nullopt;
  return Version{major, minor, {}, {}};
}

// The driver said to fall short, in whatever words: "driver" and, within a few words of it,
// "insufficient" or "too old" ("possibly insufficient driver version: 384.69.0", "CUDA driver
// version is insufficient for CUDA runtime version", "a sign of a too old driver").
bool driver_falls_short(std::string_view low) {
  constexpr std::string_view kDriver = "driver";
  constexpr std::size_t kNear = 30;  // columns either side: a few words
  for (std::size_t d = low.find(kDriver); d != std::string_view::npos;
       d = low.find(kDriver, d + 1)) {
    const std::size_t from = d > kNear ? d - kNear : 0;
    const std::string_view around = low.substr(from, d - from + kDriver.size() + kNear);
    if (has(around, "insufficient") || has(around, "too old")) return true;
  }
  return false;
}

// Theano's dnn_available() on a GPU below compute capability 3.0, which cuDNN needs: "Can not use
// cuDNN on context None: Device not supported" (held-out-16, Theano/libgpuarray#566).
bool theano_old_gpu(std::string_view low) {
  return has(low, "use cudnn") && has(low, ": device not supported");
}

// cuDNN's own floor of GPUs, said in words: "cuDNN requires Kepler or higher GPUs (i.e. CC >=
// 3.0)" beside a Fermi of compute capability 2.1 (CNTK#194), "cuDNN 9.11 needs Turing or newer".
bool cudnn_needs_newer_gpu(std::string_view low) {
  if (!has(low, "cudnn") || !(has(low, "require") || has(low, "need") || has(low, "only support")))
    return false;
  for (std::string_view gpu : {"kepler", "maxwell", "pascal", "volta", "turing", "ampere",
                               "cc >=", "cc>=", "capability >=", "capability of at least"})
    if (has(low, gpu)) return true;
  return false;
}

}  // namespace

std::optional<Version> capability_in(std::string_view low) {
  for (std::string_view marker : {"compute capability", "cuda capability", "compute_capability",
                                  "computecapability", "capability"}) {
    const std::size_t at = low.find(marker);
    if (at == std::string_view::npos) continue;
    std::string_view rest = low.substr(at + marker.size());
    if (rest.starts_with(" of")) rest.remove_prefix(3);
    if (std::optional<Version> v = capability_token(rest)) return v;
  }
  // TensorFlow's device properties: "major: 6 minor: 1".
  if (auto r = after(low, "major: ")) {
    if (auto m = after(*r, "minor: ")) {
      const std::string_view a = token(*r), b = token(*m);
      if (!a.empty() && !b.empty() && a.size() <= 2 && b.size() <= 2)
        return Version{int(*parse_uint(a)), int(*parse_uint(b)), {}, {}};
    }
  }
  if (const std::size_t sm = low.find("sm_"); sm != std::string_view::npos)
    return capability_token(low.substr(sm));
  return std::nullopt;
}

std::optional<Finding> read_gpu(std::string_view line) {
  const std::string low = folded(line);
  const bool arch =
      has(low, "arch_mismatch") || has(low, "no kernel image is available") ||
      has(low, "no_kernel_image") || has(low, "nokernelimage") || has(low, "no binary for gpu") ||
      has(low, "no_binary_for_gpu") || has(low, "your gpu is too old") ||
      has(low, "is not compatible with the current pytorch installation") ||
      (has(low, "capability") &&
       (has(low, "not supported") || has(low, "unsupported") || has(low, "no longer supported") ||
        has(low, "is not compatible") || has(low, "too old") || has(low, "too low") ||
        has(low, "minimum required cuda capability"))) ||
      theano_old_gpu(low) || cudnn_needs_newer_gpu(low);
  const bool driver = driver_falls_short(low) || has(low, "insufficient_driver") ||
                      has(low, "insufficientdriver") || has(low, "unsupported_ptx_version") ||
                      has(low, "ptx was compiled with an unsupported toolchain");
  if (!arch && !driver) return std::nullopt;
  Finding f = found(arch ? FindingKind::arch_mismatch : FindingKind::driver_too_old);
  if (arch) f.gpu = capability_in(low);
  if (has(low, "cudnn_status_arch_mismatch")) f.status = "CUDNN_STATUS_ARCH_MISMATCH";
  // PyTorch: "The NVIDIA driver on your system is too old (found version 11040)".
  if (auto r = after(low, "too old (found version ")) {
    const std::string_view t = token(*r);
    if (std::optional<std::int64_t> v = all_digits(t) ? parse_uint(t) : std::nullopt;
        v && *v >= 1000 && *v < 100000)
      f.driver_cuda = Version{int(*v / 1000), int(*v % 1000 / 10), {}, {}};
  }
  if (has(low, "pytorch")) f.framework = "pytorch";
  if (theano_old_gpu(low)) {
    f.framework = "theano";
    f.note = "Theano uses cuDNN only on GPUs of compute capability 3.0 or higher";
  }
  return f;
}

}  // namespace cudnn_compat::explain
