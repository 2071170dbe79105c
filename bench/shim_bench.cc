// What the shim costs, against the same work without it, measured in the same run and interleaved
// round by round (these machines are noisy): the start of /bin/true, its peak memory, a dlopen of
// an already loaded library, and the first redirected cuDNN load with the map read.
//
//   shim_bench SHIM FAKES [BENCHMARKS.md]
//   shim_bench --child dlopen|first-load   (run by itself, under the shim or not)
#include "cudnn_compat.h"
#include "process.h"
#include "report.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Child: ns per dlopen+dlclose of a library the process already holds (libm, through libstdc++).
int child_dlopen() {
  constexpr int n = 200'000;
  const auto start = Clock::now();
  for (int i = 0; i < n; ++i) dlclose(dlopen("libm.so.6", RTLD_NOW));
  std::printf("%f\n", std::chrono::duration<double, std::nano>(Clock::now() - start).count() / n);
  return 0;
}

// Child: us of the first dlopen of libcudnn.so.5 (the shim's engine and map included).
int child_first_load() {
  const auto start = Clock::now();
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  const auto version =
      lib ? reinterpret_cast<std::size_t (*)()>(dlsym(lib, "cudnnGetVersion")) : nullptr;
  std::printf("%f %zu\n", us, version ? version() : 0);
  return 0;
}

