// The usage database: SQLite, one file, schema kUsageSchema (docs/usage.md). Records are kept
// whole (an admin may ask them anything in SQL) under the key no two records share (host, pid,
// time to the nanosecond, program and name asked: a process records a major once, and an image
// it execs is another program or another instant), so that ingesting a line twice adds nothing;
// the report reads a summary per day kept beside them as each new record arrives.
#include "text.h"
#include "usage.h"

#include <sqlite3.h>

namespace cudnn_compat {
namespace {

sqlite3 *handle(void *p) {
  return static_cast<sqlite3 *>(p);
}
sqlite3_stmt *stmt(void *p) {
  return static_cast<sqlite3_stmt *>(p);
}

constexpr const char *kFormat = "cudnn-compat usage records";

// Schema 1, as the first release made it; a new database is made so, then migrated like an old
// one, so that every database takes the one path to kUsageSchema.
constexpr const char *kSchemaSql = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE records(
  host TEXT NOT NULL, pid INTEGER NOT NULL, time INTEGER NOT NULL, asked TEXT NOT NULL,
  uid INTEGER NOT NULL, user TEXT NOT NULL, job TEXT NOT NULL, exe TEXT NOT NULL,
  requester TEXT NOT NULL, need TEXT NOT NULL, cuda TEXT NOT NULL, need_from TEXT NOT NULL,
  loader TEXT NOT NULL, loader_release TEXT NOT NULL, loader_source TEXT NOT NULL,
  loader_module TEXT NOT NULL, got TEXT NOT NULL, release TEXT NOT NULL, source TEXT NOT NULL,
  module TEXT NOT NULL, verdict TEXT NOT NULL, mode TEXT NOT NULL,
  used_release TEXT NOT NULL, used_module TEXT NOT NULL,
  PRIMARY KEY (host, pid, time, asked)) WITHOUT ROWID;
CREATE TABLE daily(
  day INTEGER NOT NULL, release TEXT NOT NULL, module TEXT NOT NULL, user TEXT NOT NULL,
  job TEXT NOT NULL, need TEXT NOT NULL, instead TEXT NOT NULL, would TEXT NOT NULL,
  records INTEGER NOT NULL, redirected INTEGER NOT NULL, report_only INTEGER NOT NULL,
  last INTEGER NOT NULL,
  PRIMARY KEY (day, release, module, user, job, need, instead, would)) WITHOUT ROWID;
CREATE TABLE drops(host TEXT NOT NULL, uid INTEGER NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (host, uid)) WITHOUT ROWID;
CREATE TABLE sources(source TEXT PRIMARY KEY, inode INTEGER NOT NULL, offset INTEGER NOT NULL,
  lines INTEGER NOT NULL, added INTEGER NOT NULL, known INTEGER NOT NULL, other INTEGER NOT NULL,
  torn INTEGER NOT NULL, forged INTEGER NOT NULL, newer INTEGER NOT NULL,
  too_long INTEGER NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
)SQL";

// Schema 1 to 2: records keyed by (host, pid, time, ns, exe, asked), ns being the record's
// nanoseconds (0 for records of schema 1: their shims did not say): a program an execve started
// records under its parent's pid, often in the same second, and was taken for a copy of the
// parent's record. And each source's fingerprint of the bytes read ("" for sources of schema 1:
// read again from the start next time, which adds nothing known), so that a file emptied and
// written again in place is told from one that grew.
constexpr const char *kMigrateTo2 = R"SQL(
CREATE TABLE records2(
  host TEXT NOT NULL, pid INTEGER NOT NULL, time INTEGER NOT NULL, asked TEXT NOT NULL,
  uid INTEGER NOT NULL, user TEXT NOT NULL, job TEXT NOT NULL, exe TEXT NOT NULL,
  requester TEXT NOT NULL, need TEXT NOT NULL, cuda TEXT NOT NULL, need_from TEXT NOT NULL,
  loader TEXT NOT NULL, loader_release TEXT NOT NULL, loader_source TEXT NOT NULL,
  loader_module TEXT NOT NULL, got TEXT NOT NULL, release TEXT NOT NULL, source TEXT NOT NULL,
  module TEXT NOT NULL, verdict TEXT NOT NULL, mode TEXT NOT NULL,
  used_release TEXT NOT NULL, used_module TEXT NOT NULL, ns INTEGER NOT NULL,
  PRIMARY KEY (host, pid, time, ns, exe, asked)) WITHOUT ROWID;
INSERT INTO records2 SELECT *, 0 FROM records;
DROP TABLE records;
ALTER TABLE records2 RENAME TO records;
ALTER TABLE sources ADD COLUMN mark TEXT NOT NULL DEFAULT '';
PRAGMA user_version=2;
)SQL";

// What the process loaded, and what the report says it was handed instead of.
struct Used {
  std::string release, module, instead, would;
};
Used used_of(const UsageRecord &r) {
  if (r.mode == "record" && r.verdict == "redirected")
    return {r.release, r.module, r.loader_release.empty() ? "none" : r.loader_release, ""};
  if (r.mode != "record")  // report-only: the loader's stood
    return {r.loader_release, r.loader_module, "", r.verdict == "redirected" ? r.release : ""};
  return {r.release, r.module, "", ""};
}

void bind(sqlite3_stmt *s, int i, const std::string &v) {
  sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
}
void bind(sqlite3_stmt *s, int i, std::int64_t v) {
  sqlite3_bind_int64(s, i, v);
}
template <class... T>
void bind_all(sqlite3_stmt *s, const T &...v) {
  sqlite3_reset(s);
  int i = 0;
  (bind(s, ++i, v), ...);
}
// The one number a query answers, or -1 when the file cannot answer it (not a database).
int int_of(sqlite3 *db, const char *sql) {
  sqlite3_stmt *s = nullptr;
  int n = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
    n = sqlite3_column_int(s, 0);
  sqlite3_finalize(s);
  return n;
}
std::string column(sqlite3_stmt *s, int i) {
  const unsigned char *t = sqlite3_column_text(s, i);
  return t ? reinterpret_cast<const char *>(t) : "";
}

// group_concat()'s list (user names and release numbers hold no comma).
std::vector<std::string> split_list(const std::string &text) {
  std::vector<std::string> out;
  if (!text.empty())
    for (std::string_view v : split(text, ',')) out.emplace_back(v);
  return out;
}

}  // namespace

