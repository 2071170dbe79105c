// ld.so.cache in the three layouts glibc's ld.so reads, written byte by byte here (the layouts
// of sysdeps/generic/dl-cache.h), and the loader's glibc-hwcaps and default directories.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

constexpr std::int32_t kLib64 = 0x0303;  // FLAG_X8664_LIB64 | FLAG_ELF_LIBC6
constexpr std::uint64_t kNamed = 1ULL << 62;

struct Entry {
  std::string key, value;
  std::uint64_t hwcap = 0;
  std::int32_t flags = kLib64;
};

void put32(std::string &b, std::size_t at, std::uint32_t v) {
  if (b.size() < at + 4) b.resize(at + 4, '\0');
  std::memcpy(b.data() + at, &v, 4);
}
void put64(std::string &b, std::size_t at, std::uint64_t v) {
  if (b.size() < at + 8) b.resize(at + 8, '\0');
  std::memcpy(b.data() + at, &v, 8);
}
void align(std::string &b, std::size_t to) {
  b.resize((b.size() + to - 1) / to * to, '\0');
}

// The new format ("glibc-ld.so.cache1.1") appended to file: key and value count from its own
// header, the extension directory and the hwcaps names from the start of the file.
void append_new(std::string &file, const std::vector<Entry> &entries,
                const std::vector<std::string> &hwcaps = {}) {
  const std::size_t h = file.size();
  file += "glibc-ld.so.cache1.1";
  put32(file, h + 20, std::uint32_t(entries.size()));
  file.resize(h + 48 + 24 * entries.size(), '\0');
  file[h + 28] = 2;  // little endian
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t e = h + 48 + 24 * i;
    put32(file, e, std::uint32_t(entries[i].flags));
    put32(file, e + 4, std::uint32_t(file.size() - h));
    file += entries[i].key + '\0';
    put32(file, e + 8, std::uint32_t(file.size() - h));
    file += entries[i].value + '\0';
    put64(file, e + 16, entries[i].hwcap);
  }
  std::vector<std::uint32_t> names;
  for (const std::string &n : hwcaps) {
    names.push_back(std::uint32_t(file.size()));
    file += n + '\0';
  }
  if (hwcaps.empty()) return;
  align(file, 4);
  const std::size_t ext = file.size();
  put32(file, h + 32, std::uint32_t(ext));
  put32(file, ext, 0xeaa42174);
  put32(file, ext + 4, 1);
  put32(file, ext + 8, 1);  // cache_extension_tag_glibc_hwcaps
  put32(file, ext + 12, 0);
  put32(file, ext + 16, std::uint32_t(ext + 24));
  put32(file, ext + 20, std::uint32_t(4 * names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) put32(file, ext + 24 + 4 * i, names[i]);
}

// The old format ("ld.so-1.7.0"), its strings counted from the end of its table; with then_new,
// the compat layout: the new format at the next 8-byte boundary, the old strings after it.
std::string old_format(const std::vector<Entry> &entries, const std::vector<Entry> *then_new) {
  std::string file = "ld.so-1.7.0";
  put32(file, 12, std::uint32_t(entries.size()));
  file.resize(16 + 12 * entries.size(), '\0');
  const std::size_t table_end = file.size();
  if (then_new) {
    align(file, 8);
    append_new(file, *then_new);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t e = 16 + 12 * i;
    put32(file, e, std::uint32_t(entries[i].flags));
    put32(file, e + 4, std::uint32_t(file.size() - table_end));
    file += entries[i].key + '\0';
    put32(file, e + 8, std::uint32_t(file.size() - table_end));
    file += entries[i].value + '\0';
  }
  return file;
}

const std::vector<std::string> kAll{"x86-64-v4", "x86-64-v3", "x86-64-v2"};

TEST(LdCache, NewFormat) {
  std::string file;
  append_new(file, {{"libfoo.so.1", "/usr/lib64/libfoo.so.1"},
                    {"libbar.so.2", "/usr/lib64/libbar.so.2"},
                    {"libbar.so.2", "/usr/lib/libbar.so.2", 0, 0x0003}});  // 32-bit: not ours
  EXPECT_EQ(ld_cache_find(file, "libfoo.so.1", {}), "/usr/lib64/libfoo.so.1");
  EXPECT_EQ(ld_cache_find(file, "libbar.so.2", kAll), "/usr/lib64/libbar.so.2");
  EXPECT_FALSE(ld_cache_find(file, "libfoo.so", kAll));
  EXPECT_FALSE(ld_cache_find(file, "libbaz.so.1", kAll));
}

