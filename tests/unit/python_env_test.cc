// The readers of what pip and conda write (METADATA, RECORD, conda-meta records), the requirement
// grammars in them, and a framework's pin as a need.
#include "cudnn_compat.h"
#include "decision_inputs.h"
#include "shim_text.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

// torch 2.6.0's METADATA, in the form pip installs it (headers, a blank line, the description).
constexpr const char *kTorchMetadata =
    "Metadata-Version: 2.1\n"
    "Name: torch\n"
    "Version: 2.6.0\n"
    "Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
    "Requires-Python: >=3.9.0\n"
    "Requires-Dist: filelock\n"
    "Requires-Dist: nvidia-cuda-runtime-cu12==12.4.127; platform_system == \"Linux\" and "
    "platform_machine == \"x86_64\"\n"
    "Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and "
    "platform_machine == \"x86_64\"\n"
    "Requires-Dist: opt-einsum>=3.3; extra == \"opt-einsum\"\n"
    "\n"
    "Requires-Dist: not-a-header-but-the-description\n";

// The one rule (shim/shim_text.c) of which files may belong to a distribution that pins cuDNN.
TEST(PythonPath, WheelsAndLibDirectories) {
  EXPECT_EQ(python_path_kind("/v/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so"),
            PYTHON_WHEEL);
  EXPECT_EQ(python_path_kind("/usr/lib/python3/dist-packages/x/y.so"), PYTHON_WHEEL);
  EXPECT_EQ(python_path_kind("/opt/conda/envs/a/lib/libtorch_cuda.so"), PYTHON_LIB_DIR);
  EXPECT_EQ(python_path_kind("/usr/lib/x86_64-linux-gnu/libc.so.6"), PYTHON_NONE);
  EXPECT_EQ(python_path_kind("/site-packages-old/libx.so"), PYTHON_NONE);
  EXPECT_EQ(python_path_kind("/mylib/libx.so"), PYTHON_NONE);
  EXPECT_EQ(python_path_kind("libx.so"), PYTHON_NONE);
}

// Where a lib/ directory's conda-meta/ would be, by its path alone (the caller looks).
TEST(PythonPath, CondaMetaBesideLib) {
  char out[64];
  ASSERT_TRUE(conda_meta_beside("/opt/conda/envs/a/lib", out, sizeof out));
  EXPECT_STREQ(out, "/opt/conda/envs/a/conda-meta");
  ASSERT_TRUE(conda_meta_beside("/opt/conda/lib//", out, sizeof out));
  EXPECT_STREQ(out, "/opt/conda/conda-meta");
  ASSERT_TRUE(conda_meta_beside("/lib", out, sizeof out));
  EXPECT_STREQ(out, "/conda-meta");
  for (const char *other : {"/opt/conda/lib64", "/opt/conda/mylib", "/opt/conda/lib/x", "lib", ""})
    EXPECT_FALSE(conda_meta_beside(other, out, sizeof out)) << other;
  EXPECT_FALSE(conda_meta_beside("/a-very-long-prefix-indeed/lib", out, 20)) << "does not fit";
}

TEST(PythonMetadata, ReadsTheHeadersOnly) {
  const DistMetadata m = parse_dist_metadata(kTorchMetadata);
  EXPECT_EQ(m.name, "torch");
  EXPECT_EQ(m.version, "2.6.0");
  ASSERT_EQ(m.requires_dist.size(), 4u);
  EXPECT_EQ(m.requires_dist[2],
            "nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == "
            "\"x86_64\"");
}

TEST(PythonMetadata, ContinuationLinesAndCarriageReturns) {
  const DistMetadata m = parse_dist_metadata("Name: x\r\nRequires-Dist: a\r\n  >=1\r\n\r\n");
  EXPECT_EQ(m.name, "x");
  ASSERT_EQ(m.requires_dist.size(), 1u);
  EXPECT_EQ(m.requires_dist[0], "a >=1");
}

