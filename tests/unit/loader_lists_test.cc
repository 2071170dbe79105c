// What ld.so takes from LD_AUDIT and LD_PRELOAD: the shim judged by whether ld.so loads it and its
// engine runs beside it, not by its name (helper 99), and a preloaded cuDNN found by its SONAME.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

LoaderContext no_search() {
  LoaderContext lc;
  lc.ld_cache = "/nonexistent";
  lc.default_dirs = {};
  return lc;
}

fs::path fresh_dir(const std::string &name) {
  const fs::path d = fs::path(testing::TempDir()) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(LoaderLists, SplitAsLdSoSplitsEachList) {
  EXPECT_EQ(loader_list("LD_PRELOAD", "/a.so /b.so::/c.so"),
            (std::vector<std::string>{"/a.so", "/b.so", "/c.so"}));
  EXPECT_EQ(loader_list("LD_AUDIT", "/a.so /b.so:/c.so"),
            (std::vector<std::string>{"/a.so /b.so", "/c.so"}));
  // A tab is part of a name to ld.so (rtld.c splits at " :").
  EXPECT_EQ(loader_list("LD_PRELOAD", "/a.so\t/b.so"), (std::vector<std::string>{"/a.so\t/b.so"}));
  EXPECT_TRUE(loader_list("LD_AUDIT", "").empty());
}

TEST(LoaderLists, TheShimIsOnWhereLdSoLoadsItWithItsEngine) {
  const ShimInEnv audit = shim_in_env(SHIM_LIBRARY, "", no_search());
  EXPECT_EQ(audit.mode, "LD_AUDIT");
  EXPECT_EQ(audit.file, SHIM_LIBRARY);
  EXPECT_EQ(shim_in_env("", std::string("/lib/libfoo.so ") + SHIM_LIBRARY, no_search()).mode,
            "LD_PRELOAD");
  EXPECT_EQ(shim_in_env(SHIM_LIBRARY, SHIM_LIBRARY, no_search()).mode, "LD_AUDIT");
  // A link of another name is the shim by its SONAME, its engine beside its target's directory.
  const fs::path links = fresh_dir("shim-links");
  fs::create_symlink(SHIM_LIBRARY, links / "libcudnn-compat-2.1.so");
  fs::create_symlink(fs::path(SHIM_LIBRARY).parent_path() / "cudnn-compat-select",
                     links / "cudnn-compat-select");
  EXPECT_EQ(shim_in_env((links / "libcudnn-compat-2.1.so").string(), "", no_search()).mode,
            "LD_AUDIT");
  EXPECT_EQ(shim_in_env("/lib/x86_64-linux-gnu/libc.so.6", "", no_search()).mode, "");
  // A link alone: the shim finds its engine beside its own file, the link resolved (helper 100).
  const fs::path alone = fresh_dir("shim-link-alone");
  fs::create_symlink(SHIM_LIBRARY, alone / "libcudnn-compat.so");
  EXPECT_EQ(shim_in_env((alone / "libcudnn-compat.so").string(), "", no_search()).mode,
            "LD_AUDIT");
  // ld.so's $LIB and $ORIGIN (the program's directory) expanded.
  const fs::path shim_dir = fs::path(SHIM_LIBRARY).parent_path();
  LoaderContext lc = no_search();
  lc.default_dirs = {shim_dir.parent_path().string()};
  EXPECT_EQ(shim_in_env("/$LIB/cudnn-compat/libcudnn-compat.so", "", lc).mode, "LD_AUDIT");
  lc.executable = (shim_dir / "app").string();
  EXPECT_EQ(shim_in_env("$ORIGIN/libcudnn-compat.so", "", lc).mode, "LD_AUDIT");
}

TEST(LoaderLists, AShimLdSoIgnoresIsOffAndSaysWhy) {
  const fs::path d = fresh_dir("shim-ignored");
  fs::create_directories(d / "dir/libcudnn-compat.so");
  std::ofstream((d / "libcudnn-compat.so").string());   // empty: "file too short" to ld.so
  fs::copy_file(SHIM_LIBRARY, d / "libsite-cudnn.so");  // a copy with no engine beside it
  const auto ignored = [](const std::string &audit) {
    const ShimInEnv s = shim_in_env(audit, "", no_search());
    EXPECT_EQ(s.mode, "") << audit;
    return s.ignored;
  };
  EXPECT_NE(ignored("/nonexistent/libcudnn-compat.so").find("which is not there"),
            std::string::npos);
  EXPECT_NE(ignored((d / "libcudnn-compat.so").string()).find("no shared object"),
            std::string::npos);
  EXPECT_NE(ignored((d / "dir/libcudnn-compat.so").string()).find("a directory"),
            std::string::npos);
  EXPECT_NE(ignored("libcudnn-compat.so").find("does not find"), std::string::npos);
  EXPECT_NE(ignored(std::string(SHIM_LIBRARY) + " /lib/libm.so.6").find("colons alone"),
            std::string::npos);
  const std::string copy = ignored((d / "libsite-cudnn.so").string());
  EXPECT_NE(copy.find("without its engine " + (d / "cudnn-compat-select").string()),
            std::string::npos)
      << copy;
  // Another library named like the shim: loaded, under LD_PRELOAD, but not the shim.
  fs::copy_file("/lib/x86_64-linux-gnu/libm.so.6", d / "libcudnn-compat-old.so");
  const ShimInEnv other = shim_in_env("", (d / "libcudnn-compat-old.so").string(), no_search());
  EXPECT_EQ(other.mode, "");
  EXPECT_NE(other.ignored.find("another library (SONAME libm.so.6), not the shim"),
            std::string::npos)
      << other.ignored;
  EXPECT_EQ(other.ignored.find("ignores"), std::string::npos) << other.ignored;
  // An engine that cannot be run.
  const fs::path noexec = fresh_dir("shim-noexec");
  fs::copy_file(SHIM_LIBRARY, noexec / "libcudnn-compat.so");
  std::ofstream((noexec / "cudnn-compat-select").string()) << "#!/bin/sh\n";
  EXPECT_NE(ignored((noexec / "libcudnn-compat.so").string()).find("cannot be run"),
            std::string::npos);
  // Whatever else is listed, a working shim makes it on.
  EXPECT_EQ(
      shim_in_env("/nonexistent/libcudnn-compat.so:" + std::string(SHIM_LIBRARY), "", no_search())
          .mode,
      "LD_AUDIT");
}

TEST(LoaderLists, APreloadedLibraryAnswersItsSoname) {
  const std::string fake = std::string(FAKECUDNN_ROOT) + "/9.1.0/lib64/libcudnn.so.9";
  LoaderContext lc = no_search();
  lc.preloaded = preloaded_objects("/nonexistent/libx.so " + fake, lc);
  ASSERT_EQ(lc.preloaded.size(), 1u);
  EXPECT_EQ(lc.preloaded[0].soname, "libcudnn.so.9");
  const std::optional<LoaderHit> hit = loader_search("libcudnn.so.9", lc);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->path, fake);
  EXPECT_EQ(hit->from, "LD_PRELOAD");
  EXPECT_FALSE(loader_search("libcudnn.so.8", lc));
  // A bare name, searched for the program: what to remove is the name as written.
  LoaderContext bare = no_search();
  bare.ld_library_path = fs::path(fake).parent_path().string();
  bare.preloaded = preloaded_objects("libcudnn.so.9", bare);
  ASSERT_EQ(bare.preloaded.size(), 1u);
  const std::optional<LoaderHit> named = loader_search("libcudnn.so.9", bare);
  ASSERT_TRUE(named);
  EXPECT_EQ(named->named, "libcudnn.so.9");
}

}  // namespace
}  // namespace cudnn_compat
