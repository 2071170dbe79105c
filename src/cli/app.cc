// The cudnn-compat application as CLI11 sees it: global options, every subcommand, and the text
// of the top-level help. The program (main.cc) parses with it; the documentation generator
// (docgen.cc) renders the same application as the man page and the shell completions, so the
// three cannot drift apart.
#include "cli.h"
#include "text.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

namespace cudnn_compat::cli {

namespace {

// "  NAME                  text", the text filled to 92 columns under its own column.
std::string help_entry(std::string_view name, std::string_view text) {
  constexpr std::size_t column = 24, width = 92;
  std::string out = "  " + std::string(name), word;
  out.resize(std::max(out.size() + 2, column), ' ');
  std::size_t line_start = 0;
  bool first = true;
  const auto put = [&] {
    if (word.empty()) return;
    if (!first && out.size() - line_start + 1 + word.size() > width) {
      out += "\n" + std::string(column, ' ');
      line_start = out.size() - column;
    } else if (!first) {
      out += ' ';
    }
    out += word;
    word.clear();
    first = false;
  };
  for (char c : text)
    if (c == ' ')
      put();
    else
      word += c;
  put();
  return out + "\n";
}

}  // namespace

std::vector<HelpSection> top_help(const std::optional<std::string> &prefix) {
  return {
      {"DESCRIPTION", "",
       R"(A cluster carries several cuDNN releases side by side; a program built against one dies when the
loader hands it another. cudnn-compat knows every cuDNN version encoding and every framework's
compatibility rule, keeps a version map of what the site has installed, and says - or, through its
shim, decides - which release a program should get.

Run `cudnn-compat SUBCOMMAND --help` for each subcommand's options and examples.)"},
      // The map's search as the readers follow it (cmake/SiteContract.cmake's layout), for this
      // installation or, in the manual page, for every one.
      {"ENVIRONMENT", "Environment:\n",
       help_entry("CUDNN_COMPAT_MAP",
                  "the version map (default: " + default_map_search_text(prefix) + ")") +
           help_entry("CUDNN_COMPAT_REQUIRE", "the cuDNN a program was built with (5.1 or 5.1.3)") +
           help_entry("CUDNN_COMPAT_CUDA", "the CUDA major it needs") +
           "  Ignored in setuid programs."},
      {"EXIT STATUS", "Exit status: ",
       R"(0 success or a positive answer, 1 a negative answer (incompatible, nothing found,
invalid map), 2 bad usage or input.)"},
  };
}

namespace {

using Subcommand = std::pair<std::string_view, void (*)(CLI::App &, Globals &)>;
constexpr Subcommand kSubcommands[] = {{"decode", add_decode},
                                       {"check", add_check},
                                       {"map", add_map},
                                       {"probe", add_probe},
                                       {"resolve", add_resolve},
                                       {"shim-path", add_shim_path},
                                       {"container-env", add_container_env},
                                       {"module-check", add_module_check},
                                       {"modulefiles", add_modulefiles},
                                       {"scan", add_scan},
                                       {"explain", add_explain},
                                       {"doctor", add_doctor},
                                       {"usage", add_usage},
                                       {"retire", add_retire}};

// The word on the command line in the subcommand's place: the first that is not an option (the
// global options take no value).
std::string_view named_subcommand(int argc, char **argv) {
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i)
    if (argv[i][0] != '-') return argv[i];
  return {};
}

bool known_subcommand(std::string_view name) {
  return std::any_of(std::begin(kSubcommands), std::end(kSubcommands),
                     [&](const Subcommand &c) { return c.first == name; });
}

// The module hooks run `module-check` on every misfit, where building the other subcommands'
// options was 60% of the process's instructions (callgrind): a subcommand named on the command
// line is registered alone; otherwise (--help, a typo, the documentation) all are.
void add_subcommands(CLI::App &app, Globals &g, int argc, char **argv) {
  const std::string_view named = named_subcommand(argc, argv);
  const bool known = known_subcommand(named);
  for (const auto &[name, add] : kSubcommands)
    if (!known || name == named) add(app, g);
}

// An empty argument is a mistake (a variable that is not set: `-o "$OUT"`), never "absent": `map
// validate ''` must not validate $CUDNN_COMPAT_MAP instead, nor `modulefiles -o ''` write into the
// working directory. Every option and positional of every subcommand that takes a value refuses
// one, as bad usage (exit 2).
void refuse_empty_values(CLI::App &app) {
  static const CLI::Validator not_empty(
      [](std::string &value) {
        return value.empty()
                   ? std::string("an empty argument; give a value (is a shell variable unset?)")
                   : std::string();
      },
      "", "NOT_EMPTY");
  for (CLI::Option *o : app.get_options())
    if (o->get_type_size() != 0) o->check(not_empty);
  for (CLI::App *sub : app.get_subcommands([](CLI::App *) { return true; }))
    refuse_empty_values(*sub);
}

// The --help footer: the sections above, headed as people read them in a terminal, for the
// installation this program belongs to.
std::string help_footer() {
  std::string out;
  for (const HelpSection &s : top_help(install_prefix())) {
    out += "\n" + std::string(s.heading) + std::string(s.text) + "\n";
  }
  out.pop_back();  // CLI11 ends the help with its own line break
  return out;
}

// The subcommand of `at` named `name`, or null.
const CLI::App *child_named(const CLI::App &at, std::string_view name) {
  for (const CLI::App *sub : at.get_subcommands([](const CLI::App *) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

}  // namespace

std::string unknown_subcommand(const CLI::App &app, int argc, char **argv) {
  const CLI::App *at = &app;
  std::string command = "cudnn-compat";
  int i = 1;
  for (;; ++i) {
    const std::vector<const CLI::App *> subs =
        at->get_subcommands([](const CLI::App *) { return true; });
    if (subs.empty()) return {};  // a leaf: its words are its own arguments
    // No command with subcommands takes an option with a value (--json is a flag): a word that
    // is not an option is in a subcommand's place.
    while (i < argc && argv[i][0] == '-' && std::string_view(argv[i]) != "--") ++i;
    std::vector<std::string_view> names;
    names.reserve(subs.size());
    for (const CLI::App *sub : subs) names.push_back(sub->get_name());
    std::vector<std::string> listed(names.begin(), names.end());
    if (i >= argc || std::string_view(argv[i]) == "--")
      return command + " needs a subcommand: " + join(listed, ", ");
    const CLI::App *next = child_named(*at, argv[i]);
    if (!next) {
      const std::string_view meant = nearest_word(argv[i], names);
      return cudnn_compat::quoted(argv[i]) + " is not a " + command + " subcommand" +
             (meant.empty() ? "; the subcommands are " + join(listed, ", ")
                            : "; did you mean '" + std::string(meant) + "'?");
    }
    at = next;
    command += " " + at->get_name();
  }
}

std::string unknown_option(const CLI::App &app, int argc, char **argv) {
  // The subcommands named, as far as they are known: the options of the last and the global ones.
  std::vector<const CLI::App *> chain = {&app};
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i) {
    if (argv[i][0] == '-') continue;
    const CLI::App *next = child_named(*chain.back(), argv[i]);
    if (!next) break;
    chain.push_back(next);
  }
  std::vector<std::string> known;
  for (const CLI::App *a : {chain.front(), chain.back()})
    for (const CLI::Option *o : a->get_options())
      for (const std::string &name : o->get_lnames()) known.push_back("--" + name);
  const std::vector<std::string_view> words(known.begin(), known.end());
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i) {
    const std::string_view typed =
        std::string_view(argv[i]).substr(0, std::string_view(argv[i]).find('='));
    if (!typed.starts_with("--") || std::find(words.begin(), words.end(), typed) != words.end())
      continue;
    const std::string_view meant = nearest_word(typed, words);
    std::string command = "cudnn-compat";
    for (std::size_t k = 1; k < chain.size(); ++k) command += " " + chain[k]->get_name();
    return cudnn_compat::quoted(typed) + " is not an option of " + command +
           (meant.empty() ? "" : "; did you mean '" + std::string(meant) + "'?");
  }
  return {};
}

void build_app(CLI::App &app, Globals &g, int argc, char **argv) {
  app.set_version_flag(
      "--version", std::string("cudnn-compat ") + version() + "\nLicensed under the MIT licence.");
  app.require_subcommand(1, 1);
  app.fallthrough();  // --json may follow the subcommand
  app.add_flag("--json", g.json, "Print one JSON document on stdout instead of text");
  add_subcommands(app, g, argc, argv);
  refuse_empty_values(app);
  app.footer(help_footer());
}

}  // namespace cudnn_compat::cli
