// doctor --nodes: the nodes' answers judged together (node_table.cc).
#include "cudnn_compat.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

NodeRow row(const char *node, const char *map, const char *digest, bool plugin = true) {
  NodeRow r;
  r.node = node;
  r.map = map;
  r.map_digest = digest;
  if (plugin) r.plugin = "/opt/cudnn-compat/lib/cudnn-compat/spank-cudnn-compat.so";
  return r;
}

TEST(NodeTable, AMapThatDriftedIsFoundAmongTheNodesThatReadItsPath) {
  std::vector<NodeRow> rows{row("n1", "/etc/m.toml", "aa"), row("n2", "/etc/m.toml", "aa"),
                            row("n3", "/etc/m.toml", "bb")};
  std::vector<std::string> notes;
  EXPECT_FALSE(judge_nodes(rows, notes));
  EXPECT_EQ(rows[0].verdict, "ok");
  EXPECT_EQ(rows[2].verdict, "its map differs from 2 of 3 nodes' (/etc/m.toml)");
}

TEST(NodeTable, MapsOfTheirOwnAreNoDrift) {
  std::vector<NodeRow> rows{row("n1", "/etc/n1.toml", "aa"), row("n2", "/etc/n2.toml", "bb")};
  std::vector<std::string> notes;
  EXPECT_TRUE(judge_nodes(rows, notes));
  EXPECT_TRUE(notes.empty());
}

TEST(NodeTable, ANodeWithoutThePluginWhereOthersHaveIt) {
  std::vector<NodeRow> rows{row("n1", "/m", "aa"), row("n2", "/m", "aa", false)};
  rows[1].verdict = "misfit: x";
  std::vector<std::string> notes;
  EXPECT_FALSE(judge_nodes(rows, notes));
  EXPECT_EQ(rows[1].verdict,
            "no SPANK plugin here (plugstack.conf): srun --cudnn does nothing on this node; "
            "misfit: x");
}

TEST(NodeTable, NoPluginOnAnyNodeIsANoteNotAProblem) {
  std::vector<NodeRow> rows{row("n1", "/m", "aa", false), row("n2", "/m", "aa", false)};
  std::vector<std::string> notes;
  EXPECT_TRUE(judge_nodes(rows, notes));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("the SPANK plugin is loaded on no node"), std::string::npos);
}

TEST(NodeTable, LongCellsAreCutKeepingAPathsEnd) {
  EXPECT_EQ(table_cell("short", 10), "short");
  EXPECT_EQ(table_cell("/a/very/long/path/libcudnn.so.5", 17), ".../libcudnn.so.5");
  EXPECT_EQ(table_cell("misfit: nothing fits at all", 12), "misfit: n...");
}

}  // namespace
}  // namespace cudnn_compat
