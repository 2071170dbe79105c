#include "cudnn_compat.h"
#include "example_map.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

constexpr const char *kGood = kExampleMap;

TEST(Map, ParsesSchemaOne) {
  const MapLoad m = parse_map(kGood, "map.toml");
  ASSERT_TRUE(m.map);
  EXPECT_TRUE(m.diagnostics.empty());
  EXPECT_EQ(m.map->policy.rule, Rule::tensorflow_2016);
  EXPECT_EQ(m.map->policy.prefer, Prefer::oldest);
  ASSERT_EQ(m.map->cudnn.size(), 2u);
  EXPECT_EQ(to_string(m.map->cudnn[0].version), "5.1.10");
  EXPECT_EQ(m.map->cudnn[0].module, "cudnn/5.1");
  EXPECT_EQ(to_string(*m.map->cudnn[0].cuda), "8.0");
  EXPECT_EQ(m.map->cudnn[0].pos.line, 7);
  EXPECT_EQ(to_string(m.map->cudnn[1].version), "8.9.2.26");
  ASSERT_EQ(m.map->require.size(), 1u);
  EXPECT_EQ(m.map->require[0].match, "/opt/apps/tensorflow/1.0/*");
}

TEST(Map, DefaultsWithoutPolicy) {
  const MapLoad m = parse_map("schema = 1\n", "m.toml");
  ASSERT_TRUE(m.map);
  EXPECT_EQ(m.map->policy.rule, Rule::nvidia);
  EXPECT_EQ(m.map->policy.prefer, Prefer::newest);
}

TEST(Map, FormatRoundTrips) {
  const MapLoad m = parse_map(kGood, "map.toml");
  const std::string text = format_map(*m.map);
  const MapLoad again = parse_map(text, "again.toml");
  ASSERT_TRUE(again.map) << text;
  EXPECT_EQ(format_map(*again.map), text);
  EXPECT_NE(text.find("rule = \"tensorflow-2016\""), std::string::npos);
}

TEST(Map, FormatQuotesAwkwardStrings) {
  Map map;
  map.cudnn.push_back({{9, 1, 0, {}}, "/opt/we\"ird\\dir", std::nullopt, "", {}});
  map.require.push_back({"/opt/\"app\\\n*", {9, 1, {}, {}}, std::nullopt, {}});
  const MapLoad back = parse_map(format_map(map), "m.toml");
  ASSERT_TRUE(back.map);
  EXPECT_EQ(back.map->cudnn[0].lib, "/opt/we\"ird\\dir");
  EXPECT_EQ(back.map->require[0].match, "/opt/\"app\\\n*");
}

// A place's source: written where it is not the default, read back, and in lists one per place.
TEST(Map, SourceOfEachPlace) {
  const MapLoad m = parse_map(R"(schema = 1
[[cudnn]]
version = "9.1.0"
lib = "/venv/lib/python3.11/site-packages/nvidia/cudnn/lib"
[[cudnn]]
version = "9.2.0"
lib = ["/conda/envs/a/lib", "/opt/cudnn/9.2.0/lib64", "/m/9.2.0/lib64"]
module = ["", "", "cudnn/9.2"]
source = ["conda", "system", "module"]
[[cudnn]]
version = "9.3.0"
lib = "/home/me/cudnn"
source = "user"
)",
                              "m.toml");
  ASSERT_TRUE(m.map) << (m.diagnostics.empty() ? "" : to_string(m.diagnostics[0]));
  ASSERT_EQ(m.map->cudnn.size(), 5u);
  EXPECT_EQ(source_of(m.map->cudnn[0]), Source::wheel);  // by the directory's shape
  EXPECT_EQ(source_of(m.map->cudnn[1]), Source::conda);
  EXPECT_EQ(source_of(m.map->cudnn[2]), Source::system);
  EXPECT_EQ(source_of(m.map->cudnn[3]), Source::module);  // past the list: its default
  EXPECT_EQ(source_of(m.map->cudnn[4]), Source::user);
  const std::string text = format_map(*m.map);
  EXPECT_EQ(text.find("source = \"wheel\""), std::string::npos) << text;  // the default
  EXPECT_NE(text.find("source = [\"conda\", \"system\", \"module\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("source = \"user\""), std::string::npos) << text;
  const MapLoad again = parse_map(text, "again.toml");
  ASSERT_TRUE(again.map);
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(source_of(again.map->cudnn[i]), source_of(m.map->cudnn[i]));
}

