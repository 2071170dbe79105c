// Running a program (lib layer): an argv vector and no shell, what it writes captured, an optional
// deadline, and how it ended classified. The probe, the module systems and the CLI all start their
// children here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cudnn_compat {

enum class Output { inherit, capture, discard, into_stdout };  // into_stdout: stderr only

struct SpawnOptions {
  std::optional<std::vector<std::string>> env;  // "NAME=value" each; nullopt: the caller's
  bool search_path = false;                     // argv[0] looked up on PATH, else taken as a path
  Output out = Output::capture;
  Output err = Output::inherit;
  std::optional<int> timeout_ms;  // past it the child is killed (SIGKILL)
  // Default signal dispositions and none blocked: a child that crashes must crash visibly even
  // when the caller was started with every signal blocked or ignored.
  bool default_signals = false;
  std::size_t max_output = std::size_t(1) << 26;  // bytes kept per stream; the rest is dropped
};

struct SpawnResult {
  bool started = false;
  std::string error;             // why it did not start
  std::string out, err;          // what it wrote to captured streams
  bool timed_out = false;        // killed after timeout_ms
  std::optional<int> exit_code;  // it exited
  std::optional<int> signal;     // a signal ended it
};

SpawnResult spawn_process(const std::vector<std::string> &argv, const SpawnOptions &options = {});
// What a child another process started writes on fd (a pipe's read end), read as spawn_process
// reads its own children's streams: to its end or for timeout_ms, at most max bytes kept. fd is
// closed; timed_out says whether the time ran out first.
std::string read_stream(int fd, int timeout_ms, std::size_t max, bool &timed_out);
// The caller's environment with each "NAME=value" of set replacing or adding that name.
std::vector<std::string> environment_with(const std::vector<std::string> &set);

}  // namespace cudnn_compat
