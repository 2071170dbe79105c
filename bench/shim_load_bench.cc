// The first cuDNN load of a job under the shim (issue 9), against the plain dlopen of the same
// library in the same run: with the map's decision table knowing both the library the loader
// finds and the one to hand over (no process started), with the loader finding a library the
// table does not know (the engine starts and probes that one), with no table at all (every library
// probed), and in a host with 4 GB touched (the engine's start must not grow with the host's
// memory). The library is the real cuDNN 9 under /usr/local/cuda/lib64 where the machine has it,
// else the FAKE 9.1.0; the loader finds FAKE 9.0.0 first, which does not fit the 9.1 required.
//
//   shim_load_bench SHIM CUDNN_COMPAT FAKES [BENCHMARKS.md]
//   shim_load_bench --child GB NAME   (run by itself: touches GB gigabytes, then dlopens NAME)
#include "cudnn_compat.h"
#include "process.h"
#include "report.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;

int child(long gigabytes, const char *name) {
  const std::size_t bytes = std::size_t(gigabytes) << 30;
  if (bytes) {
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    std::memset(p, 1, bytes);  // touched: page tables a fork would copy
  }
  const auto start = Clock::now();
  void *lib = dlopen(name, RTLD_NOW);
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  // The baseline opens the library by path in the job's environment, where the dispatcher would
  // take its sub-libraries from the misfit on LD_LIBRARY_PATH: only the load is timed there.
  const bool by_path = std::strchr(name, '/') != nullptr;
  const auto version = lib && !by_path
                           ? reinterpret_cast<std::size_t (*)()>(dlsym(lib, "cudnnGetVersion"))
                           : nullptr;
  std::printf("%f %zu\n", us, version ? version() : 0);
  return 0;
}

std::string self_path() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).string();
}

// The version the library reports, loaded in a child without the shim.
std::string real_version(const std::string &self, const std::string &dir) {
  const Run r = spawn({self, "--child", "0", "libcudnn.so.9"}, {"LD_LIBRARY_PATH=" + dir});
  const std::string number = r.out.substr(r.out.find(' ') + 1);
  const auto v = cudnn_compat::parse_cudnn_number(number.substr(0, number.find('\n')));
  return v ? cudnn_compat::to_string(*v) : "?";
}

// How many processes one load starts: execve calls after the child's own, under strace -f.
int processes_started(const std::string &self, const std::vector<std::string> &env) {
  const std::string log = fs::temp_directory_path() / "cudnn-compat-load-bench.strace";
  spawn({"/usr/bin/strace", "-f", "-qq", "-e", "trace=execve", "-o", log, self, "--child", "0",
         "libcudnn.so.9"},
        env);
  std::ifstream in(log);
  int execs = -1;
  for (std::string line; std::getline(in, line);)
    execs += line.find("execve(") != std::string::npos;
  fs::remove(log);
  return execs;
}

// Each round with 4 GB touched costs about two seconds (two children touch it); 13 give a
// stable median in well under a minute.
constexpr int kRounds4 = 13;

// The machine's 1-minute load average: process starts wait for a CPU on a busy machine, so the
// engine's rows mean little without it.
std::string load_average() {
  std::string one;
  std::ifstream("/proc/loadavg") >> one;
  return one.empty() ? "?" : one;
}

