// What a whole log says besides its errors, and what it lends them: the cuDNN a run's banner names
// (Theano's "Using cuDNN version 7402", TensorFlow's "Loaded cuDNN version 8907") is the run
// time's when the failing line names none; the cuDNN a configure step found (CMake's 'Found CUDNN:
// ... (found version "7.6.5")', PyTorch's summary "cuDNN version : 7.4.1", "Found CUDNN: v8.9.2")
// is the build's; a log with compilers, linkers or CMake around a line is a build log there; a
// trace's mapped files are gathered for the one question they answer (explain_trace.cc); the
// GPU's compute capability and nvidia-smi's "CUDA Version" go to the findings about them.
#include "explain_read.h"
#include "text.h"

#include <algorithm>
#include <cctype>

namespace cudnn_compat::explain {
namespace {

constexpr std::size_t kBuildReach = 5;   // lines either side of a build tool's line
constexpr std::size_t kAdviceReach = 8;  // lines a tool's advice follows the failure it is about

// The version after marker, quoted or not, with or without a v: 7402, "7.6.5", v8.9.2.
std::optional<Version> version_near(std::string_view low, std::string_view marker) {
  auto r = after(low, marker);
  if (!r) return std::nullopt;
  std::string_view t = *r;
  while (!t.empty() && (t[0] == ' ' || t[0] == ':' || t[0] == '"' || t[0] == '='))
    t.remove_prefix(1);
  for (std::string_view word : {"version", "ver.", "v"})
    if (t.starts_with(word)) t = trim(t.substr(word.size()));
  // "cuDNN Version: 8.9." (Paddle's banner): the separator after the word too.
  while (!t.empty() && (t[0] == ':' || t[0] == '=' || t[0] == ' ')) t.remove_prefix(1);
  const std::optional<Version> v = version_of(token(t));
  if (!v || v->major < 2 || v->major > 30) return std::nullopt;
  return v;
}

// The user's account of what they installed ("Install cuda11.8, cuDNN8.5.0.96, and ..." in a
// list of steps, "I installed cuDNN 8.1"), not advice to install one ("please install ...").
bool setup_account(std::string_view low) {
  low = trim(low);
  while (!low.empty() && std::string_view("-*0123456789.) ").find(low[0]) != std::string_view::npos)
    low.remove_prefix(1);
  return low.starts_with("install") || has(low, "i installed") || has(low, "i have installed") ||
         has(low, "i've installed") || has(low, "we installed");
}

// A line that only reports the cuDNN a run uses: Theano's "Using gpu device 0: Tesla K40m (CNMeM
// is disabled, CuDNN 5004)", darknet's "CUDA-version: 11070 (11070), cuDNN: 8.4.1", a script's
// "cudnn version 8902", the user's account of what they installed. Not a line of trouble, nor one
// of a build or a requirement, nor a package name ("libcudnn8", "nvidia-cudnn-cu12").
std::optional<Version> plain_report(std::string_view low) {
  for (std::string_view word :
       {"error",   "fail",       "not ",   "mismatch", "warn",    "built",    "compiled",
        "against", "require",    "need",   "expect",   "support", "found",    "missing",
        "unable",  "cannot",     "header", "too ",     "upgrad",  "downgrad", "newest",
        "cuda_",   "version of", "please", "should",   "must"})
    if (has(low, word)) return std::nullopt;
  if (has(low, "install") && !setup_account(low)) return std::nullopt;
  for (std::size_t at = low.find("cudnn"); at != std::string_view::npos;
       at = low.find("cudnn", at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(low[at - 1])) || low[at - 1] == '-' ||
                   low[at - 1] == '_' || low[at - 1] == '/'))
      continue;
    // x.y.z: a fourth number is the package's build ("cuDNN8.5.0.96"), no part of the release.
    if (std::optional<Version> v = version_near(low.substr(at), "cudnn"))
      return Version{v->major, v->minor, v->patch, {}};
  }
  return std::nullopt;
}

// plain_report of one clause of a line whose other clauses tell of trouble: "... on a Tesla M40
// GPU, CUDA version 8.0, cuDNN version v5. when compile it, there is an error".
std::optional<Version> clause_report(std::string_view low) {
  for (std::size_t from = 0; from < low.size();) {
    std::size_t end = low.size(), skip = 0;
    for (std::string_view brk : {", ", "\xef\xbc\x8c", ". ", "; ", "\xe3\x80\x82"})
      if (const std::size_t b = low.find(brk, from); b != std::string_view::npos && b < end)
        end = b, skip = brk.size();
    const std::string_view clause = low.substr(from, end - from);
    if (has(clause, "cudnn"))
      if (std::optional<Version> v = plain_report(clause)) return v;
    from = end + skip;
  }
  return std::nullopt;
}

