// The version map, schema 1: parse and check it with source positions, print it normalised.
#include "map.h"
#include "read_file.h"
#include "site_contract.h"
#include "text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

namespace cudnn_compat {
namespace {

SourcePos pos_of(const toml::source_region &r) {
  return {int(r.begin.line), int(r.begin.column)};
}

// Where a string that starts at text[i] (its quote) ends: the index of its last quote, or the
// text's end. Basic strings ("...", """...""") know backslash escapes; literal ones do not.
std::size_t string_end(std::string_view text, std::size_t i, SourcePos &at) {
  const char quote = text[i];
  const bool triple = text.substr(i, 3) == std::string(3, quote);
  const std::string_view close = triple ? text.substr(i, 3) : text.substr(i, 1);
  for (std::size_t j = i + close.size(); j < text.size(); ++j) {
    if (text[j] == '\n') ++at.line, at.column = 0;
    if (quote == '"' && text[j] == '\\') {
      ++j;
    } else if (text.substr(j, close.size()) == close) {
      return j + close.size() - 1;
    } else if (!triple && text[j] == '\n') {
      return j;
    }
  }
  return text.size();
}

// toml++ reads nested arrays, inline tables and dotted keys by recursion, a frame a level: a map
// nested a thousand deep ran it off any stack (`ulimit -s 256`), fifty deep off a 64 KiB one (an
// outside tester's finding; then another's, with `a.a.a...` keys). A map nests two or three deep;
// the first bracket or dot past kMaxNesting is named.
std::optional<SourcePos> nested_too_deep(std::string_view text) {
  constexpr int kMaxNesting = 16;
  int depth = 0, dots = 0;  // dots: of the key being read (reset where a value or a key starts)
  SourcePos at{1, 0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    ++at.column;
    const char c = text[i];
    if (c == '\n') {
      ++at.line, at.column = 0, dots = 0;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = string_end(text, i, at);
      at.column += int(end - i);
      i = end;
    } else if (c == '=' || c == ',') {
      dots = 0;
    } else if (c == '.') {
      if (depth + ++dots > kMaxNesting) return at;
    } else if (c == '[' || c == '{') {
      dots = 0;
      if (++depth > kMaxNesting) return at;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string_view type_name(const toml::node &n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    default:
      return "a date or time";
  }
}

// Collects diagnostics while walking the document.
struct Reader {
  std::string file;
  std::vector<Diagnostic> out;

  void error(SourcePos p, std::string msg) {
    out.push_back({Severity::error, file, p, std::move(msg)});
  }
  void warn(SourcePos p, std::string msg) {
    out.push_back({Severity::warning, file, p, std::move(msg)});
  }

  // A string value at key, or nullopt with a diagnostic when it is present but not a string,
  // or required and missing.
  std::optional<std::string> string_at(const toml::table &t, std::string_view key,
                                       std::string_view where, bool required) {
    const toml::node *n = t.get(key);
    if (!n) {
      if (required)
        error(pos_of(t.source()),
              "missing key '" + std::string(key) + "' in " + std::string(where));
      return std::nullopt;
    }
    if (const auto *s = n->as_string()) return s->get();
    error(pos_of(n->source()), quoted(key) + " in " + std::string(where) +
                                   " must be a string (in quotes), not " +
                                   std::string(type_name(*n)));
    return std::nullopt;
  }

  void unknown_keys(const toml::table &t, std::string_view where,
                    std::initializer_list<std::string_view> known) {
    for (const auto &entry : t) {
      const toml::key &key = entry.first;
      if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
      std::string list;
      for (std::string_view k : known) list.append(list.empty() ? "" : ", ").append(k);
      warn(pos_of(key.source()), std::string(kUnknownKey) + std::string(key.str()) + "' in " +
                                     std::string(where) + " is ignored (known: " + list + ")");
    }
  }

  // A version string at key, read by parse (parse_dotted or parse_cuda); `full` asks for x.y.z.
  std::optional<Version> version_at(const toml::table &t, std::string_view key,
                                    std::string_view where, bool required,
                                    Parsed<Version> (*parse)(std::string_view), bool full,
                                    std::string_view expected) {
    const std::optional<std::string> s = string_at(t, key, where, required);
    if (!s) return std::nullopt;
    const Parsed<Version> v = parse(*s);
    if (v && (!full || v->patch)) return *v;
    error(pos_of(t.get(key)->source()), quoted(key) + " in " + std::string(where) + " is \"" +
                                            printable(*s) + "\"; expected " +
                                            std::string(expected));
    return std::nullopt;
  }

  std::optional<Version> cuda_at(const toml::table &t, std::string_view where) {
    return version_at(t, "cuda", where, false, parse_cuda, false,
                      "a CUDA version such as \"12\" or \"12.2\"");
  }

  // A [policy] key whose string names one of two choices.
  template <class E>
  void choice_at(const toml::table &t, std::string_view key,
                 const std::pair<std::string_view, E> (&choices)[2], E &chosen) {
    const std::optional<std::string> s = string_at(t, key, "[policy]", false);
    if (!s) return;
    for (const auto &[name, value] : choices)
      if (*s == name) {
        chosen = value;
        return;
      }
    error(pos_of(t.get(key)->source()), std::string(key) + " is \"" + *s + "\"; expected \"" +
                                            std::string(choices[0].first) + "\" or \"" +
                                            std::string(choices[1].first) + "\"");
  }

  void read_policy(const toml::node &n, Policy &policy) {
    const toml::table *t = n.as_table();
    if (!t) return error(pos_of(n.source()), "'policy' must be a table: [policy]");
    unknown_keys(*t, "[policy]", {"rule", "prefer", "on_module_mismatch", "trusted_group"});
    if (const std::optional<std::string> r = string_at(*t, "rule", "[policy]", false)) {
      if (const std::optional<Rule> rule = parse_rule(*r))
        policy.rule = *rule;
      else {
        std::string names;
        for (const RuleInfo &i : all_rules())
          names += (names.empty() ? "" : ", ") + std::string(i.name);
        error(pos_of(t->get("rule")->source()),
              "unknown rule \"" + *r + "\"; expected one of " + names);
      }
    }
    choice_at(*t, "prefer", {{"newest", Prefer::newest}, {"oldest", Prefer::oldest}},
              policy.prefer);
    choice_at(*t, "on_module_mismatch", {{"warn", OnMismatch::warn}, {"error", OnMismatch::error}},
              policy.on_module_mismatch);
    read_trusted_group(*t, policy);
  }

  // A group name as groupadd accepts it: the tables carry its id, the hooks' tables a line each.
  void read_trusted_group(const toml::table &t, Policy &policy) {
    const std::optional<std::string> g = string_at(t, "trusted_group", "[policy]", false);
    if (!g) return;
    const bool name = !g->empty() && std::all_of(g->begin(), g->end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
    if (!name)
      return error(pos_of(t.get("trusted_group")->source()),
                   "trusted_group is \"" + *g + "\"; expected a group's name, e.g. \"hpcadmin\"");
    policy.trusted_group = *g;
  }

  // Visits each table of an array of tables ([[cudnn]], [[require]]).
  template <class F>
  void each_table(const toml::node &n, std::string_view name, F &&visit) {
    const toml::array *a = n.as_array();
    if (!a)
      return error(pos_of(n.source()),
                   quoted(name) + " must be an array of tables: [[" + std::string(name) + "]]");
    for (const toml::node &e : *a) {
      if (const toml::table *t = e.as_table())
        visit(*t);
      else
        error(pos_of(e.source()),
              "each '" + std::string(name) + "' must be a table: [[" + std::string(name) + "]]");
    }
  }

  // A string, or a non-empty list of strings (lib and module of a release with several places).
  std::optional<std::vector<std::string>> strings_at(const toml::table &t, std::string_view key,
                                                     std::string_view where, bool required) {
    const toml::array *a = t.get(key) ? t.get(key)->as_array() : nullptr;
    if (!a) {
      std::optional<std::string> s = string_at(t, key, where, required);
      return s ? std::optional(std::vector<std::string>{std::move(*s)}) : std::nullopt;
    }
    std::vector<std::string> items;
    for (const toml::node &n : *a)
      if (const auto *s = n.as_string()) items.push_back(s->get());
    if (items.empty() || items.size() != a->size()) {
      error(pos_of(a->source()), quoted(key) + " in " + std::string(where) +
                                     " must be a string or a non-empty list of strings");
      return std::nullopt;
    }
    return items;
  }

  // [usage]: mode, to, sample (issue 21).
  void read_usage(const toml::node &n, UsageSettings &u) {
    constexpr std::string_view where = "[usage]";
    const toml::table *t = n.as_table();
    if (!t) return error(pos_of(n.source()), "'usage' must be a table: [usage]");
    u.given = true;
    unknown_keys(*t, where, {"mode", "to", "sample"});
    if (const std::optional<std::string> m = string_at(*t, "mode", where, false)) {
      if (const std::optional<UsageMode> mode = parse_usage_mode(*m))
        u.mode = *mode;
      else
        error(pos_of(t->get("mode")->source()),
              "mode in [usage] is \"" + *m + "\"; expected \"off\", \"record\" or \"report-only\"");
    }
    if (const std::optional<std::string> to = string_at(*t, "to", where, false)) {
      if (*to == "syslog" || (to->starts_with('/') && !has_control(*to)))
        u.to = *to;
      else
        error(pos_of(t->get("to")->source()),
              "to in [usage] is \"" + *to +
                  "\"; expected \"syslog\" or the absolute path of a spool directory");
    }
    if (const toml::node *s = t->get("sample")) {
      const std::optional<double> v = s->is_integer()
                                          ? std::optional<double>(double(*s->value<std::int64_t>()))
                                          : s->value<double>();
      if (v && *v >= 0 && *v <= 1)
        u.sample = *v;
      else
        error(pos_of(s->source()),
              "sample in [usage] must be a fraction from 0 to 1 (0.1: one "
              "process in ten records), not " +
                  std::string(v ? std::to_string(*v) : type_name(*s)));
    }
  }

  // retire_after = "YYYY-MM-DD" or a TOML date (2025-06-30): "" when absent or wrong.
  std::string retire_at(const toml::table &t, std::string_view where) {
    const toml::node *n = t.get("retire_after");
    if (!n) return "";
    std::string text;
    if (const auto *d = n->as_date()) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", int(d->get().year), int(d->get().month),
                    int(d->get().day));
      text = buf;
    } else if (const auto *s = n->as_string()) {
      text = s->get();
    }
    if (day_start(text)) return text;
    error(pos_of(n->source()), "retire_after in " + std::string(where) +
                                   " must be a date, \"YYYY-MM-DD\" (the first day the shim no "
                                   "longer hands the release over)");
    return "";
  }

  // hand_out: one boolean for every place, or a list of one per place; nullopt when absent (or
  // wrong, with a diagnostic: then `bad` is set).
  std::optional<std::vector<bool>> hand_out_at(const toml::table &t, std::size_t places,
                                               bool &bad) {
    const toml::node *n = t.get("hand_out");
    if (!n) return std::nullopt;
    if (const auto *b = n->as_boolean()) return std::vector<bool>(places, b->get());
    std::vector<bool> each;
    if (const toml::array *a = n->as_array())
      for (const toml::node &item : *a)
        if (const auto *b = item.as_boolean()) each.push_back(b->get());
    if (!each.empty() && each.size() == places && n->as_array()->size() == places) return each;
    bad = true;
    error(pos_of(n->source()),
          "'hand_out' in [[cudnn]] must be true or false, or a list of one per place (" +
              std::to_string(places) + " here: one per lib or module)");
    return std::nullopt;
  }

  static bool has_control(const std::string &s) {
    return std::ranges::any_of(s, [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; });
  }

  // Where the string at key, or a string of the list there, holds a control character.
  static std::optional<SourcePos> control_character_at(const toml::table &t, std::string_view key) {
    const auto odd = [](const toml::node &n) {
      const toml::value<std::string> *s = n.as_string();
      return s && has_control(s->get());
    };
    const toml::node *n = t.get(key);
    if (!n) return std::nullopt;
    if (const toml::array *a = n->as_array()) {
      for (const toml::node &e : *a)
        if (odd(e)) return pos_of(e.source());
      return std::nullopt;
    }
    return odd(*n) ? std::optional(pos_of(n->source())) : std::nullopt;
  }

  void read_cudnn(const toml::table &t, std::vector<Installed> &entries) {
    constexpr std::string_view where = "[[cudnn]]";
    unknown_keys(
        t, where,
        {"version", "lib", "cuda", "module", "source", "hand_out", "retire_after", "load_first"});
    const std::optional<Version> v =
        version_at(t, "version", where, true, parse_dotted, true,
                   "x.y.z or x.y.z.b, e.g. \"5.1.10\" (the exact release)");
    const std::optional<std::vector<std::string>> libs = strings_at(t, "lib", where, true);
    const std::optional<Version> cuda = cuda_at(t, where);
    const std::vector<std::string> modules =
        strings_at(t, "module", where, false).value_or(std::vector<std::string>{});
    const bool empty_lib = libs && std::ranges::any_of(*libs, &std::string::empty);
    if (empty_lib)
      error(pos_of(t.get("lib")->source()),
            "'lib' in [[cudnn]] is empty; expected the directory holding libcudnn.so.<major>");
    // The tables derived from the map (the hooks', the shim's) are lines of tab-separated fields:
    // a line break in a directory or a module would cut a row or forge one. No module system
    // names a module so, and no cuDNN install lives in such a directory.
    const std::optional<SourcePos> odd_lib = control_character_at(t, "lib");
    if (odd_lib)
      error(*odd_lib,
            "'lib' in [[cudnn]] holds a control character (a tab or a line break); expected the "
            "directory holding libcudnn.so.<major>, e.g. \"/opt/cudnn/8.9.7/lib64\"");
    const std::optional<SourcePos> odd_module = control_character_at(t, "module");
    const std::string retire_after = retire_at(t, where);
    if (odd_module)
      error(*odd_module,
            "'module' in [[cudnn]] holds a control character (a tab or a line break); expected "
            "the name `module load` takes, e.g. \"cudnn/8.9.7\"");
    const std::size_t places = std::max(libs ? libs->size() : 1, modules.size());
    bool bad_hand_out = false;
    const std::optional<std::vector<bool>> hand_out = hand_out_at(t, places, bad_hand_out);
    const std::optional<std::vector<Source>> sources = sources_at(t, places);
    const std::optional<std::vector<std::string>> parents = load_first_at(t, places);
    if (!v || !libs || empty_lib || odd_lib || odd_module || bad_hand_out || !sources || !parents)
      return;
    // The n-th module adds the n-th directory; a shorter lib list repeats its last directory.
    for (std::size_t k = 0; k < places; ++k) {
      const std::string module = k < modules.size() ? modules[k] : "";
      Installed &e = entries.emplace_back(
          Installed{*v, (*libs)[std::min(k, libs->size() - 1)], cuda, module, pos_of(t.source()),
                    k > 0, hand_out ? (*hand_out)[k] : !hidden_module(module)});
      e.hand_out_written = hand_out.has_value();
      if (k < sources->size()) e.source = (*sources)[k];
      if (k < parents->size())
        for (std::string_view m : split((*parents)[k], ' '))
          if (!m.empty()) e.load_first.emplace_back(m);
      e.retire_after = retire_after;
    }
  }

  // A key of [[cudnn]] said per place: a string is every place's (as `cuda` and `hand_out` are),
  // a list the n-th place's, one per place. A list of another length is an error: a shorter one
  // left the rest to their default, and load_first = ["gcc/12.2.0"] for two modules went to the
  // first where the admin meant the second (admin tester helper 115: its advised swap then failed
  // in Lmod). Empty when the key is absent.
  std::optional<std::vector<std::string>> per_place(const toml::table &t, std::string_view key,
                                                    std::size_t places) {
    const toml::node *n = t.get(key);
    if (!n) return std::vector<std::string>{};
    std::optional<std::vector<std::string>> each = strings_at(t, key, "[[cudnn]]", false);
    if (!each) return std::nullopt;
    if (!n->is_array()) return std::vector<std::string>(places, each->front());
    if (each->size() != places) {
      error(pos_of(n->source()),
            quoted(key) + " in [[cudnn]] lists " + std::to_string(each->size()) + " for " +
                std::to_string(places) +
                " places (one per lib or module); expected one per place, \"\" for a place "
                "that has none (or one string for all)");
      return std::nullopt;
    }
    return each;
  }

  // `load_first`: the modules to load before the module ("gcc/12.2.0", a space between several),
  // per place.
  std::optional<std::vector<std::string>> load_first_at(const toml::table &t, std::size_t places) {
    std::optional<std::vector<std::string>> each = per_place(t, "load_first", places);
    if (!each) return std::nullopt;
    if (const std::optional<SourcePos> odd = control_character_at(t, "load_first")) {
      error(*odd,
            "'load_first' in [[cudnn]] holds a control character (a tab or a line break); "
            "expected the modules to load first, a space between two, e.g. "
            "\"gcc/12.2.0 openmpi/4.1.5\"");
      return std::nullopt;
    }
    return each;
  }

  // `source`, per place (schema 1 maps without it read as before: every place gets its
  // default_source()).
  std::optional<std::vector<Source>> sources_at(const toml::table &t, std::size_t places) {
    const std::optional<std::vector<std::string>> names = per_place(t, "source", places);
    if (!names) return std::nullopt;
    std::vector<Source> sources;
    for (const std::string &n : *names) {
      const std::optional<Source> s = parse_source(n);
      if (!s) {
        error(pos_of(t.get("source")->source()),
              "'source' in [[cudnn]] is \"" + n +
                  "\"; expected \"module\", \"wheel\", \"conda\", \"system\" or \"user\"");
        return std::nullopt;
      }
      sources.push_back(*s);
    }
    return sources;
  }

  void read_require(const toml::table &t, std::vector<RequireRule> &rules) {
    constexpr std::string_view where = "[[require]]";
    unknown_keys(t, where, {"match", "cudnn", "cuda"});
    const std::optional<std::string> match = string_at(t, "match", where, true);
    const std::optional<Version> v =
        version_at(t, "cudnn", where, true, parse_required, false,
                   "the cuDNN the program was built with, e.g. \"5.1\", \"5.1.3\" or \"9\" "
                   "(any 9.x)");
    const std::optional<Version> cuda = cuda_at(t, where);
    if (match && v) rules.push_back({*match, *v, cuda, pos_of(t.source())});
  }

  void read_node(const toml::table &t, std::vector<NodeEntry> &nodes) {
    constexpr std::string_view where = "[[node]]";
    unknown_keys(t, where, {"name", "gpu_arch", "driver_cuda"});
    const std::optional<std::string> name = string_at(t, "name", where, true);
    const std::optional<std::string> gpu = string_at(t, "gpu_arch", where, false);
    const std::optional<std::string> driver = string_at(t, "driver_cuda", where, false);
    if (!name) return;
    constexpr std::string_view allowed =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-*?";
    if (name->empty() || name->find_first_not_of(allowed) != std::string::npos) {
      error(pos_of(t.get("name")->source()),
            "'name' in [[node]] is \"" + *name +
                "\"; expected a node name, or a glob of * and ? (letters, digits, '.', '_', '-')");
      return;
    }
    if (gpu.value_or("").empty() && driver.value_or("").empty()) {
      error(pos_of(t.source()),
            "[[node]] \"" + *name +
                "\" says nothing; give gpu_arch = \"7.0\" (its GPUs' compute "
                "capabilities) and driver_cuda = \"12.2\" (the CUDA its driver runs)");
      return;
    }
    nodes.push_back({*name, gpu.value_or(""), driver.value_or(""), pos_of(t.source())});
  }

  void duplicates(const std::vector<Installed> &cudnn) {
    for (const auto &[i, first] : repeated_releases(cudnn)) {
      const Installed &e = cudnn[i];
      const std::string cuda = e.cuda ? to_string(*e.cuda) : "";
      error(e.pos, "cuDNN " + to_string(e.version) + (cuda.empty() ? "" : " for CUDA " + cuda) +
                       " is listed twice (first at line " + std::to_string(cudnn[first].pos.line) +
                       "); list all its directories and modules in one table (lib = [...], module "
                       "= [...]), or "
                       "set 'cuda' to tell the builds apart");
    }
    for (const auto &[i, first] : modules_on_two_releases(cudnn)) {
      const Installed &e = cudnn[i], &other = cudnn[first];
      error(e.pos, "module " + quoted(std::string_view(e.module)) + " is listed for cuDNN " +
                       to_string(e.version) + (e.cuda ? " for CUDA " + to_string(*e.cuda) : "") +
                       " here and for cuDNN " + to_string(other.version) +
                       (other.cuda ? " for CUDA " + to_string(*other.cuda) : "") + " at line " +
                       std::to_string(other.pos.line) +
                       "; a module loads one release: give each release the module that loads "
                       "it, or remove the entry whose directory the module does not add");
    }
  }
};

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + '"';
}

// The hand_out line of the table of places [from, to): none when every place is handed out, none
// is a hidden module (whose default is false) and the map never said so itself; else written out,
// so an admin reading the map sees which places are withheld, and a hand_out = true the admin
// wrote stays the admin's word for the next scan --merge (a module hidden by the module system's
// rc file has no hidden name). One boolean when they agree, else one per place.
std::string format_hand_out(const std::vector<Installed> &cudnn, std::size_t from, std::size_t to) {
  bool plain = true, same = true;
  std::string list;
  for (std::size_t k = from; k < to; ++k) {
    const Installed &e = cudnn[k];
    plain = plain && e.hand_out && !hidden_module(e.module) && !e.hand_out_written;
    same = same && e.hand_out == cudnn[from].hand_out;
    list += (k == from ? "[" : ", ") + std::string(e.hand_out ? "true" : "false");
  }
  if (plain) return "";
  return "hand_out = " +
         (same ? std::string(cudnn[from].hand_out ? "true" : "false") : list + "]") + "\n";
}

// One string as itself, several as a TOML list.
std::string quote_list(const std::vector<std::string> &items) {
  if (items.size() == 1) return quote(items[0]);
  std::string s;
  for (const std::string &i : items) s += (s.empty() ? "[" : ", ") + quote(i);
  return s + "]";
}

}  // namespace

namespace {
using ReleaseKey = std::pair<std::string, std::string>;  // version, CUDA ("" when unknown)
ReleaseKey release_key(const Installed &e) {
  return {to_string(e.version), e.cuda ? to_string(*e.cuda) : ""};
}
}  // namespace

// One pass: a site map with thousands of releases is read by every job that asks for cuDNN.
std::vector<std::pair<std::size_t, std::size_t>> repeated_releases(
    const std::vector<Installed> &cudnn) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::map<ReleaseKey, std::pair<std::size_t, std::size_t>> first;  // -> first place, its table
  std::size_t table = 0;
  for (std::size_t i = 0; i < cudnn.size(); ++i) {
    if (!cudnn[i].joined) table = i;
    const auto [it, fresh] = first.try_emplace(release_key(cudnn[i]), i, table);
    if (!fresh && it->second.second != table) out.push_back({i, it->second.first});
  }
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> modules_on_two_releases(
    const std::vector<Installed> &cudnn) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  // A module name under two parents of an Lmod hierarchy (cudnn/5 under gcc/11.3.0 and under
  // gcc/12.2.0) is two modules: the loaded parents tell which one is loaded.
  std::map<std::pair<std::string_view, std::vector<std::string>>, std::size_t> first;
  for (std::size_t i = 0; i < cudnn.size(); ++i) {
    if (cudnn[i].module.empty()) continue;
    const auto [it, fresh] =
        first.try_emplace(std::pair{std::string_view(cudnn[i].module), cudnn[i].load_first}, i);
    if (!fresh && release_key(cudnn[it->second]) != release_key(cudnn[i]))
      out.push_back({i, it->second});
  }
  return out;
}

