// cudnn-compat usage ingest|report: the shim's usage records (issue 21, docs/usage.md) into an
// SQLite database, and what they say.
#include "cli.h"
#include "diagnostics.h"
#include "text.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace cudnn_compat::cli {
namespace {

namespace fs = std::filesystem;

// A line longer than this is no record (CUDNN_COMPAT_USAGE_MAX, and a syslog daemon's prefix):
// it is skipped without being held in memory whole.
constexpr std::size_t kLineMax = std::size_t{64} * 1024;

// One file to read: a syslog file, or a spool file of one host and user.
struct Source {
  std::string path;
  LineOrigin origin;
};

// Calls line(text, too_long) for each complete line from offset on and returns the offset after
// the last one: a last line without its line break is being written, and is read next time -
// unless it is too long already: it is counted now, and the next read starts past it (a sparse
// file of gigabytes with no line break is read once, not at every ingest).
template <class F>
std::uint64_t each_line(int fd, std::uint64_t offset, F &&line) {
  std::string pending;
  bool skipping = false;  // inside a line already known to be too long
  std::vector<char> block(1 << 20);
  std::uint64_t done = offset;
  for (ssize_t n; (n = pread(fd, block.data(), block.size(), off_t(offset))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    offset += std::uint64_t(n);
    for (std::string_view rest(block.data(), std::size_t(n)); !rest.empty();) {
      const std::size_t eol = rest.find('\n');
      const std::string_view part = rest.substr(0, eol);
      if (!skipping && pending.size() + part.size() <= kLineMax)
        pending.append(part);
      else
        skipping = true;
      if (eol == std::string_view::npos) break;
      line(std::string_view(pending), skipping);
      done = offset - (rest.size() - eol - 1);
      pending.clear(), skipping = false;
      rest.remove_prefix(eol + 1);
    }
  }
  if (skipping) {
    line(std::string_view(), true);
    done = offset;
  }
  return done;
}

// A spool file's line may hold the start of a record whose write was cut (a full disk) and the
// next whole record after it: each "U1 t=" begins one.
std::vector<std::string_view> records_in(std::string_view line, bool spool) {
  std::vector<std::string_view> out;
  for (std::size_t at = spool ? line.find("U1 t=", 1) : std::string_view::npos;
       at != std::string_view::npos; at = line.find("U1 t=", 1)) {
    out.push_back(line.substr(0, at));
    line.remove_prefix(at);
  }
  out.push_back(line);
  return out;
}

std::string user_name(std::int64_t uid) {
  static std::map<std::int64_t, std::string> known;
  auto [it, fresh] = known.try_emplace(uid);
  if (fresh) {
    struct passwd pw {
    }, *found = nullptr;
    std::vector<char> buf(16384);
    getpwuid_r(uid_t(uid), &pw, buf.data(), buf.size(), &found);
    it->second = found ? found->pw_name : "uid " + std::to_string(uid);
  }
  return it->second;
}

// Where a line is: its number in the file, or, read on from where the last ingest stopped, its
// number after that byte (the lines before it are not counted again).
std::string line_at(std::uint64_t number, std::uint64_t from) {
  return "line " + std::to_string(number) +
         (from ? " after byte " + std::to_string(from) + " (where the last ingest stopped)" : "");
}

void count(IngestCounts &c, LineKind kind, std::string_view why, const std::string &where) {
  std::int64_t *n = kind == LineKind::torn       ? &c.torn
                    : kind == LineKind::forged   ? &c.forged
                    : kind == LineKind::newer    ? &c.newer
                    : kind == LineKind::too_long ? &c.too_long
                                                 : &c.other;
  ++*n;
  if (kind != LineKind::other && c.examples.size() < 3)
    c.examples.push_back(where + ": " + std::string(to_string(kind)) +
                         (why.empty() ? "" : ": " + std::string(why)));
}

// A fingerprint of what a file holds before `offset`: FNV-1a (64 bits) of its first and its
// last kWindow bytes there, with the offset. logrotate's copytruncate empties a file in place
// (the same inode) and it may have grown past the offset again; reading on from there would skip
// every record before it. Records differ in their time, pid and sum, so a file written again
// differs in those bytes; hashing the whole prefix would read it all again at every ingest.
std::string mark_at(int fd, std::uint64_t offset) {
  if (offset == 0) return {};
  constexpr std::uint64_t kWindow = 4096;
  std::uint64_t h = 14695981039346656037ull;
  const auto hash = [&](std::uint64_t from, std::uint64_t n) {
    std::string bytes(n, '\0');
    if (pread(fd, bytes.data(), n, off_t(from)) != ssize_t(n)) return false;
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
    return true;
  };
  const std::uint64_t head = std::min(offset, kWindow);
  const std::uint64_t tail_from = offset > kWindow ? offset - kWindow : 0;
  if (!hash(0, head) || !hash(tail_from, offset - tail_from)) return "unreadable";
  char text[48];
  std::snprintf(text, sizeof text, "fnv1a64:%llu:%016llx", static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(h));
  return text;
}

// Ingests one source in one transaction; false (and why) when the store failed.
bool ingest_source(UsageStore &store, const Source &s, IngestCounts &c, std::string &why) {
  const int fd = open(s.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = s.path + ": " + (fd < 0 ? std::strerror(errno) : "not a regular file") + "; not ingested";
    if (fd >= 0) close(fd);
    return false;
  }
  // Read on from the last offset only while the file still holds what was read before it: a
  // database of schema 1 kept no fingerprint, and its sources are read again from the start
  // (records already known add nothing).
  std::string mark;
  const std::optional<std::uint64_t> resume = store.resume_offset(s.path, st.st_ino, &mark);
  const std::uint64_t from = resume && *resume <= std::uint64_t(st.st_size) && !mark.empty() &&
                                     mark_at(fd, *resume) == mark
                                 ? *resume
                                 : 0;
  if (!store.begin(s.path)) {
    why = store.error(), close(fd);
    return false;
  }
  bool ok = true;
  std::uint64_t number = 0;
  const std::uint64_t end = each_line(fd, from, [&](std::string_view line, bool too_long) {
    ++c.lines, ++number;
    if (!ok) return;
    if (too_long)
      return count(c, LineKind::too_long, "longer than any record", line_at(number, from));
    for (std::string_view text : records_in(line, s.origin.spool)) {
      const LineRead r = read_usage_line(text, s.origin);
      if (r.kind != LineKind::record) {
        count(c, r.kind, r.why, line_at(number, from));
        continue;
      }
      const bool added = store.add(r.record, user_name(r.record.uid));
      ok = added || store.error().empty();
      ++(added ? c.added : c.known);
    }
  });
  const std::string read_mark = mark_at(fd, end);
  close(fd);
  if (!ok || !store.commit(s.path, st.st_ino, end, read_mark, c)) {
    why = store.error();
    store.rollback();
    return false;
  }
  return true;
}

// A spool file (lstat as f) with the owner whose records it may hold, or nullopt when it is named
// for one user and owned by another: it stands where the named user's records would go (the shim
// writes only a file of its own there), and `squatted` says so.
std::optional<Source> spool_source(const std::string &path, const struct stat &f,
                                   std::vector<std::string> &squatted) {
  Source s{path, {}};
  s.origin.spool = true;
  s.origin.owner = std::int64_t(f.st_uid);
  // HOST.UID.usage: the host is all before the last two dots' fields. A file named otherwise (a
  // copy by hand) is held to its owner alone.
  const std::string name = fs::path(path).filename().string();
  const std::string stem = name.substr(0, name.size() - 6);
  const std::optional<std::int64_t> uid = spool_name_uid(stem);
  if (uid) s.origin.file_host = stem.substr(0, stem.rfind('.'));
  if (!uid || *uid == std::int64_t(f.st_uid)) return s;
  squatted.push_back(printable(path) + " is owned by " + user_name(f.st_uid) + ", not by " +
                     user_name(*uid) + " whose records its name is for: " + user_name(*uid) +
                     "'s records on " + printable(s.origin.file_host) +
                     " cannot be written there (the shim writes only a file of its own: each of "
                     "their processes writes HOST.UID~PID-N.usage instead, which is read); not "
                     "ingested (rm " +
                     printable(path) + ")");
  return std::nullopt;
}

// The spool files of a directory, each with the owner whose records it may hold. A directory that
// someone other than root or this user owns, or that others may write without the sticky bit,
// may hold any record in any name: refused whole.
std::optional<std::vector<Source>> spool_files(const std::string &dir, std::string &why,
                                               std::vector<std::string> &squatted) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    why = dir + ": not a directory; not ingested";
    return std::nullopt;
  }
  if (st.st_uid != 0 && st.st_uid != geteuid()) {
    why = "spool " + dir + " is owned by " + user_name(st.st_uid) +
          ", who could have written any record in it; not ingested (chown root " + dir +
          "; chmod 1733 " + dir + ")";
    return std::nullopt;
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
    why = "spool " + dir +
          " may be written by others without the sticky bit, so anyone could "
          "replace anyone's records; not ingested (chmod 1733 " +
          dir + ")";
    return std::nullopt;
  }
  std::vector<Source> out;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    struct stat f {};
    if (!name.ends_with(".usage") || lstat(e.path().c_str(), &f) != 0 || !S_ISREG(f.st_mode))
      continue;
    if (std::optional<Source> source = spool_source(e.path().string(), f, squatted))
      out.push_back(std::move(*source));
  }
  std::sort(out.begin(), out.end(),
            [](const Source &a, const Source &b) { return a.path < b.path; });
  return out;
}

