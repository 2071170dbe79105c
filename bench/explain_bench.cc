// explain on a whole training job's log (issue 26): 10,000 lines of a PyTorch job's stdout and
// stderr - Slurm's and the modules' lines, NCCL's, progress bars redrawn with \r, epochs and
// losses, warnings, lines that name cuDNN without any problem - and one real failure buried at
// line 7,413. explain must find that one finding and nothing else, in under 0.5 s; the figure is
// the median wall time of the whole process (`cudnn-compat --json explain - < log`), against
// `grep -c cudnn` and `wc -l` over the same file in the same run, and the reader's own time in
// process.
//
//   explain_bench --log FILE                      write the log
//   explain_bench CUDNN_COMPAT [BENCHMARKS.md]    measure
#include "cudnn_compat.h"
#include "process.h"
#include "report.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cudnn_compat;

constexpr int kLines = 10000;
constexpr int kFailureLine = 7413;

// The failure, as PyTorch's torch/backends/cudnn/__init__.py words it (two spaces after
// "compiled", as the source has them), under the traceback of an evaluation step.
const char *const kFailure[] = {
    "Traceback (most recent call last):",
    "  File \"/scratch/u/proj/train.py\", line 412, in <module>",
    "    evaluate(model, val_loader)",
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/backends/cudnn/__init__.py\", line "
    "105, in _init",
    "    raise RuntimeError(f\"{base_error_msg}\")",
    "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but "
    "found runtime version (8, 9, 7). PyTorch already comes bundled with cuDNN. One option to "
    "resolving this error is to ensure PyTorch can find the bundled cuDNN. Looks like your "
    "LD_LIBRARY_PATH contains incompatible version of cudnn. Please either remove it from the "
    "path or install cudnn (9, 1, 0)"};

// One line of noise, the n-th: what a four-GPU job prints while it trains.
std::string noise(int n) {
  char b[512];
  const int epoch = n / 400 + 1, step = n % 400;
  switch (n % 23) {
    case 0:
      std::snprintf(b, sizeof b,
                    "node%03d:%d:%d [%d] NCCL INFO Channel %02d/32 : %d[%d] -> %d[%d] via P2P/IPC",
                    n % 7, 4000 + n % 4, 4100 + n % 9, n % 4, n % 32, n % 4, n % 4, (n + 1) % 4,
                    (n + 1) % 4);
      break;
    case 3:
      std::snprintf(b, sizeof b,
                    " %2d%%|%-10.*s| %d/400 [00:%02d<01:%02d, 6.%02dit/s]\r %2d%%|%-10.*s| %d/400 "
                    "[00:%02d<01:%02d, 6.%02dit/s]",
                    step / 4, step / 40, "##########", step, step % 60, 59 - step % 60, n % 100,
                    (step + 1) / 4, (step + 1) / 40, "##########", step + 1, (step + 1) % 60,
                    58 - step % 60, (n + 7) % 100);
      break;
    case 7:
      std::snprintf(b, sizeof b,
                    "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/conv.py:456: "
                    "UserWarning: Plan failed with a cudnnException: "
                    "CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed "
                    "cudnn_status: CUDNN_STATUS_NOT_SUPPORTED (Triggered internally at "
                    "../aten/src/ATen/native/cudnn/Conv_v8.cpp:919.)");
      break;
    case 11:
      std::snprintf(b, sizeof b,
                    "[rank%d]: cudnn.benchmark=True, deterministic=False; autotuning conv "
                    "%dx%d, %d channels",
                    n % 4, 32 << (n % 3), 32 << (n % 3), 64 << (n % 4));
      break;
    case 13:
      std::snprintf(b, sizeof b, "WARNING:root:step %d: grad norm %.3f above clip 1.0, clipped", n,
                    1.0 + (n % 97) / 31.0);
      break;
    case 17:
      std::snprintf(b, sizeof b, "Saving checkpoint to /scratch/u/proj/ckpt/epoch%03d_step%05d.pt",
                    epoch, n);
      break;
    default:
      std::snprintf(b, sizeof b,
                    "Epoch [%d/25] Step [%d/400] loss: %.4f lr: %.6f data: %.3fs batch: %.3fs "
                    "mem: %dMiB",
                    epoch, step, 2.5 / (1 + n / 1000.0), 0.001 * (1 - n / 12000.0),
                    0.01 + (n % 13) / 1000.0, 0.15 + (n % 17) / 1000.0, 18000 + n % 900);
  }
  return b;
}

