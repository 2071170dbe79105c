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
      kGood + std::string(CUDNN_COMPAT_NODE_FILE_MAX, '\n'),
  };
  for (const std::string &text : cases) EXPECT_FALSE(parse_node_file(text, "b1")) << text;
}

TEST(NodeFile, NodeNames) {
  EXPECT_TRUE(cudnn_compat_node_name_usable("gpu-01.cluster"));
  for (const char *bad : {"", "od\nx", "a/b", "tab\there", "del\x7f"})
    EXPECT_FALSE(cudnn_compat_node_name_usable(bad)) << bad;
  EXPECT_FALSE(cudnn_compat_node_name_usable(nullptr));
}

}  // namespace
}  // namespace cudnn_compat
