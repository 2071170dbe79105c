// Device code and node facts (issue 22), each against its baseline in the same run:
//  - the first cuDNN load of a process under the shim (LD_AUDIT), on a map whose releases carry
//    device code (nvcc's sm_75/sm_80/PTX 9.0 and a written sm_70 in FAKE 9.1.0 and 9.0.0): with
//    the node learnt by that load (no node file: the engine starts, the FAKE NVML is asked), with
//    the node remembered (the fast path reads the node file), against today's fast path (the same
//    releases without device code or CUDA: no node facts read at all); the system calls of the
//    remembered and today's fast path (strace -f -c);
//  - `map validate` of the real cuDNN 9 family under /usr/local/cuda/lib64: the whole command,
//    and the architecture reading of its family alone (read_release_code), so validate without it.
//
//   gpu_bench CUDNN_COMPAT SHIM FAKES GPU_TEST_DIR CC [BENCHMARKS.md]
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

// Releases FAKE 9.0.0 and 9.1.0 at prefix + version (+ /lib64).
std::string map_text(const std::string &prefix, bool cuda) {
  std::string s = "schema = 1\n";
  for (const char *v : {"9.0.0", "9.1.0"})
    s += "[[cudnn]]\nversion = \"" + std::string(v) + "\"\nlib = \"" + prefix + v + "/lib64\"\n" +
         (cuda ? std::string("cuda = \"12.2\"\n") : "");
  return s;
}

// Median wall time (µs) of n runs of the client under the shim with map.
double load(const std::string &client, const std::string &shim, const std::string &map,
            const std::vector<std::string> &env, int n, const std::string &forget = "") {
  std::vector<double> us;
  for (int i = 0; i < n; ++i) {
    if (!forget.empty()) fs::remove(forget);
    std::vector<std::string> e = env;
    e.push_back("CUDNN_COMPAT_MAP=" + map);
    us.push_back(spawn({"/usr/bin/env", "LD_AUDIT=" + shim, client}, e).us);
  }
  return median(us);
}

// The system calls of one run, as strace -f -c counts them ("total" row's calls).
long syscalls(const std::string &client, const std::string &shim, const std::string &map,
              const std::vector<std::string> &env) {
  if (!fs::exists("/usr/bin/strace")) return -1;
  std::vector<std::string> e = env;
  e.push_back("CUDNN_COMPAT_MAP=" + map);
  const Run r = spawn(
      {"/usr/bin/strace", "-f", "-c", "-o", "/dev/stdout", "-E", "LD_AUDIT=" + shim, client}, e);
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

}  // namespace

int main(int argc, char **argv) {
  if (argc < 6)
    return std::fprintf(
               stderr,
               "usage: gpu_bench CUDNN_COMPAT SHIM FAKES GPU_TEST_DIR CC [BENCHMARKS.md]\n"),
           2;
  const std::string tool = argv[1], shim = argv[2], fakes = argv[3], gpu = argv[4], cc = argv[5];
  const std::string dir = fs::temp_directory_path() / ("gpu-bench." + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const char *v : {"9.0.0", "9.1.0"}) sh("cp -a " + fakes + "/" + v + " " + dir + "/" + v);
  sh("cp -a " + fakes + "/9.0.0 " + dir + "/plain-9.0.0 && cp -a " + fakes + "/9.1.0 " + dir +
     "/plain-9.1.0");
  sh(gpu + "/write-fatbin " + dir + "/volta.fatbin cubin:70");
  sh("objcopy --add-section .nv_fatbin=" + dir + "/volta.fatbin " + dir +
     "/9.0.0/lib64/libcudnn_cnn.so.9.0.0");
  sh("objcopy --add-section .nv_fatbin=" + gpu + "/sm75_80_ptx90.fatbin " + dir +
     "/9.1.0/lib64/libcudnn_cnn.so.9.1.0");
  std::ofstream(dir + "/gpu.toml") << map_text(dir + "/", true);
  fs::create_directories(dir + "/plain");
  std::ofstream(dir + "/plain/map.toml") << map_text(dir + "/plain-", false);
  sh(tool + " map validate " + dir + "/gpu.toml >/dev/null && " + tool + " map validate " + dir +
     "/plain/map.toml >/dev/null");
  sh("printf '#include <dlfcn.h>\\nint main(void) { return !dlopen(\"libcudnn.so.9\", 2); }\\n' "
     "| " +
     cc + " -x c - -o " + dir + "/client -ldl");
  const std::string client = dir + "/client", node = "gpu-bench-" + std::to_string(getpid());
  const std::vector<std::string> env = {"LD_LIBRARY_PATH=" + gpu + "/nvml:" + dir + "/9.1.0/lib64",
                                        "FAKE_NVML_GPUS=7.0", "FAKE_NVML_DRIVER=12020",
                                        "SLURMD_NODENAME=" + node};
  std::vector<std::string> plain_env = env;
  plain_env[0] = "LD_LIBRARY_PATH=" + dir + "/plain-9.1.0/lib64";
  const std::string node_file =
      cudnn_compat::node_file_path(CUDNN_COMPAT_NODE_DIR_PREFIX + std::to_string(geteuid()), node);
  const int n = 30;
  const double today = load(client, shim, dir + "/plain/map.toml", plain_env, n);
  const double learnt = load(client, shim, dir + "/gpu.toml", env, n, node_file);
  load(client, shim, dir + "/gpu.toml", env, 1);  // learns once
  const double remembered = load(client, shim, dir + "/gpu.toml", env, n);
  const double today2 = load(client, shim, dir + "/plain/map.toml", plain_env, n);
  const long calls_today = syscalls(client, shim, dir + "/plain/map.toml", plain_env);
  const long calls_remembered = syscalls(client, shim, dir + "/gpu.toml", env);

  // map validate of the real cuDNN 9 family, and its architecture reading alone.
  const std::string real = "/usr/local/cuda/lib64";
  std::ostringstream md;
  md << "Same run, medians of " << n << " processes (a client that dlopens libcudnn.so.9 under "
     << "LD_AUDIT; the loader finds FAKE 9.1.0, the node is a FAKE NVML's compute capability 7.0, "
     << "so the shim hands over FAKE 9.0.0):\n\n"
     << "| first cuDNN load | µs | vs today's fast path |\n|---|---|---|\n"
     << "| today's fast path (releases without device code or CUDA) | " << fmt((today + today2) / 2)
     << " | 1.00 |\n"
     << "| node learnt (no node file: engine + NVML probe) | " << fmt(learnt) << " | "
     << fmt(learnt / ((today + today2) / 2)) << " |\n"
     << "| node remembered (fast path reads the node file) | " << fmt(remembered) << " | "
     << fmt(remembered / ((today + today2) / 2)) << " |\n\n"
     << "System calls of one such process (strace -f -c): today's fast path " << calls_today
     << ", remembered node " << calls_remembered << ".\n";
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
  fs::remove(node_file);
  std::cout << md.str();
  if (argc > 6)
    write_benchmarks_section(argv[6], "gpu", "## GPUs and drivers (issue 22)\n\n" + md.str());
  return 0;
}
