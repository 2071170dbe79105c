#include "cudnn_compat.h"
#include "example_map.h"
#include "site_files.h"

#include <gtest/gtest.h>

#include <chrono>

#include <sys/stat.h>
#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

// The example map plus what the cache must carry through: a glob with a tab, a backslash and a
// newline in it (a lib may hold none of them but the backslash), and an unknown key's warning.
const std::string kMap = std::string(kExampleMap) + R"(
[[cudnn]]
version = "9.1.0"
lib = "/opt/weird\\dir x"
colour = "blue"
source = "user"
module = "cudnn/9.1-gcc12"
load_first = "gcc/12.2.0 openmpi/4.1.5"
[[require]]
match = "/opt/we\tird\\dir\nx/*"
cudnn = "9.1"
)";

const FileStamp kStamp{2, 3, 4'000'000'005, 5, 0xcbf43926u, 1000};

TEST(MapCache, RoundTripsEverythingTheHotPathReads) {
  const MapLoad m = parse_map(kMap, "map.toml");
  ASSERT_TRUE(m.map);
  const std::string text = format_map_cache(*m.map, m.diagnostics, kStamp);
  const std::optional<MapLoad> back = parse_map_cache(text, "map.toml");
  ASSERT_TRUE(back) << text;
  ASSERT_TRUE(back->map);
  EXPECT_EQ(format_map(*back->map), format_map(*m.map));
  EXPECT_EQ(back->map->cudnn[2].lib, "/opt/weird\\dir x");
  EXPECT_EQ(back->map->require[1].match, "/opt/we\tird\\dir\nx/*");
  EXPECT_EQ(source_of(back->map->cudnn[2]), Source::user);
  EXPECT_EQ(back->map->cudnn[2].load_first,
            (std::vector<std::string>{"gcc/12.2.0", "openmpi/4.1.5"}));
  EXPECT_EQ(back->map->cudnn[1].pos.line, m.map->cudnn[1].pos.line);
  EXPECT_EQ(back->map->require[0].pos.line, 17);  // [[require]] in example_map.h
  ASSERT_EQ(back->diagnostics.size(), 1u);        // the unknown key's warning survives
  EXPECT_EQ(to_string(back->diagnostics[0]), to_string(m.diagnostics[0]));
}

// The stamp every table starts with carries the map's identity, its content's CRC-32 and the
// trusted group, and reads back as written.
TEST(MapCache, TheStampReadsBack) {
  const std::string line = stamp_line(TableKind::fits, kStamp);
  EXPECT_EQ(line, std::string(table_format(TableKind::fits)) + "\t2\t3\t4\t5\t3421780262\t1000\n");
  const std::optional<FileStamp> back = parse_stamp(line, TableKind::fits);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->crc, kStamp.crc);
  EXPECT_EQ(back->gid, 1000);
  EXPECT_EQ(back->mtime_ns, kStamp.mtime_ns);
  EXPECT_FALSE(parse_stamp(line, TableKind::misfits)) << "another table's format";
  FileStamp none = kStamp;
  none.gid = -1;
  EXPECT_EQ(parse_stamp(stamp_line(TableKind::fits, none), TableKind::fits)->gid, -1);
  EXPECT_EQ(site_crc32(0, "123456789", 9), 0xcbf43926u) << "zlib's CRC-32 check value";
}

