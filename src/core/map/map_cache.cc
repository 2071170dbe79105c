// The parsed map compiled to a plain line file beside it (`map.toml.cache`), as ld.so.cache is to
// ld.so.conf: every job that asks for cuDNN reads the map, and a TOML parse of a site's thousand
// releases costs thirty times a dlopen of cuDNN. Only `map validate` and `scan` write it (the
// admin's tools); read_table believes it only for the map it was made from (docs/contract.md).
#include "map.h"
#include "text.h"

#include <algorithm>
#include <charconv>

namespace cudnn_compat {
namespace {

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::optional<std::string> unescape(std::string_view s) {
  if (s.find('\\') == std::string_view::npos) return std::string(s);
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return std::nullopt;
    if (s[i] == '\\')
      out += '\\';
    else if (s[i] == 't')
      out += '\t';
    else if (s[i] == 'n')
      out += '\n';
    else
      return std::nullopt;
  }
  return out;
}

std::string pos_fields(SourcePos p) {
  return std::to_string(p.line) + '\t' + std::to_string(p.column);
}

// Tight readers for the fields the writer produced: the generic parsers of version.cc allocate
// and explain, and this loop runs once per release in every job that asks for cuDNN.
bool read_int(std::string_view s, int &out) {
  const std::optional<std::int64_t> n = parse_uint(s, 9);  // nine digits always fit an int
  if (n) out = int(*n);
  return n.has_value();
}

// "5.1.10" or "8.9.2.26" (min_parts 3), or a CUDA "12" / "12.2" (min_parts 1).
bool read_version(std::string_view s, std::size_t min_parts, Version &v) {
  int n[4] = {};
  std::size_t parts = 0;
  for (;;) {
    const std::size_t dot = s.find('.');
    if (parts == 4 || !read_int(s.substr(0, dot), n[parts++])) return false;
    if (dot == std::string_view::npos) break;
    s.remove_prefix(dot + 1);
  }
  if (parts < min_parts) return false;
  v = Version{n[0], {}, {}, {}};
  if (parts > 1) v.minor = n[1];
  if (parts > 2) v.patch = n[2];
  if (parts > 3) v.build = n[3];
  return true;
}

bool read_optional_cuda(std::string_view s, std::optional<Version> &cuda) {
  if (s.empty()) return true;
  cuda.emplace();
  return read_version(s, 1, *cuda);
}

bool read_pos(std::string_view line, std::string_view column, SourcePos &pos) {
  return read_int(line, pos.line) && read_int(column, pos.column);
}

// The tab-separated fields of one line, without allocating; more than 8 is no record at all.
struct Fields {
  std::string_view f[8];
  std::size_t n = 0;
  std::string_view operator[](std::size_t i) const { return f[i]; }
  std::size_t size() const { return n; }
};

// "usage": the map's [usage] - mode, sample and where the records go.
bool read_usage(const Fields &f, Map &map) {
  const std::optional<UsageMode> mode = parse_usage_mode(f[1]);
  std::optional<std::string> to = unescape(f[3]);
  double sample = 0;
  const auto [end, ec] = std::from_chars(f[2].data(), f[2].data() + f[2].size(), sample);
  if (!mode || !to || ec != std::errc() || end != f[2].data() + f[2].size()) return false;
  map.usage = {true, *mode, std::move(*to), sample};
  return true;
}

// The shortest line a release can take, so a count the policy line claims cannot reserve more
// releases than the text holds (a forged 999999999 would ask for gigabytes).
constexpr std::size_t kShortestRelease = sizeof "cudnn\t0\t0\t0.0.0\t\tx\t\t\n" - 1;

// "node": a [[node]] entry.
bool read_node(const Fields &f, Map &map) {
  NodeEntry &n = map.nodes.emplace_back();
  std::optional<std::string> name = unescape(f[3]), gpu = unescape(f[4]), driver = unescape(f[5]);
  if (!read_pos(f[1], f[2], n.pos) || !name || !gpu || !driver) return false;
  n.name = std::move(*name), n.gpu_arch = std::move(*gpu), n.driver_cuda = std::move(*driver);
  return true;
}

// A line about the place before it: whether it was one the writer could have produced, nullopt
// when it is no such line.
std::optional<bool> read_place_detail(const Fields &f, Map &map) {
  if (map.cudnn.empty()) return std::nullopt;
  Installed &e = map.cudnn.back();
  // "hold": not handed out (hand_out = false)
  if (f[0] == "hold" && f.size() == 1) {
    e.hand_out = false;
    return true;
  }
  // "give": handed out, as the map itself says (hand_out = true), so the map printed from the
  // cache is the one printed from the TOML
  if (f[0] == "give" && f.size() == 1) {
    e.hand_out_written = true;
    return true;
  }
  // "first": the modules to load before its module (load_first)
  if (f[0] == "first" && f.size() == 2) {
    const std::optional<std::string> parents = unescape(f[1]);
    if (!parents) return false;
    for (std::string_view m : split(*parents, ' ')) e.load_first.emplace_back(m);
    return true;
  }
  // "retire": its release has a retire_after date
  if (f[0] == "retire" && f.size() == 2 && day_start(f[1])) {
    e.retire_after = std::string(f[1]);
    return true;
  }
  return std::nullopt;
}

// One record; false when the line is not one the writer could have produced. `left`: the bytes
// of the text after it.
bool read_record(const Fields &f, std::size_t left, Map &map, std::vector<Diagnostic> &warnings) {
  // rule, prefer, on_module_mismatch, how many [[cudnn]] follow, and the trusted group
  if (f[0] == "policy" && f.size() == 6) {
    const std::optional<Rule> rule = parse_rule(f[1]);
    const std::optional<std::string> group = unescape(f[5]);
    int entries = 0;
    if (!rule || (f[2] != "newest" && f[2] != "oldest") || (f[3] != "warn" && f[3] != "error") ||
        !read_int(f[4], entries) || !group)
      return false;
    map.policy = {*rule, f[2] == "newest" ? Prefer::newest : Prefer::oldest,
                  f[3] == "warn" ? OnMismatch::warn : OnMismatch::error, *group};
    map.cudnn.reserve(std::min(std::size_t(entries), left / kShortestRelease));
    return true;
  }
  // "place": a further place of the previous release (a [[cudnn]] table with several libs)
  if ((f[0] == "cudnn" || (f[0] == "place" && !map.cudnn.empty())) && f.size() == 8) {
    Installed &e = map.cudnn.emplace_back();
    e.joined = f[0] == "place";
    std::optional<std::string> lib = unescape(f[5]), module = unescape(f[6]);
    if (!f[7].empty() && !(e.source = parse_source(f[7]))) return false;
    if (!read_pos(f[1], f[2], e.pos) || !read_version(f[3], 3, e.version) ||
        !read_optional_cuda(f[4], e.cuda) || !lib || lib->empty() || !module)
      return false;
    e.lib = std::move(*lib);
    e.module = std::move(*module);
    return true;
  }
  if (const std::optional<bool> read = read_place_detail(f, map)) return *read;
  if (f[0] == "usage" && f.size() == 4) return read_usage(f, map);
  if (f[0] == "require" && f.size() == 6) {
    RequireRule &q = map.require.emplace_back();
    std::optional<std::string> match = unescape(f[3]);
    if (!read_pos(f[1], f[2], q.pos) || !match || !read_version(f[4], 1, q.cudnn) ||
        !read_optional_cuda(f[5], q.cuda))
      return false;
    q.match = std::move(*match);
    return true;
  }
  if (f[0] == "node" && f.size() == 6) return read_node(f, map);
  if (f[0] == "warning" && f.size() == 4) {
    SourcePos pos;
    std::optional<std::string> message = unescape(f[3]);
    if (!read_pos(f[1], f[2], pos) || !message) return false;
    warnings.push_back({Severity::warning, map.path, pos, std::move(*message)});
    return true;
  }
  return false;
}

}  // namespace

