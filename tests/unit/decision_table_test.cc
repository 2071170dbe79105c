// map.toml.decide: the rows hold rank()'s answers, a release as its library reports it, and a
// CUDA need is settled only where every release's CUDA is known.
#include "cudnn_compat.h"
#include "decision_key.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace cudnn_compat {
namespace {

Map two_releases() {
  const MapLoad m = parse_map(R"(schema = 1
[[cudnn]]
version = "5.0.5"
lib = "/a"
[[cudnn]]
version = "5.1.10"
lib = "/b"
)",
                              "map.toml");
  return *m.map;
}

TableFacts facts_for(const Map &map) {
  TableFacts f;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    f.probes.push_back(Probe{"/lib" + std::to_string(i) + "/libcudnn.so.5", map.cudnn[i].version,
                             map.cudnn[i].cuda, ProbeSource::library, ""});
    f.files.push_back(FileStamp{10 + i, 100, 1000, 0});
  }
  return f;
}

std::string row_for(const std::string &table, const std::string &cuda, unsigned long key) {
  std::string found;
  std::istringstream in(table);
  for (std::string line; std::getline(in, line);) {
    const std::string head = "fit\t5\t" + cuda + "\t";
    if (line.rfind(head, 0) != 0) continue;
    const std::string rest = line.substr(head.size());
    const std::string k = rest.substr(0, rest.find('\t'));
    if ((k == "-") == (key == 0) && (key == 0 || std::stoul(k) <= key))
      found = rest.substr(rest.find('\t') + 1);
  }
  return found;
}

// A place the map withholds (a hidden module) is neither an answer nor a library the table knows:
// never handed over, and a process whose loader finds it is left to the engine, which keeps it
// where it fits.
TEST(DecisionTable, LeavesOutAWithheldPlace) {
  Map map = two_releases();
  map.cudnn[1].hand_out = false;
  const std::string t = format_decision_table(map, FileStamp{1, 2, 3, 0}, facts_for(map));
  EXPECT_EQ(t.find("lib\t1\t"), std::string::npos) << t;
  EXPECT_EQ(row_for(t, "-", 0), "0");
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(1, false, 0)), "");  // 5.1: none handed out
}

TEST(DecisionTable, RowsAreRankAnswers) {
  const Map map = two_releases();
  const std::string t = format_decision_table(map, FileStamp{1, 2, 3, 0}, facts_for(map));
  EXPECT_EQ(t.substr(0, t.find('\n') + 1), stamp_line(TableKind::decide, FileStamp{1, 2, 3, 0}));
  EXPECT_NE(t.find("lib\t1\t11\t100\t1000\t/lib1/libcudnn.so.5\n"), std::string::npos) << t;
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(1, false, 0)), "1");  // 5.1: 5.1.10
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(1, true, 3)), "1");   // 5.1.3
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(0, true, 5)), "0");   // 5.0.5
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(2, false, 0)), "");   // 5.2: none fits
  EXPECT_EQ(row_for(t, "-", 0), "1,0");                                     // any 5: newest first
}

// A library that reports another release or CUDA than the map is held as it reports itself, as
// the engine and resolve take it (as_library_reports); one of another major is no release of the
// name it was found by, and is left out.
TEST(DecisionTable, HoldsALibraryAsItReportsItself) {
  const Map map = two_releases();
  TableFacts f = facts_for(map);
  f.probes[1]->version = Version{5, 0, 5, {}};  // the map says 5.1.10
  f.probes[1]->cuda = Version{8, 0, {}, {}};    // the map names none
  const std::string t = format_decision_table(map, FileStamp{1, 2, 3, 0}, f);
  EXPECT_NE(t.find("rel\t1\t5005\tsystem\t5.0.5\t-\t8.0\n"), std::string::npos) << t;
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(1, false, 0)), "");  // 5.1: none now
  EXPECT_EQ(row_for(t, "-", cudnn_compat_decision_key(0, true, 5)), "0,1");
  const std::vector<KnownLibrary> known = table_libraries(t);
  ASSERT_EQ(known.size(), 2U) << t;
  EXPECT_EQ(to_string(*known[1].version), "5.0.5");
  EXPECT_EQ(to_string(*known[1].cuda), "8.0");
  EXPECT_FALSE(known[0].cuda);
  f.probes[1]->version = Version{6, 0, 21, {}};
  const std::string other = format_decision_table(map, FileStamp{1, 2, 3, 0}, f);
  EXPECT_EQ(other.find("lib\t1\t"), std::string::npos) << other;
}

TEST(DecisionTable, CudaRowsOnlyWhereEveryCudaIsKnown) {
  Map map = two_releases();
  map.cudnn[0].cuda = Version{8, 0, {}, {}};
  EXPECT_EQ(format_decision_table(map, {}, facts_for(map)).find("fit\t5\t8\t"), std::string::npos);
  map.cudnn[1].cuda = Version{9, 0, {}, {}};
  const std::string t = format_decision_table(map, {}, facts_for(map));
  EXPECT_EQ(row_for(t, "8", cudnn_compat_decision_key(1, false, 0)), "");
  EXPECT_EQ(row_for(t, "9", cudnn_compat_decision_key(1, false, 0)), "1");
  EXPECT_EQ(row_for(t, "*", 0), "");  // a CUDA no release is built for
}

