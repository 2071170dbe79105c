// What a decision rests on besides the request and the variables it read: the memo keeps it only
// while each of these files is as it was (shim/shared/memo_format.h).
#pragma once

#include "system.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudnn_compat {

struct Grounds {
  std::vector<std::pair<std::string, std::optional<FileIdentity>>> files;
  bool keep = true;              // false: a probe ran out of time, or a file changed just now
  std::uint64_t started_ns = 0;  // CLOCK_REALTIME, as file times are
  // Records path as it is now (nullopt: not there), once.
  void file(const std::string &path) { add(path, true); }
  // The same for a file only ever replaced whole, written aside and renamed (the node file): each
  // write is a new inode, so no change can keep its identity, and one just written - by this
  // engine, or by another of the node deciding at the same moment - is no reason to keep nothing.
  void replaced_whole(const std::string &path) { add(path, false); }

 private:
  void add(const std::string &path, bool racy) {
    if (std::any_of(files.begin(), files.end(), [&](const auto &f) { return f.first == path; }))
      return;
    const std::optional<FileIdentity> id = identify_file(path);
    if (racy && id && changed_lately(*id, started_ns)) keep = false;
    files.emplace_back(path, id);
  }
};

}  // namespace cudnn_compat