nlohmann::json json_of(const IngestCounts &c) {
  return {{"lines", c.lines}, {"added", c.added},       {"known", c.known},
          {"other", c.other}, {"torn", c.torn},         {"forged", c.forged},
          {"newer", c.newer}, {"too_long", c.too_long}, {"skipped", c.examples}};
}

void say_counts(const std::string &path, const IngestCounts &c) {
  std::cout << printable(path) << ": " << c.lines << " lines: " << c.added << " records added, "
            << c.known << " already in the database; skipped " << c.torn << " torn, " << c.forged
            << " forged, " << c.newer << " of a newer format, " << c.too_long << " too long; "
            << c.other << " other lines\n";
  for (const std::string &e : c.examples) std::cout << "  " << printable(e) << '\n';
}

int ingest(const std::vector<std::string> &sources, const std::string &db, const Globals &g) {
  UsageStore store(db, true);
  if (!store.error().empty()) {
    Error() << "usage ingest: " << store.error();
    return kUsage;
  }
  int rc = kYes;
  nlohmann::json done = nlohmann::json::array();
  for (const std::string &arg : sources) {
    std::string why;
    std::vector<Source> files;
    std::vector<std::string> squatted;
    if (fs::is_directory(arg)) {
      const std::optional<std::vector<Source>> spool = spool_files(arg, why, squatted);
      if (spool) files = *spool;
    } else if (struct stat f{}; arg.ends_with(".usage") && lstat(arg.c_str(), &f) == 0) {
      // One spool file named alone: its owner holds it to its own records all the same.
      if (std::optional<Source> source = spool_source(arg, f, squatted))
        files.push_back(std::move(*source));
    } else {
      files.push_back({arg, {}});
    }
    for (const std::string &line : squatted) Error() << "usage ingest: " << line;
    if (!squatted.empty()) rc = kUsage;
    for (Source &s : files) {
      s.origin.now = std::int64_t(std::time(nullptr));
      IngestCounts c;
      if (!ingest_source(store, s, c, why)) break;
      if (g.json)
        done.push_back({{"source", s.path}, {"counts", json_of(c)}});
      else
        say_counts(s.path, c);
    }
    if (why.empty()) continue;
    rc = kUsage;
    if (!store.error().empty() && why == store.error()) {
      Error() << "usage ingest: " << db << ": " << why << "; nothing of " << arg
              << " was kept from the failed file on, and every record ingested before is intact"
              << (why.find("full") != std::string::npos ? " (free some space and run it again)"
                                                        : "");
      rc = kNo;
      break;
    }
    Error() << "usage ingest: " << why;
  }
  if (g.json) print_json({{"database", db}, {"sources", done}, {"ok", rc == kYes}});
  return rc;
}