struct Row {
  std::string what;
  double base, value;
  std::string unit, target;
};

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0)
    return std::strcmp(argv[2], "dlopen") == 0 ? child_dlopen() : child_first_load();
  if (argc < 3) {
    std::fprintf(stderr, "usage: shim_bench SHIM FAKES [BENCHMARKS.md]\n");
    return 2;
  }
  const std::string shim = argv[1], fakes = argv[2];
  std::string self(4096, '\0');
  self.resize(std::size_t(std::max<ssize_t>(0, readlink("/proc/self/exe", self.data(), 4095))));
  const std::vector<std::string> audit{"LD_AUDIT=" + shim}, preload{"LD_PRELOAD=" + shim}, none;

  const std::string bin = self.substr(0, self.rfind('/'));
  const std::vector<std::string> null_audit{"LD_AUDIT=" + bin + "/libnull_audit.so"};

  // 1. /bin/true: start and peak memory, interleaved.
  std::vector<double> t_none, t_audit, t_preload, t_null, m_none, m_audit, m_preload;
  for (int i = 0; i < 3000; ++i) {
    Run a = spawn({"/bin/true"}, none), b = spawn({"/bin/true"}, audit),
        c = spawn({"/bin/true"}, preload), d = spawn({"/bin/true"}, null_audit);
    t_none.push_back(a.us), t_audit.push_back(b.us), t_preload.push_back(c.us);
    t_null.push_back(d.us);
  }
  // Peak memory through the static launcher beside this program (see launch.c).
  const std::string launch = bin + "/shim_bench_launch";
  for (int i = 0; i < 200; ++i) {
    m_none.push_back(std::atof(spawn({launch, "/bin/true"}, none).out.c_str()));
    m_audit.push_back(std::atof(spawn({launch, "/bin/true"}, audit).out.c_str()));
    m_preload.push_back(std::atof(spawn({launch, "/bin/true"}, preload).out.c_str()));
  }

  // 2. dlopen of an already loaded library, in a child with and without the shim.
  std::vector<double> d_none, d_preload, d_audit;
  for (int i = 0; i < 7; ++i) {
    d_none.push_back(std::stod(spawn({self, "--child", "dlopen"}, none).out));
    d_preload.push_back(std::stod(spawn({self, "--child", "dlopen"}, preload).out));
    d_audit.push_back(std::stod(spawn({self, "--child", "dlopen"}, audit).out));
  }

  // 3. The first cuDNN load: FAKE 5.0.5 first on the path, 5.1 required, 5.1.10 in the map.
  const std::string map = "/tmp/cudnn-compat-shim-bench.toml";
  std::ofstream(map) << "schema = 1\n[[cudnn]]\nversion = \"5.0.5\"\nlib = \"" << fakes
                     << "/5.0.5/lib64\"\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"" << fakes
                     << "/5.1.10/lib64\"\n";
  // The memo off: each first load is decided by the engine, as the first of a node is.
  const std::string memo_dir = map + ".run";
  const std::vector<std::string> job{"LD_LIBRARY_PATH=" + fakes + "/5.0.5/lib64",
                                     "CUDNN_COMPAT_MAP=" + map, "CUDNN_COMPAT_REQUIRE=5.1",
                                     memo_off(memo_dir)};
  std::vector<double> f_none, f_audit, f_preload;
  std::string redirected;
  for (int i = 0; i < 30; ++i) {
    std::vector<std::string> a(job), p(job);
    a.insert(a.end(), audit.begin(), audit.end());
    p.insert(p.end(), preload.begin(), preload.end());
    const Run n = spawn({self, "--child", "first-load"}, job),
              ra = spawn({self, "--child", "first-load"}, a),
              rp = spawn({self, "--child", "first-load"}, p);
    f_none.push_back(std::stod(n.out)), f_audit.push_back(std::stod(ra.out));
    f_preload.push_back(std::stod(rp.out));
    redirected = ra.out.substr(ra.out.find(' ') + 1);
  }
  std::remove(map.c_str());
  std::filesystem::remove_all(memo_dir);

  const std::vector<Row> rows = {
      {"start of /bin/true, LD_AUDIT", median(t_none), median(t_audit), "us", "at most 1.10x"},
      {"start of /bin/true, LD_PRELOAD", median(t_none), median(t_preload), "us", "at most 1.10x"},
      {"start of /bin/true, a do-nothing LD_AUDIT module (glibc's own price)", median(t_none),
       median(t_null), "us", "reference"},
      {"peak RSS of /bin/true, LD_AUDIT", median(m_none), median(m_audit), "KiB",
       "at most +256 KiB"},
      {"peak RSS of /bin/true, LD_PRELOAD", median(m_none), median(m_preload), "KiB",
       "at most +256 KiB"},
      {"dlopen+dlclose of loaded libm, LD_PRELOAD", median(d_none), median(d_preload), "ns",
       "at most 1.2x"},
      {"dlopen+dlclose of loaded libm, LD_AUDIT", median(d_none), median(d_audit), "ns",
       "at most 1.2x"},
      {"first libcudnn.so.5 load, redirected, LD_AUDIT", median(f_none), median(f_audit), "us",
       "none (measured)"},
      {"first libcudnn.so.5 load, redirected, LD_PRELOAD", median(f_none), median(f_preload), "us",
       "none (measured)"},
  };
  std::ostringstream s;
  s << "## The shim (issue 3)\n\n"
    << "`bench/shim_bench`: each row against the same work without the shim, interleaved in one "
       "run;\nmedians of 3,000 spawns of `/bin/true` (200 for peak RSS, read by a static "
       "launcher), 7 children doing 200,000 `dlopen`+`dlclose` "
       "each,\nand 30 first loads. The first load is FAKE 5.0.5 found on `LD_LIBRARY_PATH` "
       "without the shim,\nand with it FAKE 5.1.10 (reported "
    << (redirected.empty() ? "?" : redirected.substr(0, redirected.find('\n')))
    << ") chosen by the engine: its process start,\nthe map read and the probes of both "
       "libraries included.\n\n"
    << "| case | without shim | with shim | ratio or difference | target |\n"
    << "|---|---:|---:|---:|---|\n";
  for (const Row &r : rows) {
    const bool memory = r.unit == "KiB";
    s << "| " << r.what << " | " << fmt(r.base) << " " << r.unit << " | " << fmt(r.value) << " "
      << r.unit << " | "
      << (memory ? std::string(r.value >= r.base ? "+" : "-")
                       .append(fmt(r.value >= r.base ? r.value - r.base : r.base - r.value))
                       .append(" KiB")
                 : fmt(r.value / r.base).append("x"))
      << " | " << r.target << " |\n";
  }
  std::fputs(s.str().c_str(), stdout);
  if (argc > 3) write_benchmarks_section(argv[3], "shim", s.str());
  return 0;
}
