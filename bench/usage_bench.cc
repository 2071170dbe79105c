// Usage records (issue 21): the first cuDNN load of a process with records on (a spool directory,
// and syslog: a /dev/log that listens, the machine's or the bench's own, else the drop path)
// against records off and against the floor of a record, in the same run, interleaved, from the
// fast path's table and from the engine; then `usage ingest` of 1,000,000 records (written with
// the shim's own encoder, shim/shared/usage_record.h) against reading the same file (cat), and
// `usage report` over them.
//
//   usage_bench SHIM CUDNN_COMPAT FAKES [BENCHMARKS.md] [RECORDS]
//   usage_bench --child NAME [SPOOL]   (run by itself: dlopens NAME, prints the microseconds it
//   took; with SPOOL, then writes one record as the shim would - appended to that file, or with
//   SPOOL "syslog" sent to /dev/log - and counts it in)
#include "process.h"
#include "report.h"
#include "usage_record.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <ctime>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;

std::string record(int h, long p, long t, const std::string &fakes);
long uid_of(long p);

sockaddr_un dev_log() {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strcpy(a.sun_path, "/dev/log");
  return a;
}

// The floor of a record: the load, then what a record cannot do without: the fields only the
// process can tell (host, time, executable, user, pid: one system call each) and its line appended
// to the user's spool file (open, write, close), or sent to /dev/log (socket, sendto, close).
int child(const char *name, const char *spool) {
  static const std::string line = record(0, 1, 1790000000, "/opt/fakes");
  const auto start = Clock::now();
  void *lib = dlopen(name, RTLD_NOW);
  if (spool) {
    utsname host;
    timespec now;
    char exe[4096];
    if (uname(&host) != 0 || clock_gettime(CLOCK_REALTIME, &now) != 0 ||
        readlink("/proc/self/exe", exe, sizeof exe) <= 0 || getuid() == uid_t(-1) || getpid() <= 0)
      return 1;
    if (std::strcmp(spool, "syslog") == 0) {
      const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      const sockaddr_un to = dev_log();
      if (fd < 0 || sendto(fd, line.data(), line.size(), MSG_DONTWAIT | MSG_NOSIGNAL,
                           reinterpret_cast<const sockaddr *>(&to), sizeof to) < 0)
        return 1;
      close(fd);
    } else {
      const int fd = open(spool, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
      if (fd < 0 || write(fd, line.data(), line.size()) != ssize_t(line.size())) return 1;
      close(fd);
    }
  }
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  std::printf("%f %d\n", us, lib != nullptr);
  return 0;
}

// The user of process p: 200 processes a job, a job one user's (50 users in turn).
long uid_of(long p) {
  return 1000 + (p / 200) % 50;
}

// One record as the shim writes it, for host h, process p, at time t.
std::string record(int h, long p, long t, const std::string &fakes) {
  char line[CUDNN_COMPAT_USAGE_MAX + 16];
  const std::string host = "node" + std::to_string(h), pid = std::to_string(p),
                    time = std::to_string(t), uid = std::to_string(uid_of(p)),
                    job = std::to_string(4000 + p / 200) + ".0";
  const bool moved = p % 3 != 0;
  const std::string loader = fakes + "/5.0.5/lib64/libcudnn.so.5",
                    got = moved ? fakes + "/5.1.10/lib64/libcudnn.so.5" : loader;
  const std::pair<const char *, std::string> fields[] = {{"t", time},
                                                         {"host", host},
                                                         {"uid", uid},
                                                         {"job", job},
                                                         {"pid", pid},
                                                         {"exe", "/opt/apps/tf/1.0/bin/python3"},
                                                         {"by", ""},
                                                         {"asked", "libcudnn.so.5"},
                                                         {"need", moved ? "5.1.3" : "5.0.5"},
                                                         {"cuda", ""},
                                                         {"from", "env"},
                                                         {"loader", loader},
                                                         {"lrel", "5.0.5"},
                                                         {"lsrc", "module"},
                                                         {"lmod", "cudnn/5.0"},
                                                         {"got", got},
                                                         {"rel", moved ? "5.1.10" : "5.0.5"},
                                                         {"src", "module"},
                                                         {"mod", moved ? "cudnn/5.1" : "cudnn/5.0"},
                                                         {"verdict", moved ? "redirected" : "fit"},
                                                         {"mode", "record"},
                                                         {"drops", ""},
                                                         {"ns", std::to_string(p * 7919 % 1000000000)}};
  long at = 0;
  for (const char *m = CUDNN_COMPAT_USAGE_MAGIC; *m; ++m) line[at++] = *m;
  for (const auto &[key, value] : fields)
    at = cudnn_compat_usage_put(line, sizeof line - 16, at, key, value.data(), long(value.size()));
  char sum[24];
  std::snprintf(sum, sizeof sum, " sum=%08x\n", cudnn_compat_usage_sum(line, at));
  return std::string(line, std::size_t(at)) + sum;
}

// A /dev/log that listens, where the machine has none (no syslog daemon): as root, a mount
// namespace of the bench's own (its children inherit it, the host never sees it) with a tmpfs on
// /dev, the devices a process uses bound back, and a socket bound at /dev/log, which a thread
// drains as a syslog daemon would (counting what it got). Its socket, or -1 where that cannot be.
int own_dev_log(const fs::path &scratch) {
  if (geteuid() != 0 || unshare(CLONE_NEWNS) != 0 ||
      mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return -1;
  const fs::path old = scratch / "dev";
  fs::create_directories(old);
  if (mount("/dev", old.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return -1;
  const bool tmpfs = mount("tmpfs", "/dev", "tmpfs", 0, "mode=755") == 0;
  bool ready = tmpfs;
  for (const char *d : {"null", "zero", "full", "random", "urandom", "shm", "pts"}) {
    const fs::path to = fs::path("/dev") / d;
    const bool tree = std::strcmp(d, "shm") == 0 || std::strcmp(d, "pts") == 0;
    if (ready && tree) fs::create_directory(to);
    if (ready && !tree) std::ofstream{to};
    ready = ready && mount((old / d).c_str(), to.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0;
  }
  // The host's /dev unreachable through the scratch directory before anything else: that
  // directory is removed whole at the end, and its device nodes are the host's own.
  if (umount2(old.c_str(), MNT_DETACH) != 0 || !fs::is_empty(old)) {
    std::fprintf(stderr, "usage_bench: cannot unmount %s; stopping\n", old.c_str());
    std::_Exit(1);
  }
  if (tmpfs && !ready) umount2("/dev", MNT_DETACH);  // the host's /dev again, as it was
  const int fd = ready ? socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0) : -1;
  const sockaddr_un at = dev_log();
  if (fd < 0 || bind(fd, reinterpret_cast<const sockaddr *>(&at), sizeof at) != 0) return -1;
  return fd;
}

struct Case {
  std::vector<std::string> env;
  std::vector<double> us;
  std::string spool;  // the floor's: the child writes the record itself
};

void measure(const std::string &self, const std::string &name, std::vector<Case *> cases,
             int rounds) {
  for (Case *c : cases) c->us.clear();
  for (int i = 0; i < rounds; ++i)
    for (Case *c : cases) {
      std::vector<std::string> argv{self, "--child", name};
      if (!c->spool.empty()) argv.push_back(c->spool);
      const Run r = spawn(argv, c->env);
      if (r.out.find(" 1") == std::string::npos) {
        std::fprintf(stderr, "usage_bench: the child did not load %s\n", name.c_str());
        std::exit(1);
      }
      c->us.push_back(std::stod(r.out));
    }
}

}  // namespace

int main(int argc, char **argv) {
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "--child") == 0)
    return child(argv[2], argc == 4 ? argv[3] : nullptr);
  if (argc < 4) {
    std::fprintf(stderr, "usage: usage_bench SHIM CUDNN_COMPAT FAKES [BENCHMARKS.md] [RECORDS]\n");
    return 2;
  }
  std::error_code ec;
  const std::string shim = argv[1], tool = argv[2], fakes = argv[3],
                    self = fs::read_symlink("/proc/self/exe", ec).string();
  const long records = argc > 5 ? std::atol(argv[5]) : 1000000;
  const fs::path dir = fs::temp_directory_path() / "cudnn-compat-usage-bench";
  fs::remove_all(dir);
  fs::create_directories(dir / "spool");
  fs::create_directories(dir / "engine");
  // Before any thread: unshare(CLONE_NEWNS) refuses a process of several.
  const bool host_log = fs::exists("/dev/log");
  const int listening = host_log ? -1 : own_dev_log(dir);
  std::atomic<long> received{0};
  if (listening >= 0)
    std::thread([listening, &received] {
      static char datagram[65536];
      for (;;)
        if (recv(listening, datagram, sizeof datagram, 0) > 0) ++received;
    }).detach();
  const std::string log_words = host_log ? "this machine's /dev/log"
                                : listening >= 0
                                    ? "a /dev/log of the bench's own, drained by a thread"
                                    : "no /dev/log: dropped and counted";
  const bool logs = host_log || listening >= 0;
  const std::string load_before = load_average();
  // The real cuDNN's own version, as `cudnn-compat probe` reads it.
  std::string real_entry;
  {
    const Run p = spawn({tool, "--json", "probe", "/usr/local/cuda/lib64"}, {});
    const std::size_t at = p.out.find("\"version\": \"");
    if (at != std::string::npos)
      real_entry = "[[cudnn]]\nversion = \"" +
                   p.out.substr(at + 12, p.out.find('"', at + 12) - at - 12) +
                   "\"\nlib = \"/usr/local/cuda/lib64\"\n";
  }

  // The maps: the loader finds `first`, `need` is required, `best` is handed over.
  struct Setup {
    std::string first, best, best_version, need, name;
  };
  const bool real = fs::exists("/usr/local/cuda/lib64/libcudnn.so.9");
  const Setup fake{fakes + "/5.0.5/lib64", fakes + "/5.1.10/lib64", "5.1.10", "5.1",
                   "libcudnn.so.5"};
  // The real cuDNN 9 (its version from the map validate probe is not needed: nvidia's rule only
  // asks for 9.x, x >= 1).
  const Setup real9{fakes + "/9.0.0/lib64", "/usr/local/cuda/lib64", "9.99.0", "9.1",
                    "libcudnn.so.9"};
  auto write_map = [&](const fs::path &path, const std::string &usage, const Setup &s) {
    std::ofstream out(path);
    out << "schema = 1\n"
        << usage << "[[cudnn]]\nversion = \"" << (s.name == fake.name ? "5.0.5" : "9.0.0")
        << "\"\nlib = \"" << s.first << "\"\n";
    if (s.best_version != "9.99.0")
      out << "[[cudnn]]\nversion = \"" << s.best_version << "\"\nlib = \"" << s.best << "\"\n";
    else
      out << real_entry;
  };
  const std::string spool =
      "[usage]\nmode = \"record\"\nto = \"" + (dir / "spool").string() + "\"\n";
  const std::string syslog = "[usage]\nmode = \"record\"\nto = \"syslog\"\n";
  // The memo off: the engine's rows are each the first process of a node, as in shim_load_bench.
  const std::string no_memo = memo_off(dir.string());
  auto job = [&](const fs::path &map, const Setup &s) {
    return std::vector<std::string>{"LD_LIBRARY_PATH=" + s.first, "CUDNN_COMPAT_REQUIRE=" + s.need,
                                    "CUDNN_COMPAT_MAP=" + map.string(), "LD_AUDIT=" + shim,
                                    no_memo};
  };
  // Each case: records off, to the spool, to syslog; from the table and from the engine.
  struct Cases {
    Case off, spool, syslog, engine_off, engine_spool, floor, floor_syslog;
  };
  auto run = [&](const Setup &s, const std::string &tag, int rounds) {
    const fs::path off = dir / (tag + "off.toml"), on = dir / (tag + "spool.toml"),
                   sys = dir / (tag + "syslog.toml"), eoff = dir / "engine" / (tag + "off.toml"),
                   eon = dir / "engine" / (tag + "spool.toml");
    write_map(off, "", s), write_map(on, spool, s), write_map(sys, syslog, s);
    write_map(eoff, "", s), write_map(eon, spool, s);
    for (const fs::path &m : {off, on, sys}) spawn({tool, "map", "validate", m.string()}, {});
    fs::create_directories(dir / "floor");
    Cases c{{job(off, s), {}, {}},
            {job(on, s), {}, {}},
            {job(sys, s), {}, {}},
            {job(eoff, s), {}, {}},
            {job(eon, s), {}, {}},
            {job(off, s), {}, (dir / "floor" / (tag + "node0.1000.usage")).string()},
            {job(off, s), {}, "syslog"}};
    std::vector<Case *> table{&c.off, &c.spool, &c.syslog, &c.floor};
    if (logs) table.push_back(&c.floor_syslog);
    measure(self, s.name, table, rounds);
    measure(self, s.name, {&c.engine_off, &c.engine_spool}, rounds / 2);
    return c;
  };
  const Cases f = run(fake, "fake-", 40);
  const std::optional<Cases> r =
      real ? std::optional<Cases>(run(real9, "real-", 20)) : std::nullopt;
  std::size_t spooled = 0;
  for (const auto &e : fs::directory_iterator(dir / "spool")) {
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) ++spooled;
  }

  // Ingest and report.
  // As rsyslog writes them with docs/usage.md's template: the sender's uid as the daemon saw it.
  const fs::path log = dir / "records.log", db = dir / "usage.db";
  {
    std::ofstream out(log);
    const long t0 = 1790000000;
    for (long i = 0; i < records; ++i)
      out << "2026-12-01T00:00:00+00:00 node" << i % 64 << " " CUDNN_COMPAT_USAGE_TAG "["
          << 100000 + i << "]: uid=" << uid_of(100000 + i) << ' '
          << record(int(i % 64), 100000 + i, t0 + i * 3, fakes);
  }
  const double bytes = double(fs::file_size(log));
  const Run cat = spawn({"/bin/cat", log.string()}, {});
  const Run ingest = spawn({tool, "usage", "ingest", log.string(), "--db", db.string()}, {});
  const Run again = spawn({tool, "usage", "ingest", log.string(), "--db", db.string()}, {});
  // A copy under another name: read whole again, every record already known.
  const fs::path copy = dir / "copy.log";
  fs::copy_file(log, copy);
  const Run known = spawn({tool, "usage", "ingest", copy.string(), "--db", db.string()}, {});
  std::vector<double> report_us, user_us;
  for (int i = 0; i < 5; ++i) {
    report_us.push_back(spawn({tool, "usage", "report", "--db", db.string()}, {}).us);
    user_us.push_back(spawn({tool, "usage", "report", "--db", db.string(), "--by", "user"}, {}).us);
  }
  const Run version = spawn({tool, "--version"}, {});
  const double db_bytes = double(fs::file_size(db));
  const std::string added = ingest.out.substr(0, ingest.out.find('\n'));
  fs::remove_all(dir);

  std::ostringstream s;
  s << "## Usage records (issue 21)\n\n"
    << "`bench/usage_bench`: the first cuDNN `dlopen` of a process under LD_AUDIT: the loader "
       "finding FAKE 5.0.5, 5.1\nrequired, FAKE 5.1.10 handed over (a load of a few hundred "
       "microseconds); and, where the machine has it, the\nloader finding FAKE 9.0.0, 9.1 "
       "required, the real cuDNN 9 handed over. Records off against on, interleaved in the\n"
       "same run (medians of 40 rounds from the table and 20 from the engine for the FAKE, 20 "
       "and 10 for the real one).\nLoad average at the start and the end: "
    << load_before << " and " << load_average() << " on " << std::thread::hardware_concurrency()
    << " CPUs.\n\n| case | records off | records on | ratio | target |\n|---|---:|---:|---:|---|\n";
  auto row = [&](const std::string &what, double base, double value, const std::string &target) {
    s << "| " << what << " | " << fmt(base) << " us | " << fmt(value) << " us | "
      << fmt(value / base) << "x | " << target << " |\n";
  };
  auto rows = [&](const Cases &c, const std::string &what) {
    row(what + ", the table (no process), spool directory", median(c.off.us), median(c.spool.us),
        "at most 1.05x");
    row(what +
            ", the floor: records off, then the process itself gathers a record's own fields "
            "(uname, clock_gettime, readlink of /proc/self/exe, getuid, getpid) and appends "
            "its line (open, write, close)",
        median(c.off.us), median(c.floor.us), "");
    row(what + ", the table, spool directory, against the floor", median(c.floor.us),
        median(c.spool.us), "at most 1.05x");
    row(what + ", the table, syslog (" + log_words + ")", median(c.off.us), median(c.syslog.us),
        "at most 1.05x");
    if (logs) {
      row(what +
              ", the floor for syslog: records off, then the process itself gathers the "
              "fields and sends its datagram to /dev/log (socket, sendto, close)",
          median(c.off.us), median(c.floor_syslog.us), "");
      row(what + ", the table, syslog, against the floor", median(c.floor_syslog.us),
          median(c.syslog.us), "at most 1.05x");
    }
    row(what + ", the engine (a process), spool directory", median(c.engine_off.us),
        median(c.engine_spool.us), "at most 1.05x");
  };
  rows(f, "FAKE 5.1.10 for 5.1");
  if (r) rows(*r, "the real cuDNN 9 for 9.1");
  s << "\nRecords in the spool after the run: " << spooled << " (one per process with records on: "
    << f.spool.us.size() + f.engine_spool.us.size() +
           (r ? r->spool.us.size() + r->engine_spool.us.size() : 0)
    << ").";
  if (listening >= 0)
    s << " Datagrams the bench's /dev/log received: " << received.load()
      << " (one per process with records to syslog, its floor's included: "
      << f.syslog.us.size() + f.floor_syslog.us.size() +
             (r ? r->syslog.us.size() + r->floor_syslog.us.size() : 0)
      << ").";
  s << "\n\n"
    << "`cudnn-compat usage ingest` of " << records << " records (" << fmt(bytes / 1e6)
    << " MB, 64 hosts, 50 users) into a new\ndatabase, against `cat` of the same file; then the "
       "same ingest again (everything known), and `usage report`\n(medians of 5) over them.\n\n"
    << "| step | time | against | target |\n|---|---:|---:|---|\n"
    << "| cat of the file (the floor of reading it) | " << fmt(cat.us / 1e6) << " s | | |\n"
    << "| usage ingest, new database | " << fmt(ingest.us / 1e6) << " s | "
    << fmt(ingest.us / cat.us) << "x cat | under 60 s |\n"
    << "| usage ingest, the same file again (read on from its offset) | " << fmt(again.us / 1e6)
    << " s | | |\n| usage ingest, a copy of it (read whole, every record known) | "
    << fmt(known.us / 1e6) << " s | " << fmt(known.us / cat.us) << "x cat | |\n"
    << "| usage report (by release) | " << fmt(median(report_us) / 1e3) << " ms | "
    << fmt(median(report_us) / version.us) << "x `--version` | under 1 s |\n"
    << "| usage report --by user | " << fmt(median(user_us) / 1e3) << " ms | | under 1 s |\n"
    << "| `cudnn-compat --version` (the process's own start) | " << fmt(version.us / 1e3)
    << " ms | | |\n\nDatabase size: " << fmt(db_bytes / 1e6) << " MB. Ingest said: `" << added
    << "`\n";
  std::fputs(s.str().c_str(), stdout);
  if (argc > 4 && std::string(argv[4]) != "-") write_benchmarks_section(argv[4], "usage", s.str());
  return 0;
}