TEST(PythonMetadata, RecordPathsQuotedOrNot) {
  const std::vector<std::string> paths = parse_record(
      "torch/lib/libtorch_cuda.so,sha256=abc,123\n"
      "\"odd,name/with \"\"quotes\"\".py\",sha256=def,4\n"
      "torch-2.6.0.dist-info/RECORD,,\n"
      "../../../bin/torchrun,sha256=x,5\r\n");
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_EQ(paths[0], "torch/lib/libtorch_cuda.so");
  EXPECT_EQ(paths[1], "odd,name/with \"quotes\".py");
  EXPECT_EQ(paths[2], "torch-2.6.0.dist-info/RECORD");
  EXPECT_EQ(paths[3], "../../../bin/torchrun");
}

TEST(PythonMetadata, CondaRecord) {
  const std::optional<CondaRecord> r = parse_conda_record(R"({
    "name": "cudnn", "version": "9.1.0.70", "build": "h5bd9b2f_0", "build_number": 0,
    "depends": ["cuda-version >=12.0,<13", "libgcc-ng >=12"],
    "files": ["lib/libcudnn.so.9", "lib/libcudnn_ops.so.9"], "license": "LicenseRef-cuDNN"})");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "cudnn");
  EXPECT_EQ(r->version, "9.1.0.70");
  EXPECT_EQ(r->build, "h5bd9b2f_0");
  EXPECT_EQ(r->files.size(), 2u);
  EXPECT_EQ(conda_cuda_major(*r), 12);
  EXPECT_FALSE(parse_conda_record("[1, 2]"));
  EXPECT_FALSE(parse_conda_record("{\"name\": \"x\""));  // cut short
  EXPECT_FALSE(parse_conda_record("{\"version\": \"1\"}"));
  const auto cuda_of = [](std::vector<std::string> depends, std::string build) {
    return conda_cuda_major(
        CondaRecord{"pytorch", "2.5.1", std::move(build), std::move(depends), {}});
  };
  EXPECT_EQ(cuda_of({"cudatoolkit >=11.2,<12"}, ""), 11);
  // conda-forge's pytorch names its CUDA by cuda-cudart alone; the pytorch channel's by
  // pytorch-cuda; either's build string says it too (helper 106).
  EXPECT_EQ(cuda_of({"cuda-cudart >=12.6.77,<13.0a0", "cudnn >=9.3.0.75,<10.0a0"}, ""), 12);
  EXPECT_EQ(cuda_of({"pytorch-cuda 11.8.*"}, ""), 11);
  EXPECT_EQ(cuda_of({"cudnn >=9.3"}, "cuda126_generic_py311_h1234567_200"), 12);
  EXPECT_EQ(cuda_of({}, "py3.11_cuda12.1_cudnn8.9.2_0"), 12);
  EXPECT_EQ(cuda_of({}, "cuda92_py36_0"), 9);
  EXPECT_EQ(cuda_of({}, "cpu_py311h1234567_0"), std::nullopt);
  EXPECT_EQ(cuda_of({"libgcc-ng >=12"}, "h5bd9b2f_0"), std::nullopt);
}

TEST(PythonMetadata, NormalizedNames) {
  EXPECT_EQ(normalize_dist_name("nvidia_cudnn_cu12"), "nvidia-cudnn-cu12");
  EXPECT_EQ(normalize_dist_name("Jax_CUDA12.Plugin"), "jax-cuda12-plugin");
  EXPECT_EQ(normalize_dist_name("a--_b"), "a-b");
}

TEST(PythonRequirement, TorchsExactPin) {
  const std::optional<CudnnPin> p = cudnn_requirement(
      "nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == "
      "\"x86_64\"");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->package, "nvidia-cudnn-cu12");
  EXPECT_EQ(p->cuda_major, 12);
  ASSERT_EQ(p->clauses.size(), 1u);
  EXPECT_EQ(p->clauses[0].op, "==");
  EXPECT_EQ(to_string(p->clauses[0].version), "9.1.0.70");
}

