// Retiring a release: its replacement (the one decision's choice for the needs its users had), the
// module systems' own stanzas, and the mark in the map that stops the shim handing it over.
#include "text.h"
#include "usage.h"

#include <algorithm>
#include <regex>

namespace cudnn_compat {
namespace {

// The release's users' needs as the decision takes them: "8.9" (or "" for any of its major), and
// the CUDA they run.
Need need_of(const Map &map, const UsageNeed &u) {
  Need n;
  n.rule = map.policy.rule;
  if (const Parsed<Version> v = parse_dotted(u.cudnn)) n.cudnn = *v;
  if (const Parsed<Version> c = parse_cuda(u.cuda)) n.cuda_major = c->major;
  return n;
}

// What a program built against the release needs, when no record says more: its x.y, on the
// CUDA it was built for.
std::vector<UsageNeed> own_need(const Installed &e) {
  const Version &v = e.version;
  return {{std::to_string(v.major) + "." + std::to_string(v.minor.value_or(0)),
           e.cuda ? std::to_string(e.cuda->major) : "", 1}};
}

std::string need_text(const UsageNeed &u, int major) {
  return (u.cudnn.empty() ? "any " + std::to_string(major) : u.cudnn) +
         (u.cuda.empty() ? "" : " on CUDA " + u.cuda);
}

std::string module_or_version(const Installed &e) {
  return e.module.empty() ? "cuDNN " + to_string(e.version) : e.module;
}

// Lua's pattern characters, escaped: Lmod matches an admin.list key with string.find.
// Lmod splits an admin.list key at every '|' before it reads the patterns: no escape keeps one in
// a name, so a '|' of the name matches any one character there.
std::string lua_pattern(std::string_view s) {
  std::string out = "^";
  for (char c : s) {
    if (c == '|') {
      out += '.';
      continue;
    }
    if (std::string_view("^$()%.[]*+-?").find(c) != std::string_view::npos) out += '%';
    out += c;
  }
  return out + "$";
}

// One Tcl word for s, whatever it holds: in braces where nothing in it can end them early, else
// every character Tcl reads specially escaped with a backslash (a name ending in '\' would escape
// the closing brace, and the modulerc of every user would no longer parse).
std::string tcl_word(const std::string &s) {
  if (s.find_first_of("{}\\\n") == std::string::npos) return "{" + s + "}";
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (std::string_view("\\{}[]$\"; \t").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string use_instead(const Retirement &r) {
  if (!r.replacement) return "no other installed release fits what its users need; ask the admins";
  return "use " + module_or_version(*r.replacement) + " (cuDNN " +
         to_string(r.replacement->version) + ") instead";
}

}  // namespace

Parsed<Retirement> plan_retirement(const Map &map, const Version &version,
                                   const std::vector<UsageNeed> &needs, const std::string &date) {
  Retirement r;
  r.date = date;
  Map rest = map;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i)
    if (same_release(map.cudnn[i].version, version)) {
      if (!r.release) r.release = &map.cudnn[i];
      rest.cudnn[i].retired = true;
      const std::string &m = map.cudnn[i].module;
      if (!m.empty() && std::ranges::find(r.modules, m) == r.modules.end()) r.modules.push_back(m);
    }
  if (!r.release)
    return Parsed<Retirement>::fail("cuDNN " + to_string(version) + " is not in " + map.path +
                                    " (`cudnn-compat map show` lists what it holds)");
  // A record that says no CUDA ran on the retiring release's: it loaded that build.
  std::vector<UsageNeed> asked = needs.empty() ? own_need(*r.release) : needs;
  for (UsageNeed &u : asked)
    if (u.cuda.empty() && r.release->cuda) u.cuda = std::to_string(r.release->cuda->major);
  const LibraryName requested{"", Version{r.release->version.major, {}, {}, {}}, false};
  // Every need's fitting releases; the replacement fits all of them if one does, else the most
  // records (needs are in order of records, most first).
  std::vector<std::vector<std::size_t>> ranked;
  for (const UsageNeed &need : asked) {
    r.needs.push_back(need_text(need, requested.version->major));
    ranked.push_back(rank(rest, need_of(map, need), requested));
  }
  for (std::size_t i : ranked.front())
    if (std::ranges::all_of(
            ranked, [&](const auto &list) { return std::ranges::find(list, i) != list.end(); })) {
      r.replacement = &map.cudnn[i];
      return {r, {}};
    }
  if (!ranked.front().empty()) r.replacement = &map.cudnn[ranked.front().front()];
  for (std::size_t k = 0; k < ranked.size(); ++k)
    if (!r.replacement ||
        std::ranges::find(ranked[k], std::size_t(r.replacement - map.cudnn.data())) ==
            ranked[k].end())
      r.unmet += (r.unmet.empty() ? "" : ", ") + r.needs[k];
  return {r, {}};
}

namespace {

// The modules of the release, joined: "cudnn/8.9, cuDNN/8.9.7-CUDA-11.2".
std::string modules_text(const Retirement &r, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < r.modules.size(); ++i)
    out += (i ? std::string(separator) : "") + r.modules[i];
  return out;
}

}  // namespace

// One entry for every module of the release (Lmod reads "A|B: message" as both's).
std::string lmod_admin_entry(const Retirement &r) {
  std::string keys;
  for (const std::string &m : r.modules) keys += (keys.empty() ? "" : "|") + lua_pattern(m);
  return "# cudnn-compat retire " + to_string(r.release->version) + "\n" + keys + ": cuDNN " +
         to_string(r.release->version) + " (" + modules_text(r, ", ") + ") retires on " + r.date +
         ": from that day on jobs are no longer handed it; " + use_instead(r) + ".\n";
}

std::string envmodules_stanza(const Retirement &r) {
  const std::string names = modules_text(r, ", "), release = to_string(r.release->version);
  std::string specs;
  for (const std::string &m : r.modules) specs += " " + tcl_word(m);
  const std::string nearly =
      "cuDNN " + release + " (" + names + ") retires on " + r.date + "; " + use_instead(r);
  const std::string gone =
      "cuDNN " + release + " (" + names + ") retired on " + r.date + "; " + use_instead(r);
  // module-forbid came with Environment Modules 4.6: an older one (or another reader of the file)
  // skips the stanza instead of refusing the whole file. Both take several module specs.
  return "# cudnn-compat retire " + release + " (begin)\n" +
         "if {[info commands module-forbid] ne {}} {\n    module-forbid --after " + r.date +
         " --nearly-message " + tcl_word(nearly) + " --message " + tcl_word(gone) + specs +
         "\n}\n" + "# module-warn: Environment Modules 5.5 and later, until the day\n" +
         "if {[info commands module-warn] ne {}} {\n    module-warn --before " + r.date +
         " --message " + tcl_word(nearly) + specs + "\n}\n" + "# cudnn-compat retire " + release +
         " (end)\n";
}

std::optional<std::string> mark_in_map_text(const std::string &text, const Installed &release,
                                            const std::string &date) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  const std::size_t header = std::size_t(release.pos.line) - 1;
  static const std::regex table_header(R"(^\s*\[\[\s*cudnn\s*\]\]\s*(#.*)?$)");
  if (release.pos.line < 1 || header >= lines.size() ||
      !std::regex_match(lines[header], table_header))
    return std::nullopt;
  static const std::regex key(R"(^\s*retire_after\s*=.*$)"), next_table(R"(^\s*\[.*$)");
  const std::string line = "retire_after = \"" + date + "\"";
  std::size_t i = header + 1;
  for (; i < lines.size() && !std::regex_match(lines[i], next_table); ++i)
    if (std::regex_match(lines[i], key)) {
      lines[i] = line;
      break;
    }
  if (i == lines.size() || std::regex_match(lines[i], next_table))
    lines.insert(lines.begin() + std::ptrdiff_t(header) + 1, line);
  std::string out;
  for (std::size_t k = 0; k < lines.size(); ++k)
    out += lines[k] + (k + 1 < lines.size() ? "\n" : "");
  return text.ends_with('\n') || text.empty() ? out + "\n" : out;
}

