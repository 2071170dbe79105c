#include "process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

extern char **environ;

Run spawn(const std::vector<std::string> &argv, const std::vector<std::string> &extra_env) {
  std::vector<std::string> env_strings(extra_env);
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0 && std::strncmp(*e, "LD_AUDIT=", 9) != 0)
      env_strings.push_back(*e);
  std::vector<char *> envp, args;
  for (std::string &s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy(argv);
  for (std::string &s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  int fds[2];
  if (pipe(fds) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  // Else the child, and any daemon it leaves behind, holds the pipe open and read() never ends.
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  Run r;
  pid_t pid;
  const auto start = Clock::now();
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data()) != 0) pid = -1;
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) r.out.append(buf, std::size_t(n));
  close(fds[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  r.us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  posix_spawn_file_actions_destroy(&actions);
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string memo_off(const std::string &dir) {
  namespace fs = std::filesystem;
  const fs::path run = fs::path(dir) / "run";
  fs::create_directories(run);
  fs::permissions(run, fs::perms::owner_all, fs::perm_options::replace);
  std::ofstream(run / "cudnn-compat") << "";
  return "XDG_RUNTIME_DIR=" + run.string();
}