TEST(Map, SchemaOneWithoutSourceReadsAsBefore) {
  const MapLoad m = parse_map(kGood, "map.toml");
  ASSERT_TRUE(m.map);
  EXPECT_EQ(source_of(m.map->cudnn[0]), Source::module);
  EXPECT_EQ(format_map(*m.map).find("source"), std::string::npos);
}

TEST(Map, UnknownSourceIsAnErrorAtItsPosition) {
  const MapLoad m = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"9.1.0\"\nlib = \"/x\"\nsource = \"pip\"\n", "m.toml");
  EXPECT_FALSE(m.map);
  ASSERT_FALSE(m.diagnostics.empty());
  EXPECT_EQ(to_string(m.diagnostics[0]),
            "m.toml:5:10: error: 'source' in [[cudnn]] is \"pip\"; expected \"module\", "
            "\"wheel\", \"conda\", \"system\" or \"user\"");
}

TEST(Map, WheelDirectoryShape) {
  EXPECT_TRUE(is_wheel_dir("/v/lib/python3.11/site-packages/nvidia/cudnn/lib"));
  EXPECT_TRUE(is_wheel_dir("/usr/lib/python3/dist-packages/nvidia/cudnn/lib/"));
  EXPECT_FALSE(is_wheel_dir("/v/lib/python3.11/my-packages/nvidia/cudnn/lib"));
  EXPECT_FALSE(is_wheel_dir("/opt/nvidia/cudnn/lib"));
  EXPECT_FALSE(is_wheel_dir("/v/site-packages/nvidia/cudnn/lib64"));
  EXPECT_FALSE(is_wheel_dir("nvidia/cudnn/lib"));
}

struct Bad {
  const char *name;
  const char *text;
  int line;
  int column;
  const char *says;
  Severity severity;
};

class MapDiagnostics : public testing::TestWithParam<Bad> {};

TEST_P(MapDiagnostics, PositionAndReason) {
  const Bad &b = GetParam();
  const MapLoad m = parse_map(b.text, "site.toml");
  bool found = false;
  for (const Diagnostic &d : m.diagnostics) {
    if (d.message.find(b.says) == std::string::npos) continue;
    found = true;
    EXPECT_EQ(d.severity, b.severity) << to_string(d);
    EXPECT_EQ(d.pos.line, b.line) << to_string(d);
    if (b.column) {
      EXPECT_EQ(d.pos.column, b.column) << to_string(d);
    }
    EXPECT_EQ(to_string(d).rfind("site.toml:" + std::to_string(b.line) + ":", 0), 0u)
        << to_string(d);
  }
  EXPECT_TRUE(found) << "no diagnostic says '" << b.says << "'; got " << m.diagnostics.size();
  EXPECT_EQ(m.map.has_value(), b.severity == Severity::warning);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Table, MapDiagnostics, testing::Values(
  Bad{"syntax", "schema = 1\n[[cudnn]\n", 2, 0, "not valid TOML", Severity::error},
  Bad{"nothing", "", 1, 1, "missing 'schema = 1'", Severity::error},
  Bad{"schema2", "schema = 2\n", 1, 10, "unknown schema 2", Severity::error},
  Bad{"schema_string", "schema = \"1\"\n", 1, 10, "must be the integer 1", Severity::error},
  Bad{"rule", "schema = 1\n[policy]\nrule = \"tensorflw\"\n", 3, 8, "unknown rule \"tensorflw\"", Severity::error},
  Bad{"prefer", "schema = 1\n[policy]\nprefer = \"latest\"\n", 3, 10, "expected \"newest\" or \"oldest\"", Severity::error},
  Bad{"no_version", "schema = 1\n[[cudnn]]\nlib = \"/x\"\n", 2, 1, "missing key 'version'", Severity::error},
  Bad{"no_lib", "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\n", 2, 1, "missing key 'lib'", Severity::error},
  Bad{"short_version", "schema = 1\n[[cudnn]]\nversion = \"5.1\"\nlib = \"/x\"\n", 3, 11, "expected x.y.z", Severity::error},
  Bad{"junk_version", "schema = 1\n[[cudnn]]\nversion = \"five\"\nlib = \"/x\"\n", 3, 11, "expected x.y.z", Severity::error},
  Bad{"float_cuda", "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"/x\"\ncuda = 8.0\n", 5, 8, "must be a string", Severity::error},
  Bad{"int_version", "schema = 1\n[[cudnn]]\nversion = 5110\nlib = \"/x\"\n", 3, 11, "not an integer", Severity::error},
  Bad{"empty_lib", "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"\"\n", 4, 7, "is empty", Severity::error},
  Bad{"cudnn_table", "schema = 1\n[cudnn]\nversion = \"5.1.10\"\n", 2, 1, "array of tables", Severity::error},
  Bad{"duplicate", "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"/a\"\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"/b\"\n", 5, 1, "listed twice (first at line 2)", Severity::error},
  Bad{"require_no_match", "schema = 1\n[[require]]\ncudnn = \"5.1\"\n", 2, 1, "missing key 'match'", Severity::error},
  Bad{"require_bad", "schema = 1\n[[require]]\nmatch = \"*\"\ncudnn = \"5.x\"\n", 4, 9, "e.g. \"5.1\"", Severity::error},
  Bad{"unknown_top", "schema = 1\nshcema = 2\n", 2, 1, "unknown key 'shcema'", Severity::warning},
  Bad{"unknown_entry", "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"/x\"\nmodul = \"cudnn/5.1\"\n", 5, 1, "unknown key 'modul'", Severity::warning}),
  [](const testing::TestParamInfo<Bad> &i) { return std::string(i.param.name); });
