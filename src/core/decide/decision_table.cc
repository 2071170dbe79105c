// map.toml.decide: for every major of the map, every CUDA the map knows and every required version
// that makes a difference, the releases rank() accepts, best first. rank() is the one decision
// procedure; the shim only looks its answers up (shim/fast_path.c).
//
// Which releases fit a need changes only where the required version crosses an installed one
// (every rule compares it with the release's minor, or with its whole number, for order or
// equality) or a rule's own threshold. So rank() is asked there and just past, and each row holds
// from its key to the next (points() says where, for the needs the shim looks up).
#include "decide.h"
#include "decision_key.h"
#include "text.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace cudnn_compat {
namespace {

struct Point {
  unsigned long key;
  std::optional<Version> need;
};

// The frameworks' integer rules compare cudnn_number(): major*scale + minor*100 + patch. For a
// need whose patch is below 100 (the only ones the shim looks up: decision_key.h) that number
// grows with (minor, patch), so a verdict changes where it crosses a release's own number - at the
// release's minor and patch as written, or, for a patch of 100 or more, where that number puts it
// (5.0.150 is 5.1.50 to them) - or one of rule_thresholds().
std::vector<Point> points(int major, const std::vector<const Installed *> &entries) {
  std::set<std::pair<int, int>> at = {{0, -1}};  // (minor, patch or -1)
  const auto around = [&](int minor, int patch) {
    for (auto p : {std::pair{minor, -1},
                   {minor, 0},
                   {minor, patch},
                   {minor, patch + 1},
                   {minor + 1, -1},
                   {minor + 1, 0}})
      at.insert(p);
  };
  for (const Installed *e : entries) {
    const int minor = e->version.minor.value_or(0), patch = e->version.patch.value_or(0);
    around(minor, patch);
    if (patch >= 100) around(minor + patch / 100, patch % 100);
  }
  const std::int64_t base = cudnn_number(Version{major, 0, 0, {}});
  for (std::int64_t n : rule_thresholds())
    if (n >= base) around(int((n - base) / 100), int((n - base) % 100));
  std::vector<Point> out{{0, std::nullopt}};
  for (auto [minor, patch] : at) {
    Version v{major, minor, {}, {}};
    if (patch >= 0) v.patch = patch;
    out.push_back(
        {cudnn_compat_decision_key(unsigned(minor), patch >= 0, unsigned(std::max(patch, 0))), v});
  }
  return out;
}

// The rows of one major and CUDA class ("-", a CUDA major, or "*" for any other).
std::string rows(const Map &known, const std::vector<std::size_t> &index, int major,
                 const std::string &cuda_class, std::optional<int> cuda,
                 const std::vector<Point> &at) {
  std::string out, previous = "\n";
  for (const Point &p : at) {
    Need need;
    need.cudnn = p.need;
    need.cuda_major = cuda;
    need.rule = known.policy.rule;
    std::vector<std::string> ranked;
    for (std::size_t i : rank(known, need, LibraryName{"", Version{major, {}, {}, {}}, false}))
      ranked.push_back(std::to_string(index[i]));
    const std::string list = join(ranked, ",");
    if (p.need && list == previous) continue;
    previous = p.need ? list : "\n";
    out += "fit\t" + std::to_string(major) + "\t" + cuda_class + "\t" +
           (p.need ? std::to_string(p.key) : "-") + "\t" + list + "\n";
  }
  return out;
}

std::string csv(const std::set<int> &archs) {
  std::string s;
  for (int a : archs) s += (s.empty() ? "" : ",") + std::to_string(a);
  return s.empty() ? "-" : s;
}

// A CUDA as NVML numbers it (12020 for 12.2), as the table's driver fields hold it.
std::string cuda_number(int major, int minor) {
  return std::to_string(major * 1000 + minor * 10);
}

// The smallest driver CUDA (as NVML numbers it: 12020 for 12.2) that runs a release built for
// cuda, by the fit predicate itself; "-" when none of CUDA 8 to 19 does.
std::string least_driver(const Installed &e) {
  for (int major = 8; major < 20; ++major)
    for (int minor = 0; minor < 10; ++minor) {
      Need need;
      need.node = NodeFacts{{}, Version{major, minor, {}, {}}, "", ""};
      if (fit(need, std::nullopt, e.version, e.cuda, Words::no, e.code).compatible)
        return cuda_number(major, minor);
    }
  return "-";
}

// What the shim's fast path needs to judge a node without the rule: per release with device code
// or a CUDA, the known GPUs it runs on ("run" rows), by the fit predicate; per library, its code
// ("code" rows) for the engine, which judges GPUs the table does not list; per known GPU, the
// first driver CUDA that knows it ("gpu" rows).
std::string device_rows(const Map &known, const std::vector<std::size_t> &index) {
  std::vector<const ReleaseCode *> codes;
  for (const Installed &e : known.cudnn) codes.push_back(&e.code);
  const std::vector<int> gpus = known_gpus(codes);
  std::string out = "gpus\t" + csv({gpus.begin(), gpus.end()}) + "\n";
  // Per judged GPU the first driver CUDA that knows it: overrides naming a GPU and a driver too
  // old for it contradict each other, which the engine says (node_overrides) and every reader of
  // the table leaves to it.
  for (int g : gpus) {
    const std::optional<Version> first = first_cuda_for(g);
    out += "gpu\t" + std::to_string(g) + "\t" +
           (first ? cuda_number(first->major, first->minor.value_or(0)) : "-") + "\n";
  }
  for (std::size_t k = 0; k < known.cudnn.size(); ++k) {
    const Installed &e = known.cudnn[k];
    const std::string i = std::to_string(index[k]);
    for (const auto &[library, code] : e.code)
      out += "code\t" + i + "\t" + csv(code.cubin) + "\t" + csv(code.ptx) + "\t" + library + "\n";
    out += "run\t" + i + "\t" + (e.code.empty() ? "*" : csv(gpus_served(e, gpus))) + "\t" +
           (e.cuda ? least_driver(e) : "-") + "\n";
  }
  return out;
}

std::string identity(const FileStamp &s) {
  return std::to_string(s.ino) + "\t" + std::to_string(s.size) + "\t" + std::to_string(s.mtime_ns);
}

// A place's "lib" row (its probed file's identity) and its "rel" row: the release number and
// source, for the shim's family rule and its report, and the version and module a usage record
// says of it (shim/record.c).
std::string place_rows(std::size_t i, const Installed &e, const TableFacts &facts) {
  const std::string entry = std::to_string(i);
  return "lib\t" + entry + "\t" + identity(*facts.files[i]) + "\t" + facts.probes[i]->file +
         "\nrel\t" + entry + "\t" + std::to_string(cudnn_number(e.version)) + "\t" +
         std::string(to_string(source_of(e))) + "\t" + to_string(e.version) + "\t" +
         (e.module.empty() ? "-" : e.module) + "\t" + (e.cuda ? to_string(*e.cuda) : "-") + "\n";
}

}  // namespace

