// explain's readers (internal to the engine). Each reads one line - with the lines after it for
// the few messages that span several - and returns what it recognises, or nothing. Keyword
// anchored, no regular expressions: a job log can be huge and hostile, and libstdc++'s std::regex
// recurses per character.
#pragma once

#include "reports.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_compat::explain {

// --- explain_words.cc: the small pieces every reader is made of.

// The text after the first occurrence of marker, in any case, or nullopt.
std::optional<std::string_view> after(std::string_view s, std::string_view marker);
// The leading version-like token of s ("5103", "7.6.0", "(8, 9, 2)"), trimmed of the punctuation
// that ends sentences.
std::string_view token(std::string_view s);
// An integer from cudnnGetVersion(), a bare major ("8"), or a dotted/tuple version; nullopt when
// it is none of them.
std::optional<Version> version_of(std::string_view t);
std::optional<Version> version_after(std::string_view s, std::string_view marker);
// "5005 is cuDNN 5.0.5 ..." for every integer the line printed: people cannot read them.
std::string raw_numbers(std::string_view line);
// The word that ends at `at`: "libcudnn.so.8" in "libcudnn.so.8: cannot open ...".
std::string word_before(std::string_view s, std::size_t at);
// The file name starting s: "libcudnn_cnn_infer.so.8" in "libcudnn_cnn_infer.so.8. Error".
std::string library_at(std::string_view s);
// A cuDNN library's file name, also as bundling wheels rename them (libcudnn-3f2b1c9a.so.7) and
// as Windows spells them in any case.
bool names_cudnn_library(std::string_view word);
// Windows' loader error a line names: 126 (not found) or 127 (a function missing).
std::optional<int> windows_code(std::string_view s);
// A library cuDNN itself needs (libnvrtc, cuBLAS, zlib's zlibwapi.dll, the CUDA runtime and
// driver).
bool cudnn_dependency(std::string_view name);
// The name the engine knows it by (libcudnn.so.7 for libcudnn-3f2b1c9a.so.7), or "".
std::string canonical_library(std::string_view word);
// Every word of line that names a file (.so, .dll, .dylib, .h), in order, trimmed of quotes and
// paths.
std::vector<std::string> file_names(std::string_view line);
// The same with where each word stands in line: at and size of the word as written (its path
// included), name without it.
struct NamedFile {
  std::size_t at = 0, size = 0;
  std::string name;
};
std::vector<NamedFile> named_files(std::string_view line);
// A file's extension at the start of s, as the rest of a name cut at its dot: "so.8: symbol",
// "dll\" or one of", "h:57:10" - not a word that starts a sentence ("so I tried").
bool extension_start(std::string_view s);
// The ASCII-lowercased line, same length, for wordings whose capitals vary.
std::string folded(std::string_view line);
// strerror(ENOENT), "No such file or directory", as glibc's locales say it after a file's name
// (a compiler's "fatal error: cudnn.h: 没有那个文件或目录"), folded; a capital that is not ASCII
// is left out ("ет такого файла").
extern const std::array<std::string_view, 15> kNoSuchFile;
// low (folded text) says strerror(ENOENT) in one of kNoSuchFile's locales.
bool says_no_such_file(std::string_view low);
// line with glibc's translated loader words in English: a program that called setlocale() gets
// them from dlerror() in its locale ("Keine Berechtigung" for "Permission denied").
std::string loader_words_in_english(std::string_view line);
// what occurs in s, as written (the readers pass folded text and lowercase words).
bool has(std::string_view s, std::string_view what);
// The newest release a range takes ("cuDNN v4<= and <=v6 is required": 6), from folded text.
std::optional<Version> upper_bound_in(std::string_view low);
// The one release a pin or check takes ("==9.1.0.70", "9.1.0 exactly"), from folded text.
std::optional<Version> exact_in(std::string_view low);
// The release a range stops below: "<10.0" in pip's "nvidia-cudnn-cu12<10.0,>=9.1".
std::optional<Version> strictly_below_in(std::string_view low);

// A recognised finding; framework and note when the reader knows them.
Finding found(FindingKind kind, std::string framework = {}, std::string note = {});
// A cuDNN library the loader could not find; nothing for any other library.
std::optional<Finding> not_found(std::string_view library);
Finding mismatch(std::string framework, Rule rule, std::optional<Version> runtime,
                 std::optional<Version> built, std::string note = {});
// mismatch() with the raw numbers of the line explained.
Finding mismatch_in(std::string_view line, std::string framework, Rule rule,
                    std::optional<Version> runtime, std::optional<Version> built);

// --- explain_text.cc: the text as pasted, back to the text the tools printed.

// The log with a terminal's escape sequences taken out, HTML entities decoded and a Python repr's
// escaped line breaks broken; "" when it needs none of these.
std::string restored(std::string_view log);
// A line without a mail's "> ", Markdown's backticks and bold, docker compose's "name  | ".
std::string_view unquoted(std::string_view line);
// A line without the stamp its logger put first: timestamps, levels, glog's prefix, [tags].
std::string_view body_of(std::string_view line);

// --- explain_join.cc: lines a console or a web page wrapped, put back together.

