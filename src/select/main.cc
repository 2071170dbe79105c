// cudnn-compat-select: the shim's engine, run by libcudnn-compat.so in a process of its own for a
// request of a cuDNN main library that the map's decision table does not settle (the shim itself
// carries no libc, let alone toml++). It speaks shim/protocol.h: whatever goes wrong, the answer
// is "pass", and every line meant for the user goes back to the shim, which prints it.
#include "decision_inputs.h"
#include "protocol.h"
#include "system.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace {

using namespace cudnn_compat;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Request {
  std::string name, executable, requester;
  Clock::time_point deadline;
  std::optional<std::vector<std::string>> dirs;  // the loader's, from the shim
};

long left_ms(const Request &r) {
  return long(
      std::chrono::duration_cast<std::chrono::milliseconds>(r.deadline - Clock::now()).count());
}

std::string self_dir() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path().string();
}

std::string real_path(const std::string &path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  return ec ? path : real.string();
}

// The libraries the map's decision table knows, as it knew them when the map had this stamp, and
// the device code it recorded for their families.
std::vector<KnownLibrary> known_libraries(const std::string &path, const FileStamp &stamp,
                                          Map &map) {
  const TableRead table = read_table(path, TableKind::decide);
  // The map must still be the one the table and the load saw: an edit since is not known.
  if (!table.text || stamp_file(path) != stamp) return {};
  for (auto &[entry, code] : table_codes(*table.text))
    if (entry < map.cudnn.size()) map.cudnn[entry].code = std::move(code);
  return table_libraries(*table.text);
}

// Releases the table does not know carry the code read from their files, when it matters: on a
// node whose GPUs are known.
void read_unknown_codes(Map &map, const std::vector<KnownLibrary> &known) {
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    if (std::any_of(known.begin(), known.end(),
                    [&](const KnownLibrary &k) { return k.entry == i; }) ||
        !is_absolute_lib(map.cudnn[i]))
      continue;
    map.cudnn[i].code = read_release_code(map.cudnn[i].lib, map.cudnn[i].version.major)
                            .value.value_or(ReleaseCode{});
  }
}

// The node the process runs on (within half of what is left of the deadline), and the device
// code of the map's releases where its GPUs are known.
void learn_node(const Request &r, const std::string &helper, Need &need,
                std::optional<MapLoad> &load, const std::vector<KnownLibrary> &known) {
  need.node = learn_node_facts(node_sources(env, helper, int(left_ms(r) / 2)));
  if (need.node && !need.node->gpus.empty() && load && load->map)
    read_unknown_codes(*load->map, known);
}

std::pair<const Map *, std::string> find_map(std::optional<MapLoad> &load,
                                             std::vector<KnownLibrary> &known) {
  const std::optional<std::string> path = find_map_path();
  if (!path) return {nullptr, "none at " + map_search_path().back()};
  const std::optional<FileStamp> stamp = stamp_file(*path);
  load = load_map(*path);
  if (load->map && stamp) known = known_libraries(*path, *stamp, *load->map);
  if (load->map) return {&*load->map, ""};
  return {nullptr,
          load->diagnostics.empty() ? *path + " is invalid" : to_string(load->diagnostics.front())};
}

SearchStep search_step(std::string_view arg, const std::string &requester);

