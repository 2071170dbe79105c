// Usage records (issue 21): the format written by the shim's C encoder and read by the reader, the
// map's [usage] and retire_after, the decision table's rows for the shim's records, the engine's
// fields, the SQLite store, the report and the retirement stanzas.
#include "cudnn_compat.h"
#include "usage_record.h"

#include <sqlite3.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

// A record as the shim writes it, from key/value pairs.
std::string record(const std::vector<std::pair<std::string, std::string>> &fields) {
  char line[CUDNN_COMPAT_USAGE_MAX + 1] = CUDNN_COMPAT_USAGE_MAGIC;
  long at = 2;
  for (const auto &[k, v] : fields)
    at = cudnn_compat_usage_put(line, sizeof line - 16, at, k.c_str(), v.data(), long(v.size()));
  char sum[16];
  std::snprintf(sum, sizeof sum, " sum=%08x", cudnn_compat_usage_sum(line, at));
  return std::string(line, std::size_t(at)) + sum;
}

std::vector<std::pair<std::string, std::string>> fields(std::string uid = "1000") {
  return {{"t", "1733081341"},  {"host", "node7"},
          {"uid", uid},         {"job", "4242.0"},
          {"pid", "81"},        {"exe", "/opt/my app/python%3"},
          {"by", ""},           {"asked", "libcudnn.so.9"},
          {"need", "9.1"},      {"cuda", "-"},
          {"from", "env"},      {"loader", "/usr/lib/libcudnn.so.9"},
          {"lrel", "9.0.0"},    {"lsrc", "system"},
          {"lmod", ""},         {"got", "/opt/cudnn/9.1/lib/libcudnn.so.9"},
          {"rel", "9.1.0"},     {"src", "module"},
          {"mod", "cudnn/9.1"}, {"verdict", "redirected"},
          {"mode", "record"},   {"drops", "3"}};
}

LineOrigin syslog_origin() {
  return {};
}

TEST(UsageRecord, WhatTheShimEncodesReadsBackWhole) {
  const std::string line =
      "Dec  1 20:29:01 node7 " CUDNN_COMPAT_USAGE_TAG "[81]: uid=1000 " + record(fields());
  EXPECT_EQ(line.find(' ', line.find("exe=")), line.find(" by="));  // the space is encoded
  const LineRead r = read_usage_line(line, syslog_origin());
  ASSERT_EQ(r.kind, LineKind::record) << r.why;
  EXPECT_EQ(r.record.time, 1733081341);
  EXPECT_EQ(r.record.exe, "/opt/my app/python%3");
  EXPECT_EQ(r.record.by, "");
  EXPECT_EQ(r.record.cuda, "-");  // a value that is "-" itself stays one
  EXPECT_EQ(r.record.job, "4242.0");
  EXPECT_EQ(r.record.loader_release, "9.0.0");
  EXPECT_EQ(r.record.module, "cudnn/9.1");
  EXPECT_EQ(r.record.verdict, "redirected");
  EXPECT_EQ(r.record.drops, 3);
}

TEST(UsageRecord, ALongValueIsCutAndSaysSo) {
  auto f = fields();
  f[5].second = "/" + std::string(2000, 'x');
  const LineRead r = read_usage_line(record(f), {true, {}, "", 0});
  ASSERT_EQ(r.kind, LineKind::record) << r.why;
  EXPECT_EQ(r.record.exe.size(), std::size_t(CUDNN_COMPAT_USAGE_VALUE_MAX) + 3);
  EXPECT_TRUE(r.record.exe.ends_with("..."));
}

