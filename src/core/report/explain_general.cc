// The general reader: any line that names cuDNN or a cuDNN library and that no family reader
// knew. It reads what people and tools write around versions rather than one tool's sentence:
//
// - every version-like token (5103, 8.9.7, (8, 3, 2), v7, R5, 9.*) is cuDNN's only when the
//   nearest product named before it in its clause is cuDNN, or none is (TensorFlow 2.12, CUDA
//   12.1, driver 535.104 are not);
// - its role comes from the nearest words of its clause: compiled/built/source/header make the
//   build, loaded/found/runtime/got/installed the run time, requires/expected/minimum/at least a
//   requirement; "linked against" is the build unless another word already took that role
//   (TensorRT's "linked against X but loaded Y" against PyTorch's "compiled against X but linked
//   against Y");
// - the kind comes from the words of the line: a load that failed, a mismatch, an old release.
#include "explain_read.h"
#include "text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cudnn_compat::explain {
namespace {

enum class Role { none, build, linked, runtime, requirement };

struct Mention {
  Version version;
  Role role = Role::none;
  bool foreign = false;  // the version of another product the line names (CUDA 12.1, cuFFT 11.0)
};

struct Cue {
  std::string_view words;
  Role role;
};

// The words that give a version its role, as people and tools write them.
// clang-format off
constexpr std::array kCues{
    Cue{"linked against", Role::linked}, Cue{"linked with", Role::linked},
    Cue{"linked-against", Role::linked}, Cue{"is linked", Role::linked},
    Cue{"was linked", Role::linked},
    Cue{"compiled", Role::build},        Cue{"compile", Role::build},
    Cue{"built", Role::build},           Cue{"build", Role::build},
    Cue{"source", Role::build},          Cue{"header", Role::build},
    Cue{"libcudnn", Role::runtime},      Cue{"dso", Role::runtime},
    Cue{"loaded", Role::runtime},        Cue{"load", Role::runtime},
    Cue{"found", Role::runtime},         Cue{"runtime", Role::runtime},
    Cue{"run-time", Role::runtime},      Cue{"got", Role::runtime},
    Cue{"installed", Role::runtime},     Cue{"detected", Role::runtime},
    Cue{"reports", Role::runtime},       Cue{"using", Role::runtime},
    Cue{"in your machine", Role::runtime}, Cue{"on your system", Role::runtime},
    Cue{"library is", Role::runtime},    Cue{"current", Role::runtime},
    Cue{"have ", Role::runtime},         Cue{"had ", Role::runtime},
    Cue{"not supported", Role::runtime},
    Cue{"unsupported", Role::runtime},   Cue{"require", Role::requirement},
    Cue{"expect", Role::requirement},    Cue{"minimum", Role::requirement},
    Cue{"at least", Role::requirement},  Cue{"or newer", Role::requirement},
    Cue{"or higher", Role::requirement}, Cue{"or greater", Role::requirement},
    Cue{"or later", Role::requirement},  Cue{"need", Role::requirement},
    Cue{"update to", Role::requirement}, Cue{"upgrade to", Role::requirement},
    Cue{">=", Role::requirement},        Cue{"supported", Role::requirement},
    Cue{"too old", Role::runtime},       Cue{"is older", Role::runtime}};
// clang-format on

// A role and how far from the token its cue stands.
struct Cued {
  Role role = Role::none;
  std::size_t distance = 0;
};

// The nearest cue of a window to the token (the rightmost before it, the leftmost after it); of
// two that end (or start) together the longer ("unsupported" over "supported").
Cued nearest_cue(std::string_view window, bool before) {
  Cued best;
  std::size_t best_len = 0;
  for (const Cue &c : kCues) {
    const std::size_t at = before ? window.rfind(c.words) : window.find(c.words);
    if (at == std::string_view::npos) continue;
    const std::size_t distance = before ? window.size() - (at + c.words.size()) : at;
    if (best.role == Role::none || distance < best.distance ||
        (distance == best.distance && c.words.size() > best_len))
      best = {c.role, distance}, best_len = c.words.size();
  }
  return best;
}

// Words that end a clause, and comparisons, which put another version on their other side.
constexpr std::array kBreaks{
    std::string_view(" but "),  std::string_view(" while "), std::string_view(" whereas "),
    std::string_view(" than "), std::string_view("; "),      std::string_view(", "),
    std::string_view(". "),     std::string_view(" < "),     std::string_view(" > "),
    std::string_view(" vs"),    std::string_view(" != ")};

// The clause a token stands in: back to the previous token or a clause break.
std::string_view clause_before(std::string_view low, std::size_t from, std::size_t at) {
  std::string_view w = low.substr(from, at - from);
  // "8.9.7 (runtime) != 8.9.6": a parenthesis after a token speaks of that token.
  if (const std::size_t close = w.rfind(')'); close != std::string_view::npos)
    w = w.substr(close + 1);
  for (std::string_view brk : kBreaks)
    if (const std::size_t b = w.rfind(brk); b != std::string_view::npos)
      w = w.substr(b + brk.size());
  return w;
}

// The words after a token up to the next break: "(8.0.5) installed on this machine".
std::string_view clause_after(std::string_view low, std::size_t at) {
  std::string_view w = low.substr(at, std::min(low.size() - at, std::size_t(40)));
  for (std::string_view brk : kBreaks)
    if (const std::size_t b = w.find(brk); b != std::string_view::npos) w = w.substr(0, b);
  return w;
}

// Whether text holds only the words that name cuDNN's version after a cue ("-against cudnn
// version ", " with cudnn v").
bool only_product_words(std::string_view text) {
  bool cudnn = false;
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && !word_char(text[i])) ++i;
    std::size_t e = i;
    while (e < text.size() && word_char(text[e])) ++e;
    const std::string_view w = text.substr(i, e - i);
    if (w.empty()) break;
    cudnn = cudnn || w == "cudnn";
    if (w != "cudnn" && w != "version" && w != "v" && w != "library" && w != "against" &&
        w != "with")
      return false;
    i = e;
  }
  return cudnn;
}

