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
void judge_fit(NodeRow &r, Need need, const Map &listed) {
  const std::string name = "libcudnn.so." + std::to_string(need.cudnn->major);
  need.node = this_node(&listed);
  r.gpus = need.node->gpus.empty() ? "-" : gpu_list(need.node->gpus);
  const Map map = need.node->gpus.empty() ? listed : with_device_code(listed);
  const std::optional<LoaderHit> hit = loader_search(name, loader_context("", "", env));
  const Selection s = system_doctor_io(probe_options())
                          .select(select_inputs(name, *parse_library_name(name), need, hit, &map));
  const std::string file = s.use ? *s.use : hit && s.say.empty() ? hit->path : "";
  r.fits = !file.empty();
  if (!file.empty()) {
    r.file = file;
    return;
  }
  std::string why = s.say.empty() ? "no release of the map fits" : s.say.front();
  if (why.starts_with("cudnn-compat: ")) why.erase(0, 14);
  r.verdict = "misfit: " + why;
}

// The SPANK plugin of this node, as it described itself for this step (CUDNN_COMPAT_NODE_REPORT:
// spank_cudnn_compat.c): its file, and the map its jobs get. Its shim and cudnn-compat must be
// where it looks for them; a missing one is this node's problem.
std::optional<std::string> plugin_map(NodeRow &r, std::vector<std::string> &problems) {
  r.plugin = env("CUDNN_COMPAT_SPANK_PLUGIN");
  if (!r.plugin) return std::nullopt;
  const std::filesystem::path dir = std::filesystem::path(*r.plugin).parent_path();
  const std::string shim = (dir / "libcudnn-compat.so").string();
  const std::string bin = (dir / "../../bin/cudnn-compat").lexically_normal().string();
  if (access(shim.c_str(), R_OK) != 0)
    problems.push_back("the shim " + shim + " is missing: jobs run without it here");
  if (access(bin.c_str(), X_OK) != 0)
    problems.push_back(bin + " is missing: --cudnn cannot be checked here");
  const std::optional<std::string> map = env("CUDNN_COMPAT_SPANK_MAP");
  return map && !map->empty() ? map : std::nullopt;
}

nlohmann::json json_of(const NodeRow &r) {
  const auto opt = [](const auto &v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"node", r.node},
          {"plugin", opt(r.plugin)},
          {"map", r.map.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.map)},
          {"map_digest", opt(r.map_digest)},
          {"gpus", opt(r.gpus)},
          {"file", opt(r.file)},
          {"fits", opt(r.fits)},
          {"verdict", r.verdict}};
}

std::optional<NodeRow> row_of(const nlohmann::json &j) {
  if (!j.is_object() || !j.value("node", nlohmann::json()).is_string() ||
      !j.value("verdict", nlohmann::json()).is_string())
    return std::nullopt;
  const auto str = [&](const char *key) {
    const nlohmann::json v = j.value(key, nlohmann::json());
    return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
  };
  NodeRow r{j["node"],         str("plugin"), str("map").value_or(""),
            str("map_digest"), str("file"),   std::nullopt,
            j["verdict"],      str("gpus")};
  if (j.value("fits", nlohmann::json()).is_boolean()) r.fits = j["fits"].get<bool>();
  return r;
}

// Cells of at most this many characters: a paragraph of a verdict (or an absurd path) would push
// the other columns off every screen. A verdict cut short follows the table whole.
constexpr std::size_t kVerdictCell = 60, kPathCell = 100;

