// One way to start a child: posix_spawn with pipes for what it writes, read with poll() so that
// neither stream can fill and block the child while the other is read, and a deadline.
#include "spawn_process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

namespace cudnn_compat {
namespace {

using Clock = std::chrono::steady_clock;

struct Stream {
  int fds[2] = {-1, -1};  // the pipe: read end, write end
  std::string *into = nullptr;
};

// Sets up where the child's stream `fd` goes; false (errno set) when a pipe cannot be made.
bool plan(Output how, int fd, Stream &s, std::string *into, posix_spawn_file_actions_t &actions) {
  if (how == Output::discard)
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0);
  if (how == Output::into_stdout) posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, fd);
  if (how != Output::capture) return true;
  if (pipe2(s.fds, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_adddup2(&actions, s.fds[1], fd);
  s.into = into;
  return true;
}

void close_fd(int &fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// One read of a stream; at its end (or an error) the stream is closed. False when it would block.
bool read_once(Stream &s, std::size_t max) {
  char buf[4096];
  const ssize_t got = read(s.fds[0], buf, sizeof buf);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return errno == EINTR;
  if (got <= 0)
    close_fd(s.fds[0]);
  else if (s.into->size() < max)
    s.into->append(buf, std::size_t(got));
  return got > 0;
}

// Reads what is in a stream now, without waiting for more, and closes it.
void read_ready(Stream &s, std::size_t max) {
  if (s.fds[0] < 0) return;
  fcntl(s.fds[0], F_SETFL, fcntl(s.fds[0], F_GETFL) | O_NONBLOCK);
  while (s.fds[0] >= 0 && read_once(s, max)) {
  }
  close_fd(s.fds[0]);
}

// Reads both streams to their end, or until the child has ended (child: its pidfd, or -1), or to
// the deadline; true when the deadline passed first. A child's end ends the reading even while a
// process it started holds the streams open (a probed library's constructor that forks): what the
// child wrote is in the pipes by then.
bool drain(Stream (&streams)[2], int child, std::optional<Clock::time_point> deadline,
           std::size_t max) {
  for (;;) {
    pollfd p[3];
    Stream *of[3] = {};
    nfds_t n = 0;
    for (Stream &s : streams)
      if (s.fds[0] >= 0) of[n] = &s, p[n++] = {s.fds[0], POLLIN, 0};
    if (n == 0) return false;
    if (child >= 0) p[n++] = {child, POLLIN, 0};
    int wait_ms = -1;
    if (deadline) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) return true;
      wait_ms = int(left);
    }
    const int ready = poll(p, n, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return false;
    if (ready == 0) return true;
    if (child >= 0 && p[n - 1].revents) {
      for (Stream &s : streams) read_ready(s, max);
      return false;
    }
    for (nfds_t i = 0; i < n; ++i)
      if (of[i] && p[i].revents) read_once(*of[i], max);  // only a ready stream: no read blocks
  }
}

void classify(int status, SpawnResult &r) {
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
}

}  // namespace

SpawnResult spawn_process(const std::vector<std::string> &argv, const SpawnOptions &options) {
  SpawnResult r;
  if (argv.empty()) {
    r.error = "nothing to run";
    return r;
  }
  std::vector<std::string> args_store(argv),
      env_store = options.env.value_or(std::vector<std::string>{});
  std::vector<char *> args, envp;
  for (std::string &a : args_store) args.push_back(a.data());
  args.push_back(nullptr);
  for (std::string &e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  Stream streams[2];
  const bool piped = plan(options.out, STDOUT_FILENO, streams[0], &r.out, actions) &&
                     plan(options.err, STDERR_FILENO, streams[1], &r.err, actions);
  const int pipe_error = piped ? 0 : errno;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  if (options.default_signals) {
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  pid_t pid = 0;
  const int rc = !piped                ? pipe_error
                 : options.search_path ? posix_spawnp(&pid, args[0], &actions, &attr, args.data(),
                                                      options.env ? envp.data() : environ)
                                       : posix_spawn(&pid, args[0], &actions, &attr, args.data(),
                                                     options.env ? envp.data() : environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  for (Stream &s : streams) close_fd(s.fds[1]);
  if (rc != 0) {
    for (Stream &s : streams) close_fd(s.fds[0]);
    r.error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;
  std::optional<Clock::time_point> deadline;
  if (options.timeout_ms) deadline = Clock::now() + std::chrono::milliseconds(*options.timeout_ms);
  // -1 on a kernel before 5.3: the streams are then read to their end, as before.
  int child = int(syscall(SYS_pidfd_open, pid, 0));
  r.timed_out = drain(streams, child, deadline, options.max_output);
  close_fd(child);
  for (Stream &s : streams) close_fd(s.fds[0]);
  if (r.timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  classify(status, r);
  return r;
}

std::string read_stream(int fd, int timeout_ms, std::size_t max, bool &timed_out) {
  std::string out;
  Stream streams[2];
  streams[0].fds[0] = fd, streams[0].into = &out;
  timed_out = drain(streams, -1, Clock::now() + std::chrono::milliseconds(timeout_ms), max);
  close_fd(streams[0].fds[0]);
  return out;
}

std::vector<std::string> environment_with(const std::vector<std::string> &set) {
  std::vector<std::string> out;
  const auto name_of = [](std::string_view e) { return e.substr(0, e.find('=') + 1); };
  for (char **e = environ; *e; ++e) {
    const std::string_view v = *e;
    bool replaced = false;
    for (const std::string &s : set) replaced = replaced || name_of(s) == name_of(v);
    if (!replaced) out.emplace_back(v);
  }
  out.insert(out.end(), set.begin(), set.end());
  return out;
}

}  // namespace cudnn_compat