// The role of a token: the nearer of the cues before and after it, else a weak cue before it
// ("your cuDNN (8.1)", "library 8.9.2").
Role role_of(std::string_view before, std::string_view after) {
  const Cued b = nearest_cue(before, true), a = nearest_cue(after, false);
  // A cue that qualifies the product the token belongs to ("Compiled-against cuDNN version 6021
  // is too old") gives its role whatever the predicate after it says.
  if (b.role != Role::none && only_product_words(before.substr(before.size() - b.distance)))
    return b.role;
  if (a.role != Role::none && (b.role == Role::none || a.distance < b.distance)) return a.role;
  if (b.role != Role::none) return b.role;
  for (std::string_view weak : {"your ", "my ", "library ", "lib "})
    if (before.find(weak) != std::string_view::npos) return Role::runtime;
  // "A does not match B (5.1.5)" with nothing more said of B: what the found release is held
  // against is what the program was built or configured for (TensorFlow's configure: "... does
  // not match TF_CUDNN_VERSION (7.1.1)").
  if (before.find("match ") != std::string_view::npos) return Role::build;
  return Role::none;
}

// A word that gives a version its role: the product named before it is the one that was built
// or loaded, not the one whose version follows ("PyTorch was compiled against (8, 3, 2)").
bool role_word(std::string_view w) {
  for (std::string_view p :
       {"compil", "built", "build", "load", "found", "link", "runtime", "source", "header",
        "install", "requir", "expect", "minimum", "need", "got", "detect", "report", "using"})
    if (w.starts_with(p)) return true;
  return false;
}

// A word that names a product other than cuDNN, or a unit or count that a number beside it is
// of: versions after it are not cuDNN's.
bool other_product(std::string_view w) {
  static constexpr std::array others{
      "cuda",       "cublas",  "cublaslt",   "cufft",   "curand",  "cusparse",
      "cusolver",   "nccl",    "tensorrt",   "trt",     "driver",  "python",
      "tensorflow", "tf",      "torch",      "pytorch", "paddle",  "paddlepaddle",
      "jax",        "jaxlib",  "gcc",        "cmake",   "opencv",  "onnxruntime",
      "numpy",      "nvrtc",   "cudart",     "nvcc",    "glibc",   "mxnet",
      "cupy",       "chainer", "theano",     "keras",   "caffe",   "triton",
      "mindspore",  "dali",    "horovod",    "dlib",    "julia",   "ubuntu",
      "linux",      "kernel",  "gpu",        "cpu",     "mib",     "gib",
      "mb",         "gb",      "capability", "sm",      "toolkit", "ctranslate2",
      "line",       "pid",     "port",       "epoch",   "step",    "iter",
      "batch",      "size",    "windows",    "macos",   "kepler",  "maxwell",
      "fermi",      "onnx"};
  for (std::string_view o : others)
    if (w == o) return true;
  // "drivers prior to 525", "GPUs": the product's plural names it too.
  return w.size() > 3 && w.back() == 's' && other_product(w.substr(0, w.size() - 1));
}

// The places a word occurs in low, in order.
std::vector<std::size_t> places_of(std::string_view low, std::string_view word) {
  std::vector<std::size_t> out;
  for (std::size_t at = low.find(word); at != std::string_view::npos; at = low.find(word, at + 1))
    out.push_back(at);
  return out;
}

// The last of places before at, or npos.
std::size_t last_before(const std::vector<std::size_t> &places, std::size_t at) {
  const auto it = std::lower_bound(places.begin(), places.end(), at);
  return it == places.begin() ? std::string_view::npos : *std::prev(it);
}

// Whether the version mismatch at m, declared in the line before a token, is another product's
// ("CUDA Runtime version mismatch, was compiled with version 10.0.0"): the words right before it
// name that product.
bool other_products_mismatch(std::string_view low, std::size_t m) {
  std::size_t end = m;
  for (int words = 0; words < 3 && end > 0; ++words) {
    while (end > 0 && !word_char(low[end - 1])) --end;
    std::size_t a = end;
    while (a > 0 && word_char(low[a - 1])) --a;
    const std::string_view w = low.substr(a, end - a);
    if (w.find("cudnn") != std::string_view::npos) return false;
    if (other_product(w)) return true;
    end = a;
  }
  return false;
}

// The word of s that ends before `end`, past the blanks and punctuation between.
std::string_view word_before_at(std::string_view s, std::size_t end) {
  while (end > 0 && !word_char(s[end - 1])) --end;
  std::size_t a = end;
  while (a > 0 && word_char(s[a - 1])) --a;
  return s.substr(a, end - a);
}

