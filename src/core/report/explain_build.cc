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

// The text with every run of blanks as one space: a message's words, however it was aligned.
std::string single_spaced(std::string_view s) {
  std::string out;
  for (const char c : s)
    if (!(c == ' ' || c == '\t') || (!out.empty() && out.back() != ' ')) out += c == '\t' ? ' ' : c;
  return out;
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

// The header a compiler or a configure step could not open, whoever prints it: the header named
// nearest to the words of a failed open, before them ("fatal error: cudnn.h: No such file",
// "'cudnn.h' file not found") or after them ("cannot open include file: 'cudnn.h'", "Cannot find
// cudnn.h at ...", CMake's "file failed to open for reading (No such file or directory):
// /usr/include/cudnn.h") - not another header further off on the line ("cudnn.h:57:10: fatal
// error: cuda_runtime.h: No such file or directory").
std::string missing_header(std::string_view line) {
  const std::string low = folded(line);
  std::size_t at = std::string::npos, end = 0;
  auto nearest = [&](std::string_view words) {
    if (const std::size_t w = low.find(words); w < at) at = w, end = w + words.size();
  };
  for (std::string_view words :
       {"file not found", "cannot open", "could not open", "failed to open", "could not find any ",
        "cannot find ", "can't find ",
        // CMake's find_path: "Could not find CUDNN_INCLUDE_DIR using the following files: cudnn.h"
        "using the following files"})
    nearest(words);
  for (std::string_view words : kNoSuchFile) nearest(words);
  if (at == std::string::npos) return {};
  const NamedFile *before = nullptr, *next = nullptr;
  const std::vector<NamedFile> files = named_files(line);
  for (const NamedFile &f : files) {
    if (!f.name.ends_with(".h")) continue;
    if (f.at + f.size <= at) before = &f;
    if (f.at >= end && !next) next = &f;
  }
  if (before && (!next || at - (before->at + before->size) <= next->at - end)) return before->name;
  return next ? next->name : std::string();
}

// cudnn.h, cudnn_version.h: a compiler that cannot find cuDNN's headers.
std::optional<Finding> read_header(std::string_view line) {
  const std::string header = missing_header(line);
  if (!header.starts_with("cudnn") || !header.ends_with(".h")) return std::nullopt;
  Finding f = at_build(FindingKind::library_not_found);
  f.library = header;
  if (auto r = after(line, "matching version '")) f.required = version_of(token(*r));
  return f;
}

// A name of cuDNN's API, and the major (the minor too, when known) that removed or added it.
struct ApiMajor {
  std::string_view name;
  int in_major;
  int in_minor = -1;
};
// Names a cuDNN major removed: the algorithm "Get" calls and their preferences went in 8.0 (their
// _v7 and Find forms stayed); the legacy RNN and algorithm-descriptor APIs went in 9.0 (checked
// against the cuDNN 9.19 headers). A source that uses one needs a cuDNN older than that major.
// clang-format off
constexpr ApiMajor kRemoved[] = {
    {"cudnngetconvolutionforwardalgorithm", 8}, {"cudnngetconvolutionbackwarddataalgorithm", 8},
    {"cudnngetconvolutionbackwardfilteralgorithm", 8}, {"_prefer_fastest", 8},
    {"_specify_workspace_limit", 8}, {"_no_workspace", 8}, {"preference_t", 8},
    {"cudnnsetrnndescriptor_v5", 8},
    {"cudnnsetrnndescriptor_v6", 9}, {"cudnngetrnndescriptor_v6", 9},
    {"cudnnrnnforwardinference", 9}, {"cudnnrnnforwardtraining", 9},
    {"cudnnrnnbackwarddata", 9}, {"cudnnrnnbackwardweights", 9},
    {"cudnngetrnnworkspacesize", 9}, {"cudnngetrnntrainingreservesize", 9},
    {"cudnngetrnnparamssize", 9}, {"cudnngetrnnlinlayer", 9}, {"cudnnsetrnnmatrixmathtype", 9},
    {"persistentrnnplan", 9}, {"algorithmdescriptor", 9}, {"algorithmperformance", 9},
    {"cudnnsavealgorithm", 9}, {"cudnnrestorealgorithm", 9}, {"cudnnopsinferversioncheck", 9},
    {"cudnncnninferversioncheck", 9}, {"cudnnadvinferversioncheck", 9}};
// clang-format on

// The major that removed an API the line names, when it is one of them. The _v7 and _v8 forms
// and cudnnGetConvolutionForwardAlgorithmMaxCount stayed.
std::optional<int> removed_in(std::string_view low) {
  for (const ApiMajor &r : kRemoved)
    for (std::size_t at = low.find(r.name); at != std::string_view::npos;
         at = low.find(r.name, at + 1)) {
      const std::string_view rest = low.substr(at + r.name.size());
      if (!rest.starts_with("_v") && !rest.starts_with("maxcount")) return r.in_major;
    }
  return std::nullopt;
}

// A cuDNN function in the form an old release's API named with its number
// ("cudnnSetConvolutionNdDescriptor_v3", "cudnnActivationForward_v4"): every _v3 to _v6 form went
// in a later major (the last, _v6, in 9), while the _v7 and _v8 forms are still in cuDNN 9. The
// release it names, or nothing.
std::optional<int> old_form_in(std::string_view low) {
  for (std::size_t at = low.find("cudnn"); at != std::string_view::npos;
       at = low.find("cudnn", at + 1)) {
    std::size_t end = at;
    while (end < low.size() && word_char(low[end])) ++end;
    const std::string_view name = low.substr(at, end - at);
    const std::size_t v = name.rfind("_v");
    if (v == std::string_view::npos || v + 3 != name.size()) continue;
    const char n = name[v + 2];
    if (n >= '3' && n <= '6') return n - '0';
  }
  return std::nullopt;
}

// Functions a cuDNN release added (the majors as NVIDIA's API change notes give them, a minor where
// a later 9.x added it; every one is still in the cuDNN 9.19 headers, and none is among those
// removed above): a link that lacks one took a release older than the headers the source was
// compiled with.
// clang-format off
constexpr ApiMajor kAdded[] = {
    {"cudnngetcudartversion", 6},
    {"cudnnsetconvolutiongroupcount", 7}, {"cudnnsetconvolutionmathtype", 7},
    {"cudnnrestoredropoutdescriptor", 7}, {"cudnnctcloss", 7},
    {"cudnngetconvolutionforwardalgorithm_v7", 7},
    {"cudnngetconvolutionbackwarddataalgorithm_v7", 7},
    {"cudnngetconvolutionbackwardfilteralgorithm_v7", 7},
    {"cudnnbackendcreatedescriptor", 8}, {"cudnnbackendfinalize", 8}, {"cudnnbackendexecute", 8},
    {"cudnnsetrnndescriptor_v8", 8}, {"cudnnrnnforward", 8},
    // CUDA graphs built by cuDNN itself: 9.5 (code guards them with CUDNN_VERSION >= 90500).
    {"cudnnbackendpopulatecudagraph", 9, 5}, {"cudnnbackendupdatecudagraph", 9, 5}};
// clang-format on

// GNU ld's "undefined reference to `X'" as its locales print it (binutils' ld/po): the symbol
// after the words in most ("undefinierter Verweis auf »X«", "référence indéfinie vers « X »",
// "неопределённая ссылка на «X»", zh_TW's "未定義的參考到 X", Spanish "referencia a `X' sin
// definir"), before them in zh_CN ("对‘X’未定义的引用") and Japanese ("`X' に対する定義されていない
// 参照です").
constexpr std::string_view kUndefinedBefore[] = {
    "undefined reference to ",   "undefinierter verweis auf ",
    "référence indéfinie vers ", "неопределённая ссылка на ",
    "未定義的參考到 ",           "referencia a "};
constexpr std::string_view kUndefinedAfter[] = {"未定义的引用", "に対する定義されていない参照"};

// s from its first character of a word on, past the quotes and blanks any locale puts first.
std::string_view past_quotes(std::string_view s) {
  while (!s.empty() && !word_char(s[0])) {
    const std::size_t skip = (static_cast<unsigned char>(s[0]) & 0x80) == 0      ? 1
                             : (static_cast<unsigned char>(s[0]) & 0xE0) == 0xC0 ? 2
                                                                                 : 3;
    s.remove_prefix(std::min(skip, s.size()));
  }
  return s;
}

// What follows a locale's words put before the symbol; Spanish's "referencia a" says it only
// with "sin definir" after the symbol.
std::optional<std::string_view> after_undefined_words(std::string_view s) {
  for (std::string_view words : kUndefinedBefore)
    if (const std::optional<std::string_view> r = after(s, words);
        r && (words != "referencia a " || has(*r, "sin definir")))
      return r;
  return std::nullopt;
}

}  // namespace

