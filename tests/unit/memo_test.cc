// The engine's side of the memo (src/core/system/memo.cc) against the format the shim reads
// (shim/shared/memo_format.h); the round trip through the shim is tests/shim/memo_*.sh.
#include "cudnn_compat.h"
#include "memo_format.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

MemoEntry sample() {
  return {"cudnn-compat-memo 2\nname\tlibcudnn.so.9\n",
          "0123abcd",
          {{"/maps/map.toml", FileIdentity{1, 2, 3, 4, 5}},
           {"/etc/cudnn-compat/map.toml", std::nullopt}},
          {{"CUDNN_COMPAT_REQUIRE", "9.1"}, {"CUDNN_COMPAT_CUDA", std::nullopt}},
          "use /opt/cudnn/9.1.0/lib64/libcudnn.so.9\n"};
}

TEST(Memo, EntryIsTheShimsFormat) {
  const std::optional<std::string> text = format_memo_entry(sample());
  ASSERT_TRUE(text);
  EXPECT_EQ(
      *text,
      "cudnn-compat-memo 2\nkey 39\ncudnn-compat-memo 2\nname\tlibcudnn.so.9\n\n"
      "build\t0123abcd\nfile\t1\t2\t3\t4\t5\t/maps/map.toml\ngone\t/etc/cudnn-compat/map.toml\n"
      "env\tCUDNN_COMPAT_REQUIRE=9.1\nunset\tCUDNN_COMPAT_CUDA\n"
      "answer\nuse /opt/cudnn/9.1.0/lib64/libcudnn.so.9\nend\n");
}

TEST(Memo, WhatALineCannotHoldIsNoEntry) {
  MemoEntry e = sample();
  e.files.front().first = "/maps/a\nfile\t0\t0\t0\t0\t0\t/x";
  EXPECT_FALSE(format_memo_entry(e));
  e = sample();
  e.env.front().second = "9.1\nanswer";
  EXPECT_FALSE(format_memo_entry(e));
  e = sample();
  e.answer = std::string(CUDNN_COMPAT_MEMO_MAX_BYTES, 'x');
  EXPECT_FALSE(format_memo_entry(e));
  e = sample();
  e.build.clear();  // an engine linked without a build ID: no shim could believe its entries
  EXPECT_FALSE(format_memo_entry(e));
}

TEST(Memo, TheEngineKnowsItsOwnBuild) {
  // This test program's own ID, as readelf -n prints it (lower-case hex, at least 8 bytes).
  const std::string id = program_build_id();
  EXPECT_GE(id.size(), 16u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(Memo, AFileChangedWithinTheRacyWindowIsNotTrusted) {
  const std::uint64_t now = 1'800'000'000'000'000'000u, second = 1'000'000'000u;
  EXPECT_FALSE(changed_lately({1, 2, 3, now - 2 * second, now - 2 * second}, now));
  EXPECT_TRUE(changed_lately({1, 2, 3, now - second / 2, now - 2 * second}, now));
  EXPECT_TRUE(changed_lately({1, 2, 3, now - 2 * second, now - second / 2}, now));  // chmod, cp -p
}

TEST(Memo, TheSharedRulesOfOwnerModeAndFileSystem) {
  char name[24];
  cudnn_compat_memo_name(0x0123456789abcdefUL, name);
  EXPECT_STREQ(name, "0123456789abcdef.memo");
  EXPECT_TRUE(cudnn_compat_memo_dir_ok(1000, S_IFDIR | 0700, 1000, 0x01021994 /* tmpfs */));
  EXPECT_FALSE(cudnn_compat_memo_dir_ok(1001, S_IFDIR | 0700, 1000, 0x01021994));  // another's
  EXPECT_FALSE(cudnn_compat_memo_dir_ok(1000, S_IFDIR | 0770, 1000, 0x01021994));  // shared
  EXPECT_FALSE(cudnn_compat_memo_dir_ok(1000, S_IFLNK | 0700, 1000, 0x01021994));
  EXPECT_FALSE(cudnn_compat_memo_dir_ok(1000, S_IFDIR | 0700, 1000, 0x6969 /* NFS */));
  EXPECT_TRUE(cudnn_compat_memo_file_ok(1000, S_IFREG | 0600, 1000));
  EXPECT_FALSE(cudnn_compat_memo_file_ok(1000, S_IFREG | 0606, 1000));
  EXPECT_FALSE(cudnn_compat_memo_file_ok(0, S_IFREG | 0600, 1000));
  EXPECT_FALSE(cudnn_compat_memo_file_ok(1000, S_IFIFO | 0600, 1000));
}

struct MemoDir : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("memo-test-" + std::to_string(getpid()));
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string entry(unsigned long hash) const {
    char name[24];
    cudnn_compat_memo_name(hash, name);
    return (dir / name).string();
  }
};

TEST_F(MemoDir, WritesAnEntryOnlyTheUserCanRead) {
  ASSERT_EQ(write_memo_entry(entry(1), sample()), "");
  struct stat st {};
  ASSERT_EQ(stat(entry(1).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_uid, getuid());
  std::ifstream in(entry(1));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), *format_memo_entry(sample()));
}