// modulecmd.tcl (readModuleContent, 5.2): the cookie is the first word of the first 32 bytes, '#'s
// at its end trimmed; it must start "#%Module", and what follows is a version the running
// Environment Modules must not be older than (versioncmp, Tcl's dictionary order), else the whole
// file is refused. Versions are compared as dotted numbers; anything else after the cookie is
// refused here too (Tcl would order it after every version, so refuse it as newer).
std::string modulerc_cookie_problem(std::string_view text, std::string_view modules_version) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 33));
  const std::size_t end = head.find_first_of(" \t\r\n\v\f");
  std::string_view word = head.substr(0, end);
  if (!word.starts_with("#%Module"))
    return "does not start with #%Module: Environment Modules refuses every command while it "
           "names such a file; add #%Module as its first line";
  while (word.size() > 8 && word.back() == '#') word.remove_suffix(1);
  const std::string_view version = word.substr(8);
  if (version.empty()) return {};
  static const std::regex dotted(R"(\d+(\.\d+)*)");
  const auto numbers = [](std::string_view v) {
    std::vector<long> n;
    for (std::string_view part : split(v, '.')) n.push_back(std::stol(std::string(part)));
    return n;
  };
  std::string refused =
      "starts with " + std::string(word) + ": Environment Modules " + std::string(modules_version) +
      " refuses a file that asks for a newer version (\"Modulefile "
      "requires at least Modules version " +
      std::string(version) + "\") and with it every command; make the first line #%Module";
  if (!std::regex_match(std::string(version), dotted) ||
      !std::regex_match(std::string(modules_version), dotted))
    return refused;
  std::vector<long> have = numbers(modules_version), want = numbers(version);
  // Tcl's dictionary order: number by number; a version that is a prefix of another is older.
  return std::lexicographical_compare(have.begin(), have.end(), want.begin(), want.end())
             ? refused
             : std::string();
}

}  // namespace cudnn_compat