// clang-format on

TEST(Map, SameVersionForTwoCudasIsFine) {
  const MapLoad m = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/a\"\ncuda = \"11\"\n"
      "[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/b\"\ncuda = \"12\"\n",
      "m.toml");
  EXPECT_TRUE(m.map);
}

TEST(Map, LoadReportsUnreadableFiles) {
  const MapLoad missing = load_map("/nonexistent/map.toml");
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_NE(missing.diagnostics[0].message.find("No such file"), std::string::npos);
  const MapLoad dir = load_map("/tmp");
  ASSERT_EQ(dir.diagnostics.size(), 1u);
  EXPECT_NE(dir.diagnostics[0].message.find("is a directory"), std::string::npos);
}

TEST(Map, LibraryChecksWarn) {
  const std::string root = FAKECUDNN_ROOT;
  const MapLoad m = parse_map("schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"" + root +
                                  "/5.1.10/lib64\"\n"
                                  "[[cudnn]]\nversion = \"6.0.21\"\nlib = \"/nonexistent\"\n"
                                  "[[cudnn]]\nversion = \"7.6.5\"\nlib = \"" +
                                  root + "/5.1.10/include\"\n",
                              "m.toml");
  ASSERT_TRUE(m.map);
  const std::vector<Diagnostic> ds = check_map_libraries(*m.map);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].pos.line, 5);
  EXPECT_NE(ds[0].message.find("not a directory"), std::string::npos);
  EXPECT_EQ(ds[1].pos.line, 8);
  EXPECT_NE(ds[1].message.find("holds no libcudnn.so.7"), std::string::npos);
}

TEST(Map, ARelativeLibIsAnError) {
  const MapLoad m =
      parse_map("schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"rel/lib64\"\n", "m.toml");
  ASSERT_TRUE(m.map);  // the other entries still serve: the engine skips this one
  const std::vector<Diagnostic> ds = check_map_libraries(*m.map);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].severity, Severity::error);
  EXPECT_EQ(ds[0].pos.line, 2);
  EXPECT_NE(ds[0].message.find("\"rel/lib64\" of cuDNN 5.1.10 is relative"), std::string::npos)
      << ds[0].message;
}

// A file that says "old", of the given mode, as dir/name in a directory of the test's own.
std::string old_file(const std::string &dir, const std::string &name, mode_t mode) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  { std::ofstream(path) << "old"; }
  chmod(path.c_str(), mode);
  return path;
}