// PEP 508's `in` and `not in` on a string are containment, as pip judges them: a pin for other
// machines is no need here (an outside tester's finding: both were counted).
TEST(PythonRequirement, InAndNotInMarkersAreContainment) {
  EXPECT_FALSE(
      cudnn_requirement("nvidia-cudnn-cu12==9.25.0.1; platform_machine in \"aarch64 arm64\""));
  EXPECT_FALSE(
      cudnn_requirement("nvidia-cudnn-cu12==9.25.0.1; platform_machine not in \"x86_64 AMD64\""));
  EXPECT_TRUE(
      cudnn_requirement("nvidia-cudnn-cu12==9.25.0.1; platform_machine in \"x86_64 AMD64\""));
  EXPECT_TRUE(cudnn_requirement(
      "nvidia-cudnn-cu12==9.25.0.1; \"linux\" in sys_platform and python_version >= \"3.9\""));
  EXPECT_FALSE(cudnn_requirement("nvidia-cudnn-cu12==9.25.0.1; \"Linux\" != platform_system"));
  EXPECT_FALSE(
      cudnn_requirement("nvidia-cudnn-cu12==9.25.0.1; platform_machine\tin\t\"aarch64 arm64\""));
  EXPECT_FALSE(cudnn_requirement(
      "nvidia-cudnn-cu12==9.25.0.1; platform_machine \tnot in  \"x86_64 AMD64\""));
}

TEST(PythonRequirement, JaxPluginsRangeWithItsExtra) {
  const std::optional<CudnnPin> p =
      cudnn_requirement("nvidia-cudnn-cu12<10.0,>=9.8; extra == \"with-cuda\"");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->clauses.size(), 2u);
  EXPECT_EQ(p->clauses[0].op, "<");
  EXPECT_EQ(to_string(p->clauses[0].version), "10.0");
  EXPECT_EQ(p->clauses[1].op, ">=");
}

TEST(PythonRequirement, OtherPlatformsAndPackagesAreNoPin) {
  EXPECT_FALSE(cudnn_requirement("nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Windows\""));
  EXPECT_FALSE(cudnn_requirement("nvidia-cudnn-cu12==9.1.0.70; sys_platform != \"linux\""));
  EXPECT_FALSE(cudnn_requirement("nvidia-cublas-cu12==12.4.5.8"));
  EXPECT_FALSE(cudnn_requirement("filelock"));
  EXPECT_TRUE(cudnn_requirement(
      "nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Windows\" or platform_system == "
      "\"Linux\""));
  const std::optional<CudnnPin> old = cudnn_requirement("nvidia_cudnn_cu11 (>=8.6.0.163)");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->cuda_major, 11);
  EXPECT_EQ(old->clauses.at(0).op, ">=");
}

TEST(PythonRequirement, CondaDepends) {
  const std::optional<CudnnPin> range = cudnn_depend("cudnn >=8.9.2.26,<9.0a0");
  ASSERT_TRUE(range);
  EXPECT_TRUE(range->conda);
  ASSERT_EQ(range->clauses.size(), 2u);
  EXPECT_EQ(to_string(range->clauses[1].version), "9.0");
  const std::optional<CudnnPin> prefix = cudnn_depend("cudnn 9.1.*");
  ASSERT_TRUE(prefix);
  EXPECT_TRUE(prefix->clauses.at(0).wildcard);
  const std::optional<CudnnPin> exact = cudnn_depend("cudnn 8.9.7.29 h092f7fd_3");
  ASSERT_TRUE(exact);
  EXPECT_EQ(to_string(exact->clauses.at(0).version), "8.9.7.29");
  EXPECT_FALSE(cudnn_depend("cudnn-frontend >=1.0"));
  EXPECT_FALSE(cudnn_depend("cudatoolkit 11.8"));
}

CudnnPin pin(const char *consumer, const char *requirement) {
  std::optional<CudnnPin> p = cudnn_requirement(requirement);
  if (!p) p = cudnn_depend(requirement);
  p->consumer = consumer;
  p->consumer_version = "1.0";
  return *p;
}

TEST(Pins, ExactPinUnderTheFrameworksRule) {
  const std::optional<Need> n =
      need_of_pin(pin("torch", "nvidia-cudnn-cu12==9.1.0.70"), Rule::nvidia);
  ASSERT_TRUE(n);
  EXPECT_EQ(to_string(*n->cudnn), "9.1.0");  // the build number is no part of a release
  EXPECT_EQ(n->rule, Rule::pytorch);
  EXPECT_EQ(n->cuda_major, 12);
  EXPECT_FALSE(n->below);
  EXPECT_EQ(n->source, "the pin of torch 1.0: nvidia-cudnn-cu12==9.1.0.70");
  EXPECT_TRUE(fit(*n, 9, {9, 4, 0, {}}, Version{12, 4, {}, {}}).compatible);  // PyTorch's rule
  EXPECT_FALSE(fit(*n, 9, {9, 0, 0, {}}, Version{12, 4, {}, {}}).compatible);
}

