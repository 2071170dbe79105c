// What the SPANK plugin costs a job step: `srun -N2 true` on a private two-node Slurm with the
// plugin in plugstack.conf (no --cudnn, and --cudnn=5.1 with its per-node check and the shim in
// every task) against the same without it, interleaved in one run on one cluster.
//
//   slurm_bench CLUSTER_BASH SPANK FAKES [BENCHMARKS.md]
#include "process.h"
#include "report.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace {

namespace fs = std::filesystem;

const std::string kSrun = "/usr/bin/srun";
constexpr int kRuns = 60;

// Runs a function of tests/slurm/cluster.bash with its arguments; its stdout.
std::string cluster(const std::string &script, const std::vector<std::string> &call) {
  std::vector<std::string> argv{"/bin/bash", "-c", "source \"$0\" && \"$@\"", script};
  argv.insert(argv.end(), call.begin(), call.end());
  return spawn(argv, {}).out;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: slurm_bench CLUSTER_BASH SPANK FAKES [BENCHMARKS.md]\n");
    return 2;
  }
  const std::string script = argv[1], spank = argv[2], fakes = argv[3];
  if (const std::string why = cluster(script, {"slurm_cluster_reason"}); !why.empty()) {
    std::fprintf(stderr, "slurm_bench: skipped: %s", why.c_str());
    return 0;
  }
  char tmpl[] = "/tmp/cudnn-compat-slurm-bench.XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const fs::path t = tmpl;
  const std::string map = (t / "map.toml").string();
  std::ofstream(map) << "schema = 1\n[[cudnn]]\nversion = \"5.0.5\"\nlib = \"" << fakes
                     << "/5.0.5/lib64\"\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"" << fakes
                     << "/5.1.10/lib64\"\n";
  // One cluster: srun and slurmstepd read plugstack.conf afresh for every step, so the plugin
  // comes and goes between interleaved runs on the same nodes and the same allocation.
  const std::string dir = (t / "cluster").string(), plugstack = dir + "/plugstack.conf";
  const std::string line = "optional " + spank + " map=" + map + "\n";
  cluster(script, {"slurm_cluster_start", dir, line});
  auto plugin = [&](bool on) { std::ofstream(plugstack) << (on ? line : "\n"); };
  // Steps in a standing two-node allocation, overlapping, so that no run waits for the scheduler
  // or for the previous step's CPUs: what is left is the launch itself.
  std::vector<std::string> env{"SLURM_CONF=" + dir + "/slurm.conf"};
  spawn({"/usr/bin/salloc", "--no-shell", "-N2"}, env);
  std::string job = spawn({"/usr/bin/squeue", "-h", "-o", "%i"}, env).out;
  job.erase(job.find_last_not_of("\n") + 1);
  env.push_back("SLURM_JOB_ID=" + job);
  const std::string echo = spawn({kSrun, "--overlap", "-N2", "-l", "/bin/echo", "ok"}, env).out;
  const bool up =
      echo.find("0: ok") != std::string::npos && echo.find("1: ok") != std::string::npos;
  const std::vector<std::string> step{kSrun, "--overlap", "-N2", "true"},
      step_cudnn{kSrun, "--overlap", "-N2", "--cudnn=5.1", "true"};
  std::vector<double> base, loaded, cudnn, checked;
  const std::vector<std::function<void()>> cases{[&] {
                                                   plugin(false);
                                                   base.push_back(spawn(step, env).us);
                                                 },
                                                 [&] {
                                                   plugin(true);
                                                   loaded.push_back(spawn(step, env).us);
                                                 },
                                                 [&] {
                                                   plugin(true);
                                                   cudnn.push_back(spawn(step_cudnn, env).us);
                                                 },
                                                 [&] {
                                                   plugin(true);
                                                   // A new mtime: each node's remembered answer no
                                                   // longer holds, and the check runs again.
                                                   fs::last_write_time(
                                                       map, fs::file_time_type::clock::now());
                                                   checked.push_back(spawn(step_cudnn, env).us);
                                                 }};
  // Every other round in reverse, so that no case always follows the same one.
  for (int i = 0; up && i < kRuns; ++i)
    for (std::size_t c = 0; c < cases.size(); ++c) cases[i % 2 ? cases.size() - 1 - c : c]();
  // The job's end runs the plugin's epilog, which removes the answers its steps left in /tmp.
  plugin(true);
  spawn({"/usr/bin/scancel", job}, env);
  for (int i = 0; i < 50 && !spawn({"/usr/bin/squeue", "-h"}, env).out.empty(); ++i) usleep(100000);
  cluster(script, {"slurm_cluster_stop", dir});
  fs::remove_all(t);
  if (!up) {
    std::fprintf(stderr, "slurm_bench: the cluster did not run `srun -N2 echo`\n");
    return 1;
  }

  const double b = median(base), l = median(loaded), c = median(cudnn), k = median(checked);
  std::ostringstream s;
  s << "## Slurm SPANK plugin (issue 14)\n\n"
    << "`bench/slurm_bench`: medians of " << kRuns
    << " interleaved runs (every other round in reverse order) of `srun --overlap -N2 true` (a "
       "step in a standing\n"
       "two-node allocation) on a private two-node Slurm 22.05 on this machine\n"
       "(tests/slurm/cluster.bash), with and without the plugin in plugstack.conf (which srun and\n"
       "slurmstepd read afresh for every step). With "
       "`--cudnn=5.1`\nevery task starts with the shim as LD_AUDIT, and each node runs its check "
       "(`cudnn-compat\nresolve` as the user) for the first step of a job, or when its map has "
       "changed since; later\nsteps of the job on that node read the answer it left.\n\n"
    << "| case | median | ratio | target |\n|---|---:|---:|---|\n"
    << "| srun -N2 true, no plugin (baseline) | " << fmt(b / 1000) << " ms | 1.00x | - |\n"
    << "| srun -N2 true, plugin loaded, no --cudnn | " << fmt(l / 1000) << " ms | " << fmt(l / b)
    << "x | at most 1.05x |\n"
    << "| srun -N2 --cudnn=5.1 true, a later step (each node's answer remembered) | "
    << fmt(c / 1000) << " ms | " << fmt(c / b) << "x | at most 1.10x |\n"
    << "| srun -N2 --cudnn=5.1 true, the map just changed (each node runs the check) | "
    << fmt(k / 1000) << " ms | " << fmt(k / b) << "x | at most 1.10x |\n";
  std::fputs(s.str().c_str(), stdout);
  if (argc > 4) write_benchmarks_section(argv[4], "slurm", s.str());
  return 0;
}