TEST(UsageRecord, TornForgedNewerAndOtherLinesAreToldApart) {
  const std::string good = record(fields());
  std::string changed = good;
  changed[changed.find("node7")] = 'm';
  EXPECT_EQ(read_usage_line(changed, {true, {}, "", 0}).kind, LineKind::torn);
  EXPECT_EQ(read_usage_line(good.substr(0, good.size() - 20), {true, {}, "", 0}).kind,
            LineKind::torn);
  EXPECT_EQ(read_usage_line(good + " junk", {true, {}, "", 0}).kind, LineKind::torn);
  // Another user's uid in a user's spool file, or another host in a host's.
  EXPECT_EQ(read_usage_line(good, {true, 1001, "", 0}).kind, LineKind::forged);
  EXPECT_EQ(read_usage_line(good, {true, 1000, "node8", 0}).kind, LineKind::forged);
  EXPECT_EQ(read_usage_line(good, {true, 1000, "node7", 0}).kind, LineKind::record);
  // The syslog daemon's own word on the sender.
  const std::string tag = "node7 " CUDNN_COMPAT_USAGE_TAG "[81]: ";
  EXPECT_EQ(read_usage_line(tag + "uid=0 " + good, syslog_origin()).kind, LineKind::forged);
  EXPECT_EQ(read_usage_line(tag + "uid=1000 " + good, syslog_origin()).kind, LineKind::record);
  // Without the daemon's word on the sender (a network input), any uid could be claimed.
  for (const char *annotation : {"", "uid= ", "uid=abc "})
    EXPECT_EQ(read_usage_line(tag + annotation + good, syslog_origin()).kind, LineKind::forged)
        << annotation;
  // A verdict the shim never writes, and a record from the future.
  auto f = fields();
  f[19].second = "granted";
  EXPECT_EQ(read_usage_line(record(f), {true, {}, "", 0}).kind, LineKind::forged);
  EXPECT_EQ(read_usage_line(good, {true, {}, "", 1733081341 - 3 * 86400}).kind, LineKind::forged);
  EXPECT_EQ(read_usage_line(tag + "U2 t=1 sum=00000000", syslog_origin()).kind, LineKind::newer);
  EXPECT_EQ(read_usage_line("node7 sshd[2]: Accepted publickey", syslog_origin()).kind,
            LineKind::other);
  EXPECT_EQ(read_usage_line(tag + std::string(5000, 'U'), syslog_origin()).kind,
            LineKind::too_long);
}

TEST(UsageMap, ReadsUsageAndRetireAfter) {
  const MapLoad m = parse_map(R"(schema = 1
[usage]
mode = "report-only"
to = "/var/spool/cudnn-compat"
sample = 0.25
[[cudnn]]
version = "8.9.2"
lib = "/a"
retire_after = 2025-06-30
[[cudnn]]
version = "8.9.7"
lib = "/b"
retire_after = "2031-01-31"
)",
                              "map.toml");
  ASSERT_TRUE(m.map) << (m.diagnostics.empty() ? "" : to_string(m.diagnostics[0]));
  EXPECT_TRUE(m.map->usage.given);
  EXPECT_EQ(m.map->usage.mode, UsageMode::report_only);
  EXPECT_EQ(m.map->usage.to, "/var/spool/cudnn-compat");
  EXPECT_EQ(m.map->usage.sample, 0.25);
  EXPECT_EQ(m.map->cudnn[0].retire_after, "2025-06-30");
  EXPECT_EQ(usage_settings_text(m.map->usage, '\t'),
            "usage\treport-only\t250000\t/var/spool/cudnn-compat");
  // format_map writes what it read.
  const MapLoad again = parse_map(format_map(*m.map), "map.toml");
  ASSERT_TRUE(again.map);
  EXPECT_EQ(again.map->usage.sample, 0.25);
  EXPECT_EQ(again.map->cudnn[1].retire_after, "2031-01-31");
}

TEST(UsageMap, BadSettingsAreErrorsAtTheirPlace) {
  for (const char *bad : {"mode = \"on\"", "to = \"spool\"", "sample = 2", "sample = \"all\""}) {
    const MapLoad m = parse_map(std::string("schema = 1\n[usage]\n") + bad + "\n", "map.toml");
    ASSERT_FALSE(m.map) << bad;
    EXPECT_EQ(m.diagnostics[0].pos.line, 3) << bad;
  }
  const MapLoad m = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.2\"\nlib = \"/a\"\nretire_after = \"2025-02-30\"\n",
      "map.toml");
  ASSERT_FALSE(m.map);
  EXPECT_NE(m.diagnostics[0].message.find("YYYY-MM-DD"), std::string::npos);
}

