// The engine path paid once per node (issue 20, item 4): the wheel case, a cuDNN the map's decision
// table does not know - the real cuDNN 9 under /usr/local/cuda/lib64 where the machine has it, else
// a copy of the FAKE 9.1.0 family laid out as a wheel - first on LD_LIBRARY_PATH, 9.1 required, so
// that the shim keeps it once the engine has probed it. Each figure against the plain dlopen of the
// same library in the same run:
//   - the first process on a node (cold memo), against the floor: the plain load, plus a static
//     program's start and the probe's own load of that library, both measured in the same rounds;
//     beside it what stands between (each process started, and its cost);
//   - the second and later processes (warm memo), and how many processes they start;
//   - 64 processes released at once with a cold memo: how many probes ran, and their load times.
//
//   memo_bench SHIM CUDNN_COMPAT FAKES [BENCHMARKS.md]
#include "cudnn_compat.h"
#include "load_child.h"
#include "process.h"
#include "protocol.h"
#include "report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;

constexpr int kRounds = 30, kCrowd = 64, kCrowds = 5;

// `load_us N`, the probe's own load of the library as it timed it; -1 when it said none.
double probe_load_us(const std::string &out) {
  const std::size_t at = out.find("load_us ");
  return at == std::string::npos ? -1 : std::stod(out.substr(at + 8));
}

struct Setting {
  std::string self, shim, lib_dir, lib, version, memo, probe, engine, launch;
  std::vector<std::string> job;     // the job's environment, without the shim
  std::vector<std::string> listed;  // the same with a map that lists the library too
};

std::vector<std::string> with(std::vector<std::string> e, const std::string &what) {
  e.push_back(what);
  return e;
}

void forget(const Setting &s) {
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(s.memo, ec))
    if (e.path().extension() == ".memo") fs::remove(e.path(), ec);
}

// Where PID 1 reaps no orphans (this machine's), the shim's keeper is the job's own child and the
// job waits for it to end; where PID 1 reaps them (systemd on a compute node, tini in a container)
// the job goes on at the answer's end line. A PID namespace of bwrap's, whose PID 1 reaps, stands
// for such a node: the command that starts a child in one (none where bwrap is not installed).
std::vector<std::string> reaping_init() {
  if (!fs::exists("/usr/bin/bwrap")) return {};
  return {"/usr/bin/bwrap", "--unshare-pid", "--dev-bind", "/", "/", "--proc", "/proc", "--"};
}

Sample child(const Setting &s, const std::vector<std::string> &env,
             std::vector<std::string> argv = {}) {
  argv.insert(argv.end(), {s.self, "--child", "0", "libcudnn.so.9"});
  const Run r = spawn(argv, env);
  if (r.out.empty()) {
    std::fprintf(stderr, "memo_bench: a child printed nothing\n");
    std::exit(1);
  }
  return parse_sample(r.out);
}

// The figures of one kind of run, over the rounds.
struct Series {
  std::vector<double> us, cpu_us;  // wall; the CPU of the processes it started
  long started = 0;                // runs that started a process (their descendants' page faults)
  void add(const Sample &x) {
    us.push_back(x.us);
    cpu_us.push_back(x.descendant_cpu_us);
    started += x.descendant_faults > 0;
  }
};

struct Rounds {
  Series plain, first_audit, first_preload, warm_audit, warm_preload, listed_audit, listed_preload,
      static_start, probe_run, probe_load, engine_run, reaped_audit, reaped_preload;
};