// Whether the nearest product named before a token (back to a word that gives it a role) is
// cuDNN, or none is; "direct" when cuDNN's name stands right before it ("cudnn 9.*").
bool cudnn_is_subject(std::string_view before, bool &direct) {
  direct = false;
  bool first = true;
  // A few dozen words back is where a sentence names its product; further is another sentence,
  // and an unbounded walk per token would cost the square of a hostile line.
  int words = 0;
  for (std::size_t end = before.size(); end > 0 && ++words < 40;) {
    const std::string_view w = word_before_at(before, end);
    const std::size_t a = std::size_t(w.data() - before.data());
    end = a;
    if (w.empty()) break;
    if (w == "version" || w == "v" || w == "library" || w == "lib" || w == "is" || w == "of" ||
        w == "the" || w == "to" || w == "number" || is_digit(w[0]))
      continue;
    if (w.find("cudnn") != std::string_view::npos) return direct = first, true;
    // A role word right before the version that is part of another product's name ("ONNX
    // Runtime 1.17", "CUDA runtime 11.8"): the version is that product's.
    if (first && role_word(w)) return !other_product(word_before_at(before, a));
    first = false;
    if (role_word(w)) return true;
    if (other_product(w)) return false;
  }
  direct = false;
  return true;
}

// A version in parentheses whose parts a script padded with blanks, as it read them from a
// header's #define lines ("(      5.      1. 5)"); i moves past it.
std::optional<Version> padded_version(std::string_view low, std::size_t &i) {
  if (low[i] != '(') return std::nullopt;
  // Within a few dozen characters: a hostile line's every '(' is offered here.
  const std::size_t found_at = low.substr(i, 40).find(')');
  if (found_at == std::string_view::npos) return std::nullopt;
  const std::size_t close = i + found_at;
  std::string joined;
  for (const char c : low.substr(i + 1, close - i - 1))
    if (is_digit(c) || c == '.')
      joined += c;
    else if (c != ' ')
      return std::nullopt;
  if (joined.find('.') == std::string::npos || !has(low.substr(i, close - i), ". "))
    return std::nullopt;
  i = close + 1;
  return version_of(joined);
}

// One version-like token at i (a digit, "(" or a v/r prefix), or nothing; i moves past it.
std::optional<Version> token_at(std::string_view low, std::size_t &i, bool &prefixed) {
  prefixed = false;
  std::size_t s = i;
  if ((low[s] == 'v' || low[s] == 'r') && s + 1 < low.size() && is_digit(low[s + 1]) &&
      (s == 0 || !word_char(low[s - 1])))
    prefixed = true, ++s;
  else if (low[s] == '(' && s + 1 < low.size() && is_digit(low[s + 1]) &&
           low.find(',', s) < low.find(')', s)) {
    const std::size_t close = low.find(')', s);
    if (close == std::string_view::npos) return ++i, std::nullopt;
    i = close + 1;
    return version_of(low.substr(s, close + 1 - s));
  } else if (std::optional<Version> v = padded_version(low, i))
    return v;
  // A module's name carries its release: "module cudnn/9.1 is loaded", EasyBuild's
  // "cuDNN/8.9.2.26-CUDA-12.1.1"; not a directory of a path ("cudnn/9.1/lib").
  const bool module = low.substr(0, s).ends_with("cudnn/");
  if (!prefixed &&
      (!is_digit(low[s]) ||
       (s > 0 && !module && (word_char(low[s - 1]) || has(".-/\\:+#", low.substr(s - 1, 1))))))
    return ++i, std::nullopt;
  std::size_t n = s;
  while (n < low.size() && (is_digit(low[n]) || low[n] == '.')) ++n;
  std::string_view t = low.substr(s, n - s);
  if (n < low.size() && (low[n] == '*' || low[n] == 'x') && t.ends_with('.')) ++n;  // 9.*, 8.x
  i = n;
  while (t.ends_with('.')) t.remove_suffix(1);
  if (n < low.size() &&
      (word_char(low[n]) || low[n] == '/' || low[n] == '\\' || (low[n] == '-' && !module)))
    return std::nullopt;  // part of a name, a path or a range
  if (t.empty() || t.find("..") != std::string_view::npos) return std::nullopt;
  return version_of(t);
}

// Whether v can be a cuDNN release as written: 4-5 digit integers decode to 4.x-99.x; a bare
// small number only where the text says whose it is.
bool plausible(const Version &v, std::string_view t_kind, bool small_ok) {
  if (v.major < 1 || v.major > 30) return false;
  if (v.minor && *v.minor > 99) return false;
  if (t_kind == "small") return small_ok;
  return true;
}

// A number a code expression compares a variable with: "(cudnn_dso_major < 4 && ...)".
bool in_code(std::string_view low, std::size_t at) {
  std::size_t b = at;
  while (b > 0 && low[b - 1] == ' ') --b;
  std::size_t op = b;
  while (op > 0 &&
         (low[op - 1] == '<' || low[op - 1] == '>' || low[op - 1] == '=' || low[op - 1] == '!'))
    --op;
  if (op == b) return false;
  while (op > 0 && low[op - 1] == ' ') --op;
  std::size_t w = op;
  while (w > 0 && word_char(low[w - 1])) --w;
  return low.substr(w, op - w).find('_') != std::string_view::npos;
}

