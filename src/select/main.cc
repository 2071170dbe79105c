// cudnn-compat-select NAME REQUESTER: the shim's engine, run by libcudnn-compat.so in a
// process of its own on the first request for a cuDNN main library (the shim itself carries no
// libc, let alone toml++). Prints "use PATH" or "pass" on stdout and at most one line on stderr
// (one per decision with CUDNN_COMPAT_DEBUG=1). Whatever goes wrong, the answer is "pass".
#include "cudnn_compat.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace {

using namespace cudnn_compat;
namespace fs = std::filesystem;

std::string self_dir() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path().string();
}

std::string host_executable() {
  std::error_code ec;
  return fs::read_symlink("/proc/" + std::to_string(getppid()) + "/exe", ec).string();
}

std::optional<std::string> decide(const std::string &name, std::string requester, bool debug) {
  const std::string executable = host_executable();
  if (requester.empty()) requester = executable;
  const Parsed<LibraryName> requested = parse_library_name(fs::path(name).filename().string());
  if (!requested) return std::nullopt;

  std::optional<MapLoad> load;
  std::string map_problem;
  if (const std::optional<std::string> path = find_map_path()) {
    load = load_map(*path);
    if (!load->map)
      map_problem =
          load->diagnostics.empty() ? *path + " is invalid" : to_string(load->diagnostics.front());
  } else {
    map_problem = "none at " + map_search_path().back();
  }
  const Map *map = load && load->map ? &*load->map : nullptr;

  NeedInputs ni;
  ni.require = env("CUDNN_COMPAT_REQUIRE");
  ni.require_source = "CUDNN_COMPAT_REQUIRE";
  ni.cuda = env("CUDNN_COMPAT_CUDA");
  ni.cuda_source = "CUDNN_COMPAT_CUDA";
  ni.programs = {executable, requester};
  ni.requested = *requested;
  const Parsed<Need> need = derive_need(ni, map);
  if (!need) {
    std::cerr << "cudnn-compat: " << need.error << "; loading " << name << " as usual\n";
    return std::nullopt;
  }

  LoaderContext lc;
  lc.requester = requester;
  lc.executable = executable;
  lc.ld_library_path = env("LD_LIBRARY_PATH").value_or("");
  lc.secure = env("CUDNN_COMPAT_SECURE").has_value();

  SelectInputs in;
  in.name = name;
  in.requested = *requested;
  in.need = *need;
  in.loader = loader_search(name, lc);
  in.map = map;
  in.map_problem = map_problem;
  in.debug = debug;

  ProbeOptions po;
  po.helper = self_dir() + "/cudnn-compat-probe";
  SelectIo io;
  // Only the library's own word counts: a header or a file name is what the map already said.
  io.probe = [&po](const std::string &file) { return probe_library(file, po); };
  io.find_file = find_library_file;

  const Selection s = select_library(in, io);
  for (const std::string &line : s.say) std::cerr << line << '\n';
  return s.use;
}

}  // namespace

int main(int argc, char **argv) {
  // The shim starts this with every signal blocked (so no handler of the host runs between its
  // clone and exec); a probe must see crashes as crashes.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  std::optional<std::string> use;
  try {
    if (argc == 3)
      use = decide(argv[1], argv[2], env("CUDNN_COMPAT_DEBUG") == std::optional<std::string>("1"));
    else
      std::cerr << "usage: cudnn-compat-select NAME REQUESTER (run by libcudnn-compat.so)\n";
  } catch (const std::exception &e) {
    std::cerr << "cudnn-compat: internal error: " << e.what() << "; loading as usual\n";
  }
  std::cout << (use ? "use " + *use : std::string("pass")) << std::endl;
  return 0;
}