// hand_out = false (a hidden module's place) travels through the cache: jobs read the cache.
TEST(MapCache, CarriesWhichPlacesAreWithheld) {
  const MapLoad m = parse_map(R"(schema = 1
[[cudnn]]
version = "9.1.0"
lib = ["/a", "/b"]
module = ["cudnn/9.1", "cudnn/9.1-debug"]
hand_out = [true, false]
[[cudnn]]
version = "9.2.0"
lib = "/c"
module = "cudnn/.9.2"
)",
                              "map.toml");
  ASSERT_TRUE(m.map);
  ASSERT_EQ(m.map->cudnn.size(), 3u);
  EXPECT_TRUE(m.map->cudnn[0].hand_out);
  EXPECT_FALSE(m.map->cudnn[1].hand_out);
  EXPECT_FALSE(m.map->cudnn[2].hand_out);  // a hidden module's default
  const std::optional<MapLoad> back =
      parse_map_cache(format_map_cache(*m.map, m.diagnostics, kStamp), "map.toml");
  ASSERT_TRUE(back && back->map);
  EXPECT_EQ(format_map(*back->map), format_map(*m.map));
  EXPECT_FALSE(back->map->cudnn[1].hand_out);
  EXPECT_FALSE(back->map->cudnn[2].hand_out);
}

TEST(MapCache, RefusesAnyDamage) {
  const MapLoad m = parse_map(kMap, "map.toml");
  const std::string text = format_map_cache(*m.map, m.diagnostics, kStamp);
  EXPECT_FALSE(parse_map_cache("", "map.toml"));
  EXPECT_FALSE(parse_map_cache(text.substr(0, text.size() - 1), "map.toml"));  // cut
  EXPECT_FALSE(parse_map_cache(text.substr(0, text.size() - 4), "map.toml"));  // no end line
  const std::pair<const char *, const char *> damage[] = {
      {"5.1.10", "5.x.10"}, {"tensorflow-2016", "?"}, {"\\t", "\\q"}, {"cudnn\t", "?"}};
  for (const auto &[from, to] : damage) {
    std::string bad = text;
    bad.replace(bad.find(from), std::string_view(from).size(), to);
    EXPECT_FALSE(parse_map_cache(bad, "map.toml")) << "accepted after damaging " << from;
  }
}

// The policy line's release count only sizes the list: a forged one reserves no more releases
// than the text could hold.
TEST(MapCache, ACountOfReleasesReservesNoMoreThanTheTextHolds) {
  const MapLoad m = parse_map(kMap, "map.toml");
  std::string text = format_map_cache(*m.map, m.diagnostics, kStamp);
  const std::string count = "\t" + std::to_string(m.map->cudnn.size()) + "\t";
  const std::size_t at = text.find(count, text.find("\npolicy\t"));
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, count.size(), "\t999999999\t");
  const std::optional<MapLoad> back = parse_map_cache(text, "map.toml");
  ASSERT_TRUE(back && back->map) << text;
  EXPECT_EQ(back->map->cudnn.size(), m.map->cudnn.size());
  EXPECT_LE(back->map->cudnn.capacity(), text.size());
}

struct TempMap {
  // One directory per test: ctest runs the tests of this file in parallel processes.
  std::string dir = testing::TempDir() + "/map-cache-" +
                    testing::UnitTest::GetInstance()->current_test_info()->name();
  std::string path = dir + "/map.toml";
  explicit TempMap(const std::string &text) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(path) << text;
    // Edited a while ago: a cache written now is younger (the racy-clean rule).
    std::filesystem::last_write_time(
        path, std::filesystem::last_write_time(path) - std::chrono::seconds(2));
  }
  // A cache as map validate writes it, stamped for the map as it is, but saying what load says.
  std::string write_cache(const MapLoad &load) const {
    const MapLoad real = read_map_file(path);
    if (!load.map || !real.map) return "the map has errors";
    const Parsed<FileStamp> stamp = settle_map_stamp(*real.map);
    if (!stamp) return stamp.error;
    return write_file_atomically(cache(), format_map_cache(*load.map, load.diagnostics, *stamp),
                                 path);
  }
  std::string cache() const { return table_path(path, TableKind::cache); }
};