UsageStore::UsageStore(const std::string &path, bool create) {
  sqlite3 *db = nullptr;
  const int rc = sqlite3_open_v2(
      path.c_str(), &db, create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY,
      nullptr);
  db_ = db;
  if (rc != SQLITE_OK) {
    error_ = create ? path + ": cannot open or create the database (" + sqlite3_errstr(rc) + ")"
                    : "no usage database at " + path + " (" + sqlite3_errstr(rc) +
                          "); `cudnn-compat usage ingest SOURCE... --db " + path + "` makes it";
    return;
  }
  sqlite3_busy_timeout(db, 10000);
  const int version = int_of(db, "PRAGMA user_version");
  const int tables = version < 0 ? 0 : int_of(db, "SELECT count(*) FROM sqlite_master");
  if (version < 0) {
    error_ = path + " is not an SQLite database (" + sqlite3_errmsg(db) +
             "); give --db a new file or the one `usage ingest` made";
    return;
  }
  if (version > kUsageSchema) {
    error_ = path + " holds usage records of schema " + std::to_string(version) +
             ", written by a newer cudnn-compat; this one reads schema " +
             std::to_string(kUsageSchema) + ". Use that cudnn-compat, or another --db";
    return;
  }
  // (Another ingest may have made it between the two reads: its tables then come with a version.)
  if (version == 0 && tables > 0 && int_of(db, "PRAGMA user_version") == 0) {
    error_ = path +
             " is an SQLite database of something else (no usage schema); give --db a "
             "new file or the one `usage ingest` made";
    return;
  }
  exec("PRAGMA synchronous=NORMAL");
  exec("PRAGMA cache_size=-65536");
  // Made and migrated under the write lock, the schema read again there: two ingests that start
  // together on a new file make it once, and the second finds it made.
  if (version == 0 &&
      !(exec("BEGIN IMMEDIATE") &&
        (int_of(db, "PRAGMA user_version") != 0 ||
         (exec(kSchemaSql) &&
          exec("INSERT INTO meta VALUES('format', '" + std::string(kFormat) + "')") &&
          exec("PRAGMA user_version=1"))) &&
        exec("COMMIT"))) {
    error_ = path + ": cannot create the database: " + error_;
    rollback();
    return;
  }
  // An older schema is migrated by ingest (it writes); report and retire read what they need of
  // it as it is.
  if (create && version < 2 &&
      !(exec("BEGIN IMMEDIATE") && (int_of(db, "PRAGMA user_version") >= 2 || exec(kMigrateTo2)) &&
        exec("COMMIT"))) {
    error_ = path + ": cannot bring the database to schema " + std::to_string(kUsageSchema) + " (" +
             error_ + "); it is left as it was";
    rollback();
  }
}

