// explain_score: how explain reads a set of real messages of the form of tests/explain/*.jsonl,
// as written and cut by a terminal at each width asked for - a measure to run by hand, not a
// test (the corpus test holds the sets in the tree to what they promise):
//
//   build/bin/explain_score [--verbose] [--cut WIDTH]... SET.jsonl...
//
// e.g. the third held-out set as first committed, and every set cut at the widths terminals have:
//
//   build/bin/explain_score <(git show fe046bd:tests/explain/held-out-3.jsonl)
//   build/bin/explain_score --cut 80 --cut 100 --cut 120 --cut 132 --cut 160 tests/explain/*.jsonl
//
// Prints one line a set and width ("name: right/total read right (%), n misleading") and the
// sources read wrong or misleadingly; --verbose, what was found in each of them. Exits 1 when a
// set holds no message or any reading misleads, 2 on a wrong argument.
#include "explain_corpus.h"
#include "text.h"

#include <iostream>

int main(int argc, char **argv) {
  using namespace cudnn_compat;
  std::vector<std::size_t> widths{0};  // 0: as written
  std::vector<std::string> sets;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--verbose") {
      verbose = true;
    } else if (arg == "--cut" && i + 1 < argc) {
      const std::optional<std::int64_t> width = parse_uint(argv[++i], 4);
      if (!width || *width == 0) {
        std::cerr << "explain_score: --cut takes a width in columns, not " << quoted(argv[i])
                  << "\n";
        return 2;
      }
      widths.push_back(std::size_t(*width));
    } else if (arg.starts_with("-") && arg.size() > 1) {
      std::cerr << "usage: explain_score [--verbose] [--cut WIDTH]... SET.jsonl...\n";
      return 2;
    } else {
      sets.emplace_back(arg);
    }
  }
  if (sets.empty()) {
    std::cerr << "usage: explain_score [--verbose] [--cut WIDTH]... SET.jsonl...\n";
    return 2;
  }
  bool ok = true;
  for (const std::string &set : sets)
    for (const std::size_t width : widths) {
      const corpus::Score s = corpus::score(set, width, verbose ? &std::cout : nullptr);
      corpus::print(std::cout, width ? set + " cut at " + std::to_string(width) : set, s);
      ok = ok && s.total > 0 && s.misleading == 0;
    }
  return ok ? 0 : 1;
}