// A framework's GPU build named by its version ("装的1.8.1 GPU版本", "paddle 1.8.1 gpu version",
// "tensorflow 1.4-gpu"): no release of cuDNN's, whatever the line says of cuDNN around it (helper
// 112's set: Paddle's 1.8.1 was advised as the cuDNN to ask for).
bool gpu_build(std::string_view low, std::size_t after) {
  std::string_view rest = low.substr(after);
  while (!rest.empty() && (rest[0] == ' ' || rest[0] == '-')) rest.remove_prefix(1);
  return rest.starts_with("gpu");
}

std::vector<Mention> mentions_of(std::string_view low) {
  std::vector<Mention> out;
  const std::vector<std::size_t> mismatches = places_of(low, "version mismatch"),
                                 cudnns = places_of(low, "cudnn");
  std::size_t prev_end = 0;
  for (std::size_t i = 0; i < low.size();) {
    const std::size_t start = i;
    bool prefixed = false;
    const std::optional<Version> v = token_at(low, i, prefixed);
    // "<10.0" bounds a range from above (bound_above): no release the line names.
    if (!v || in_code(low, start) || (start > 0 && low[start - 1] == '<')) continue;
    const std::string_view raw = low.substr(start, i - start);
    const bool integer = raw.find_first_not_of("0123456789") == std::string_view::npos;
    const std::string_view kind = integer && raw.size() <= 2 ? "small" : "other";
    const std::string_view before = clause_before(low, prev_end, start);
    bool direct = false;
    // A version after another product's declared mismatch, with no cuDNN named since, is that
    // product's.
    const std::size_t m = last_before(mismatches, start);
    const bool theirs =
        m != std::string_view::npos &&
        (last_before(cudnns, start) < m || last_before(cudnns, start) == std::string_view::npos) &&
        other_products_mismatch(low, m);
    const bool ours = cudnn_is_subject(low.substr(0, start), direct) &&
                      !has(before, "compatibility version") && !theirs && !gpu_build(low, i);
    if (ours && plausible(*v, kind, prefixed || direct) &&
        (!integer || raw.size() <= 2 || v->major >= 4)) {
      // A token that took its sentence's full stop ("my cudnn was version 6. Looks like ... needs")
      // has nothing after it in its clause.
      out.push_back({*v, role_of(before, raw.ends_with('.') ? "" : clause_after(low, i))});
    } else if (!ours && !integer && !prefixed) {
      out.push_back({*v, Role::none, true});
    }
    prev_end = i;
  }
  return out;
}

std::optional<Version> first(const std::vector<Mention> &m, Role role) {
  for (const Mention &x : m)
    if (x.role == role && !x.foreign) return x.version;
  return std::nullopt;
}

bool any_of(std::string_view low, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words)
    if (has(low, w)) return true;
  return false;
}

// The same words as users paste them in Chinese, Japanese or Korean, said of cuDNN: the name
// right before them (particles and blanks aside: "cudnn64_8.dll が見つかりません",
// "提示zlibwapi.dll找不到") or right after them ("找不到cudnn64_8.dll") is cuDNN's or its zlib
// DLL's. "已找到 libcudnn.so.8，但找不到 GPU" is the GPU's; "CUDA ドライバが見つかりません (cuDNN
// 8.9.7)" the driver's (outside testers' findings).
bool names_cudnn(std::string_view name) {
  return has(name, "cudnn") || has(name, "zlibwapi");
}

std::string_view name_after(std::string_view low, std::size_t at) {
  while (at < low.size() && low[at] == ' ') ++at;
  if (at < low.size() && (low[at] == '(' || low[at] == '[')) return {};  // an aside
  std::size_t end = at;
  while (end < low.size() && low[end] != ' ' && static_cast<unsigned char>(low[end]) < 0x80) ++end;
  return low.substr(at, end - at);
}

std::string_view name_before(std::string_view low, std::size_t at) {
  for (bool skipped = true; skipped;) {
    skipped = false;
    while (at > 0 && low[at - 1] == ' ') --at, skipped = true;
    for (std::string_view particle : {"が", "を", "は", "를", "을", "이", "가"})
      if (low.substr(0, at).ends_with(particle)) at -= particle.size(), skipped = true;
  }
  std::size_t begin = at;
  while (begin > 0 && low[begin - 1] != ' ' && static_cast<unsigned char>(low[begin - 1]) < 0x80)
    --begin;
  return low.substr(begin, at - begin);
}

bool failed_in_its_words(std::string_view low) {
  // Chinese puts the object on either side; Japanese and Korean before the verb.
  static constexpr std::array<std::string_view, 11> kWords{
      "找不到",   "未找到",   "无法找到",       "無法找到",       "无法加载",  "无法载入",
      "無法載入", "加载失败", "見つかりません", "読み込めません", "찾을 수 없"};
  constexpr std::size_t kChinese = 8;
  for (std::size_t w = 0; w < kWords.size(); ++w)
    for (std::size_t at = low.find(kWords[w]); at != std::string_view::npos;
         at = low.find(kWords[w], at + kWords[w].size()))
      if (names_cudnn(name_before(low, at)) ||
          (w < kChinese && names_cudnn(name_after(low, at + kWords[w].size()))))
        return true;
  return false;
}

