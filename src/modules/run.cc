// Running the module systems (the I/O edge of the adapters).
#include "modules.h"
#include "spawn_process.h"
#include "text.h"

#include <unistd.h>

#include <filesystem>

namespace cudnn_compat {
namespace {

enum class From { out, err };

// Runs a module system's command (no shell), returning what it wrote to one stream: modulecmd
// prints `avail --json` and `display` on stderr. The other stream is dropped.
std::optional<std::string> capture(const std::vector<std::string> &argv, From from,
                                   std::optional<std::vector<std::string>> env = std::nullopt) {
  SpawnOptions how;
  how.env = std::move(env);
  how.out = from == From::out ? Output::capture : Output::discard;
  how.err = from == From::err ? Output::capture : Output::discard;
  const SpawnResult run = spawn_process(argv, how);
  if (!run.started) return std::nullopt;
  return from == From::out ? run.out : run.err;
}

bool executable(const std::string &path) {
  return access(path.c_str(), R_OK) == 0;
}

// Where the Debian packages put each system, after what the environment names.
constexpr const char *kLmodDir = "/usr/share/lmod/lmod/libexec";
constexpr const char *kModulecmds[] = {"/usr/lib/x86_64-linux-gnu/modulecmd.tcl",
                                       "/usr/share/modules/libexec/modulecmd.tcl"};

}  // namespace

std::string module_system_places(ModuleSystemKind kind) {
  if (kind == ModuleSystemKind::lmod)
    return std::string("$LMOD_DIR/spider, else ") + kLmodDir + "/spider";
  std::string out = "$MODULES_CMD";
  for (const char *cmd : kModulecmds) out += std::string(", else ") + cmd;
  return out;
}

std::optional<ModuleSystem> find_module_system(std::optional<ModuleSystemKind> wanted) {
  if (!wanted)
    if (const ModuleSystemKind own = shell_module_system(); own != ModuleSystemKind::unknown)
      if (std::optional<ModuleSystem> found = find_module_system(own)) return found;
  if (!wanted || *wanted == ModuleSystemKind::lmod) {
    const std::string dir = env("LMOD_DIR").value_or(kLmodDir);
    if (executable(dir + "/spider")) return ModuleSystem{ModuleSystemKind::lmod, dir + "/spider"};
  }
  if (!wanted || *wanted == ModuleSystemKind::envmodules) {
    std::vector<std::string> cmds{env("MODULES_CMD").value_or("")};
    cmds.insert(cmds.end(), std::begin(kModulecmds), std::end(kModulecmds));
    for (const std::string &cmd : cmds)
      if (!cmd.empty() && executable(cmd)) return ModuleSystem{ModuleSystemKind::envmodules, cmd};
  }
  return std::nullopt;
}

std::string module_error(const ModuleSystem &system, const std::string &modulepath,
                         const ModuleLibs &m) {
  if (system.kind != ModuleSystemKind::lmod) return m.error;  // `display` already said
  const std::string lmod = std::filesystem::path(system.command).parent_path() / "lmod";
  const std::optional<std::string> shown = capture({lmod, "bash", "show", m.name}, From::err,
                                                   environment_with({"MODULEPATH=" + modulepath}));
  return shown ? parse_module_error(*shown) : "";
}

Parsed<std::vector<ModuleLibs>> list_cudnn_modules(const ModuleSystem &system,
                                                   const std::string &modulepath) {
  using Result = Parsed<std::vector<ModuleLibs>>;
  if (system.kind == ModuleSystemKind::lmod) {
    std::vector<std::string> argv = {system.command, "-o", "spider-json"};
    for (std::string_view d : split(modulepath, ':'))
      if (!d.empty()) argv.emplace_back(d);
    const std::optional<std::string> out = capture(argv, From::out);
    if (!out) return Result::fail("cannot run " + system.command);
    return parse_spider_json(*out);
  }
  const std::vector<std::string> env = environment_with({"MODULEPATH=" + modulepath});
  const std::optional<std::string> avail =
      capture({system.command, "bash", "avail", "-a", "--json"}, From::err, env);
  if (!avail) return Result::fail("cannot run " + system.command);
  Result found = parse_avail_json(*avail);
  if (!found) return found;
  std::vector<ModuleLibs> mods = *found.value;
  for (ModuleLibs &m : mods) {
    const std::optional<std::string> shown =
        capture({system.command, "bash", "display", m.name}, From::err, env);
    if (shown) m.lib_dirs = parse_display_lib_dirs(*shown);
    if (shown) m.error = parse_module_error(*shown);
  }
  return {mods, {}};
}

}  // namespace cudnn_compat