void print_table(const std::vector<NodeRow> &rows, const std::vector<std::string> &notes) {
  const std::vector<std::string> titles{"node", "plugin",      "map",  "map digest",
                                        "GPUs", "resolves to", "fits", "verdict"};
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> cut;
  for (const NodeRow &r : rows) {
    cells.push_back({r.node, r.plugin ? "yes" : "no", r.map.empty() ? "-" : r.map,
                     r.map_digest.value_or("-"), r.gpus.value_or("-"), r.file.value_or("-"),
                     r.fits ? (*r.fits ? "yes" : "no") : "-", r.verdict});
    for (std::string &c : cells.back()) c = table_cell(c, kPathCell);
    cells.back().back() = table_cell(r.verdict, kVerdictCell);
    if (cells.back().back() != r.verdict) cut.push_back(r.node + ": " + r.verdict);
  }
  std::vector<std::size_t> width;
  for (std::size_t i = 0; i < titles.size(); ++i) {
    std::size_t w = titles[i].size();
    for (const std::vector<std::string> &row : cells) w = std::max(w, row[i].size());
    width.push_back(w + 2);
  }
  auto line = [&](const std::vector<std::string> &row) {
    std::string s;
    for (std::size_t i = 0; i < row.size(); ++i)
      s += i + 1 < row.size() ? row[i] + std::string(width[i] - row[i].size(), ' ') : row[i];
    std::cout << s << '\n';
  };
  line(titles);
  for (const std::vector<std::string> &row : cells) line(row);
  for (const std::string &c : cut) std::cout << c << '\n';
  for (const std::string &n : notes) std::cout << "note: " << n << '\n';
}

}  // namespace

int doctor_node_report(const std::string &require, const std::string &map_flag) {
  NodeRow r;
  r.node = node_name();
  std::vector<std::string> problems;
  // The map this node's jobs get: --map if given, else the plugin's, else the usual search.
  const std::optional<std::string> jobs_map = plugin_map(r, problems);
  const LoadedMap m = load_site_map(map_flag.empty() ? jobs_map.value_or("") : map_flag);
  r.map = m.path;
  if (!m.map) {
    problems.push_back(m.path.empty() ? map_not_found_message()
                                      : "invalid map: " + why_invalid(m.diagnostics, m.path));
  } else {
    r.map_digest = digest(format_map(*m.map));
    const Parsed<Need> need =
        derive_need(need_inputs(Asked{require, "", {}, {}, {}}, env), &*m.map);
    if (!need)
      problems.push_back(need.error);
    else if (need->cudnn)
      judge_fit(r, *need, *m.map);
  }
  for (const std::string &p : problems) r.verdict = r.verdict == "ok" ? p : p + "; " + r.verdict;
  std::cout << json_of(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
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
  std::vector<std::string> argv{
      "srun",   "--ntasks-per-node=1",  "-N",
      *nodes,   "--kill-on-bad-exit=0", program_path().value_or("cudnn-compat"),
      "doctor", "--node-report"};
  if (!require.empty()) argv.insert(argv.end(), {"--require", require});
  if (!map_flag.empty()) argv.insert(argv.end(), {"--map", map_flag});
  SpawnOptions srun;
  srun.search_path = true;  // its stderr passes through to ours
  // Asks each node's SPANK plugin to say what it does there (spank_cudnn_compat.c).
  srun.env = environment_with({"CUDNN_COMPAT_NODE_REPORT=1"});
  const SpawnResult c = spawn_process(argv, srun);
  if (!c.started) {
    Error() << c.error + "; doctor --nodes needs Slurm's srun on PATH";
    return kNo;
  }
  std::vector<NodeRow> rows;
  std::istringstream lines(c.out);
  for (std::string l; std::getline(lines, l);)
    if (std::optional<NodeRow> r = row_of(nlohmann::json::parse(l, nullptr, false)))
      rows.push_back(std::move(*r));
  std::sort(rows.begin(), rows.end(),
            [](const NodeRow &a, const NodeRow &b) { return a.node < b.node; });
  std::vector<std::string> notes;
  bool ok = judge_nodes(rows, notes);
  std::string missing;
  if (std::to_string(rows.size()) != *nodes) {
    ok = false;
    missing = std::to_string(rows.size()) + " of " + *nodes +
              " nodes answered; srun exited with status " +
              std::to_string(c.exit_code ? *c.exit_code : 128 + c.signal.value_or(0));
  }
  if (g.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const NodeRow &r : rows) list.push_back(json_of(r));
    print_json({{"job", *job},
                {"nodes", list},
                {"ok", ok},
                {"notes", notes},
                {"missing", missing.empty() ? nlohmann::json(nullptr) : nlohmann::json(missing)}});
  } else {
    print_table(rows, notes);
    if (!missing.empty()) std::cout << "problem: " << missing << '\n';
  }
  return ok ? kYes : kNo;
}

}  // namespace cudnn_compat::cli
