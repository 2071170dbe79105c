// The files the admin's tools write beside the map, and the checks that keep a map others could
// have written from steering anyone's jobs.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

std::string read(const std::string &path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// One directory per test: ctest runs the tests of this file in parallel processes.
std::string fresh_dir() {
  const std::string dir = testing::TempDir() + "/site-files-" +
                          testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  chmod(dir.c_str(), 0755);
  return dir;
}

TEST(InstallPrefix, FromTheProgramsOwnDirectory) {
  EXPECT_EQ(prefix_of_program_dir("/opt/cc/bin"), "/opt/cc");
  EXPECT_EQ(prefix_of_program_dir("/opt/cc/lib/cudnn-compat/"), "/opt/cc");
  EXPECT_EQ(prefix_of_program_dir("/bin"), "/");
  EXPECT_EQ(prefix_of_program_dir("/opt/cc/tests/unit"), std::nullopt);
  EXPECT_EQ(prefix_of_program_dir("/opt/cc/sbin"), std::nullopt);
}

// The unit tests' build uses the default, relative sysconfdir (etc).
TEST(InstallPrefix, TheInstalledMapAndTheExample) {
  EXPECT_EQ(installed_map_path("/opt/cc"), "/opt/cc/etc/cudnn-compat/map.toml");
  EXPECT_EQ(example_map_path("/opt/cc"), "/opt/cc/etc/cudnn-compat/map.toml.example");
  // The prefix /usr (the .deb): the FHS has no /usr/etc, the map is the system's and the example
  // is under share/.
  EXPECT_EQ(installed_map_path("/usr"), "/etc/cudnn-compat/map.toml");
  EXPECT_EQ(installed_map_path("/usr/"), "/etc/cudnn-compat/map.toml");
  EXPECT_EQ(example_map_path("/usr"), "/usr/share/cudnn-compat/map.toml.example");
  EXPECT_EQ(installed_map_path("/usr/local"), "/usr/local/etc/cudnn-compat/map.toml");
  // A .deb's tree unpacked elsewhere: the example it has, under share/.
  const std::string root = fs::path(fresh_dir()).lexically_normal().string();
  fs::create_directories(root + "/usr/share/cudnn-compat");
  std::ofstream(root + "/usr/share/cudnn-compat/map.toml.example") << "schema = 1\n";
  EXPECT_EQ(example_map_path(root + "/usr"), root + "/usr/share/cudnn-compat/map.toml.example");
  EXPECT_EQ(installed_map_path(root + "/usr"), root + "/usr/etc/cudnn-compat/map.toml");
}

TEST(MapTrust, OwnerAndWriters) {
  const std::uint64_t me = 1000;
  EXPECT_EQ(untrusted_because({0, S_IFREG | 0644}, me), std::nullopt);
  EXPECT_EQ(untrusted_because({me, S_IFREG | 0600}, me), std::nullopt);
  EXPECT_EQ(untrusted_because({0, S_IFDIR | 01755}, me), std::nullopt);
  const auto why = [&](FileOwner o) { return untrusted_because(o, me).value_or("trusted"); };
  EXPECT_NE(why({1001, S_IFREG | 0644}).find("owned by uid 1001, neither root nor you"),
            std::string::npos);
  EXPECT_NE(why({0, S_IFREG | 0664}).find("writable by others than its owner (mode 0664: group"),
            std::string::npos);
  EXPECT_NE(why({0, S_IFREG | 0646}).find("mode 0646: everyone"), std::string::npos);
  // Only the owner is told a command; everyone else whose problem it is.
  EXPECT_NE(why({0, S_IFDIR | 01777}).find("tell the site's admins"), std::string::npos);
  EXPECT_EQ(why({0, S_IFDIR | 01777}).find("chmod"), std::string::npos);
  EXPECT_NE(untrusted_because({me, S_IFDIR | 01777}, me).value_or("").find("(chmod o-w)"),
            std::string::npos);
  EXPECT_NE(untrusted_because({me, S_IFREG | 0664, 50}, me).value_or("").find("trusted_group"),
            std::string::npos);
}

// [policy] trusted_group: what that group may write is trusted, whoever in it owns it; others may
// still never write.
TEST(MapTrust, TheTrustedGroup) {
  const std::uint64_t me = 1000;
  const std::int64_t admins = 50;
  EXPECT_EQ(untrusted_because({0, S_IFDIR | 02775, 50}, me, admins, "admins"), std::nullopt);
  EXPECT_EQ(untrusted_because({1001, S_IFREG | 0664, 50}, me, admins, "admins"), std::nullopt);
  EXPECT_NE(untrusted_because({0, S_IFDIR | 02775, 51}, me, admins, "admins"), std::nullopt);
  EXPECT_NE(untrusted_because({0, S_IFREG | 0666, 50}, me, admins, "admins"), std::nullopt);
  EXPECT_NE(untrusted_because({1001, S_IFREG | 0644, 51}, me, admins, "admins"), std::nullopt);
}

TEST(MapTrust, LoadRefusesAGroupWritableMapOrDirectoryAndValidateStillReadsIt) {
  const std::string dir = fresh_dir(), map = dir + "/map.toml";
  std::ofstream(map) << "schema = 1\nshcema = 1\n";
  ASSERT_TRUE(load_map(map).map);
  chmod(map.c_str(), 0664);
  const MapLoad refused = load_map(map);
  EXPECT_FALSE(refused.map);
  ASSERT_EQ(refused.diagnostics.size(), 1u);
  EXPECT_NE(refused.diagnostics[0].message.find("refused: it is writable by others than its owner"),
            std::string::npos);
  const MapLoad validated = read_map_file(map);
  EXPECT_FALSE(validated.map);
  ASSERT_EQ(validated.diagnostics.size(), 2u);  // the refusal first, then what the file says
  EXPECT_EQ(validated.diagnostics[0].severity, Severity::error);
  EXPECT_NE(validated.diagnostics[1].message.find("shcema"), std::string::npos);

  chmod(map.c_str(), 0644);
  chmod(dir.c_str(), 0775);
  EXPECT_NE(load_map(map).diagnostics.at(0).message.find("refused: its directory " + dir),
            std::string::npos);
}

TEST(MapTrust, ALinkIsJudgedByWhereItLeadsToo) {
  const std::string dir = fresh_dir();
  fs::create_directories(dir + "/open");
  chmod((dir + "/open").c_str(), 0777);
  std::ofstream(dir + "/open/map.toml") << "schema = 1\n";
  fs::create_symlink("open/map.toml", dir + "/map.toml");
  EXPECT_NE(map_trust_problem(dir + "/map.toml")
                .value_or("trusted")
                .find("refused: its directory " + fs::canonical(dir).string() +
                      "/open is writable by others"),
            std::string::npos);
  chmod((dir + "/open").c_str(), 0755);
  EXPECT_EQ(map_trust_problem(dir + "/map.toml"), std::nullopt);
}

TEST(AtomicWrite, ReplacesALinkAtItsNameInsteadOfFollowingIt) {
  const std::string dir = fresh_dir();
  std::ofstream(dir + "/victim") << "precious";
  chmod((dir + "/victim").c_str(), 0600);
  fs::create_symlink(dir + "/victim", dir + "/map.toml.bak");
  ASSERT_EQ(write_file_atomically(dir + "/map.toml.bak", "backup"), "");
  EXPECT_EQ(read(dir + "/victim"), "precious");
  EXPECT_FALSE(fs::is_symlink(dir + "/map.toml.bak"));
  EXPECT_EQ(read(dir + "/map.toml.bak"), "backup");
  struct stat st {};
  ASSERT_EQ(stat((dir + "/map.toml.bak").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u) << "took the mode of the link's target";
}

TEST(AtomicWrite, TakesOwnerAndModeFromAModelFile) {
  const std::string dir = fresh_dir();
  std::ofstream(dir + "/map.toml") << "schema = 1\n";
  chmod((dir + "/map.toml").c_str(), 0600);
  ASSERT_EQ(write_file_atomically(dir + "/map.toml.cache", "x", dir + "/map.toml"), "");
  struct stat st {};
  ASSERT_EQ(stat((dir + "/map.toml.cache").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST(AtomicWrite, ThroughALinkUpdatesItsTargetAndKeepsTheLink) {
  const std::string dir = fresh_dir();
  fs::create_directories(dir + "/shared");
  std::ofstream(dir + "/shared/map.toml") << "old";
  chmod((dir + "/shared/map.toml").c_str(), 0640);
  fs::create_symlink("shared/map.toml", dir + "/map.toml");
  ASSERT_EQ(write_file_through_link(dir + "/map.toml", "new"), "");
  EXPECT_TRUE(fs::is_symlink(dir + "/map.toml"));
  EXPECT_EQ(read(dir + "/shared/map.toml"), "new");
  struct stat st {};
  ASSERT_EQ(stat((dir + "/shared/map.toml").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(write_file_through_link(dir + "/nowhere", "x"), "");  // no link: an ordinary write
  fs::create_symlink("missing", dir + "/dangling");
  EXPECT_NE(write_file_through_link(dir + "/dangling", "x").find("is a link to nothing"),
            std::string::npos);
}

}  // namespace
}  // namespace cudnn_compat