Source source_of(const Installed &e) {
  if (e.source) return *e.source;
  if (!e.module.empty()) return Source::module;
  return is_wheel_dir(e.lib) ? Source::wheel : Source::system;
}

std::size_t release_count(const Map &map) {
  return std::size_t(std::count_if(map.cudnn.begin(), map.cudnn.end(),
                                   [](const Installed &e) { return !e.joined; }));
}

void group_releases(std::vector<Installed> &cudnn) {
  std::map<ReleaseKey, std::size_t> group_of;
  std::vector<std::vector<Installed>> groups;
  for (Installed &e : cudnn) {
    const auto [it, fresh] = group_of.try_emplace(release_key(e), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(std::move(e));
  }
  cudnn.clear();
  for (std::vector<Installed> &places : groups)
    for (std::size_t k = 0; k < places.size(); ++k) {
      places[k].joined = k > 0;
      cudnn.push_back(std::move(places[k]));
    }
}

std::string to_string(const Diagnostic &d) {
  std::string s = d.file;
  if (d.pos.line > 0) s += ':' + std::to_string(d.pos.line) + ':' + std::to_string(d.pos.column);
  return s + (d.severity == Severity::error ? ": error: " : ": warning: ") + d.message;
}

std::string why_invalid(const std::vector<Diagnostic> &diagnostics, const std::string &path) {
  const auto error = std::find_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic &d) {
    return d.severity == Severity::error;
  });
  return error != diagnostics.end() ? to_string(*error) : path + " is invalid";
}