TEST_F(MemoDir, RefusesADirectoryOthersMayWriteAndNamesItDidNotMake) {
  fs::permissions(dir, fs::perms::owner_all | fs::perms::others_all, fs::perm_options::replace);
  EXPECT_NE(write_memo_entry(entry(1), sample()), "");
  EXPECT_FALSE(fs::exists(entry(1)));
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace);
  EXPECT_NE(write_memo_entry((dir / "map.toml").string(), sample()), "");
  fs::create_directory_symlink(dir, dir.string() + "-link");
  EXPECT_NE(
      write_memo_entry(dir.string() + "-link/" + fs::path(entry(1)).filename().string(), sample()),
      "");
  fs::remove(dir.string() + "-link");
}

TEST_F(MemoDir, KeepsItsBoundDroppingTheOldest) {
  const int n = CUDNN_COMPAT_MEMO_MAX_ENTRIES;
  for (int i = 0; i < n; ++i) {
    std::ofstream(entry(unsigned(i + 100))) << "x";
    const timeval old[2] = {{1'000'000 + i, 0}, {1'000'000 + i, 0}};
    utimes(entry(unsigned(i + 100)).c_str(), old);
  }
  const fs::path left = dir / ".0000000000000001.memo.1.tmp";
  std::ofstream(left) << "left by a writer that died";
  const timeval long_ago[2] = {{1'000'000, 0}, {1'000'000, 0}};
  utimes(left.c_str(), long_ago);
  ASSERT_EQ(write_memo_entry(entry(1), sample()), "");
  prune_memo(entry(1));
  EXPECT_TRUE(fs::exists(entry(1)));
  EXPECT_FALSE(fs::exists(entry(100)));  // the oldest
  EXPECT_TRUE(fs::exists(entry(101)));
  EXPECT_FALSE(fs::exists(left));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), n);
}

TEST(Memo, EveryVariableTheEngineReadsIsRecorded) {
  std::vector<EnvRead> read;
  setenv("CUDNN_COMPAT_MEMO_TEST", "1", 1);
  record_env_reads(&read);
  (void)env("CUDNN_COMPAT_MEMO_TEST");
  (void)env("CUDNN_COMPAT_MEMO_TEST_UNSET");
  record_env_reads(nullptr);
  (void)env("CUDNN_COMPAT_MEMO_TEST");
  unsetenv("CUDNN_COMPAT_MEMO_TEST");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0], EnvRead("CUDNN_COMPAT_MEMO_TEST", "1"));
  EXPECT_EQ(read[1], EnvRead("CUDNN_COMPAT_MEMO_TEST_UNSET", std::nullopt));
}

}  // namespace
}  // namespace cudnn_compat