// The map is judged by the file that was opened: a FIFO is refused without waiting for a writer,
// a directory is called one, and a missing map says why it cannot be read.
TEST(MapFile, IsJudgedByTheFileItOpened) {
  const TempMap t(kMap);
  const auto said = [&] {
    std::string s;
    for (const Diagnostic &d : read_map_file(t.path).diagnostics) s += to_string(d) + "\n";
    return s;
  };
  std::filesystem::remove(t.path);
  EXPECT_NE(said().find("cannot read the map: No such file or directory"), std::string::npos)
      << said();
  ASSERT_EQ(mkfifo(t.path.c_str(), 0600), 0);
  EXPECT_NE(said().find("is not a regular file; expected a map.toml file"), std::string::npos)
      << said();
  std::filesystem::remove(t.path);
  std::filesystem::create_directory(t.path);
  EXPECT_NE(said().find("is a directory; expected a map.toml file"), std::string::npos) << said();
}

TEST(MapCache, LoadMapReadsACurrentCacheAndIgnoresAStaleOne) {
  TempMap t(kMap);
  MapLoad fresh = read_map_file(t.path);
  ASSERT_TRUE(fresh.map);
  // A cache that says something the TOML does not proves which one load_map read.
  fresh.map->cudnn[1].lib = "/from/the/cache";
  ASSERT_EQ(t.write_cache(fresh), "");
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/from/the/cache");
  EXPECT_EQ(read_map_file(t.path).map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");

  std::ofstream(t.path, std::ios::app) << "\n";  // the admin edits the map: the cache is stale
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");
}

TEST(MapCache, AGroupWritableCacheIsNotTrusted) {
  TempMap t(kMap);
  MapLoad fresh = read_map_file(t.path);
  fresh.map->cudnn[1].lib = "/from/the/cache";
  ASSERT_EQ(t.write_cache(fresh), "");
  chmod(t.cache().c_str(), 0664);
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");
}

// A cache not younger than its map may hide an edit of the same tick (git's racy-clean rule): the
// map's content decides then, and an edit that kept size, inode and mtime is seen.
TEST(MapCache, ACacheNotYoungerThanItsMapIsBelievedOnlyForTheSameContent) {
  TempMap t(kMap);
  MapLoad fresh = read_map_file(t.path);
  fresh.map->cudnn[1].lib = "/from/the/cache";
  ASSERT_EQ(t.write_cache(fresh), "");
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/from/the/cache");
  const auto mtime = std::filesystem::last_write_time(t.path);
  std::filesystem::last_write_time(t.cache(), mtime);
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/from/the/cache");
  {
    std::fstream f(t.path, std::ios::in | std::ios::out);  // the same size, inode and mtime
    f.seekp(std::string_view(kExampleMap).find("oldest"));
    f << "newest";
  }
  std::filesystem::last_write_time(t.path, mtime);
  const MapLoad edited = load_map(t.path);
  ASSERT_TRUE(edited.map);
  EXPECT_EQ(edited.map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");
  EXPECT_EQ(edited.map->policy.prefer, Prefer::newest);
}

// A copy of the map (another inode and mtime, as cp, rsync and node images make) with its tables
// beside it: the tables are believed by the map's content.
TEST(MapCache, ACopiedMapKeepsItsCache) {
  TempMap t(kMap);
  MapLoad fresh = read_map_file(t.path);
  fresh.map->cudnn[1].lib = "/from/the/cache";
  ASSERT_EQ(t.write_cache(fresh), "");
  const std::string copy = t.dir + "/copy";
  std::filesystem::create_directories(copy);
  std::filesystem::copy_file(t.path, copy + "/map.toml");
  std::filesystem::copy_file(t.cache(),
                             copy + "/map.toml" + std::string(table_suffix(TableKind::cache)));
  EXPECT_EQ(load_map(copy + "/map.toml").map->cudnn[1].lib, "/from/the/cache");
  std::ofstream(copy + "/map.toml", std::ios::app) << "\n";
  EXPECT_EQ(load_map(copy + "/map.toml").map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");
}

TEST(MapCache, AnInvalidMapGetsNoCache) {
  TempMap t("schema = 2\n");
  EXPECT_NE(t.write_cache(read_map_file(t.path)), "");
  EXPECT_FALSE(std::filesystem::exists(t.cache()));
}

}  // namespace
}  // namespace cudnn_compat