MapLoad parse_map(std::string_view text, const std::string &path) {
  Reader r{path, {}};
  if (const std::optional<SourcePos> deep = nested_too_deep(text)) {
    r.error(
        *deep,
        "nested more than 16 deep (arrays, inline tables, dotted keys); a map nests two or three");
    return {std::nullopt, r.out};
  }
  toml::parse_result doc = toml::parse(text, path);
  if (!doc) {
    const toml::parse_error &e = doc.error();
    r.error(pos_of(e.source()), "not valid TOML: " + std::string(e.description()));
    return {std::nullopt, r.out};
  }
  const toml::table &root = doc.table();
  Map map;
  map.path = path;

  r.unknown_keys(root, "the top level", {"schema", "policy", "usage", "cudnn", "require", "node"});
  if (const toml::node *s = root.get("schema")) {
    const std::optional<std::int64_t> n = s->value<std::int64_t>();
    if (!s->is_integer())
      r.error(pos_of(s->source()),
              "schema must be the integer 1, not " + std::string(type_name(*s)));
    else if (n != 1)
      r.error(pos_of(s->source()),
              "unknown schema " + std::to_string(*n) +
                  "; this cudnn-compat reads schema 1 (is the map newer than the tool?)");
  } else {
    r.error({1, 1}, "missing 'schema = 1' at the top of the map");
  }
  if (const toml::node *p = root.get("policy")) r.read_policy(*p, map.policy);
  if (const toml::node *u = root.get("usage")) r.read_usage(*u, map.usage);
  if (const toml::node *c = root.get("cudnn"))
    r.each_table(*c, "cudnn", [&](const toml::table &t) { r.read_cudnn(t, map.cudnn); });
  if (const toml::node *q = root.get("require"))
    r.each_table(*q, "require", [&](const toml::table &t) { r.read_require(t, map.require); });
  if (const toml::node *n = root.get("node"))
    r.each_table(*n, "node", [&](const toml::table &t) { r.read_node(t, map.nodes); });
  r.duplicates(map.cudnn);

  for (const Diagnostic &d : r.out)
    if (d.severity == Severity::error) return {std::nullopt, r.out};
  return {std::move(map), r.out};
}