UsageStore::~UsageStore() {
  for (auto &[sql, s] : statements_) sqlite3_finalize(stmt(s));
  sqlite3_close(handle(db_));
}

bool UsageStore::exec(const std::string &sql) {
  char *message = nullptr;
  if (sqlite3_exec(handle(db_), sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  error_ = message ? message : sqlite3_errmsg(handle(db_));
  sqlite3_free(message);
  return false;
}

void *UsageStore::statement(const std::string &sql) {
  void *&s = statements_[sql];
  if (!s) {
    sqlite3_stmt *p = nullptr;
    if (sqlite3_prepare_v2(handle(db_), sql.c_str(), -1, &p, nullptr) != SQLITE_OK)
      error_ = sqlite3_errmsg(handle(db_));
    s = p;
  }
  return s;
}

bool UsageStore::begin(const std::string &) {
  return exec("BEGIN IMMEDIATE");
}

void UsageStore::rollback() {
  sqlite3_exec(handle(db_), "ROLLBACK", nullptr, nullptr, nullptr);
}

std::optional<std::uint64_t> UsageStore::resume_offset(const std::string &source,
                                                       std::uint64_t inode, std::string *mark) {
  sqlite3_stmt *s = stmt(statement("SELECT inode, offset, mark FROM sources WHERE source = ?"));
  if (!s) return std::nullopt;
  bind_all(s, source);
  std::optional<std::uint64_t> offset;
  if (sqlite3_step(s) == SQLITE_ROW && std::uint64_t(sqlite3_column_int64(s, 0)) == inode) {
    offset = std::uint64_t(sqlite3_column_int64(s, 1));
    if (mark) *mark = column(s, 2);
  }
  sqlite3_reset(s);
  return offset;
}

bool UsageStore::knows(const UsageRecord &r) {
  sqlite3_stmt *s = stmt(statement(
      "SELECT 1 FROM records WHERE host = ? AND pid = ? AND time = ? AND ns = ? AND exe = ? AND "
      "asked = ?"));
  if (!s) return false;
  bind_all(s, r.host, r.pid, r.time, r.ns, r.exe, r.asked);
  const bool known = sqlite3_step(s) == SQLITE_ROW;
  sqlite3_reset(s);
  return known;
}

bool UsageStore::add(const UsageRecord &r, const std::string &user) {
  sqlite3_stmt *insert = stmt(statement(
      "INSERT OR IGNORE INTO records VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  sqlite3_stmt *day = stmt(statement(
      "INSERT INTO daily VALUES(?,?,?,?,?,?,?,?,1,?,?,?) ON CONFLICT DO UPDATE SET "
      "records = records + 1, redirected = redirected + excluded.redirected, "
      "report_only = report_only + excluded.report_only, last = max(last, excluded.last)"));
  sqlite3_stmt *drops =
      stmt(statement("INSERT INTO drops VALUES(?,?,?) ON CONFLICT DO UPDATE SET count = max(count, "
                     "excluded.count)"));
  if (!insert || !day || !drops) return false;
  const Used u = used_of(r);
  bind_all(insert, r.host, r.pid, r.time, r.asked, r.uid, user, r.job, r.exe, r.by, r.need, r.cuda,
           r.from, r.loader, r.loader_release, r.loader_source, r.loader_module, r.got, r.release,
           r.source, r.module, r.verdict, r.mode, u.release, u.module, r.ns);
  if (sqlite3_step(insert) != SQLITE_DONE) {
    error_ = sqlite3_errmsg(handle(db_));
    return false;
  }
  if (sqlite3_changes(handle(db_)) == 0) return false;  // known already
  const std::int64_t redirected = r.verdict == "redirected" && r.mode == "record";
  const std::int64_t report_only = r.mode != "record";
  bind_all(day, r.time / 86400, u.release, u.module, user, r.job, r.need, u.instead, u.would,
           redirected, report_only, r.time);
  bool ok = sqlite3_step(day) == SQLITE_DONE;
  if (ok && r.drops > 0) {
    bind_all(drops, r.host, r.uid, r.drops);
    ok = sqlite3_step(drops) == SQLITE_DONE;
  }
  if (!ok) error_ = sqlite3_errmsg(handle(db_));
  return ok;
}

bool UsageStore::commit(const std::string &source, std::uint64_t inode, std::uint64_t offset,
                        const std::string &mark, const IngestCounts &c) {
  sqlite3_stmt *s = stmt(statement(
      "INSERT INTO sources(source, inode, offset, lines, added, known, other, torn, forged, newer, "
      "too_long, at, mark) VALUES(?,?,?,?,?,?,?,?,?,?,?,strftime('%s','now'),?) ON CONFLICT DO "
      "UPDATE SET inode = excluded.inode, offset = excluded.offset, lines = lines + "
      "excluded.lines, added = added + excluded.added, known = known + excluded.known, other = "
      "other + excluded.other, torn = torn + excluded.torn, forged = forged + excluded.forged, "
      "newer = newer + excluded.newer, too_long = too_long + excluded.too_long, at = excluded.at, "
      "mark = excluded.mark"));
  if (!s) return false;
  bind_all(s, source, std::int64_t(inode), std::int64_t(offset), c.lines, c.added, c.known, c.other,
           c.torn, c.forged, c.newer, c.too_long, mark);
  if (sqlite3_step(s) != SQLITE_DONE) {
    error_ = sqlite3_errmsg(handle(db_));
    return false;
  }
  return exec("COMMIT");
}

std::vector<UsageStore::Row> UsageStore::summary(const std::string &by, std::int64_t since) {
  const std::string key = by == "module" || by == "user" || by == "job" ? by : "release";
  // Processes with no job (outside Slurm) are a row of their own, as with no module.
  const std::string where = " WHERE day >= ?";
  sqlite3_stmt *s =
      stmt(statement("SELECT " + key +
                     ", sum(records), count(DISTINCT user), count(DISTINCT nullif(job, '')), "
                     "max(last), sum(redirected), sum(report_only), group_concat(DISTINCT user), "
                     "group_concat(DISTINCT nullif(release, '')) FROM daily" +
                     where + " GROUP BY " + key + " ORDER BY sum(records) DESC, " + key));
  std::vector<Row> rows;
  if (!s) return rows;
  std::map<std::string, std::size_t> at;
  for (bind_all(s, since / 86400); sqlite3_step(s) == SQLITE_ROW;) {
    at[column(s, 0)] = rows.size();
    rows.push_back({column(s, 0),
                    sqlite3_column_int64(s, 1),
                    sqlite3_column_int64(s, 2),
                    sqlite3_column_int64(s, 3),
                    sqlite3_column_int64(s, 4),
                    sqlite3_column_int64(s, 5),
                    sqlite3_column_int64(s, 6),
                    {},
                    {},
                    split_list(column(s, 7)),
                    split_list(column(s, 8))});
  }
  // {release, processes} per key, of the instead or would column, the most first.
  for (const std::string which : {"instead", "would"}) {
    sqlite3_stmt *list = stmt(
        statement("SELECT " + key + ", " + which + ", sum(records) FROM daily" + where + " AND " +
                  which + " != '' GROUP BY " + key + ", " + which + " ORDER BY 3 DESC, 2"));
    for (bind_all(list, since / 86400); list && sqlite3_step(list) == SQLITE_ROW;) {
      Row &row = rows[at[column(list, 0)]];
      (which == "instead" ? row.instead_of : row.would)
          .emplace_back(column(list, 1), sqlite3_column_int64(list, 2));
    }
  }
  return rows;
}

std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> UsageStore::daily(
    std::int64_t since) {
  std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> out;
  sqlite3_stmt *s = stmt(
      statement("SELECT day, release, sum(records) FROM daily WHERE day >= ? GROUP BY day, release "
                "ORDER BY day, release"));
  if (!s) return out;
  for (bind_all(s, since / 86400); sqlite3_step(s) == SQLITE_ROW;)
    out.emplace_back(sqlite3_column_int64(s, 0) * 86400, column(s, 1), sqlite3_column_int64(s, 2));
  return out;
}

std::int64_t UsageStore::drops_known() {
  sqlite3_stmt *s = stmt(statement("SELECT coalesce(sum(count), 0) FROM drops"));
  if (!s) return 0;
  sqlite3_reset(s);
  const std::int64_t n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
  sqlite3_reset(s);
  return n;
}

IngestCounts UsageStore::skipped_total() {
  IngestCounts c;
  sqlite3_stmt *s = stmt(
      statement("SELECT coalesce(sum(lines), 0), coalesce(sum(added), 0), coalesce(sum(known), 0), "
                "coalesce(sum(other), 0), coalesce(sum(torn), 0), coalesce(sum(forged), 0), "
                "coalesce(sum(newer), 0), coalesce(sum(too_long), 0) FROM sources"));
  if (!s) return c;
  sqlite3_reset(s);
  if (sqlite3_step(s) == SQLITE_ROW) {
    std::int64_t *fields[] = {&c.lines, &c.added,  &c.known, &c.other,
                              &c.torn,  &c.forged, &c.newer, &c.too_long};
    for (int i = 0; i < 8; ++i) *fields[i] = sqlite3_column_int64(s, i);
  }
  sqlite3_reset(s);
  return c;
}

std::vector<UsageStore::Use> UsageStore::users_of(const std::string &release) {
  std::vector<Use> out;
  // Those who loaded it, then those whose loads were redirected away from it (the loader's own
  // choice was this release, the shim handed over another: their module still names it, so they
  // see its retirement message too).
  for (const std::string which : {"release", "instead"}) {
    sqlite3_stmt *s = stmt(statement(
        "SELECT user, sum(records), count(DISTINCT nullif(job, '')), max(last) FROM daily WHERE " +
        which + " = ? GROUP BY user ORDER BY 2 DESC, 1"));
    if (!s) return out;
    for (bind_all(s, release); sqlite3_step(s) == SQLITE_ROW;)
      out.push_back({column(s, 0), sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2),
                     sqlite3_column_int64(s, 3), which == "instead"});
  }
  return out;
}

std::vector<UsageNeed> UsageStore::needs_of(const std::string &release) {
  std::vector<UsageNeed> out;
  // The release a process loaded, as used_of() says: a report-only process kept the loader's.
  sqlite3_stmt *s = stmt(statement(
      "SELECT need, cuda, count(*) FROM records WHERE (CASE mode WHEN 'record' THEN release ELSE "
      "loader_release END) = ? GROUP BY need, cuda ORDER BY 3 DESC, 1, 2"));
  if (!s) return out;
  for (bind_all(s, release); sqlite3_step(s) == SQLITE_ROW;)
    out.push_back({column(s, 0), column(s, 1), sqlite3_column_int64(s, 2)});
  return out;
}

}  // namespace cudnn_compat