// "2025-06-01" -> its first second (UTC); nullopt unless a date.
std::optional<std::int64_t> utc_day(const std::string &date) {
  std::tm tm{};
  const char *end = strptime(date.c_str(), "%Y-%m-%d", &tm);
  if (!end || *end || date.size() != 10) return std::nullopt;
  const std::tm given = tm;
  const std::time_t t = timegm(&tm);
  std::tm back{};
  if (!gmtime_r(&t, &back) || back.tm_year != given.tm_year || back.tm_mon != given.tm_mon ||
      back.tm_mday != given.tm_mday)
    return std::nullopt;  // 2025-02-30 (1970-01-01 is day 0: no "never" here)
  return std::int64_t(t);
}

nlohmann::json json_of(const UsageStore::Row::Counts &counts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &[release, n] : counts) out.push_back({{"release", release}, {"processes", n}});
  return out;
}

nlohmann::json json_of(const UsageReport &r) {
  nlohmann::json rows = nlohmann::json::array(), daily = nlohmann::json::array();
  for (const UsageStore::Row &x : r.rows)
    rows.push_back({{r.by, x.key.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.key)},
                    {"processes", x.records},
                    {"users", x.users},
                    {"jobs", x.jobs},
                    {"last_used", utc_date(x.last)},
                    {"redirected", x.redirected},
                    {"instead_of", json_of(x.instead_of)},
                    {"report_only", x.report_only},
                    {"would_hand_over", json_of(x.would)},
                    {"user_list", x.user_names},
                    {"release_list", x.release_names}});
  for (const auto &[day, release, n] : r.daily)
    daily.push_back({{"date", utc_date(day)}, {"release", release}, {"processes", n}});
  return {{"by", r.by},
          {"since", r.since ? nlohmann::json(utc_date(r.since)) : nlohmann::json(nullptr)},
          {"rows", rows},
          {"daily", daily},
          {"dropped", r.drops},
          {"skipped", json_of(r.skipped)}};
}

