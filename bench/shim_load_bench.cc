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
#include "load_child.h"
#include "process.h"
#include "report.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

// Each round with 4 GB touched costs about two seconds (two children touch it); 13 give a
// stable median in well under a minute.
constexpr int kRounds4 = 13;

struct Case {
  std::vector<std::string> env;
  std::string name;  // what the child dlopens
  std::vector<double> us;
  std::string gigabytes = "0";  // touched by the child first
};

}  // namespace

int main(int argc, char **argv) {
  if (const int r = load_child(argc, argv); r >= 0) return r;
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
  const std::string no_memo = memo_off(dir);  // each load the first of a node
  auto job = [&](const std::string &found_first) {
    return std::vector<std::string>{"LD_LIBRARY_PATH=" + found_first, "CUDNN_COMPAT_MAP=" + map,
                                    "CUDNN_COMPAT_REQUIRE=9.1", no_memo};
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
    << version
    << ". Processes counted with `strace -f` (clone, fork and execve; no thread), the memo off "
       "(every load the first of a node).\n"
    << load_span(load_before) << "\n\n"
    << ratio_header();
  s << ratio_row("table knows both libraries, LD_AUDIT", plain0, known_audit, "at most 1.5x");
  s << ratio_row("table knows both libraries, LD_PRELOAD", plain0, known_preload, "at most 1.5x");
  s << ratio_row("the loader's library unknown to the table, LD_AUDIT", plain0b, engine_audit0,
                 "at most 3x");
  s << ratio_row("the loader's library unknown to the table, LD_PRELOAD", plain0b, engine_preload0,
                 "at most 3x");
  s << ratio_row("the loader's library unknown to the table, LD_AUDIT, 4 GB touched", plain4_us,
                 engine_audit4, "measured");
  s << ratio_row("no table at all (every library probed), LD_AUDIT", plain0c, notable_audit0,
                 "measured");
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
