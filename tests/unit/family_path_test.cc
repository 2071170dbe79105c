// The library path a candidate is probed with: its family as the shim hands it over (the shim's
// C rule, shim/shared/family_path.h, which the engine's probes use too).
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = FAKECUDNN_ROOT;
const std::string d91 = kRoot + "/9.1.0/lib64", d90 = kRoot + "/9.0.0/lib64",
                  d89 = kRoot + "/8.9.7/lib64";

TEST(FamilyPath, OwnDirectoryFirstAndNoOtherFamily) {
  EXPECT_EQ(family_library_path("", d91, 9), d91);
  EXPECT_EQ(family_library_path(d90 + ":/opt/cuda/lib64", d91, 9), d91 + ":/opt/cuda/lib64");
  EXPECT_EQ(family_library_path("/a::/b:", "/d", 9), "/d:/a::/b:");  // empty entries kept
  EXPECT_EQ(family_library_path(d90, d91, 9), d91);
}

TEST(FamilyPath, OtherFamilyIsAnyVersionedCudnnOfTheMajor) {
  EXPECT_EQ(family_library_path(d91 + "/.", d91, 9),
            d91 + ":" + d91 + "/.");                             // its own, however written
  EXPECT_EQ(family_library_path(d89, d91, 9), d91 + ":" + d89);  // another major's names
  EXPECT_EQ(family_library_path(d89, d91, std::nullopt), d91);
  // A directory holding a single sub-library of the major counts: the dispatcher would take it.
  const fs::path stray = fs::path(testing::TempDir()) / "family-stray";
  fs::create_directories(stray);
  std::ofstream(stray / "libcudnn_graph.so.9.19.0") << "x";
  EXPECT_EQ(family_library_path(stray.string(), d91, 9), d91);
  EXPECT_EQ(family_library_path("/nonexistent", d91, 9), d91 + ":/nonexistent");
}

TEST(FamilyPath, ManyEntriesFitAndKeepTheirOrder) {
  std::string path, want = d91;
  for (int i = 0; i < 200; ++i) {
    const std::string e = "/nonexistent/" + std::to_string(i);
    path += (i ? ":" : "") + e + ":" + d90;
    want += ":" + e;
  }
  EXPECT_EQ(family_library_path(path, d91, 9), want);
}

}  // namespace
}  // namespace cudnn_compat
