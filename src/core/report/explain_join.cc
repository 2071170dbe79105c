// Lines a console or a web page wrapped, put back together before they are read. Two kinds of
// wrap leave different traces:
//
// - a terminal cuts at its width, anywhere, even mid-word ("Loaded runtime CuDNN l" / "ibrary:
//   5005"), and keeps every character: the cut line is exactly as long as the widest line of the
//   text, and the pieces join with nothing between them;
// - a web page, an editor or a mail client wraps at spaces and drops the space: the pieces join
//   with one, unless the seam falls inside a word the readers know ("CuDNN l" / "ibrary") or a
//   file name ("cudnn_cnn_in" / "fer64_8.dll").
//
// A piece never continues a line when it starts a record of its own: a timestamp, a log level
// prefix, a bracketed tag, an exception's name, a traceback.
#include "explain_read.h"
#include "text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cudnn_compat::explain {
namespace {

// A paragraph a page wrapped at 72 columns takes a dozen lines; past that, or past 4 KiB, the
// pieces are more likely two messages than one.
constexpr std::size_t kMaxPieces = 12;
constexpr std::size_t kMaxJoined = 4096;
constexpr std::size_t kMinWrapWidth = 60;  // narrower "widths" are ordinary short lines
constexpr std::size_t kMaxPageWidth =
    200;                               // a text whose lines run wider was not wrapped by a page
constexpr std::size_t kMaxQuote = 16;  // columns of quote marks before a line's text
// Terminal widths common enough that one cut line at one of them is taken as a cut.
constexpr std::array<std::size_t, 6> kCommonWidths{80, 100, 120, 132, 160, 200};

bool alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

std::size_t leading_digits(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  return n;
}

// A date or a time of day first (2021-10-13, 17:19:29, 06/11/2024), not a process id's "5580:"
// nor the rest of a cut name ("8: cannot open"): no cut continues there.
bool dated(std::string_view s) {
  const std::size_t n = leading_digits(s);
  return n > 0 && n + 1 < s.size() && (s[n] == '-' || s[n] == '/' || s[n] == ':') &&
         is_digit(s[n + 1]);
}

// Digits, then '-', '/' or ':' and more digits: 2019-12-24, 15:29:16, 06/11/2024; or a process id
// and a colon (LD_DEBUG's "5580:").
bool timestamp_start(std::string_view s) {
  const std::size_t n = leading_digits(s);
  if (n == 0 || n >= s.size()) return false;
  if (s[n] == ':' && (n + 1 == s.size() || s[n + 1] == ' ' || s[n + 1] == '\t')) return true;
  return dated(s);
}

// A line a logger stamped: a timestamp, a bracketed tag, a prompt, glog's and absl's "E0605
// 01:44:46" and TensorFlow 1.x's "E tensorflow/...". Even a terminal's cut never starts one.
bool stamped(std::string_view s) {
  if (s.empty()) return true;
  if (timestamp_start(s) || s[0] == '[' || s[0] == '$' || s.starts_with(">>>") ||
      s.starts_with("Traceback"))
    return true;
  return std::isupper(static_cast<unsigned char>(s[0])) && s.size() > 1 &&
         ((s[1] == ' ' && s.size() > 2 && s[2] != ' ') ||
          (s.size() > 5 && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]) && is_digit(s[4])));
}