// The page where --html names it: "-" is stdout; a pipe or a character device (the pipe behind
// /dev/stdout, a terminal) is written into; a regular file, or none yet, is replaced whole, through
// a link; anything else (a directory, a block device), and the usage database, is refused.
std::string write_page(const std::string &path, const std::string &page, const std::string &db) {
  if (path == "-") return std::cout << page << std::flush ? "" : "stdout cannot be written";
  struct stat st {};
  const bool there = stat(path.c_str(), &st) == 0;
  if (there && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    std::ofstream out(path, std::ios::out | std::ios::app);
    return out << page << std::flush ? ""
                                     : std::string("cannot be written: ") + std::strerror(errno);
  }
  if (there && !S_ISREG(st.st_mode))
    return "is no regular file, pipe or terminal; not written over";
  if (!db.empty() && same_file(path, db))
    return "is the usage database given with --db; the page is not written over it";
  return write_file_through_link(path, page);
}

// Whether the page went to this process's own stdout (the text report then stays out of it).
bool page_on_stdout(const std::string &path) {
  struct stat page {
  }, out{};
  return path == "-" || (stat(path.c_str(), &page) == 0 && fstat(1, &out) == 0 &&
                         page.st_dev == out.st_dev && page.st_ino == out.st_ino);
}