std::string format_map_cache(const Map &map, const std::vector<Diagnostic> &warnings,
                             const FileStamp &stamp) {
  std::string s = stamp_line(TableKind::cache, stamp);
  s.append("policy\t").append(rule_name(map.policy.rule));
  s.append(map.policy.prefer == Prefer::newest ? "\tnewest\t" : "\toldest\t");
  s.append(map.policy.on_module_mismatch == OnMismatch::warn ? "warn\t" : "error\t");
  s.append(std::to_string(map.cudnn.size())).append("\t");
  s.append(escape(map.policy.trusted_group)).append("\n");
  if (map.usage.given) {
    char sample[32];
    const auto [end, ec] = std::to_chars(sample, sample + sizeof sample, map.usage.sample);
    s.append("usage\t").append(to_string(map.usage.mode)).append("\t");
    s.append(sample, ec == std::errc() ? end : sample).append("\t" + escape(map.usage.to) + "\n");
  }
  for (const Installed &e : map.cudnn) {
    s.append((e.joined ? "place\t" : "cudnn\t") + pos_fields(e.pos) + '\t' + to_string(e.version) +
             '\t' + (e.cuda ? to_string(*e.cuda) : "") + '\t' + escape(e.lib) + '\t' +
             escape(e.module) + '\t' + (e.source ? std::string(to_string(*e.source)) : "") + '\n' +
             (!e.hand_out          ? "hold\n"
              : e.hand_out_written ? "give\n"
                                   : ""));
    if (!e.load_first.empty()) s.append("first\t" + escape(join(e.load_first, " ")) + "\n");
    if (!e.retire_after.empty()) s.append("retire\t" + e.retire_after + "\n");
  }
  for (const RequireRule &q : map.require)
    s.append("require\t" + pos_fields(q.pos) + '\t' + escape(q.match) + '\t' + to_string(q.cudnn) +
             '\t' + (q.cuda ? to_string(*q.cuda) : "") + '\n');
  for (const NodeEntry &n : map.nodes)
    s.append("node\t" + pos_fields(n.pos) + '\t' + escape(n.name) + '\t' + escape(n.gpu_arch) +
             '\t' + escape(n.driver_cuda) + '\n');
  for (const Diagnostic &d : warnings)
    if (d.severity == Severity::warning)
      s.append("warning\t" + pos_fields(d.pos) + '\t' + escape(d.message) + '\n');
  return s.append(table_end());
}

std::optional<MapLoad> parse_map_cache(std::string_view text, const std::string &map_path) {
  const std::size_t eol = text.find('\n');
  if (!parse_stamp(text, TableKind::cache) || !text.ends_with("\n" + std::string(table_end())))
    return std::nullopt;
  text.remove_suffix(table_end().size());
  MapLoad load{Map{}, {}};
  load.map->path = map_path;
  // memchr finds the separators: this runs in every job that asks for cuDNN.
  for (std::string_view rest = text.substr(eol + 1); !rest.empty();) {
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end + 1);
    Fields f;
    for (;;) {
      if (f.n == 8) return std::nullopt;
      const std::size_t tab = line.find('\t');
      f.f[f.n++] = line.substr(0, tab);
      if (tab == std::string_view::npos) break;
      line.remove_prefix(tab + 1);
    }
    if (!read_record(f, rest.size(), *load.map, load.diagnostics)) return std::nullopt;
  }
  return load;
}

std::optional<MapLoad> read_map_cache(const std::string &map_path) {
  const TableRead table = read_table(map_path, TableKind::cache);
  if (!table.text) return std::nullopt;
  return parse_map_cache(*table.text, map_path);
}

}  // namespace cudnn_compat