// A line that begins a record of its own rather than continuing the one before.
bool starts_record(std::string_view s) {
  if (stamped(s) || s[0] == '#' || s[0] == '>' || s[0] == '*' || s[0] == '@' || s[0] == '+' ||
      s.starts_with("--") || s.starts_with("... "))
    return true;
  // "RuntimeError:", "error:", "Caused by:", "Traceback (most recent call last):".
  const std::size_t space = s.find(' ');
  const std::string_view first = s.substr(0, space);
  // A lower-case word and a colon ("library: 7.1.4") may be a sentence's rest; a name, a program
  // ("g++.exe:", "ld:") or a level ("error:") starts a record.
  const bool named = std::isupper(static_cast<unsigned char>(first[0])) ||
                     first.find_first_of(".+-_0123456789") != std::string_view::npos ||
                     first == "error:" || first == "warning:" || first == "note:" ||
                     first == "fatal:" || first == "ld:" || first == "gcc:" || first == "nvcc:";
  if (named && first.size() > 1 && first.back() == ':' &&
      first.find('/') == std::string_view::npos && first.find('\\') == std::string_view::npos)
    return true;
  // A compiler's diagnostic: "src/conv.cu:3:10: fatal error:", "conv.cu(178): error:".
  const std::size_t colon = first.find(':');
  if (colon != std::string_view::npos && colon > 0 && colon + 1 < first.size() &&
      (is_digit(first[colon + 1]) || first[colon - 1] == ')'))
    return true;
  for (std::string_view w : {"Traceback", "During handling", "The above exception", "Caused by",
                             "Exception", "In file included", "Call Stack", "CMake ", "make",
                             "collect2", "ninja", "Scanning", "Building", "Linking"})
    if (s.starts_with(w)) return true;
  return false;
}

// Words of the messages the readers know, and the common words around them: a seam between two
// of them is a space a wrap took away; a seam that makes one of them cut a word in two.
bool known_word(std::string_view w) {
  // clang-format off
  static constexpr std::array words{
      "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "did", "do", "does",
      "for", "from", "has", "have", "if", "in", "into", "is", "it", "its", "make", "may", "must",
      "need", "needs", "no", "not", "of", "on", "one", "or", "please", "should", "so", "such",
      "sure", "than", "that", "the", "their", "then", "there", "these", "this", "to", "try",
      "use", "using", "was", "were", "when", "which", "while", "will", "with", "you", "your",
      "library", "libraries", "version", "versions", "compatibility", "compatible",
      "incompatibility", "incompatible", "compiled", "compile", "runtime", "loaded", "load",
      "source", "cudnn", "cuda", "found", "find", "against", "mismatch", "dependencies",
      "dependency", "dynamic", "shared", "object", "file", "files", "directory", "specified",
      "module", "major", "minor", "higher", "lower", "matching", "match", "installation",
      "install", "installed", "initialize", "initialization", "supported", "support",
      "capability", "insufficient", "available", "execution", "device", "kernel", "image",
      "procedure", "cannot", "loading", "locate", "upgrade", "requires", "required", "require",
      "binary", "configuration", "sublibrary", "precompiled", "heuristic", "error", "errors",
      "failed", "failure", "warning", "path", "driver", "built", "build", "header", "symbol",
      "undefined", "reference", "defined", "missing", "open", "program", "process", "status",
      "check", "newer", "older", "equal", "minimum", "installed", "invalid", "handle"};
  // clang-format on
  const std::string low = folded(w);
  return std::any_of(words.begin(), words.end(), [&](const char *k) { return low == k; });
}

// The word that a space-less seam makes: "l" + "ibrary", "cudnn_cnn_in" + "fer64_8.dll".
bool seam_is_one_word(std::string_view prev, std::string_view next) {
  std::size_t a = prev.size();
  while (a > 0 && (word_char(prev[a - 1]) || prev[a - 1] == '.' || prev[a - 1] == '-')) --a;
  std::size_t b = 0;
  while (b < next.size() && (word_char(next[b]) || next[b] == '.' || next[b] == '-')) ++b;
  const std::string_view tail = prev.substr(a), head = next.substr(0, b);
  if (tail.empty() || head.empty()) return false;
  const std::string joined = std::string(tail) + std::string(head);
  const std::string low = folded(joined);
  // A file name cut in two ("cudnn_cnn_in" / "fer64_8.dll"), not a whole one and the next word.
  const std::string whole = folded(tail);
  const std::size_t so = whole.rfind(".so");
  const bool tail_is_a_file = whole.ends_with(".dll") || whole.ends_with(".h") ||
                              (so != std::string::npos &&
                               whole.find_first_not_of(".0123456789", so + 3) == std::string::npos);
  // The seam inside "dnn", ".dll" or ".so", or before the rest of a file name's extension.
  for (std::string_view mark : {"dnn", ".dll", ".so"})
    for (std::size_t at = low.find(mark); at != std::string::npos; at = low.find(mark, at + 1))
      if (at < tail.size() && at + mark.size() > tail.size()) return true;
  const std::string head_low = folded(head);
  // A word then a whole file's name ("load library" / "libcudnn_cnn_train.so.8. Error:").
  std::string_view named = head_low;
  while (named.ends_with('.')) named.remove_suffix(1);
  if (known_word(tail) && names_cudnn_library(named)) return false;
  if (!tail_is_a_file &&
      (head_low.find(".dll") != std::string::npos || head_low.find(".so") != std::string::npos))
    return true;
  // Both halves whole words of their own ("library" + "is") keep their space.
  std::string_view word = joined;
  while (!word.empty() && !alpha(word.back())) word.remove_suffix(1);
  return known_word(word) && !known_word(tail);
}