int report(const std::string &db, const std::string &by, const std::string &since,
           const std::string &html, const Globals &g) {
  const std::optional<std::int64_t> from =
      since.empty() ? std::optional<std::int64_t>(0) : utc_day(since);
  if (!from) {
    Error() << "usage report: --since " << since << ": expected a date, YYYY-MM-DD";
    return kUsage;
  }
  UsageStore store(db, false);
  if (!store.error().empty()) {
    Error() << "usage report: " << store.error();
    return kUsage;
  }
  UsageReport r{by,
                *from,
                store.summary(by, *from),
                store.daily(*from),
                store.drops_known(),
                store.skipped_total()};
  if (!html.empty()) {
    const std::string why = write_page(html, report_html(r), db);
    if (!why.empty()) {
      Error() << "usage report: --html " << html << ": " << why;
      return kNo;
    }
    if (page_on_stdout(html)) return kYes;
  }
  if (g.json)
    print_json(json_of(r));
  else
    std::cout << report_text(r) << (html.empty() ? "" : "page written: " + html + "\n");
  return kYes;
}

}  // namespace

void add_usage(CLI::App &app, Globals &g) {
  CLI::App *usage = app.add_subcommand(
      "usage", "Collect the shim's usage records into a database, and report on them");
  usage->require_subcommand(1);
  auto db = std::make_shared<std::string>();
  auto sources = std::make_shared<std::vector<std::string>>();
  CLI::App *in = usage->add_subcommand(
      "ingest", "Read usage records from syslog files and spool directories into the database");
  in->add_option("SOURCE", *sources, "A syslog file, or a spool directory ([usage] to = DIR)")
      ->required()
      ->type_name("PATH");
  in->add_option("--db", *db, "The SQLite database (created when missing)")
      ->required()
      ->type_name("FILE");
  in->footer(R"(
Every record is added once, however often a line is read: ingest a growing log every night. A
file read before is read on from where the last ingest stopped, while it is the same file (a
rotated log is read again from its start, adding nothing twice). Lines that are not records are
counted and skipped: torn (cut or changed on the way), forged (a record the shim cannot have written
for its sender: another user's uid in a user's spool file, or a uid the syslog daemon did not see),
of a newer format, too long. A spool directory is read only if root or you own it.

Exit status: 0 every source ingested, 1 the database failed (a full disk: nothing of the failed
file is kept, all ingested before is intact), 2 bad usage or input (a database of a newer schema or
not ours, a source that cannot be read, a spool directory owned by another user).)");
  in->callback([sources, db, &g] { g.exit_code = ingest(*sources, *db, g); });

  auto by = std::make_shared<std::string>("release");
  auto since = std::make_shared<std::string>(), html = std::make_shared<std::string>();
  CLI::App *rep = usage->add_subcommand(
      "report", "Which releases jobs used: by how many users and jobs, when last, instead of what");
  rep->add_option("--db", *db, "The SQLite database usage ingest made")
      ->required()
      ->type_name("FILE");
  rep->add_option("--by", *by, "Group by release (default), module, user or job")
      ->check(CLI::IsMember({"release", "module", "user", "job"}));
  rep->add_option("--since", *since, "Only records from this day on (UTC)")
      ->type_name("YYYY-MM-DD");
  rep->add_option("--html", *html, "Also write a page with a chart of use over time per release")
      ->type_name("FILE");
  rep->footer(R"(
A process's release is what it loaded: the release the shim handed over, or the loader's own
where that fit (or nothing better was found). INSTEAD OF lists what the loader would have given the
processes the shim redirected; report-only processes are counted under what they loaded, and what
the shim would have handed them over is listed below the table.

Exit status: 0 reported, 1 the page could not be written, 2 bad usage or no such database.)");
  rep->callback([db, by, since, html, &g] { g.exit_code = report(*db, *by, *since, *html, g); });
}

}  // namespace cudnn_compat::cli
