// Modulefiles for what the map lists, in Lmod's Lua and in Tcl for Environment Modules.
#include "reports.h"
#include "text.h"

#include <algorithm>
#include <filesystem>

namespace cudnn_compat {
namespace {

// A string literal in either language, "..." with every character that means something inside
// escaped: in Tcl also $ [ ] { } (a path with a brace broke a {...} literal, or ran Tcl taken
// from a directory's name); a line end in both (Lua's "..." holds none).
std::string literal(const std::string &s, ModuleFormat f) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n' || c == '\r') {
      out += c == '\n' ? "\\n" : "\\r";
      continue;
    }
    if (c == '"' || c == '\\' ||
        (f == ModuleFormat::tcl && std::string_view("$[]{}").find(c) != std::string_view::npos))
      out += '\\';
    out += c;
  }
  return out + '"';
}

// The mark of a file this tool wrote, in its first comment: only such a file is replaced without
// --force (a site's own modulefile of the same name carries what an admin wrote by hand).
constexpr std::string_view kWrittenBy = "Written by `cudnn-compat modulefiles`";

// One environment command of a modulefile: "setenv", "prepend-path" or "pushenv" as Tcl spells
// it (Lua: prepend_path), the variable, and its value.
std::string env_command(std::string_view verb, std::string_view var, const std::string &value,
                        ModuleFormat f) {
  if (f == ModuleFormat::tcl)
    return std::string(verb) + " " + std::string(var) + " " + literal(value, f) + "\n";
  std::string lua(verb);
  std::replace(lua.begin(), lua.end(), '-', '_');
  return lua + "(\"" + std::string(var) + "\", " + literal(value, f) + ")\n";
}

}  // namespace

bool written_by_modulefiles(std::string_view head) {
  for (std::string_view line : split(head.substr(0, head.find('\n', head.find('\n') + 1)), '\n')) {
    line = trim(line);
    if ((line.starts_with("-- ") || line.starts_with("# ")) &&
        line.substr(line.find(' ') + 1).starts_with(kWrittenBy))
      return true;
  }
  return false;
}

std::string cudnn_root(const std::string &lib) {
  // "/opt/cudnn/lib64/" names the same directory as "/opt/cudnn/lib64".
  const std::filesystem::path p = std::filesystem::path(lib).lexically_normal();
  const std::filesystem::path dir = p.has_filename() ? p : p.parent_path();
  return (dir.filename() == "lib64" || dir.filename() == "lib") ? dir.parent_path().string() : lib;
}

std::string cuda_module_name(const Installed &e, std::string_view pattern) {
  if (!e.cuda || pattern.empty()) return "";
  std::string out(pattern);
  for (std::size_t at = 0; (at = out.find("{cuda}", at)) != std::string::npos;)
    out.replace(at, 6, to_string(*e.cuda)), at += to_string(*e.cuda).size();
  return out;
}

