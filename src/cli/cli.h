// What the subcommands of cudnn-compat share: the global options and the output helpers.
#pragma once

#include "cudnn_compat.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace cudnn_compat::cli {

// Exit codes (DESIGN.md): 0 success or a positive answer, 1 a negative answer, 2 bad usage/input.
inline constexpr int kYes = 0;
inline constexpr int kNo = 1;
inline constexpr int kUsage = 2;

struct Globals {
  bool json = false;
  int exit_code = kYes;
};

// --- version.cc: this build's version (cmake/package_version.cmake), alone in its file: it
// changes with every commit, and so recompiles nothing else.
const char *version();

// --- app.cc: the application, for the program and for its documentation (docgen.cc).
inline constexpr const char *kSummary =
    "cudnn-compat - find, check and hand out compatible cuDNN releases on a cluster\n";
struct HelpSection {
  std::string_view title;    // as the man page heads it: DESCRIPTION, ENVIRONMENT, EXIT STATUS
  std::string_view heading;  // as --help heads it, or "" for none
  std::string text;
};
// For the installation at prefix (--help: the map search it follows), or for every installation
// (nullopt: the manual page, which one build ships into every layout).
std::vector<HelpSection> top_help(const std::optional<std::string> &prefix);
// Registers the global options and the subcommands (only the one named in argv, when it names
// one; all of them otherwise).
void build_app(CLI::App &app, Globals &g, int argc, char **argv);
// What to say when a word in a subcommand's place (`map valdate`) names none, or none is given
// where one is needed: the one it was likely meant for, or the list; "" when every word is known.
std::string unknown_subcommand(const CLI::App &app, int argc, char **argv);
// What to say of a word like an option that the command does not take (`--requre`): the option
// it was likely meant for; "" when every option is known.
std::string unknown_option(const CLI::App &app, int argc, char **argv);

// Each subcommand registers itself on the application; its callback sets Globals::exit_code.
void add_decode(CLI::App &app, Globals &g);
void add_check(CLI::App &app, Globals &g);
void add_map(CLI::App &app, Globals &g);
void add_probe(CLI::App &app, Globals &g);
void add_resolve(CLI::App &app, Globals &g);
void add_shim_path(CLI::App &app, Globals &g);
void add_container_env(CLI::App &app, Globals &g);
void add_module_check(CLI::App &app, Globals &g);
void add_modulefiles(CLI::App &app, Globals &g);
void add_scan(CLI::App &app, Globals &g);
void add_explain(CLI::App &app, Globals &g);
void add_doctor(CLI::App &app, Globals &g);
void add_usage(CLI::App &app, Globals &g);
void add_retire(CLI::App &app, Globals &g);

// --- doctor_nodes.cc: doctor --nodes (the table over every node of a Slurm allocation) and
// doctor --node-report (one node's answer, a JSON line). Both return the exit code.
int doctor_nodes(const std::string &require, const std::string &map, const Globals &g);
int doctor_node_report(const std::string &require, const std::string &map);

// --- output.cc
void print_json(const nlohmann::json &j);
// Whether print_json has printed: a failure that printed none still owes --json its document.
bool printed_json();
nlohmann::json json_of(const std::optional<Version> &v);
nlohmann::json json_of(const Diagnostic &d);
nlohmann::json json_of(const Probe &p);
nlohmann::json json_of(const Installed &e);  // a map entry: version, lib, cuda, module
nlohmann::json json_of(const std::optional<NodeFacts> &node);  // gpus, driver_cuda, source
std::string describe(const Probe &p);  // "cuDNN 9.19.0 for CUDA 13.1 (reported by the library)"

std::string rule_list();

// The map a subcommand reads, named the same way everywhere: `--map FILE`, or the positional FILE
// of `map validate|show`. Its type name marks it a path for the completions (docs.h).
CLI::Option *add_map_option(
    CLI::App *cmd, std::string &path,
    const std::string &name = "--map");  // one line per rule, for --help and errors (check.cc)

// --- context.cc: the environment as the subcommands see it.
// The map named by --map, else the first in the search path; diagnostics on stderr (text mode)
// or in `diagnostics`. nullopt when none is found or it has errors.
struct LoadedMap {
  std::optional<Map> map;
  std::vector<Diagnostic> diagnostics;
  std::string path;  // empty when no map was found
};
// fresh: parse the TOML even when a current cache exists (validate must judge the file itself).
LoadedMap load_site_map(const std::string &explicit_path, bool fresh = false);
// to_admin false: for a user at `module load`, who can only tell the admins.
std::string map_not_found_message(bool to_admin = true);
// The map's own diagnostics, then why there is no map to use ("no version map found ...").
void report_unusable_map(const LoadedMap &m);
std::string pkglib_dir();      // lib/cudnn-compat of this installation
ProbeOptions probe_options();  // finds cudnn-compat-probe there
// This node's facts as the shim learns them (node_sources: the overrides, the map's [[node]]
// entry, the node file, NVML), for resolve and doctor alike.
std::optional<NodeFacts> this_node(const Map *map);
// --for as a shell would run it: a name without a slash that is not in the working directory is
// the first executable of that name on PATH (`--for python3`); else as given.
std::string program_named(const std::string &given);
// --for a file that is not there (or not a file) is said, not refused (a site's documented
// commands name programs of a tree to be); the answer then rests on the map's [[require]] globs
// alone. True when said.
bool say_if_program_missing(const std::string &program);
// The active Python environment's cuDNN places (VIRTUAL_ENV, CONDA_PREFIX, the programs' own);
// a place whose package gives no release is said once and left out of the answer.
std::vector<PythonPlace> active_python_places(const std::vector<std::string> &programs);
// Puts node's facts where a decision reads them: need.node, and the device code of map's releases
// when its GPUs are known. Facts that could not be learnt are said in one line on stderr (what
// failed, that the answer ignores them, the overrides that give them) and left out.
void decide_on_node(const std::optional<NodeFacts> &node, Need &need, Map *map);

}  // namespace cudnn_compat::cli