struct Case {
  std::vector<std::string> env;
  std::string name;  // what the child dlopens
  std::vector<double> us;
  std::string gigabytes = "0";  // touched by the child first
};

}  // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--child") == 0) return child(std::atol(argv[2]), argv[3]);
  if (argc < 4) {
    std::fprintf(stderr, "usage: shim_load_bench SHIM CUDNN_COMPAT FAKES [BENCHMARKS.md]\n");
    return 2;
  }
  const std::string shim = argv[1], tool = argv[2], fakes = argv[3], self = self_path();
  const bool real = fs::exists("/usr/local/cuda/lib64/libcudnn.so.9");
  const std::string lib = real ? "/usr/local/cuda/lib64" : fakes + "/9.1.0/lib64",
                    other = fakes + "/9.0.0/lib64", version = real_version(self, lib);
  const fs::path dir = fs::temp_directory_path() / "cudnn-compat-load-bench";
  fs::create_directories(dir);
  const std::string map = dir / "map.toml";
  std::ofstream(map) << "schema = 1\n[[cudnn]]\nversion = \"9.0.0\"\nlib = \"" << other
                     << "\"\n[[cudnn]]\nversion = \"" << version << "\"\nlib = \"" << lib << "\"\n";
  spawn({tool, "map", "validate", map}, {});  // writes map.toml.decide

  // A user's own copy of FAKE 9.0.0, which no table knows: the engine must start and probe it.
  const std::string unknown_release = dir / "own-9.0.0", unknown = unknown_release + "/lib64";
  fs::copy(fakes + "/9.0.0", unknown_release,
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  auto job = [&](const std::string &found_first) {
    return std::vector<std::string>{"LD_LIBRARY_PATH=" + found_first, "CUDNN_COMPAT_MAP=" + map,
                                    "CUDNN_COMPAT_REQUIRE=9.1"};
  };
  auto with = [&](std::vector<std::string> e, const std::string &mode) {
    e.push_back(mode + "=" + shim);
    return e;
  };
  // The baseline: the same process, environment and library, opened by its path without a shim.
  Case plain{job(other), lib + "/libcudnn.so.9", {}},
      audit{with(job(other), "LD_AUDIT"), "libcudnn.so.9", {}},
      preload{with(job(other), "LD_PRELOAD"), "libcudnn.so.9", {}};
  auto measure = [&](std::vector<Case *> cases, int rounds) {
    for (Case *c : cases) c->us.clear();
    for (int i = 0; i < rounds; ++i)
      for (Case *c : cases) {
        const Run r = spawn({self, "--child", c->gigabytes, c->name}, c->env);
        if (r.out.empty()) {
          std::fprintf(stderr, "shim_load_bench: the child loading %s printed nothing\n",
                       c->name.c_str());
          std::exit(1);
        }
        c->us.push_back(std::stod(r.out));
      }
  };
  const std::string load_before = load_average();
  const int known_processes = processes_started(self, audit.env);
  measure({&plain, &audit, &preload}, 30);
  const double plain0 = median(plain.us), known_audit = median(audit.us),
               known_preload = median(preload.us);

  plain.env = job(unknown), audit.env = with(job(unknown), "LD_AUDIT");
  preload.env = with(job(unknown), "LD_PRELOAD");
  const int unknown_processes = processes_started(self, audit.env);
  measure({&plain, &audit, &preload}, 30);
  const double plain0b = median(plain.us), engine_audit0 = median(audit.us),
               engine_preload0 = median(preload.us);
  // The 4 GB cases interleaved with 0 GB ones in the same rounds, so that both ratios of the
  // target see the same machine (a shared one's load drifts over minutes).
  Case plain4{plain.env, plain.name, {}, "4"}, audit4{audit.env, audit.name, {}, "4"};
  measure({&plain, &audit, &plain4, &audit4}, kRounds4);
  const double plain0i = median(plain.us), engine_audit0i = median(audit.us),
               plain4_us = median(plain4.us), engine_audit4 = median(audit4.us);

  fs::remove(cudnn_compat::table_path(
      map, cudnn_compat::TableKind::decide));  // nothing known: the engine probes every library it
                                               // weighs
  const int engine_processes = processes_started(self, audit.env);
  measure({&plain, &audit}, 30);
  const double plain0c = median(plain.us), notable_audit0 = median(audit.us);
  fs::remove_all(dir);

  std::ostringstream s;
  s << "## The shim's first cuDNN load (issue 9)\n\n"
    << "`bench/shim_load_bench`: the first `dlopen(\"libcudnn.so.9\")` of a process, against the "
       "plain dlopen of the same\nlibrary by its path, in the same process and environment "
       "without the shim (cuDNN "
    << version << (real ? ", the real one" : ", FAKE") << ") in the same run, medians of 30 ("
    << kRounds4
    << " with 4 GB touched), plain and shim interleaved. Under the shim the loader finds\n"
       "FAKE 9.0.0 first (the map's, or a user's own copy the table does not know) and 9.1 is\n"
       "required, so the shim hands over "
    << version << ". Processes counted with `strace -f -e trace=execve`. Load average at the\n"
    << "start and the end of the run: " << load_before << " and " << load_average() << " on "
    << std::thread::hardware_concurrency() << " CPUs.\n\n"
    << "| case | plain dlopen | with shim | ratio | target |\n|---|---:|---:|---:|---|\n";
  auto row = [&](const std::string &what, double base, double value, const std::string &target) {
    s << "| " << what << " | " << fmt(base) << " us | " << fmt(value) << " us | "
      << fmt(value / base) << "x | " << target << " |\n";
  };
  row("table knows both libraries, LD_AUDIT", plain0, known_audit, "at most 1.5x");
  row("table knows both libraries, LD_PRELOAD", plain0, known_preload, "at most 1.5x");
  row("the loader's library unknown to the table, LD_AUDIT", plain0b, engine_audit0, "at most 3x");
  row("the loader's library unknown to the table, LD_PRELOAD", plain0b, engine_preload0,
      "at most 3x");
  row("the loader's library unknown to the table, LD_AUDIT, 4 GB touched", plain4_us, engine_audit4,
      "measured");
  row("no table at all (every library probed), LD_AUDIT", plain0c, notable_audit0, "measured");
  // The target: the 4 GB row's ratio against the 0 GB row's, each against its own plain
  // dlopen, both from the interleaved rounds; the absolute times of the engine's load beside it.
  const double ratio0 = engine_audit0i / plain0i, ratio4 = engine_audit4 / plain4_us;
  s << "| the 4 GB row's ratio against the 0 GB row's (LD_AUDIT, library unknown; the " << kRounds4
    << " interleaved rounds) | " << fmt(ratio0) << "x | " << fmt(ratio4) << "x | "
    << fmt(ratio4 / ratio0) << "x | at most 1.2x |\n"
    << "| the engine's load with 4 GB touched against 0 GB, absolute (the same rounds) | "
    << fmt(engine_audit0i) << " us | " << fmt(engine_audit4) << " us | "
    << fmt(engine_audit4 / engine_audit0i) << "x | measured |\n"
    << "| processes started by the decision, table knows | | " << known_processes
    << " | | 0 |\n| processes started by the decision, loader's library unknown | | "
    << unknown_processes << " | | measured |\n| processes started by the decision, no table | | "
    << engine_processes << " | | measured |\n";
  std::fputs(s.str().c_str(), stdout);
  if (argc > 4) write_benchmarks_section(argv[4], "shim-load", s.str());
  return 0;
}