TEST(AtomicWrite, ReplacesWholeAndKeepsMode) {
  const std::string dir = testing::TempDir() + "/atomic";
  const std::string path = old_file(dir, "map.toml", 0640);
  EXPECT_EQ(write_file_atomically(path, "new text\n"), "");
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "new text\n");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  for (const auto &e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "map.toml") << "temporary file left behind";
}

// The node file: rewritten because it was not to be trusted (0666, another user's), it must not
// come back in the image of the file it replaces.
TEST(AtomicWrite, OwnFileTakesNothingFromTheFileItReplaces) {
  const std::string path = old_file(testing::TempDir() + "/atomic-own", "node-x", 0666);
  if (geteuid() == 0) {
    ASSERT_EQ(chown(path.c_str(), 1000, 1000), 0);
  }
  EXPECT_EQ(write_own_file_atomically(path, "new\n", 0600), "");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(st.st_uid, geteuid());
  EXPECT_EQ(st.st_gid, getegid());
}

TEST(AtomicWrite, FailureLeavesNoTrace) {
  EXPECT_NE(write_file_atomically("/nonexistent/dir/map.toml", "x"), "");
  // The rename fails after the temporary file was written: it must be gone again.
  const std::string dir = testing::TempDir() + "/atomic-fail";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/map.toml/occupied");
  const std::string err = write_file_atomically(dir + "/map.toml", "x");
  EXPECT_NE(err.find("cannot rename"), std::string::npos) << err;
  std::vector<std::string> left;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    left.push_back(e.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"map.toml"});
}

}  // namespace
}  // namespace cudnn_compat

namespace cudnn_compat {
namespace {

TEST(Map, OnModuleMismatchIsWarnOrError) {
  MapLoad m = parse_map("schema = 1\n[policy]\non_module_mismatch = \"error\"\n", "m.toml");
  ASSERT_TRUE(m.map);
  EXPECT_EQ(m.map->policy.on_module_mismatch, OnMismatch::error);
  EXPECT_NE(format_map(*m.map).find("on_module_mismatch = \"error\""), std::string::npos);
  EXPECT_EQ(parse_map("schema = 1\n", "m.toml").map->policy.on_module_mismatch, OnMismatch::warn);
  m = parse_map("schema = 1\n[policy]\non_module_mismatch = \"loud\"\n", "m.toml");
  ASSERT_FALSE(m.map);
  EXPECT_EQ(to_string(m.diagnostics[0]),
            "m.toml:3:22: error: on_module_mismatch is \"loud\"; expected \"warn\" or \"error\"");
}

}  // namespace
}  // namespace cudnn_compat

