// The library path a candidate is probed with: its family as the shim hands it over.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = FAKECUDNN_ROOT;

TEST(FamilyPath, OwnDirectoryFirstAndNoOtherFamily) {
  const auto other = [](const std::string &e) { return e == "/opt/cudnn-9.0/lib64"; };
  EXPECT_EQ(family_library_path("", "/opt/cudnn-9.19/lib", other), "/opt/cudnn-9.19/lib");
  EXPECT_EQ(
      family_library_path("/opt/cudnn-9.0/lib64:/opt/cuda/lib64", "/opt/cudnn-9.19/lib", other),
      "/opt/cudnn-9.19/lib:/opt/cuda/lib64");
  EXPECT_EQ(family_library_path("/a::/b", "/d", other), "/d:/a::/b");  // empty entries kept
}

TEST(FamilyPath, OtherFamilyIsAnyVersionedCudnnOfTheMajor) {
  const std::string d91 = kRoot + "/9.1.0/lib64", d90 = kRoot + "/9.0.0/lib64";
  EXPECT_TRUE(holds_other_family(d90, d91, 9));
  EXPECT_FALSE(holds_other_family(d91, d91, 9));                     // its own directory
  EXPECT_FALSE(holds_other_family(d91 + "/.", d91, 9));              // however written
  EXPECT_FALSE(holds_other_family(kRoot + "/8.9.7/lib64", d91, 9));  // another major's names
  EXPECT_TRUE(holds_other_family(kRoot + "/8.9.7/lib64", d91, std::nullopt));
  // A directory holding a single sub-library of the major counts: the dispatcher would take it.
  const fs::path stray = fs::path(testing::TempDir()) / "family-stray";
  fs::create_directories(stray);
  std::ofstream(stray / "libcudnn_graph.so.9.19.0") << "x";
  EXPECT_TRUE(holds_other_family(stray.string(), d91, 9));
  EXPECT_FALSE(holds_other_family("/nonexistent", d91, 9));
}

}  // namespace
}  // namespace cudnn_compat
