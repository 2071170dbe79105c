#include "text.h"

#include <algorithm>
#include <charconv>

namespace cudnn_compat {

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view basename_of(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t i = s.find(sep);
    out.push_back(s.substr(0, i));
    if (i == std::string_view::npos) return out;
    s.remove_prefix(i + 1);
  }
}

std::string join(const std::vector<std::string> &items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out.append(separator);
    out.append(items[i]);
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

std::optional<std::int64_t> parse_uint(std::string_view s, std::size_t most_digits) {
  std::int64_t n = 0;
  if (!all_digits(s) || s.size() > most_digits) return std::nullopt;
  // from_chars says when the digits do not fit (more than 18 asked for).
  if (std::from_chars(s.data(), s.data() + s.size(), n).ec != std::errc()) return std::nullopt;
  return n;
}

namespace {

// The length of the UTF-8 sequence of a printable character at the start of s (RFC 3629: no
// overlong form, no surrogate, nothing past U+10FFFF, no C1 control), or 0.
std::size_t utf8_printable(std::string_view s) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = at(0);
  const std::size_t n = lead >= 0xc2 && lead <= 0xdf   ? 2
                        : lead >= 0xe0 && lead <= 0xef ? 3
                        : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                       : 0;
  if (n == 0 || s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i)
    if ((at(i) & 0xc0) != 0x80) return 0;
  const unsigned char second = at(1);
  if ((lead == 0xc2 && second < 0xa0) || (lead == 0xe0 && second < 0xa0) ||
      (lead == 0xed && second > 0x9f) || (lead == 0xf0 && second < 0x90) ||
      (lead == 0xf4 && second > 0x8f))
    return 0;
  // Bidirectional controls (ALM, LRM, RLM, LRE..RLO, LRI..PDI) reorder what a terminal shows
  // around them ("Trojan Source", CVE-2021-42574): an echoed log line could show a version it does
  // not hold (helper 110). Written out like a control character.
  const unsigned third = n > 2 ? at(2) & 0x3fU : 0;
  const unsigned code = n == 2   ? ((lead & 0x1fU) << 6) | (second & 0x3fU)
                        : n == 3 ? ((lead & 0x0fU) << 12) | ((second & 0x3fU) << 6) | third
                                 : 0;
  if (code == 0x061c || code == 0x200e || code == 0x200f || (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069))
    return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
      continue;
    }
    // A name in the user's language passes; a byte that is no character of it, or a C1 control
    // (which a terminal obeys as ESC's), is written out like the others.
    if (const std::size_t n = u >= 0x80 ? utf8_printable(text.substr(i)) : 0) {
      out += text.substr(i, n);
      i += n - 1;
      continue;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : nullptr;
    if (named)
      out += named;
    else
      out += {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
  }
  return out;
}

bool plain_text(std::string_view text) {
  return printable(text) == text;
}

std::string_view start_of(std::string_view text, std::size_t n) {
  if (text.size() <= n) return text;
  std::size_t end = n;
  // Back to the lead byte of a character the cut falls inside (at most three continuation bytes).
  while (end > 0 && n - end < 3 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
  return (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80 ? text.substr(0, n)
                                                                : text.substr(0, end);
}

std::string quoted(std::string_view text) {
  // A line that names a 100 kB variable whole fills the terminal and is cut where it lands.
  constexpr std::size_t kShown = 120;
  if (text.size() <= kShown) return "'" + printable(text) + "'";
  return "'" + printable(start_of(text, kShown)) + "...' (" + std::to_string(text.size()) +
         " bytes)";
}

std::string shell_word(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return word_char(c) || std::string_view("/.+@%,:=-").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(text);
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

// Edits from a to b, a swap of two neighbours counting as one (optimal string alignment).
std::size_t edits(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string_view nearest_word(std::string_view typed, const std::vector<std::string_view> &words) {
  constexpr std::size_t kMostEdits = 2;
  const std::string folded = lower(typed);
  std::string_view best;
  std::size_t best_edits = kMostEdits + 1;
  bool tied = false;
  for (std::string_view w : words) {
    const std::size_t e = edits(folded, w);
    if (e < best_edits)
      best = w, best_edits = e, tied = false;
    else if (e == best_edits)
      tied = true;
  }
  // Two edits turn a short word into almost any other: "map" and "scan" are not typos of "usage".
  if (tied || best_edits > kMostEdits || best_edits * 2 >= std::max(folded.size(), best.size()))
    return {};
  return best;
}

}  // namespace cudnn_compat