// A compiler's diagnostic: "conv.cc:12:5: error:", "conv.cu(178): error:", "x.h:9:198: note:".
bool compiler_diagnostic(std::string_view low) {
  for (std::string_view kind : {": error", ": fatal error", ": note:", ": warning:"}) {
    const std::size_t at = low.find(kind);
    if (at == std::string_view::npos || at == 0) continue;
    const char c = low[at - 1];
    if (is_digit(c) || c == ')') return true;
  }
  return false;
}

// CMake, make, ninja, compilers and linkers.
bool build_tool_line(std::string_view s, std::string_view low) {
  return s.starts_with("-- ") || s.starts_with("CMake ") || s.ends_with("(message):") ||
         s.starts_with("make[") || s.starts_with("make: ") || s.starts_with("ninja: ") ||
         s.starts_with("FAILED: ") || (s.starts_with("[") && s.size() > 5 && s[4] == '%') ||
         has(low, "collect2") || has(low, "/ld: ") || has(low, "ld returned") ||
         has(low, "nvcc fatal") || has(low, "#pragma message") ||
         has(low, "compilation terminated") || has(low, "building cxx") ||
         has(low, "building nvcc") || has(low, "linking cxx") || has(low, "cmakelists.txt") ||
         compiler_diagnostic(low);
}

bool a_version_kind(FindingKind k) {
  return k == FindingKind::version_mismatch || k == FindingKind::outdated;
}

// A sub-library of the banner's major that fails to load ("Loaded cuDNN version 8301", then
// "Could not load library cudnn_cnn_infer64_8.dll"): the release whose family is broken.
bool sub_library_of(const Context &ctx, const Finding &f) {
  if (f.library.empty() ||
      (f.kind != FindingKind::library_not_found && f.kind != FindingKind::sublibrary_mismatch))
    return false;
  const Parsed<LibraryName> name = parse_library_name(f.library);
  return name && !name->sub.empty() && name->version && name->version->major == ctx.banner->major;
}

void lend_banner(const Context &ctx, Finding &f) {
  if (!ctx.banner || f.runtime || f.build_time) return;
  if (sub_library_of(ctx, f)) {
    f.runtime = ctx.banner;
    f.note += std::string(f.note.empty() ? "" : "; ") + "its family is that of cuDNN " +
              to_string(*ctx.banner) + ", which this run loaded (line " +
              std::to_string(ctx.banner_line) + ")";
    return;
  }
  if (f.kind == FindingKind::dependency_not_found && !f.missing.empty()) {
    f.runtime = ctx.banner;  // the cuDNN that needs it
    return;
  }
  // A GPU the release has no code for: which cuDNN ran is part of the answer (cuDNN 9.11 left
  // Maxwell and Pascal).
  if (f.kind == FindingKind::arch_mismatch) {
    f.runtime = ctx.banner;
    return;
  }
  if (!a_version_kind(f.kind)) return;
  const std::optional<Version> &named = f.built_with ? f.built_with : f.required;
  if (named && named->major != ctx.banner->major && f.kind != FindingKind::outdated) return;
  f.runtime = ctx.banner;
  f.note += std::string(f.note.empty() ? "" : "; ") + "cuDNN " + to_string(*ctx.banner) +
            " is what this run loaded (line " + std::to_string(ctx.banner_line) + ")";
}

}  // namespace

bool near_build(const Context &ctx, std::size_t line) {
  const auto it = std::lower_bound(ctx.build_lines.begin(), ctx.build_lines.end(),
                                   line > kBuildReach ? line - kBuildReach : 0);
  return it != ctx.build_lines.end() && *it <= line + kBuildReach;
}

std::size_t cudnn_named_before(const Context &ctx, std::size_t line, std::size_t reach) {
  const auto it = std::lower_bound(ctx.cudnn_lines.begin(), ctx.cudnn_lines.end(), line);
  if (it == ctx.cudnn_lines.begin()) return 0;
  const std::size_t before = *std::prev(it);
  return line - before <= reach ? before : 0;
}