TEST(UsageMap, TheCacheCarriesUsageAndRetirement) {
  const MapLoad m = parse_map(
      "schema = 1\n[usage]\nmode = \"record\"\nsample = 0.1\n[[cudnn]]\nversion = \"8.9.2\"\n"
      "lib = \"/a\"\nretire_after = \"2025-06-30\"\n",
      "map.toml");
  ASSERT_TRUE(m.map);
  const FileStamp stamp{2, 3, 4, 5, 6, 7};
  const std::optional<MapLoad> back =
      parse_map_cache(format_map_cache(*m.map, {}, stamp), "map.toml");
  ASSERT_TRUE(back && back->map);
  EXPECT_EQ(back->map->usage.mode, UsageMode::record);
  EXPECT_EQ(back->map->usage.sample, 0.1);
  EXPECT_EQ(back->map->usage.to, "syslog");
  EXPECT_EQ(back->map->cudnn[0].retire_after, "2025-06-30");
}

Map retiring_map() {
  return *parse_map(R"(schema = 1
[[cudnn]]
version = "8.9.2"
lib = "/a"
module = "cudnn/8.9.2"
retire_after = "2025-06-30"
[[cudnn]]
version = "8.9.7"
lib = "/b"
module = "cuDNN/8.9.7.29-CUDA-12.2.0"
[[cudnn]]
version = "8.5.0"
lib = "/c"
module = "cudnn/8.5"
)",
                    "map.toml")
              .map;
}

TEST(Retire, FromItsDayOnAReleaseFitsNothing) {
  Map map = retiring_map();
  const std::int64_t day = *day_start("2025-06-30");
  Need need;
  need.cudnn = Version{8, 9, 0, {}};
  const LibraryName any8{"", Version{8, {}, {}, {}}, false};
  mark_retired(map, day - 1);
  EXPECT_EQ(rank(map, need, any8), (std::vector<std::size_t>{1, 0}));
  mark_retired(map, day);
  EXPECT_EQ(rank(map, need, any8), (std::vector<std::size_t>{1}));
  EXPECT_NE(choose(map, need, any8).considered[0].why.find("retired on 2025-06-30"),
            std::string::npos);
}

TEST(Retire, TheTableLeavesARetiringReleaseToTheEngineAndNamesReleasesForRecords) {
  const Map map = retiring_map();
  TableFacts f;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    f.probes.push_back(Probe{"/lib" + std::to_string(i) + "/libcudnn.so.8", map.cudnn[i].version,
                             std::nullopt, ProbeSource::library, ""});
    f.files.push_back(FileStamp{10 + i, 100, 1000, 0});
  }
  const std::string t = format_decision_table(map, FileStamp{1, 2, 3, 0}, f);
  EXPECT_EQ(t.find("lib\t0\t"), std::string::npos) << t;
  EXPECT_NE(t.find("lib\t1\t11\t100\t1000\t/lib1/libcudnn.so.8\n"), std::string::npos) << t;
  EXPECT_NE(t.find("rel\t1\t8907\tmodule\t8.9.7\tcuDNN/8.9.7.29-CUDA-12.2.0\t"), std::string::npos)
      << t;
  EXPECT_NE(t.find("\t1,0\n"), std::string::npos) << t;  // still ranked: 8.9.7, then 8.9.2
  EXPECT_EQ(t.find("usage"), std::string::npos);         // no [usage]: no settings row
  Map on = map;
  on.usage = {true, UsageMode::record, "syslog", 1.0};
  const std::string with = format_decision_table(on, FileStamp{1, 2, 3, 0}, f);
  const std::size_t second = with.find('\n') + 1;
  EXPECT_EQ(with.substr(second, with.find('\n', second) - second),
            "usage\trecord\t1000000\tsyslog");
}

// The replacement is the one decision's for the CUDA its users run too, as resolve --cuda says:
// not a newer cuDNN built for another CUDA.
TEST(Retire, TheReplacementRunsOnTheCudaItsUsersRun) {
  const Map map = *parse_map(R"(schema = 1
[[cudnn]]
version = "9.0.0"
lib = "/a"
cuda = "12.2"
module = "cudnn/9.0"
[[cudnn]]
version = "9.1.0"
lib = "/b"
cuda = "12.4"
module = "cudnn/9.1"
[[cudnn]]
version = "9.19.0"
lib = "/c"
cuda = "13.1"
)",
                             "map.toml")
                       .map;
  // Records that say no CUDA ran on the retiring build's (12.2): they loaded it.
  for (const std::vector<UsageNeed> &needs :
       {std::vector<UsageNeed>{{"9.0", "12", 3}}, std::vector<UsageNeed>{},
        std::vector<UsageNeed>{{"9.0", "", 2}}}) {
    const Parsed<Retirement> r = plan_retirement(map, Version{9, 0, 0, {}}, needs, "2027-03-01");
    ASSERT_TRUE(r && r->replacement) << r.error;
    EXPECT_EQ(to_string(r->replacement->version), "9.1.0") << needs.size();
    EXPECT_EQ(r->needs, std::vector<std::string>{"9.0 on CUDA 12"});
  }
}

