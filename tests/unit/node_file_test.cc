// The node file's grammar (shim/shared/node_file.h, docs/contract.md "The node file"), as the
// engine applies it: what the engine writes is read back, and nothing off the grammar is believed
// (the shim applies the same cudnn_compat_node_file_parse; the hooks are held to it by
// tests/modules/gpu_common.bash).
#include "node_file.h"
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <string>

namespace cudnn_compat {
namespace {

const std::string kGood = "boot\tb1\ngpus\t7.0,8.0\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n";

TEST(NodeFile, WhatTheEngineWritesIsReadBack) {
  const NodeFacts f{{70, 80}, Version{12, 2, {}, {}}, "NVML\r\nforged", "a\ttab"};
  const std::optional<NodeFacts> back = parse_node_file(format_node_file(f, "b1"), "b1");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->gpus, f.gpus);
  EXPECT_EQ(back->source, "NVML  forged");
  EXPECT_EQ(back->problem, "a tab");
  ASSERT_TRUE(parse_node_file(kGood, "b1"));
  EXPECT_FALSE(parse_node_file(kGood, "b2"));
}

TEST(NodeFile, NothingOffTheGrammarIsBelieved) {
  std::string crlf;
  for (char c : kGood) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::string nul = kGood;
  nul.insert(nul.find("\ndriver"), 1, '\0');
  const std::string cases[] = {
      crlf,
      nul,
      "boot\tb1\ngpus\t8.0\ngpus\t7.0\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ndriver\t12.2\ngpus\t8.0\nsource\tNVML\nproblem\t\nend\n",
      kGood + "more\n",
      kGood.substr(0, kGood.size() - 1),
      "boot\tb1\ngpus\t8.0x\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t8.0\ndriver\t12.2.1\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t8.0\ndriver\t12.2\nsource\tNV\tML\nproblem\t\nend\n",
      // Values off the one X.Y grammar (the shim took a trailing comma, Lua empty items, the
      // engine a 'v' and spaces).
      "boot\tb1\ngpus\t8.0,\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t7.0,,8.0\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t,8.0\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\tv8.0\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t8.0\ndriver\t 12.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t8.0\ndriver\t100.2\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t8.0\ndriver\t12.20\nsource\tNVML\nproblem\t\nend\n",
      "boot\tb1\ngpus\t0.5\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n",
  };
  for (const std::string &text : cases) EXPECT_FALSE(parse_node_file(text, "b1")) << text;
}

// A file by the grammar but larger than any the engine writes: not believed for its size alone
// (the same file a byte under the limit is).
TEST(NodeFile, LargerThanTheLimitIsNotBelieved) {
  const auto with_source = [](std::size_t n) {
    return "boot\tb1\ngpus\t8.0\ndriver\t12.2\nsource\t" + std::string(n, 'x') +
           "\nproblem\t\nend\n";
  };
  const std::size_t rest = with_source(0).size();
  ASSERT_LT(rest, std::size_t(CUDNN_COMPAT_NODE_FILE_MAX));
  EXPECT_TRUE(parse_node_file(with_source(CUDNN_COMPAT_NODE_FILE_MAX - rest), "b1"));
  EXPECT_FALSE(parse_node_file(with_source(CUDNN_COMPAT_NODE_FILE_MAX - rest + 1), "b1"));
}

// The lines' names in node_file.h and the contract's keys (cmake/SiteContract.cmake) are in the
// same order: every reader finds each value by its name.
TEST(NodeFile, LineNamesAreTheContractKeys) {
  const std::pair<int, std::string> named[] = {{CUDNN_COMPAT_NODE_BOOT, "boot"},
                                               {CUDNN_COMPAT_NODE_GPUS, "gpus"},
                                               {CUDNN_COMPAT_NODE_DRIVER, "driver"},
                                               {CUDNN_COMPAT_NODE_SOURCE, "source"},
                                               {CUDNN_COMPAT_NODE_PROBLEM, "problem"}};
  for (const auto &[line, key] : named) EXPECT_EQ(cudnn_compat_node_key(line), key);
  // Each architecture once, in order: 32 GPUs of two kinds are two entries, within the 16 the
  // shim reads (it passed over the file of a node with more than 16 GPUs).
  std::vector<int> many(32, 80);
  many[5] = 70;
  const std::string node = format_node_file({many, Version{12, 2, {}, {}}, "NVML", ""}, "b1");
  EXPECT_NE(node.find("\ngpus\t7.0,8.0\n"), std::string::npos) << node;
  const std::string text = format_node_file({{75}, Version{12, 2, {}, {}}, "NVML", ""}, "b1");
  EXPECT_EQ(text, "boot\tb1\ngpus\t7.5\ndriver\t12.2\nsource\tNVML\nproblem\t\nend\n");
}

TEST(NodeFile, NodeNames) {
  EXPECT_TRUE(cudnn_compat_node_name_usable("gpu-01.cluster"));
  for (const char *bad : {"", "od\nx", "a/b", "tab\there", "del\x7f"})
    EXPECT_FALSE(cudnn_compat_node_name_usable(bad)) << bad;
  EXPECT_FALSE(cudnn_compat_node_name_usable(nullptr));
}

}  // namespace
}  // namespace cudnn_compat
