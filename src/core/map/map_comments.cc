// scan --merge writes the map from what it read (format_map), which has no comments: the admin's
// are carried over from the old text to the lines of the merged one that say the same.
#include "map.h"
#include "text.h"

#include <algorithm>
#include <map>

namespace cudnn_compat {
namespace {

struct Line {
  std::string_view raw;  // as written, without a CR
  std::string code;      // without its comment and the blanks TOML ignores: "" for none
  std::string comment;   // from its '#' on; "" for none
};

// A '#' inside a string is no comment, and `prefer="oldest"` says what `prefer = "oldest"` says.
Line read_line(std::string_view raw) {
  if (raw.ends_with('\r')) raw.remove_suffix(1);
  Line l{raw, {}, {}};
  char quote = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (!quote && c == '#') {  // with the blanks before it: spaced as the admin spaced it
      std::size_t from = i;
      while (from > 0 && (raw[from - 1] == ' ' || raw[from - 1] == '\t')) --from;
      l.comment = std::string(raw.substr(from));
      break;
    }
    if (!quote && (c == ' ' || c == '\t')) continue;
    l.code += c;
    if (quote == '"' && c == '\\' && i + 1 < raw.size())
      l.code += raw[++i];
    else if (quote && c == quote)
      quote = 0;
    else if (!quote && (c == '"' || c == '\''))
      quote = c;
  }
  return l;
}

std::vector<Line> read_lines(std::string_view text) {
  std::vector<Line> lines;
  for (std::string_view raw : split(text, '\n')) lines.push_back(read_line(raw));
  if (!lines.empty() && lines.back().raw.empty()) lines.pop_back();  // the text's last newline
  return lines;
}

// Each line's table, told apart from the other tables of its name by the keys that say which
// entry it is (a [[cudnn]]'s lib, a [[require]]'s match and cudnn, a [[node]]'s name): a merge
// may reorder entries and change a version, never these. "" before the first table.
std::vector<std::string> tables_of(const std::vector<Line> &lines) {
  std::vector<std::string> of(lines.size());
  std::size_t start = 0;
  for (std::size_t i = 0; i <= lines.size(); ++i) {
    if (i < lines.size() && !(lines[i].code.starts_with('[') && i > start)) continue;
    std::string id = start < lines.size() && lines[start].code.starts_with('[') ? lines[start].code
                                                                                : std::string();
    std::vector<std::string> keys;
    for (std::size_t k = start; k < i; ++k)
      for (std::string_view key : {"lib=", "match=", "cudnn=", "name="})
        if (lines[k].code.starts_with(key)) keys.push_back(lines[k].code);
    std::sort(keys.begin(), keys.end());
    for (const std::string &k : keys) id += "\n" + k;
    for (std::size_t k = start; k < i; ++k) of[k] = id;
    start = i;
  }
  return of;
}

// The comments that go with one line: the full-line ones above it, and its own.
struct Attached {
  std::vector<std::string_view> above;
  std::string after;
};
using Anchors = std::multimap<std::pair<std::string, std::string>, Attached>;

}  // namespace

CarriedComments carry_comments(std::string_view old_text, std::string_view new_text) {
  const std::vector<Line> old_lines = read_lines(old_text);
  const std::vector<std::string> old_tables = tables_of(old_lines);
  Anchors anchors;
  std::vector<std::string_view> above;  // waiting for the line they stand above
  for (std::size_t i = 0; i < old_lines.size(); ++i) {
    const Line &l = old_lines[i];
    if (l.code.empty()) {
      if (!l.comment.empty()) above.push_back(trim(l.raw));
      continue;
    }
    if (!above.empty() || !l.comment.empty())
      anchors.emplace(std::pair(old_tables[i], l.code), Attached{std::move(above), l.comment});
    above.clear();
  }
  const std::vector<Line> new_lines = read_lines(new_text);
  const std::vector<std::string> new_tables = tables_of(new_lines);
  CarriedComments out;
  for (std::size_t i = 0; i < new_lines.size(); ++i) {
    const auto at = anchors.find(std::pair(new_tables[i], new_lines[i].code));
    if (at == anchors.end()) {
      out.text.append(new_lines[i].raw).append("\n");
      continue;
    }
    for (std::string_view c : at->second.above) out.text.append(c).append("\n");
    out.text.append(new_lines[i].raw);
    out.text.append(at->second.after);
    out.text.append("\n");
    anchors.erase(at);
  }
  for (std::string_view c : above) out.text.append(c).append("\n");  // the map's last lines
  out.lost = !anchors.empty();
  return out;
}

}  // namespace cudnn_compat
