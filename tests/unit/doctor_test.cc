// doctor's judgement on facts given by the test.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

Probe reported(const char *file, const char *version, std::optional<Version> cuda = {}) {
  return {file, *parse_dotted(version), cuda, ProbeSource::library, ""};
}

const DoctorFinding *with(const std::vector<DoctorFinding> &all, const std::string &text) {
  for (const DoctorFinding &f : all)
    if (f.what.find(text) != std::string::npos) return &f;
  return nullptr;
}

TEST(Doctor, AMisfitIsAProblemWithTheModuleThatFits) {
  Map map;
  map.cudnn.push_back({*parse_dotted("5.1.10"), "/b", std::nullopt, "cudnn/5.1", {}});
  DoctorFacts f;
  f.need = Need{*parse_dotted("5.1"), std::nullopt, Rule::nvidia, "--require"};
  f.resolved.push_back({5,
                        LoaderHit{"/a/libcudnn.so.5", "LD_LIBRARY_PATH"},
                        reported("/a/libcudnn.so.5", "5.0.5"),
                        {}});
  const std::vector<DoctorFinding> d = diagnose(f, &map);
  const DoctorFinding *p = with(d, "libcudnn.so.5 resolves to /a/libcudnn.so.5");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->severity, Severity3::problem);
  ASSERT_FALSE(p->fixes.empty());
  EXPECT_EQ(p->fixes[0], "module load cudnn/5.1   # cuDNN 5.1.10");
}

// The engine's verdict on the loader's choice is doctor's: a release of the right version that
// has no code for this node's GPU does not fit, and the node is named with the need.
TEST(Doctor, TheEnginesVerdictOnTheLoadersChoiceIsDoctors) {
  DoctorFacts f;
  f.need = Need{*parse_dotted("9.0"), std::nullopt, Rule::nvidia, "--require"};
  f.need->node = NodeFacts{{70}, Version{12, 2, {}, {}}, "NVML", ""};
  f.resolved.push_back({9,
                        LoaderHit{"/t/libcudnn.so.9", "LD_LIBRARY_PATH"},
                        reported("/t/libcudnn.so.9", "9.1.0"),
                        {}});
  f.resolved.back().verdict =
      Verdict{false, "its libcudnn_cnn.so.9 carries no code for compute capability 7.0"};
  const std::vector<DoctorFinding> d = diagnose(f, nullptr);
  const DoctorFinding *p = with(d, "libcudnn.so.9 resolves to /t/libcudnn.so.9");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->severity, Severity3::problem);
  EXPECT_NE(
      p->what.find("on compute capability 7.0 with a CUDA 12.2 driver (NVML) does not fit it: "
                   "its libcudnn_cnn.so.9 carries no code"),
      std::string::npos)
      << p->what;
}

// With no requirement the node alone judges: the shim passes over a release that cannot run here.
TEST(Doctor, WithoutANeedALoadersChoiceThatCannotRunHereIsAProblem) {
  DoctorFacts f;
  f.node = NodeFacts{{70}, Version{12, 2, {}, {}}, "NVML", ""};
  f.resolved.push_back({9,
                        LoaderHit{"/t/libcudnn.so.9", "LD_LIBRARY_PATH"},
                        reported("/t/libcudnn.so.9", "9.1.0"),
                        {}});
  f.resolved.back().verdict =
      Verdict{false, "its libcudnn_cnn.so.9 carries no code for compute capability 7.0"};
  f.resolved.back().shim_use = "/v/libcudnn.so.9";
  const std::vector<DoctorFinding> d = diagnose(f, nullptr);
  const DoctorFinding *p = with(d, "libcudnn.so.9 resolves to /t/libcudnn.so.9");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->severity, Severity3::problem);
  EXPECT_NE(p->what.find("which cannot run on compute capability 7.0 with a CUDA 12.2 driver "
                         "(NVML): its libcudnn_cnn.so.9 carries no code for compute capability "
                         "7.0; the shim would load /v/libcudnn.so.9"),
            std::string::npos)
      << p->what;
  f.resolved.back().verdict = Verdict{true, "9.1.0 runs"};
  const std::vector<DoctorFinding> runs = diagnose(f, nullptr);
  const DoctorFinding *ok = with(runs, "libcudnn.so.9 resolves to");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->severity, Severity3::ok);
}