TEST(Pins, RangesAndUpperBounds) {
  const std::optional<Need> jax =
      need_of_pin(pin("jax-cuda12-plugin", "nvidia-cudnn-cu12<10.0,>=9.8"), Rule::nvidia);
  ASSERT_TRUE(jax);
  EXPECT_EQ(to_string(*jax->cudnn), "9.8");
  EXPECT_EQ(jax->rule, Rule::jax);
  EXPECT_FALSE(jax->below);  // <10.0 says what the major says
  const std::optional<Need> inside =
      need_of_pin(pin("mylib", "nvidia-cudnn-cu12>=9.1,<9.5"), Rule::caffe2);
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->rule, Rule::caffe2);  // an unknown consumer: the map's rule
  ASSERT_TRUE(inside->below);
  EXPECT_TRUE(fit(*inside, 9, {9, 4, 9, {}}, Version{12, {}, {}, {}}).compatible);
  const Verdict no = fit(*inside, 9, {9, 5, 0, {}}, Version{12, {}, {}, {}});
  EXPECT_FALSE(no.compatible);
  EXPECT_NE(no.reason.find("not below 9.5"), std::string::npos) << no.reason;
  const std::optional<Need> conda =
      need_of_pin(pin("pytorch", "cudnn >=8.9.2.26,<9.0a0"), Rule::nvidia);
  ASSERT_TRUE(conda);
  EXPECT_EQ(to_string(*conda->cudnn), "8.9.2");
  EXPECT_EQ(conda->rule, Rule::pytorch);
  EXPECT_FALSE(conda->below);
  EXPECT_FALSE(need_of_pin(pin("x", "nvidia-cudnn-cu12"), Rule::nvidia));  // no version said
  EXPECT_FALSE(need_of_pin(pin("x", "nvidia-cudnn-cu12==9.*"), Rule::nvidia));
}

TEST(Pins, FrameworkRules) {
  EXPECT_EQ(framework_rule("torch"), Rule::pytorch);
  EXPECT_EQ(framework_rule("jax-cuda13-pjrt"), Rule::jax);
  EXPECT_EQ(framework_rule("tensorflow-base"), Rule::tensorflow);
  EXPECT_EQ(framework_rule("paddlepaddle-gpu"), Rule::paddle);
  EXPECT_FALSE(framework_rule("onnxruntime-gpu"));
}

TEST(Pins, TwoConsumersMustBothBeServed) {
  NeedInputs in;
  in.requested = *parse_library_name("libcudnn.so.9");
  in.pins = {pin("torch", "nvidia-cudnn-cu12==9.1.0.70"),
             pin("jax-cuda12-plugin", "nvidia-cudnn-cu12<10.0,>=9.8")};
  const Parsed<Need> n = derive_need(in, nullptr);
  ASSERT_TRUE(n);
  ASSERT_EQ(n->also.size(), 1u);
  EXPECT_EQ(n->rule, Rule::pytorch);
  const Version cuda{12, {}, {}, {}};
  EXPECT_TRUE(fit(*n, 9, {9, 8, 0, {}}, cuda).compatible);
  const Verdict v = fit(*n, 9, {9, 4, 0, {}}, cuda);
  EXPECT_FALSE(v.compatible);  // torch takes it, jax does not
  EXPECT_NE(v.reason.find("the pin of jax-cuda12-plugin"), std::string::npos) << v.reason;
  EXPECT_NE(describe(*n, 9).find(" and cuDNN 9.8 for CUDA 12 under rule jax"), std::string::npos)
      << describe(*n, 9);
}

TEST(Pins, AnExplicitRequirementStillWins) {
  NeedInputs in;
  in.require = "9.0";
  in.require_source = "CUDNN_COMPAT_REQUIRE";
  in.pins = {pin("torch", "nvidia-cudnn-cu12==9.1.0.70")};
  const Parsed<Need> n = derive_need(in, nullptr);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->source, "CUDNN_COMPAT_REQUIRE");
  EXPECT_EQ(n->rule, Rule::nvidia);
  EXPECT_TRUE(n->also.empty());
  in.require.reset();
  in.cuda = "13";
  in.cuda_source = "CUDNN_COMPAT_CUDA";
  EXPECT_EQ(derive_need(in, nullptr)->cuda_major, 13);  // the job's CUDA, said explicitly
}