std::string library_disagreement(const Installed &e, const std::optional<Probe> &p) {
  if (!library_spoke(p)) return "did not load";
  if (!same_release(p->version, e.version))
    return "reports cuDNN " + to_string(p->version) + ", not " + to_string(e.version);
  if (e.cuda && p->cuda && e.cuda->major != p->cuda->major)
    return "was built for CUDA " + to_string(*p->cuda) + ", not CUDA " + to_string(*e.cuda);
  return "";
}

std::string format_decision_table(const Map &map, const FileStamp &stamp, const TableFacts &facts) {
  std::string out = stamp_line(TableKind::decide, stamp);
  // Second, where the shim looks for it first (shim/record.c): with records off, nothing more.
  if (map.usage.given) out += usage_settings_text(map.usage, '\t') + "\n";
  out += "require\t" + std::to_string(map.require.size()) + "\n";
  // The map as rank() sees it, but only the releases whose library loaded, as it reports them, and
  // whose directory holds their whole family (a wheel installed without one is the engine's). A
  // place the map does not hand out is left to the engine too: it is never handed over, and a
  // process whose loader finds it keeps it when it fits, which only the engine tells apart.
  Map known = map;
  known.cudnn.clear();
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const std::optional<Probe> &p = facts.probes[i];
    if (!map.cudnn[i].hand_out || !facts.files[i] || !stands_as_reported(map.cudnn[i], p) ||
        lacks_any(facts, i))
      continue;
    Installed &e = known.cudnn.emplace_back(as_library_reports(map.cudnn[i], p));
    if (i < facts.codes.size() && facts.codes[i]) e.code = *facts.codes[i];
    index.push_back(i);
    // A release that retires is ranked, but handed over or kept only by the engine, which knows
    // the day: the shim finds no file of it here and asks.
    if (e.retire_after.empty()) out += place_rows(i, e, facts);
  }
  out += device_rows(known, index);
  // The map's [[node]] entries: which one is this node, the engine tells (a glob on its name).
  if (!map.nodes.empty()) out += "nodes\t" + std::to_string(map.nodes.size()) + "\n";
  std::set<int> majors;
  for (const Installed &e : known.cudnn) majors.insert(e.version.major);
  for (int major : majors) {
    std::vector<const Installed *> entries;
    std::set<int> cudas;
    bool cuda_known = true;
    for (const Installed &e : known.cudnn) {
      if (e.version.major != major) continue;
      entries.push_back(&e);
      if (e.cuda) cudas.insert(e.cuda->major);
      cuda_known = cuda_known && e.cuda;
    }
    const std::vector<Point> at = points(major, entries);
    out += rows(known, index, major, "-", std::nullopt, at);
    // A CUDA need is settled here only where every release's CUDA is known (the library's word,
    // else the map's): the engine's own check of a library's CUDA then says the same.
    if (!cuda_known) continue;
    for (int cuda : cudas) out += rows(known, index, major, std::to_string(cuda), cuda, at);
    out += rows(known, index, major, "*", (cudas.empty() ? 0 : *cudas.rbegin()) + 1000, at);
  }
  // The end line: a table cut short (a full disk, a copy stopped half way) has lost rows at its
  // end, and a missing row would turn "ask the engine" into a wrong answer.
  return out += table_end();
}

