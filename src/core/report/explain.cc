// From the messages frameworks, cuDNN, build tools and the loader print to what happened, in
// versions people can read: the log cut into lines, each line offered to the family readers and
// then to the general reader (explain_read.h), the findings tied together where one message spans
// several lines.
#include "explain_read.h"
#include "reports.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat {
namespace {

constexpr std::size_t kMaxLine = 8192;  // longer lines are read up to here, and said so
constexpr std::size_t kReach = 8;  // a traceback's last line is this close to the call it failed in

using namespace explain;

std::optional<Finding> read_line(std::string_view line, std::string_view next, bool in_build) {
  if (std::optional<Finding> f = read_shim_line(line)) return f;
  if (std::optional<Finding> f = read_gpu(line)) return f;
  if (std::optional<Finding> f = read_framework(line, next)) return f;
  if (std::optional<Finding> f = read_loader(line)) return f;
  if (std::optional<Finding> f = read_build(line)) return f;
  return read_general(line, in_build);
}

// Lines end at \n, \r\n or a bare \r: progress bars redraw with \r and would otherwise hide the
// message that follows them on the same "line".
// number[i]: the line of the file lines[i] is on, as an editor, less and wc -l count them (a
// progress bar's \r starts a piece, not a line).
std::vector<std::string_view> lines_of(std::string_view log, std::vector<std::string> &cut,
                                       std::vector<std::size_t> &number) {
  std::vector<std::string_view> lines;
  std::size_t line = 1;
  for (std::size_t at = 0; at < log.size();) {
    std::size_t end = log.find_first_of("\r\n", at);
    if (end == std::string_view::npos) end = log.size();
    if (end - at > kMaxLine)
      cut.push_back("line " + std::to_string(line) + " is " + std::to_string(end - at) +
                    " bytes long; only its first " + std::to_string(kMaxLine) + " were read");
    lines.push_back(unquoted(log.substr(at, std::min(end - at, kMaxLine))));
    number.push_back(line);
    const bool crlf = end + 1 < log.size() && log[end] == '\r' && log[end + 1] == '\n';
    if (end < log.size() && (log[end] == '\n' || crlf)) ++line;
    at = end + (crlf ? 2 : 1);
  }
  return lines;
}

// Every message the readers know says "dnn" in some case (cuDNN, libcudnn, CUDNN_STATUS, "DNN
// library", Theano's "dnn version"), names cuDNN's zlib DLL, is cuDNN's own loader's ("Could not
// load library libnvrtc.so.12. Error: ...", "Could not locate cublasLt64_10.dll. Please make sure
// it is in your library path!", which name only the dependency), or is about the
// GPU's architecture or the driver: a cheap test that spares the readers the noise that is most
// of a log.
bool worth_reading(std::string_view line) {
  for (std::size_t i = 0; i + 2 < line.size(); ++i)
    if ((line[i] | 0x20) == 'd' && (line[i + 1] | 0x20) == 'n' && (line[i + 2] | 0x20) == 'n')
      return true;
  for (std::string_view w : {"zlibwapi", "kernel image", "apability", "driver", "DRIVER",
                             "providers_cuda", "Could not load library ", "Could not locate "})
    if (line.find(w) != std::string_view::npos) return true;
  return false;
}

// How much a finding says: a reading that names more is the better one.
int weight(const Finding &f) {
  return int(f.runtime.has_value()) + int(f.built_with.has_value()) + int(f.required.has_value()) +
         int(!f.library.empty()) + int(!f.missing.empty()) + int(f.windows_error.has_value()) +
         int(!f.unloadable.empty()) + int(!f.status.empty()) + int(f.gpu.has_value()) +
         int(f.recognized);
}

// The lines after `last`, for messages that continue there (at most a few): a view of the log
// itself, line ends as they were.
std::string_view lines_after(std::string_view log, const std::vector<std::string_view> &lines,
                             std::size_t last) {
  if (last + 1 >= lines.size()) return {};
  const std::string_view end = lines[std::min(lines.size(), last + 6) - 1];
  const std::size_t from = std::size_t(lines[last + 1].data() - log.data());
  return log.substr(from, std::size_t(end.data() + end.size() - lines[last + 1].data()));
}

// The reading of line i: the line as a console or a page wrapped it, or the line alone, whichever
// says more; `used` is the last physical line it took.
std::optional<Finding> read_at(std::string_view log, const std::vector<std::string_view> &lines,
                               std::size_t i, std::size_t number, const Wrap &wrap,
                               const Context &ctx, std::size_t &used) {
  const bool in_build = near_build(ctx, number);
  const Logical whole = logical_line(lines, i, wrap);
  std::optional<Finding> alone, joined;
  // A piece a terminal cut inside a word or a version is read only as part of its line.
  if (worth_reading(lines[i]) && !whole.mid_word)
    alone = read_line(lines[i], lines_after(log, lines, i), in_build);
  if (whole.last > whole.first && worth_reading(whole.text()))
    joined = read_line(whole.text(), lines_after(log, lines, whole.last), in_build);
  used = i;
  if (joined && (!alone || weight(*joined) >= weight(*alone))) {
    used = whole.last;
    joined->text = std::string(trim(whole.text()));
    return joined;
  }
  if (alone) alone->text = std::string(trim(lines[i]));
  // Nothing in the whole line: the rest of a word it split is not read as a line either.
  if (!alone && !joined && whole.mid_word) used = whole.last;
  return alone;
}

bool same(const Finding &a, const Finding &b) {
  return a.kind == b.kind && a.runtime == b.runtime && a.built_with == b.built_with &&
         a.library == b.library && a.missing == b.missing;
}

// Folds f into the finding before it when both are one message: a repeat, an unnamed failure
// right after a named one ("Invalid handle" after "Unable to load", ONNX Runtime's "Require cuDNN
// 9.*" after its "which is missing"), or a named one right after an unnamed one (CuPy's "cuDNN
// library could not be loaded." then its reason: the finding keeps the first line and takes the
// file). True when f was folded.
bool link_error(const Finding &f) {
  return f.build_time && undefined_reference(f.text);
}

// A linker's block of undefined references is one message. Where it names functions every cuDNN
// has, no cuDNN was linked at all, and a removed or added API among them says nothing about
// releases.
bool fold_link_errors(Finding &prev, Finding &f) {
  if (!link_error(prev) || !link_error(f)) return false;
  // A link error is read as anything but a missing library only for the API it names.
  const auto api = [](const Finding &x) { return x.kind != FindingKind::library_not_found; };
  if (api(prev) && !api(f)) {
    prev.kind = f.kind, prev.older_than.reset(), prev.required.reset(), prev.note = f.note;
  }
  if (prev.library.empty()) prev.library = f.library;
  return true;
}

bool version_kind(FindingKind k) {
  return k == FindingKind::version_mismatch || k == FindingKind::outdated;
}

// The line right after a found release that only names what is required ("*** WARNING:
// Unsupported cuDNN version: 7001" then "*** WARNING: cuDNN v4<= and <=v6 is required"): one
// message, the bounds the found release misses added to it.
bool fold_bounds(Finding &prev, std::size_t prev_end, Finding &f) {
  if (f.line != prev_end + 1 || !prev.runtime || f.runtime || f.built_with ||
      !version_kind(prev.kind) || !version_kind(f.kind) ||
      (!prev.framework.empty() && !f.framework.empty() && prev.framework != f.framework))
    return false;
  if (!prev.required && f.required && compare(*prev.runtime, *f.required) < 0) {
    prev.required = f.required;
    prev.kind = FindingKind::outdated;
  }
  if (!prev.older_than && f.older_than && compare(*prev.runtime, *f.older_than) >= 0)
    prev.older_than = f.older_than;
  return true;
}

bool fold_into(Finding &prev, std::size_t prev_end, Finding &f) {
  // A repeat may add the requirement (ONNX Runtime's unnamed 126, then "Require cuDNN 9.*").
  if (same(prev, f)) {
    if (!prev.required) prev.required = f.required;
    return true;
  }
  const bool near = prev_end + 3 >= f.line;
  if (near && fold_link_errors(prev, f)) return true;
  if (fold_bounds(prev, prev_end, f)) return true;
  const bool one_tool =
      prev.build_time == f.build_time &&
      (prev.framework.empty() || f.framework.empty() || prev.framework == f.framework);
  if (!near || !one_tool || prev.kind != FindingKind::library_not_found ||
      f.kind != FindingKind::library_not_found)
    return false;
  if (f.library.empty()) {
    if (!prev.required) prev.required = f.required;
    if (prev.framework.empty()) prev.framework = f.framework;
    return true;
  }
  if (!prev.library.empty()) return false;
  // The message starts at prev's line; the file it names is f's.
  prev.library = std::move(f.library);
  if (!prev.required) prev.required = f.required;
  if (prev.framework.empty()) prev.framework = f.framework;
  if (!prev.windows_error) prev.windows_error = f.windows_error;
  if (prev.unloadable.empty()) prev.unloadable = f.unloadable;
  return true;
}

// "DNN library initialization failed" says only that something before it went wrong; "DNN
// library is not found" with nothing before it says at least that no cuDNN could be used.
void point_back(std::vector<Finding> &out, Finding &f, std::size_t line) {
  if (!out.empty()) {
    out.back().note += std::string(out.back().note.empty() ? "" : "; ") + "it made \"" + f.note +
                       "\" at line " + std::to_string(line);
    return;
  }
  if (f.note != "DNN library is not found") return;
  f.recognized = true;
  f.kind = FindingKind::library_not_found;
  f.framework = "tensorflow";
  f.note = "TensorFlow found no cuDNN it could use (not loaded, or refused by its version check)";
  out.push_back(std::move(f));
}

// Whether the line numbered `named` looked for cuDNN and did not find it: not CMake's "Found cuDNN:
// v8.9.2", nor its "-- Found NVINFER: CUDNN_NVLIB-NOTFOUND", which is TensorRT's.
bool looked_for_cudnn(const Context &ctx, const std::vector<std::string_view> &lines,
                      const std::vector<std::size_t> &number, std::size_t named) {
  if (ctx.build_found && ctx.build_line == named) return false;
  const auto at = std::lower_bound(number.begin(), number.end(), named);
  if (at == number.end()) return false;
  const std::string low = folded(lines[std::size_t(at - number.begin())]);
  const std::size_t found = low.find("found ");
  return found == std::string::npos || low.compare(found + 6, 5, "cudnn") == 0;
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
    case FindingKind::arch_mismatch:
      return "arch-mismatch";
    case FindingKind::driver_too_old:
      return "driver-too-old";
    case FindingKind::unknown:
      break;
  }
  return "unknown";
}