// "cuDNN is missing", "cuDNN 7.6.4 is missing": cuDNN itself, with its release, is what is
// missing - not something of it ("cuDNN attention is missing support for dropout").
bool missing_cudnn(std::string_view low) {
  // "cuDNN 7.6.4 is missing", and as a user writes it, "cudnn 9 missing" (helper 94).
  for (std::size_t at = low.find(" missing"); at != std::string_view::npos;
       at = low.find(" missing", at + 1)) {
    std::string_view subject = low.substr(0, at);
    if (subject.ends_with(" is")) subject.remove_suffix(3);
    while (!subject.empty() &&
           (is_digit(subject.back()) || subject.back() == '.' || subject.back() == ' '))
      subject.remove_suffix(1);
    if (subject.ends_with(" v")) subject.remove_suffix(2);
    if (subject.ends_with("cudnn")) return true;
  }
  return false;
}

// Words of a load that failed. "missing" and "not available" say so only of a file the line
// names or of cuDNN itself ("cuDNN SDPA is not available on this GPU" is no failed load).
bool load_failed(std::string_view low, bool names_a_file) {
  // clang-format off
  const bool failed = any_of(low, {
      "not found", "cannot open", "could not load", "couldn't load", "failed to load",
      "unable to load", "unable to dynamically load", "not installed",
      "cannot be loaded", "could not be loaded", "can't find", "cannot find", "could not find",
      "couldn't find", "not configured correctly", "error 126", "failed to open",
      "unable to locate", "could not locate", "cannot load", "not be found", "can not find",
      "can not load", "-notfound", "check cudnn installation", "check your cudnn installation",
      "not find", "n't find", "n't installed", "not present", "n't present"});
  // clang-format on
  return failed || failed_in_its_words(low) || says_no_such_file(low) ||
         (names_a_file && any_of(low, {"missing", "not available", "缺少", "缺失", "did not have",
                                       "didn't have", "do not have", "don't have"})) ||
         any_of(low, {"cudnn missing", "cudnn is not available", "cudnn not available"}) ||
         missing_cudnn(low);
}

bool trouble(std::string_view low) {
  return any_of(low,
                {"error",      "fail",    "not ",      "unsupported", "incompatib", "mismatch",
                 "too old",    "too new", "outdated",  "warning",     "must",       "please",
                 "unable",     "cannot",  "can't",     "invalid",     "wrong",      "older than",
                 "newer than", "fatal",   "exception", "abort",       "differ",     "expect"});
}

// The release found is newer than the code was written for ("Your cuDNN version is more recent
// than Theano"), not a minimum it misses ("requires cuDNN newer than 8.5").
bool too_new(std::string_view low) {
  return any_of(low,
                {"more recent than", "more recent then", "newer than", "too new", "too recent"}) &&
         !any_of(low, {"require", "need", "must be", "should be", "at least"});
}

struct Framework {
  std::string_view word, name;
  Rule rule;
};

Framework framework_of(std::string_view low) {
  static constexpr std::array known{Framework{"pytorch", "pytorch", Rule::pytorch},
                                    Framework{"torch", "pytorch", Rule::pytorch},
                                    Framework{"tensorflow", "tensorflow", Rule::tensorflow},
                                    Framework{"jax", "jax", Rule::jax},
                                    Framework{"paddle", "paddlepaddle", Rule::paddle},
                                    Framework{"caffe2", "caffe2", Rule::caffe2},
                                    Framework{"mxnet", "mxnet", Rule::mxnet},
                                    Framework{"theano", "theano", Rule::exact},
                                    Framework{"tensorrt", "tensorrt", Rule::nvidia}};
  for (const Framework &f : known)
    if (has(low, f.word)) return f;
  return {"", "", Rule::nvidia};
}

std::optional<Finding> read_files(std::string_view line, std::string_view low,
                                  const std::vector<Mention> &m) {
  std::string cudnn_lib, other;
  bool any_file = false;
  for (const std::string &name : file_names(line)) {
    any_file = true;
    if (names_cudnn_library(name) && cudnn_lib.empty())
      cudnn_lib = name;
    else if (cudnn_dependency(name) && other.empty())
      other = name;
  }
  // A dependency of cuDNN's is cuDNN's where the line names cuDNN ("Loading cuDNN returns `Error:
  // libnvrtc.so: cannot open shared object file`"); zlib's Windows DLL whoever names it: cuDNN
  // 8.3 and later on Windows are its one common user ("提示zlibwapi.dll找不到").
  const bool dependency = cudnn_lib.empty() && !other.empty() &&
                          (has(low, "cudnn") || folded(basename_of(other)) == "zlibwapi.dll");
  if (!load_failed(low, !cudnn_lib.empty() || dependency)) return std::nullopt;
  // A failed load of some other file that lives under a cuDNN directory is not cuDNN's.
  if (any_file && cudnn_lib.empty() && !dependency) return std::nullopt;
  Finding f = found(FindingKind::library_not_found);
  f.library = cudnn_lib;
  if ((!cudnn_lib.empty() || dependency) && !other.empty()) {
    f.kind = FindingKind::dependency_not_found;
    f.missing = other;
  }
  f.required = first(m, Role::requirement);
  if (!f.required) f.required = first(m, Role::none);
  if (has(low, "126") || has(low, "0x8007007e")) f.windows_error = 126;  // .NET's HRESULT
  return f;
}