TEST(LdCache, OldFormatAlone) {
  const std::string file = old_format(
      {{"libcudnn.so.8", "/opt/old/libcudnn.so.8"}, {"libfoo.so.1", "/usr/lib64/libfoo.so.1"}},
      nullptr);
  EXPECT_EQ(ld_cache_find(file, "libcudnn.so.8", kAll), "/opt/old/libcudnn.so.8");
  EXPECT_EQ(ld_cache_find(file, "libfoo.so.1", {}), "/usr/lib64/libfoo.so.1");
  EXPECT_FALSE(ld_cache_find(file, "libbar.so.1", kAll));
}

// RHEL 8 and Ubuntu 20.04: ld.so reads the new table that follows the old one.
TEST(LdCache, CompatLayoutPrefersTheNewTable) {
  const std::vector<Entry> fresh{{"libcudnn.so.8", "/opt/new/libcudnn.so.8"},
                                 {"libonlynew.so.1", "/opt/new/libonlynew.so.1"}};
  for (std::size_t n : {1u, 2u, 3u}) {  // old tables of every length mod 8
    std::vector<Entry> stale;
    for (std::size_t i = 0; i < n; ++i)
      stale.push_back({"libcudnn.so.8", "/opt/old/libcudnn.so.8"});
    const std::string file = old_format(stale, &fresh);
    EXPECT_EQ(ld_cache_find(file, "libcudnn.so.8", kAll), "/opt/new/libcudnn.so.8") << n;
    EXPECT_EQ(ld_cache_find(file, "libonlynew.so.1", kAll), "/opt/new/libonlynew.so.1") << n;
  }
}

// glibc >= 2.33: entries from glibc-hwcaps subdirectories, best supported first, else the plain.
TEST(LdCache, HwcapsEntriesBestSupportedFirst) {
  std::string file;
  append_new(file,
             {{"libm2.so.1", "/usr/lib64/glibc-hwcaps/x86-64-v2/libm2.so.1", kNamed | 2},
              {"libm2.so.1", "/usr/lib64/glibc-hwcaps/x86-64-v3/libm2.so.1", kNamed | 1},
              {"libm2.so.1", "/usr/lib64/glibc-hwcaps/x86-64-v4/libm2.so.1", kNamed | 0},
              {"libm2.so.1", "/usr/lib64/libm2.so.1"}},
             {"x86-64-v4", "x86-64-v3", "x86-64-v2"});
  EXPECT_EQ(ld_cache_find(file, "libm2.so.1", kAll),
            "/usr/lib64/glibc-hwcaps/x86-64-v4/libm2.so.1");
  EXPECT_EQ(ld_cache_find(file, "libm2.so.1", {"x86-64-v3", "x86-64-v2"}),
            "/usr/lib64/glibc-hwcaps/x86-64-v3/libm2.so.1");
  EXPECT_EQ(ld_cache_find(file, "libm2.so.1", {"x86-64-v2"}),
            "/usr/lib64/glibc-hwcaps/x86-64-v2/libm2.so.1");
  EXPECT_EQ(ld_cache_find(file, "libm2.so.1", {}), "/usr/lib64/libm2.so.1");
}

// An entry marked with an ISA level above what the CPU supports is passed over.
TEST(LdCache, HwcapsEntryAboveTheCpusIsaLevel) {
  std::string file;
  const std::uint64_t needs_v4 = std::uint64_t(1 << 3) << 32;  // GNU_PROPERTY_X86_ISA_1_V4
  append_new(file,
             {{"libq.so.1", "/usr/lib64/glibc-hwcaps/x86-64-v3/libq.so.1", kNamed | needs_v4},
              {"libq.so.1", "/usr/lib64/libq.so.1"}},
             {"x86-64-v3"});
  EXPECT_EQ(ld_cache_find(file, "libq.so.1", {"x86-64-v3", "x86-64-v2"}), "/usr/lib64/libq.so.1");
  EXPECT_EQ(ld_cache_find(file, "libq.so.1", kAll), "/usr/lib64/glibc-hwcaps/x86-64-v3/libq.so.1");
}

