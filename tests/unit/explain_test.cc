// explain's reader on the shared examples of real messages, on messages of every family written
// here, on whole logs with noise, and on input that is no log at all.
#include "cudnn_compat.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <random>

namespace cudnn_compat {
namespace {

std::string str(const std::optional<Version> &v) {
  return v ? to_string(*v) : "";
}

std::string field(const nlohmann::json &j, const char *key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// The examples users posted (tests/explain/error-examples.jsonl, from ../shared/corpus).
TEST(Explain, RecognisesTheSharedExamples) {
  std::ifstream in(EXPLAIN_EXAMPLES);
  ASSERT_TRUE(in) << EXPLAIN_EXAMPLES;
  int total = 0, right = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const nlohmann::json ex = nlohmann::json::parse(line);
    ++total;
    const std::vector<Finding> found = find_errors(ex["message"].get<std::string>());
    const auto it =
        std::find_if(found.begin(), found.end(), [](const Finding &f) { return f.recognized; });
    const std::string got = it == found.end()
                                ? "nothing"
                                : std::string(to_string(it->kind)) + " " + str(it->runtime) + " " +
                                      str(it->built_with) + " " + it->library + " " + it->missing;
    const std::string want = field(ex, "kind") + " " + field(ex, "runtime") + " " +
                             field(ex, "built_with") + " " + field(ex, "library") + " " +
                             field(ex, "missing");
    EXPECT_EQ(got, want) << ex["message"];
    right += got == want;
  }
  EXPECT_EQ(total, 15);
  EXPECT_EQ(right, total);
}

struct Case {
  const char *message;
  const char *expect;  // kind runtime built library missing rule
};

class ExplainFamilies : public testing::TestWithParam<Case> {};

TEST_P(ExplainFamilies, ReadsTheVersionsAndTheRule) {
  const std::vector<Finding> found = find_errors(GetParam().message);
  ASSERT_FALSE(found.empty()) << GetParam().message;
  const Finding &f = found.front();
  EXPECT_EQ(std::string(to_string(f.kind)) + " " + str(f.runtime) + " " + str(f.built_with) + " " +
                f.library + " " + f.missing + " " +
                (f.rule ? std::string(rule_name(*f.rule)) : "-"),
            GetParam().expect);
}

INSTANTIATE_TEST_SUITE_P(
    Table, ExplainFamilies,
    testing::Values(
        Case{"Loaded runtime CuDNN library: 5110 (compatibility version 5100) but source was "
             "compiled with 6021 (compatibility version 6000).",
             "version-mismatch 5.1.10 6.0.21   tensorflow-2016"},
        Case{"Loaded cudnn library: 4007 but source was compiled against 5004.",
             "version-mismatch 4.0.7 5.0.4   exact"},
        Case{"2018-03-27 15:29:16.782566: E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] "
             "Loaded runtime CuDNN library: 7.0.5 but source was compiled with: 7.1.4.  CuDNN "
             "library major and minor version needs to match or have higher minor version in "
             "case of CuDNN 7.0 or later version.",
             "version-mismatch 7.0.5 7.1.4   tensorflow-2018"},
        Case{"E0000 00:00:1738697930.202924 7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: "
             "8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have matching "
             "major version and equal or higher minor version.",
             "version-mismatch 8.0.5 8.1.0   tensorflow"},
        Case{"cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found "
             "runtime version (8, 9, 7).",
             "version-mismatch 8.9.7 9.1.0   pytorch"},
        Case{"cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7605",
             "version-mismatch 7.6.5 7.1.2   pytorch-2017"},
        // As an issue's title retypes it (xingyizhou/CenterNet#119).
        Case{"cuDNN version mismatch:Pytorch was compiled against 7102 but link against 7301",
             "version-mismatch 7.3.1 7.1.2   pytorch-2017"},
        Case{"cuDNN compiled (7102) and runtime (7005) versions mismatch",
             "version-mismatch 7.0.5 7.1.2   caffe2"},
        Case{"The installed Paddle is compiled with CUDNN 8.2, but CUDNN version in your machine "
             "is 8.1, which may cause serious incompatible bug.",
             "version-mismatch 8.1 8.2   paddle"},
        Case{"cuDNN lib mismatch: linked-against version 7605 != compiled-against version 7603.",
             "version-mismatch 7.6.5 7.6.3   mxnet"},
        Case{"cuDNN reports version 8201 which does not match with the version 8000 with which "
             "OpenCV was built",
             "version-mismatch 8.2.1 8.0.0   nvidia"},
        Case{"checkVersions cuDNN reports version 91.9 which is not compatible with the version "
             "9.19 with which OpenCV was built",
             "version-mismatch 9.19 9.19   nvidia"},
        // Two digits after the dot are not OpenCV's decoding (it prints one): read as written.
        Case{"checkVersions cuDNN reports version 90.12 which is not compatible with the version "
             "9.1 with which OpenCV was built",
             "version-mismatch 90.12 9.1   nvidia"},
        Case{"Outdated cuDNN installation found.\nVersion JAX was built against: 90100\nMinimum "
             "supported: 90100\nInstalled version: 8907",
             "outdated 8.9.7 9.1.0   jax"},
        Case{"RuntimeError: cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
             "sublibrary-mismatch     -"},
        Case{"cudnnCreate failed: CUDNN_STATUS_VERSION_MISMATCH", "version-mismatch     -"},
        Case{"Could not load library libcudnn_ops_infer.so.8. Error: libcublasLt.so.11: cannot "
             "open shared object file: No such file or directory",
             "dependency-not-found   libcudnn_ops_infer.so.8 libcublasLt.so.11 -"},
        Case{"Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open "
             "shared object file",
             "dependency-not-found   libcudnn_cnn_infer.so.8 libcuda.so -"},
        Case{"Could not load library libcudnn_adv_train.so.8. Error: libcudnn_adv_train.so.8: "
             "cannot open shared object file",
             "library-not-found   libcudnn_adv_train.so.8  -"},
        Case{"Could not load library libcudnn_ops_infer.so.8. Error: "
             "/usr/lib/x86_64-linux-gnu/libcudnn_ops_infer.so.8: undefined symbol: "
             "_Z22cudnnGenericOpTensorNd, version libcudnn_ops_infer.so.8",
             "sublibrary-mismatch   libcudnn_ops_infer.so.8  -"},
        Case{"Could not load symbol cudnnGetVersion. Error: "
             "/tmp/stray/libcudnn_graph.so.9.19.0: undefined symbol: cudnnGetVersion",
             "sublibrary-mismatch   libcudnn_graph.so.9.19.0  -"},
        // The family's bare name, which every name of the list shares: what the shared corpus
        // records for the same message of cuDNN 9.1 (error-examples.jsonl, "libcudnn_ops.so").
        Case{"Unable to load any of {libcudnn_graph.so.9.19.0, libcudnn_graph.so.9.19, "
             "libcudnn_graph.so.9, libcudnn_graph.so}",
             "library-not-found   libcudnn_graph.so  -"},
        Case{"ImportError: libcudnn.so.7: cannot open shared object file: No such file or "
             "directory",
             "library-not-found   libcudnn.so.7  -"},
        Case{"I tensorflow/stream_executor/dso_loader.cc:119] Couldn't open CUDA library "
             "libcudnn.so. LD_LIBRARY_PATH: /usr/local/cuda/lib64",
             "library-not-found   libcudnn.so  -"},
        Case{"Found cuDNN version 8600, but JAX was built against version 8904, which is newer.",
             "outdated 8.6.0 8.9.4   jax"},
        Case{"Could not load library cudnn_cnn_infer64_8.dll. Error code 126",
             "library-not-found   cudnn_cnn_infer64_8.dll  -"},
        Case{"Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library "
             "path!",
             "library-not-found   cudnn_ops_infer64_8.dll  -"},
        Case{"OSError: [WinError 126] Error loading "
             "\"C:\\Python\\lib\\site-packages\\torch\\lib\\cudnn_adv_infer64_8.dll\" or one of "
             "its dependencies.",
             "library-not-found   cudnn_adv_infer64_8.dll  -"},
        Case{"W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load "
             "dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found",
             "library-not-found   cudnn64_8.dll  -"}));

TEST(Explain, FindsErrorsInANoisyLogAndLinksTheInitFailure) {
  const std::string log =
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 3, in <module>\n"
      "2018-03-27 15:29:16.782566: I tensorflow/core/platform/cpu_feature_guard.cc:140] AVX2\n"
      "2018-03-27 15:29:16.782566: E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded "
      "runtime CuDNN library: 7.0.5 but source was compiled with: 7.1.4.  CuDNN library major and "
      "minor version needs to match or have higher minor version in case of CuDNN 7.0 or later "
      "version.\n"
      "2018-03-27 15:29:16.782566: E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded "
      "runtime CuDNN library: 7.0.5 but source was compiled with: 7.1.4.  CuDNN library major and "
      "minor version needs to match or have higher minor version in case of CuDNN 7.0 or later "
      "version.\n"
      "F tensorflow/core/kernels/conv_ops.cc:717] Check failed: DNN library initialization "
      "failed\n"
      "ImportError: libcudnn.so.7: cannot open shared object file: No such file or directory\n";
  const std::vector<Finding> found = find_errors(log);
  ASSERT_EQ(found.size(), 2u);  // the repeated line counts once
  EXPECT_EQ(found[0].line, 4u);
  EXPECT_NE(found[0].note.find("\"DNN library initialization failed\" at line 6"),
            std::string::npos)
      << found[0].note;
  EXPECT_EQ(found[1].library, "libcudnn.so.7");
  const Finding dated = find_errors(
      "2018-03-27 15:29:16.782566: E cuda_dnn.cc:378] Loaded runtime CuDNN library: 7005 "
      "(compatibility version 7000) but source was compiled with 7102 (compatibility version "
      "7100).")[0];
  EXPECT_EQ(dated.note.find("2018"), std::string::npos) << dated.note;
  EXPECT_NE(dated.note.find("7005 is cuDNN 7.0.5, 7000 is cuDNN 7.0.0, 7102 is cuDNN 7.1.2"),
            std::string::npos)
      << dated.note;
}

TEST(Explain, TensorFlowsConvolutionFailurePointsBack) {
  const std::vector<Finding> found = find_errors(
      "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library "
      "needs to have matching major version and equal or higher minor version.\n"
      "UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed "
      "to initialize, so try looking to see if a warning log message was printed above.\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].note.find("at line 2"), std::string::npos) << found[0].note;
}

// XLA prints TensorFlow's check in both: the build's tree in the line says whose it is.
TEST(Explain, XlasCheckIsJaxsFromItsTree) {
  const std::string tail =
      "cuda_dnn.cc:427] Loaded runtime CuDNN library: 8.5.0 but source was compiled with: 8.6.0.  "
      "CuDNN library needs to have matching major version and equal or higher minor version.\n";
  const std::vector<Finding> jax = find_errors("E external/xla/xla/stream_executor/cuda/" + tail);
  ASSERT_EQ(jax.size(), 1u);
  EXPECT_EQ(jax[0].framework, "jax");
  const std::vector<Finding> tf =
      find_errors("E external/local_xla/xla/stream_executor/cuda/" + tail);
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_EQ(tf[0].framework, "tensorflow");
}

// The one finding of a text (an empty one, and a failure, when there is not exactly one).
Finding one_finding(std::string_view text) {
  const std::vector<Finding> f = find_errors(text);
  EXPECT_EQ(f.size(), 1u) << text;
  return f.size() == 1 ? f[0] : Finding{};
}

// Shapes of the eighteenth held-out set (tests/explain/held-out-18.jsonl), each a real message.
TEST(Explain, AUsersAccountOfTheirRelease) {
  // pytorch#118193: the release the user had, before a sentence about building.
  const Finding had = one_finding(
      "I had cudnn 8.0.5. building pytorch led to the following error: https://gist.github.com/x "
      ". The cudnn version was too old; I am told we support a minimum of 8.5 now.");
  EXPECT_EQ(had.kind, FindingKind::outdated);
  EXPECT_EQ(str(had.runtime) + " " + str(had.required), "8.0.5 8.5");
  EXPECT_TRUE(had.build_time);
  // NervanaSystems/ngraph#747: "my cudnn was version 6", then what the code needs.
  const Finding was = one_finding(
      "I was seeing a compilation error because my cudnn was version 6.\n"
      "Looks like the ngraph master branch now needs cudnn v7.");
  EXPECT_EQ(str(was.runtime) + " " + str(was.required), "6 7");
  EXPECT_TRUE(was.build_time);
  // SeokjuLee/VPGNet#7: the account is one clause of a line that goes on to the error.
  const Finding clause = one_finding(
      "I have run the caffe version on a Tesla M40 GPU，CUDA version 8.0，cuDNN version v5. when "
      "compile  it，there is an error：\n./include/caffe/util/cudnn.hpp:124:41: error: too few "
      "arguments to function ‘cudnnStatus_t "
      "cudnnSetPooling2dDescriptor(cudnnPoolingDescriptor_t)’");
  EXPECT_EQ(clause.kind, FindingKind::version_mismatch);
  EXPECT_EQ(str(clause.runtime), "5");
}

// A coloured log pasted with its terminal escapes holds its versions between them (helper 110:
// the answer fell back to "different releases").
TEST(Explain, ATerminalsColoursAreNoPartOfTheVersions) {
  const Finding bold = one_finding(
      "Loaded runtime CuDNN library: \x1b[1m8.1.0\x1b[0m but source was compiled with: "
      "\x1b[1;31m8.9.7\x1b[0m.");
  EXPECT_EQ(bold.kind, FindingKind::version_mismatch);
  EXPECT_EQ(str(bold.runtime) + " " + str(bold.built_with), "8.1.0 8.9.7");
  const Finding titled = one_finding(
      "\x1b]0;job 1234\aCould not load library libcudnn_cnn_infer.so.8. Error: "
      "libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory");
  EXPECT_EQ(titled.kind, FindingKind::library_not_found);
  EXPECT_EQ(titled.library, "libcudnn_cnn_infer.so.8");
  EXPECT_TRUE(titled.text.starts_with("Could not load library")) << titled.text;  // no title
}

// A framework's GPU build by its version is no cuDNN to ask for (Paddle#24953: "ask the admins for
// cuDNN 1.8.1").
TEST(Explain, AFrameworksGpuBuildIsNoCudnnRelease) {
  const Finding paddle = one_finding(
      "说是 Can not find library: libcudnn.so. 我按CENTOS系统装的1.8.1 GPU版本，CUDA 10.0");
  EXPECT_EQ(paddle.kind, FindingKind::library_not_found);
  EXPECT_EQ(str(paddle.required), "");
  const Finding english =
      one_finding("Can not find library: libcudnn.so. I use the 1.8.1 GPU version, CUDA 10.0");
  EXPECT_EQ(str(english.required), "");
}

TEST(Explain, ShapesWithoutAVersionOfTheirOwn) {
  const std::string notfound =
      "CMake Error: The following variables are used in this project, but they are set to "
      "NOTFOUND.\n";
  // davisking/dlib#628: CMake's NOTFOUND after a step that looked for cuDNN ...
  const Finding cmake = one_finding(
      "-- Looking for cuDNN install...\n"
      "-- Checking if you have the right version of cuDNN installed.\n" +
      notfound);
  EXPECT_EQ(cmake.kind, FindingKind::library_not_found);
  EXPECT_TRUE(cmake.build_time);
  // ... and not after one that found it, nor for another product's variables.
  EXPECT_TRUE(find_errors("-- Found cuDNN: v8.9.2 (include: /usr/include)\n" + notfound).empty());
  EXPECT_TRUE(find_errors("-- Looking for cuDNN install...\n" + notfound +
                          "CUDA_cublas_LIBRARY (ADVANCED)\n")
                  .empty());
  // zhiqwang/yolort#434: cuDNN's zlib told in prose.
  const Finding zlib =
      one_finding("On windows, I needed zlibwapi.dll in my path and did not have it.");
  EXPECT_EQ(zlib.kind, FindingKind::dependency_not_found);
  EXPECT_EQ(zlib.missing, "zlibwapi.dll");
  // microsoft/CNTK#194: cuDNN's floor of GPUs in words.
  EXPECT_EQ(one_finding("NVS 5400m is GPU of compute capability 2.1 (i.e. Fermi). cuDNN requires "
                        "Kepler or higher GPUs (i.e. CC >= 3.0) so that's why you are seeing this "
                        "error.")
                .kind,
            FindingKind::arch_mismatch);
}

TEST(Explain, AnythingElseIsNothing) {
  EXPECT_TRUE(find_errors("").empty());
  EXPECT_TRUE(find_errors("all is well\nepoch 1: loss 0.3\n").empty());
  EXPECT_TRUE(find_errors("libcublas.so.12: cannot open shared object file").empty());
  std::mt19937 rng(7);
  std::string noise(1 << 20, '\0');
  for (char &c : noise) c = char(rng());
  EXPECT_NO_THROW(find_errors(noise));
  const std::string huge_line(20 << 20, 'x');  // one 20 MiB line
  EXPECT_TRUE(find_errors(huge_line).empty());
}

TEST(Explain, AdviceNamesTheModuleOrWhatToAskFor) {
  Map map;
  map.cudnn.push_back({*parse_dotted("5.0.5"), "/a", std::nullopt, "cudnn/5.0", {}});
  map.cudnn.push_back({*parse_dotted("5.1.10"), "/b", std::nullopt, "cudnn/5.1", {}});
  const Finding f = find_errors(
      "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled "
      "with 5103 (compatibility version 5100).")[0];
  Advice a = advise(f, &map);
  EXPECT_EQ(a.what, "tensorflow loaded cuDNN 5.0.5 but was built with cuDNN 5.1.3");
  EXPECT_EQ(a.compatible, false);
  EXPECT_NE(a.rule.find("rule tensorflow-2016 refuses"), std::string::npos);
  EXPECT_NE(a.rule.find("NVIDIA's own policy agrees"), std::string::npos);
  EXPECT_EQ(a.fixes,
            (std::vector<std::string>{"module load cudnn/5.1   # cuDNN 5.1.10",
                                      "cudnn-compat resolve libcudnn.so.5 --require 5.1.3"}));
  EXPECT_NE(f.note.find("5005 is cuDNN 5.0.5"), std::string::npos) << f.note;
  a = advise(f, nullptr);
  EXPECT_EQ(a.fixes, (std::vector<std::string>{
                         "ask the admins for cuDNN 5.1.x (no version map here to look in)",
                         "cudnn-compat resolve libcudnn.so.5 --require 5.1.3"}));
}

// A minimum with a patch refuses the releases of its minor below it: "9.1.1 or newer, found
// 9.1.0" was answered with `module load cudnn/9.1   # cuDNN 9.1.0`, the release refused, and a
// resolve that NVIDIA's rule (which weighs no patch) answers with it too (helper 97).
TEST(Explain, MinimumWithAPatchRefusesTheOlderPatches) {
  Map map;
  map.cudnn.push_back({*parse_dotted("9.1.0"), "/a", std::nullopt, "cudnn/9.1", {}});
  map.cudnn.push_back({*parse_dotted("9.1.2"), "/b", std::nullopt, "cudnn/9.1.2", {}});
  const Advice a = advise(find_errors("requires cuDNN 9.1.1 or newer, found 9.1.0")[0], &map);
  EXPECT_EQ(a.what, "the program needs cuDNN 9.1.1 or a newer 9.x but found cuDNN 9.1.0");
  EXPECT_EQ(a.fixes,
            (std::vector<std::string>{"module load cudnn/9.1.2   # cuDNN 9.1.2",
                                      "cudnn-compat resolve libcudnn.so.9 --require 9.1.1 --rule "
                                      "paddle"}));
}

// pip's resolver names a range: its "<10.0" is where the range stops, not a minimum ("needs cuDNN
// 10.0 or a newer 10.x", helper 99), and a release above the range needs an older one.
TEST(Explain, PipRangeStopsBelowItsUpperBound) {
  Advice a =
      advise(find_errors("jax-cuda12-plugin 0.4.30 requires nvidia-cudnn-cu12<10.0,>=9.1, "
                         "but you have nvidia-cudnn-cu12 9.0.0.312 which is incompatible.")[0],
             nullptr);
  EXPECT_EQ(a.what, "jax needs cuDNN 9.1 or a newer 9.x but found cuDNN 9.0.0.312");
  a = advise(find_errors("onnxruntime-gpu 1.18.0 requires nvidia-cudnn-cu12<9.0,>=8.9, but you "
                         "have nvidia-cudnn-cu12 9.1.0.70 which is incompatible.")[0],
             nullptr);
  EXPECT_EQ(a.what,
            "the program needs cuDNN 8.9 or newer, older than 9.0 but loaded cuDNN 9.1.0.70");
}

// The first finding of text; a failure (not a crash) when there is none.
Finding first_in(const std::string &text) {
  const std::vector<Finding> found = find_errors(text);
  if (found.empty()) {
    ADD_FAILURE() << "nothing found in: " << text;
    return Finding{};
  }
  return found.front();
}

// An exact pin or a newest release ("up to 9.1") refuses a newer one: it was read as a minimum,
// and the newer release advised (helper 99).
TEST(Explain, ExactPinAndUpToRefuseNewerReleases) {
  Map map;
  for (const char *v : {"9.1.0", "9.1.2", "9.23.0"})
    map.cudnn.push_back(
        {*parse_dotted(v), "/opt/" + std::string(v), std::nullopt, "cudnn/" + std::string(v), {}});
  const auto fixes = [&](const char *text) {
    const Advice a = advise(first_in(text), &map);
    std::string all = a.what;
    for (const std::string &fix : a.fixes) all += " | " + fix;
    return all;
  };
  const std::string pip = fixes(
      "torch 2.4.0 requires nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\", but you "
      "have nvidia-cudnn-cu12 9.23.0.1 which is incompatible.");
  EXPECT_NE(pip.find("pytorch needs cuDNN 9.1.0 exactly but loaded cuDNN 9.23.0.1"),
            std::string::npos)
      << pip;
  EXPECT_NE(pip.find("cudnn/9.1.0"), std::string::npos) << pip;
  EXPECT_EQ(pip.find("cudnn/9.1.2"), std::string::npos) << pip;
  EXPECT_EQ(pip.find("cudnn/9.23.0"), std::string::npos) << pip;
  const std::string exactly = fixes("expected cuDNN 9.1.0 exactly but found 9.23.0");
  EXPECT_NE(exactly.find("needs cuDNN 9.1.0 exactly"), std::string::npos) << exactly;
  EXPECT_EQ(exactly.find("cudnn/9.23.0"), std::string::npos) << exactly;
  const std::string up_to = fixes("this build supports cuDNN up to 9.1, found 9.23");
  EXPECT_NE(up_to.find("needs cuDNN 9.1 or older but loaded cuDNN 9.23"), std::string::npos)
      << up_to;
  // A newest release with a patch bounds at the patch: 9.1.0 fits "<= 9.1.1", 9.1.2 does not (the
  // patch was dropped, and 9.1.2 was read as fitting).
  const std::string patch = fixes("requires cuDNN <= 9.1.1, found 9.1.2");
  EXPECT_NE(patch.find("needs cuDNN 9.1.1 or older but loaded cuDNN 9.1.2"), std::string::npos)
      << patch;
  EXPECT_NE(patch.find("cudnn/9.1.0"), std::string::npos) << patch;
  EXPECT_EQ(patch.find("cudnn/9.1.2"), std::string::npos) << patch;
  // Refused without the word error, at a bound's other spellings (helper 100).
  for (const char *text : {"supports cuDNN up to 9.1, found 9.23",
                           "supports cuDNN at most 9.1, but found cuDNN 9.23.0",
                           "requires cuDNN <= 9.1, found 9.23.0"}) {
    const std::string bare = fixes(text);
    EXPECT_NE(bare.find("needs cuDNN 9.1 or older"), std::string::npos) << text << ": " << bare;
    EXPECT_EQ(bare.find("cudnn/9.23.0"), std::string::npos) << text << ": " << bare;
  }
  EXPECT_NE(up_to.find("cudnn/9.1.2"), std::string::npos) << up_to;
  EXPECT_EQ(up_to.find("cudnn/9.23.0"), std::string::npos) << up_to;
}

// A minimum for a CUDA: the releases built for it (helper 99: "for CUDA 11" was dropped and a
// CUDA 12 build advised).
TEST(Explain, AMinimumForACudaAdvisesBuildsForIt) {
  Map map;
  map.cudnn.push_back(
      {*parse_dotted("9.1.0"), "/a", Version{12, 2, {}, {}}, "cudnn/9.1-cuda12", {}});
  map.cudnn.push_back(
      {*parse_dotted("9.1.2"), "/b", Version{11, 8, {}, {}}, "cudnn/9.1-cuda11", {}});
  const Advice a = advise(first_in("requires cuDNN 9.1 or newer for CUDA 11, found 9.0.0"), &map);
  EXPECT_NE(a.what.find("for CUDA 11 but found cuDNN 9.0.0"), std::string::npos) << a.what;
  std::string all;
  for (const std::string &fix : a.fixes) all += fix + " | ";
  EXPECT_NE(all.find("cudnn/9.1-cuda11"), std::string::npos) << all;
  EXPECT_EQ(all.find("cudnn/9.1-cuda12"), std::string::npos) << all;
  EXPECT_NE(all.find("--require 9.1 --cuda 11"), std::string::npos) << all;
}

// Truthful by construction: what the advice names comes from the message.
TEST(Explain, AdviceNamesOnlyWhatTheMessageSaid) {
  // No status code in the message: none in the answer; the parsed build version in the fix.
  Finding f = first_in(
      "RuntimeError: mytool was compiled against cuDNN 8.3.2 and refuses "
      "the one it loaded: version mismatch");
  Advice a = advise(f, nullptr);
  EXPECT_EQ(a.what.find("CUDNN_STATUS"), std::string::npos) << a.what;
  EXPECT_NE((a.fixes.empty() ? std::string() : a.fixes.back()).find("--require 8.3.2"),
            std::string::npos);
  // No versions, no status code: still none named.
  f = first_in("cuDNN version mismatch detected between the loaded libraries");
  EXPECT_EQ(advise(f, nullptr).what.find("CUDNN_STATUS"), std::string::npos);
  // The status code when it is there.
  f = first_in("cudnnCreate failed: CUDNN_STATUS_VERSION_MISMATCH");
  EXPECT_NE(advise(f, nullptr).what.find("CUDNN_STATUS_VERSION_MISMATCH"), std::string::npos);
  // Both verdicts where they differ: TensorFlow 2016 refuses 5.1 against 5.0, and so does NVIDIA
  // before 7; from 7 on NVIDIA accepts a newer minor that the 2016 rule refuses.
  f = first_in(
      "Loaded runtime CuDNN library: 7605 (compatibility version 7600) but source was "
      "compiled with 7102 (compatibility version 7100).");
  a = advise(f, nullptr);
  EXPECT_EQ(a.compatible, false);
  EXPECT_EQ(a.nvidia_compatible, true);
  // A pair the rule accepts (TensorRT warns about any difference): nothing to fix.
  a = advise(first_in("[TRT] [W] TensorRT was linked against cuDNN 8.4.1 but loaded cuDNN 8.6.0"),
             nullptr);
  EXPECT_EQ(a.compatible, true);
  EXPECT_EQ(a.fixes.empty() ? "" : a.fixes.front().substr(0, 11), "none needed");
  // A pair the rule accepts beside a minimum the runtime misses: the minimum decides. JAX numbers
  // cuDNN 9.1 "9100" (rgommers/pixi-dev-scipystack#1).
  f = first_in(
      "E   Outdated cuDNN installation found.\nE   Version JAX was built against: 8907\nE   "
      "Minimum supported: 9100\nE   Installed version: 8907\n");
  ASSERT_TRUE(f.required);
  EXPECT_EQ(to_string(*f.required), "9.1.0");
  a = advise(f, nullptr);
  EXPECT_EQ(a.compatible, false);
  EXPECT_EQ(a.fixes.empty() ? "" : a.fixes.back(),
            "cudnn-compat resolve libcudnn.so.9 --require 9.1.0");
  // Windows error 127 and a sub-library with symbols of another release: a mixed family, never
  // "not found" and never "ask the admins".
  for (const char *message :
       {"OSError: [WinError 127] The specified procedure could not be found. Error loading "
        "\"C:\\torch\\lib\\cudnn_adv_infer64_8.dll\" or one of its dependencies.",
        "Could not load library libcudnn_cnn_train.so.8. Error: libcudnn_ops_train.so.8: version "
        "`libcudnn_ops_infer.so.8' not found (required by libcudnn_cnn_train.so.8)"}) {
    f = first_in(message);
    a = advise(f, nullptr);
    EXPECT_EQ(f.kind, FindingKind::sublibrary_mismatch) << message;
    EXPECT_EQ(a.what.find("found no"), std::string::npos) << a.what;
    for (const std::string &fix : a.fixes) EXPECT_EQ(fix.find("ask the admins"), std::string::npos);
    EXPECT_EQ(a.what.find("error 127") != std::string::npos, f.windows_error == 127) << a.what;
  }
}

TEST(Explain, BuildErrorsSayWhichModuleToLoadBeforeBuilding) {
  Map map;
  map.cudnn.push_back({*parse_dotted("8.9.7"), "/c", std::nullopt, "cudnn/8.9", {}});
  const Finding f = first_in("fatal error: cudnn.h: No such file or directory");
  const Advice a = advise(f, &map);
  EXPECT_EQ(a.what, "the build found no cudnn.h");
  EXPECT_EQ(a.fixes.front(),
            "module load cudnn/8.9   # cuDNN 8.9.7, then configure and build again");
  EXPECT_NE(a.fixes.back().find("CMAKE_PREFIX_PATH"), std::string::npos);
  // A run-time message after it is another finding, not more about the header.
  const std::vector<Finding> two = find_errors(
      "fatal error: cudnn.h: No such file or directory\n"
      "Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*\n");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_FALSE(two[0].required.has_value());
  EXPECT_EQ(two[1].framework, "onnxruntime");
}

// The shim's own line, pasted back, is read by what it says (helper 92): the first release of its
// "installed:" list is no release found, and the need is the release the program was built with.
TEST(Explain, TheShimsOwnLineIsReadAsItSaysIt) {
  std::vector<Finding> found = find_errors(
      "cudnn-compat: libcudnn.so.6: needs 6.0 from CUDNN_COMPAT_REQUIRE, but the loader finds no "
      "libcudnn.so.6; no installed cuDNN fits (installed: 5.0.5 (cudnn/5.0.5), 5.1.10 "
      "(cudnn/5.1.10)); loading as usual. Ask the admins for cuDNN 6.0.x");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::library_not_found);
  EXPECT_EQ(found[0].library, "libcudnn.so.6");
  EXPECT_FALSE(found[0].runtime.has_value());
  found = find_errors(
      "cudnn-compat: libcudnn.so.9: needs 9.30 from CUDNN_COMPAT_REQUIRE, but 9.19.0 on "
      "ld.so.cache does not fit: from cuDNN 7 on, the runtime minor version must be at least the "
      "one built with (9.19 < 9.30); no installed cuDNN fits (installed: 9.1.0 (cudnn/9.1)); "
      "loading as usual. Ask the admins for cuDNN 9.30 or a newer 9.x");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::version_mismatch);
  EXPECT_EQ(to_string(*found[0].runtime), "9.19.0");
  EXPECT_EQ(to_string(*found[0].built_with), "9.30");
}

// Lines are not joined across a task's label or a time stamp (helper 92): `srun --label`'s "1: "
// after "compiled with: 8.1.0." was read as cuDNN 8.1.0.1, and two nodes' TensorFlow lines of one
// width as one line, the second pair lost.
TEST(Explain, LabelledAndStampedLinesAreEachTheirOwn) {
  std::vector<Finding> found = find_errors(
      "0: Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.\n"
      "1: Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(to_string(*found[0].built_with), "8.1.0");
  const std::string tf =
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] Loaded runtime CuDNN "
      "library: 8.0.4 but source was compiled with: 8.1.0.  CuDNN library needs "
      "to have matching major version and equal or higher minor version.";
  std::string other = tf;
  other.replace(other.find("8.0.4"), 5, "7.5.0");
  other.replace(other.find("8.1.0"), 5, "7.6.5");
  found = find_errors("2021-10-13 17:19:29.385716: " + tf +
                      "\n2021-10-13 17:19:29.390987: " + other + "\n");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(to_string(*found[1].runtime), "7.5.0");
  EXPECT_EQ(to_string(*found[1].built_with), "7.6.5");
}

// A compiler in another locale says strerror(ENOENT) in its words (held-out-15: a zh_CN build's
// "cudnn.h: 没有那个文件或目录" was read as nothing).
TEST(Explain, AMissingHeaderInAnyLocaleIsAMissingCudnn) {
  for (const char *line :
       {"include/darknet.h:16:14: fatal error: cudnn.h: 没有那个文件或目录",
        "src/conv.cu:3:10: 致命错误： cudnn.h：没有那个文件或目录",
        "conv.cu:3:10: Schwerwiegender Fehler: cudnn.h: Datei oder Verzeichnis nicht gefunden",
        "conv.cu:3:10: erreur fatale : cudnn.h : Aucun fichier ou dossier de ce type",
        "conv.cu:3:10: фатальная ошибка: cudnn.h: Нет такого файла или каталога"}) {
    const std::vector<Finding> found = find_errors(line);
    ASSERT_EQ(found.size(), 1u) << line;
    EXPECT_EQ(found[0].kind, FindingKind::library_not_found) << line;
    EXPECT_EQ(found[0].library, "cudnn.h") << line;
    EXPECT_TRUE(found[0].build_time) << line;
  }
  // Another header missing, in the same words: not cuDNN's.
  EXPECT_TRUE(find_errors("conv.cu:3:10: fatal error: cuda_runtime.h: 没有那个文件或目录").empty());
}

// A link that lacks only functions a later cuDNN added took an older cuDNN than the headers: a
// version mismatch that needs that major. One function every cuDNN has in the same block means no
// cuDNN was linked at all; and backticks a page dropped change neither reading.
TEST(Explain, UndefinedReferencesSayWhetherACuDNNWasLinked) {
  const std::string added =
      "lib.so: undefined reference to `cudnnSetConvolutionGroupCount'\n"
      "lib.so: undefined reference to `cudnnRestoreDropoutDescriptor'\n";
  std::vector<Finding> found = find_errors(added);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::version_mismatch);
  EXPECT_EQ(found[0].required, (Version{7, {}, {}, {}}));
  found = find_errors(added + "lib.so: undefined reference to cudnnCreate'\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::library_not_found);
  EXPECT_FALSE(found[0].required.has_value());
  found = find_errors("lib.so: undefined reference to cudnnBackendFinalize\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].required, (Version{8, {}, {}, {}}));
}

// The C++ runtime a cuDNN was built against, older on this system, is no mixed family.
TEST(Explain, AnOldSystemRuntimeIsADependencyNotAMixedFamily) {
  const Finding f = first_in(
      "./libcudnn_graph.so.9: /usr/lib64/libstdc++.so.6: version `GLIBCXX_3.4.21' not found "
      "(required by ./libcudnn_graph.so.9)");
  EXPECT_EQ(f.kind, FindingKind::dependency_not_found);
  EXPECT_EQ(f.missing, "libstdc++.so.6");
  const Advice a = advise(f, nullptr);
  EXPECT_NE(a.fixes.front().find("module load gcc/"), std::string::npos) << a.fixes.front();
  EXPECT_EQ(first_in("./libcudnn_cnn_infer.so.8: version `libcudnn_ops_infer.so.8' not found "
                     "(required by ./libcudnn_cnn_infer.so.8)")
                .kind,
            FindingKind::sublibrary_mismatch);
}

// A sub-library that cannot load its sibling names the sibling, the one missing: the family in
// that place is incomplete.
TEST(Explain, AMissingSiblingIsTheLibraryNotFound) {
  const Finding f = first_in(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open "
      "shared object file: No such file or directory");
  EXPECT_EQ(f.kind, FindingKind::library_not_found);
  EXPECT_EQ(f.library, "libcudnn_ops_infer.so.8");
  EXPECT_NE(f.note.find("libcudnn_cnn_infer.so.8 was found"), std::string::npos) << f.note;
  // A sibling that is there but cannot be loaded is no missing file.
  for (const char *why : {"Permission denied", "wrong ELF class: ELFCLASS32"})
    EXPECT_EQ(first_in(std::string("Could not load library libcudnn_cnn_infer.so.8. Error: "
                                   "libcudnn_ops_infer.so.8: cannot open shared object file: ") +
                       why)
                  .note.find("incomplete"),
              std::string::npos)
        << why;
}

// A release of the major that is installed in no module (the system's, a wheel's) is named, never
// "none is installed" (an outside tester's finding).
TEST(Explain, AdviceNamesAnInstalledReleaseWithoutAModule) {
  Map map;
  map.cudnn.push_back({*parse_dotted("8.9.7"), "/opt/cudnn8/lib", std::nullopt, "", {}});
  const Advice a = advise(first_in("OSError: libcudnn.so.8: cannot open shared object file"), &map);
  ASSERT_GE(a.fixes.size(), 2u);
  EXPECT_EQ(a.fixes[0].rfind("export CUDNN_COMPAT_REQUIRE=8 LD_AUDIT=", 0), 0u) << a.fixes[0];
  EXPECT_NE(a.fixes[1].find("/opt/cudnn8/lib"), std::string::npos) << a.fixes[1];
  for (const std::string &fix : a.fixes)
    EXPECT_EQ(fix.find("none is installed"), std::string::npos) << fix;
}

// Messages over several lines: one finding each, at the line they start, with what the later
// lines name; TensorFlow's "DNN library is not found" alone is a missing cuDNN.
TEST(Explain, MessagesOverSeveralLines) {
  std::vector<Finding> found = find_errors(
      "UserWarning: CuPy may not function correctly because cuDNN library could not be loaded.\n"
      "\n"
      "Reason: ImportError (libcudnn.so.8: cannot open shared object file: No such file)\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 1u);
  EXPECT_EQ(found[0].library, "libcudnn.so.8");
  // A warning Python prints at import is the run's (chainer/chainer#8596), though its fix is a
  // build.
  found = find_errors(
      "UserWarning: cuDNN is not enabled.\nPlease reinstall CuPy after you install "
      "cudnn\n(see https://docs-cupy.chainer.org/en/stable/install.html)\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].framework, "chainer");
  EXPECT_FALSE(found[0].build_time);
  found = find_errors("W0000 op_kernel.cc:1830] UNIMPLEMENTED: DNN library is not found.\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::library_not_found);
  found = find_errors(
      "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.  CuDNN library "
      "needs to have matching major version and equal or higher minor version.\n"
      "UNIMPLEMENTED: DNN library is not found.\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].note.find("DNN library is not found\" at line 2"), std::string::npos)
      << found[0].note;
}

// A renamed, bundled copy is resolved by the name the engine knows.
TEST(Explain, ARenamedBundledLibraryIsResolvedByItsRealName) {
  const Advice a =
      advise(first_in("OSError: libcudnn-3f2b1c9a.so.7: cannot open shared object file"), nullptr);
  ASSERT_FALSE(a.fixes.empty());
  EXPECT_EQ(a.fixes.back(), "cudnn-compat resolve libcudnn.so.7");
}

// A dependency that was there but of another CUDA release is not called missing.
TEST(Explain, ADependencyOfAnotherReleaseIsNotCalledMissing) {
  const Finding f = first_in(
      "Could not load library libcudnn_cnn_infer.so.8. Error: /usr/local/cuda-10.2/lib64/"
      "libnvrtc.so: undefined symbol: nvrtcGetCUBIN");
  const Advice a = advise(f, nullptr);
  EXPECT_NE(a.what.find("of another release"), std::string::npos) << a.what;
  EXPECT_EQ(a.what.find("cannot find"), std::string::npos) << a.what;
}

// Progress bars redraw with \r; a line too long to read whole is said to be so.
// A progress bar's \r starts a piece of a line, read on its own; the line number is the file's, as
// editors, less and wc -l count it.
TEST(Explain, SplitsOnCarriageReturnsAndSaysWhatItCut) {
  const std::vector<Finding> found = find_errors(
      "start\n10%|#   |\r20%|##  |\rImportError: libcudnn.so.8: cannot open shared object "
      "file\r\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[0].library, "libcudnn.so.8");
  const ExplainScan scan = scan_log("ok\n" + std::string(100000, 'x') + "\n");
  ASSERT_EQ(scan.cut.size(), 1u);
  EXPECT_NE(scan.cut[0].find("line 2 is 100000 bytes long"), std::string::npos) << scan.cut[0];
  EXPECT_TRUE(scan_log("short\nlines\n").cut.empty());
}

// A cuDNN DLL that Windows found and could not load says why, and is not called missing: the
// paging file (thu-ml/tianshou#297, babysor/MockingBird#689, lazydog28/mc_auto_boss#69), a bad
// image (DeepLabCut/DeepLabCut#1947).
TEST(Explain, AWindowsDllThatCouldNotLoadIsNotCalledMissing) {
  for (const char *message :
       {"OSError: [WinError 1455] The paging file is too small for this operation to complete. "
        "Error loading \"E:\\Anaconda\\envs\\Python37\\lib\\site-packages\\torch\\lib\\cudnn_"
        "cnn_train64_8.dll\" or one of its dependencies.",
        "OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading \"D:\\ProgramData\\"
        "Anaconda3\\lib\\site-packages\\torch\\lib\\cudnn_adv_infer64_8.dll\" or one of its "
        "dependencies.",
        "Could not load library cudnn_cnn_infer64_8.dll. Error code 1455",
        "Could not load library cudnn_cnn_infer64_8.dll. Error code 193"}) {
    const Finding f = first_in(message);
    EXPECT_EQ(f.kind, FindingKind::library_not_found) << message;
    EXPECT_FALSE(f.unloadable.empty()) << message;
    const Advice a = advise(f, nullptr);
    EXPECT_NE(a.what.find("found"), std::string::npos) << a.what;
    EXPECT_EQ(a.what.find("found no"), std::string::npos) << a.what;
    ASSERT_FALSE(a.fixes.empty());
    EXPECT_EQ(a.fixes.front().find("install cuDNN"), std::string::npos) << a.fixes.front();
    for (const std::string &fix : a.fixes)
      EXPECT_EQ(fix.find("ask the admins"), std::string::npos) << fix;
  }
  // glibc's I/O error after cuDNN's own loader names the one asked for (an outside tester's),
  // in glibc's whole words.
  EXPECT_EQ(first_in("Could not load library libcudnn_cnn_infer.so.8. Error: "
                     "libcudnn_cnn_infer.so.8: cannot read file data: Input/output error")
                .unloadable,
            "cannot read file data: Input/output error");
}

// A found library that the loader could not load for any other reason glibc or Windows gives is
// not called missing, and its fix is no reinstall (an outside tester's near misses: open(2)'s
// errors, glibc's own "cannot ..." reasons, Windows' other error numbers).
TEST(Explain, EveryOtherLoaderReasonIsAFoundLibrary) {
  for (const char *reason :
       {"Too many open files", "Cannot allocate memory", "Stale file handle",
        "cannot allocate memory in static TLS block",
        "cannot enable executable stack as shared object requires: Invalid argument",
        "cannot restore segment prot after reloc: Permission denied",
        "Too many levels of symbolic links"}) {
    const std::string m =
        "Could not load dynamic library 'libcudnn.so.8'; dlerror: "
        "/opt/cudnn/8.9.7/lib/libcudnn.so.8: " +
        std::string(reason);
    const Finding f = first_in(m);
    EXPECT_EQ(f.unloadable, reason) << m;
    const Advice a = advise(f, nullptr);
    EXPECT_EQ(a.what.find("found no"), std::string::npos) << a.what;
    for (const std::string &fix : a.fixes)
      EXPECT_EQ(fix.find("ask the admins"), std::string::npos) << fix;
  }
  for (const char *m : {"Could not load library cudnn_cnn_infer64_8.dll. Error code 998",
                        "OSError: [WinError 1450] Insufficient system resources exist to complete "
                        "the requested service. Error loading \"C:\\torch\\lib\\cudnn64_8.dll\" "
                        "or one of its dependencies."})
    EXPECT_NE(first_in(m).unloadable.find("Windows error"), std::string::npos) << m;
  EXPECT_TRUE(first_in("Could not load library cudnn_cnn_infer64_8.dll. Error code 126")
                  .unloadable.empty());
}

// The file that failed to load says whose the trouble is: ONNX Runtime's advice after its CUDA
// provider could not load CUDA's libcublasLt (pykeio/ort#548, then the advice
// onnxruntime#21825 prints) is no missing cuDNN. Its advice after a failure that names no file
// still is one (onnxruntime#21825 itself, the tuning set's convention).
TEST(Explain, AnotherProductsFailedLoadIsNotCudnns) {
  const std::string advice =
      "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
      "onnxruntime::python::CreateExecutionProviderInstance] Failed to create "
      "CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime.\n";
  EXPECT_TRUE(find_errors("[E:onnxruntime:Default, provider_bridge_ort.cc:1952] FAIL : Failed to "
                          "load library /home/meh/target/debug/libonnxruntime_providers_cuda.so "
                          "with error: libcublasLt.so.12: cannot open shared object file: No "
                          "such file or directory\n\n" +
                          advice)
                  .empty());
  EXPECT_EQ(find_errors("[E:onnxruntime:Default, provider_bridge_ort.cc:1992] FAIL : LoadLibrary "
                        "failed with error 126 \"\" when trying to load \"c:\\env\\Lib\\site-"
                        "packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n\n" +
                        advice)
                .size(),
            1u);
  // A product's name before a role word makes the version that product's (an outside tester's).
  for (const Finding &f : find_errors("ONNX Runtime 1.17 is unsupported; cuDNN 8.9.2 found"))
    EXPECT_NE(f.runtime, (Version{1, 17, {}, {}}));
}

// cuDNN's release as a run's banner prints it ("cuDNN Version: 8.9.", PaddlePaddle#45112) goes
// with a GPU the release has no code for.
TEST(Explain, TheBannersCudnnGoesWithAnArchitectureMismatch) {
  const std::vector<Finding> found = find_errors(
      "W0814 15:01:53.080451 31504 gpu_resources.cc:91] device: 0, cuDNN Version: 8.3.\n"
      "CUDA error 209 [/usr/local/cuda-11.8/include/cub/util_device.cuh, 375]: no kernel image is "
      "available for execution on the device\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::arch_mismatch);
  EXPECT_EQ(found[0].runtime, (Version{8, 3, {}, {}}));
}

}  // namespace
}  // namespace cudnn_compat