ExplainScan scan_log(std::string_view pasted) {
  ExplainScan scan;
  const std::string restored_text = restored(pasted);
  const std::string_view log = restored_text.empty() ? pasted : std::string_view(restored_text);
  std::vector<std::size_t> number;
  const std::vector<std::string_view> lines = lines_of(log, scan.cut, number);
  const Wrap wrap = wrap_of(log, lines);
  // What the whole log says first (its build tools, banners, traces), then each line read.
  Context ctx;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Logical whole = logical_line(lines, i, wrap);
    note_context(whole.text(), number[i], ctx);
    i = whole.last;
  }
  std::vector<Finding> &out = scan.findings;
  std::size_t last_end = 0;  // the last physical line of out.back()'s message
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::size_t used = i;
    std::optional<Finding> f = read_at(log, lines, i, number[i], wrap, ctx, used);
    const std::size_t named = cudnn_named_before(ctx, number[i], kReach);
    if (!f && named && (f = bare_windows_error(lines[i]))) {
      f->text = std::string(trim(lines[i]));
      f->note = "the lines before it were loading cuDNN (line " + std::to_string(named) + ")";
    }
    if (!f && named && looked_for_cudnn(ctx, lines, number, named) &&
        (f = bare_cmake_notfound(lines, i)))
      f->text = std::string(trim(lines[i]));
    const std::size_t first = i;
    i = used;
    if (!f) continue;
    f->line = number[first];
    if (!f->recognized) {
      point_back(out, *f, f->line);
      continue;
    }
    const bool folded = !out.empty() && fold_into(out.back(), last_end, *f);
    last_end = number[used];
    if (!folded) out.push_back(std::move(*f));
  }
  if (std::optional<Finding> mixed = mixed_family(ctx.trace)) {
    const auto at = std::lower_bound(number.begin(), number.end(), mixed->line);
    mixed->text = std::string(trim(lines[std::size_t(at - number.begin())]));
    out.insert(std::upper_bound(out.begin(), out.end(), *mixed,
                                [](const Finding &a, const Finding &b) { return a.line < b.line; }),
               std::move(*mixed));
  }
  apply_context(ctx, out);
  return scan;
}

std::vector<Finding> find_errors(std::string_view log) {
  return scan_log(log).findings;
}

}  // namespace cudnn_compat
