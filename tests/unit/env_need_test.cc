// The need the environment asks for (shim/shared/asked_need.h through env_need): the user's
// variables win; a variable Lmod's pushenv left (the top of its stack) yields to the module
// system's own record of the loaded applications, CUDNN_COMPAT_NEEDS.
#include <gtest/gtest.h>

#include <map>

#include "decision_inputs.h"
#include "shared/asked_need.h"

namespace cudnn_compat {
namespace {

using Vars = std::map<std::string, std::string>;

EnvNeed read(const Vars &vars) {
  return env_need([&](const char *name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
}

// Lmod's stacks hold base64 of each value, the top first: "5.1" is NS4x, "5.0" NS4w, "12" MTI=.
TEST(EnvNeed, TheUsersVariablesAlone) {
  const EnvNeed n = read({{"CUDNN_COMPAT_REQUIRE", "5.1"}, {"CUDNN_COMPAT_CUDA", "12"}});
  EXPECT_EQ(n.require, "5.1");
  EXPECT_EQ(n.require_source, "CUDNN_COMPAT_REQUIRE");
  EXPECT_EQ(n.cuda, "12");
  EXPECT_EQ(n.cuda_source, "CUDNN_COMPAT_CUDA");
  EXPECT_FALSE(read({}).require);
  EXPECT_FALSE(read({}).cuda);
}

TEST(EnvNeed, LmodsRestoredValueYieldsToTheApplicationStillLoaded) {
  // module load old/1.0 tensorflow/1.0; module unload old/1.0: Lmod popped tensorflow's 5.1.
  const EnvNeed n = read({{"CUDNN_COMPAT_REQUIRE", "5.0"},
                          {"__LMOD_STACK_CUDNN_COMPAT_REQUIRE", "NS4w"},
                          {"CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1"}});
  EXPECT_EQ(n.require, "5.1");
  EXPECT_EQ(n.require_source, "CUDNN_COMPAT_NEEDS (tensorflow/1.0)");
  EXPECT_FALSE(n.cuda);
}

TEST(EnvNeed, TheFirstEntryIsTheApplicationLoadedLast) {
  const EnvNeed n = read({{"CUDNN_COMPAT_REQUIRE", "8.9"},
                          {"__LMOD_STACK_CUDNN_COMPAT_REQUIRE", "OC45:NS4x"},
                          {"CUDNN_COMPAT_CUDA", "12"},
                          {"__LMOD_STACK_CUDNN_COMPAT_CUDA", "MTI="},
                          {"CUDNN_COMPAT_NEEDS", "pytorch/2.1=8.9,cuda=12:tensorflow/1.0=5.1"}});
  EXPECT_EQ(n.require, "8.9");
  EXPECT_EQ(n.require_source, "CUDNN_COMPAT_NEEDS (pytorch/2.1)");
  EXPECT_EQ(n.cuda, "12");
  EXPECT_EQ(n.cuda_source, "CUDNN_COMPAT_NEEDS (pytorch/2.1)");
}

TEST(EnvNeed, APushedCudaOfAnUnloadedApplicationIsNoNeed) {
  // module load pytorch/2.1 tensorflow/1.0; module unload tensorflow/1.0 leaves pytorch's CUDA
  // right; the other order leaves pytorch's CUDA with tensorflow alone.
  const EnvNeed n = read({{"CUDNN_COMPAT_CUDA", "12"},
                          {"__LMOD_STACK_CUDNN_COMPAT_CUDA", "MTI="},
                          {"CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1"}});
  EXPECT_EQ(n.require, "5.1");
  EXPECT_FALSE(n.cuda);
}

TEST(EnvNeed, AnExportAfterTheModuleIsTheUsers) {
  const EnvNeed n = read({{"CUDNN_COMPAT_REQUIRE", "5.0.5"},
                          {"__LMOD_STACK_CUDNN_COMPAT_REQUIRE", "NS4w"},
                          {"CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1"}});
  EXPECT_EQ(n.require, "5.0.5");
  EXPECT_EQ(n.require_source, "CUDNN_COMPAT_REQUIRE");
  // Environment Modules restores in order and keeps no Lmod stack: its variable is read as is.
  EXPECT_EQ(
      read({{"CUDNN_COMPAT_REQUIRE", "5.0"}, {"CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1"}}).require,
      "5.0");
}

TEST(EnvNeed, TheRecordAloneIsANeed) {
  const EnvNeed n = read({{"CUDNN_COMPAT_NEEDS", "=9:noversion:a/1=9.1,cuda=12.4:b/1=5.1"}});
  EXPECT_EQ(n.require, "9.1");
  EXPECT_EQ(n.cuda, "12.4");
  EXPECT_EQ(n.require_source, "CUDNN_COMPAT_NEEDS (a/1)");
  // What the entry says is the need as written, for the grammar to judge (and to refuse).
  EXPECT_EQ(read({{"CUDNN_COMPAT_NEEDS", "a/1=banana,cudax=1"}}).require, "banana");
  EXPECT_FALSE(read({{"CUDNN_COMPAT_NEEDS", "a/1=banana,cudax=1"}}).cuda);
  EXPECT_FALSE(read({{"CUDNN_COMPAT_NEEDS", ":::"}}).require);
}

TEST(EnvNeed, TheModulesNameIsSaidOnOneLine) {
  EXPECT_EQ(read({{"CUDNN_COMPAT_NEEDS", "app\rFORGED\x1b[2J/1=5.1"}}).require_source,
            "CUDNN_COMPAT_NEEDS (app\\rFORGED\\x1b[2J/1)");
}

TEST(EnvNeed, AStackThatIsNoBase64OrAnotherValueIsNoModules) {
  for (const char *stack : {"NS4", "NS4x!", "", "Ni4w:NS4x"})
    EXPECT_EQ(read({{"CUDNN_COMPAT_REQUIRE", "5.1"},
                    {"__LMOD_STACK_CUDNN_COMPAT_REQUIRE", stack},
                    {"CUDNN_COMPAT_NEEDS", "b/1=6.0"}})
                  .require,
              "5.1")
        << stack;
}

TEST(EnvNeed, EnvironmentModulesPushedCudaOfAnotherApplicationIsNoNeed) {
  // module load pytorch/2.1 tensorflow/1.0 on Environment Modules: pytorch's CUDA stays pushed.
  const EnvNeed n =
      read({{"CUDNN_COMPAT_REQUIRE", "5.1"},
            {"__MODULES_PUSHENV_CUDNN_COMPAT_REQUIRE", "tensorflow/1.0&5.1:pytorch/2.1&8.9"},
            {"CUDNN_COMPAT_CUDA", "12"},
            {"__MODULES_PUSHENV_CUDNN_COMPAT_CUDA", "pytorch/2.1&12"},
            {"CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1:pytorch/2.1=8.9,cuda=12"}});
  EXPECT_EQ(n.require, "5.1");
  EXPECT_EQ(n.require_source, "CUDNN_COMPAT_NEEDS (tensorflow/1.0)");
  EXPECT_FALSE(n.cuda);
  // An export after the load is the user's.
  EXPECT_EQ(read({{"CUDNN_COMPAT_CUDA", "11"},
                  {"__MODULES_PUSHENV_CUDNN_COMPAT_CUDA", "pytorch/2.1&12"},
                  {"CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1"}})
                .cuda,
            "11");
}

TEST(EnvNeed, TheDecoderStopsAtTheValuesEnd) {
  // The bytes after the value's end are zero here: a decoder that read on would call it a match.
  const char value[] = {'5', '.', '0', '\0', '\0', '\0'};
  EXPECT_FALSE(cudnn_compat_stack_top_is("NS4wAA==", value));
  EXPECT_TRUE(cudnn_compat_stack_top_is("NS4w:OC45", value));
  EXPECT_FALSE(cudnn_compat_pushed_top_is("a/1&5.0x", value));
  EXPECT_TRUE(cudnn_compat_pushed_top_is("a/1&5.0:b/1&8.9", value));
}

TEST(EnvNeed, AStackEntryLongerThanTheValueIsAnother) {
  // "5.0" and a NUL byte (an outside tester's: the reading went past the value's end).
  EXPECT_EQ(read({{"CUDNN_COMPAT_REQUIRE", "5.0"},
                  {"__LMOD_STACK_CUDNN_COMPAT_REQUIRE", "NS4wAA=="},
                  {"CUDNN_COMPAT_NEEDS", "b/1=5.1"}})
                .require,
            "5.0");
  EXPECT_EQ(read({{"CUDNN_COMPAT_REQUIRE", "5.0"},
                  {"__MODULES_PUSHENV_CUDNN_COMPAT_REQUIRE", "a/1&5.0x"},
                  {"CUDNN_COMPAT_NEEDS", "b/1=5.1"}})
                .require,
            "5.0");
}

}  // namespace
}  // namespace cudnn_compat