// The writer's side of the racy-clean rule: it waits out the second of the map's mtime, then
// reads the map again; an edit in between is refused, not stamped.
TEST(SettleMapStamp, WaitsOutTheTickAndNoticesAnEditMadeMeanwhile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("settle-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = dir / "map.toml";
  std::ofstream(path) << "schema = 1\n";
  const MapLoad m = read_map_file(path);
  ASSERT_TRUE(m.map);
  const Parsed<FileStamp> s = settle_map_stamp(*m.map);
  ASSERT_TRUE(s) << s.error;
  // Whatever is written now is in a later second than the map: a reader can tell the two apart.
  std::ofstream(dir / "newer") << "";
  const auto second = [](const fs::path &p) {
    return std::chrono::duration_cast<std::chrono::seconds>(
        fs::last_write_time(p).time_since_epoch());
  };
  EXPECT_GT(second(dir / "newer"), second(path));

  // A map whose mtime is a second ahead keeps the writer waiting; an edit meanwhile is noticed.
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(1));
  const MapLoad again = read_map_file(path);
  ASSERT_TRUE(again.map);
  std::thread edit([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ofstream(path) << "schema = 7\n";  // the same size, within the wait
  });
  const Parsed<FileStamp> late = settle_map_stamp(*again.map);
  edit.join();
  EXPECT_FALSE(late);
  fs::remove_all(dir);
}

// The engine takes the table's word for the libraries it knows, exactly as the shim does.
// (Whether the table belongs to the map is read_table's to judge: tests/conformance.)
TEST(DecisionTable, LibrariesReadBack) {
  const Map map = two_releases();
  const std::string t = format_decision_table(map, FileStamp{1, 2, 3, 0}, facts_for(map));
  const std::vector<KnownLibrary> known = table_libraries(t);
  ASSERT_EQ(known.size(), 2u) << t;
  EXPECT_EQ(known[1].ino, 11u);
  EXPECT_EQ(known[1].size, 100u);
  EXPECT_EQ(known[1].mtime_ns, 1000u);
  EXPECT_EQ(known[1].entry, 1u);
  EXPECT_EQ(known[1].path, "/lib1/libcudnn.so.5");
  EXPECT_TRUE(table_libraries(t.substr(0, t.size() - 1)).empty()) << "a table cut short";
}

// A table cut short right after a row still starts well and holds whole lines: only the end
// marker its writer writes last tells that rows are missing.
TEST(DecisionTable, CutAfterAFitRowIsRefused) {
  const Map map = two_releases();
  const std::string t = format_decision_table(map, FileStamp{1, 2, 3, 0}, facts_for(map));
  ASSERT_TRUE(t.ends_with("\n" + std::string(table_end()))) << t;
  const std::size_t after_fit = t.find('\n', t.find("\nfit\t") + 1) + 1;
  EXPECT_TRUE(table_libraries(t.substr(0, after_fit)).empty()) << t.substr(0, after_fit);
  EXPECT_EQ(table_libraries(t).size(), 2u);
}

TEST(DecisionTable, RememberedProbeOnlyForTheSameFile) {
  const Map map = two_releases();
  const std::vector<KnownLibrary> known = {
      {11, 100, 1000, 1, "/b/libcudnn.so.5", Version{5, 1, 10, {}}, std::nullopt}};
  const std::optional<Probe> p =
      remembered_probe(known, map, "/b/libcudnn.so.5", FileStamp{11, 100, 1000, 0}, false);
  ASSERT_TRUE(p);
  EXPECT_EQ(to_string(p->version), "5.1.10");
  EXPECT_EQ(p->file, "/b/libcudnn.so.5");
  // The same file reached by another path (a link in a directory of other sub-libraries): the
  // release is where it was probed, with its family.
  const std::optional<Probe> linked =
      remembered_probe(known, map, "/mix/libcudnn.so.5", FileStamp{11, 100, 1000, 0}, false);
  ASSERT_TRUE(linked);
  EXPECT_EQ(linked->file, "/b/libcudnn.so.5");
  EXPECT_FALSE(remembered_probe(known, map, "/b/libcudnn.so.5", FileStamp{11, 101, 1000, 0}, false))
      << "rewritten: another size";
  EXPECT_FALSE(remembered_probe(known, map, "/b/libcudnn.so.5", FileStamp{11, 100, 1001, 0}, false))
      << "rewritten: another mtime";
  EXPECT_FALSE(remembered_probe(known, map, "/b/libcudnn.so.5", FileStamp{11, 100, 1000, 0}, true))
      << "a CUDA need where the table knows no CUDA: only the library can say";
}

}  // namespace
}  // namespace cudnn_compat
