// The SPANK plugin's reading of `cudnn-compat --json resolve` (slurm/node_check.c), held against
// the answers resolve gives: a fit, a misfit with what the map has, and everything else, which
// must never be taken for a misfit (a misfit can fail a step; an unchecked node never does).
extern "C" {
#include "node_check.h"
}

#include <gtest/gtest.h>

#include <string>

namespace {

struct Judged {
  node_fit fit;
  std::string line;
};

Judged judge(int rc, const char *out, const char *err) {
  char line[512];
  const node_fit fit = node_check_judge(rc, out, err, line, sizeof line);
  return {fit, line};
}

const char *kMisfit = R"json({
  "advice": "Ask the admins for cuDNN 5.1.x, or rebuild the program against an installed release.",
  "considered": [
    {
      "cuda": null,
      "fits": false,
      "lib": "/opt/cudnn/5.0.5/lib64",
      "module": "cudnn/5.0",
      "version": "5.0.5",
      "why": "before cuDNN 7 the minor version must match (5.0 vs 5.1)"
},
    {
      "cuda": null,
      "fits": false,
      "lib": "/opt/cudnn/7.6.5/lib64",
      "module": null,
      "version": "7.6.5",
      "why": "major 7, not 5"
    }
  ],
  "file": null,
  "map": "/etc/cudnn-compat/node2.toml",
  "reason": "no installed cuDNN fits cuDNN 5.1 under rule \"nvidia\"; 2 releases are in /etc/cudnn-compat/node2.toml",
  "request": "libcudnn.so.5",
  "skipped": []
}
)json";

TEST(NodeCheck, FitIsSilent) {
  const Judged j = judge(0, R"({"file": "/opt/cudnn/5.1.10/lib64/libcudnn.so.5"})", "");
  EXPECT_EQ(j.fit, NODE_FITS);
  EXPECT_EQ(j.line, "");
}

TEST(NodeCheck, MisfitSaysWhyAndWhatTheNodeHas) {
  const Judged j = judge(1, kMisfit, "");
  EXPECT_EQ(j.fit, NODE_MISFIT);
  EXPECT_EQ(j.line,
            "no installed cuDNN fits cuDNN 5.1 under rule \"nvidia\"; 2 releases are in "
            "/etc/cudnn-compat/node2.toml; it has 5.0.5, 7.6.5");
}

// A release in two places (an EasyBuild and a Spack build) is one release the node has (an
// outside tester's finding: "it has 8.9.2, 9.1.0, 9.1.0").
TEST(NodeCheck, EachReleaseNamedOnce) {
  const Judged j =
      judge(1,
            R"({"considered": [{"version": "9.1.0"}, {"version": "8.9.2"}, {"version": "9.1.0"},)"
            R"( {"version": "9.1.0"}], "file": null, "reason": "no installed cuDNN fits"})",
            "");
  EXPECT_EQ(j.fit, NODE_MISFIT);
  EXPECT_EQ(j.line, "no installed cuDNN fits; it has 9.1.0, 8.9.2");
}

TEST(NodeCheck, EmptyMapHasNothing) {
  const Judged j =
      judge(1, R"({"considered": [], "file": null, "reason": "no installed cuDNN fits"})", "");
  EXPECT_EQ(j.fit, NODE_MISFIT);
  EXPECT_EQ(j.line, "no installed cuDNN fits; it has no cuDNN at all");
}

TEST(NodeCheck, BrokenMapIsNeverAMisfit) {
  const Judged j = judge(
      1, "",
      "/etc/cudnn-compat/map.toml:2:1: error: missing key 'lib' in [[cudnn]]\n"
      "cudnn-compat: /etc/cudnn-compat/map.toml is invalid; see `cudnn-compat map validate`\n");
  EXPECT_EQ(j.fit, NODE_UNCHECKED);
  EXPECT_EQ(j.line, "/etc/cudnn-compat/map.toml:2:1: error: missing key 'lib' in [[cudnn]]");
}

TEST(NodeCheck, OtherFailuresAreUnchecked) {
  EXPECT_EQ(judge(2, "", "cudnn-compat: bad requirement\n").line, "bad requirement");
  EXPECT_EQ(judge(2, kMisfit, "").fit, NODE_UNCHECKED);  // only status 1 is a negative answer
  EXPECT_EQ(judge(127, "", "").line, "cudnn-compat resolve exited with status 127");
  EXPECT_EQ(judge(1, R"({"file": null)", "").fit, NODE_UNCHECKED);  // cut short
}

TEST(NodeCheck, LongAnswersAreCutNotOverrun) {
  std::string out = R"({"considered": [)";
  for (int i = 0; i < 200; ++i) out += R"({"version": "5.0.)" + std::to_string(i) + R"("},)";
  out += R"(], "file": null, "reason": "no installed cuDNN fits"})";
  char line[64];
  EXPECT_EQ(node_check_judge(1, out.c_str(), "", line, sizeof line), NODE_MISFIT);
  EXPECT_LT(std::string(line).size(), sizeof line);
}

}  // namespace