void one_round(const Setting &s, const std::vector<std::string> &reaping, Rounds &r) {
  const std::vector<std::string> audit = with(s.job, "LD_AUDIT=" + s.shim),
                                 preload = with(s.job, "LD_PRELOAD=" + s.shim);
  r.plain.add(child(s, s.job));
  forget(s);
  r.first_audit.add(child(s, audit));
  r.warm_audit.add(child(s, audit));
  forget(s);
  r.first_preload.add(child(s, preload));
  r.warm_preload.add(child(s, preload));
  if (!reaping.empty()) {
    forget(s);
    r.reaped_audit.add(child(s, audit, reaping));
    forget(s);
    r.reaped_preload.add(child(s, preload, reaping));
  }
  r.listed_audit.add(child(s, with(s.listed, "LD_AUDIT=" + s.shim)));
  r.listed_preload.add(child(s, with(s.listed, "LD_PRELOAD=" + s.shim)));
  // The floor's parts and what stands between, in the same round.
  r.static_start.add(parse_sample(spawn({s.self, "--spawn", s.launch}, s.job).out));
  const Run probe = spawn({s.self, "--spawn", s.probe, s.lib}, s.job);
  r.probe_run.add(parse_sample(probe.out));
  r.probe_load.us.push_back(probe_load_us(probe.out));
  // The engine alone (nothing to remember), with its own probe: as the shim ran it before the
  // shim started the probe beside it.
  r.engine_run.add(
      parse_sample(spawn({s.self, "--spawn", s.engine, CUDNN_COMPAT_PROTOCOL, "libcudnn.so.9",
                          s.self, "", "10000", "-", "-", CUDNN_COMPAT_NO_PROBE, "L:" + s.lib_dir},
                         s.job)
                       .out));
}

Setting setting(const std::string &shim, const std::string &tool, const std::string &fakes,
                const fs::path &dir) {
  Setting s;
  s.self = self_path(), s.shim = shim;
  const fs::path bin = fs::path(s.self).parent_path(), pkglib = fs::path(shim).parent_path();
  s.launch = (bin / "shim_bench_launch").string();
  s.probe = (pkglib / "cudnn-compat-probe").string();
  s.engine = (pkglib / "cudnn-compat-select").string();
  if (fs::exists("/usr/local/cuda/lib64/libcudnn.so.9")) {
    s.lib_dir = "/usr/local/cuda/lib64";
  } else {  // a wheel's layout: .so.9 names only
    s.lib_dir = (dir / "venv/lib/python3/site-packages/nvidia/cudnn/lib").string();
    fs::create_directories(s.lib_dir);
    for (const fs::directory_entry &e : fs::directory_iterator(fakes + "/9.1.0/lib64"))
      if (e.path().extension() == ".9")
        fs::copy_file(e.path(), s.lib_dir / e.path().filename(),
                      fs::copy_options::overwrite_existing);
  }
  s.lib = s.lib_dir + "/libcudnn.so.9";
  s.version = real_version(s.self, s.lib_dir);
  // The site's map: the table knows its releases, not the wheel. And, for comparison, a map that
  // lists the wheel's library too, whose table settles the same load without a memo.
  const std::string entries = "schema = 1\n[[cudnn]]\nversion = \"9.0.0\"\nlib = \"" + fakes +
                              "/9.0.0/lib64\"\n[[cudnn]]\nversion = \"9.1.0\"\nlib = \"" + fakes +
                              "/9.1.0/lib64\"\n";
  const std::string map = (dir / "site" / "map.toml").string(),
                    listed = (dir / "listed" / "map.toml").string();
  fs::create_directories(dir / "site");
  fs::create_directories(dir / "listed");
  std::ofstream(map) << entries;
  std::ofstream(listed) << entries << "[[cudnn]]\nversion = \"" << s.version << "\"\nlib = \""
                        << s.lib_dir << "\"\n";
  for (const std::string &m : {map, listed}) spawn({tool, "map", "validate", m}, {});
  fs::create_directory(dir / "run");
  fs::permissions(dir / "run", fs::perms::owner_all, fs::perm_options::replace);
  s.memo = (dir / "run" / "cudnn-compat").string();
  s.job = {"LD_LIBRARY_PATH=" + s.lib_dir, "CUDNN_COMPAT_MAP=" + map, "CUDNN_COMPAT_REQUIRE=9.1",
           "XDG_RUNTIME_DIR=" + (dir / "run").string()};
  s.listed = s.job;
  s.listed[1] = "CUDNN_COMPAT_MAP=" + listed;
  // The node as learnt once per boot, as on a node where cuDNN was loaded before: an engine that
  // learns it writes its file, and the entries of the rounds in the second after rested on a file
  // that new, which the memo does not trust (the racy rule): their second processes started the
  // engine again (8 and 10 of 30 in two runs that began with no node file).
  spawn({tool, "doctor"}, {});
  // The memo trusts no file changed within the last second (the racy rule): let the new ones age.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  return s;
}

}  // namespace