// A pin of cuDNN 9 is no need of a library that links libcudnn.so.8 in the same process: the
// report at exit told such a process "libcudnn.so.8: needs 9.23.0 ... no one cuDNN meets every
// pin" (helper 97).
TEST(PythonPins, APinOfAnotherMajorWeighsNotThisFamily) {
  NeedInputs in;
  in.requested = *parse_library_name("libcudnn.so.8");
  in.pins = {pin("torch", "nvidia-cudnn-cu12==9.23.0.1")};
  Parsed<Need> n = derive_need(in, nullptr);
  ASSERT_TRUE(n);
  EXPECT_FALSE(n->cudnn);
  EXPECT_TRUE(fit(*n, 8, {8, 1, 0, {}}, std::nullopt).compatible);
  in.requested = *parse_library_name("libcudnn.so.9");
  n = derive_need(in, nullptr);
  ASSERT_TRUE(n && n->cudnn);
  EXPECT_EQ(to_string(*n->cudnn), "9.23.0");
}

// A virtualenv laid out as pip lays it out, and a conda prefix, in a temporary directory.
class PythonTree : public testing::Test {
 protected:
  fs::path root = fs::path(testing::TempDir()) / ("python-env-" + std::to_string(getpid()));
  fs::path site = root / "venv/lib/python3.11/site-packages";
  fs::path conda = root / "conda/envs/tf";

  static void write(const fs::path &file, const std::string &text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  void SetUp() override {
    fs::remove_all(root);
    write(site / "nvidia/cudnn/lib/libcudnn.so.9", "");
    write(site / "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
          "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
    write(site / "torch/lib/libtorch_cuda.so", "");
    write(site / "torch-2.6.0.dist-info/METADATA", kTorchMetadata);
    write(site / "torch-2.6.0.dist-info/top_level.txt", "functorch\ntorch\ntorchgen\n");
    write(site / "torch-2.6.0.dist-info/RECORD",
          "torch/__init__.py,sha256=a,1\ntorch/lib/libtorch_cuda.so,sha256=b,2\n");
    write(site / "numpy-2.0.dist-info/RECORD", "numpy/core.so,sha256=c,3\n");
    write(conda / "lib/libcudnn.so.8", "");
    write(conda / "lib/libtf_framework.so", "");
    write(conda / "conda-meta/cudnn-8.9.7.29-h092f7fd_3.json",
          R"({"name": "cudnn", "version": "8.9.7.29", "build": "h092f7fd_3",
              "depends": ["cudatoolkit >=11.8,<12"], "files": ["lib/libcudnn.so.8"]})");
    write(conda / "conda-meta/tensorflow-base-2.15.0-cuda118.json",
          R"({"name": "tensorflow-base", "version": "2.15.0", "build": "cuda118",
              "depends": ["cudnn >=8.9.2.26,<9.0a0"], "files": ["lib/libtf_framework.so"]})");
    write(root / "conda/pkgs/cudnn-8.9.7/lib/libcudnn.so.8", "");  // the package cache
  }
  void TearDown() override { fs::remove_all(root); }
};

TEST_F(PythonTree, FindsTheWheelAndTheCondaEnvironment) {
  const std::vector<PythonPlace> places = find_python_places(root.string());
  ASSERT_EQ(places.size(), 2u);
  const PythonPlace &conda_env = places[0].source == Source::conda ? places[0] : places[1];
  const PythonPlace &wheel = places[0].source == Source::wheel ? places[0] : places[1];
  EXPECT_EQ(wheel.lib, (site / "nvidia/cudnn/lib").string());
  ASSERT_TRUE(wheel.version);
  EXPECT_EQ(to_string(*wheel.version), "9.1.0.70");
  EXPECT_EQ(to_string(*wheel.cuda), "12");
  EXPECT_EQ(wheel.package, "nvidia-cudnn-cu12 9.1.0.70");
  EXPECT_EQ(conda_env.lib, (conda / "lib").string());
  ASSERT_TRUE(conda_env.version);
  EXPECT_EQ(to_string(*conda_env.version), "8.9.7.29");
  EXPECT_EQ(conda_env.note, "");
  EXPECT_EQ(to_string(*conda_env.cuda), "11");
}

