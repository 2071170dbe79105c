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

// The probe the shim started beside the engine (shared/protocol.h, PROBE): the file it loads and
// the fd its output comes on (-1: none).
struct ShimProbe {
  std::string file;
  int fd = -1;
};

// The shim's probe's fd, taken before the engine opens anything (so that fd is not a file of the
// engine's own) and kept from the engine's own probes; -1 when the shim passed none.
int take_shim_probe_fd();

class Probes {
 public:
  using Clock = std::chrono::steady_clock;
  Probes(Clock::time_point deadline, Grounds &grounds, ShimProbe shim = {});
  ~Probes();
  Probes(const Probes &) = delete;
  Probes &operator=(const Probes &) = delete;

  // Starts the probe of file now, in the background, unless the table knows it: the loader's own
  // file, whose probe is most of a decision's time, runs while the engine reads the map. Where
  // the shim's probe loads the same file, its answer is taken instead of starting one.
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
  ShimProbe shim_;
  std::optional<Early> early_;
};

// Whether the table knows the file with this identity.
bool table_knows(const std::vector<KnownLibrary> &known, const FileStamp &file);

}  // namespace cudnn_compat
