// cudnn-compat explain: what a cuDNN error message (or a whole job log) means, and the fix.
#include "cli.h"
#include "decision_inputs.h"
#include "diagnostics.h"
#include "facts.h"
#include "text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

namespace cudnn_compat::cli {
namespace {

constexpr std::size_t kMaxInput = std::size_t(256) << 20;  // a job log, not a disk image

nlohmann::json version_json(const std::optional<Version> &v) {
  return v ? nlohmann::json(to_string(*v)) : nlohmann::json(nullptr);
}

nlohmann::json text_or_null(const std::string &s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

nlohmann::json bool_or_null(const std::optional<bool> &b) {
  return b ? nlohmann::json(*b) : nlohmann::json(nullptr);
}

nlohmann::json finding_json(const Finding &f, const Advice &a) {
  return {{"recognized", f.recognized},
          {"kind", to_string(f.kind)},
          {"framework", text_or_null(f.framework)},
          {"runtime", version_json(f.runtime)},
          {"built_with", version_json(f.built_with)},
          {"required", version_json(f.required)},
          {"library", text_or_null(f.library)},
          {"missing", text_or_null(f.missing)},
          {"status", text_or_null(f.status)},
          {"windows_error",
           f.windows_error ? nlohmann::json(*f.windows_error) : nlohmann::json(nullptr)},
          {"unloadable", text_or_null(f.unloadable)},
          {"stage", f.build_time ? "build" : "run"},
          {"gpu", version_json(f.gpu)},
          {"driver", version_json(f.driver_cuda)},
          {"older_than", version_json(f.older_than)},
          {"rule", f.rule ? nlohmann::json(rule_name(*f.rule)) : nlohmann::json(nullptr)},
          {"compatible", bool_or_null(a.compatible)},
          {"nvidia_compatible", bool_or_null(a.nvidia_compatible)},
          {"fixes", a.fixes},
          {"what", a.what},
          {"note", text_or_null(f.note)},
          {"line", f.line}};
}

// A log's bytes reach the reader's terminal written out: an escape sequence in a user's log
// retitled or cleared the admin's screen (helper 109).
void print_finding(const Finding &f, const Advice &a) {
  std::cout << "line " << f.line << ": " << printable(start_of(f.text, 200))
            << (f.text.size() > 200 ? "..." : "") << '\n';
  std::cout << "  what happened: " << printable(a.what) << '\n';
  if (!f.note.empty()) std::cout << "  note: " << printable(f.note) << '\n';
  if (!a.rule.empty()) std::cout << "  " << a.rule << '\n';
  for (const std::string &fix : a.fixes) std::cout << "  fix: " << printable(fix) << '\n';
}

// The whole of a stream up to kMaxInput; `cut` says so when there was more.
std::string read_input(std::istream &in, std::vector<std::string> &cut) {
  std::string text;
  std::vector<char> buf(std::size_t(1) << 16);  // on the heap: `ulimit -s 64` is a whole stack
  while (text.size() < kMaxInput && in.read(buf.data(), std::streamsize(buf.size())).gcount() > 0)
    text.append(buf.data(), std::size_t(in.gcount()));
  if (text.size() >= kMaxInput && in.peek() != std::char_traits<char>::eof())
    cut.push_back("the input is longer than " + std::to_string(kMaxInput >> 20) +
                  " MiB; only its first " + std::to_string(text.size()) + " bytes were read");
  return text;
}

bool looks_like_log_path(const std::string &word) {
  if (word.find_first_of(" \t\n") != std::string::npos) return false;
  for (const char *suffix : {".out", ".err", ".log", ".txt"})
    if (word.ends_with(suffix)) return true;
  return word.find('/') != std::string::npos;
}

// Where no version error is found: a cuDNN failure of another kind the log names is said, with
// where to look, instead of "no cuDNN error" (helper 105 r06: "Could not create cudnn handle:
// CUDNN_STATUS_INTERNAL_ERROR" alone). Such a line is no version mismatch by itself, so it is
// not a finding: a version error that explains it would have been found.
std::string nothing_found(const std::string &text) {
  const std::string bytes = std::to_string(text.size()) + " bytes read";
  std::size_t number = 0;
  for (std::string_view line : split(text, '\n')) {
    ++number;
    std::string low(line.substr(0, 4096));
    std::transform(low.begin(), low.end(), low.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    std::string word;
    if (const std::size_t at = low.find("cudnn_status_"); at != std::string::npos)
      word = std::string(
          line.substr(at, low.find_first_not_of("abcdefghijklmnopqrstuvwxyz_", at) - at));
    else if (low.find("cudnn handle") != std::string::npos ||
             low.find("cudnn failed to initialize") != std::string::npos ||
             low.find("dnn library initialization failed") != std::string::npos)
      word = "cuDNN did not initialise";
    if (!word.empty())
      return "found no cuDNN version error in the " + bytes + "; line " + std::to_string(number) +
             " is a cuDNN failure of another kind (" + word +
             "): often the GPU's memory used up, or a driver older than the CUDA the cuDNN is "
             "built for; read the lines before it, and run `cudnn-compat doctor` where the job ran";
  }
  return "found no cuDNN error in the " + bytes;
}

// What the words ask to read: stdin (none, or `-`), the log a single word names as it is typed
// (`explain slurm-123456.out`: no message is the path of a file that is there), else the words;
// nullopt when that log cannot be read.
std::optional<std::string> input_of(const std::vector<std::string> &words,
                                    std::vector<std::string> &cut) {
  if (words.empty() || (words.size() == 1 && words[0] == "-")) {
    std::cin.tie(nullptr);
    return read_input(std::cin, cut);
  }
  std::error_code ec;
  // A file, or a pipe (`explain <(grep -A3 cudnn job.log)` names /dev/fd/63): said "No such file"
  // of what was there (helper 109).
  if (words.size() == 1 && std::filesystem::exists(words[0], ec) &&
      !std::filesystem::is_directory(words[0], ec)) {
    std::ifstream log(words[0], std::ios::binary);
    if (!log) return std::nullopt;
    return read_input(log, cut);
  }
  // A single word that only a path is (a '/' or a log's suffix, no space) names a log that is not
  // there, or a directory: no message (helper 105 r07: read as text, "found no cuDNN error").
  if (words.size() == 1 && looks_like_log_path(words[0])) {
    errno = std::filesystem::is_directory(words[0], ec) ? EISDIR : ENOENT;
    return std::nullopt;
  }
  std::string text;
  for (const std::string &w : words) text.append(text.empty() ? "" : " ").append(w);
  return text;
}

constexpr const char *kFooter = R"(
Finds the cuDNN errors among timestamps, log prefixes, tracebacks, progress bars (lines end at
\n or \r) and noise. Family readers know the wordings of TensorFlow (every era, the Windows
import self-check, "DNN library is not found"), XLA/JAX, PyTorch (integers, tuples, bundled
libcudnn-<hash>.so.N), Caffe2, TensorRT, PaddlePaddle (version warning and loader, Windows error
codes), MXNet, OpenCV (including its mis-decoded "90.1"), Theano, Torch7, CuPy/Chainer, ONNX
Runtime, cuDNN's own loader and status codes, cuDNN 8's symbol versions, the dynamic loader, ldd,
Windows' loader (error 126: not found; 127: found but a function missing, i.e. mixed releases),
CMake/configure, compilers and linkers. Beneath them a general reader takes any other line that
names cuDNN or a cuDNN library and reads the versions by the words around them (compiled/built/
linked against: the build; loaded/found/runtime/installed: the run; requires/expected/minimum:
a requirement). Out-of-memory, driver, architecture and cuBLAS/cuFFT errors are not cuDNN
version problems and are left alone.

For each: what happened with every version as x.y.z, which rule refused them and whether NVIDIA's
own policy agrees, and the fix - the installed modules that would fit, from the map when there is
one, as the command of your module system (`module swap OLD NEW` under Lmod, `module switch OLD
NEW` under Environment Modules when a cuDNN module is loaded, else `module load NEW`; never a
hidden module; your application's toolchain, EasyBuild or Spack, first), or the release to ask the
admins for - always with the versions the message gave. --json
prints one object per finding: kind, framework, runtime, built_with, required, library, missing,
status, windows_error, unloadable (the loader's reason when the library is there and could not
be loaded), stage (build|run), rule, compatible (the framework's rule),
nvidia_compatible (NVIDIA's policy), what, fixes, note, line. Input or lines too long to read whole
are named on stderr.

Examples:
  cudnn-compat explain 'Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source
    was compiled with 5103 (compatibility version 5100).'
  cudnn-compat explain slurm-123456.out
  cudnn-compat explain < slurm-123456.out
  cudnn-compat --json explain - < job.log

Exit status: 0 something recognised, 1 nothing found, 2 bad usage.)";

// The places advice may name: the site map's that are there (helper 105 r02: a module whose files
// were removed), and beside them the active Python environment's, as for doctor and the shim
// (helper 111: "ask the admins for cuDNN 9.20" beside a fitting wheel), but not one that lacks a
// sub-library its own libraries name, which fails at the first handle (helper 113).
std::optional<Map> advice_places(const LoadedMap &m) {
  const std::optional<Map> present = m.map ? std::optional(places_present(*m.map)) : std::nullopt;
  std::optional<Map> seen = with_places(present ? &*present : nullptr, active_python_places({}));
  if (seen)
    std::erase_if(seen->cudnn, [](const Installed &e) {
      return !e.claimed_in.empty() &&
             !lacking_subs(e.lib + "/" + library_file("", e.version.major), e.version).empty();
    });
  return seen;
}

}  // namespace

void add_explain(CLI::App &app, Globals &g) {
  auto words = std::make_shared<std::vector<std::string>>();
  auto map_file = std::make_shared<std::string>();
  CLI::App *cmd = app.add_subcommand(
      "explain",
      "Say what a cuDNN error message means and what fixes it (TEXT, a log file, or a log on "
      "stdin)");
  cmd->add_option("TEXT", *words,
                  "The message, or the path of a log; `-` or nothing reads a whole log from stdin");
  add_map_option(cmd, *map_file);
  cmd->footer(kFooter);
  cmd->callback([words, map_file, &g] {
    std::vector<std::string> cut;
    const std::optional<std::string> input = input_of(*words, cut);
    if (!input) {
      Error() << (*words)[0] + ": cannot be read (" + std::strerror(errno) + ")";
      g.exit_code = kUsage;
      return;
    }
    const std::string &text = *input;
    const std::optional<Map> seen = advice_places(load_site_map(*map_file));
    const Map *map = seen ? &*seen : nullptr;
    ExplainScan scan = scan_log(text);
    // A GPU or driver named in a message: the releases' device code, to name one that runs there.
    std::optional<Map> coded;
    if (map && std::any_of(scan.findings.begin(), scan.findings.end(), [](const Finding &f) {
          return (f.kind == FindingKind::arch_mismatch || f.kind == FindingKind::driver_too_old) &&
                 (f.gpu || f.driver_cuda);
        }))
      map = &*(coded = with_device_code(*map));
    cut.insert(cut.end(), scan.cut.begin(), scan.cut.end());
    nlohmann::json list = nlohmann::json::array();
    const ModuleScene scene = module_scene_from_environment();  // the fixes' module commands
    for (const Finding &f : scan.findings) {
      const Advice a = advise(f, map, scene);
      if (g.json)
        list.push_back(finding_json(f, a));
      else
        print_finding(f, a);
    }
    if (g.json) print_json(list);
    // On stderr in both modes: scripts keep their array, people still learn what was not read.
    for (const std::string &c : cut) Warn() << "not read whole: " << c;
    if (scan.findings.empty()) {
      if (!g.json) Error() << nothing_found(text);
      g.exit_code = kNo;
    }
  });
}

}  // namespace cudnn_compat::cli
