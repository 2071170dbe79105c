// The text as people paste it, back to the text the tools printed: a terminal's colours, a forum's
// HTML entities
// (&quot;, &#39;), a Python repr that holds a whole log on one line ('...\nCould not load ...\n'),
// a mail's "> " quotes, Markdown's backticks and bold, docker compose's "service-1  | " - and,
// for the questions a log's shape answers (is this a build? does this line go on?), a line's body
// without the stamp its logger put first (a timestamp, a level, glog's "E0605 01:44:46.962916
// 26917 file.cc:171] ", bracketed tags).
#include "explain_read.h"
#include "text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cudnn_compat::explain {
namespace {

struct Entity {
  std::string_view name;
  char c;
};
constexpr std::array<Entity, 7> kEntities{
    Entity{"&quot;", '"'}, Entity{"&#39;", '\''}, Entity{"&#x27;", '\''}, Entity{"&apos;", '\''},
    Entity{"&lt;", '<'},   Entity{"&gt;", '>'},   Entity{"&amp;", '&'}};

// A repr's line break: a backslash and an n that no other backslash escapes.
bool escaped_break(std::string_view s, std::size_t i) {
  return s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'n' && (i == 0 || s[i - 1] != '\\');
}

// Whether the text holds a repr of a multi-line log: two escaped breaks on one long line, or one
// beside an escaped backslash ("\\Anaconda2\\lib": a Windows path's "\nvidia" is no break).
bool has_repr(std::string_view log) {
  std::size_t line_start = 0, breaks = 0;
  bool doubled = false;
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i] == '\n') {
      line_start = i + 1, breaks = 0, doubled = false;
    } else if (log[i] == '\\' && i + 1 < log.size() && log[i + 1] == '\\') {
      doubled = true;
      ++i;
    } else if (escaped_break(log, i)) {
      ++breaks;
    }
    if ((breaks >= 2 || (breaks == 1 && doubled)) && i - line_start > 80) return true;
  }
  return false;
}

// glog and absl: "E0605 01:44:46.962916 26917 hl_cuda_cudnn.cc:171] ".
std::size_t glog_stamp(std::string_view s) {
  if (s.size() < 8 || !std::isupper(static_cast<unsigned char>(s[0])) || !is_digit(s[1]) ||
      !is_digit(s[4]) || s[5] != ' ')
    return 0;
  const std::size_t close = s.find("] ");
  return close != std::string_view::npos && close < 90 ? close + 2 : 0;
}

// "2024-01-01 10:00:00,123 ", "2019-12-24 05:34:15.862520: ", "2023-10-12T15:26:03.891Z ".
std::size_t time_stamp(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && (is_digit(s[n]) || s[n] == '-' || s[n] == ':' || s[n] == '.' ||
                          s[n] == ',' || s[n] == 'T' || s[n] == 'Z' || s[n] == '/' ||
                          (s[n] == ' ' && n + 1 < s.size() && is_digit(s[n + 1]))))
    ++n;
  if (n < 8 || s.substr(0, n).find(':') == std::string_view::npos) return 0;
  while (n < s.size() && (s[n] == ':' || s[n] == ' ')) ++n;
  return n;
}

// A level word after a stamp: "INFO ", "W ", "ERROR - ", "WARNING: ".
std::size_t level_word(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && std::isupper(static_cast<unsigned char>(s[n]))) ++n;
  if (n == 0 || n > 8 || n >= s.size() || (s[n] != ' ' && s[n] != ':')) return 0;
  while (n < s.size() && (s[n] == ' ' || s[n] == ':')) ++n;
  if (s.substr(n).starts_with("- ")) n += 2;  // Python logging's "INFO - "
  return n;
}

// Where the repr on the line starting at `from` opens: the quote before its first escaped break.
std::size_t repr_opening(std::string_view log, std::size_t from) {
  std::size_t quote = std::string_view::npos;
  for (std::size_t i = from; i < log.size() && log[i] != '\n'; ++i) {
    if (escaped_break(log, i)) return quote;
    if (quote == std::string_view::npos && (log[i] == '\'' || log[i] == '"')) quote = i;
  }
  return std::string_view::npos;
}

