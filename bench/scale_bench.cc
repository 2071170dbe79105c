// Published at scale (issue 23, item 4): N processes (512 unless SCALE_BENCH_N says) released at
// once, each loading libcudnn.so.9 with the releases, a user's copy and the validated map in one
// tree - on a site's NFS when SCALE_BENCH_DIR names a directory there, else in a directory of the
// bench's own, whose file system the report names - and the per-node memo where the shim keeps it
// (a directory of the bench's own under /tmp). For each case, without the shim and with it
// (LD_AUDIT): the median and the worst time from the release to the load's return, the ratio of
// the medians against the same load without the shim in the same run, and how many processes
// started the engine. Beside it, the operations per process on the tree: the table
// bench/ops_per_process.sh printed (OPS_TABLE, a file).
//   scale_bench SHIM CUDNN_COMPAT FAKES OPS_TABLE [BENCHMARKS.md]
#include "load_child.h"
#include "process.h"
#include "report.h"

#include <sys/statfs.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;

constexpr int kCrowds = 3;  // crowds per case, the cases taking turns

enum class Memo { none, cold, warm };

struct Case {
  std::string what, lib_dir;
  bool shim = false;
  Memo memo = Memo::none;
  int baseline = -1;  // the case without the shim it is held against
  std::vector<double> us;
  long started = 0;  // processes that started any (the engine and its probe)
};

Case make_case(std::string what, std::string lib_dir, bool shim = false, Memo memo = Memo::none,
               int baseline = -1) {
  Case c;
  c.what = std::move(what), c.lib_dir = std::move(lib_dir);
  c.shim = shim, c.memo = memo, c.baseline = baseline;
  return c;
}

struct Tree {
  fs::path dir, run;
  std::string map;
};

// The file system dir is on, by statfs's magic number, and whether this kernel has NFS at all.
std::string file_system(const fs::path &dir) {
  struct statfs st {};
  if (statfs(dir.c_str(), &st) != 0) return "unknown";
  static const std::map<unsigned long, std::string> names = {
      {0x6969, "NFS"},           {0xEF53, "ext4"},     {0x01021994, "tmpfs"},
      {0x794c7630, "overlayfs"}, {0x58465342, "XFS"},  {0x9123683E, "Btrfs"},
      {0x65735546, "FUSE"},      {0x47504653, "GPFS"}, {0x0BD00BD0, "Lustre"}};
  const auto it = names.find((unsigned long)st.f_type);
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%lx", (unsigned long)st.f_type);
  return it == names.end() ? hex : it->second;
}

bool kernel_has_nfs() {
  std::ifstream in("/proc/filesystems");
  for (std::string line; std::getline(in, line);)
    if (line.ends_with("\tnfs") || line.ends_with("\tnfs4")) return true;
  return false;
}

Tree lay_out(const std::string &tool, const std::string &fakes) {
  Tree t;
  const char *given = std::getenv("SCALE_BENCH_DIR");
  t.dir = given && *given ? fs::path(given) / "cudnn-compat-scale-bench"
                          : fs::temp_directory_path() / "cudnn-compat-scale-bench";
  t.run = fs::temp_directory_path() / "cudnn-compat-scale-bench-run";
  for (const fs::path &d : {t.dir, t.run}) fs::remove_all(d);
  for (const char *v : {"9.0.0", "9.1.0"}) {
    fs::create_directories(t.dir / "releases" / v / "lib64");
    fs::copy(fakes + "/" + v + "/lib64", t.dir / "releases" / v / "lib64",
             fs::copy_options::recursive);
  }
  fs::create_directories(t.dir / "user");
  fs::copy(fakes + "/9.0.0/lib64", t.dir / "user", fs::copy_options::recursive);
  fs::create_directories(t.dir / "site");
  t.map = (t.dir / "site" / "map.toml").string();
  std::ofstream(t.map) << "schema = 1\n[policy]\nrule = \"nvidia\"\n"
                       << "[[cudnn]]\nversion = \"9.0.0\"\nlib = \""
                       << (t.dir / "releases/9.0.0/lib64").string()
                       << "\"\n[[cudnn]]\nversion = \"9.1.0\"\nlib = \""
                       << (t.dir / "releases/9.1.0/lib64").string() << "\"\n";
  spawn({tool, "map", "validate", t.map}, {});
  fs::create_directory(t.run);
  fs::permissions(t.run, fs::perms::owner_all, fs::perm_options::replace);
  // The memo trusts no file changed within the last second (the racy rule): let the new ones age.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  return t;
}

