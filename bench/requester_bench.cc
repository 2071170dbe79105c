// The loader emulation's decision (loader_search: the requester's RUNPATH, then the search) with a
// 1 GiB requester (sparse: PyTorch's libtorch_cuda.so is that size) against a small one, the same
// file otherwise, interleaved in one run. The requester is read in place, so the two must cost
// the same (target: within 1.2x).
//
//   requester_bench FAKES [BENCHMARKS.md]
#include "cudnn_compat.h"
#include "process.h"
#include "report.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cudnn_compat;

// A requester in a directory of its own, with its RUNPATH $ORIGIN holding libcudnn.so.9.
std::string requester(const fs::path &dir, const std::string &fakes_dir, std::uintmax_t size) {
  const std::string fakes = fs::absolute(fakes_dir).string();
  fs::create_directories(dir);
  const fs::path lib = dir / "libapp.so";
  fs::copy_file(fakes + "/9.1.0/lib64/libcudnn.so.9", lib, fs::copy_options::overwrite_existing);
  if (size) fs::resize_file(lib, size);
  fs::create_symlink(fakes + "/9.1.0/lib64/libcudnn.so.9", dir / "libcudnn.so.9");
  return lib.string();
}

double decide_us(const std::string &file) {
  LoaderContext in;
  in.requester = file;
  const Clock::time_point start = Clock::now();
  const std::optional<LoaderHit> hit = loader_search("libcudnn.so.9", in);
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  if (!hit || hit->from != "RUNPATH of " + file)
    std::fprintf(stderr, "unexpected: %s from %s\n", hit ? hit->path.c_str() : "nothing",
                 hit ? hit->from.c_str() : "-");
  return us;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: requester_bench FAKES [BENCHMARKS.md]\n");
    return 2;
  }
  char tmpl[] = "/tmp/cudnn-compat-requester-bench.XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const fs::path t = tmpl;
  const std::uintmax_t gib = std::uintmax_t(1) << 30;
  const std::string small = requester(t / "small", argv[1], 0);
  const std::string huge = requester(t / "huge", argv[1], gib);

  constexpr int kRuns = 2000;
  std::vector<double> ts, th;
  for (int i = 0; i < kRuns; ++i) {
    ts.push_back(decide_us(small));
    th.push_back(decide_us(huge));
  }
  const double s = median(ts), h = median(th), ratio = h / s;
  fs::remove_all(t);
  std::printf("small requester %s us, 1 GiB requester %s us, ratio %.2fx\n", fmt(s).c_str(),
              fmt(h).c_str(), ratio);
  if (argc < 3) return 0;

  char r[32];
  std::snprintf(r, sizeof r, "%.2fx", ratio);
  std::ostringstream md;
  md << "## The requester's size (issue 10)\n\n"
     << "`bench/requester_bench`: `loader_search(\"libcudnn.so.9\")` for a requester whose\n"
     << "RUNPATH `$ORIGIN` holds it, as the engine decides on every first cuDNN request: medians "
        "of\n"
     << kRuns << " interleaved runs with a small requester (FAKE 9.1.0's dispatcher, "
     << fs::file_size(argv[1] + std::string("/9.1.0/lib64/libcudnn.so.9")) / 1024
     << " KiB) and the same file\ngrown to 1 GiB (sparse). The requester's ELF header, program "
        "headers, dynamic segment and\nthe strings it names are read in place (pread), never the "
        "whole file.\n\n"
     << "| case | small requester | 1 GiB requester | ratio | target |\n|---|---:|---:|---:|---|\n"
     << "| loader_search, requester's RUNPATH | " << fmt(s) << " us | " << fmt(h) << " us | " << r
     << " | at most 1.2x |\n";
  write_benchmarks_section(argv[2], "requester", md.str());
  return ratio <= 1.2 ? 0 : 1;
}