// The length of the terminal control sequence at the start of s (ECMA-48: CSI's parameters and
// final byte, an OSC's text up to BEL or ST, else ESC and one character): a coloured log pasted
// with its escapes ("\x1b[1m8.1.0\x1b[0m") holds its versions between them (helper 110).
std::size_t escape_length(std::string_view s) {
  if (s.size() < 2) return s.size();
  std::size_t i = 2;
  if (s[1] == '[') {
    while (i < s.size() && s[i] >= 0x20 && s[i] <= 0x3f) ++i;
    return i < s.size() && s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : i;
  }
  if (s[1] != ']') return 2;
  while (i < s.size() && s[i] != '\a' && !(s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '\\'))
    ++i;
  return i < s.size() ? i + (s[i] == '\a' ? 1 : 2) : i;
}

}  // namespace

std::string restored(std::string_view log) {
  const bool entities = log.find('&') != std::string_view::npos;
  const bool repr = has_repr(log);
  const bool escapes = log.find('\x1b') != std::string_view::npos;
  if (!entities && !repr && !escapes) return {};
  std::string out;
  out.reserve(log.size());
  std::size_t opening = std::string_view::npos;  // the quote that opens this line's repr
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (repr && (i == 0 || log[i - 1] == '\n')) opening = repr_opening(log, i);
    if (i == opening) {
      out += '\n';  // "RuntimeError: '" is no part of the log's first line
      continue;
    }
    if (repr && escaped_break(log, i)) {
      out += '\n';
      ++i;
      continue;
    }
    if (log[i] == '\x1b') {
      i += escape_length(log.substr(i)) - 1;
      continue;
    }
    if (log[i] == '&') {
      const std::string_view rest = log.substr(i);
      const auto e = std::find_if(kEntities.begin(), kEntities.end(),
                                  [&](const Entity &x) { return rest.starts_with(x.name); });
      if (e != kEntities.end()) {
        out += e->c;
        i += e->name.size() - 1;
        continue;
      }
    }
    out += log[i];
  }
  return out;
}

std::string_view unquoted(std::string_view line) {
  for (bool again = true; again;) {
    again = false;
    if (line.starts_with("> ") || line == ">") {
      line.remove_prefix(std::min<std::size_t>(2, line.size()));
      again = true;
    }
    for (std::string_view mark : {"```", "`", "**"})
      if (line.starts_with(mark)) line.remove_prefix(mark.size()), again = true;
  }
  for (std::string_view mark : {"`", "**"})
    while (line.ends_with(mark)) line.remove_suffix(mark.size());
  // docker compose: "facefusion-docker-facefusion-cuda-1  | Could not load library ...".
  std::size_t n = 0;
  while (n < line.size() && (std::isalnum(static_cast<unsigned char>(line[n])) || line[n] == '-' ||
                             line[n] == '_' || line[n] == '.'))
    ++n;
  std::size_t bar = n;
  while (bar < line.size() && line[bar] == ' ') ++bar;
  if (n > 0 && bar > n && bar + 1 < line.size() && line[bar] == '|' && line[bar + 1] == ' ')
    line.remove_prefix(bar + 2);
  return line;
}

std::string_view body_of(std::string_view line) {
  std::string_view s = line;
  for (bool again = true; again;) {
    again = false;
    std::size_t n = glog_stamp(s);
    if (!n) n = time_stamp(s);
    if (n) s.remove_prefix(n), again = true;
    if (n) s.remove_prefix(level_word(s));
    if (s.starts_with('[')) {
      const std::size_t close = s.find(']');
      if (close != std::string_view::npos && close < 40) {
        s.remove_prefix(close + 1);
        while (s.starts_with(' ')) s.remove_prefix(1);
        again = true;
      }
    }
  }
  return s;
}

}  // namespace cudnn_compat::explain
