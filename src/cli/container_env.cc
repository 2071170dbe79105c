// cudnn-compat container-env: the lines that carry the shim and the map into Apptainer and enroot
// containers, so that a site-wide LD_AUDIT never names a file the container lacks (ld.so prints a
// line in every process then: docs/containers.md).
#include "cli.h"
#include "diagnostics.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>

namespace cudnn_compat::cli {
namespace {

namespace fs = std::filesystem;

struct Lines {
  std::string shim, shim_dir, map, map_dir;
  std::vector<std::string> binds;                        // Apptainer SRC:DEST:ro
  std::vector<std::pair<std::string, std::string>> env;  // set inside the container
  std::vector<std::string> fstab;                        // enroot mounts.d
};

// Both directories bound at the same path inside as outside: the LD_AUDIT value the host's
// module exports (its absolute path) is then right inside too, whatever the runtime passes on.
Lines lines_for(const std::string &shim, const std::string &map) {
  Lines l;
  l.shim = shim, l.map = map;
  l.shim_dir = fs::path(shim).parent_path().string();
  l.map_dir = fs::path(map).parent_path().string();
  for (const std::string &dir : {l.shim_dir, l.map_dir}) {
    if (dir.empty() || (dir == l.map_dir && l.map_dir == l.shim_dir && !l.binds.empty())) continue;
    l.binds.push_back(dir + ":" + dir + ":ro");
    l.fstab.push_back(dir + " " + dir + " none x-create=dir,bind,ro,nosuid,nodev");
  }
  l.env = {{"LD_AUDIT", shim}, {"CUDNN_COMPAT_MAP", map}};
  return l;
}

void print_text(const Lines &l) {
  std::string binds;
  for (const std::string &b : l.binds) binds += (binds.empty() ? "" : ",") + b;
  std::cout << "# Apptainer and Singularity: in the job's environment, before apptainer "
               "exec|run|shell\n";
  std::cout << "export APPTAINER_BIND=\"${APPTAINER_BIND:+$APPTAINER_BIND,}" << binds << "\"\n";
  for (const auto &[name, value] : l.env)
    std::cout << "export APPTAINERENV_" << name << '=' << value << '\n';
  std::cout << "# enroot: /etc/enroot/mounts.d/90-cudnn-compat.fstab\n";
  for (const std::string &line : l.fstab) std::cout << line << '\n';
  std::cout << "# enroot: /etc/enroot/environ.d/90-cudnn-compat.env\n";
  for (const auto &[name, value] : l.env) std::cout << name << '=' << value << '\n';
}

void print_json_lines(const Lines &l) {
  nlohmann::json env = nlohmann::json::object(), apptainer_env = nlohmann::json::object();
  for (const auto &[name, value] : l.env) {
    env[name] = value;
    apptainer_env["APPTAINERENV_" + name] = value;
  }
  print_json({{"shim", l.shim},
              {"map", l.map},
              {"apptainer", {{"bind", l.binds}, {"env", apptainer_env}}},
              {"enroot",
               {{"fstab", l.fstab},
                {"fstab_file", "/etc/enroot/mounts.d/90-cudnn-compat.fstab"},
                {"environ", env},
                {"environ_file", "/etc/enroot/environ.d/90-cudnn-compat.env"}}}});
}

// The map to bind in, absolute: --map, else the one every subcommand finds; nullopt (said) when
// there is none. Binds of a file that is not there would fail every container start (a
// CUDNN_COMPAT_MAP that names a map this node lacks).
std::optional<std::string> map_to_bind(const std::string &given) {
  const std::optional<std::string> path = given.empty() ? find_map_path() : given;
  if (!path) {
    Error() << map_not_found_message();
    return std::nullopt;
  }
  std::error_code ec;
  if (!fs::is_regular_file(*path, ec)) {
    Error() << *path << ": no such map file; container-env binds the map this node's jobs read";
    return std::nullopt;
  }
  return fs::absolute(*path, ec).lexically_normal().string();
}

}  // namespace

void add_container_env(CLI::App &app, Globals &g) {
  auto map = std::make_shared<std::string>();
  CLI::App *cmd = app.add_subcommand(
      "container-env", "Print the lines that carry the shim and the map into containers");
  add_map_option(cmd, *map);
  cmd->footer(R"(
A site-wide LD_AUDIT or LD_PRELOAD travels into Apptainer and enroot containers with the job's
environment (Apptainer passes the host's environment on by default). Where the file it names is
not in the container, ld.so prints one line in every process, for LD_AUDIT and LD_PRELOAD alike:

  ERROR: ld.so: object '...' cannot be loaded as audit interface: cannot open shared object
  file; ignored.

Neither form fails quietly (glibc 2.36). So the shim's directory and the map's are bound in
read-only, each at the same path as on the host, and LD_AUDIT and CUDNN_COMPAT_MAP are set
inside: the shim then works in the container as outside. These are the lines, for this
installation's shim (cudnn-compat shim-path) and the map found as every subcommand finds it (or
--map):

  Apptainer  APPTAINER_BIND (the --bind list) and APPTAINERENV_LD_AUDIT,
             APPTAINERENV_CUDNN_COMPAT_MAP, for the site's cudnn-compat module or job prolog;
  enroot     the lines of a file in /etc/enroot/mounts.d/ and one in /etc/enroot/environ.d/.

A site that does not bind them in must keep LD_AUDIT out of the container instead (apptainer
--cleanenv, or a module that sets it only outside). Inside a container the shim with no map is
silent, and doctor names what leaked in: cudnn-compat doctor.

Examples:
  cudnn-compat container-env
  cudnn-compat container-env --map /etc/cudnn-compat/map.toml
  cudnn-compat --json container-env

Exit status: 0 printed, 1 the shim is not installed beside this cudnn-compat or no map was
found.)");
  cmd->callback([map, &g] {
    const std::string shim = pkglib_dir() + "/libcudnn-compat.so";
    if (access(shim.c_str(), R_OK) != 0) {
      Error() << shim + " is missing; reinstall cudnn-compat (cmake --install)";
      g.exit_code = kNo;
      return;
    }
    const std::optional<std::string> path = map_to_bind(*map);
    if (!path) {
      g.exit_code = kNo;
      return;
    }
    const Lines l = lines_for(shim, *path);
    if (g.json)
      print_json_lines(l);
    else
      print_text(l);
    g.exit_code = kYes;
  });
}

}  // namespace cudnn_compat::cli