// The first release a newest one ("up to 9.1", "<= 6", "==9.1.0") leaves out, at the precision
// it is written with: 9.2, 7, 9.1.1.
Version just_above(const Version &newest) {
  return newest.patch   ? Version{newest.major, newest.minor, *newest.patch + 1, {}}
         : newest.minor ? Version{newest.major, *newest.minor + 1, {}, {}}
                        : Version{newest.major + 1, {}, {}, {}};
}

// A range ("cuDNN v4<= and <=v6 is required"): the newest release it takes bounds it from above;
// a found release past it needs an older one.
void bound_above(std::string_view low, Finding &f) {
  if (const std::optional<Version> below = strictly_below_in(low)) {
    f.older_than = below;
  } else if (const std::optional<Version> one = exact_in(low)) {
    // pip's "==9.1.0.70", "expected 9.1.0 exactly": that release alone, a newer one refused
    // (helper 99 was advised 9.23.0 for it). A wheel's fourth number is the wheel's build.
    f.required = Version{one->major, one->minor, one->patch, {}};
    f.older_than = just_above(*f.required);
    f.exact = true;
  } else if (const std::optional<Version> newest = upper_bound_in(low)) {
    f.older_than = just_above(*newest);
    if (f.required == newest) f.required.reset();  // "requires cuDNN <= 9.1": no minimum
  } else {
    return;
  }
  if (!f.exact && f.runtime && compare(*f.runtime, *f.older_than) < 0) f.older_than.reset();
  if (f.older_than && (!f.runtime || !f.required || compare(*f.runtime, *f.required) >= 0))
    f.kind = FindingKind::version_mismatch;
}

// Whether the line says versions do not match. A mismatch it declares of another product only
// ("NCCL version mismatch, ...") is not cuDNN's, whatever cuDNN the line names beside it.
bool declares_mismatch(std::string_view low) {
  const std::vector<std::size_t> declared = places_of(low, "version mismatch");
  const bool theirs = !declared.empty() &&
                      std::all_of(declared.begin(), declared.end(),
                                  [&](std::size_t at) { return other_products_mismatch(low, at); });
  return (!theirs && has(low, "mismatch")) ||
         any_of(low, {"incompatib", "not compatible", "does not match", "doesn't match",
                      "mixed dnn", "mixed version", "mixed release", "unmatched", "not match",
                      "different version of cudnn", "wrong version of cudnn",
                      "different cudnn version", "wrong cudnn version"});
}

// "not supported" said of cuDNN, not of another product the line names first ("CUDA version
// below 11.8 is not supported; cuDNN 8.9.7 loaded": an outside tester's finding).
bool cudnn_refused(std::string_view low) {
  for (std::string_view refusal : {"unsupported", "not supported"})
    for (std::size_t at = low.find(refusal); at != std::string_view::npos;
         at = low.find(refusal, at + 1)) {
      bool direct = false;
      // "not supported with CUDA version below 11.8": the product after it is the one refused.
      std::string_view after_it = trim(low.substr(at + refusal.size()));
      for (std::string_view lead : {"with ", "on ", "for ", "by ", "in "})
        if (after_it.starts_with(lead)) after_it.remove_prefix(lead.size());
      const std::string_view next = after_it.substr(0, after_it.find_first_of(" .,;:)"));
      if (other_product(next)) continue;
      if (cudnn_is_subject(low.substr(0, at), direct)) return true;
    }
  return false;
}

// The CUDA a need names itself for: "requires cuDNN 9.1 or newer for CUDA 11" (helper 99: the
// advice named releases built for CUDA 12).
std::optional<int> cuda_of_need(std::string_view low) {
  const std::size_t at = low.find("for cuda ");
  const std::optional<Version> v =
      at == std::string_view::npos ? std::nullopt : version_of(token(low.substr(at + 9)));
  return v ? std::optional(v->major) : std::nullopt;
}

// A found release past the newest a line takes ("supports cuDNN up to 9.1, found 9.23"): refused
// without the word error (helper 100).
bool beyond_bound(std::string_view low, const std::optional<Version> &runtime) {
  const std::optional<Version> top = upper_bound_in(low);
  if (!runtime || !top) return false;
  return compare(*runtime, just_above(*top)) >= 0;
}

