// doctor's gathering on a made-up environment: every edge injected, nothing read from this host.
#include "doctor_facts.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

namespace cudnn_compat {
namespace {

Probe reported(const std::string &file, const char *version, Version cuda) {
  return {file, *parse_dotted(version), cuda, ProbeSource::library, ""};
}

// cuDNN 8.9.7 in /a, 9.1.0 in /b whose ops sub-library the loader would take from /stray.
struct FakeHost {
  std::map<std::string, std::string> vars{{"LOADEDMODULES", "gcc/12:cuda/12.2:cudnn/8.9"},
                                          {"LD_LIBRARY_PATH", "/a:/nocudnn:/b"},
                                          {"LD_AUDIT", SHIM_LIBRARY}};
  std::vector<std::string> searched_with_path;  // "name from requester", as the loader was asked
  std::vector<std::string> selected;            // the names the engine was asked about

  DoctorIo io() {
    DoctorIo io;
    io.env = [this](const char *n) -> std::optional<std::string> {
      const auto it = vars.find(n);
      return it == vars.end() ? std::nullopt : std::optional(it->second);
    };
    io.holds_cudnn = [](const std::string &d) { return d == "/a" || d == "/b"; };
    io.probe_dir = [](const std::string &d) {
      const bool a = d == "/a";
      return Parsed<std::vector<Probe>>{
          {{reported(d + (a ? "/libcudnn.so.8" : "/libcudnn.so.9"), a ? "8.9.7" : "9.1.0",
                     Version{12, a ? 2 : 4, {}, {}})}},
          ""};
    };
    io.probe_file = [](const std::string &f) -> std::optional<Probe> {
      if (f == "/a/libcudnn.so.8") return reported(f, "8.9.7", Version{12, 2, {}, {}});
      if (f == "/b/libcudnn.so.9") return reported(f, "9.1.0", Version{12, 4, {}, {}});
      return std::nullopt;
    };
    io.search = [this](const std::string &name,
                       const LoaderContext &lc) -> std::optional<LoaderHit> {
      searched_with_path.push_back(name + " from " + lc.requester + " path " + lc.ld_library_path);
      if (name == "libcudnn.so.8") return LoaderHit{"/a/libcudnn.so.8", "LD_LIBRARY_PATH"};
      if (name == "libcudnn.so.9") return LoaderHit{"/b/libcudnn.so.9", "LD_LIBRARY_PATH"};
      if (name == "libcudnn_ops.so.9.1.0" || name == "libcudnn_ops.so.9.1")
        return std::nullopt;  // not even in /b
      if (name == "libcudnn_ops.so.9") return LoaderHit{"/stray/libcudnn_ops.so.9", "RUNPATH"};
      const std::string dir = name.find(".so.8") != std::string::npos ? "/a/" : "/b/";
      return LoaderHit{dir + name, "LD_LIBRARY_PATH"};
    };
    io.needed = [](const std::string &) {
      return std::vector<std::string>{"libc.so.6", "libcudnn.so.9", "libcudnn_ops.so.9"};
    };
    io.select = [this](const SelectInputs &in) {
      selected.push_back(in.name + " needing " +
                         (in.need.cudnn ? to_string(*in.need.cudnn) : std::string("any")) +
                         (in.need.node ? " on " + gpu_list(in.need.node->gpus) : ""));
      return Selection{"/c/libcudnn.so.8", {}};
    };
    return io;
  }
};

TEST(DoctorFacts, GathersWhatTheLoaderAndTheShimWouldDo) {
  FakeHost host;
  Map map;
  const Need need{*parse_dotted("8.9"), std::nullopt, Rule::nvidia, "--require"};
  const DoctorFacts f = gather_doctor_facts("/opt/app/bin/app", need, &map, host.io());

  EXPECT_EQ(f.modules, (std::vector<std::string>{"gcc/12", "cuda/12.2", "cudnn/8.9"}));
  ASSERT_EQ(f.path.size(), 2u);
  EXPECT_EQ(f.path[0].dir, "/a");
  EXPECT_EQ(f.path[1].dir, "/b");
  // Its sub-library links too (a cuDNN 8 inference program links only those).
  EXPECT_EQ(f.program_needs, (std::vector<std::string>{"libcudnn.so.9", "libcudnn_ops.so.9"}));
  ASSERT_EQ(f.resolved.size(), 2u);
  EXPECT_EQ(f.resolved[0].major, 8);
  EXPECT_TRUE(f.resolved[0].foreign_subs.empty());
  EXPECT_EQ(f.resolved[1].major, 9);
  ASSERT_EQ(f.resolved[1].foreign_subs.size(), 1u);
  EXPECT_EQ(f.resolved[1].foreign_subs[0].first, "libcudnn_ops.so.9");
  EXPECT_EQ(f.resolved[1].foreign_subs[0].second.path, "/stray/libcudnn_ops.so.9");
  EXPECT_EQ(f.cuda_major, 12);
  EXPECT_EQ(f.cuda_from, "module cuda/12.2");
  EXPECT_EQ(f.shim, "LD_AUDIT");
  EXPECT_EQ(f.shim_choice, "/c/libcudnn.so.8");
  EXPECT_EQ(host.selected, (std::vector<std::string>{"libcudnn.so.8 needing 8.9"}));
  // The program asks with the environment's path; the dispatcher asks for its own family.
  EXPECT_EQ(host.searched_with_path.front(),
            "libcudnn.so.8 from /opt/app/bin/app path /a:/nocudnn:/b");
  EXPECT_NE(std::find(host.searched_with_path.begin(), host.searched_with_path.end(),
                      "libcudnn_ops.so.9.1.0 from /b/libcudnn.so.9 path /a:/nocudnn:/b"),
            host.searched_with_path.end());
}

TEST(DoctorFacts, WithoutANeedOrAShimTheEngineIsNotAsked) {
  FakeHost host;
  host.vars = {};
  Map map;
  const DoctorFacts f = gather_doctor_facts("", Need{}, &map, host.io());
  EXPECT_TRUE(f.modules.empty());
  EXPECT_TRUE(f.path.empty());
  ASSERT_EQ(f.resolved.size(), 2u);  // nothing says which major: 8 and 9
  EXPECT_EQ(f.resolved[0].major, 8);
  EXPECT_EQ(f.resolved[1].major, 9);
  EXPECT_EQ(f.shim, "");
  EXPECT_EQ(f.cuda_major, std::nullopt);
  EXPECT_TRUE(host.selected.empty());
}

// As the shim passes over a release that cannot run on the node whatever the program needs, the
// engine judges every major the loader finds on a node whose GPUs are known, with no requirement.
TEST(DoctorFacts, OnAKnownNodeTheEngineJudgesEveryMajorWithoutANeed) {
  FakeHost host;
  Map map;
  Need need;
  need.node = NodeFacts{{70}, Version{12, 2, {}, {}}, "NVML", ""};
  const DoctorFacts f = gather_doctor_facts("", need, &map, host.io());
  EXPECT_FALSE(f.need);
  ASSERT_TRUE(f.node);
  EXPECT_EQ(host.selected, (std::vector<std::string>{"libcudnn.so.8 needing any on 7.0",
                                                     "libcudnn.so.9 needing any on 7.0"}));
  ASSERT_EQ(f.resolved.size(), 2u);
  EXPECT_EQ(f.resolved[0].shim_use, "/c/libcudnn.so.8");
  EXPECT_EQ(f.shim_choice, "/c/libcudnn.so.8");  // no requirement: the first major it changes
}

TEST(DoctorFacts, LoadedCuda) {
  EXPECT_EQ(loaded_cuda({"CUDA/11.8", "cudnn/8.9"}).first, 11);
}

}  // namespace
}  // namespace cudnn_compat