namespace {

MapLoad refused(const std::string &path, std::string why) {
  return {std::nullopt, {{Severity::error, path, {}, std::move(why)}}};
}

MapLoad read_map_text(const std::string &path) {
  // Opened first and judged by what was opened: a check by name and an open after it can meet
  // two different files. O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return refused(path, std::string("cannot read the map: ") + std::strerror(errno));
  struct stat st {};
  std::string why;
  if (fstat(fd, &st) != 0)
    why = std::string("cannot read the map: ") + std::strerror(errno);
  else if (S_ISDIR(st.st_mode))
    why = "is a directory; expected a map.toml file";
  else if (!S_ISREG(st.st_mode))  // a FIFO or a device would block every job that reads it
    why = "is not a regular file; expected a map.toml file";
  else if (st.st_size > SITE_FILE_MAX)
    why = "is " + std::to_string(st.st_size) + " bytes; a map is at most " +
          std::to_string(SITE_FILE_MAX) + " (16 MiB): is it the map?";
  std::string text;
  if (why.empty()) switch (read_to_end(fd, text, SITE_FILE_MAX)) {
      case ReadEnd::done:
        break;
      case ReadEnd::failed:
        why = std::string("cannot read the map: ") + std::strerror(errno);
        break;
      case ReadEnd::too_long:
        why = "grew past " + std::to_string(SITE_FILE_MAX) + " bytes (16 MiB) while it was read";
    }
  close(fd);
  if (!why.empty()) return refused(path, why);
  return parse_map(text, path);
}

// Which releases have retired is the clock's word, read as the map is.
MapLoad retire_now(MapLoad load) {
  if (load.map) mark_retired(*load.map, std::int64_t(std::time(nullptr)));
  return load;
}

}  // namespace

