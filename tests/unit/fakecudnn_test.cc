// The fakes behave as the real dispatchers do: whole families load, missing or foreign
// sub-libraries fail with the real messages and statuses. Each case runs in a process of its own
// (fakecudnn-client), because the loader shares sub-libraries by SONAME across a whole process.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/wait.h>
#include <cstdio>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
const std::string kRoot = FAKECUDNN_ROOT;
const bool kRealCudnnInCache = fs::exists("/usr/local/cuda/lib64/libcudnn_graph.so.9");

// Runs the uninstrumented fakecudnn-client on a dispatcher; returns its exit status and output.
struct ClientRun {
  int status;
  std::string output;
};

ClientRun call(const std::string &path, const char *fn) {
  const std::string cmd = std::string(FAKECUDNN_CLIENT) + " '" + path + "' " + fn + " 2>&1";
  ClientRun r{-1, {}};
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) r.output += buf;
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// fn of the dispatcher at path returns status (modulo 256) and prints `says`.
void expect_call(const std::string &path, const char *fn, int status,
                 const std::string &says = "") {
  const ClientRun r = call(path, fn);
  EXPECT_EQ(r.status, status) << fn << " of " << path << ":\n" << r.output;
  if (!says.empty()) {
    EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
  }
}

// A copy of a fake's lib64 in a fresh directory, to remove or swap sub-libraries in.
std::string copy_of(const std::string &release, const std::string &name) {
  const std::string dir = testing::TempDir() + "/fakes-" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(kRoot + "/" + release + "/lib64", dir,
           fs::copy_options::copy_symlinks | fs::copy_options::recursive);
  return dir;
}

TEST(FakeCudnn, WholeFamiliesLoad) {
  expect_call(kRoot + "/8.9.7/lib64/libcudnn.so.8", "cudnnCreate", 0);
  expect_call(kRoot + "/8.9.7/lib64/libcudnn.so.8", "cudnnCnnInferVersionCheck", 0);
  expect_call(kRoot + "/9.1.0/lib64/libcudnn.so.9", "cudnnCreate", 0);
  expect_call(kRoot + "/9.1.0/lib64/libcudnn.so.9", "cudnnOpsVersionCheck", 0);
}

TEST(FakeCudnn, Cudnn8MissingSubLibrary) {
  const std::string dir = copy_of("8.9.7", "8-missing");
  fs::remove(dir + "/libcudnn_cnn_infer.so.8");
  expect_call(
      dir + "/libcudnn.so.8", "cudnnCreate", 1,
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot "
      "open shared object file");
}

TEST(FakeCudnn, Cudnn8MixedFamilyIsAVersionMismatch) {
  const std::string dir = copy_of("8.9.7", "8-mixed");
  fs::remove(dir + "/libcudnn_cnn_infer.so.8");
  fs::copy_file(kRoot + "/9.1.0/lib64/libcudnn_cnn.so.9.1.0", dir + "/libcudnn_cnn_infer.so.8");
  expect_call(dir + "/libcudnn.so.8", "cudnnCnnInferVersionCheck", 14);
  expect_call(dir + "/libcudnn.so.8", "cudnnCreate", 14);
}

TEST(FakeCudnn, Cudnn9TriesTheExactNameFirstAndListsAllWhenNoneLoads) {
  const std::string dir = copy_of("9.1.0", "9-missing");
  for (const char *n : {"libcudnn_ops.so.9.1.0", "libcudnn_ops.so.9", "libcudnn_ops.so"})
    fs::remove(dir + "/" + n);
  if (kRealCudnnInCache) {
    // ld.so.cache lends the real libcudnn_ops.so.9: the family is mixed, as it is in the wild.
    expect_call(dir + "/libcudnn.so.9", "cudnnOpsVersionCheck", 1002 % 256);
  } else {
    expect_call(
        dir + "/libcudnn.so.9", "cudnnOpsVersionCheck", 1008 % 256,
        "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, "
        "libcudnn_ops.so}");
  }
}

TEST(FakeCudnn, Cudnn9ForeignExactNameIsAMismatch) {
  const std::string dir = copy_of("9.1.0", "9-mixed");
  fs::remove(dir + "/libcudnn_graph.so.9.1.0");
  fs::copy_file(kRoot + "/8.9.7/lib64/libcudnn_ops_infer.so.8.9.7",
                dir + "/libcudnn_graph.so.9.1.0");
  expect_call(dir + "/libcudnn.so.9", "cudnnGraphVersionCheck", 1002 % 256);
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