TEST(Retire, TheReplacementFitsEveryNeedTheRecordsShow) {
  const Map map = retiring_map();
  const Parsed<Retirement> r =
      plan_retirement(map, Version{8, 9, 2, {}}, {{"8.9", "", 7}, {"8.5", "", 2}}, "2025-06-30");
  ASSERT_TRUE(r) << r.error;
  ASSERT_TRUE(r->replacement);
  EXPECT_EQ(to_string(r->replacement->version), "8.9.7");  // 8.9.7 fits 8.9 and 8.5 (nvidia)
  EXPECT_TRUE(r->unmet.empty());
  const Parsed<Retirement> exact =
      plan_retirement(map, Version{8, 9, 2, {}}, {{"8.9.2", "", 1}}, "2025-06-30");
  ASSERT_TRUE(exact);
  EXPECT_EQ(to_string(exact->replacement->version), "8.9.7");
  EXPECT_FALSE(plan_retirement(map, Version{7, 6, 5, {}}, {}, "2025-06-30"));
  // Lmod matches the key as a Lua pattern: anchored and escaped, it names this module only.
  const std::string lmod = lmod_admin_entry(*r);
  EXPECT_NE(lmod.find("\n^cudnn/8%.9%.2$: cuDNN 8.9.2"), std::string::npos) << lmod;
  EXPECT_NE(lmod.find("use cuDNN/8.9.7.29-CUDA-12.2.0 (cuDNN 8.9.7) instead"), std::string::npos);
  const std::string tcl = envmodules_stanza(*r);
  EXPECT_NE(tcl.find("module-forbid --after 2025-06-30 --nearly-message {"), std::string::npos);
  EXPECT_NE(tcl.find("} {cudnn/8.9.2}\n"), std::string::npos) << tcl;
}

TEST(Retire, TheMapGetsItsMarkAndKeepsEverythingElse) {
  const std::string text =
      "schema = 1  # ours\n\n[[cudnn]]  # old one\nversion = \"8.9.2\"\n"
      "lib = \"/a\"\n\n[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/b\"\n";
  const MapLoad m = parse_map(text, "map.toml");
  ASSERT_TRUE(m.map);
  const std::optional<std::string> marked = mark_in_map_text(text, m.map->cudnn[0], "2025-06-30");
  ASSERT_TRUE(marked);
  EXPECT_EQ(*marked,
            "schema = 1  # ours\n\n[[cudnn]]  # old one\nretire_after = \"2025-06-30\"\n"
            "version = \"8.9.2\"\nlib = \"/a\"\n\n[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/b\"\n");
  const MapLoad again = parse_map(*marked, "map.toml");
  ASSERT_TRUE(again.map);
  const std::optional<std::string> moved =
      mark_in_map_text(*marked, again.map->cudnn[0], "2025-07-31");
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->find("2025-06-30"), std::string::npos);
  EXPECT_NE(moved->find("retire_after = \"2025-07-31\"\nversion"), std::string::npos);
}

