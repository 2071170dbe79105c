// How explain reads a set of real messages (tests/explain/*.jsonl: one JSON object a line, with
// its message, its source and what it records), shared by the corpus test (explain_corpus_test.cc)
// and the explain_score tool (explain_score.cc).
//
// Read right: a finding of the expected kind whose versions, library, missing dependency, stage
// and GPU are the ones the line records; for a message that is no cuDNN version problem (kind
// null), no version finding at all. Misleading: a version finding on such a message, or one of
// the expected kind with other versions than the message gave.
#pragma once

#include "cudnn_compat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

namespace cudnn_compat::corpus {

struct Score {
  int total = 0, right = 0, misleading = 0;
  std::vector<std::string> wrong, misled;
};

inline std::string str(const std::optional<Version> &v) {
  return v ? to_string(*v) : "";
}

inline std::string field(const Finding &f, const std::string &key) {
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

inline bool version_kind(FindingKind k) {
  return k != FindingKind::arch_mismatch && k != FindingKind::driver_too_old &&
         k != FindingKind::unknown;
}

inline bool matches(const nlohmann::json &ex, const Finding &f) {
  if (to_string(f.kind) != ex["kind"].get<std::string>()) return false;
  for (const char *key :
       {"runtime", "built_with", "required", "library", "missing", "stage", "gpu", "driver"})
    if (ex.contains(key) && ex[key].is_string() && field(f, key) != ex[key].get<std::string>())
      return false;
  return true;
}

inline bool misleading(const nlohmann::json &ex, const std::vector<Finding> &found) {
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

inline bool read_right(const nlohmann::json &ex, const std::vector<Finding> &found) {
  return ex["kind"].is_null() ? std::none_of(found.begin(), found.end(),
                                             [](const Finding &f) { return version_kind(f.kind); })
                              : std::any_of(found.begin(), found.end(),
                                            [&](const Finding &f) { return matches(ex, f); });
}

// A terminal's wrap: every line cut at `width` columns (UTF-8 characters), anywhere.
inline std::string cut_at(const std::string &text, std::size_t width) {
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

// The messages of the set at path; none when it cannot be read.
inline std::vector<nlohmann::json> examples(const std::string &path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

// Every message of the set read, as written or cut by a terminal at `cut` columns (0: not cut);
// `findings`, when given, is told what was found in each message read wrong or misleadingly.
inline Score score(const std::string &path, std::size_t cut = 0, std::ostream *findings = nullptr) {
  Score s;
  for (const nlohmann::json &ex : examples(path)) {
    const std::string message = ex["message"].get<std::string>();
    const std::vector<Finding> found = find_errors(cut ? cut_at(message, cut) : message);
    ++s.total;
    const bool right = read_right(ex, found);
    s.right += right;
    const bool misled = misleading(ex, found);
    s.misleading += misled;
    if (!right) s.wrong.push_back(ex["source"].get<std::string>());
    if (misled) s.misled.push_back(ex["source"].get<std::string>());
    if ((!right || misled) && findings)
      for (const Finding &f : found)
        *findings << "    " << ex["source"].get<std::string>() << ": " << to_string(f.kind)
                  << " runtime=" << str(f.runtime) << " built=" << str(f.built_with)
                  << " required=" << str(f.required) << " library=" << f.library << " | "
                  << f.text.substr(0, 300) << "\n";
  }
  return s;
}

// "name: 15/16 read right (93.75%), 0 misleading" and the sources of the messages not read right.
inline void print(std::ostream &out, const std::string &name, const Score &s) {
  out << name << ": " << s.right << "/" << s.total << " read right ("
      << (s.total ? 100.0 * s.right / s.total : 0.0) << "%), " << s.misleading << " misleading\n";
  for (const std::string &source : s.wrong) out << "  read wrong: " << source << "\n";
  for (const std::string &source : s.misled) out << "  misleading: " << source << "\n";
}

}  // namespace cudnn_compat::corpus