TEST(LdCache, DamagedFilesAnswerNothing) {
  std::string file;
  append_new(file, {{"libfoo.so.1", "/usr/lib64/libfoo.so.1"}});
  for (std::size_t cut = 0; cut < file.size(); cut += 7)
    EXPECT_FALSE(ld_cache_find(std::string_view(file).substr(0, cut), "libfoo.so.1", kAll)) << cut;
  std::string lying = file;
  put32(lying, 20, 0xffffffff);  // more entries than the file holds
  EXPECT_EQ(ld_cache_find(lying, "libfoo.so.1", kAll), "/usr/lib64/libfoo.so.1");
  EXPECT_FALSE(ld_cache_find("ld.so-1.7.0", "libfoo.so.1", kAll));
  EXPECT_FALSE(ld_cache_find("", "libfoo.so.1", kAll));
}

TEST(LdCache, ReadsTheFileAndMatchesTheHostsLoader) {
  const std::string path = testing::TempDir() + "/ld.so.cache.test";
  std::ofstream(path, std::ios::binary)
      << old_format({{"libcudnn.so.5", "/opt/x/libcudnn.so.5"}}, nullptr);
  EXPECT_EQ(ld_cache_lookup("libcudnn.so.5", path, {}), "/opt/x/libcudnn.so.5");
  // The host's own cache, whichever layout its ldconfig writes.
  if (fs::exists("/etc/ld.so.cache")) {
    EXPECT_TRUE(ld_cache_lookup("libc.so.6"));
  }
}

TEST(LoaderDirs, DebianAndRhelDefaults) {
  EXPECT_EQ(default_directories("/usr/lib/x86_64-linux-gnu"),
            (std::vector<std::string>{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib",
                                      "/usr/lib"}));
  EXPECT_EQ(default_directories("/usr/lib64"), (std::vector<std::string>{"/lib64", "/usr/lib64"}));
  EXPECT_EQ(default_directories("/lib64"), (std::vector<std::string>{"/lib64", "/usr/lib64"}));
  // $LIB names the loader's own directory: lib64 on RHEL.
  LoaderContext in;
  in.ld_library_path = "/opt/$LIB";
  in.default_dirs = default_directories("/usr/lib64");
  EXPECT_EQ(loader_search_path(in).front().dir, "/opt/lib64");
  EXPECT_EQ(loader_search_path(in).back().dir, "/usr/lib64");
  in.default_dirs = default_directories("/usr/lib/x86_64-linux-gnu");
  EXPECT_EQ(loader_search_path(in).front().dir, "/opt/lib/x86_64-linux-gnu");
}

// Every directory of the search is tried through its glibc-hwcaps subdirectories first.
TEST(LoaderDirs, HwcapsSubdirectoriesAndDefaultsInTheSearch) {
  const fs::path root = fs::path(testing::TempDir()) / "loader-hwcaps";
  fs::remove_all(root);
  for (const char *d : {"sys/glibc-hwcaps/x86-64-v3", "sys/glibc-hwcaps/x86-64-v2", "path"})
    fs::create_directories(root / d);
  for (const char *f : {"sys/libz9.so.1", "sys/glibc-hwcaps/x86-64-v3/libz9.so.1",
                        "sys/glibc-hwcaps/x86-64-v2/libz9.so.1", "path/libz9.so.1"})
    std::ofstream(root / f) << "x";
  LoaderContext in;
  in.ld_cache = (root / "no-cache").string();
  in.default_dirs = {(root / "sys").string()};
  in.hwcaps = {"x86-64-v3", "x86-64-v2"};
  std::optional<LoaderHit> hit = loader_search("libz9.so.1", in);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->path, (root / "sys/glibc-hwcaps/x86-64-v3/libz9.so.1").string());
  EXPECT_EQ(hit->from, "the default directories");
  in.hwcaps = {"x86-64-v2"};
  EXPECT_EQ(loader_search("libz9.so.1", in)->path,
            (root / "sys/glibc-hwcaps/x86-64-v2/libz9.so.1").string());
  in.hwcaps = {};
  EXPECT_EQ(loader_search("libz9.so.1", in)->path, (root / "sys/libz9.so.1").string());
  in.ld_library_path = (root / "path").string();
  EXPECT_EQ(loader_search("libz9.so.1", in)->path, (root / "path/libz9.so.1").string());

  // A cache written here decides before the default directories.
  const std::string cache = (root / "ld.so.cache").string();
  std::ofstream(cache, std::ios::binary)
      << old_format({{"libz9.so.1", (root / "path/libz9.so.1").string()}}, nullptr);
  in.ld_library_path.clear();
  in.ld_cache = cache;
  hit = loader_search("libz9.so.1", in);
  EXPECT_EQ(hit->from, "ld.so.cache");
  EXPECT_EQ(hit->path, (root / "path/libz9.so.1").string());
}

}  // namespace
}  // namespace cudnn_compat
