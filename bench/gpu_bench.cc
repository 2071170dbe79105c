// Device code and node facts (issue 22), each against its baseline in the same run:
//  - the first cuDNN load of a process under the shim (LD_AUDIT, no memo), the cases interleaved
//    round by round (a busy machine's drift lands in every case alike) and compared pairwise,
//    each pair loading the very same library: FAKE 9.0.0 and 9.1.0 copied twice, once with device
//    code (nvcc's sm_75/sm_80/PTX 9.0 in 9.1.0, a written sm_70 in 9.0.0) and a CUDA, so that
//    the decision table's "run" rows make the shim judge the node, and once without (today's fast
//    path: no node facts read at all). Two decisions: the loader's pick kept (a node of compute
//    capability 8.0, which runs 9.1.0) and a release handed over (rule "exact" and a need of
//    9.0.0 on a node of 7.0: 9.0.0 replaces the loader's 9.1.0, with and without node judging);
//    the node learnt (no node file: the engine starts, the FAKE NVML is asked) beside the second.
//    The system calls of one process of each case (strace -f -c);
//  - `map validate` of the real cuDNN 9 family under /usr/local/cuda/lib64: the whole command,
//    and the architecture reading of its family alone (read_release_code), so validate without it.
//
//   gpu_bench CUDNN_COMPAT SHIM FAKES GPU_TEST_DIR CC [BENCHMARKS.md [ROUNDS]]
#include "cudnn_compat.h"
#include "node_file.h"
#include "process.h"
#include "report.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

void sh(const std::string &command) {
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "failed: %s\n", command.c_str());
}

// Releases FAKE 9.0.0 and 9.1.0 at prefix + version (+ /lib64); cuda where they carry device code.
std::string map_text(const std::string &prefix, bool cuda, bool exact) {
  std::string s = "schema = 1\n";
  if (exact) s += "[policy]\nrule = \"exact\"\n";
  for (const char *v : {"9.0.0", "9.1.0"})
    s += "[[cudnn]]\nversion = \"" + std::string(v) + "\"\nlib = \"" + prefix + v + "/lib64\"\n" +
         (cuda ? std::string("cuda = \"12.2\"\n") : "");
  return s;
}

// One kind of process: its environment (the map, the loader's pick, the node), and a node file
// to remove before each run (the node learnt afresh).
struct Case {
  std::string name;
  std::vector<std::string> env;
  std::string forget;
  std::vector<double> us = {};
  std::string loaded = {};  // what the client says it loaded
  long calls = -1;
};

std::vector<std::string> with_shim(const std::string &shim, const std::vector<std::string> &env) {
  std::vector<std::string> e = env;
  e.push_back("LD_AUDIT=" + shim);
  return e;
}

// The system calls of one run, as strace -f -c counts them ("total" row's calls).
long syscalls(const std::string &client, const std::string &shim, const Case &c) {
  if (!fs::exists("/usr/bin/strace")) return -1;
  if (!c.forget.empty()) fs::remove(c.forget);
  const Run r =
      spawn({"/usr/bin/strace", "-f", "-c", "-o", "/dev/stdout", "-E", "LD_AUDIT=" + shim, client},
            c.env);
  std::istringstream in(r.out);
  long total = -1;
  for (std::string line; std::getline(in, line);)
    if (line.find(" total") != std::string::npos) {
      std::istringstream f(line);
      double pct, seconds;
      long usecs;
      f >> pct >> seconds >> usecs >> total;
    }
  return total;
}

// The median over rounds of a/b: each round's ratio of the pair's two processes.
double paired(const Case &a, const Case &b) {
  std::vector<double> r;
  for (std::size_t i = 0; i < a.us.size() && i < b.us.size(); ++i) r.push_back(a.us[i] / b.us[i]);
  return median(r);
}

