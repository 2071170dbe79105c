#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

const std::string kRoot = FAKECUDNN_ROOT;
const ProbeOptions kOptions{PROBE_HELPER, 10'000};

struct Expect {
  const char *dir;
  const char *version;
  const char *cuda;  // "" when the library has no cudnnGetCudartVersion
};

TEST(Probe, EveryFakeReportsItself) {
  for (const Expect &e : {Expect{"5.0.5", "5.0.5", ""}, Expect{"5.1.10", "5.1.10", ""},
                          Expect{"6.0.21", "6.0.21", "8.0"}, Expect{"7.6.5", "7.6.5", "10.2"},
                          Expect{"8.9.7", "8.9.7", "12.2"}, Expect{"9.1.0", "9.1.0", "12.4"}}) {
    const Parsed<std::vector<Probe>> p = probe(kRoot + "/" + e.dir + "/lib64", kOptions);
    ASSERT_TRUE(p) << p.error;
    ASSERT_EQ(p->size(), 1u);
    const Probe &r = p->front();
    EXPECT_EQ(r.source, ProbeSource::library) << e.dir << ": " << r.note;
    EXPECT_EQ(to_string(r.version), e.version);
    EXPECT_EQ(r.cuda ? to_string(*r.cuda) : "", e.cuda) << e.dir;
  }
}

TEST(Probe, AFileDirectly) {
  const Parsed<std::vector<Probe>> p = probe(kRoot + "/5.1.10/lib64/libcudnn.so.5.1.10", kOptions);
  ASSERT_TRUE(p);
  EXPECT_EQ(to_string(p->front().version), "5.1.10");
}

TEST(Probe, ACrashingLibraryFallsBackToItsHeader) {
  const Parsed<std::vector<Probe>> p = probe(kRoot + "/crashing-7.6.5/lib64", kOptions);
  ASSERT_TRUE(p) << p.error;
  const Probe &r = p->front();
  EXPECT_EQ(r.source, ProbeSource::header);
  EXPECT_EQ(to_string(r.version), "7.6.5");
  EXPECT_NE(r.note.find("crashed"), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("cudnn.h"), std::string::npos) << r.note;
}

TEST(Probe, AnUnloadableFileFallsBackToItsName) {
  const std::string dir = testing::TempDir() + "/probe-name/lib64";
  std::filesystem::create_directories(dir);
  { std::ofstream(dir + "/libcudnn.so.8.9.7") << "not an ELF file"; }
  std::filesystem::remove(dir + "/libcudnn.so.8");
  std::filesystem::create_symlink("libcudnn.so.8.9.7", dir + "/libcudnn.so.8");
  const Parsed<std::vector<Probe>> p = probe(dir, kOptions);
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(p->front().source, ProbeSource::filename);
  EXPECT_EQ(to_string(p->front().version), "8.9.7");
  EXPECT_NE(p->front().note.find("did not load"), std::string::npos) << p->front().note;
}

TEST(Probe, NoVersionAnywhereIsAnErrorNotAZero) {
  const std::string file = testing::TempDir() + "/probe-nothing/plugin.so";
  std::filesystem::create_directories(std::filesystem::path(file).parent_path());
  { std::ofstream(file) << "not an ELF file"; }
  const Parsed<std::vector<Probe>> p = probe(file, kOptions);
  ASSERT_FALSE(p) << to_string(p->front().version);
  EXPECT_NE(p.error.find("no version header beside it and no version in its name"),
            std::string::npos)
      << p.error;
}

TEST(Probe, NothingToProbe) {
  EXPECT_FALSE(probe("/nonexistent", kOptions));
  const Parsed<std::vector<Probe>> empty = probe(kRoot + "/5.1.10/include", kOptions);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error.find("holds no libcudnn.so"), std::string::npos);
  EXPECT_FALSE(probe(kRoot + "/9.1.0/lib64/libcudnn_ops.so.9", kOptions));  // a sub-library
}

TEST(Probe, AMissingHelperIsReportedNotFatal) {
  const Parsed<std::vector<Probe>> p =
      probe(kRoot + "/5.1.10/lib64", ProbeOptions{"/nonexistent/helper", 1000});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->front().source, ProbeSource::header);
  EXPECT_NE(p->front().note.find("cannot run /nonexistent/helper"), std::string::npos)
      << p->front().note;
}

TEST(Probe, RealCudnnUnderUsrLocalCuda) {
  const std::string dir = "/usr/local/cuda/lib64";
  if (!std::filesystem::exists(dir + "/libcudnn.so.9"))
    GTEST_SKIP() << "no real cuDNN 9 under " << dir << " on this machine";
  const Parsed<std::vector<Probe>> p = probe(dir, kOptions);
  ASSERT_TRUE(p) << p.error;
  const Probe &r = p->front();
  EXPECT_EQ(r.source, ProbeSource::library) << r.note;
  EXPECT_EQ(r.version.major, 9);
  ASSERT_TRUE(r.cuda);
  // This machine kind carries cuDNN 9.19 for CUDA 13.1; another install still must report 9.x.
  std::cout << "real cuDNN: " << to_string(r.version) << " for CUDA " << to_string(*r.cuda) << "\n";
}

}  // namespace
}  // namespace cudnn_compat
