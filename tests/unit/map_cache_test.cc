#include "cudnn_compat.h"
#include "example_map.h"

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
[[require]]
match = "/opt/we\tird\\dir\nx/*"
cudnn = "9.1"
)";

const FileStamp kStamp{2, 3, 4, 5};

TEST(MapCache, RoundTripsEverythingTheHotPathReads) {
  const MapLoad m = parse_map(kMap, "map.toml");
  ASSERT_TRUE(m.map);
  const std::string text = format_map_cache(*m.map, m.diagnostics, kStamp);
  const std::optional<MapLoad> back = parse_map_cache(text, "map.toml", kStamp);
  ASSERT_TRUE(back) << text;
  ASSERT_TRUE(back->map);
  EXPECT_EQ(format_map(*back->map), format_map(*m.map));
  EXPECT_EQ(back->map->cudnn[2].lib, "/opt/weird\\dir x");
  EXPECT_EQ(back->map->require[1].match, "/opt/we\tird\\dir\nx/*");
  EXPECT_EQ(back->map->cudnn[1].pos.line, m.map->cudnn[1].pos.line);
  EXPECT_EQ(back->map->require[0].pos.line, 17);  // [[require]] in example_map.h
  ASSERT_EQ(back->diagnostics.size(), 1u);        // the unknown key's warning survives
  EXPECT_EQ(to_string(back->diagnostics[0]), to_string(m.diagnostics[0]));
}

TEST(MapCache, RefusesAnotherStampOrAnyDamage) {
  const MapLoad m = parse_map(kMap, "map.toml");
  const std::string text = format_map_cache(*m.map, m.diagnostics, kStamp);
  for (FileStamp other : {FileStamp{9, 3, 4, 5}, FileStamp{2, 9, 4, 5}, FileStamp{2, 3, 9, 5}})
    EXPECT_FALSE(parse_map_cache(text, "map.toml", other));
  EXPECT_FALSE(parse_map_cache("", "map.toml", kStamp));
  EXPECT_FALSE(parse_map_cache(text.substr(0, text.size() - 1), "map.toml", kStamp));  // cut
  const std::pair<const char *, const char *> damage[] = {
      {"5.1.10", "5.x.10"}, {"tensorflow-2016", "?"}, {"\\t", "\\q"}, {"cudnn\t", "?"}};
  for (const auto &[from, to] : damage) {
    std::string bad = text;
    bad.replace(bad.find(from), std::string_view(from).size(), to);
    EXPECT_FALSE(parse_map_cache(bad, "map.toml", kStamp)) << "accepted after damaging " << from;
  }
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
  std::string write_cache(const MapLoad &load) const {
    return write_map_cache(load, *stamp_file(path));
  }
};

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
  chmod(map_cache_path(t.path).c_str(), 0664);
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");
}

TEST(MapCache, ACacheNotYoungerThanItsMapIsNotTrusted) {
  TempMap t(kMap);
  MapLoad fresh = read_map_file(t.path);
  fresh.map->cudnn[1].lib = "/from/the/cache";
  ASSERT_EQ(t.write_cache(fresh), "");
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/from/the/cache");
  // Made in the map's own tick: an edit of that tick would not show in the stamp.
  std::filesystem::last_write_time(map_cache_path(t.path),
                                   std::filesystem::last_write_time(t.path));
  EXPECT_EQ(load_map(t.path).map->cudnn[1].lib, "/opt/cudnn/8.9.2/lib64");
}

TEST(MapCache, AnInvalidMapGetsNoCache) {
  TempMap t("schema = 2\n");
  EXPECT_NE(t.write_cache(read_map_file(t.path)), "");
  EXPECT_FALSE(std::filesystem::exists(map_cache_path(t.path)));
}

}  // namespace
}  // namespace cudnn_compat
