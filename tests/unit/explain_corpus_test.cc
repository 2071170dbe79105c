// explain on real messages copied from public issues and forums (tests/explain/*.jsonl, each with
// its source): every message of the tuning set read right, and the held-back set - gathered the
// same way but never looked at while the reader was tuned - measured and printed.
//
// Read right: a finding of the expected kind whose versions, library, missing dependency, stage
// and GPU are the ones the line records; for a message that is no cuDNN version problem (kind
// null), no version finding at all. Misleading: a version finding on such a message, or one of
// the expected kind with other versions than the message gave.
#include "cudnn_compat.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>

namespace cudnn_compat {
namespace {

struct Score {
  int total = 0, right = 0, misleading = 0;
  std::vector<std::string> wrong, misled;
};

std::string str(const std::optional<Version> &v) {
  return v ? to_string(*v) : "";
}

std::string field(const Finding &f, const std::string &key) {
  if (key == "runtime") return str(f.runtime);
  if (key == "built_with") return str(f.built_with);
  if (key == "required") return str(f.required);
  if (key == "library") return f.library;
  if (key == "missing") return f.missing;
  if (key == "stage") return f.build_time ? "build" : "run";
  if (key == "gpu") return str(f.gpu);
  if (key == "driver") return str(f.driver_cuda);
  return "?";
}

bool version_kind(FindingKind k) {
  return k != FindingKind::arch_mismatch && k != FindingKind::driver_too_old &&
         k != FindingKind::unknown;
}

bool matches(const nlohmann::json &ex, const Finding &f) {
  if (to_string(f.kind) != ex["kind"].get<std::string>()) return false;
  for (const char *key :
       {"runtime", "built_with", "required", "library", "missing", "stage", "gpu", "driver"})
    if (ex.contains(key) && ex[key].is_string() && field(f, key) != ex[key].get<std::string>())
      return false;
  return true;
}

bool misleading(const nlohmann::json &ex, const std::vector<Finding> &found) {
  for (const Finding &f : found) {
    if (ex["kind"].is_null()) {
      if (version_kind(f.kind)) return true;
      continue;
    }
    if (to_string(f.kind) != ex["kind"].get<std::string>()) continue;
    for (const char *key : {"runtime", "built_with"})
      if (ex.contains(key) && ex[key].is_string() && !field(f, key).empty() &&
          field(f, key) != ex[key].get<std::string>())
        return true;
  }
  return false;
}

// A terminal's wrap: every line cut at `width` columns (UTF-8 characters), anywhere.
std::string cut_at(const std::string &text, std::size_t width) {
  std::string out;
  std::size_t column = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts_char = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (text[i] == '\n') {
      column = 0;
    } else if (starts_char && column == width) {
      out += '\n';
      column = 1;
    } else if (starts_char) {
      ++column;
    }
    out += text[i];
  }
  return out;
}

// A web page's wrap: words moved to the next line past `width`, the space between them lost, a
// line's indentation kept.
std::string wrap_at(const std::string &text, std::size_t width) {
  std::string out;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    const std::size_t indent = std::min(line.size(), line.find_first_not_of(' '));
    std::string current = line.substr(0, indent);
    bool words = false;
    for (std::size_t w = indent; w < line.size();) {
      std::size_t e = line.find(' ', w);
      if (e == std::string::npos) e = line.size();
      const std::string word = line.substr(w, e - w);
      w = e + 1;
      if (word.empty()) {
        if (words) current += ' ';  // runs of spaces inside a line stay
        continue;
      }
      if (words && current.size() + 1 + word.size() > width) {
        while (!current.empty() && current.back() == ' ') current.pop_back();
        out += current + '\n';
        current.clear();
        words = false;
      }
      current += (words && current.back() != ' ' ? " " : "") + word;
      words = true;
    }
    out += current;
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

// Each line of text changed by f.
template <typename F>
std::string per_line(const std::string &text, F f) {
  std::string out;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    out += f(text.substr(at, end - at));
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

// The ways people paste a message: quoted in a mail, in Markdown's backticks, escaped by a web
// page's HTML, inside a Python repr that holds the log on one line, with Windows' line ends.
std::vector<std::string> pasted(const std::string &m) {
  std::string html, repr = "RuntimeError: '";
  for (char c : m) {
    if (c == '"')
      html += "&quot;";
    else if (c == '\'')
      html += "&#x27;";
    else if (c == '<')
      html += "&lt;";
    else if (c == '>')
      html += "&gt;";
    else if (c == '&')
      html += "&amp;";
    else
      html += c;
    if (c == '\n')
      repr += "\\n";
    else if (c == '\\')
      repr += "\\\\";
    else
      repr += c;
  }
  std::string crlf;
  for (char c : m) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return {per_line(m, [](const std::string &l) { return "> " + l; }),
          per_line(m, [](const std::string &l) { return l.empty() ? l : "`" + l + "`"; }), html,
          repr + "'", crlf};
}

bool read_right(const nlohmann::json &ex, const std::vector<Finding> &found) {
  return ex["kind"].is_null() ? std::none_of(found.begin(), found.end(),
                                             [](const Finding &f) { return version_kind(f.kind); })
                              : std::any_of(found.begin(), found.end(),
                                            [&](const Finding &f) { return matches(ex, f); });
}

std::vector<nlohmann::json> examples(const std::string &path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

Score score(const std::string &path) {
  Score s;
  for (const nlohmann::json &ex : examples(path)) {
    const std::vector<Finding> found = find_errors(ex["message"].get<std::string>());
    ++s.total;
    const bool right = read_right(ex, found);
    s.right += right;
    const bool misled = misleading(ex, found);
    s.misleading += misled;
    if (!right) s.wrong.push_back(ex["source"].get<std::string>());
    if (misled) s.misled.push_back(ex["source"].get<std::string>());
    if ((!right || misled) && std::getenv("EXPLAIN_VERBOSE"))
      for (const Finding &f : found)
        std::cout << "    " << ex["source"].get<std::string>() << ": " << to_string(f.kind)
                  << " runtime=" << str(f.runtime) << " built=" << str(f.built_with)
                  << " required=" << str(f.required) << " library=" << f.library << " | "
                  << f.text.substr(0, 300) << "\n";
  }
  return s;
}

TEST(ExplainCorpus, ReadsEveryTuningMessage) {
  const Score s = score(EXPLAIN_TUNING);
  std::cout << "tuning set: " << s.right << "/" << s.total << " read right, " << s.misleading
            << " misleading\n";
  EXPECT_GT(s.total, 0);
  EXPECT_EQ(s.right, s.total);
  EXPECT_EQ(s.misleading, 0);
  for (const std::string &source : s.wrong) ADD_FAILURE() << "read wrong: " << source;
}

// A console or a page wrapping a message, or a person pasting it, changes nothing: every tuning
// message read the same - and never misleadingly - when a terminal cuts it at 80 or 120 columns,
// when a page wraps it at 72, and pasted in each way of pasted().
TEST(ExplainCorpus, ReadsEveryTuningMessageAsPasted) {
  int total = 0, right = 0;
  for (const nlohmann::json &ex : examples(EXPLAIN_TUNING)) {
    const std::string message = ex["message"].get<std::string>();
    std::vector<std::string> variants = pasted(message);
    for (std::string v : {cut_at(message, 80), cut_at(message, 120), wrap_at(message, 72)})
      variants.push_back(std::move(v));
    for (const std::string &wrapped : variants) {
      ++total;
      const std::vector<Finding> found = find_errors(wrapped);
      const bool ok = read_right(ex, found);
      right += ok;
      EXPECT_TRUE(ok) << ex["source"] << " wrapped:\n" << wrapped;
      EXPECT_FALSE(misleading(ex, found)) << ex["source"] << " misleading, wrapped:\n" << wrapped;
    }
  }
  std::cout << "tuning set wrapped and pasted: " << right << "/" << total << " read right\n";
}

// The held-back set is measured, not tuned on: the figure is printed for the report; what the
// test holds the reader to is the promise that matters most, never a misleading answer.
TEST(ExplainCorpus, MeasuresTheHeldBackSet) {
  const Score s = score(EXPLAIN_HELD_BACK);
  std::cout << "held-back set: " << s.right << "/" << s.total << " read right ("
            << (s.total ? 100.0 * s.right / s.total : 0.0) << "%), " << s.misleading
            << " misleading\n";
  EXPECT_GT(s.total, 0);
  EXPECT_EQ(s.misleading, 0);
}

// The third held-out set, gathered for issue 26 and scored before the reader changed: two
// thirds of it were then learnt from and moved into the tuning set; what stays (every third line,
// chosen before the first score) is the part never tuned on. EXPLAIN_SCORE names any other set of
// the same form to measure, e.g. the whole set as first committed.
void measure(const char *name, const std::string &path) {
  const Score s = score(path);
  std::cout << name << ": " << s.right << "/" << s.total << " read right ("
            << (s.total ? 100.0 * s.right / s.total : 0.0) << "%), " << s.misleading
            << " misleading\n";
  for (const std::string &source : s.wrong) std::cout << "  read wrong: " << source << "\n";
  for (const std::string &source : s.misled) std::cout << "  misleading: " << source << "\n";
  EXPECT_GT(s.total, 0);
  EXPECT_EQ(s.misleading, 0);
}

TEST(ExplainCorpus, MeasuresTheThirdHeldOutSet) {
  measure("held-out-3", EXPLAIN_HELD_OUT_3);
}

TEST(ExplainCorpus, MeasuresTheSetNamedByExplainScore) {
  const char *path = std::getenv("EXPLAIN_SCORE");
  if (!path) GTEST_SKIP() << "EXPLAIN_SCORE names no set";
  measure(path, path);
}

}  // namespace
}  // namespace cudnn_compat