TEST(UsageFields, TheEngineSaysWhatItDecided) {
  const Map map = retiring_map();
  SelectInputs in;
  in.name = "libcudnn.so.8";
  in.need.cudnn = Version{8, 9, {}, {}};
  in.need.origin = NeedOrigin::asked;
  in.loader = LoaderHit{"/c/libcudnn.so.8", "LD_LIBRARY_PATH"};
  in.map = &map;
  Selection s;
  s.use = "/b/libcudnn.so.8";
  s.outcome = Outcome::redirected;
  s.loader_release = Version{8, 5, 0, {}};
  s.release = Version{8, 9, 7, {}};
  in.loader_source = Source::module;  // as select_inputs finds them (source_of_hit, source_of)
  s.source = Source::module;
  EXPECT_EQ(usage_fields(in, s),
            " need=8.9 cuda=- from=env loader=/c/libcudnn.so.8 lrel=8.5.0 lsrc=module "
            "lmod=cudnn/8.5 got=/b/libcudnn.so.8 rel=8.9.7 src=module "
            "mod=cuDNN/8.9.7.29-CUDA-12.2.0 verdict=redirected");
  // A wheel's own cuDNN that fits a framework's pin: kept, and its source is the loader's.
  in.need.origin = NeedOrigin::pin;
  in.loader = LoaderHit{"/v/site-packages/nvidia/cudnn/lib/libcudnn.so.8", "RUNPATH"};
  in.loader_source = Source::wheel;
  s = Selection{};
  s.outcome = Outcome::fit;
  s.loader_release = Version{8, 9, 7, {}};
  EXPECT_EQ(usage_fields(in, s),
            " need=8.9 cuda=- from=pin loader=/v/site-packages/nvidia/cudnn/lib/libcudnn.so.8 "
            "lrel=8.9.7 lsrc=wheel lmod=- got=/v/site-packages/nvidia/cudnn/lib/libcudnn.so.8 "
            "rel=8.9.7 src=wheel mod=- verdict=fit");
}

struct TempDb {
  std::string path =
      std::filesystem::temp_directory_path() / ("usage-test-" + std::to_string(getpid()) + ".db");
  ~TempDb() { std::filesystem::remove(path); }
};

UsageRecord a_record(std::int64_t pid, const std::string &release, const std::string &job) {
  UsageRecord r;
  r.time = 1733081341, r.host = "node7", r.uid = 1000, r.pid = pid, r.asked = "libcudnn.so.8";
  r.job = job, r.need = "8.9", r.got = "/b/libcudnn.so.8", r.release = release;
  r.module = "cudnn/" + release, r.loader_release = "8.5.0", r.verdict = "redirected";
  r.mode = "record";
  return r;
}

TEST(UsageStore, IngestTwiceAddsNothingAndTheSummaryCounts) {
  TempDb db;
  for (int round = 0; round < 2; ++round) {
    UsageStore s(db.path, true);
    ASSERT_EQ(s.error(), "");
    ASSERT_TRUE(s.begin("src"));
    int added = 0;
    for (int pid = 1; pid <= 3; ++pid) added += s.add(a_record(pid, "8.9.7", "42.0"), "alice");
    added += s.add(a_record(9, "8.9.2", ""), "bob");
    EXPECT_EQ(added, round == 0 ? 4 : 0);
    ASSERT_TRUE(s.commit("src", 1, 100, "fnv1a64:100:0", {}));
  }
  UsageStore s(db.path, false);
  const std::vector<UsageStore::Row> rows = s.summary("release", 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, "8.9.7");
  EXPECT_EQ(rows[0].records, 3);
  EXPECT_EQ(rows[0].users, 1);
  EXPECT_EQ(rows[0].jobs, 1);
  EXPECT_EQ(rows[0].instead_of, (UsageStore::Row::Counts{{"8.5.0", 3}}));
  EXPECT_EQ(s.users_of("8.9.2").at(0).user, "bob");
  EXPECT_EQ(s.needs_of("8.9.7").at(0), (UsageNeed{"8.9", "", 3}));
  EXPECT_EQ(s.resume_offset("src", 1), std::optional<std::uint64_t>(100));
  EXPECT_EQ(s.resume_offset("src", 2), std::nullopt);  // another file under the name: from 0
  const std::string text = report_text({"release", 0, rows, s.daily(0), 0, {}});
  EXPECT_NE(text.find("RELEASE  PROCESSES"), std::string::npos) << text;
  const std::string svg = chart_svg(s.daily(0));
  EXPECT_NE(svg.find("<title>8.9.2</title>"), std::string::npos);
  // Both releases were used on one day only: each is a point to see, not a line of no length.
  std::size_t circles = 0;
  for (std::size_t at = 0; (at = svg.find("<circle", at)) != std::string::npos; ++at) ++circles;
  EXPECT_EQ(circles, 2u) << svg;
  EXPECT_TRUE(s.knows(a_record(9, "8.9.2", "")));
  EXPECT_FALSE(s.knows(a_record(10, "8.9.2", "")));
}