namespace {

struct Crowds {
  std::vector<double> us;
  std::string probes;  // per crowd, "1, 1, ..."
};

Crowds crowds(const Setting &s, const std::vector<std::string> &env) {
  Crowds c;
  for (int i = 0; i < kCrowds; ++i) {
    forget(s);
    long started = 0;
    for (const Sample &x : crowd(s.self, env, kCrowd)) {
      c.us.push_back(x.us);
      started += x.descendant_faults > 0;
    }
    c.probes += (i ? ", " : "") + std::to_string(started);
  }
  return c;
}

std::string report(const Setting &s, const Rounds &r, bool real, const std::string &load_before) {
  const double plain = median(r.plain.us), first_a = median(r.first_audit.us),
               first_p = median(r.first_preload.us), static_start = median(r.static_start.us),
               probe_load = median(r.probe_load.us), floor = plain + static_start + probe_load,
               probe_run = median(r.probe_run.us), engine_run = median(r.engine_run.us);
  std::ostringstream o;
  o << "## The engine path paid once per node (issue 20, item 4)\n\n"
    << "`bench/memo_bench`: the wheel case: cuDNN " << s.version
    << (real ? " (the real one, in /usr/local/cuda/lib64)" : " (FAKE, laid out as a wheel)")
    << ", which the map's decision table does not know,\nfirst on LD_LIBRARY_PATH with 9.1 "
       "required: the engine probes it once, and the shim keeps it. Against the plain dlopen\nof "
       "the same library in the same run; medians of "
    << kRounds
    << " rounds, every kind run once in each round; the memo in a directory of the\nbench's own, "
       "emptied before each first process. "
    << load_span(load_before) << "\n\n"
    << ratio_header();
  o << ratio_row("first process on a node (cold memo), LD_AUDIT", plain, first_a, "measured");
  o << ratio_row("first process on a node (cold memo), LD_PRELOAD", plain, first_p, "measured");
  o << ratio_row("first process, LD_AUDIT, against the floor (below)", floor, first_a,
                 "at most 1.2x");
  o << ratio_row("first process, LD_PRELOAD, against the floor (below)", floor, first_p,
                 "at most 1.2x");
  for (const auto &[mode, series] :
       {std::pair{"LD_AUDIT", &r.reaped_audit}, {"LD_PRELOAD", &r.reaped_preload}})
    if (!series->us.empty())
      o << ratio_row(std::string("first process where PID 1 reaps orphans (a PID namespace of "
                                 "bwrap's), ") +
                         mode + ", against the floor",
                     floor, median(series->us), "at most 1.2x");
  o << ratio_row("second and later processes (warm memo), LD_AUDIT", plain, median(r.warm_audit.us),
                 "at most 1.5x");
  o << ratio_row("second and later processes (warm memo), LD_PRELOAD", plain,
                 median(r.warm_preload.us), "at most 1.5x");
  for (const auto &[mode, series] :
       {std::pair{"LD_AUDIT", &r.listed_audit}, {"LD_PRELOAD", &r.listed_preload}})
    o << ratio_row(std::string("for comparison: the same library listed in the map (the decision "
                               "table settles it; no memo, no process), ") +
                       mode,
                   plain, median(series->us), "");
  const std::vector<std::string> audit = with(s.job, "LD_AUDIT=" + s.shim),
                                 preload = with(s.job, "LD_PRELOAD=" + s.shim);
  forget(s);
  const int first_started = processes_started(s.self, audit);
  child(s, preload);  // the first process under LD_PRELOAD (its own request: its requester differs)
  const int warm_started_a = processes_started(s.self, audit),
            warm_started_p = processes_started(s.self, preload);
  o << "| processes the first process starts (`strace -f`: clone, fork, execve), LD_AUDIT | | "
    << first_started << " | | measured |\n"
    << "| processes a second process starts (`strace -f`), LD_AUDIT / LD_PRELOAD | | "
    << warm_started_a << " / " << warm_started_p << " | | 0 |\n"
    << "| timed second processes that started any (their children's page faults), LD_AUDIT / "
       "LD_PRELOAD | | "
    << r.warm_audit.started << " / " << r.warm_preload.started << " of " << kRounds
    << " | | 0 |\n\nThe floor, and what stands between it and the first process (medians of the "
       "same rounds):\n\n| part | time |\n|---|---:|\n";
  auto part = [&](const std::string &what, double us) {
    o << "| " << what << " | " << fmt(us) << " us |\n";
  };
  part("the plain dlopen in the job's process", plain);
  part("a static program's start (posix_spawn and wait, from a process like the job's)",
       static_start);
  part("the probe's own load of the library (dlopen and its version checks, as the probe times it)",
       probe_load);
  part("**the floor**: the three above", floor);
  part("the probe as a process (`cudnn-compat-probe`: a dynamic program's start, its load, exit)",
       probe_run);
  part(
      "the engine as a process, with a probe of its own (`cudnn-compat-select`, no probe beside "
      "it)",
      engine_run);
  part("of which the engine's own start and work (engine - probe)", engine_run - probe_run);
  part("of which the probe's start and exit (probe - its own load)", probe_run - probe_load);
  // Wall time on a busy machine is mostly waiting for a CPU; the CPU the processes use is not.
  const double cpu_first = median(r.first_audit.cpu_us), cpu_static = median(r.static_start.cpu_us);
  o << "\nThe same in CPU time (user and system, of the processes each started; medians of the "
       "same rounds), which a busy machine's\nwaits for a CPU do not inflate:\n\n"
    << "| part | CPU time |\n|---|---:|\n";
  part("a static program's start", cpu_static);
  part("the probe as a process", median(r.probe_run.cpu_us));
  part("the engine as a process, with its probe", median(r.engine_run.cpu_us));
  part("the first process's decision, LD_AUDIT (keeper, engine, probe)", cpu_first);
  return o.str();
}

}  // namespace

