// The shim's libc-free name filter must agree with the engine's parser on every name it sees.
#include "cudnn_compat.h"
#include "shim_text.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

TEST(ShimNames, AgreesWithTheEngine) {
  for (const char *name : {"libcudnn.so",
                           "libcudnn.so.5",
                           "libcudnn.so.5.1.10",
                           "libcudnn.so.8.9.7",
                           "libcudnn_ops_infer.so.8",
                           "libcudnn_cnn_train.so.8.9.7",
                           "libcudnn_graph.so.9",
                           "libcudnn_graph.so.9.19.0",
                           "libcudnn_engines_precompiled.so.9.1",
                           "libcudnn_ops.so",
                           "libcudnn.so.",
                           "libcudnn.so.x",
                           "libcudnn_.so.8",
                           "libcudnn-compat.so",
                           "libcudnnx.so",
                           "libcudnn.so.5.dll",
                           "libcublas.so.12",
                           "libm.so.6",
                           "cudnn64_8.dll",
                           "libcudnn",
                           ""}) {
    struct cudnn_name c {};
    const bool shim = parse_cudnn_name(name, &c) != 0;
    const Parsed<LibraryName> engine = parse_library_name(name);
    const bool engine_unix = engine && !engine->windows;
    EXPECT_EQ(shim, engine_unix) << name;
    if (!shim || !engine_unix) continue;
    EXPECT_EQ(c.sub != 0, !engine->sub.empty()) << name;
    EXPECT_EQ(c.major, engine->version ? engine->version->major : -1) << name;
    EXPECT_EQ(c.full_version != 0, engine->version && engine->version->minor.has_value()) << name;
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

}  // namespace
}  // namespace cudnn_compat