std::string training_log() {
  std::ostringstream log;
  const char *const head[] = {"+ module load cuda/12.4 cudnn/8.9 python/3.10",
                              "+ srun --ntasks-per-node=4 python train.py --epochs 25 --batch 256",
                              "Using 4 GPUs: NVIDIA A100-SXM4-80GB (compute capability 8.0)",
                              "torch 2.3.0+cu121, CUDA 12.1, cuDNN enabled: True"};
  int line = 0;
  for (const char *h : head) log << h << '\n', ++line;
  while (line < kLines) {
    if (line + 1 == kFailureLine - 5) {
      for (const char *f : kFailure) log << f << '\n', ++line;
      continue;
    }
    log << noise(line) << '\n';
    ++line;
  }
  return log.str();
}

double run_us(const std::string &command) {
  return spawn({"/bin/sh", "-c", command}, {}).us;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--log") {
    std::ofstream(argv[2]) << training_log();
    return 0;
  }
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: explain_bench --log FILE | explain_bench CUDNN_COMPAT [BENCHMARKS.md]\n");
    return 2;
  }
  char tmpl[] = "/tmp/cudnn-compat-explain-bench.XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const fs::path file = fs::path(tmpl) / "job.log";
  const std::string log = training_log();
  std::ofstream(file) << log;

  // The answer first: one finding, the buried one, from the reader and from the command.
  const std::string bin = argv[1], path = file.string();
  const std::string json =
      spawn({"/bin/sh", "-c", "exec " + bin + " --json explain - < " + path}, {}).out;
  const std::vector<Finding> found = find_errors(log);
  const bool right = found.size() == 1 && found[0].line == std::size_t(kFailureLine) &&
                     found[0].kind == FindingKind::version_mismatch &&
                     json.find("\"line\": " + std::to_string(kFailureLine)) != std::string::npos &&
                     json.find("\"kind\"") == json.rfind("\"kind\"");
  std::printf("%zu finding(s); line %zu\n", found.size(), found.empty() ? 0 : found[0].line);

  constexpr int kRuns = 15;
  std::vector<double> te, tg, tw, tin;
  for (int i = 0; i < kRuns; ++i) {
    te.push_back(run_us("exec " + bin + " --json explain - < " + path + " > /dev/null"));
    tg.push_back(run_us("exec grep -c cudnn " + path + " > /dev/null"));
    tw.push_back(run_us("exec wc -l " + path + " > /dev/null"));
    const Clock::time_point start = Clock::now();
    (void)find_errors(log);
    tin.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  fs::remove_all(tmpl);
  const double e = median(te), g = median(tg), w = median(tw), in = median(tin);
  std::printf("explain %s ms, grep -c %s ms, wc -l %s ms, reader in process %s ms\n",
              fmt(e / 1000).c_str(), fmt(g / 1000).c_str(), fmt(w / 1000).c_str(),
              fmt(in / 1000).c_str());
  if (argc < 3) return right ? 0 : 1;

  char ratio_g[32], ratio_w[32];
  std::snprintf(ratio_g, sizeof ratio_g, "%.1fx", e / g);
  std::snprintf(ratio_w, sizeof ratio_w, "%.1fx", e / w);
  std::ostringstream md;
  md << "## explain on a whole training log (issue 26)\n\n"
     << "`bench/explain_bench`: a " << kLines << "-line PyTorch job log (" << log.size() / 1024
     << " KiB: Slurm and module lines, NCCL, progress bars redrawn with\n"
     << "`\\r`, epochs, warnings, lines naming cuDNN without a problem) with one real failure at "
        "line "
     << kFailureLine << ";\nmedians of " << kRuns
     << " interleaved runs of each command on the same file, the reader's own time in process.\n\n"
     << "| | median | against `cudnn-compat --json explain - < log` |\n|---|---|---|\n"
     << "| `cudnn-compat --json explain - < log` | " << fmt(e / 1000) << " ms | 1x |\n"
     << "| `grep -c cudnn log` | " << fmt(g / 1000) << " ms | explain is " << ratio_g << " |\n"
     << "| `wc -l log` | " << fmt(w / 1000) << " ms | explain is " << ratio_w << " |\n"
     << "| `find_errors()` in process | " << fmt(in / 1000) << " ms | |\n\n"
     << "Findings: " << found.size()
     << (right ? " - the buried one, line " : " - expected one, line ") << kFailureLine
     << ". Target: under 500 ms for the whole command: " << (e < 500000 ? "met" : "NOT met")
     << ".\n";
  write_benchmarks_section(argv[2], "explain", md.str());
  return right ? 0 : 1;
}
