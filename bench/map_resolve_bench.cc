// Map load + resolve for maps of 10, 100 and 1,000 releases, against a baseline measured in the
// same run: dlopen of the cuDNN 9 dispatcher plus cudnnGetVersion(), the work a redirected load
// costs anyway. Writes its figures and ratios into BENCHMARKS.md between its own markers.
#include "cudnn_compat.h"
#include "report.h"

#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cudnn_compat;

const std::string kReal = "/usr/local/cuda/lib64/libcudnn.so.9";
const std::string kFake = std::string(FAKECUDNN_ROOT) + "/9.1.0/lib64/libcudnn.so.9";
const std::string &dispatcher() {
  static const std::string path = fs::exists(kReal) ? kReal : kFake;
  return path;
}

void BM_Baseline_DlopenCudnn9(benchmark::State &state) {
  for (auto _ : state) {
    void *lib = dlopen(dispatcher().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      state.SkipWithError(dlerror());
      return;
    }
    auto version = reinterpret_cast<std::size_t (*)()>(dlsym(lib, "cudnnGetVersion"));
    benchmark::DoNotOptimize(version());
    dlclose(lib);
  }
}

// A map of n releases over majors 5 to 9, as large sites have; the fitting one is a fake.
std::string write_map(int n) {
  // A directory only its owner may write: jobs refuse a map anyone else could change.
  const fs::path dir = fs::temp_directory_path() / "cudnn-compat-bench";
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  const std::string path = (dir / ("map-" + std::to_string(n) + ".toml")).string();
  std::ostringstream m;
  m << "schema = 1\n\n[policy]\nrule = \"nvidia\"\nprefer = \"newest\"\n";
  for (int i = 0; i < n - 1; ++i) {
    const int major = 5 + i % 4;  // 5..8: none fits a cuDNN 9 request
    m << "\n[[cudnn]]\nversion = \"" << major << "." << i / 4 % 10 << "." << i / 40 << "\"\n"
      << "lib = \"/opt/cudnn/" << i << "/lib64\"\ncuda = \"12.2\"\nmodule = \"cudnn/" << i
      << "\"\n";
  }
  m << "\n[[cudnn]]\nversion = \"9.1.0\"\nlib = \"" << FAKECUDNN_ROOT
    << "/9.1.0/lib64\"\ncuda = \"12.4\"\n";
  std::ofstream(path) << m.str();
  return path;
}

// cached: the production path, the cache `map validate` writes beside the map is current;
// otherwise the TOML is parsed, as on the first job after an admin edits the map by hand.
void map_load_resolve(benchmark::State &state, bool cached) {
  const std::string path = write_map(int(state.range(0)));
  // Edited a while ago, so the cache written now is younger than the map (the racy-clean rule).
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) - std::chrono::seconds(2));
  const MapLoad load = read_map_file(path);
  const Parsed<FileStamp> stamp =
      load.map ? settle_map_stamp(*load.map) : Parsed<FileStamp>::fail("");
  if (cached &&
      (!stamp || !write_file_atomically(table_path(path, TableKind::cache),
                                        format_map_cache(*load.map, load.diagnostics, *stamp), path)
                      .empty())) {
    state.SkipWithError("cannot write the map cache");
    return;
  }
  const LibraryName requested = *parse_library_name("libcudnn.so.9");
  for (auto _ : state) {
    const MapLoad loaded = cached ? load_map(path) : read_map_file(path);
    if (!loaded.map) {
      state.SkipWithError("the map does not load");
      return;
    }
    NeedInputs in;
    in.require = "9.1";
    in.requested = requested;
    const Parsed<Need> need = derive_need(in, &*loaded.map);
    const std::vector<std::size_t> ranked = rank(*loaded.map, *need, requested);
    const Installed &e = loaded.map->cudnn[ranked.front()];
    benchmark::DoNotOptimize(find_library_file(e.lib, requested, e.version.major));
  }
  fs::remove(path);
  fs::remove(table_path(path, TableKind::cache));
}

void BM_MapLoadResolve(benchmark::State &state) {
  map_load_resolve(state, true);
}
void BM_MapParseResolve(benchmark::State &state) {
  map_load_resolve(state, false);
}

BENCHMARK(BM_Baseline_DlopenCudnn9)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_MapLoadResolve)
    ->Arg(10)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(1.0);
BENCHMARK(BM_MapParseResolve)
    ->Arg(10)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(1.0);

// Keeps the mean time of each run for the report.
class Collector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> us;
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs)
      if (!r.error_occurred)
        us[r.run_name.function_name + (r.run_name.args.empty() ? "" : "/" + r.run_name.args)] =
            r.GetAdjustedRealTime();
    ConsoleReporter::ReportRuns(runs);
  }
};

void write_report(const std::map<std::string, double> &us, const std::string &file) {
  const auto base = us.find("BM_Baseline_DlopenCudnn9");
  if (base == us.end()) return;
  std::ostringstream s;
  s << "## Map load + resolve (issue 2)\n\n"
    << "`bench/map_resolve_bench`: load the map, derive the requirement, rank the releases and\n"
    << "find the file (what the shim does on a cuDNN request), against the baseline of `dlopen` +\n"
    << "`cudnnGetVersion()` + `dlclose` of `" << dispatcher() << "`"
    << (dispatcher() == kReal ? " (the real cuDNN)" : " (a FAKE: no real cuDNN here)")
    << ", measured in the\nsame run. Targets: 100 releases under 0.25x, 1,000 under 2x, growth no "
       "faster than linear.\n\n"
    << "\"cached\" is the production path: `map validate` (and `scan`) write `map.toml.cache`\n"
    << "beside the map, which `load_map` reads while it matches the map's inode, size and mtime.\n"
    << "\"parsed\" is the first job after an admin edits the map by hand without validating it:\n"
    << "toml++ parses the TOML itself.\n\n"
    << "| case | mean time (us) | ratio to baseline |\n|---|---:|---:|\n";
  s << "| baseline: dlopen cuDNN 9 + cudnnGetVersion | " << base->second << " | 1.00 |\n";
  for (const char *kind : {"cached", "parsed"})
    for (int n : {10, 100, 1000}) {
      const auto it =
          us.find(std::string(kind[0] == 'c' ? "BM_MapLoadResolve/" : "BM_MapParseResolve/") +
                  std::to_string(n));
      if (it == us.end()) continue;
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.3f", it->second / base->second);
      s << "| map of " << n << " releases, " << kind << " | " << it->second << " | " << ratio
        << " |\n";
    }
  write_benchmarks_section(file, "map-resolve", s.str());
}

}  // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();
  const char *out = std::getenv("BENCHMARKS_MD");
  if (out) write_report(collector.us, out);
  return 0;
}
