#include "probes.h"

#include "protocol.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace cudnn_compat {

int take_shim_probe_fd() {
  struct stat st {};
  // Only a pipe: a shim that passed none leaves the number closed.
  if (fstat(CUDNN_COMPAT_PROBE_FD, &st) != 0 || !S_ISFIFO(st.st_mode)) return -1;
  fcntl(CUDNN_COMPAT_PROBE_FD, F_SETFD, FD_CLOEXEC);
  return CUDNN_COMPAT_PROBE_FD;
}

bool table_knows(const std::vector<KnownLibrary> &known, const FileStamp &file) {
  return std::any_of(known.begin(), known.end(), [&](const KnownLibrary &k) {
    return k.ino == file.ino && k.size == file.size && k.mtime_ns == file.mtime_ns;
  });
}

Probes::Probes(Clock::time_point deadline, Grounds &grounds, ShimProbe shim)
    : deadline_(deadline), grounds_(grounds), shim_(std::move(shim)) {
  helper_ =
      (std::filesystem::path(program_path().value_or("")).parent_path() / "cudnn-compat-probe")
          .string();
}

// An early probe nobody asked for (the decision settled before it) is waited for: nothing of
// the engine's may outlive it. The shim's probe, not taken, ends with the engine's group.
Probes::~Probes() {
  if (shim_.fd >= 0) close(shim_.fd);
}

// Half of what is left, so that one library that hangs leaves time for the next candidate.
long Probes::budget_ms() const {
  const long left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
  return std::max<long>(left / 2, std::min<long>(left, 500));
}

// A check that could not run, or used all the time it had, is no answer to remember: the next
// process may have more time, or room for a process.
LibraryCheck Probes::judged(LibraryCheck c, Clock::time_point started, long budget) {
  // Its answer holds while its sub-libraries do: one replaced (a pip upgrade cut short, a copy
  // by hand) mixes the family that the probe found whole, or mends the one it found mixed.
  for (const std::string &f : c.probe ? c.probe->family : c.family) grounds_.file(f);
  if (!c.probe &&
      (!c.not_run.empty() || Clock::now() - started >= std::chrono::milliseconds(budget)))
    grounds_.keep = false;
  return c;
}

void Probes::start(const std::string &file, const std::vector<KnownLibrary> &known) {
  const std::optional<FileStamp> id = stamp_file(file);
  if (!id || table_knows(known, *id) || budget_ms() <= 0) return;
  grounds_.file(file);
  Early e{*id, {}, Clock::now(), budget_ms()};
  // The shim's probe of this very file (the thread takes its fd), or none (~Probes closes it).
  const int shim = shim_.fd >= 0 && stamp_file(shim_.file) == id ? shim_.fd : -1;
  try {
    e.answer = std::async(std::launch::async, [helper = helper_, file, budget = e.budget_ms, shim] {
      if (shim >= 0)
        if (std::optional<LibraryCheck> said = read_probe_answer(shim, file, int(budget)))
          return *said;
      return check_library(file, {helper, int(budget)});
    });
  } catch (const std::system_error &) {
    return;  // no thread to be had (ulimit -u): the probe runs when it is asked for
  }
  if (shim >= 0) shim_.fd = -1;  // the thread's now
  early_ = std::move(e);
}

// The file is a ground already: the engine records every file it asks about (main.cc).
LibraryCheck Probes::operator()(const std::string &file) {
  if (early_ && stamp_file(file) == early_->file) {
    Early e = std::move(*early_);
    early_.reset();
    return judged(e.answer.get(), e.started, e.budget_ms);
  }
  const long budget = budget_ms();
  if (budget <= 0) return judged({std::nullopt, "no time was left of CUDNN_COMPAT_TIMEOUT"}, {}, 0);
  const auto started = Clock::now();
  return judged(check_library(file, {helper_, int(budget)}), started, budget);
}

}  // namespace cudnn_compat