std::vector<Case> cases(const Tree &t) {
  const std::string kept = (t.dir / "releases/9.1.0/lib64").string(),
                    other = (t.dir / "releases/9.0.0/lib64").string(),
                    user = (t.dir / "user").string();
  return {
      make_case("no shim, FAKE 9.1.0 on the path", kept),
      make_case("shim, validated table: the loader's 9.1.0 kept", kept, true, Memo::none, 0),
      make_case("no shim, FAKE 9.0.0 on the path", other),
      make_case("shim, validated table: 9.0.0 -> 9.1.0", other, true, Memo::none, 2),
      make_case("no shim, a user's copy of FAKE 9.0.0 (no table knows it)", user),
      make_case("shim, a user's copy: the engine, memo emptied before each crowd", user, true,
                Memo::cold, 4),
      make_case("shim, a user's copy: the engine's answer remembered (warm memo)", user, true,
                Memo::warm, 4),
  };
}

void forget(const Tree &t) {
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(t.run / "cudnn-compat", ec))
    if (e.path().extension() == ".memo") fs::remove(e.path(), ec);
}

void run_crowd(const std::string &self, const std::string &shim, const Tree &t, int n, Case &c) {
  std::vector<std::string> env = {"LD_LIBRARY_PATH=" + c.lib_dir, "CUDNN_COMPAT_MAP=" + t.map,
                                  "CUDNN_COMPAT_REQUIRE=9.1", "XDG_RUNTIME_DIR=" + t.run.string()};
  if (c.shim) env.push_back("LD_AUDIT=" + shim);
  if (c.memo == Memo::cold) forget(t);
  if (c.memo == Memo::warm) {
    forget(t);
    crowd(self, env, 1);  // the node's first process, which the memo then answers for the rest
  }
  for (const Sample &s : crowd(self, env, n)) {
    c.us.push_back(s.us);
    c.started += s.descendant_faults > 0;
  }
}

std::string report(const std::vector<Case> &cs, const Tree &t, int n, const std::string &ops,
                   const std::string &load_before) {
  std::ostringstream o;
  const std::string fs_name = file_system(t.dir);
  o << "## At scale (issue 23, item 4)\n\n"
    << "`bench/scale_bench`: " << n << " processes released at once (" << kCrowds
    << " crowds per case, the cases taking turns), each\n`dlopen(\"libcudnn.so.9\")` with the "
       "releases, a user's copy and the validated map in one tree on "
    << fs_name
    << ";\nthe time from the release to the load's return, against the same load "
       "without the shim in the same run. "
    << load_span(load_before) << "\n\n";
  if (fs_name != "NFS")
    o << "The tree is not on NFS here: "
      << (kernel_has_nfs() ? "no NFS mount was given (SCALE_BENCH_DIR)"
                           : "this kernel has neither an NFS client nor a server "
                             "(`/proc/filesystems` lists no nfs), so none can be started")
      << ". At a site, `SCALE_BENCH_DIR=/nfs/dir bench/run.sh`\nputs the tree there; the "
         "operations per process below are what each rank adds to the shared file system.\n\n";
  o << "| case | median | worst | median against no shim | processes that started the engine "
       "|\n|---|---:|---:|---:|---:|\n";
  for (const Case &c : cs) {
    o << "| " << c.what << " | " << fmt(median(c.us)) << " us | " << fmt(worst(c.us)) << " us | ";
    if (c.baseline >= 0) o << fmt(median(c.us) / median(cs[std::size_t(c.baseline)].us)) << "x";
    o << " | " << c.started << " of " << c.us.size() << " |\n";
  }
  o << "\nOperations per process on the tree for one first load (`bench/ops_per_process.sh "
       "BUILD_DIR`: every\nfile-system system call, `strace -f -e trace=%file,%desc`, that names a "
       "path of the releases or the map; issue 23's\ntarget for the validated table: the loader's "
       "own plus two):\n\n```\n"
    << ops << "```\n";
  return o.str();
}

}  // namespace

int main(int argc, char **argv) {
  if (const int r = load_child(argc, argv); r >= 0) return r;
  if (argc < 5) {
    std::fprintf(stderr, "usage: scale_bench SHIM CUDNN_COMPAT FAKES OPS_TABLE [BENCHMARKS.md]\n");
    return 2;
  }
  const char *given_n = std::getenv("SCALE_BENCH_N");
  const int n = given_n && std::atoi(given_n) > 0 ? std::atoi(given_n) : 512;
  std::stringstream ops;
  ops << std::ifstream(argv[4]).rdbuf();
  const Tree t = lay_out(argv[2], argv[3]);
  std::vector<Case> cs = cases(t);
  const std::string self = self_path(), load_before = load_average();
  for (int round = 0; round < kCrowds; ++round)
    for (Case &c : cs) run_crowd(self, argv[1], t, n, c);
  const std::string body = report(cs, t, n, ops.str(), load_before);
  fs::remove_all(t.dir);
  fs::remove_all(t.run);
  std::fputs(body.c_str(), stdout);
  if (argc > 5) write_benchmarks_section(argv[5], "scale", body);
  return 0;
}