namespace cudnn_compat {
namespace {

// One release in two places (issue 12 item 1): lists read as places, written back as one table.
TEST(Map, OneReleaseInSeveralPlaces) {
  const std::string text =
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = [\"/eb/lib64\", \"/spack/lib64\"]\n"
      "cuda = \"12.2\"\nmodule = [\"cuDNN/8.9.7.29-CUDA-12.2.0\", \"cudnn/8.9.7.29-12-abcdef\"]\n";
  const MapLoad load = parse_map(text, "m.toml");
  ASSERT_TRUE(load.map);
  ASSERT_EQ(load.map->cudnn.size(), 2u);
  EXPECT_EQ(load.map->cudnn[1].lib, "/spack/lib64");
  EXPECT_EQ(load.map->cudnn[1].module, "cudnn/8.9.7.29-12-abcdef");
  EXPECT_TRUE(load.map->cudnn[1].joined);
  EXPECT_EQ(release_count(*load.map), 1u);  // one release in two places
  EXPECT_TRUE(repeated_releases(load.map->cudnn).empty());
  const MapLoad again = parse_map(format_map(*load.map), "m.toml");
  ASSERT_TRUE(again.map);
  EXPECT_EQ(format_map(*again.map), format_map(*load.map));
  // The same release in two tables stays an error; group_releases joins them.
  std::vector<Installed> two = load.map->cudnn;
  two[1].joined = false;
  EXPECT_EQ(repeated_releases(two).size(), 1u);
  group_releases(two);
  EXPECT_TRUE(two[1].joined);
  EXPECT_FALSE(parse_map("schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = []\n", "m").map);
}

// hand_out: which places the shim, resolve and the advice may hand out. A hidden module's place is
// withheld by default, and the printed map says so; a wrong value is an error at its position.
TEST(Map, HandOutPerPlaceWithAHiddenModulesDefault) {
  const MapLoad load = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.8\"\nlib = \"/a\"\nmodule = \"cuDNN/.8.9.8\"\n"
      "[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/b\"\nmodule = \"cuDNN/8.9.7\"\n"
      "[[cudnn]]\nversion = \"9.0.0\"\nlib = \"/c\"\nhand_out = false\n"
      "[[cudnn]]\nversion = \"9.1.0\"\nlib = \"/d\"\nmodule = \"cudnn/.9.1\"\nhand_out = true\n"
      "[[cudnn]]\nversion = \"9.2.0\"\nlib = \"/e\"\nmodule = \"cudnn/9.2\"\nhand_out = true\n",
      "m.toml");
  ASSERT_TRUE(load.map);
  EXPECT_FALSE(load.map->cudnn[0].hand_out);
  EXPECT_TRUE(load.map->cudnn[1].hand_out);
  EXPECT_FALSE(load.map->cudnn[2].hand_out);
  EXPECT_TRUE(load.map->cudnn[3].hand_out);  // the admin hands a hidden module out
  const std::string text = format_map(*load.map);
  EXPECT_NE(text.find("module = \"cuDNN/.8.9.8\"\nhand_out = false\n"), std::string::npos) << text;
  EXPECT_NE(text.find("module = \"cudnn/.9.1\"\nhand_out = true\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("module = \"cuDNN/8.9.7\"\nhand_out"), std::string::npos) << text;
  // Said of a place handed out anyway (a module hidden by the module system's rc file has no
  // hidden name), it is printed back, from the TOML and from the cache alike: the admin's word,
  // which scan --merge keeps over a scan's default (helper 115, finding 1).
  EXPECT_TRUE(load.map->cudnn[4].hand_out_written);
  EXPECT_FALSE(load.map->cudnn[1].hand_out_written);
  EXPECT_NE(text.find("module = \"cudnn/9.2\"\nhand_out = true\n"), std::string::npos) << text;
  const std::optional<MapLoad> cached =
      parse_map_cache(format_map_cache(*load.map, {}, FileStamp{}), "m.toml");
  ASSERT_TRUE(cached && cached->map);
  EXPECT_EQ(format_map(*cached->map), text);
  const MapLoad again = parse_map(text, "m.toml");
  ASSERT_TRUE(again.map);
  EXPECT_EQ(format_map(*again.map), text);

  const MapLoad bad = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = [\"/a\", \"/b\"]\nhand_out = [true]\n",
      "m.toml");
  EXPECT_FALSE(bad.map);
  ASSERT_FALSE(bad.diagnostics.empty());
  EXPECT_EQ(bad.diagnostics[0].pos.line, 5);
  EXPECT_NE(bad.diagnostics[0].message.find("a list of one per place (2 here"), std::string::npos)
      << bad.diagnostics[0].message;
}

// `source`: a string is every place's, a list the n-th place's; a list of another length than the
// places is an error (an outside tester's finding: three for two were accepted).
TEST(Map, SourceIsOneForAllOrOnePerPlace) {
  const std::string head =
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = [\"/a\", \"/b\"]\n"
      "module = [\"cudnn/8.9-a\", \"cudnn/8.9-b\"]\n";
  const MapLoad one = parse_map(head + "source = \"system\"\n", "m.toml");
  ASSERT_TRUE(one.map);
  EXPECT_EQ(source_of(one.map->cudnn[1]), Source::system);
  // A shorter list is an error: whose place it names cannot be told (admin tester helper 115:
  // load_first = ["gcc/12.2.0"] for two modules went to the one it was not meant for).
  const MapLoad first = parse_map(head + "source = [\"system\"]\n", "m.toml");
  ASSERT_FALSE(first.map);
  EXPECT_NE(first.diagnostics.at(0).message.find("lists 1 for 2 places"), std::string::npos)
      << first.diagnostics.at(0).message;
  const MapLoad three = parse_map(head + "source = [\"system\", \"user\", \"user\"]\n", "m.toml");
  ASSERT_FALSE(three.map);
  EXPECT_NE(three.diagnostics.at(0).message.find("lists 3 for 2 places"), std::string::npos)
      << three.diagnostics.at(0).message;
}

// An Lmod hierarchy's parents per place: the n-th string for the n-th module, a space between two.
TEST(Map, LoadFirstPerPlace) {
  const MapLoad load = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = [\"/a\", \"/b\", \"/c\"]\n"
      "module = [\"cudnn/8.9\", \"cudnn/8.9-mpi\", \"cuDNN/8.9.7\"]\n"
      "load_first = [\"gcc/12.2.0\", \"gcc/12.2.0 openmpi/4.1.5\", \"\"]\n",
      "m.toml");
  ASSERT_TRUE(load.map);
  EXPECT_EQ(load.map->cudnn[0].load_first, std::vector<std::string>{"gcc/12.2.0"});
  EXPECT_EQ(load.map->cudnn[1].load_first,
            (std::vector<std::string>{"gcc/12.2.0", "openmpi/4.1.5"}));
  EXPECT_TRUE(load.map->cudnn[2].load_first.empty());
  const std::string text = format_map(*load.map);
  EXPECT_NE(text.find("load_first = [\"gcc/12.2.0\", \"gcc/12.2.0 openmpi/4.1.5\", \"\"]\n"),
            std::string::npos)
      << text;
  ASSERT_TRUE(parse_map(text, "m.toml").map);
  EXPECT_EQ(format_map(*parse_map(text, "m.toml").map), text);

  const MapLoad many = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/a\"\nmodule = \"cudnn/8.9\"\n"
      "load_first = [\"gcc/12\", \"gcc/11\"]\n",
      "m.toml");
  ASSERT_FALSE(many.map);
  EXPECT_EQ(to_string(many.diagnostics.at(0)),
            "m.toml:6:14: error: 'load_first' in [[cudnn]] lists 2 for 1 places (one per lib or "
            "module); expected one per place, \"\" for a place that has none (or one string for "
            "all)");
  const MapLoad short_list = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = [\"/a\", \"/b\"]\n"
      "module = [\"cuDNN/8.9.7\", \"cudnn/8.9.7-mpi\"]\nload_first = [\"gcc/12.2.0\"]\n",
      "m.toml");
  ASSERT_FALSE(short_list.map);
  EXPECT_NE(to_string(short_list.diagnostics.at(0)).find("lists 1 for 2 places"),
            std::string::npos);
  // One string is every module's, as cuda and hand_out are (an outside tester's finding: it was
  // the first module's alone), and is written so.
  const MapLoad all = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = [\"/a\", \"/b\"]\n"
      "module = [\"cudnn/8.9-a\", \"cudnn/8.9-b\"]\nload_first = \"gcc/12\"\n",
      "m.toml");
  ASSERT_TRUE(all.map);
  EXPECT_EQ(all.map->cudnn[1].load_first, std::vector<std::string>{"gcc/12"});
  EXPECT_NE(format_map(*all.map).find("\nload_first = \"gcc/12\"\n"), std::string::npos);
  const MapLoad odd = parse_map(
      "schema = 1\n[[cudnn]]\nversion = \"8.9.7\"\nlib = \"/a\"\nmodule = \"cudnn/8.9\"\n"
      "load_first = \"gcc/12\\nW\"\n",
      "m.toml");
  ASSERT_FALSE(odd.map);
  EXPECT_NE(odd.diagnostics.at(0).message.find("'load_first' in [[cudnn]] holds a control"),
            std::string::npos);
}

// One module name on two releases: the hooks would advise the module that is loaded. A map says
// so at the later entry; a scan leaves that place out and writes a map that validates.
TEST(Map, OneModuleOnTwoReleasesIsAnError) {
  const std::string text =
      "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"/a\"\nmodule = \"cudnn/5\"\n"
      "[[cudnn]]\nversion = \"5.0.5\"\nlib = \"/b\"\nmodule = \"cudnn/5\"\n";
  const MapLoad load = parse_map(text, "m.toml");
  EXPECT_FALSE(load.map);
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(to_string(load.diagnostics[0]).substr(0, 87),
            "m.toml:6:1: error: module 'cudnn/5' is listed for cuDNN 5.0.5 here and for cuDNN "
            "5.1.10");

  std::vector<Installed> scanned = {
      {*parse_dotted("5.1.10"), "/a", std::nullopt, "cudnn/5", {}},
      {*parse_dotted("5.0.5"), "/b", std::nullopt, "cudnn/5", {}},
      {*parse_dotted("5.0.5"), "/c", std::nullopt, "cudnn/5.0", {}, true}};
  EXPECT_EQ(modules_on_two_releases(scanned),
            (std::vector<std::pair<std::size_t, std::size_t>>{{1, 0}}));
  std::vector<std::string> left_out;
  leave_out_module_conflicts(scanned, left_out);
  ASSERT_EQ(scanned.size(), 2u);
  EXPECT_EQ(scanned[1].lib, "/c");
  EXPECT_FALSE(scanned[1].joined);  // its table's first place was left out
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_NE(left_out[0].find("cuDNN 5.0.5 (cudnn/5) in /b: module cudnn/5 is listed for cuDNN "
                             "5.1.10 (cudnn/5) in /a"),
            std::string::npos)
      << left_out[0];
  Map written;
  written.cudnn = scanned;
  EXPECT_TRUE(parse_map(format_map(written), "m.toml").map) << format_map(written);
}

}  // namespace
}  // namespace cudnn_compat