// A record whose version is no release is a place still, read by its library, and says so (an
// outside tester's finding: the environment was dropped without a word).
TEST_F(PythonTree, ARecordWithoutARelease) {
  const fs::path record = conda / "conda-meta/cudnn-8.9.7.29-h092f7fd_3.json";
  write(record, R"({"name": "cudnn", "version": "8.9", "files": ["lib/libcudnn.so.8"]})");
  const std::optional<PythonPlace> p = conda_place(conda.string());
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->version);
  EXPECT_EQ(p->note, record.string() + ": its version \"8.9\" is no cuDNN release (x.y.z)");
  EXPECT_FALSE(with_places(nullptr, {*p})->cudnn.size());
}

// A wheel's version is read for its release part, as pip compares them (an outside tester's
// finding: 9.20.0.48.post1 and 9.20.0.48+cu124 were no place at all).
TEST_F(PythonTree, AWheelsReleasePart) {
  for (const char *version : {"9.1.0.70.post1", "9.1.0.70+cu124", "1!9.1.0.70", "9.1.0.70rc1"}) {
    write(
        site / "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
        std::string("Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: ") + version + "\n");
    const std::optional<PythonPlace> p = wheel_place(site.string());
    ASSERT_TRUE(p && p->version) << version;
    EXPECT_EQ(to_string(*p->version), "9.1.0.70") << version;
    EXPECT_EQ(p->note, "") << version;
  }
}

// A METADATA that cannot be read says why, not that its version is "" (an outside tester's
// finding): a FIFO, a directory, a file without a Version line.
TEST_F(PythonTree, AWheelsUnreadableMetadataSaysWhy) {
  const fs::path metadata = site / "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA";
  fs::remove(metadata);
  ASSERT_EQ(mkfifo(metadata.c_str(), 0644), 0);
  std::optional<PythonPlace> p = wheel_place(site.string());
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->version);
  EXPECT_EQ(p->note, metadata.string() + " is a FIFO, not a regular file");
  fs::remove(metadata);
  fs::create_directories(metadata);
  EXPECT_EQ(wheel_place(site.string())->note,
            metadata.string() + " is a directory, not a regular file");
  fs::remove(metadata);
  write(metadata, "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\n");
  EXPECT_EQ(wheel_place(site.string())->note, metadata.string() + ": names no version");
}

TEST_F(PythonTree, PinsOfTheDistributionThatInstalledAFile) {
  const std::vector<CudnnPin> torch = pins_of_file((site / "torch/lib/libtorch_cuda.so").string());
  ASSERT_EQ(torch.size(), 1u);
  EXPECT_EQ(torch[0].consumer, "torch");
  EXPECT_EQ(torch[0].consumer_version, "2.6.0");
  EXPECT_EQ(torch[0].file, (site / "torch-2.6.0.dist-info/METADATA").string());
  const std::vector<CudnnPin> tf = pins_of_file((conda / "lib/libtf_framework.so").string());
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_EQ(tf[0].consumer, "tensorflow-base");
  EXPECT_TRUE(tf[0].conda);
  EXPECT_TRUE(pins_of_file((site / "numpy/core.so").string()).empty());
  EXPECT_TRUE(pins_of_file("/usr/lib/x86_64-linux-gnu/libc.so.6").empty());
}

TEST_F(PythonTree, ActivePlacesFromTheEnvironmentAndTheRequester) {
  const std::vector<PythonPlace> none = active_places(std::nullopt, std::nullopt, {"/bin/sh"});
  EXPECT_TRUE(none.empty());
  const std::vector<PythonPlace> venv = active_places((root / "venv").string(), std::nullopt, {});
  ASSERT_EQ(venv.size(), 1u);
  EXPECT_EQ(venv[0].source, Source::wheel);
  const std::vector<PythonPlace> both = active_places(
      (root / "venv").string(), conda.string(), {(site / "torch/lib/libtorch_cuda.so").string()});
  EXPECT_EQ(both.size(), 2u);  // the requester's wheel is the venv's: listed once
}

}  // namespace
}  // namespace cudnn_compat
