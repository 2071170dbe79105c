// `doctor --nodes`: the nodes' answers judged together. One node cannot tell that its map drifted
// from the others' copies, or that it alone lacks the plugin; the table can.
#include "reports.h"

#include <map>

namespace cudnn_compat {
namespace {

void add_problem(NodeRow &r, const std::string &problem, bool first = false) {
  if (r.verdict == "ok")
    r.verdict = problem;
  else
    r.verdict = first ? problem + "; " + r.verdict : r.verdict + "; " + problem;
}

// Per map path, the digest most of its nodes have (the first node's on a tie): the others drifted.
void judge_digests(std::vector<NodeRow> &rows) {
  std::map<std::string, std::map<std::string, int>> count;  // path -> digest -> nodes
  std::map<std::string, std::string> common;
  std::map<std::string, int> readers;
  for (const NodeRow &r : rows) {
    if (!r.map_digest) continue;
    ++readers[r.map];
    std::string &best = common[r.map];
    const int n = ++count[r.map][*r.map_digest];
    if (best.empty() || n > count[r.map][best]) best = *r.map_digest;
  }
  for (NodeRow &r : rows)
    if (r.map_digest && *r.map_digest != common[r.map])
      add_problem(r, "its map differs from " + std::to_string(count[r.map][common[r.map]]) +
                         " of " + std::to_string(readers[r.map]) + " nodes' (" + r.map + ")");
}

}  // namespace

bool judge_nodes(std::vector<NodeRow> &rows, std::vector<std::string> &notes) {
  judge_digests(rows);
  std::size_t with_plugin = 0;
  for (const NodeRow &r : rows) with_plugin += r.plugin ? 1 : 0;
  if (with_plugin == 0 && !rows.empty())
    notes.push_back(
        "the SPANK plugin is loaded on no node: srun --cudnn does nothing here (plugstack.conf: "
        "optional <prefix>/lib/cudnn-compat/spank-cudnn-compat.so)");
  bool ok = true;
  for (NodeRow &r : rows) {
    if (!r.plugin && with_plugin > 0)
      add_problem(
          r, "no SPANK plugin here (plugstack.conf): srun --cudnn does nothing on this node", true);
    ok = ok && r.verdict == "ok";
  }
  return ok;
}

std::string table_cell(std::string_view text, std::size_t width) {
  if (text.size() <= width || width < 4) return std::string(text);
  if (text.starts_with('/')) return "..." + std::string(text.substr(text.size() - (width - 3)));
  return std::string(text.substr(0, width - 3)) + "...";
}

}  // namespace cudnn_compat