std::optional<Finding> read_versions(std::string_view line, std::string_view low,
                                     std::vector<Mention> m) {
  const bool built_named = first(m, Role::build).has_value();
  for (Mention &x : m)
    if (x.role == Role::linked) x.role = built_named ? Role::runtime : Role::build;
  const std::optional<Version> built = first(m, Role::build), runtime = first(m, Role::runtime),
                               required = first(m, Role::requirement);
  const bool says_mismatch = declares_mismatch(low);
  const Framework fw = framework_of(low);
  if (too_new(low) && !built && (runtime || has(low, "version"))) {
    // "Your cuDNN version is newer than ...; try downgrading cuDNN to a version >= v5": the
    // release found is newer than the code knows, whatever minimum the advice beside it names.
    Finding f = mismatch_in(line, std::string(fw.name), fw.rule,
                            runtime ? runtime : first(m, Role::none), std::nullopt);
    f.kind = FindingKind::version_mismatch;
    f.rule.reset();
    return f;
  }
  if (built && runtime) {
    if (*built == *runtime && !says_mismatch) return std::nullopt;  // a report, not an error
    Finding f = mismatch_in(line, std::string(fw.name), fw.rule, runtime, built);
    f.required = required;
    // "supports cuDNN up to 9.1, found 9.23": the build's release bounds it (helper 99).
    bound_above(low, f);
    if (fw.name.empty()) f.rule.reset();
    return f;
  }
  // cuDNN with one version beside the versions of another product: the line is about that
  // product ("cuFFT 11.0.2 does not match the 10.9.0 cuDNN 8.9 expects").
  const bool foreign = std::any_of(m.begin(), m.end(), [](const Mention &x) { return x.foreign; });
  if (foreign && !runtime) return std::nullopt;
  const bool old = (runtime && required && compare(*runtime, *required) < 0) ||
                   any_of(low, {"too old", "outdated", "older than", "upgrade", "update to"});
  const bool past = beyond_bound(low, runtime);
  const bool refused = says_mismatch || old || cudnn_refused(low) || past;
  // One version alone is a report unless the line refuses it; a requirement needs trouble.
  const bool enough = required ? trouble(low) || old || past : (runtime || built) && refused;
  if (!enough) {
    // Without a version a mismatch must at least be said to be one of versions ("mixed
    // precision", "strides() != ..." are not).
    if (!says_mismatch || !has(low, "version")) return std::nullopt;
    Finding f =
        found(has(low, "sub-librar") || has(low, "sublibrar") ? FindingKind::sublibrary_mismatch
                                                              : FindingKind::version_mismatch);
    f.framework = std::string(fw.name);
    return f;
  }
  Finding f = mismatch_in(line, std::string(fw.name), fw.rule, runtime, built);
  f.required = required;
  if (required) f.for_cuda = cuda_of_need(low);
  // A minimum the found release does not meet, named or not ("PyTorch requires cuDNN 8.1 and
  // above." as a configure error).
  if ((old && (runtime || required)) || (required && !runtime && !built))
    f.kind = FindingKind::outdated;
  if (!built) bound_above(low, f);
  if (!built || fw.name.empty()) f.rule.reset();  // no rule the message named
  return f;
}

// The version after one of the words of "below" at the start of text: "under 6.0", "lower than
// v8.1".
std::optional<Version> under_version(std::string_view text) {
  for (std::string_view under : {"under ", "below ", "lower than ", "prior to ", "< "})
    if (text.starts_with(under)) {
      std::string_view rest = trim(text.substr(under.size()));
      if (rest.starts_with("v")) rest.remove_prefix(1);
      return version_of(token(rest));
    }
  return std::nullopt;
}

// "cuDNN version >= 8 is not yet supported", "cuDNN 9 and above are not supported": the releases
// from N on are refused, the code needs an older one.
std::optional<Version> refused_from(std::string_view low) {
  // "only supported with cudnn version below 9.0; please use cudnn 8.x": an upper bound.
  if (const std::size_t only = low.find("only supported"); only != std::string_view::npos) {
    const std::string_view rest = low.substr(only, 80);
    for (std::string_view under : {" under ", " below ", " lower than ", " prior to "})
      if (const std::size_t at = rest.find(under);
          at != std::string_view::npos && has(rest.substr(0, at), "cudnn"))
        if (std::optional<Version> v = under_version(rest.substr(at + 1))) return v;
  }
  for (std::string_view refusal : {"not yet supported", "not supported", "unsupported"}) {
    const std::size_t no = low.find(refusal);
    if (no == std::string_view::npos) continue;
    const std::string_view before = low.substr(0, no);
    if (const std::size_t ge = before.rfind(">="); ge != std::string_view::npos)
      return version_of(token(before.substr(ge + 2)));
    for (std::string_view range : {" and above", " or later", " or newer", " and later"})
      if (const std::size_t r = before.rfind(range); r != std::string_view::npos) {
        std::size_t b = r;
        while (b > 0 &&
               (std::isdigit(static_cast<unsigned char>(before[b - 1])) || before[b - 1] == '.'))
          --b;
        return version_of(before.substr(b, r - b));
      }
  }
  return std::nullopt;
}

// "CUDNN version under 6.0 is supported at best effort" (Caffe2's header, as a compiler note),
// "cuDNN below 7 is not supported", and PyTorch's cuDNN frontend: "... is not supported with cudnn
// version below 8.9.6", darknet's "CUDNN < 7 doesn't support groups, please upgrade!". The releases
// under N are refused: the code needs N or newer.
std::optional<Version> refused_under(std::string_view low) {
  for (std::string_view refusal : {"best effort", "not supported", "unsupported", "deprecated",
                                   "doesn't support", "does not support"}) {
    const std::size_t no = low.find(refusal);
    if (no == std::string_view::npos) continue;
    const std::string_view before = low.substr(0, no);
    bool direct = false;  // "CUDA version under 11.0" is CUDA's
    for (std::string_view under : {" under ", " below ", " lower than ", " prior to ", " < "})
      if (const std::size_t at = before.rfind(under);
          at != std::string_view::npos && cudnn_is_subject(before.substr(0, at), direct))
        if (std::optional<Version> v = under_version(before.substr(at + 1))) return v;
    std::string_view after_it = trim(low.substr(no + refusal.size()));
    for (std::string_view lead : {"with ", "for ", "on ", "in "})
      if (after_it.starts_with(lead)) after_it.remove_prefix(lead.size());
    if (!after_it.starts_with("cudnn")) continue;
    after_it = trim(after_it.substr(std::string_view("cudnn").size()));
    for (std::string_view word : {"versions ", "version "})
      if (after_it.starts_with(word)) after_it.remove_prefix(word.size());
    if (std::optional<Version> v = under_version(after_it)) return v;
  }
  return std::nullopt;
}