bool undefined_reference(std::string_view line) {
  for (std::string_view words : kUndefinedAfter)
    if (has(line, words)) return true;
  return after_undefined_words(line) || after(line, "unresolved external");
}

namespace {

// The function a linker says is undefined, with the library a versioned symbol names
// ("cudnnCreate@libcudnn.so.7"); "" when the line says none is.
struct Undefined {
  std::string_view symbol;
  std::string library;
};
Undefined undefined_symbol(std::string_view low) {
  std::string_view name;
  if (const std::optional<std::string_view> r = after_undefined_words(low)) name = past_quotes(*r);
  for (std::string_view words : kUndefinedAfter)
    if (const std::size_t at = name.empty() ? low.find(words) : std::string_view::npos;
        at != std::string_view::npos) {
      // Back over the closing quote, then over the symbol and the library it names, to the
      // opening quote.
      std::size_t end = at;
      while (end > 0 && !word_char(low[end - 1])) --end;
      std::size_t start = end;
      while (start > 0 &&
             (word_char(low[start - 1]) || low[start - 1] == '@' || low[start - 1] == '.'))
        --start;
      name = low.substr(start, end - start);
    }
  std::size_t n = 0;
  while (n < name.size() && word_char(name[n])) ++n;
  Undefined u{name.substr(0, n), {}};
  if (n < name.size() && name[n] == '@') u.library = library_at(name.substr(n + 1).substr(0, 40));
  if (!names_cudnn_library(u.library)) u.library = {};
  return u;
}

// The major that added the function, when it is one of them (a block that also names a function
// every cuDNN has linked no cuDNN at all: fold_link_errors).
std::optional<Version> added_in(std::string_view low_symbol) {
  for (const ApiMajor &a : kAdded)
    if (low_symbol == a.name)
      return Version{a.in_major, a.in_minor < 0 ? std::nullopt : std::optional(a.in_minor), {}, {}};
  return std::nullopt;
}

// A function a cuDNN release added, missing from the link: the cuDNN linked is older than that
// release, and older than the headers the source was compiled with.
void newer_api(Finding &f, const Version &added) {
  const std::string release = to_string(added);
  f.kind = FindingKind::version_mismatch;
  f.required = added;
  f.note = "the source calls a function that cuDNN " + release +
           " added, but the cuDNN the link took lacks it: the link found a release older than " +
           release + " (and older than the headers it was compiled with)";
}

// An API a cuDNN major removed: the code was written for an older one than the build takes.
void older_api(Finding &f, int major, std::string_view against) {
  f.kind = FindingKind::version_mismatch;
  f.older_than = Version{major, {}, {}, {}};
  f.note = "the source calls an API that cuDNN " + std::to_string(major) +
           " removed: it was written for cuDNN " + std::to_string(major - 1) +
           " or older, and the " + std::string(against) + " against is " + std::to_string(major) +
           " or newer";
}

// A function in an old release's numbered form: the code was written for that release's API,
// which the cuDNN it builds against no longer has.
void old_form(Finding &f, int release, std::string_view against) {
  f.kind = FindingKind::version_mismatch;
  f.note = "the source calls a function in the form cuDNN " + std::to_string(release) +
           "'s API named with its number, which later majors removed: it was written for an " +
           "older cuDNN than the " + std::string(against);
}

// ld's "cannot find -lcudnn" in any language: "/usr/bin/ld : ne peut trouver -lcudnn", macOS's
// "ld: library not found for -lcudnn" - ld's name and a colon shortly before the flag, and no
// other flag between (a command line names many).
bool linker_refuses_lcudnn(std::string_view line) {
  for (std::size_t at = line.find("-lcudnn"); at != std::string_view::npos;
       at = line.find("-lcudnn", at + 1)) {
    const std::size_t from = at > 60 ? at - 60 : 0;
    const std::string_view before = line.substr(from, at - from);
    const std::size_t ld = before.rfind("ld");
    if (ld == std::string_view::npos || before.find(':', ld) == std::string_view::npos) continue;
    if (before.substr(ld).find(" -") == std::string_view::npos) return true;
  }
  return false;
}

std::optional<Finding> read_linker(std::string_view line) {
  if (after(line, "cannot find -lcudnn") || linker_refuses_lcudnn(line)) {
    Finding f = at_build(FindingKind::library_not_found);
    f.library = "libcudnn.so";
    f.note = "the linker's -lcudnn asks for libcudnn.so, the development link";
    return f;
  }
  // MSVC's link.exe: LNK1181 "cannot open input file 'cudnn.lib'", LNK1104 "cannot open file".
  for (std::string_view words : {"cannot open input file '", "cannot open file '"})
    if (auto r = after(line, words)) {
      const std::string lib = library_at(*r);
      if (lower(lib).starts_with("cudnn") && lib.ends_with(".lib")) {
        Finding f = at_build(FindingKind::library_not_found);
        f.library = lib;
        return f;
      }
    }
  const std::string low = folded(line);
  const Undefined undefined = undefined_symbol(low);
  if (!undefined.symbol.starts_with("cudnn") && !after(low, "unresolved external symbol cudnn"))
    return std::nullopt;
  Finding f = at_build(FindingKind::library_not_found,
                       "the link did not include cuDNN (-lcudnn and its directory), or took a "
                       "cuDNN release that lacks this function");
  // A library's versioned symbol: the library that needs it was linked against that file.
  f.library = undefined.library;
  // A symbol versioned for a major before the one that removed it ("@libcudnn.so.8" of an API
  // that went in 9) was asked of that major: its file is missing, not too new.
  const std::optional<Version> asked = version_in_name(f.library);
  if (const std::optional<int> major = removed_in(low); major && (!asked || asked->major >= *major))
    older_api(f, *major, "cuDNN it links");
  else if (const std::optional<int> release = old_form_in(undefined.symbol))
    old_form(f, *release, "cuDNN it links");
  else if (const std::optional<Version> added = added_in(undefined.symbol))
    newer_api(f, *added);
  return f;
}

// The compiler meets a cuDNN API other than the one the source was written for.
// Functions a cuDNN major gave another list of parameters: cudnnSetConvolution2dDescriptor took
// a compute type in 6, the pooling and filter descriptors a NaN option and a format in 5,
// cudnnSetRNNDescriptor a handle and an algorithm in 7 (the old forms became *_v5), the
// activation calls a descriptor in 5.
struct Reshaped {
  std::string_view name;
  int in_major;
};
constexpr Reshaped kReshaped[] = {
    {"cudnnsetconvolution2ddescriptor", 6}, {"cudnnsetpooling2ddescriptor", 5},
    {"cudnnsetfilter4ddescriptor", 5},      {"cudnnsetrnndescriptor", 7},
    {"cudnnactivationforward", 5},          {"cudnnactivationbackward", 5}};

std::optional<int> reshaped_in(std::string_view low) {
  for (const Reshaped &r : kReshaped)
    if (const std::size_t at = low.find(r.name);
        at != std::string_view::npos && !low.substr(at + r.name.size()).starts_with("_"))
      return r.in_major;
  return std::nullopt;
}

// A call whose arguments fit another release's signature: too few, the code is older than the
// header; too many, newer.
void reshaped_call(Finding &f, std::string_view low) {
  const bool too_few = has(low, "too few arguments"), too_many = has(low, "too many arguments");
  const bool converts = has(low, "cannot convert") || has(low, "incompatible with parameter");
  const std::optional<int> major = reshaped_in(low);
  if (!major || !(too_few || too_many || converts)) return;
  if (too_many) {
    f.kind = FindingKind::outdated;
    f.required = Version{*major, {}, {}, {}};
    f.note = "the source calls a function with the parameters cuDNN " + std::to_string(*major) +
             " gave it: it needs cuDNN " + std::to_string(*major) +
             " or newer, and the cudnn.h it compiles against is older";
    return;
  }
  f.older_than = Version{*major, {}, {}, {}};
  f.note = "the source calls a function with the parameters it had before cuDNN " +
           std::to_string(*major) + ": it was written for cuDNN " + std::to_string(*major - 1) +
           " or older, and the cudnn.h it compiles against is " + std::to_string(*major) +
           " or newer";
}

std::optional<Finding> read_api_change(std::string_view line) {
  const std::string low = folded(line);
  if (!after(low, "error") || !after(low, "cudnn")) return std::nullopt;
  // gcc's "too few arguments to function 'cudnnStatus_t cudnnSet...(...)'", nvcc's "too few
  // arguments in function call" (in a cudnn.hpp) and "argument of type "void *" is incompatible
  // with parameter of type "cudnnConvolutionBwdDataAlgo_t"".
  std::optional<Finding> f = when_any(
      low,
      {"too few arguments to function", "too many arguments to function",
       "too few arguments in function call", "too many arguments in function call",
       "was not declared in this scope", "is undefined", "has not been declared",
       "undeclared identifier", "use of undeclared", "has no member named", "undeclared (first use",
       "unknown type name", "does not name a type", "identifier not found", "is not a member of",
       "incompatible with parameter of type \"cudnn", "cannot convert"},
      FindingKind::version_mismatch,
      "the source was written for another cuDNN API than the cudnn.h it compiles against");
  // The source's own check of the header: '#error "CuDNN version not supported"'.
  if (!f && has(low, "#error") && has(low, "version"))
    f = at_build(FindingKind::version_mismatch,
                 "the source's own check refused the version of the cudnn.h it compiles against");
  if (!f) return f;
  if (const std::optional<int> major = removed_in(low))
    older_api(*f, *major, "cudnn.h it compiles");
  else if (const std::optional<int> release = old_form_in(low))
    old_form(*f, *release, "cudnn.h it compiles against");
  else
    reshaped_call(*f, low);
  return f;
}

std::optional<Finding> read_configure(std::string_view line) {
  const std::string low = folded(line);
  // CMake's own capitals: "Could NOT find CUDNN (missing: ...)"; TensorFlow's Windows self-check
  // says "Could not find cuDNN." at run time.
  // after() ignores case: the capitals are looked for as written.
  const std::size_t at = line.find("Could NOT find ");
  const std::optional<std::string_view> cmake =
      at == std::string_view::npos ? std::nullopt
                                   : std::optional<std::string_view>(line.substr(at + 15));
  if (auto r = cmake ? std::optional<std::string>(folded(*cmake)) : std::nullopt;
      r && r->starts_with("cudnn")) {
    Finding f = at_build(FindingKind::library_not_found);
    if (after(*r, "unsuitable version")) {
      f.kind = FindingKind::outdated;
      f.runtime = quoted_version_after(*r, "unsuitable version");
      f.required = quoted_version_after(*r, "required is at least");
      if (!f.required) f.required = quoted_version_after(*r, "required is exact version");
      return f;
    }
    // A version read from the header while the library or the header itself is missing:
    // "(missing: CUDNN_LIBRARY) (found suitable version "7.5.0", minimum required is "7.5")".
    for (std::string_view found :
         {"found suitable exact version", "found suitable version", "found version"})
      if (!f.runtime) f.runtime = quoted_version_after(*r, found);
    f.required = quoted_version_after(*r, "minimum required is");
    return f;
  }
  if (auto r = after(low, "cudnn v")) {
    if (after(*r, "or greater not found")) {
      Finding f = at_build(FindingKind::library_not_found);
      f.required = version_of(token(*r));
      return f;
    }
  }
  // PyTorch's, OpenCV's, TensorFlow's and MindSpore's configure steps, read with the spaces
  // between words as one (OpenCV's "requires cuDNN.  Please resolve").
  const std::string words_of_line = single_spaced(low);
  for (std::string_view words :
       {"cudnn not found. compiling", "cannot find cudnn library. turning",
        "requires cudnn. please", "invalid path to cudnn", "failed to find cudnn library"})
    if (auto r = after(words_of_line, words)) {
      Finding f = at_build(FindingKind::library_not_found);
      if (words == "invalid path to cudnn") f.required = version_of(token(*r));
      return f;
    }
  // dlib's configure step compiles a test program against the cuDNN it found; when that fails
  // it says "Found cuDNN, but it looks like the wrong version" (cmake_utils/test_for_cudnn).
  if (after(low, "found cudnn, but it looks like the wrong version"))
    return at_build(FindingKind::version_mismatch,
                    "dlib's test program did not compile against the cuDNN it found: that "
                    "release's API is not the one this dlib was written for");
  return std::nullopt;
}

}  // namespace

std::optional<Finding> read_build(std::string_view line) {
  for (auto reader : {read_header, read_linker, read_api_change, read_configure})
    if (std::optional<Finding> f = reader(line)) return f;
  return std::nullopt;
}

std::optional<Finding> bare_cmake_notfound(const std::vector<std::string_view> &lines,
                                           std::size_t i) {
  if (!has(folded(lines[i]), "set to notfound")) return std::nullopt;
  // CMake lists each variable under it ("CUDNN_LIBRARY (ADVANCED)", "linked by target ..."): a
  // list of other products' is their trouble.
  bool listed = false;
  for (std::size_t j = i + 1; j < lines.size() && j <= i + 8; ++j) {
    const std::string low = folded(lines[j]);
    if (has(low, "cudnn")) return at_build(FindingKind::library_not_found);
    listed = listed || has(low, "(advanced)") || has(low, "linked by target") ||
             has(low, "used as include directory");
  }
  if (listed) return std::nullopt;
  return at_build(FindingKind::library_not_found,
                  "CMake names no variable here; the lines before it were looking for cuDNN");
}

}  // namespace cudnn_compat::explain
