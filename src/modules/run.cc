// Running the module systems (the I/O edge of the adapters).
#include "modules.h"
#include "text.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>

namespace cudnn_compat {
namespace {

std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command line (with its own redirections), returning what it wrote to stdout.
std::optional<std::string> capture(const std::string &command) {
  FILE *p = popen(command.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  std::array<char, 65536> buf;
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;)
    out.append(buf.data(), n);
  const int status = pclose(p);
  if (status == -1) return std::nullopt;
  return out;
}

bool executable(const std::string &path) {
  return access(path.c_str(), R_OK) == 0;
}

}  // namespace

namespace {

// The system this shell itself runs, from what each one exports: Lmod sets LMOD_CMD, Environment
// Modules MODULES_CMD; both set MODULESHOME, and bash exports the `module` function's body.
std::optional<std::string_view> shell_module_system() {
  if (env("LMOD_CMD")) return "lmod";
  if (env("MODULES_CMD")) return "envmodules";
  for (const char *var : {"BASH_FUNC_module%%", "BASH_FUNC_module()", "MODULESHOME"})
    if (const std::optional<std::string> v = env(var)) {
      if (v->find("lmod") != std::string::npos) return "lmod";
      if (v->find("modulecmd") != std::string::npos || v->find("modules") != std::string::npos)
        return "envmodules";
    }
  return std::nullopt;
}

}  // namespace

std::optional<ModuleSystem> find_module_system(std::string_view wanted) {
  if (wanted == "auto")
    if (const std::optional<std::string_view> own = shell_module_system())
      if (std::optional<ModuleSystem> found = find_module_system(*own)) return found;
  if (wanted == "auto" || wanted == "lmod") {
    const std::string dir = env("LMOD_DIR").value_or("/usr/share/lmod/lmod/libexec");
    if (executable(dir + "/spider")) return ModuleSystem{"lmod", dir + "/spider"};
  }
  if (wanted == "auto" || wanted == "envmodules") {
    for (const std::string &cmd :
         {env("MODULES_CMD").value_or(""), std::string("/usr/lib/x86_64-linux-gnu/modulecmd.tcl"),
          std::string("/usr/share/modules/libexec/modulecmd.tcl")})
      if (!cmd.empty() && executable(cmd)) return ModuleSystem{"envmodules", cmd};
  }
  return std::nullopt;
}

std::string module_error(const ModuleSystem &system, const std::string &modulepath,
                         const ModuleLibs &m) {
  if (system.kind != "lmod") return m.error;  // `display` already said
  const std::string lmod = std::filesystem::path(system.command).parent_path() / "lmod";
  const std::optional<std::string> shown =
      capture("MODULEPATH=" + shell_quote(modulepath) + " " + shell_quote(lmod) + " bash show " +
              shell_quote(m.name) + " 2>&1 1>/dev/null");
  return shown ? parse_module_error(*shown) : "";
}

Parsed<std::vector<ModuleLibs>> list_cudnn_modules(const ModuleSystem &system,
                                                   const std::string &modulepath) {
  using Result = Parsed<std::vector<ModuleLibs>>;
  if (system.kind == "lmod") {
    std::string dirs;
    for (std::string_view d : split(modulepath, ':'))
      if (!d.empty()) dirs.append(" ").append(shell_quote(std::string(d)));
    const std::optional<std::string> out =
        capture(shell_quote(system.command) + " -o spider-json" + dirs + " 2>/dev/null");
    if (!out) return Result::fail("cannot run " + system.command);
    return parse_spider_json(*out);
  }
  const std::string modulecmd =
      "MODULEPATH=" + shell_quote(modulepath) + " " + shell_quote(system.command) + " bash";
  const std::optional<std::string> avail = capture(modulecmd + " avail -a --json 2>&1 1>/dev/null");
  if (!avail) return Result::fail("cannot run " + system.command);
  Result found = parse_avail_json(*avail);
  if (!found) return found;
  std::vector<ModuleLibs> mods = *found.value;
  for (ModuleLibs &m : mods) {
    // `display` prints the modulefile's commands on stderr: swap the streams to read them.
    const std::optional<std::string> shown =
        capture(modulecmd + " display " + shell_quote(m.name) + " 3>&1 1>/dev/null 2>&3");
    if (shown) m.lib_dirs = parse_display_lib_dirs(*shown);
    if (shown) m.error = parse_module_error(*shown);
  }
  return {mods, {}};
}

}  // namespace cudnn_compat