int main(int argc, char **argv) {
  if (const int r = load_child(argc, argv); r >= 0) return r;
  if (argc < 4) {
    std::fprintf(stderr, "usage: memo_bench SHIM CUDNN_COMPAT FAKES [BENCHMARKS.md]\n");
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / "cudnn-compat-memo-bench";
  fs::remove_all(dir);
  const Setting s = setting(argv[1], argv[2], argv[3], dir);
  const bool real = s.lib_dir == "/usr/local/cuda/lib64";
  const std::string load_before = load_average();
  Rounds r;
  const std::vector<std::string> reaping = reaping_init();
  for (int i = 0; i < kRounds; ++i) one_round(s, reaping, r);
  std::string body = report(s, r, real, load_before);

  const Crowds plain = crowds(s, s.job), audit = crowds(s, with(s.job, "LD_AUDIT=" + s.shim)),
               preload = crowds(s, with(s.job, "LD_PRELOAD=" + s.shim));
  std::ostringstream o;
  o << "\n"
    << kCrowd << " processes released at once (" << kCrowds
    << " crowds each, the memo emptied before each crowd): how many started the engine and its "
       "probe\n(their children's page faults), and their load times.\n\n"
    << "| case | probes run, per crowd | median load | worst load | target "
       "|\n|---|---|---:|---:|---|\n"
    << "| plain dlopen, no shim | " << plain.probes << " | " << fmt(median(plain.us)) << " us | "
    << fmt(worst(plain.us)) << " us | |\n";
  for (const auto &[name, c] : {std::pair{"LD_AUDIT", &audit}, {"LD_PRELOAD", &preload}})
    o << "| " << name << ", cold memo | " << c->probes << " | " << fmt(median(c->us)) << " us | "
      << fmt(worst(c->us)) << " us | 1 probe |\n";
  body += o.str();
  fs::remove_all(dir);
  std::fputs(body.c_str(), stdout);
  if (argc > 4) write_benchmarks_section(argv[4], "memo", body);
  return 0;
}
