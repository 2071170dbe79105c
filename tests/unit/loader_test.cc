#include "cudnn_compat.h"
#include "shared/ld_system.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = FAKECUDNN_ROOT;

TEST(Loader, ReadsTheDynamicSectionOfARealFile) {
  const Parsed<ElfDynamic> d = read_elf_dynamic(kRoot + "/8.9.7/lib64/libcudnn.so.8");
  ASSERT_TRUE(d) << d.error;
  EXPECT_EQ(d->soname, "libcudnn.so.8");
  EXPECT_EQ(d->runpath, "$ORIGIN");  // as the fakes are linked: --enable-new-dtags
  EXPECT_TRUE(d->rpath.empty());
  EXPECT_NE(std::find(d->needed.begin(), d->needed.end(), "libc.so.6"), d->needed.end());
}

TEST(Loader, RefusesWhatIsNoElf) {
  EXPECT_FALSE(read_elf_dynamic("/nonexistent"));
  const std::string text = testing::TempDir() + "/not-elf";
  std::ofstream(text) << "just text";
  EXPECT_NE(read_elf_dynamic(text).error.find("not an ELF file"), std::string::npos);
}

// A requester of 3 GiB (sparse): beyond what a whole-file read accepted, read in place.
TEST(Loader, HugeRequesterReadInPlace) {
  const std::string small = kRoot + "/9.1.0/lib64/libcudnn.so.9";
  const fs::path huge = fs::path(testing::TempDir()) / "libhuge.so";
  fs::copy_file(small, huge, fs::copy_options::overwrite_existing);
  fs::resize_file(huge, std::uintmax_t(3) << 30);
  const Parsed<ElfDynamic> a = read_elf_dynamic(small), b = read_elf_dynamic(huge.string());
  ASSERT_TRUE(a) << a.error;
  ASSERT_TRUE(b) << b.error;
  EXPECT_EQ(b->runpath, "$ORIGIN");
  EXPECT_EQ(b->soname, a->soname);
  EXPECT_EQ(b->needed, a->needed);
  fs::remove(huge);
}

constexpr std::string_view kLib = "lib/x86_64-linux-gnu",
                           kRunpath = CUDNN_COMPAT_RUNPATH_SEPARATORS,
                           kLibraryPath = CUDNN_COMPAT_LIBRARY_PATH_SEPARATORS;

TEST(Loader, ExpandsTheLoadersTokens) {
  EXPECT_EQ(
      expand_search_path("$ORIGIN/sub:${ORIGIN}/../lib::/opt/$LIB", "/app/bin", kLib, kRunpath),
      (std::vector<std::string>{"/app/bin/sub", "/app/bin/../lib", ".",
                                "/opt/lib/x86_64-linux-gnu"}));
  EXPECT_EQ(expand_search_path("/opt/$LIB", "", "lib64", kRunpath),
            (std::vector<std::string>{"/opt/lib64"}));
  // glibc's is_dst: a name character after $ORIGIN makes it no token, its '$' a character.
  EXPECT_EQ(expand_search_path("$ORIGIN_x:$ORIGINx/a:$ORIGIN/b:$HOME", "/app", kLib, kRunpath),
            (std::vector<std::string>{"$ORIGIN_x", "$ORIGINx/a", "/app/b", "$HOME"}));
  // RPATH splits at ':' alone; LD_LIBRARY_PATH at ';' too. An unknown origin drops its entry.
  EXPECT_EQ(expand_search_path("/a;/b:/c", "/app", kLib, kRunpath),
            (std::vector<std::string>{"/a;/b", "/c"}));
  EXPECT_EQ(expand_search_path("/a;/b:/c", "/app", kLib, kLibraryPath),
            (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_EQ(expand_search_path("$ORIGIN/lib:/c", "", kLib, kRunpath),
            (std::vector<std::string>{"/c"}));
}

TEST(Loader, FindsLibcInTheCache) {
  const std::optional<std::string> libc = ld_cache_lookup("libc.so.6");
  ASSERT_TRUE(libc) << "libc.so.6 is in every glibc system's ld.so.cache";
  EXPECT_TRUE(std::filesystem::exists(*libc)) << *libc;
  EXPECT_FALSE(ld_cache_lookup("libno-such-library.so.1"));
  EXPECT_FALSE(ld_cache_lookup("libc.so.6", "/nonexistent/ld.so.cache"));
}

// The loader's order: RPATH (only without RUNPATH) before LD_LIBRARY_PATH, RUNPATH after it.
TEST(Loader, SearchesInTheLoadersOrder) {
  LoaderContext in;
  in.requester = kRoot + "/9.1.0/lib64/libcudnn.so.9";  // RUNPATH $ORIGIN
  in.ld_library_path = kRoot + "/9.0.0/lib64";
  std::optional<LoaderHit> hit = loader_search("libcudnn_ops.so.9", in);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->path, kRoot + "/9.0.0/lib64/libcudnn_ops.so.9");
  EXPECT_EQ(hit->from, "LD_LIBRARY_PATH");

  in.ld_library_path.clear();
  hit = loader_search("libcudnn_ops.so.9", in);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->path, kRoot + "/9.1.0/lib64/libcudnn_ops.so.9");
  EXPECT_EQ(hit->from, "RUNPATH of " + in.requester);

  in.ld_library_path = kRoot + "/9.0.0/lib64";
  in.secure = true;  // setuid: LD_LIBRARY_PATH does not count
  EXPECT_EQ(loader_search("libcudnn_ops.so.9", in)->from, "RUNPATH of " + in.requester);

  EXPECT_EQ(loader_search("libc.so.6", {})->from, "ld.so.cache");
  EXPECT_FALSE(loader_search("libno-such-library.so.1", {}));
  EXPECT_EQ(loader_search(kRoot + "/5.0.5/lib64/libcudnn.so.5", {})->from, "the path asked for");
}

TEST(Loader, SearchPathListsEveryStep) {
  LoaderContext in;
  in.ld_library_path = "/a:/b";
  const std::vector<SearchStep> steps = loader_search_path(in);
  ASSERT_GE(steps.size(), 4u);
  EXPECT_EQ(steps[0].dir, "/a");
  EXPECT_EQ(steps[1].dir, "/b");
  EXPECT_EQ(steps[2].from, "ld.so.cache");
  EXPECT_EQ(steps.back().from, "the default directories");
}

}  // namespace
}  // namespace cudnn_compat