MapLoad load_map(const std::string &path) {
  // A cache read_table believes was made from this very map, trusted under the rule the map's
  // stamp names.
  if (std::optional<MapLoad> cached = read_map_cache(path)) return retire_now(std::move(*cached));
  MapLoad load = read_map_text(path);
  if (std::optional<std::string> why = map_trust_problem(path, load.map ? &*load.map : nullptr))
    return refused(path, *why);
  return retire_now(std::move(load));
}

MapLoad read_map_file(const std::string &path) {
  // Everything else the file says is still reported, for the admin who validates it.
  MapLoad load = retire_now(read_map_text(path));
  if (std::optional<std::string> why = map_trust_problem(path, load.map ? &*load.map : nullptr)) {
    load.map.reset();
    load.diagnostics.insert(load.diagnostics.begin(), refused(path, *why).diagnostics.front());
  }
  return load;
}

std::string format_map(const Map &map) {
  std::string s = "schema = 1\n\n[policy]\n";
  s += "rule = " + quote(rule_name(map.policy.rule)) + "\n";
  s += std::string("prefer = ") +
       (map.policy.prefer == Prefer::newest ? "\"newest\"" : "\"oldest\"") + "\n";
  s += std::string("on_module_mismatch = ") +
       (map.policy.on_module_mismatch == OnMismatch::warn ? "\"warn\"" : "\"error\"") + "\n";
  if (!map.policy.trusted_group.empty())
    s += "trusted_group = " + quote(map.policy.trusted_group) + "\n";
  if (map.usage.given) {
    char sample[32];
    std::snprintf(sample, sizeof sample, "%g", map.usage.sample);
    s += "\n[usage]\nmode = " + quote(to_string(map.usage.mode)) + "\nto = " + quote(map.usage.to) +
         "\nsample = " +
         (std::string(sample).find_first_of(".e") == std::string::npos ? std::string(sample) + ".0"
                                                                       : std::string(sample)) +
         "\n";
  }
  for (std::size_t i = 0, end = 0; i < map.cudnn.size(); i = end) {
    const Installed &e = map.cudnn[i];
    std::vector<std::string> libs, modules, sources, parents;
    bool defaults = true;  // every place's source is the one it has without `source`
    for (end = i; end < map.cudnn.size() && (end == i || map.cudnn[end].joined); ++end) {
      Installed place = map.cudnn[end];
      libs.push_back(place.lib);
      modules.push_back(place.module);
      parents.push_back(join(place.load_first, " "));
      sources.emplace_back(to_string(source_of(place)));
      const Source written = source_of(place);
      place.source.reset();
      defaults = defaults && written == source_of(place);
    }
    while (!modules.empty() && modules.back().empty()) modules.pop_back();
    // One string when every module has the same parents; else one per module, none left out.
    if (std::all_of(parents.begin(), parents.end(),
                    [&](const std::string &p) { return p == parents.front(); }))
      parents.resize(parents.front().empty() ? 0 : 1);
    s += "\n[[cudnn]]\nversion = " + quote(to_string(e.version)) + "\nlib = " + quote_list(libs) +
         "\n";
    if (e.cuda) s += "cuda = " + quote(to_string(*e.cuda)) + "\n";
    if (!modules.empty()) s += "module = " + quote_list(modules) + "\n";
    if (!defaults) s += "source = " + quote_list(sources) + "\n";
    if (!parents.empty()) s += "load_first = " + quote_list(parents) + "\n";
    s += format_hand_out(map.cudnn, i, end);
    if (!e.retire_after.empty()) s += "retire_after = " + quote(e.retire_after) + "\n";
  }
  for (const RequireRule &q : map.require) {
    s += "\n[[require]]\nmatch = " + quote(q.match) + "\ncudnn = " + quote(to_string(q.cudnn)) +
         "\n";
    if (q.cuda) s += "cuda = " + quote(to_string(*q.cuda)) + "\n";
  }
  for (const NodeEntry &n : map.nodes) {
    s += "\n[[node]]\nname = " + quote(n.name) + "\n";
    if (!n.gpu_arch.empty()) s += "gpu_arch = " + quote(n.gpu_arch) + "\n";
    if (!n.driver_cuda.empty()) s += "driver_cuda = " + quote(n.driver_cuda) + "\n";
  }
  return s;
}

}  // namespace cudnn_compat