Modulefile cudnn_modulefile(const Installed &e, ModuleFormat f, bool has_include,
                            const std::string &cuda_module) {
  Modulefile m;
  m.name = e.module.empty() ? "cudnn/" + to_string(e.version) : e.module;
  m.path = m.name + (f == ModuleFormat::lua ? ".lua" : "");
  const std::string version = to_string(e.version);
  const std::string cuda = e.cuda ? " for CUDA " + to_string(*e.cuda) : "";
  const std::string root = cudnn_root(e.lib), include = root + "/include";
  // What EasyBuild's own cuDNN modules carry (help and whatis with a description and the
  // homepage, the CUDA they need, CMAKE_PREFIX_PATH), so that an admin's tools find it.
  const std::string description =
      "The NVIDIA CUDA Deep Neural Network library (cuDNN): GPU-accelerated primitives for deep "
      "neural networks";
  const std::string help = "cuDNN " + version + cuda + ", libraries in " + e.lib + ".\n" +
                           description + ".\nHomepage: https://developer.nvidia.com/cudnn";
  const std::vector<std::string> whatis{"Name: cuDNN", "Version: " + version,
                                        "Description: " + description,
                                        "Homepage: https://developer.nvidia.com/cudnn"};
  const auto L = [f](const std::string &s) { return literal(s, f); };
  std::string &t = m.text;
  if (f == ModuleFormat::lua) {
    t = "-- " + std::string(kWrittenBy) + " from the version map; regenerate, do not edit.\n";
    // A long string, as EasyBuild writes help: Lua's "..." holds no newline.
    t += help.find("]==]") == std::string::npos ? "help([==[" + help + "]==])\n"
                                                : "help(" + L(description) + ")\n";
    for (const std::string &w : whatis) t += "whatis(" + L(w) + ")\n";
    if (e.cuda) t += "whatis(" + L("CUDA: " + to_string(*e.cuda)) + ")\n";
    t += "family(\"cudnn\")\n";
    // Loaded with the CUDA it was built for, where the tree has it and no CUDA is loaded yet.
    if (!cuda_module.empty())
      t += "if not (isloaded(\"cuda\") or isloaded(\"CUDA\")) and isAvail(" + L(cuda_module) +
           ") then\n  depends_on(" + L(cuda_module) + ")\nend\n";
  } else {
    t = "#%Module1.0\n";
    t += "# " + std::string(kWrittenBy) + " from the version map; regenerate, do not edit.\n";
    t += "proc ModulesHelp {} { puts stderr " + L(help) + " }\n";
    t += "module-whatis " + L("cuDNN " + version + cuda) + "\n";
    for (const std::string &w : whatis) t += "module-whatis " + L(w) + "\n";
    t += "family cudnn\n";
    if (!cuda_module.empty())
      t += "if {![is-loaded cuda] && ![is-loaded CUDA] && [is-avail " + L(cuda_module) +
           "]} {\n  prereq " + L(cuda_module) + "\n}\n";
  }
  t += env_command("setenv", "CUDNN_ROOT", root, f);
  t += env_command("prepend-path", "CMAKE_PREFIX_PATH", root, f);
  t += env_command("prepend-path", "LD_LIBRARY_PATH", e.lib, f);
  t += env_command("prepend-path", "LIBRARY_PATH", e.lib, f);
  if (has_include) t += env_command("prepend-path", "CPATH", include, f);
  return m;
}

std::string need_lines(const Version &cudnn, std::optional<int> cuda_major, ModuleFormat f) {
  const std::string version = to_string(cudnn);
  const std::string need = version + (cuda_major ? ",cuda=" + std::to_string(*cuda_major) : "");
  const std::string why =
      " The cuDNN this application was built with, for cudnn-compat's shim and module hooks\n" +
      std::string(f == ModuleFormat::lua ? "--" : "#") +
      " (standard commands: it loads with or without cudnn-compat's site package).\n";
  std::string t;
  if (f == ModuleFormat::lua)
    t = "--" + why + "prepend_path(\"CUDNN_COMPAT_NEEDS\", myModuleFullName() .. \"=" + need +
        "\")\n";
  else
    t = "#" + why + "prepend-path CUDNN_COMPAT_NEEDS [module-info name]=" + need + "\n";
  // pushenv: unloading one of two applications gives the shim the other's need back.
  t += env_command("pushenv", "CUDNN_COMPAT_REQUIRE", version, f);
  if (cuda_major) t += env_command("pushenv", "CUDNN_COMPAT_CUDA", std::to_string(*cuda_major), f);
  return t;
}

Modulefile shim_modulefile(const std::string &shim, const std::string &map, ModuleFormat f) {
  Modulefile m;
  m.name = "cudnn-compat";
  m.path = m.name + (f == ModuleFormat::lua ? ".lua" : "");
  const std::string what =
      "cudnn-compat: every load of cuDNN in this session and its jobs gets a compatible release";
  const auto L = [f](const std::string &s) { return literal(s, f); };
  // pushenv, not setenv: unloading the module (or a purge) gives back a CUDNN_COMPAT_MAP the site
  // set before, where setenv would unset it.
  if (f == ModuleFormat::lua) {
    m.text = "-- " + std::string(kWrittenBy) + "; regenerate, do not edit.\n";
    m.text += "whatis(" + L(what) + ")\n";
  } else {
    m.text = "#%Module1.0\n# " + std::string(kWrittenBy) + "; regenerate, do not edit.\n";
    m.text += "module-whatis " + L(what) + "\n";
  }
  m.text += env_command("prepend-path", "LD_AUDIT", shim, f);
  m.text += env_command("pushenv", "CUDNN_COMPAT_MAP", map, f);
  return m;
}

}  // namespace cudnn_compat
