// The engine's probes: the library's own word, within what is left of the shim's deadline (the
// decision table's word for a library it knows is taken before, by engine_io). A check that could
// not run, or ran out of time, is no ground for the memo.
#pragma once

#include "decide.h"
#include "grounds.h"

#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <vector>

namespace cudnn_compat {

class Probes {
 public:
  using Clock = std::chrono::steady_clock;
  Probes(Clock::time_point deadline, Grounds &grounds);
  ~Probes();
  Probes(const Probes &) = delete;
  Probes &operator=(const Probes &) = delete;

  // Starts the probe of file now, in the background, unless the table knows it: the loader's own
  // file, whose probe is most of a decision's time, runs while the engine reads the map.
  void start(const std::string &file, const std::vector<KnownLibrary> &known);
  // What file reports.
  LibraryCheck operator()(const std::string &file);

 private:
  struct Early {
    FileStamp file;  // by identity: the loader's emulation may name it otherwise
    std::future<LibraryCheck> answer;
    Clock::time_point started;
    long budget_ms = 0;
  };
  long budget_ms() const;
  LibraryCheck judged(LibraryCheck c, Clock::time_point started, long budget);

  Clock::time_point deadline_;
  Grounds &grounds_;
  std::string helper_;
  std::optional<Early> early_;
};

// Whether the table knows the file with this identity.
bool table_knows(const std::vector<KnownLibrary> &known, const FileStamp &file);

}  // namespace cudnn_compat