// CMake's "-- Found NVINFER: CUDNN_NVLIB-NOTFOUND" is about NVINFER, whatever its variable is
// named.
bool about_another_package(std::string_view low) {
  const std::size_t at = low.find("found ");
  if (at == std::string_view::npos) return false;
  const std::string_view rest = low.substr(at + 6);
  const std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon > 30) return false;
  const std::string_view name = rest.substr(0, colon);
  return !has(name, "cudnn") && !has(name, " ");
}

// Configure steps, build tools, a wizard that creates a project to build ("you choose to create a
// torch project with cuda but cuDNN isn't installed"), and a user's account of a build ("a
// compilation error because my cudnn was version 6", "building pytorch led to the following
// error": not "compiled against", which a run prints).
bool sets_up_a_build(std::string_view low) {
  return any_of(low, {"cmake", "configure", "configuration error", "#error", "#pragma",
                      "pkg-config", "ld: ", "bazel", "setup.py", "package configuration file",
                      "-rpath", "compilation error", "compile error", "error while compiling",
                      "when compil", "while compiling", "building from source"}) ||
         (has(low, "building ") &&
          !framework_of(clause_after(low, low.find("building "))).word.empty()) ||
         (has(low, " project") && any_of(low, {"create", "new project", "template"}));
}

}  // namespace

bool about_something_else(std::string_view low) {
  return any_of(
      low,
      {"out of memory", "out_of_memory", "alloc_failed", "driver version is insufficient",
       "insufficient for cuda runtime", "arch_mismatch", "execution_failed", "not_supported",
       "internal_error", "bad_param", "mapping_error", "not_initialized", "illegal memory access",
       "no kernel image", "device-side assert", "invalid_value", "status_success",
       "compute capability", "no kernel image", "on kepler", "on maxwell", "on fermi",
       // TensorRT's Myelin names its own build's libraries "cuDNN 11.4.1.0" (cuBLAS's).
       "myelin"});
}

std::optional<Finding> read_general(std::string_view line, bool in_build) {
  const std::string low = folded(line);
  if ((!has(low, "cudnn") && !has(low, "zlibwapi")) || about_something_else(low) ||
      about_another_package(low))
    return std::nullopt;
  const std::vector<Mention> m = mentions_of(low);
  std::optional<Finding> f = read_files(line, low, m);
  if (const std::optional<Version> from = f ? std::nullopt : refused_from(low)) {
    f = found(FindingKind::version_mismatch, std::string(framework_of(low).name),
              "cuDNN " + to_string(*from) + " and later are refused: the code needs an older one");
    f->older_than = from;
  }
  if (const std::optional<Version> under = f ? std::nullopt : refused_under(low)) {
    f = found(FindingKind::outdated, std::string(framework_of(low).name),
              "cuDNN before " + to_string(*under) + " is not (fully) supported: the code needs " +
                  to_string(*under) + " or newer");
    f->required = under;
  }
  if (!f) f = read_versions(line, low, m);
  if (f) f->build_time = in_build || sets_up_a_build(low);
  return f;
}

// The release a range stops below: pip's "nvidia-cudnn-cu12<10.0,>=9.1" (helper 99 read its "<10.0"
// as a minimum), "<9.0".
std::optional<Version> strictly_below_in(std::string_view low) {
  for (std::size_t at = low.find('<'); at != std::string_view::npos; at = low.find('<', at + 1))
    if (at + 1 < low.size() && is_digit(low[at + 1])) {
      std::size_t end = at + 1;
      while (end < low.size() && (is_digit(low[end]) || low[end] == '.')) ++end;
      if (std::optional<Version> v = version_of(low.substr(at + 1, end - at - 1))) return v;
    }
  return std::nullopt;
}

// The newest release a range takes: "<=v6", "<= 8.9", "supports cuDNN up to 9.1".
std::optional<Version> upper_bound_in(std::string_view low) {
  for (std::string_view bound : {"<=", "up to ", "at most "})
    for (std::size_t at = low.find(bound); at != std::string_view::npos;
         at = low.find(bound, at + 1)) {
      std::string_view rest = trim(low.substr(at + bound.size()));
      if (rest.starts_with("v")) rest.remove_prefix(1);
      if (std::optional<Version> v = version_of(token(rest))) return v;
    }
  return std::nullopt;
}

// The one release a pin or check takes: pip's "nvidia-cudnn-cu12==9.1.0.70", "cudnn 9.1.0
// exactly", "exactly 9.1".
std::optional<Version> exact_in(std::string_view low) {
  if (const std::size_t at = low.find("=="); at != std::string_view::npos)
    if (std::optional<Version> v = version_of(token(trim(low.substr(at + 2))))) return v;
  const std::size_t at = low.find(" exactly");
  if (at == std::string_view::npos) return std::nullopt;
  if (std::optional<Version> v = version_of(token(trim(low.substr(at + 8))))) return v;
  const std::string_view before = low.substr(0, at);
  const std::size_t word = before.rfind(' ');
  return version_of(before.substr(word == std::string_view::npos ? 0 : word + 1));
}

}  // namespace cudnn_compat::explain
