#include "load_child.h"

#include "cudnn_compat.h"
#include "process.h"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
extern char **environ;

namespace {

void say(double us, std::size_t version) {
  rusage children{};
  getrusage(RUSAGE_CHILDREN, &children);
  const long cpu_us = (children.ru_utime.tv_sec + children.ru_stime.tv_sec) * 1000000L +
                      children.ru_utime.tv_usec + children.ru_stime.tv_usec;
  std::printf("%f %zu %ld %ld\n", us, version, children.ru_minflt, cpu_us);
}

int load(const char *name) {
  const auto start = Clock::now();
  void *lib = dlopen(name, RTLD_NOW);
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  // A baseline may open the library by path in the job's environment, where the dispatcher would
  // take its sub-libraries from a misfit on LD_LIBRARY_PATH: only the load is timed there.
  const bool by_path = std::strchr(name, '/') != nullptr;
  const auto version = lib && !by_path
                           ? reinterpret_cast<std::size_t (*)()>(dlsym(lib, "cudnnGetVersion"))
                           : nullptr;
  say(us, version ? version() : 0);
  return 0;
}

int touch_then_load(long gigabytes, const char *name) {
  const std::size_t bytes = std::size_t(gigabytes) << 30;
  if (bytes) {
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    std::memset(p, 1, bytes);
  }
  return load(name);
}

int gated_load(int ready, int gate, const char *name) {
  char byte = 1;
  if (write(ready, &byte, 1) != 1) return 1;
  close(ready);
  while (read(gate, &byte, 1) > 0) {
  }
  close(gate);
  return load(name);
}

int spawn_and_wait(char **argv) {
  const auto start = Clock::now();
  pid_t pid;
  int status = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv, environ) != 0) return 1;
  waitpid(pid, &status, 0);
  std::fflush(stdout);  // what the program printed comes first
  say(std::chrono::duration<double, std::micro>(Clock::now() - start).count(), 0);
  return 0;
}

}  // namespace

int load_child(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--child") == 0)
    return touch_then_load(std::atol(argv[2]), argv[3]);
  if (argc == 5 && std::strcmp(argv[1], "--gated") == 0)
    return gated_load(std::atoi(argv[2]), std::atoi(argv[3]), argv[4]);
  if (argc >= 3 && std::strcmp(argv[1], "--spawn") == 0) return spawn_and_wait(argv + 2);
  return -1;
}

std::string self_path() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).string();
}

std::string real_version(const std::string &self, const std::string &dir) {
  const Run r = spawn({self, "--child", "0", "libcudnn.so.9"}, {"LD_LIBRARY_PATH=" + dir});
  const std::string number = r.out.substr(r.out.find(' ') + 1);
  const auto v = cudnn_compat::parse_cudnn_number(number.substr(0, number.find(' ')));
  return v ? cudnn_compat::to_string(*v) : "?";
}

int processes_started(const std::string &self, const std::vector<std::string> &env) {
  const std::string log =
      fs::temp_directory_path() / ("cudnn-compat-bench-" + std::to_string(getpid()) + ".strace");
  spawn({"/usr/bin/strace", "-f", "-qq", "-e", "trace=execve,clone,clone3,fork,vfork", "-o", log,
         self, "--child", "0", "libcudnn.so.9"},
        env);
  std::ifstream in(log);
  int started = -1;  // the child's own execve
  for (std::string line; std::getline(in, line);)
    for (const char *call : {" execve(", " clone(", " clone3(", " fork(", " vfork("})
      started += line.find(call) != std::string::npos &&
                 line.find("CLONE_THREAD") == std::string::npos;  // a thread is no process
  fs::remove(log);
  return started;
}

Sample parse_sample(const std::string &out) {
  Sample s;
  const std::size_t end = out.find_last_not_of('\n');
  const std::size_t start = end == std::string::npos ? 0 : out.rfind('\n', end);
  std::istringstream in(out.substr(start == std::string::npos ? 0 : start));
  std::size_t version = 0;
  in >> s.us >> version >> s.descendant_faults >> s.descendant_cpu_us;
  return s;
}

double worst(const std::vector<double> &v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

std::vector<Sample> crowd(const std::string &self, const std::vector<std::string> &env, int n) {
  int gate[2], out[2], ready[2];
  if (pipe(gate) != 0 || pipe(out) != 0 || pipe(ready) != 0) return {};
  std::vector<std::string> env_strings(env);
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0 && std::strncmp(*e, "LD_AUDIT=", 9) != 0)
      env_strings.emplace_back(*e);
  std::vector<char *> envp;
  for (std::string &s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string ready_fd = std::to_string(ready[1]), gate_fd = std::to_string(gate[0]),
              name = "libcudnn.so.9", gated = "--gated", program = self;
  char *argv[] = {program.data(), gated.data(), ready_fd.data(),
                  gate_fd.data(), name.data(),  nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, gate[1]);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addclose(&actions, ready[0]);
  std::vector<pid_t> pids;
  for (int i = 0; i < n; ++i) {
    pid_t pid;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv, envp.data()) == 0) pids.push_back(pid);
  }
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(gate[0]);
  close(ready[1]);
  char byte;
  for (std::size_t k = 0; k < pids.size() && read(ready[0], &byte, 1) == 1;) ++k;  // all started
  close(ready[0]);
  close(gate[1]);
  std::string text;
  char buf[4096];
  for (ssize_t k; (k = read(out[0], buf, sizeof buf)) > 0;) text.append(buf, std::size_t(k));
  close(out[0]);
  for (pid_t pid : pids) waitpid(pid, nullptr, 0);
  std::vector<Sample> samples;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) samples.push_back(parse_sample(line));
  return samples;
}