TEST(Doctor, MixedFamilyCudaAndSeveralReleases) {
  DoctorFacts f;
  f.cuda_major = 11;
  f.cuda_from = "module cuda/11.8";
  Resolution r{8,
               LoaderHit{"/d/libcudnn.so.8", "LD_LIBRARY_PATH"},
               reported("/d/libcudnn.so.8", "8.9.7", Version{12, 2, {}, {}}),
               {}};
  r.foreign_subs.emplace_back("libcudnn_ops_infer.so.8",
                              LoaderHit{"/stray/libcudnn_ops_infer.so.8", "LD_LIBRARY_PATH"});
  f.resolved.push_back(r);
  f.path.push_back({"/x", {reported("/x/libcudnn.so.8", "8.1.0")}});
  f.path.push_back({"/d", {reported("/d/libcudnn.so.8", "8.9.7")}});
  std::vector<DoctorFinding> d = diagnose(f, nullptr);
  ASSERT_TRUE(with(d, "mixed family"));
  EXPECT_EQ(with(d, "mixed family")->severity, Severity3::problem);
  ASSERT_TRUE(with(d, "built for CUDA 12.2 but CUDA 11 is loaded"));
  ASSERT_TRUE(with(d, "2 cuDNN 8 releases on LD_LIBRARY_PATH"));
  EXPECT_EQ(with(d, "2 cuDNN 8 releases")->severity, Severity3::warning);
  f.shim = "LD_AUDIT";
  d = diagnose(f, nullptr);
  EXPECT_EQ(with(d, "mixed family")->severity, Severity3::warning);
  EXPECT_TRUE(with(d, "the shim is on (LD_AUDIT)"));
}

TEST(Doctor, ALinkedLibraryTheLoaderCannotFindStopsTheProgram) {
  DoctorFacts f;
  f.program = "/opt/app";
  f.program_needs = {"libcudnn.so.5"};
  f.resolved.push_back({5, std::nullopt, std::nullopt, {}});
  const std::vector<DoctorFinding> d = diagnose(f, nullptr);
  ASSERT_TRUE(with(d, "it will not start"));
  EXPECT_EQ(with(d, "it will not start")->severity, Severity3::problem);
}

// With nothing that says which major, doctor follows 8 and 9: the one missing beside one found is
// asked for by nobody (helper 111: "ask the admins for cuDNN 8" in a plain shell); with none found
// at all, the missing ones are still worth a warning.
TEST(Doctor, AMajorNobodyAskedForIsNoWarning) {
  DoctorFacts f;
  f.resolved.push_back({8, std::nullopt, std::nullopt, {}});
  f.resolved.push_back({9,
                        LoaderHit{"/s/libcudnn.so.9", "ld.so.cache"},
                        reported("/s/libcudnn.so.9", "9.19.0"),
                        {}});
  const std::vector<DoctorFinding> d = diagnose(f, nullptr);
  const DoctorFinding *none = with(d, "no libcudnn.so.8 in this environment");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->severity, Severity3::ok);
  EXPECT_TRUE(none->fixes.empty());
  f.resolved.pop_back();
  f.resolved.push_back({9, std::nullopt, std::nullopt, {}});
  const std::vector<DoctorFinding> neither = diagnose(f, nullptr);
  ASSERT_TRUE(with(neither, "the loader finds no libcudnn.so.8"));
  EXPECT_EQ(with(neither, "the loader finds no libcudnn.so.8")->severity, Severity3::warning);
  // Asked for (--require 8.9): a problem whatever else is found.
  f.need = Need{*parse_dotted("8.9"), std::nullopt, Rule::nvidia, "--require"};
  f.resolved.back() = {
      9, LoaderHit{"/s/libcudnn.so.9", "ld.so.cache"}, reported("/s/libcudnn.so.9", "9.19.0"), {}};
  const std::vector<DoctorFinding> asked = diagnose(f, nullptr);
  ASSERT_TRUE(with(asked, "the loader finds no libcudnn.so.8"));
  EXPECT_EQ(with(asked, "the loader finds no libcudnn.so.8")->severity, Severity3::problem);
}

// A pin the shim reads itself is not turned into CUDNN_COMPAT_REQUIRE, which would lose its upper
// bound (helper 114: REQUIRE=9.0 for ">=9.0,<9.5", and the shim then kept a 9.20 the pin refuses).
TEST(Doctor, APinIsNotRestatedAsARequirement) {
  Map map;
  map.cudnn.push_back({*parse_dotted("9.1.0"), "/opt/9.1", std::nullopt, "", {}});
  Need pin{*parse_dotted("9.0"), std::nullopt, Rule::pytorch, "the pin of jax"};
  pin.origin = NeedOrigin::pin;
  pin.below = *parse_dotted("9.5");
  const std::vector<std::string> fixes = installed_fixes(&map, pin, 9, ModuleScene{});
  ASSERT_FALSE(fixes.empty());
  EXPECT_EQ(fixes[0],
            "export LD_AUDIT=$(cudnn-compat shim-path)   # the shim follows the pin and "
            "picks it from the map");
  Need asked = pin;
  asked.origin = NeedOrigin::asked;
  EXPECT_EQ(installed_fixes(&map, asked, 9, ModuleScene{})[0].rfind(
                "export CUDNN_COMPAT_REQUIRE=9.0 LD_AUDIT=", 0),
            0u);
}
}  // namespace
}  // namespace cudnn_compat