std::vector<KnownLibrary> table_libraries(std::string_view table) {
  if (!parse_stamp(table, TableKind::decide) || !table.ends_with("\n" + std::string(table_end())))
    return {};
  std::vector<KnownLibrary> out;
  for (std::string_view rest = table.substr(table.find('\n') + 1); !rest.empty();) {
    const std::size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest.remove_prefix(eol + 1);
    // The rel row after an entry's lib row: its release and CUDA as its library reported them.
    if (line.starts_with("rel\t") && !out.empty()) {
      const std::vector<std::string_view> f = split(line, '\t');
      if (f.size() == 7 && f[1] == std::to_string(out.back().entry))
        if (const Parsed<Version> v = parse_dotted(f[4])) {
          out.back().version = *v;
          if (const Parsed<Version> c = parse_cuda(f[6])) out.back().cuda = *c;
        }
    }
    if (!line.starts_with("lib\t")) continue;
    line.remove_prefix(4);
    std::uint64_t n[4] = {};
    for (std::uint64_t &field : n) {
      const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), field);
      if (ec != std::errc() || end == line.data() + line.size() || *end != '\t') return {};
      line.remove_prefix(std::size_t(end - line.data()) + 1);
    }
    out.push_back({n[1], n[2], n[3], std::size_t(n[0]), std::string(line)});
  }
  return out;
}

std::map<std::size_t, ReleaseCode> table_codes(std::string_view table) {
  std::map<std::size_t, ReleaseCode> out;
  if (table_libraries(table).empty()) return out;
  const auto archs = [](std::string_view field) {
    std::set<int> s;
    for (std::string_view a : split(field, ','))
      if (const std::optional<std::int64_t> n = parse_uint(a)) s.insert(int(*n));
    return s;
  };
  for (std::string_view line : split(table, '\n')) {
    if (!line.starts_with("code\t")) continue;
    const std::vector<std::string_view> f = split(line.substr(5), '\t');
    const std::optional<std::int64_t> entry = f.size() == 4 ? parse_uint(f[0]) : std::nullopt;
    if (entry)
      out[std::size_t(*entry)].emplace_back(std::string(f[3]),
                                            DeviceCode{archs(f[1]), archs(f[2])});
  }
  return out;
}

std::optional<Probe> remembered_probe(const std::vector<KnownLibrary> &known, const Map &map,
                                      const std::string &file, const FileStamp &identity,
                                      bool cuda_needed) {
  const KnownLibrary *found = nullptr;
  for (const KnownLibrary &k : known) {
    if (k.ino != identity.ino || k.size != identity.size || k.mtime_ns != identity.mtime_ns ||
        k.entry >= map.cudnn.size())
      continue;
    if (!found || k.path == file) found = &k;  // the row of this very path, if there is one
  }
  if (!found) return std::nullopt;
  if (!found->version || (cuda_needed && !found->cuda)) return std::nullopt;
  return Probe{found->path, *found->version, found->cuda, ProbeSource::library, ""};
}

}  // namespace cudnn_compat