// One line of the message as it was written: physical lines first..last of the text, joined.
struct Logical {
  std::size_t first = 0, last = 0;
  std::string_view alone;  // lines[first]
  std::string joined;      // the pieces joined, when last > first
  // A terminal's cut split a word between lines[first] and the next piece ("... (header v4 wit" /
  // "h libcudnn v4) ..."): that piece is no line of its own.
  bool mid_word = false;
  std::string_view text() const { return last > first ? std::string_view(joined) : alone; }
};
// How the text was wrapped: the width a terminal cut its lines at (0 when nothing says it was
// cut) and its widest line (a page wraps at spaces before it). Widths count the quote marks
// ("> ", "`") the lines are read without: the text of the lines is in log.
struct Wrap {
  std::string_view log;
  std::size_t cut = 0, widest = 0;
};
Wrap wrap_of(std::string_view log, const std::vector<std::string_view> &lines);
// Line i with the lines that continue it.
Logical logical_line(const std::vector<std::string_view> &lines, std::size_t i, const Wrap &wrap);

// --- explain_trace.cc: loader traces (LD_DEBUG=libs, ldd, /proc/PID/maps).

struct TraceHit {  // a cuDNN file a trace shows mapped
  std::string dir, file;
  int major = 0;
  std::size_t line = 0;
};
std::optional<TraceHit> trace_hit(std::string_view line, std::size_t number);
// One cuDNN family mapped from two directories: the file from elsewhere, and both places.
std::optional<Finding> mixed_family(const std::vector<TraceHit> &hits);

// --- explain_context.cc: what a whole log says besides its errors.

struct Context {
  std::optional<Version> banner;  // the cuDNN a run's banner names ("Using cuDNN version 7402")
  std::size_t banner_line = 0;
  std::optional<Version> build_found;  // the cuDNN a build's configure step found
  std::size_t build_line = 0;
  std::optional<Version> gpu;            // a compute capability the log names
  std::optional<Version> driver_cuda;    // nvidia-smi's "CUDA Version: 12.2"
  std::vector<std::size_t> build_lines;  // lines of compilers, linkers and CMake
  std::vector<TraceHit> trace;
  std::vector<std::size_t> cudnn_lines;  // lines that name cuDNN
  // Lines where a loader could not open another product's file (libcudart, libcublasLt, a
  // provider's own DLL) and that name no cuDNN.
  std::vector<std::size_t> foreign_failures;
  bool build_unreadable = false;  // CMake's "Found cuDNN: v?"
};
// Takes what line `number` tells about the log into ctx.
void note_context(std::string_view line, std::size_t number, Context &ctx);
// Whether build tools (CMake, make, a compiler, the linker) print within a few lines of `line`.
bool near_build(const Context &ctx, std::size_t line);
// The last line before `line`, at most `reach` back, that names cuDNN; 0 when none.
std::size_t cudnn_named_before(const Context &ctx, std::size_t line, std::size_t reach);
// Fills in what a finding's own line left out and the log says elsewhere.
void apply_context(const Context &ctx, std::vector<Finding> &findings);

// --- explain_gpu.cc: the GPU's architecture and the driver (not cuDNN version problems).

// A compute capability in a lowered line: "compute capability 7.0", "sm_86", "major: 6 minor: 1".
std::optional<Version> capability_in(std::string_view lowered);
std::optional<Finding> read_gpu(std::string_view line);

// --- the readers, tried in this order.

// The shim's own line pasted back: its need, the file it names, and the release the load found
// (explain_shim_line.cc).
std::optional<Finding> read_shim_line(std::string_view line);

// Frameworks' own version checks and loaders (explain_frameworks.cc, explain_more_frameworks.cc).
std::optional<Finding> read_framework(std::string_view line, std::string_view next);
std::optional<Finding> read_other_framework(std::string_view line, std::string_view next);
// cuDNN's own loader and status codes, the dynamic loader, Windows' loader, ldd, symbol
// versions (explain_loader.cc).
std::optional<Finding> read_loader(std::string_view line);
// The file a loader says it could not open ("libcudart.so.12: cannot open shared object file",
// "=> not found", Windows' "which depends on X which is missing"); "" when the line names none.
std::string unopened_file(std::string_view line);
// "OSError: [WinError 126] ..." naming no file: a DLL failed to load, the log says which before.
std::optional<Finding> bare_windows_error(std::string_view line);
// A linker's "undefined reference", in the languages GNU ld speaks, or MSVC's "unresolved
// external" (explain_build.cc).
bool undefined_reference(std::string_view line);
// Configure and CMake steps, compilers and linkers (explain_build.cc).
std::optional<Finding> read_build(std::string_view line);
// CMake's "The following variables ... are set to NOTFOUND" at lines[i], naming no variable, or
// listing one of cuDNN's in the lines after it: a configure step that looked for cuDNN (the log
// says so before) found none.
std::optional<Finding> bare_cmake_notfound(const std::vector<std::string_view> &lines,
                                           std::size_t i);
// Any other line that names cuDNN or a cuDNN library (explain_general.cc).
// in_build: build tools print around the line, so a failure it names is the build's.
std::optional<Finding> read_general(std::string_view line, bool in_build);
// A line about something else that mentions cuDNN (out of memory, the driver, the GPU's
// architecture, cuBLAS): never to be read as a cuDNN version problem.
bool about_something_else(std::string_view lowered);

}  // namespace cudnn_compat::explain
