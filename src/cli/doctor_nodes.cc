// cudnn-compat doctor --nodes: the doctor's question on every node of a Slurm allocation, in one
// table. Each node answers in one JSON line (`doctor --node-report`, started there by srun, one
// task per node); this side lines the answers up and judges whether the nodes agree.
#include "cli.h"
#include "diagnostics.h"
#include "doctor_facts.h"
#include "spawn_process.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

namespace cudnn_compat::cli {
namespace {

// FNV-1a, 64 bits, of the normalised map: equal maps give equal digests whatever their comments.
std::string digest(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  std::ostringstream s;
  s << std::hex;
  s.width(16);
  s.fill('0');
  s << h;
  return s.str();
}

std::string node_name() {
  if (std::optional<std::string> n = env("SLURMD_NODENAME")) return *n;
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  return host;
}

// What this node gives a process that needs `need`, with the shim on: the file, or why none. The
// node's GPUs and driver count as they do for the shim (docs/gpu.md).
void judge_fit(nlohmann::json &r, Need need, const Map &listed) {
  const int major = need.cudnn->major;
  const std::string name = "libcudnn.so." + std::to_string(major);
  r["library"] = name;
  need.node = learn_node_facts(node_sources(env, probe_options().helper, 10000));
  r["gpus"] = need.node->gpus.empty() ? "-" : gpu_list(need.node->gpus);
  const Map map = need.node->gpus.empty() ? listed : with_device_code(listed);
  const std::optional<LoaderHit> hit = loader_search(name, loader_context("", "", env));
  const Selection s = system_doctor_io(probe_options())
                          .select(select_inputs(name, *parse_library_name(name), need, hit, &map));
  const std::string file = s.use ? *s.use : hit && s.say.empty() ? hit->path : "";
  r["fits"] = !file.empty();
  if (!file.empty()) {
    r["file"] = file;
    return;
  }
  std::string why = s.say.empty() ? "no release of the map fits" : s.say.front();
  if (why.starts_with("cudnn-compat: ")) why.erase(0, 14);
  r["verdict"] = "misfit: " + why;
}

// The node whose map differs from the one most nodes have (the first node's, on a tie) gets
// that verdict too; a node without an answer is a problem (pure).
bool judge_nodes(std::vector<nlohmann::json> &rows) {
  std::map<std::string, int> count;
  std::string common;
  for (const nlohmann::json &r : rows)
    if (r["map_digest"].is_string()) {
      const std::string d = r["map_digest"];
      if (++count[d] > (common.empty() ? 0 : count[common])) common = d;
    }
  bool ok = true;
  for (nlohmann::json &r : rows) {
    std::string verdict = r["verdict"];
    if (r["map_digest"].is_string() && r["map_digest"] != common)
      verdict = (verdict == "ok" ? "" : verdict + "; ") + "its map differs from " +
                std::to_string(count[common]) + " of " + std::to_string(rows.size()) + " nodes'";
    r["verdict"] = verdict;
    ok &= verdict == "ok";
  }
  return ok;
}

std::string cell(const nlohmann::json &v) {
  if (v.is_null()) return "-";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  return v.get<std::string>();
}

void print_table(const std::vector<nlohmann::json> &rows) {
  const std::vector<std::pair<std::string, std::string>> columns{
      {"node", "node"}, {"map_digest", "map digest"}, {"gpus", "GPUs"}, {"file", "resolves to"},
      {"fits", "fits"}, {"verdict", "verdict"}};
  std::vector<std::size_t> width;
  for (const auto &[key, title] : columns) {
    std::size_t w = title.size();
    for (const nlohmann::json &r : rows) w = std::max(w, cell(r[key]).size());
    width.push_back(w + 2);
  }
  auto line = [&](auto text_of) {
    std::string s;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      std::string t = text_of(i);
      if (i + 1 < columns.size()) t.resize(width[i], ' ');
      s += t;
    }
    std::cout << s << '\n';
  };
  line([&](std::size_t i) { return columns[i].second; });
  for (const nlohmann::json &r : rows)
    line([&](std::size_t i) { return cell(r[columns[i].first]); });
}

}  // namespace

int doctor_node_report(const std::string &require, const std::string &map_flag) {
  nlohmann::json r{{"node", node_name()}, {"map", nullptr},     {"map_digest", nullptr},
                   {"gpus", nullptr},     {"library", nullptr}, {"file", nullptr},
                   {"fits", nullptr},     {"verdict", "ok"}};
  const LoadedMap m = load_site_map(map_flag);
  if (!m.path.empty()) r["map"] = m.path;
  if (!m.map) {
    r["verdict"] = m.path.empty()          ? map_not_found_message()
                   : m.diagnostics.empty() ? m.path + " is invalid"
                                           : "invalid map: " + to_string(m.diagnostics.front());
  } else {
    r["map_digest"] = digest(format_map(*m.map));
    const Parsed<Need> need =
        derive_need(need_inputs(Asked{require, "", {}, {}, {}}, env), &*m.map);
    if (!need)
      r["verdict"] = need.error;
    else if (need->cudnn)
      judge_fit(r, *need, *m.map);
  }
  std::cout << r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  return kYes;
}

int doctor_nodes(const std::string &require, const std::string &map_flag, const Globals &g) {
  const std::optional<std::string> job = env("SLURM_JOB_ID"), nodes = env("SLURM_JOB_NUM_NODES");
  if (!job || !nodes) {
    Error() << "doctor --nodes runs inside a Slurm allocation: `salloc -N4 cudnn-compat doctor "
               "--nodes`, "
               "or in an sbatch script";
    return kUsage;
  }
  std::error_code ec;
  std::vector<std::string> argv{"srun",
                                "--ntasks-per-node=1",
                                "-N",
                                *nodes,
                                "--kill-on-bad-exit=0",
                                std::filesystem::read_symlink("/proc/self/exe", ec).string(),
                                "doctor",
                                "--node-report"};
  if (!require.empty()) argv.insert(argv.end(), {"--require", require});
  if (!map_flag.empty()) argv.insert(argv.end(), {"--map", map_flag});
  SpawnOptions srun;
  srun.search_path = true;  // its stderr passes through to ours
  const SpawnResult c = spawn_process(argv, srun);
  if (!c.started) {
    Error() << c.error + "; doctor --nodes needs Slurm's srun on PATH";
    return kNo;
  }
  std::vector<nlohmann::json> rows;
  std::istringstream lines(c.out);
  for (std::string l; std::getline(lines, l);) {
    nlohmann::json r = nlohmann::json::parse(l, nullptr, false);
    if (r.is_object() && r["node"].is_string() && r["verdict"].is_string()) rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const nlohmann::json &a, const nlohmann::json &b) {
    return a["node"].get<std::string>() < b["node"].get<std::string>();
  });
  bool ok = judge_nodes(rows);
  std::string missing;
  if (std::to_string(rows.size()) != *nodes) {
    ok = false;
    missing = std::to_string(rows.size()) + " of " + *nodes +
              " nodes answered; srun exited with status " +
              std::to_string(c.exit_code ? *c.exit_code : 128 + c.signal.value_or(0));
  }
  if (g.json) {
    print_json({{"job", *job},
                {"nodes", rows},
                {"ok", ok},
                {"missing", missing.empty() ? nlohmann::json(nullptr) : nlohmann::json(missing)}});
  } else {
    print_table(rows);
    if (!missing.empty()) std::cout << "problem: " << missing << '\n';
  }
  return ok ? kYes : kNo;
}

}  // namespace cudnn_compat::cli