void note_context(std::string_view line, std::size_t number, Context &ctx) {
  const std::string low = folded(line);
  if (build_tool_line(trim(body_of(line)), low)) ctx.build_lines.push_back(number);
  if (std::optional<TraceHit> hit = has(low, "cudnn") ? trace_hit(line, number) : std::nullopt)
    ctx.trace.push_back(std::move(*hit));
  if (has(low, "cuda version:") && has(low, "driver version"))  // nvidia-smi's banner
    if (std::optional<Version> v = version_near(low, "cuda version:")) ctx.driver_cuda = v;
  if (!ctx.gpu && (has(low, "capability") || (has(low, "major: ") && has(low, "minor: "))))
    ctx.gpu = capability_in(low);
  if (!has(low, "cudnn")) {
    if (const std::string file = has(low, "open") || has(low, "not found") || has(low, "missing")
                                     ? unopened_file(line)
                                     : std::string();
        !file.empty() && !names_cudnn_library(file))
      ctx.foreign_failures.push_back(number);
    return;
  }
  if (has(low, " but ")) return;
  ctx.cudnn_lines.push_back(number);
  if (has(low, "found cudnn: v?"))
    ctx.build_unreadable = true;  // "found X but built with Y" is an error
  // cuDNN's own API log names the library that runs: "CuDNN (v92400 43) function cudnnX() called".
  for (std::string_view marker : {"using cudnn version", "loaded cudnn version", "cudnn (v"})
    if (std::optional<Version> v = version_near(low, marker)) {
      ctx.banner = v, ctx.banner_line = number;
      return;
    }
  for (std::string_view marker : {"found version", "found suitable version", "cudnn version",
                                  "found cudnn: v", "found cudnn:"})
    if (std::optional<Version> v = has(low, "found") || trim(line).starts_with("--")
                                       ? version_near(low, marker)
                                       : std::nullopt) {
      ctx.build_found = v, ctx.build_line = number;
      return;
    }
  if (std::optional<Version> v = plain_report(low))
    ctx.banner = v, ctx.banner_line = number;
  else if (std::optional<Version> c = clause_report(low))
    ctx.banner = c, ctx.banner_line = number;
}

// A bare major ("CuDNN v5 found, but need at least CuDNN v6") made exact by the release the log
// names elsewhere ("-- Found cuDNN: v5.1.10"), when that is of the same major.
void sharpen(const std::optional<Version> &named, std::size_t line, Finding &f) {
  if (!f.runtime || f.runtime->minor || !named || !named->minor || named->major != f.runtime->major)
    return;
  f.runtime = named;
  f.note += std::string(f.note.empty() ? "" : "; ") + "cuDNN " + to_string(*named) +
            " exactly (line " + std::to_string(line) + ")";
}

// A load that failed for another product's file, a few lines before a failure that names no
// cuDNN file: the advice a tool prints after any failed load ("Failed to create
// CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*") is no evidence against cuDNN; the file
// that failed says whose the trouble is.
bool borrowed_advice(const Context &ctx, const Finding &f) {
  if (f.kind != FindingKind::library_not_found || !f.library.empty() || !f.missing.empty() ||
      f.build_time)
    return false;
  const auto it = std::lower_bound(ctx.foreign_failures.begin(), ctx.foreign_failures.end(),
                                   f.line > kAdviceReach ? f.line - kAdviceReach : 0);
  return it != ctx.foreign_failures.end() && *it < f.line;
}

void apply_context(const Context &ctx, std::vector<Finding> &findings) {
  std::erase_if(findings, [&](const Finding &f) { return borrowed_advice(ctx, f); });
  for (Finding &f : findings) {
    lend_banner(ctx, f);
    if (f.build_time || !ctx.banner)
      sharpen(ctx.build_found, ctx.build_line, f);
    else
      sharpen(ctx.banner, ctx.banner_line, f);
    // In a build, the cuDNN the configure step found is the one there (reported as runtime).
    if (f.build_time && a_version_kind(f.kind) && !f.runtime && ctx.build_found &&
        ctx.build_line <= f.line) {
      f.runtime = ctx.build_found;
      f.note += std::string(f.note.empty() ? "" : "; ") + "the build found cuDNN " +
                to_string(*ctx.build_found) + " (line " + std::to_string(ctx.build_line) + ")";
    }
    // With no configure step in the log, the cuDNN the user said they have is the one there
    // ("cuDNN version v5. when compile it, there is an error").
    if (f.build_time && a_version_kind(f.kind) && !f.runtime && !ctx.build_found && ctx.banner &&
        ctx.banner_line <= f.line) {
      f.runtime = ctx.banner;
      f.note += std::string(f.note.empty() ? "" : "; ") + "the cuDNN there is " +
                to_string(*ctx.banner) + " (line " + std::to_string(ctx.banner_line) + ")";
    }
    if (f.build_time && a_version_kind(f.kind) && !f.runtime && ctx.build_unreadable)
      f.note += std::string(f.note.empty() ? "" : "; ") +
                "CMake found cuDNN but not its version (\"v?\"): cuDNN 8 and later keep it in "
                "cudnn_version.h, which older FindCUDNN scripts do not read";
    // "Needs a cuDNN older than 8" of a run that loaded 7.4.2 says nothing: the bound was met.
    if (f.older_than && f.runtime && compare(*f.runtime, *f.older_than) < 0) f.older_than.reset();
    if (f.kind == FindingKind::arch_mismatch && !f.gpu) f.gpu = ctx.gpu;
    if ((f.kind == FindingKind::arch_mismatch || f.kind == FindingKind::driver_too_old) &&
        !f.driver_cuda)
      f.driver_cuda = ctx.driver_cuda;
  }
}

}  // namespace cudnn_compat::explain
