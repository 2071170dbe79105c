// The fakes behave as the real dispatchers do: whole families load, missing or foreign
// sub-libraries fail with the real messages and statuses. Each case runs in a child process,
// because the loader shares sub-libraries by SONAME across the whole process.
#include <gtest/gtest.h>

#include <cstdio>
#include <dlfcn.h>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
const std::string kRoot = FAKECUDNN_ROOT;
const bool kRealCudnnInCache = fs::exists("/usr/local/cuda/lib64/libcudnn_graph.so.9");

// Calls fn (a cudnn status function) of the dispatcher at path and exits with its status.
[[noreturn]] void exit_with(const std::string &path, const char *fn) {
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    std::_Exit(99);
  }
  if (std::string(fn) == "cudnnCreate") {
    auto create = reinterpret_cast<int (*)(void **)>(dlsym(lib, fn));
    void *handle = nullptr;
    std::_Exit(create(&handle) % 256);
  }
  auto check = reinterpret_cast<int (*)()>(dlsym(lib, fn));
  std::_Exit(check ? check() % 256 : 98);
}

// A copy of a fake's lib64 in a fresh directory, to remove or swap sub-libraries in.
std::string copy_of(const std::string &release, const std::string &name) {
  const std::string dir = testing::TempDir() + "/fakes-" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(kRoot + "/" + release + "/lib64", dir, fs::copy_options::copy_symlinks | fs::copy_options::recursive);
  return dir;
}

TEST(FakeCudnn, WholeFamiliesLoad) {
  EXPECT_EXIT(exit_with(kRoot + "/8.9.7/lib64/libcudnn.so.8", "cudnnCreate"), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(exit_with(kRoot + "/8.9.7/lib64/libcudnn.so.8", "cudnnCnnInferVersionCheck"), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(exit_with(kRoot + "/9.1.0/lib64/libcudnn.so.9", "cudnnCreate"), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(exit_with(kRoot + "/9.1.0/lib64/libcudnn.so.9", "cudnnOpsVersionCheck"), testing::ExitedWithCode(0), "");
}

TEST(FakeCudnn, Cudnn8MissingSubLibrary) {
  const std::string dir = copy_of("8.9.7", "8-missing");
  fs::remove(dir + "/libcudnn_cnn_infer.so.8");
  EXPECT_EXIT(exit_with(dir + "/libcudnn.so.8", "cudnnCreate"), testing::ExitedWithCode(1),
              "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open "
              "shared object file");
}

TEST(FakeCudnn, Cudnn8MixedFamilyIsAVersionMismatch) {
  const std::string dir = copy_of("8.9.7", "8-mixed");
  fs::remove(dir + "/libcudnn_cnn_infer.so.8");
  fs::copy_file(kRoot + "/9.1.0/lib64/libcudnn_cnn.so.9.1.0", dir + "/libcudnn_cnn_infer.so.8");
  EXPECT_EXIT(exit_with(dir + "/libcudnn.so.8", "cudnnCnnInferVersionCheck"), testing::ExitedWithCode(14), "");
  EXPECT_EXIT(exit_with(dir + "/libcudnn.so.8", "cudnnCreate"), testing::ExitedWithCode(14), "");
}

TEST(FakeCudnn, Cudnn9TriesTheExactNameFirstAndListsAllWhenNoneLoads) {
  const std::string dir = copy_of("9.1.0", "9-missing");
  for (const char *n : {"libcudnn_ops.so.9.1.0", "libcudnn_ops.so.9", "libcudnn_ops.so"}) fs::remove(dir + "/" + n);
  if (kRealCudnnInCache) {
    // ld.so.cache lends the real libcudnn_ops.so.9: the family is mixed, as it is in the wild.
    EXPECT_EXIT(exit_with(dir + "/libcudnn.so.9", "cudnnOpsVersionCheck"), testing::ExitedWithCode(1002 % 256), "");
  } else {
    EXPECT_EXIT(exit_with(dir + "/libcudnn.so.9", "cudnnOpsVersionCheck"), testing::ExitedWithCode(1008 % 256),
                "Unable to load any of \\{libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, "
                "libcudnn_ops.so\\}");
  }
}

TEST(FakeCudnn, Cudnn9ForeignExactNameIsAMismatch) {
  const std::string dir = copy_of("9.1.0", "9-mixed");
  fs::remove(dir + "/libcudnn_graph.so.9.1.0");
  fs::copy_file(kRoot + "/8.9.7/lib64/libcudnn_ops_infer.so.8.9.7", dir + "/libcudnn_graph.so.9.1.0");
  EXPECT_EXIT(exit_with(dir + "/libcudnn.so.9", "cudnnGraphVersionCheck"), testing::ExitedWithCode(1002 % 256), "");
}

TEST(FakeCudnn, SaysItIsAFake) {
  void *lib = dlopen((kRoot + "/5.1.10/lib64/libcudnn.so.5").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(lib);
  const char *notice = static_cast<const char *>(dlsym(lib, "fakecudnn_notice"));
  ASSERT_TRUE(notice);
  EXPECT_STREQ(notice, "FAKE cuDNN 5.1.10 built by cudnn-compat's tests");
  EXPECT_FALSE(dlsym(lib, "cudnnGetCudartVersion")) << "cuDNN 5 had no cudnnGetCudartVersion";
  dlclose(lib);
}

}  // namespace