namespace cudnn_compat {
namespace {

// A module name with a tab or a line break would add lines to the hooks' tables (a forged "fits"
// or warning): no module system names a module so, and the map says where.
TEST(Map, ModuleWithAControlCharacterIsAnError) {
  for (const char *module :
       {"cudnn/7.6\\nF\\tcudnn/5.0\\t5.1", "cudnn\\t7.6", "cudnn/7.6\\u007f"}) {
    const MapLoad load = parse_map(std::string("schema = 1\n[[cudnn]]\nversion = \"7.6.5\"\n"
                                               "lib = \"/a\"\nmodule = \"") +
                                       module + "\"\n",
                                   "m.toml");
    EXPECT_FALSE(load.map) << module;
    ASSERT_EQ(load.diagnostics.size(), 1u) << module;
    EXPECT_NE(to_string(load.diagnostics[0]).find("m.toml:5:"), std::string::npos)
        << to_string(load.diagnostics[0]);
  }
}

// A line break in a directory would cut the decision table's row there (issue 27, item 11): an
// error at the string, as for a module.
TEST(Map, LibWithAControlCharacterIsAnError) {
  for (const char *lib : {"\"/opt/a\\n/opt/b\"", "\"/opt\\tx\"", "[\"/opt/a\", \"/opt/b\\u001b\"]",
                          "\"\"\"\n/opt/a\n/opt/b\"\"\""}) {
    const MapLoad load = parse_map(
        std::string("schema = 1\n[[cudnn]]\nversion = \"7.6.5\"\nlib = ") + lib + "\n", "m.toml");
    EXPECT_FALSE(load.map) << lib;
    ASSERT_EQ(load.diagnostics.size(), 1u) << lib;
    const std::string said = to_string(load.diagnostics[0]);
    EXPECT_NE(said.find("m.toml:4:"), std::string::npos) << said;
    EXPECT_NE(said.find("'lib' in [[cudnn]] holds a control character"), std::string::npos) << said;
  }
}

// Nesting past 16 is named at its bracket before toml++'s recursion runs off a small stack; the
// brackets of strings (escaped quotes, multi-line, literal) and comments do not count.
TEST(Map, NestingTooDeepIsNamedAtItsBracket) {
  const std::string deep = "schema = 1\nx = " + std::string(17, '[') + std::string(17, ']') + "\n";
  MapLoad m = parse_map(deep, "m.toml");
  ASSERT_FALSE(m.map);
  ASSERT_FALSE(m.diagnostics.empty());
  EXPECT_EQ(to_string(m.diagnostics[0]),
            "m.toml:2:21: error: nested more than 16 deep (arrays, inline tables, dotted keys); "
            "a map nests two or three");
  // Dotted keys (another tester's finding), in a table header and in an inline table.
  std::string dotted = "a";
  for (int i = 0; i < 17; ++i) dotted += ".a";
  for (const std::string &text :
       {"schema = 1\n" + dotted + " = 1\n", "schema = 1\n[" + dotted + "]\n",
        "schema = 1\nx = {" + dotted + " = 1}\n"}) {
    m = parse_map(text, "m.toml");
    ASSERT_FALSE(m.diagnostics.empty()) << text;
    EXPECT_NE(m.diagnostics[0].message.find("nested more than 16 deep"), std::string::npos)
        << to_string(m.diagnostics[0]);
  }
  const std::string brackets(40, '[');
  const std::string quoted = "schema = 1\na = \"\\\"" + brackets + "\"\nb = '" + brackets +
                             "'\nc = \"\"\"\n" + brackets + "\n\"\"\"\nd = '''" + brackets +
                             "'''\n# " + brackets + "\ne = " + std::string(16, '[') +
                             std::string(16, ']') + "\n";
  m = parse_map(quoted, "m.toml");
  for (const Diagnostic &d : m.diagnostics)
    EXPECT_EQ(d.message.find("nested"), std::string::npos) << to_string(d);
}

TEST(Map, RefusedForItsFirstErrorNotAWarningBeforeIt) {
  const MapLoad m =
      parse_map("schema = 1\n[[cudnn]]\nverison = \"5.1.10\"\nlib = \"/x\"\n", "m.toml");
  ASSERT_FALSE(m.map);
  ASSERT_GE(m.diagnostics.size(), 2u);
  EXPECT_EQ(why_invalid(m.diagnostics, "m.toml").find("m.toml:2:1: error: missing key 'version'"),
            0u)
      << why_invalid(m.diagnostics, "m.toml");
  EXPECT_EQ(why_invalid({}, "m.toml"), "m.toml is invalid");
}

// The admin's comments through a merge: each goes back with the line that says what its line
// said, in the same table, however the blanks were written; those whose line is gone are
// reported (helper 115, finding 3: end-of-line comments went without a word).
TEST(Map, CarriesCommentsToTheLinesThatSayTheSame) {
  const std::string old_text =
      "# the site's map\r\nschema = 1\r\n\r\n[policy]\r\nprefer=\"oldest\"  # ticket 4711\r\n"
      "rule = \"nvidia\" # \"#\" in a comment\r\n\r\n# the default\r\n[[cudnn]]\r\n"
      "version = \"9.1.0\"\r\nlib = \"/opt/#9\"  # on /opt\r\n\r\n[[cudnn]]\r\n"
      "version = \"5.1.3\"\r\nlib = \"/old\"\r\nmodule = \"cudnn/5.1\"  # tf1 users\r\n"
      "# the end\r\n";
  const std::string new_text =
      "schema = 1\n\n[policy]\nrule = \"nvidia\"\nprefer = \"oldest\"\n\n[[cudnn]]\n"
      "version = \"5.1.10\"\nlib = \"/old\"\nmodule = \"cudnn/5.1\"\n\n[[cudnn]]\n"
      "version = \"9.1.0\"\nlib = \"/opt/#9\"\n";
  const CarriedComments c = carry_comments(old_text, new_text);
  EXPECT_EQ(
      c.text,
      "# the site's map\nschema = 1\n\n[policy]\nrule = \"nvidia\" # \"#\" in a comment\n"
      "prefer = \"oldest\"  # ticket 4711\n\n[[cudnn]]\nversion = \"5.1.10\"\nlib = \"/old\"\n"
      "module = \"cudnn/5.1\"  # tf1 users\n\n# the default\n[[cudnn]]\n"
      "version = \"9.1.0\"\nlib = \"/opt/#9\"  # on /opt\n# the end\n");
  EXPECT_FALSE(c.lost);
  EXPECT_EQ(carry_comments(c.text, new_text).text, c.text);  // a second merge changes nothing

  // A key whose value changed, and a table gone: their comments are reported, not moved elsewhere.
  const CarriedComments gone = carry_comments(
      "schema = 1\n[policy]\nprefer = \"oldest\"  # ticket 4711\n# old\n[[cudnn]]\n"
      "version = \"5.1.3\"\nlib = \"/gone\"\n",
      "schema = 1\n[policy]\nprefer = \"newest\"\n");
  EXPECT_EQ(gone.text, "schema = 1\n[policy]\nprefer = \"newest\"\n");
  EXPECT_TRUE(gone.lost);
}

}  // namespace
}  // namespace cudnn_compat