Selection decide(const Request &r, bool debug) {
  const std::string requester = r.requester.empty() ? real_path(r.executable) : r.requester;
  const Parsed<LibraryName> requested = parse_library_name(fs::path(r.name).filename().string());
  if (!requested) return {};
  std::optional<MapLoad> load;
  std::vector<KnownLibrary> known;
  const auto [map, map_problem] = find_map(load, known);

  // A [[require]] glob may name a program by the path it was started as or by its real path.
  std::error_code ec;
  const std::string started_as = fs::absolute(r.executable, ec).lexically_normal().string();
  Asked asked;
  asked.programs = {started_as, real_path(r.executable), requester, real_path(requester)};
  asked.requested = *requested;
  Parsed<Need> need = derive_need(need_inputs(asked, env), map);
  if (!need) return {{}, {"cudnn-compat: " + need.error + "; loading " + r.name + " as usual"}};
  const std::string helper = self_dir() + "/cudnn-compat-probe";
  learn_node(r, helper, *need.value, load, known);

  LoaderContext lc = loader_context(real_path(r.executable), requester, env);
  if (r.dirs) {
    lc.before_cache.emplace();
    for (const std::string &d : *r.dirs) lc.before_cache->push_back(search_step(d, requester));
  }
  SelectInputs in = select_inputs(r.name, *requested, *need, loader_search(r.name, lc), map);
  in.map_problem = map_problem;
  in.debug = debug;

  SelectIo io;
  // Only the library's own word counts, within what is left of the shim's deadline.
  io.probe = [&](const std::string &file) -> LibraryCheck {
    const std::optional<FileStamp> id = map ? stamp_file(file) : std::nullopt;
    if (id)
      if (std::optional<Probe> p =
              remembered_probe(known, *map, file, *id, need->cuda_major.has_value()))
        return p;
    const long left = left_ms(r);
    if (left <= 0) return {std::nullopt, "no time was left of CUDNN_COMPAT_TIMEOUT"};
    // Half of what is left, so that one library that hangs leaves time for the next candidate.
    const long half = std::max<long>(left / 2, std::min<long>(left, 500));
    return check_library(file, {helper, int(half)});
  };
  io.find_file = find_library_file;
  io.code = [&](const std::string &file) {
    const std::string dir = fs::path(real_path(file)).parent_path().string();
    if (map)
      for (const Installed &e : map->cudnn)
        if (real_path(e.lib) == dir && !e.code.empty()) return e.code;
    return need->node && !need->node->gpus.empty() ? family_code(file) : ReleaseCode{};
  };

  Selection s = select_library(in, io);
  // A map that is there but refused (broken, or writable by others) is said once, even where the
  // ordinary load needs no map.
  if (!map && load && s.say.empty() && fs::exists(find_map_path().value_or(""), ec))
    s.say.push_back("cudnn-compat: " + map_problem + "; the map is not used, loading " + r.name +
                    " as usual");
  return s;
}

std::optional<Request> parse_request(int argc, char **argv) {
  if (argc < 6 || std::string_view(argv[1]) != CUDNN_COMPAT_PROTOCOL) return std::nullopt;
  Request r{argv[2], argv[3], argv[4], Clock::now(), std::nullopt};
  r.deadline += std::chrono::milliseconds(std::strtol(argv[5], nullptr, 10));
  if (!(argc == 7 && std::string_view(argv[6]) == CUDNN_COMPAT_NO_DIRS))
    r.dirs = std::vector<std::string>(argv + 6, argv + argc);
  return r;
}

// "L:/dir" -> the loader's step it stands for (shim/protocol.h).
SearchStep search_step(std::string_view arg, const std::string &requester) {
  const std::string dir(arg.size() > 2 ? arg.substr(2) : "");
  switch (arg.empty() ? '?' : arg[0]) {
    case 'L':
      return {dir, "LD_LIBRARY_PATH"};
    case 'P':
      return {dir, "RPATH of " + requester};
    default:
      return {dir, "RUNPATH of " + requester};
  }
}

// The shim starts this with every signal blocked and the host's ignored signals still ignored
// (execve keeps both); a probe must see crashes as crashes, and a SIGCHLD the host ignores would
// reap the probes before their status is read.
void default_signals() {
  for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

}  // namespace

int main(int argc, char **argv) {
  default_signals();
  Selection s;
  try {
    if (const std::optional<Request> r = parse_request(argc, argv))
      s = decide(*r, env("CUDNN_COMPAT_DEBUG") == std::optional<std::string>("1"));
    else
      s.say.push_back("cudnn-compat: the engine speaks protocol " CUDNN_COMPAT_PROTOCOL
                      " but was run otherwise (a shim of another install?); loading as usual");
  } catch (const std::exception &e) {
    s = {{}, {std::string("cudnn-compat: internal error: ") + e.what() + "; loading as usual"}};
  }
  for (const std::string &line : s.say) std::cout << "say " << line << '\n';
  std::cout << (s.use ? "use " + *s.use : std::string("pass"))
            << "\nend " CUDNN_COMPAT_PROTOCOL "\n"
            << std::flush;
  return 0;
}
