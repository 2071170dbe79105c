// The shim's libc-free name filter, the one grammar of cuDNN library names (the engine reads Linux
// names through it), on names written out with the answer each must get.
#include "cudnn_compat.h"
#include "shim_text.h"

#include <gtest/gtest.h>

#include <cstring>

namespace cudnn_compat {
namespace {

struct NameCase {
  const char *name;
  bool accepted;
  const char *sub;
  int major;
  bool full_version;
};

TEST(ShimNames, ReadsEachNameAsWritten) {
  const NameCase cases[] = {
      {"libcudnn.so", true, "", -1, false},
      {"libcudnn.so.5", true, "", 5, false},
      {"libcudnn.so.5.1.10", true, "", 5, true},
      {"libcudnn.so.8.9.7", true, "", 8, true},
      {"libcudnn_ops_infer.so.8", true, "ops_infer", 8, false},
      {"libcudnn_cnn_train.so.8.9.7", true, "cnn_train", 8, true},
      {"libcudnn_graph.so.9", true, "graph", 9, false},
      {"libcudnn_graph.so.9.19.0", true, "graph", 9, true},
      {"libcudnn_engines_precompiled.so.9.1", true, "engines_precompiled", 9, true},
      {"libcudnn_ops.so", true, "ops", -1, false},
      {"libcudnn.so.", false, "", 0, false},
      {"libcudnn.so.x", false, "", 0, false},
      {"libcudnn_.so.8", false, "", 0, false},
      {"libcudnn-compat.so", false, "", 0, false},
      {"libcudnnx.so", false, "", 0, false},
      {"libcudnn.so.5.dll", false, "", 0, false},
      {"libcublas.so.12", false, "", 0, false},
      {"libm.so.6", false, "", 0, false},
      {"cudnn64_8.dll", false, "", 0, false},  // a Windows name: the engine's own reader
      {"libcudnn", false, "", 0, false},
      {"", false, "", 0, false},
  };
  for (const NameCase &e : cases) {
    struct cudnn_name c {};
    ASSERT_EQ(parse_cudnn_name(e.name, &c) != 0, e.accepted) << e.name;
    if (!e.accepted) continue;
    EXPECT_EQ(c.sub != 0, *e.sub != 0) << e.name;
    EXPECT_EQ(std::string(c.sub ? c.sub_name : "", std::size_t(c.sub_len)), e.sub) << e.name;
    EXPECT_EQ(c.major, e.major) << e.name;
    EXPECT_EQ(c.full_version != 0, e.full_version) << e.name;
  }
}

TEST(ShimNames, PathsAndMaps) {
  char dir[64];
  EXPECT_STREQ(split_path("/opt/cudnn/lib64/libcudnn.so.5", dir, sizeof dir), "libcudnn.so.5");
  EXPECT_STREQ(dir, "/opt/cudnn/lib64");
  EXPECT_STREQ(split_path("libcudnn.so.5", dir, sizeof dir), "libcudnn.so.5");
  EXPECT_STREQ(dir, "");
  EXPECT_EQ(split_path("/a/very/long/directory/name/x", dir, 8), nullptr);
  char joined[16];
  EXPECT_EQ(join_path(joined, sizeof joined, "/opt", "libx.so"), 1);
  EXPECT_STREQ(joined, "/opt/libx.so");
  EXPECT_EQ(join_path(joined, sizeof joined, "/opt/longer", "libx.so"), 0);
  EXPECT_EQ(path_is("/opt/libx.so", "/opt", "libx.so"), 1);
  EXPECT_EQ(path_is("/optx/libx.so", "/opt", "libx.so"), 0);

  char maps[] =
      "55d0a000-55d0b000 r--p 00000000 08:01 11 /usr/bin/cat\n"
      "7f0000001000-7f0000002000 r-xp 00001000 08:01 12 "
      "/opt/cc/lib/cudnn-compat/libcudnn-compat.so\n"
      "7ffd0000-7ffd1000 rw-p 00000000 00:00 0 [stack]\n";
  const char *file = mapping_path(maps, 0x7f0000001800);
  ASSERT_NE(file, nullptr);
  EXPECT_TRUE(split_path(file, dir, sizeof dir));
  EXPECT_STREQ(dir, "/opt/cc/lib/cudnn-compat");
  EXPECT_EQ(mapping_path(maps, 0x7ffd0800), nullptr);  // no file
  EXPECT_EQ(mapping_path(maps, 0x1000), nullptr);      // not mapped
}

// A wheel's cuDNN as the loader names it through its framework's RUNPATH.
TEST(ShimNames, LexicallyNormalPaths) {
  char out[64];
  EXPECT_STREQ(lexically_normal("/v/site-packages/torch/lib/../../nvidia/cudnn/lib", out, 64),
               "/v/site-packages/nvidia/cudnn/lib");
  EXPECT_EQ(is_wheel_cudnn_dir(out, static_cast<long>(strlen(out))), 1);
  EXPECT_STREQ(lexically_normal("//a/./b//c/", out, 64), "/a/b/c");
  EXPECT_STREQ(lexically_normal("/a/../../..", out, 64), "/");
  EXPECT_STREQ(lexically_normal("/", out, 64), "/");
  EXPECT_STREQ(lexically_normal("/a/..b/.c", out, 64), "/a/..b/.c");
  EXPECT_EQ(lexically_normal("a/../b", out, 64), nullptr);  // relative: not ours to say
  EXPECT_EQ(lexically_normal("/0123456789/0123456789", out, 8), nullptr);  // does not fit
}

}  // namespace
}  // namespace cudnn_compat