TEST(UsageStore, ANewerSchemaOrAForeignFileIsRefusedUntouched) {
  TempDb db;
  { UsageStore s(db.path, true); }
  sqlite3 *h = nullptr;
  sqlite3_open(db.path.c_str(), &h);
  const std::string newer_version = std::to_string(kUsageSchema + 1);
  sqlite3_exec(h, ("PRAGMA user_version=" + newer_version).c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(h);
  const UsageStore newer(db.path, true);
  EXPECT_NE(newer.error().find("schema " + newer_version + ", written by a newer cudnn-compat"),
            std::string::npos)
      << newer.error();
  const UsageStore newer_read(db.path, false);  // report and retire refuse it too
  EXPECT_NE(newer_read.error().find("written by a newer cudnn-compat"), std::string::npos);
  std::ofstream(db.path) << "not a database at all, but long enough to be read as one ..........";
  const UsageStore foreign(db.path, true);
  EXPECT_NE(foreign.error().find("is not an SQLite database"), std::string::npos)
      << foreign.error();
  EXPECT_NE(UsageStore(db.path + ".none", false).error().find("no usage database"),
            std::string::npos);
}

// Issue 21 re-test, item 1: retire lists those whose loads were redirected away from the
// release (the loader's own choice), after those who loaded it, and marks them so.
TEST(UsageStore, WhoUsedAReleaseIncludesThoseRedirectedAwayFromIt) {
  TempDb db;
  UsageStore s(db.path, true);
  ASSERT_TRUE(s.begin("src"));
  s.add(a_record(1, "8.9.7", "42.0"), "alice");  // 8.5.0 was the loader's, 8.9.7 handed over
  UsageRecord own = a_record(2, "8.5.0", "");
  own.verdict = "fit", own.loader_release = "8.5.0";
  s.add(own, "bob");
  ASSERT_TRUE(s.commit("src", 1, 100, "", {}));
  const std::vector<UsageStore::Use> users = s.users_of("8.5.0");
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[0].user, "bob");
  EXPECT_FALSE(users[0].redirected_away);
  EXPECT_EQ(users[1].user, "alice");
  EXPECT_TRUE(users[1].redirected_away);
  EXPECT_EQ(users[1].jobs, 1);
  ASSERT_EQ(s.users_of("8.9.7").size(), 1u);
  EXPECT_FALSE(s.users_of("8.9.7")[0].redirected_away);
}

// Issue 21 re-test, item 7: an image an execve started records under its parent's pid, in the
// same second: another exe or another nanosecond is another record; the same record is one.
TEST(UsageStore, AnExecdImageUnderItsParentsPidIsARecordOfItsOwn) {
  TempDb db;
  UsageStore s(db.path, true);
  ASSERT_TRUE(s.begin("src"));
  UsageRecord parent = a_record(7, "8.9.7", ""), child = parent, again = parent;
  parent.exe = "/usr/bin/bash", parent.ns = 1000;
  child.exe = "/opt/app/bin/train", child.ns = 2000;
  again.exe = parent.exe, again.ns = 3000;  // a program that execs itself
  EXPECT_TRUE(s.add(parent, "alice"));
  EXPECT_TRUE(s.add(child, "alice"));
  EXPECT_TRUE(s.add(again, "alice"));
  EXPECT_FALSE(s.add(parent, "alice"));  // ingest twice adds nothing
  EXPECT_TRUE(s.knows(child));
  ASSERT_TRUE(s.commit("src", 1, 100, "", {}));
  EXPECT_EQ(s.users_of("8.9.7").at(0).records, 3);
}