std::string load_averages() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 6)
    return std::fprintf(stderr,
                        "usage: gpu_bench CUDNN_COMPAT SHIM FAKES GPU_TEST_DIR CC [BENCHMARKS.md "
                        "[ROUNDS]]\n"),
           2;
  const std::string tool = argv[1], shim = argv[2], fakes = argv[3], gpu = argv[4], cc = argv[5];
  const int rounds = argc > 7 ? std::atoi(argv[7]) : 300;
  const std::string dir = fs::temp_directory_path() / ("gpu-bench." + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const char *v : {"9.0.0", "9.1.0"}) {
    sh("cp -a " + fakes + "/" + v + " " + dir + "/" + v);
    sh("cp -a " + fakes + "/" + v + " " + dir + "/plain-" + v);
  }
  sh(gpu + "/write-fatbin " + dir + "/volta.fatbin cubin:70");
  sh("objcopy --add-section .nv_fatbin=" + dir + "/volta.fatbin " + dir +
     "/9.0.0/lib64/libcudnn_cnn.so.9.0.0");
  sh("objcopy --add-section .nv_fatbin=" + gpu + "/sm75_80_ptx90.fatbin " + dir +
     "/9.1.0/lib64/libcudnn_cnn.so.9.1.0");
  // Each map in a directory of its own (its tables beside it); validated, so the tables exist.
  const auto map = [&](const std::string &name, bool device_code, bool exact) {
    fs::create_directories(dir + "/" + name);
    const std::string path = dir + "/" + name + "/map.toml";
    std::ofstream(path) << map_text(dir + (device_code ? "/" : "/plain-"), device_code, exact);
    sh(tool + " map validate " + path + " >/dev/null");
    return path;
  };
  const std::string gpu_map = map("gpu", true, false), plain_map = map("plain", false, false),
                    gpu_exact = map("gpu-exact", true, true),
                    plain_exact = map("plain-exact", false, true);
  // The client says which file it loaded: each pair must load the same release.
  sh("printf '#define _GNU_SOURCE\\n#include <dlfcn.h>\\n#include <link.h>\\n#include <stdio.h>\\n"
     "int main(void) { void *h = dlopen(\"libcudnn.so.9\", 2); struct link_map *m = 0;\\n"
     "if (!h || dlinfo(h, RTLD_DI_LINKMAP, &m)) return 1; puts(m->l_name); return 0; }\\n' | " +
     cc + " -x c - -o " + dir + "/client -ldl");
  const std::string client = dir + "/client", node = "gpu-bench-" + std::to_string(getpid());
  const std::string memo = memo_off(dir);
  const std::string nodes = CUDNN_COMPAT_NODE_DIR_PREFIX + std::to_string(geteuid());
  // A node of 8.0 keeps the loader's 9.1.0; one of 7.0 with a need of 9.0.0 (rule exact) is
  // handed 9.0.0 - with node judging and without it.
  const auto env = [&](const std::string &map_path, const std::string &lib, const std::string &gpus,
                       const std::string &node_name, bool exact) {
    std::vector<std::string> e = {"LD_LIBRARY_PATH=" + gpu + "/nvml:" + dir + "/" + lib + "/lib64",
                                  "FAKE_NVML_GPUS=" + gpus,
                                  "FAKE_NVML_DRIVER=12020",
                                  "SLURMD_NODENAME=" + node_name,
                                  "CUDNN_COMPAT_MAP=" + map_path,
                                  memo};
    if (exact) e.push_back("CUDNN_COMPAT_REQUIRE=9.0.0");
    return e;
  };
  std::vector<Case> cases = {
      {"kept: today's fast path", env(plain_map, "plain-9.1.0", "8.0", node + "-a", false), ""},
      {"kept: node remembered", env(gpu_map, "9.1.0", "8.0", node + "-a", false), ""},
      {"handed over: today's fast path", env(plain_exact, "plain-9.1.0", "7.0", node + "-v", true),
       ""},
      {"handed over: node remembered", env(gpu_exact, "9.1.0", "7.0", node + "-v", true), ""},
      {"handed over: node learnt", env(gpu_exact, "9.1.0", "7.0", node + "-l", true),
       cudnn_compat::node_file_path(nodes, node + "-l")},
  };
  // Each case once first: the node files of -a and -v learnt, what each loads noted.
  for (Case &c : cases) {
    if (!c.forget.empty()) fs::remove(c.forget);
    c.loaded = spawn({client}, with_shim(shim, c.env)).out;
    if (!c.loaded.empty() && c.loaded.back() == '\n') c.loaded.pop_back();
    c.loaded = fs::path(c.loaded).filename().string() + " of " +
               fs::path(c.loaded).parent_path().parent_path().filename().string();
  }
  const std::string load_before = load_averages();
  // Each round starts one case later: no case always follows the heavy learnt one.
  for (int i = 0; i < rounds; ++i)
    for (std::size_t k = 0; k < cases.size(); ++k) {
      Case &c = cases[(k + std::size_t(i)) % cases.size()];
      if (!c.forget.empty()) fs::remove(c.forget);
      c.us.push_back(spawn({client}, with_shim(shim, c.env)).us);
    }
  const std::string load_after = load_averages();
  for (Case &c : cases) c.calls = syscalls(client, shim, c);

  std::ostringstream md;
  md << "Same run, " << rounds << " rounds, each running every case once in turn, each round "
     << "starting one case later (load average " << load_before << " before, " << load_after
     << " after; `uptime`'s three figures): a client "
     << "that dlopens libcudnn.so.9 under LD_AUDIT, no memo, the node a FAKE NVML's. Each pair "
     << "loads the same release from FAKE copies that differ only in device code and CUDA: with "
     << "them the decision table's \"run\" rows make the shim judge the node (read its node file), "
     << "without them it does not (today's fast path). The ratio is the median of the rounds' "
     << "ratios of a pair's two processes.\n\n"
     << "| first cuDNN load | loads | median µs | vs today's fast path | system calls (strace -f "
        "-c) "
        "|\n|---|---|---|---|---|\n";
  const auto row = [&](const Case &c, const Case *base) {
    md << "| " << c.name << " | " << c.loaded << " | " << fmt(median(c.us)) << " | "
       << (base ? fmt(paired(c, *base)) : "1.00") << " | " << c.calls << " |\n";
  };
  row(cases[0], nullptr);
  row(cases[1], &cases[0]);
  row(cases[2], nullptr);
  row(cases[3], &cases[2]);
  row(cases[4], &cases[2]);
  md << "\nIssue 22's bound, the node remembered at most 1.05x of today's fast path: "
     << (paired(cases[1], cases[0]) <= 1.05 && paired(cases[3], cases[2]) <= 1.05 ? "met"
                                                                                  : "missed")
     << " (kept " << fmt(paired(cases[1], cases[0])) << ", handed over "
     << fmt(paired(cases[3], cases[2])) << ").\n";
  for (const char *suffix : {"-a", "-v", "-l"})
    fs::remove(cudnn_compat::node_file_path(nodes, node + suffix));

  // map validate of the real cuDNN 9 family, and its architecture reading alone.
  const std::string real = "/usr/local/cuda/lib64";
  if (fs::exists(real + "/libcudnn.so.9")) {
    const Run probe = spawn({tool, "probe", real + "/libcudnn.so.9", "--json"}, {});
    const auto field = [&](const std::string &key) {
      const std::size_t at = probe.out.find("\"" + key + "\"");
      const std::size_t q = probe.out.find('"', probe.out.find(':', at) + 1);
      return probe.out.substr(q + 1, probe.out.find('"', q + 1) - q - 1);
    };
    std::ofstream(dir + "/real.toml")
        << "schema = 1\n[[cudnn]]\nversion = \"" << field("version") << "\"\nlib = \"" << real
        << "\"\ncuda = \"" << field("cuda") << "\"\n";
    std::vector<double> validate, reading;
    for (int i = 0; i < 5; ++i) {
      validate.push_back(spawn({tool, "map", "validate", dir + "/real.toml"}, {}).us);
      const auto start = Clock::now();
      (void)cudnn_compat::read_release_code(real, 9);
      reading.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    const double with = median(validate), read = median(reading);
    md << "\n`map validate` of the real cuDNN " << field("version") << " family (" << real
       << ", medians of 5): " << fmt(with / 1000) << " ms with architecture reading, of which "
       << fmt(read / 1000) << " ms reading the `.nv_fatbin` headers of its libraries: without it "
       << fmt((with - read) / 1000) << " ms, ratio " << fmt(with / (with - read)) << ".\n";
  }
  fs::remove_all(dir);
  std::cout << md.str();
  if (argc > 6)
    write_benchmarks_section(argv[6], "gpu", "## GPUs and drivers (issue 22)\n\n" + md.str());
  return 0;
}