// Inside an unfinished path or quotation: `Error loading "C:\...\torch\lib\cudnn_cn`.
bool open_path(std::string_view prev) {
  const std::size_t space = prev.find_last_of(" \t");
  const std::string_view last = space == std::string_view::npos ? prev : prev.substr(space + 1);
  const bool path =
      last.find('\\') != std::string_view::npos || last.find('/') != std::string_view::npos;
  return path && std::count(prev.begin(), prev.end(), '"') % 2 == 1;
}

// A sentence a page wrapped with a hanging indent: " E cuda_dnn.cc:363] Loaded runtime CuDNN" then
// "    library: 7.1.4 but source ...". Not a traceback's frame and the code line under it.
bool hanging_indent(std::string_view prev, std::string_view next) {
  const std::string_view p = trim(prev), n = trim(next);
  if (p.size() < 40 || n.empty() || p.starts_with("File ") || p.starts_with("at ")) return false;
  const std::size_t indent = std::size_t(n.data() - next.data());
  const std::size_t prev_indent = std::size_t(p.data() - prev.data());
  return indent > prev_indent && (alpha(p.back()) || is_digit(p.back())) &&
         std::islower(static_cast<unsigned char>(n[0])) && !starts_record(n);
}

// stamped: a space, and the next line's log stamp dropped.
enum class Seam { none, tight, space, stamped };

