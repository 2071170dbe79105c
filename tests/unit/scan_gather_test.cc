// scan's gathering on a made-up site: modules, search roots and probes injected.
#include "scan_gather.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

ScanIo fake_site(std::vector<std::string> &progress) {
  ScanIo io;
  io.holds_cudnn = [](const std::string &d) { return d == "/m/a" || d == "/m/a-link"; };
  io.canonical = [](const std::string &d) { return d == "/m/a-link" ? "/m/a" : d; };
  io.walk = [](const std::vector<std::string> &roots) {
    return roots.empty() ? std::vector<std::string>{}
                         : std::vector<std::string>{"/m/a", "/s/bad", "/s/old"};
  };
  io.probe = [](const std::string &d) -> Parsed<std::vector<Probe>> {
    if (d == "/s/bad") return Parsed<std::vector<Probe>>::fail("no libcudnn.so here");
    if (d == "/s/old")
      return {{{{"/s/old/libcudnn.so.7.6.5", Version{7, 6, 5, {}}, std::nullopt,
                 ProbeSource::filename, "it did not load"}}},
              ""};
    return {{{{d + "/libcudnn.so.8", Version{8, 9, 7, {}}, Version{12, 2, {}, {}},
               ProbeSource::library, ""}}},
            ""};
  };
  io.progress = [&progress](std::size_t i, std::size_t n, const std::string &d) {
    progress.push_back(std::to_string(i + 1) + "/" + std::to_string(n) + " " + d);
  };
  return io;
}

TEST(ScanGather, ProbesEachDirectoryOnceAndSaysWhatItLeftOut) {
  std::vector<std::string> progress;
  ScanIo io = fake_site(progress);
  io.module_error = [](const ScanModule &m) {
    return m.name == "cudnn/broken" ? "syntax error at line 3" : "";
  };
  const ScanFound found = gather_scan({{"cudnn/8.9", {"/m/a"}, true},
                                       {"cudnn/empty", {}, true},
                                       {"cudnn/broken", {}, true},
                                       {"cuda/12.2", {"/c/lib64"}, false},
                                       {"cudnn/8.9-again", {"/m/a-link"}, true}},
                                      {"/s"}, io);
  // Two modules of one directory: two places of its release, probed once.
  ASSERT_EQ(found.scanned.size(), 2u);
  EXPECT_EQ(found.scanned[0].module, "cudnn/8.9");
  EXPECT_EQ(found.scanned[0].lib, "/m/a");
  EXPECT_EQ(to_string(found.scanned[0].version), "8.9.7");
  EXPECT_EQ(found.scanned[1].module, "cudnn/8.9-again");
  EXPECT_EQ(found.scanned[1].lib, "/m/a-link");
  EXPECT_EQ(found.problems,
            (std::vector<std::string>{
                "module cudnn/empty: no libcudnn.so.<major> in what it adds to LD_LIBRARY_PATH "
                "(nothing)",
                "module cudnn/broken: its modulefile is broken: syntax error at line 3",
                "/s/bad: no libcudnn.so here",
                "/s/old/libcudnn.so.7.6.5: only its file name gives a version (it did not load); "
                "not listed"}));
  // /m/a under the search root is a module's already: four directories, not five.
  EXPECT_EQ(progress,
            (std::vector<std::string>{"1/4 /m/a", "2/4 /m/a-link", "3/4 /s/bad", "4/4 /s/old"}));
}

}  // namespace
}  // namespace cudnn_compat
