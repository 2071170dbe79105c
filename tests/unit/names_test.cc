#include "cudnn_compat.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

struct Lib {
  const char *name;
  const char *sub;
  const char *version;  // "" when the name carries none
  bool windows;
};

TEST(Names, LibraryFileNames) {
  for (const Lib &l :
       {Lib{"libcudnn.so.8.9.7", "", "8.9.7", false}, Lib{"libcudnn.so.5", "", "5", false},
        Lib{"libcudnn.so", "", "", false}, Lib{"libcudnn_ops_infer.so.8", "ops_infer", "8", false},
        Lib{"libcudnn_graph.so.9.19.0", "graph", "9.19.0", false},
        Lib{"libcudnn_engines_runtime_compiled.so.9", "engines_runtime_compiled", "9", false},
        Lib{"/opt/cudnn/5.1.10/lib64/libcudnn.so.5.1.10", "", "5.1.10", false},
        Lib{"cudnn64_8.dll", "", "8", true}, Lib{"cudnn_ops64_9.dll", "ops", "9", true},
        Lib{"cudnn_cnn_infer64_8.dll", "cnn_infer", "8", true},
        Lib{"C:\\cuda\\bin\\cudnn64_7.dll", "", "7", true}}) {
    const Parsed<LibraryName> n = parse_library_name(l.name);
    ASSERT_TRUE(n) << l.name << ": " << n.error;
    EXPECT_EQ(n->sub, l.sub) << l.name;
    EXPECT_EQ(n->version ? to_string(*n->version) : "", l.version) << l.name;
    EXPECT_EQ(n->windows, l.windows) << l.name;
  }
}

TEST(Names, NotCudnnLibraries) {
  for (const char *bad : {"libcudart.so.12", "libcudnn", "libcudnn_static.a", "libcudnn.so.x",
                          "libcudnn.so.8.9.7.1.2", "libcudnn_.so.8", "libcudnn_Ops.so.9",
                          "libcudnnx.so.8", "cudnn.dll", "libc.so.6", "", "libcudnn.so8"}) {
    EXPECT_FALSE(parse_library_name(bad)) << bad;
    EXPECT_FALSE(is_cudnn_library_name(bad)) << bad;
  }
}

TEST(Names, MainLibraryAndVersionInName) {
  EXPECT_EQ(main_library(8), *parse_library_name("libcudnn.so.8"));
  EXPECT_EQ(to_string(*version_in_name("/opt/x/libcudnn.so.8.9.7")), "8.9.7");
  EXPECT_FALSE(version_in_name("/opt/x/libcudnn.so"));
  EXPECT_FALSE(version_in_name("/opt/x/plugin.so"));
}

TEST(Names, SubLibrariesPerMajor) {
  EXPECT_TRUE(sub_libraries(7).empty());
  EXPECT_EQ(sub_libraries(8).size(), 6u);
  EXPECT_EQ(sub_libraries(9).size(), 7u);
  EXPECT_EQ(sub_libraries(9).front(), "graph");
}

// cuDNN 9's own error lists them: "Unable to load any of {libcudnn_ops.so.9.1.0, ...}".
TEST(Names, TheDispatcherAsksForItsExactReleaseFromCudnn9On) {
  EXPECT_EQ(dispatcher_asks("ops", *parse_dotted("9.1.0")),
            (std::vector<std::string>{"libcudnn_ops.so.9.1.0", "libcudnn_ops.so.9.1",
                                      "libcudnn_ops.so.9", "libcudnn_ops.so"}));
  EXPECT_EQ(dispatcher_asks("cnn_infer", *parse_dotted("8.9.7")),
            (std::vector<std::string>{"libcudnn_cnn_infer.so.8"}));
}

struct Module {
  const char *name;
  const char *cudnn;
  const char *cuda;  // "" when none
};

TEST(Names, ModuleNamesInEveryScheme) {
  for (const Module &m :
       {Module{"cudnn/5.1", "5.1", ""}, Module{"cuDNN/8.9.2.26-CUDA-12.1.1", "8.9.2.26", "12.1.1"},
        Module{"cudnn/8.9.7.29-12", "8.9.7.29", "12"},
        Module{"cudnn/9.1.0.70_cuda12", "9.1.0.70", "12"},
        Module{"cudnn/8.9.7.29-12-k3d2xyz", "8.9.7.29", "12"},
        Module{"cudnn/8.6.0-cuda11.8", "8.6.0", "11.8"}, Module{"Core/cudnn/7.6.5", "7.6.5", ""},
        Module{"cudnn/9.19.0-cu13", "9.19.0", "13"}}) {
    const Parsed<ModuleName> p = parse_module_name(m.name);
    ASSERT_TRUE(p) << m.name << ": " << p.error;
    EXPECT_EQ(to_string(p->cudnn), m.cudnn) << m.name;
    EXPECT_EQ(p->cuda ? to_string(*p->cuda) : "", m.cuda) << m.name;
  }
  for (const char *bad : {"cudnn", "cuda/12.2", "cudnn/9", "cudnn/8.9.7-gcc12", "cudnn/latest",
                          "cudnn/8.9.7-cuda-12-cuda-11"})
    EXPECT_FALSE(parse_module_name(bad)) << bad;
}

TEST(Names, DecodeTellsFormsApart) {
  EXPECT_EQ(decode("5103")->form, "cudnn-number");
  EXPECT_EQ(decode("5.1.3")->form, "dotted");
  EXPECT_EQ(decode("(8, 9, 2)")->form, "tuple");
  EXPECT_EQ(decode("libcudnn.so.8.9.7")->form, "library");
  EXPECT_EQ(decode("cudnn/8.9.7.29-12")->form, "module");
  EXPECT_EQ(to_string(*decode("cudnn/8.9.7.29-12")->cuda), "12");
  EXPECT_EQ(to_string(decode_cudart("12020")->version), "12.2");
}

TEST(Names, DecodeRefusesToGuess) {
  const Parsed<Decoded> cuda_like = decode("12020");
  ASSERT_FALSE(cuda_like);
  EXPECT_NE(cuda_like.error.find("--cudart"), std::string::npos) << cuda_like.error;
  EXPECT_FALSE(decode("libcudnn.so"));  // no version at all
  EXPECT_FALSE(decode(""));
  EXPECT_FALSE(decode("9"));
  EXPECT_FALSE(decode("hello world"));
}

}  // namespace
}  // namespace cudnn_compat