// Columns a terminal gives a line: UTF-8 continuation bytes take none.
std::size_t columns(std::string_view s) {
  return std::size_t(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// A line as wide as the widest: a terminal's cut, which keeps every character (join tight), or a
// page's wrap that happened to fill the line (join with a space). A word the readers know, a
// number or a space kept at the seam says a cut; two whole words say a wrap.
Seam cut_seam(std::string_view prev, std::string_view next) {
  if (prev.back() == ' ' || next[0] == ' ' || seam_is_one_word(prev, next)) return Seam::tight;
  // A word against a number ("compiled with" / "4007") is two tokens either way; so is what
  // follows a colon, a comma or a semicolon ("version:" / "6020", a page's wrap that happened to
  // fill the line), which a space after it cannot change.
  const bool clause_mark = prev.back() == ':' || prev.back() == ',' || prev.back() == ';';
  // An opening quote right after a word ("undefined reference to" / "`cudnnGetConvolution...'")
  // had a space before it, which the wrap took.
  const bool opens_quote = next[0] == '`' || next[0] == '"' || next[0] == '\'';
  if ((std::isalpha(static_cast<unsigned char>(prev.back())) && is_digit(next[0])) ||
      (std::isalpha(static_cast<unsigned char>(prev.back())) && opens_quote) ||
      (is_digit(prev.back()) && std::isalpha(static_cast<unsigned char>(next[0]))) ||
      (clause_mark && std::isalnum(static_cast<unsigned char>(next[0]))))
    return Seam::space;
  std::size_t a = prev.size();
  while (a > 0 && std::isalpha(static_cast<unsigned char>(prev[a - 1]))) --a;
  std::size_t b = 0;
  while (b < next.size() && std::isalpha(static_cast<unsigned char>(next[b]))) ++b;
  const bool two_words = a < prev.size() && b > 0 && known_word(prev.substr(a)) &&
                         known_word(next.substr(0, b)) && (a == 0 || !word_char(prev[a - 1])) &&
                         (b == next.size() || !word_char(next[b]));
  return two_words ? Seam::space : Seam::tight;
}

bool indented_after_stamp(std::string_view line) {
  const std::string_view body = body_of(line);
  std::size_t spaces = 0;
  for (std::size_t at = line.size() - body.size(); at > 0 && line[at - 1] == ' '; --at) ++spaces;
  return body.size() < line.size() && spaces >= 3;
}

// The columns a line took as printed, with the quote marks it is read without ("> > > ", "`").
std::size_t raw_columns(std::string_view line, std::string_view log) {
  std::size_t prefix = 0;
  if (!log.empty() && line.data() > log.data() && line.data() <= log.data() + log.size())
    for (const char *c = line.data();
         c > log.data() && c[-1] != '\n' && c[-1] != '\r' && prefix < kMaxQuote; --c)
      ++prefix;
  return columns(line) + prefix;
}

// A page's wrap at spaces: the next line's first word would not have fitted after this line
// (nor a word of half the width after half a line).
bool pushed_down(std::string_view prev, std::string_view next, const Wrap &wrap) {
  if (wrap.widest < kMinWrapWidth || wrap.widest > kMaxPageWidth) return false;
  const std::size_t have = raw_columns(prev, wrap.log);
  const std::size_t word = columns(next.substr(0, next.find(' ')));
  return have + 1 + word > wrap.widest && (2 * have >= wrap.widest || 3 * word >= wrap.widest);
}

// What a terminal's cut cannot have ended, whatever the next piece looks like: a path ("/home/"
// then "ort/onnxruntime/...:1193"), a version after its dot ("libcudnn.so." then "8: cannot") or
// a file name before its extension ("libcudnn_ops_train." then "so.8: symbol").
bool goes_on(std::string_view prev, std::string_view next) {
  const char last = prev.back();
  if (last == '/' || last == '\\') return next[0] != ' ' && next[0] != '\t';
  return last == '.' && prev.size() > 1 &&
         std::isalnum(static_cast<unsigned char>(prev[prev.size() - 2])) &&
         (is_digit(next[0]) || extension_start(next));
}

// prev was cut by a terminal: exactly as wide as the width the log was cut at.
bool cut_line(std::string_view prev, const Wrap &wrap) {
  return wrap.cut && raw_columns(prev, wrap.log) == wrap.cut;
}

// `srun --label`'s "12: " before each line a task prints: a line of a task's output, whole.
bool labeled(std::string_view s) {
  const std::size_t digits = leading_digits(s);
  return digits > 0 && digits < 7 && s.substr(digits).starts_with(": ") && s.size() > digits + 2 &&
         s[digits + 2] != ' ';
}

// so_far: the message up to prev, whose length says whether it is a line or a wrapped piece.
Seam seam(std::string_view prev, std::string_view so_far, std::string_view next, const Wrap &wrap) {
  if (prev.empty() || next.empty()) return Seam::none;
  // Two labelled lines are two lines (a cut would leave the rest unlabelled): "...with: 8.1.0."
  // and "1: Loaded ..." joined read as cuDNN 8.1.0.1 (helper 92).
  if (labeled(so_far) && labeled(next)) return Seam::none;
  // A terminal's cut: every character kept, so the pieces join with nothing between them.
  // A cut right after punctuation, before what starts a record, is more likely a line's end; a
  // time stamp starts one always (two TensorFlow lines of one width were one "line").
  const bool ends_clause = !word_char(prev.back()) && starts_record(trim(next));
  if (cut_line(prev, wrap) && !dated(trim(next)) &&
      (goes_on(prev, next) || (!stamped(trim(next)) && !ends_clause)))
    return cut_seam(prev, next);
  if (open_path(prev) && next[0] != ' ' && next[0] != '\t') return Seam::tight;
  // CMake indents the text of a message(): "CMake Error at x.cmake:31 (message):" then "  Can
  // not find CuDNN Library".
  const std::string_view body = trim(next);
  if (prev.ends_with("(message):") && next.starts_with("  ") && !body.empty()) return Seam::space;
  // A logger that stamps every line keeps message()'s indentation after the stamp (two spaces
  // more than the one that ends the stamp).
  if (const std::string_view next_body = body_of(next);
      next_body.size() < next.size() && !next_body.empty() &&
      (body_of(prev).ends_with("(message):") ||
       (indented_after_stamp(prev) && so_far.find("(message):") != std::string_view::npos)) &&
      indented_after_stamp(next))
    return Seam::stamped;
  if (hanging_indent(prev, next)) return Seam::space;
  // "CMake Error at <file>:<line> (message):", which a page may spread over three lines.
  if (so_far.starts_with("CMake ") && so_far.find("):") == std::string_view::npos &&
      next[0] != ' ' && !stamped(next))
    return Seam::space;
  if (next[0] == ' ' || next[0] == '\t') return Seam::none;
  // "... Error:" then its reason: "libcudnn_ops_infer.so.8: cannot open shared object file".
  const std::string_view lead = next.substr(0, next.find(' '));
  const bool names_a_file =
      lead.find(".so") != std::string_view::npos || lead.find(".dll") != std::string_view::npos;
  if (prev.back() == ':' && so_far.size() >= 20 && !stamped(next) &&
      (names_a_file || !starts_record(next)))
    return Seam::space;
  if (starts_record(next)) return Seam::none;
  if (pushed_down(prev, next, wrap))
    return seam_is_one_word(prev, next) ? Seam::tight : Seam::space;
  const char last = prev.back();
  if (last == '.' || last == '!' || last == '?' || last == ';') return Seam::none;
  // Soft wraps break before a word that starts in lower case, a number, a quote or a path's rest.
  // An MSVC-decorated name ("?destroyTensorDescriptorExOps@cudaNN@@...") starts no line either.
  const char first = next[0];
  const bool decorated = first == '?' && next.find("@@") != std::string_view::npos;
  if (!(std::islower(static_cast<unsigned char>(first)) || is_digit(first) || first == '.' ||
        first == '_' || first == '\\' || first == '/' || first == '"' || first == '\'' ||
        first == '`' ||  // GNU ld quotes a symbol `thus'
        first == '(' || decorated))
    return Seam::none;
  if (so_far.size() < 20) return Seam::none;  // a short line is a line, not a wrapped one
  return seam_is_one_word(prev, next) ? Seam::tight : Seam::space;
}

}  // namespace

Wrap wrap_of(std::string_view log, const std::vector<std::string_view> &lines) {
  Wrap wrap;
  wrap.log = log;
  std::size_t &widest = wrap.widest;
  for (std::string_view l : lines) widest = std::max(widest, raw_columns(l, log));
  if (widest < kMinWrapWidth) return wrap;
  // Two different cut lines of the same length (a repeated message is one line printed twice),
  // or one at a width terminals commonly have.
  std::string_view first_widest;
  bool two = false;
  for (std::string_view l : lines) {
    if (raw_columns(l, log) != widest) continue;
    if (first_widest.empty())
      first_widest = l;
    else if (l != first_widest)
      two = true;
  }
  const bool common =
      std::find(kCommonWidths.begin(), kCommonWidths.end(), widest) != kCommonWidths.end();
  if (two || common) wrap.cut = widest;
  return wrap;
}

Logical logical_line(const std::vector<std::string_view> &lines, std::size_t i, const Wrap &wrap) {
  Logical out;
  out.first = out.last = i;
  out.alone = lines[i];
  while (out.last + 1 < lines.size() && out.last + 1 - i < kMaxPieces &&
         out.joined.size() < kMaxJoined) {
    const std::string_view prev = lines[out.last], next = lines[out.last + 1];
    const Seam s = seam(prev, out.joined.empty() ? prev : std::string_view(out.joined), next, wrap);
    if (s == Seam::none) break;
    if (out.joined.empty()) {
      out.joined = std::string(lines[i]);
      out.mid_word = s == Seam::tight && cut_line(prev, wrap) &&
                     ((alpha(prev.back()) && alpha(next[0])) || goes_on(prev, next));
    }
    if (s == Seam::space || s == Seam::stamped) {
      while (!out.joined.empty() && (out.joined.back() == ' ' || out.joined.back() == '\t'))
        out.joined.pop_back();
      out.joined += ' ';
    }
    out.joined += s == Seam::stamped ? trim(body_of(next)) : s == Seam::space ? trim(next) : next;
    ++out.last;
  }
  return out;
}

}  // namespace cudnn_compat::explain