// A database of schema 1 (the first release) is brought to schema 2 by ingest: its records kept
// (ns 0), its sources without a fingerprint (read again from the start next time).
TEST(UsageStore, ASchema1DatabaseIsMigrated) {
  TempDb db;
  sqlite3 *h = nullptr;
  ASSERT_EQ(sqlite3_open(db.path.c_str(), &h), SQLITE_OK);
  const char *v1 = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO meta VALUES('format', 'cudnn-compat usage records');
CREATE TABLE records(
  host TEXT NOT NULL, pid INTEGER NOT NULL, time INTEGER NOT NULL, asked TEXT NOT NULL,
  uid INTEGER NOT NULL, user TEXT NOT NULL, job TEXT NOT NULL, exe TEXT NOT NULL,
  requester TEXT NOT NULL, need TEXT NOT NULL, cuda TEXT NOT NULL, need_from TEXT NOT NULL,
  loader TEXT NOT NULL, loader_release TEXT NOT NULL, loader_source TEXT NOT NULL,
  loader_module TEXT NOT NULL, got TEXT NOT NULL, release TEXT NOT NULL, source TEXT NOT NULL,
  module TEXT NOT NULL, verdict TEXT NOT NULL, mode TEXT NOT NULL,
  used_release TEXT NOT NULL, used_module TEXT NOT NULL,
  PRIMARY KEY (host, pid, time, asked)) WITHOUT ROWID;
INSERT INTO records VALUES('node7', 7, 1733081341, 'libcudnn.so.8', 1000, 'alice', '', '/bin/x',
  '', '8.9', '', 'env', '', '8.5.0', '', '', '/b', '8.9.7', 'module', 'cudnn/8.9.7', 'redirected',
  'record', '8.9.7', 'cudnn/8.9.7');
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
INSERT INTO sources VALUES('src', 1, 100, 1, 1, 0, 0, 0, 0, 0, 0, 0);
PRAGMA user_version=1;
)SQL";
  ASSERT_EQ(sqlite3_exec(h, v1, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(h);
  {
    const UsageStore reader(db.path, false);  // report and retire read it as it is
    EXPECT_EQ(reader.error(), "");
  }
  UsageStore s(db.path, true);
  ASSERT_EQ(s.error(), "");
  UsageRecord known = a_record(7, "8.9.7", "");
  known.exe = "/bin/x";
  EXPECT_TRUE(s.knows(known));
  std::string mark = "x";
  EXPECT_EQ(s.resume_offset("src", 1, &mark), std::optional<std::uint64_t>(100));
  EXPECT_EQ(mark, "");
  ASSERT_TRUE(s.begin("src"));
  EXPECT_FALSE(s.add(known, "alice"));
  known.ns = 5;
  EXPECT_TRUE(s.add(known, "alice"));
  ASSERT_TRUE(s.commit("src", 1, 200, "fnv1a64:200:1", {}));
  sqlite3_open(db.path.c_str(), &h);
  sqlite3_stmt *v = nullptr;
  sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &v, nullptr);
  ASSERT_EQ(sqlite3_step(v), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(v, 0), kUsageSchema);
  sqlite3_finalize(v);
  sqlite3_close(h);
}

// Issue 21 re-test, item 4: the modulerc cookie as modulecmd.tcl reads it (readModuleContent):
// the first word, '#'s at its end trimmed, "#%Module" and a version no newer than the running one.
TEST(Retire, AModulercCookieIsAcceptedOnlyAsEnvironmentModulesWould) {
  for (const char *ok : {"#%Module\n", "#%Module1.0\nx", "#%Module5.2\n", "#%Module5.2.0 # c\n",
                         "#%Module4.6#\n", "#%Module\tx"})
    EXPECT_EQ(modulerc_cookie_problem(ok, "5.2.0"), "") << ok;
  for (const char *bad :
       {"#%Module99.0\n", "#%Module5.3\n", "#%Module5.2.1\n", "#%Modulefoo\n", "#%Module6\n"})
    EXPECT_NE(modulerc_cookie_problem(bad, "5.2.0").find("requires at least Modules version"),
              std::string::npos)
        << bad;
  EXPECT_NE(modulerc_cookie_problem("module-hide x\n", "5.2.0").find("does not start with"),
            std::string::npos);
  EXPECT_NE(modulerc_cookie_problem(" #%Module\n", "5.2.0"), "");  // not the first bytes
  EXPECT_NE(modulerc_cookie_problem("", "5.2.0"), "");
  EXPECT_NE(modulerc_cookie_problem("#%Module5.0\n", "4.6.0"), "");  // newer than 4.6
}

}  // namespace
}  // namespace cudnn_compat
