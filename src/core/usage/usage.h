// Usage records (issue 21, docs/usage.md): reading the records the shim writes
// (shim/shared/usage_record.h), keeping them in an SQLite database, the report over them, and
// the module systems' retirement stanzas for a release. Uses the model, the map and the decisions
// (the replacement of a retiring release is the one decision's choice).
#pragma once

#include "decide.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_compat {

// ---------------------------------------------------------------------------------------------
// record.cc: one record, read from the line it travelled in (pure).

struct UsageRecord {
  std::int64_t time = 0, ns = 0;  // ns: within time's second (0 from a shim that did not say)
  std::string host;
  std::int64_t uid = 0;
  std::string job;  // "JOB.STEP", or ""
  std::int64_t pid = 0;
  std::string exe, by, asked;
  std::string need, cuda, from;
  std::string loader, loader_release, loader_source, loader_module;
  std::string got, release, source, module;
  std::string verdict, mode;
  std::int64_t drops = 0;
};

// What a line of a syslog file or a spool file is to the reader.
enum class LineKind {
  record,    // a whole record
  other,     // not a record at all (another program's syslog line)
  torn,      // a record cut short or changed on the way (its sum does not match, a field is gone)
  forged,    // a whole record that cannot be what the shim wrote for its sender
  newer,     // a record of a later format than this reader knows
  too_long,  // longer than any record can be (CUDNN_COMPAT_USAGE_MAX): never read as one
};
std::string_view to_string(LineKind k);

struct LineRead {
  LineKind kind = LineKind::other;
  UsageRecord record;  // when kind is record
  std::string why;     // for torn, forged, newer: what gave it away
};

// Where a line came from, for the reader's checks.
struct LineOrigin {
  bool spool = false;                 // a spool file: every line must be a record
  std::optional<std::int64_t> owner;  // the spool file's owner, whose records it may hold
  std::string file_host;              // the host its name says (HOST.UID.usage), or ""
  std::int64_t now = 0;               // the reader's clock: a record from the future is no record
};

// The uid a spool file's name (without ".usage") is for: HOST.UID, or a process's own HOST.UID~PID
// (shim/shared/usage_record.h); nullopt for another name.
std::optional<std::int64_t> spool_name_uid(std::string_view stem);
// A record in a syslog line ("... cudnn-compat-usage[PID]: [uid=N] U1 ...", uid= being the
// syslog daemon's word on the sender, docs/usage.md) or a spool line ("U1 ...").
LineRead read_usage_line(std::string_view line, const LineOrigin &origin);
// The value of an encoded field (%XX undone; a cut value keeps its start and ends in "...").
std::string decode_value(std::string_view v);

// ---------------------------------------------------------------------------------------------
// store.cc: the database (SQLite, one file, a versioned schema; docs/usage.md).

inline constexpr int kUsageSchema = 2;

struct IngestCounts {
  std::int64_t lines = 0, added = 0, known = 0, other = 0;
  std::int64_t torn = 0, forged = 0, newer = 0, too_long = 0;
  std::vector<std::string> examples;  // the first few skipped lines' reasons, for people
};

// A need the records of a release show: the cuDNN its processes were built with ("8.9"; "" for
// any of the major) and the CUDA they run ("12"; "" when none was said), with their processes.
struct UsageNeed {
  std::string cudnn, cuda;
  std::int64_t records = 0;
  bool operator==(const UsageNeed &) const = default;
};

// One source's lines, read by the caller, fed in order; the store keeps the rest.
class UsageStore {
 public:
  // Opens the database (creates it when `create`); on failure error() says why in one line (a
  // newer schema, not a database of ours, none there, cannot be created).
  UsageStore(const std::string &path, bool create);
  ~UsageStore();
  UsageStore(const UsageStore &) = delete;
  UsageStore &operator=(const UsageStore &) = delete;
  const std::string &error() const { return error_; }

  // Ingesting one source: begin, add each record, then commit (or nothing of it is kept). A
  // source's offset lets the next ingest of a growing file start where this one stopped, while
  // the file is the same (inode) and still holds what was read (mark: a fingerprint of the bytes
  // before the offset, made by the caller; "" from a database of schema 1: cannot tell).
  bool begin(const std::string &source);
  std::optional<std::uint64_t> resume_offset(const std::string &source, std::uint64_t inode,
                                             std::string *mark = nullptr);
  // true when the record was new; false when it was known (or the store failed: see error()).
  bool add(const UsageRecord &r, const std::string &user);
  // The record is in the database (by its key: host, pid, time, ns, exe and name asked).
  bool knows(const UsageRecord &r);
  bool commit(const std::string &source, std::uint64_t inode, std::uint64_t offset,
              const std::string &mark, const IngestCounts &counts);
  void rollback();

