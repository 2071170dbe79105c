// The bash and zsh completions of cudnn-compat, rendered from the application: its subcommands,
// each one's options, which options take a value and which values are paths (map files, output
// files, directories), so a new option completes the day it is added.
#include "docs.h"
#include "map.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat::cli {

namespace {

// A command's key in the tables: its words after the program's own name ("cudnn-compat map").
std::string command_key(const Command &c) {
  return c.path.empty() ? "cudnn-compat" : "cudnn-compat " + c.path;
}

// The tables the tools derive beside a map (map.toml.decide, ...), never a file to name: an
// extended regular expression of their suffixes.
std::string derived_table_pattern() {
  std::vector<std::string> suffixes;
  for (TableKind k : kAllTables) suffixes.emplace_back(table_suffix(k).substr(1));
  return "\\.(" + join(suffixes, "|") + ")$";
}

// The same tables as zsh's ignored patterns ('*.cache' ...), for _files -F.
std::string derived_table_globs() {
  std::vector<std::string> globs;
  for (TableKind k : kAllTables) globs.push_back("'*" + std::string(table_suffix(k)) + "'");
  return join(globs, " ");
}

struct Completable {
  std::vector<std::string> subcommands, options, valued, paths;
  bool positional_path = false;
};

// The options a user may type: not the hidden ones (no group: one node's part of doctor --nodes).
// --json is the program's, offered after any subcommand too (it falls through).
Completable completable(const Command &c) {
  Completable k;
  for (const CLI::App *sub : c.app->get_subcommands([](const CLI::App *) { return true; }))
    k.subcommands.push_back(sub->get_name());
  if (!c.path.empty()) k.options.push_back("--json");
  for (const CLI::Option *o : c.app->get_options()) {
    if (o->get_group().empty()) continue;
    if (o->get_positional()) {
      k.positional_path = k.positional_path || takes_path(*o);
      continue;
    }
    std::vector<std::string> names;
    for (const std::string &s : o->get_snames()) names.push_back("-" + s);
    for (const std::string &l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string &n : names) {
      k.options.push_back(n);
      if (o->get_expected_max() > 0) k.valued.push_back(n);
      if (takes_path(*o)) k.paths.push_back(n);
    }
  }
  return k;
}

std::string bash_tables(const CLI::App &app) {
  std::string subs, opts, valued, paths, positional;
  for (const Command &c : commands(app)) {
    const Completable k = completable(c);
    const std::string key = "[\"" + command_key(c) + "\"]=";
    subs += "  " + key + "\"" + join(k.subcommands, " ") + "\"\n";
    opts += "  " + key + "\"" + join(k.options, " ") + "\"\n";
    valued += "  " + key + "\" " + join(k.valued, " ") + " \"\n";
    paths += "  " + key + "\" " + join(k.paths, " ") + " \"\n";
    if (k.positional_path) positional += "  " + key + "1\n";
  }
  return "declare -gA _cudnn_compat_subs=(\n" + subs + ")\ndeclare -gA _cudnn_compat_opts=(\n" +
         opts + ")\ndeclare -gA _cudnn_compat_valued=(\n" + valued +
         ")\ndeclare -gA _cudnn_compat_paths=(\n" + paths +
         ")\ndeclare -gA _cudnn_compat_positional_path=(\n" + positional + ")\n" +
         "_cudnn_compat_derived='" + derived_table_pattern() + "'\n";
}

}  // namespace

std::string bash_completion(const CLI::App &app) {
  return "# bash completion for cudnn-compat, written by cudnn-compat-docgen from the program's "
         "own\n"
         "# options.\n" +
         bash_tables(app) + R"(
_cudnn_compat() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path=cudnn-compat i w
  # The subcommand path typed so far; an option's value is not a subcommand.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if [[ ${_cudnn_compat_valued[$path]:-} == *" $w "* ]]; then ((i++)); continue; fi
    [[ " ${_cudnn_compat_subs[$path]:-} " == *" $w "* ]] && path+=" $w"
  done
  if [[ ${_cudnn_compat_paths[$path]:-} == *" $prev "* ]]; then
    compopt -o filenames 2>/dev/null || true
    mapfile -t COMPREPLY < <(compgen -f -- "$cur" | grep -v -E "$_cudnn_compat_derived")
  elif [[ ${_cudnn_compat_valued[$path]:-} == *" $prev "* ]]; then
    COMPREPLY=()
  elif [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_cudnn_compat_opts[$path]:-}" -- "$cur")
  elif [[ -n ${_cudnn_compat_subs[$path]:-} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_cudnn_compat_subs[$path]:-}" -- "$cur")
  elif [[ -n ${_cudnn_compat_positional_path[$path]:-} ]]; then
    compopt -o filenames 2>/dev/null || true
    mapfile -t COMPREPLY < <(compgen -f -- "$cur" | grep -v -E "$_cudnn_compat_derived")
  fi
}
complete -F _cudnn_compat cudnn-compat
)";
}

std::string zsh_completion(const CLI::App &app) {
  std::string subs, cases;
  for (const Command &c : commands(app)) {
    const Completable k = completable(c);
    subs += "    \"" + command_key(c) + "\" \"" + join(k.subcommands, " ") + "\"\n";
    std::string specs;
    for (const std::string &o : k.options) {
      const bool path = std::find(k.paths.begin(), k.paths.end(), o) != k.paths.end();
      const bool valued = std::find(k.valued.begin(), k.valued.end(), o) != k.valued.end();
      specs += " '" + o + (valued ? (path ? "=:file:_files -F derived'" : "=:value: '") : "'");
    }
    const std::string rest = !k.subcommands.empty()
                                 ? " '1:subcommand:(" + join(k.subcommands, " ") + ")'"
                             : k.positional_path ? " '*:file:_files -F derived'"
                                                 : "";
    cases += "    \"" + command_key(c) + "\") _arguments -S" + specs + rest + " ;;\n";
  }
  return "#compdef cudnn-compat\n# zsh completion for cudnn-compat, written by cudnn-compat-docgen "
         "from the program's own\n# options.\n_cudnn-compat() {\n"
         "  local cmdpath=cudnn-compat w i last=1\n"
         "  # The tables the tools derive beside a map, never a file to name.\n"
         "  local -a derived\n  derived=(" +
         derived_table_globs() + ")\n  local -A subs\n  subs=(\n" + subs + R"(  )
  # The subcommand path typed so far; completion goes on from its last word.
  for ((i = 2; i < CURRENT; i++)); do
    w=${words[i]}
    if [[ " ${subs[$cmdpath]} " == *" $w "* ]]; then cmdpath+=" $w"; last=$i; fi
  done
  shift $((last - 1)) words
  ((CURRENT -= last - 1))
  case $cmdpath in
)" + cases +
         "  esac\n}\n_cudnn-compat \"$@\"\n";
}

}  // namespace cudnn_compat::cli