  // The rows of the summary the report is made from (see usage_report).
  struct Row {
    std::string key;  // release, module, user or job ("" where none is known)
    std::int64_t records = 0, users = 0, jobs = 0, last = 0, redirected = 0, report_only = 0;
    using Counts = std::vector<std::pair<std::string, std::int64_t>>;  // release, processes
    Counts instead_of;  // what the loader would have given: {"9.0.0", 12}, {"none", 3}
    Counts would;       // report-only: what the shim would have handed over
    std::vector<std::string> user_names, release_names;  // of the rows
  };
  std::vector<Row> summary(const std::string &by, std::int64_t since);
  // Per day and release: records, for the chart.
  std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> daily(std::int64_t since);
  // Records known dropped (the largest count each host and user reported), and skipped lines.
  std::int64_t drops_known();
  IngestCounts skipped_total();
  // Who used a release (as handed over or kept), for retire: user, jobs, records, last use, and
  // the needs the records show ("8.9", "-"). Then, each marked redirected_away, who had it as the
  // loader's own choice but was handed another: their module still loads it, and they see its
  // retirement message as well.
  struct Use {
    std::string user;
    std::int64_t records = 0, jobs = 0, last = 0;
    bool redirected_away = false;
  };
  std::vector<Use> users_of(const std::string &release);
  std::vector<UsageNeed> needs_of(const std::string &release);

 private:
  void *db_ = nullptr;  // sqlite3*
  std::string error_;
  std::map<std::string, void *> statements_;  // sqlite3_stmt*, prepared once
  void *statement(const std::string &sql);
  bool exec(const std::string &sql);
};

// ---------------------------------------------------------------------------------------------
// report.cc: the report, for people, scripts and a browser (pure).

struct UsageReport {
  std::string by;  // release, module, user, job
  std::int64_t since = 0;
  std::vector<UsageStore::Row> rows;
  std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> daily;
  std::int64_t drops = 0;
  IngestCounts skipped;
};
std::string report_text(const UsageReport &r);
std::string report_html(const UsageReport &r);  // a page with an SVG chart of use per release
std::string chart_svg(
    const std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> &daily);
// "2025-06-30" of seconds since the epoch, in UTC, and the reverse (nullopt unless a date).
std::string utc_date(std::int64_t t);

// ---------------------------------------------------------------------------------------------
// retire.cc: retiring a release (pure: the caller reads the map and the database).

struct Retirement {
  const Installed *release = nullptr;      // the release retiring (its first place)
  std::vector<std::string> modules;        // the modules of all its places (EasyBuild's, Spack's)
  const Installed *replacement = nullptr;  // the one decision's choice for its users, or none
  std::string date;                        // YYYY-MM-DD
  std::vector<std::string> needs;          // the needs it was chosen for
  std::string unmet;                       // needs no release fits but the retiring one
};
// The release of version `version` in the map, and the release that replaces it: rank()'s best
// for every need the records show (needs: "8.9" or "" for any of the major, with their counts),
// the retiring release set aside; where no one release fits them all, the one that fits the most
// records, and `unmet` says which it does not.
Parsed<Retirement> plan_retirement(const Map &map, const Version &version,
                                   const std::vector<UsageNeed> &needs, const std::string &date);
// Lmod's admin.list entry ("MODULE: message", LMOD_ADMIN_FILE) and Environment Modules' modulerc
// lines (module-forbid --after DATE --nearly-message ..., module-warn on versions that have it).
std::string lmod_admin_entry(const Retirement &r);
std::string envmodules_stanza(const Retirement &r);
// Why Environment Modules `modules_version` (x.y.z) would refuse a modulerc that starts with
// `text`: its magic cookie, "#%Module" optionally followed by a version no newer than the running
// one (modulecmd.tcl's rule); "" when it would read it.
std::string modulerc_cookie_problem(std::string_view text, std::string_view modules_version);
// The map's text with retire_after = "DATE" in the release's [[cudnn]] table (set or replaced),
// every other byte as the admin wrote it; nullopt when the table cannot be found in the text.
std::optional<std::string> mark_in_map_text(const std::string &text, const Installed &release,
                                            const std::string &date);

}  // namespace cudnn_compat
