// What this node runs: its GPUs' compute capabilities and its driver's CUDA, learnt once per node
// and boot. In order: the overrides (CUDNN_COMPAT_GPU_ARCH, CUDNN_COMPAT_DRIVER_CUDA), the node
// file of this boot, NVML (libnvidia-ml.so.1, loaded in cudnn-compat-probe --nvml, never here),
// nvidia-smi, /proc/driver/nvidia/version. An NVML that is there but fails or hangs is the
// node's answer: said, remembered for the boot, and never guessed past.
#include "atomic_write.h"
#include "node_file.h"
#include "spawn_process.h"
#include "system.h"
#include "text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include <fstream>
#include <sstream>

namespace cudnn_compat {
namespace {

constexpr std::string_view kNotStarted = "nothing: the NVML probe did not start: ";

// "X.Y", X 1 to 99, Y one digit: a compute capability, or a driver's CUDA in the node file.
std::optional<Version> x_dot_y(std::string_view s) {
  // Digits and the dot alone: no 'v', no space (parse_dotted's), as every reader of the node file.
  const std::size_t dot = s.find('.');
  if (dot == 0 || dot > 2 || s.size() != dot + 2 || s.find_first_not_of("0123456789.") != s.npos)
    return std::nullopt;
  const std::optional<Version> v = parse_dotted(s).value;
  if (!v || !v->minor || v->major < 1) return std::nullopt;
  return v;
}

std::optional<int> parse_arch(std::string_view s) {
  const std::optional<Version> v = x_dot_y(s);
  return v ? std::optional<int>(v->major * 10 + *v->minor) : std::nullopt;
}

// A value of the node file on one line of its own: no control character (the grammar's).
std::string one_line(std::string s) {
  for (char &c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return s;
}

// "12020" (NVML, cuDriverGetVersion) -> 12.2.
Version cuda_of_number(std::int64_t n) {
  return {int(n / 1000), int(n % 1000 / 10), {}, {}};
}

std::string read_file(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The probe's environment: the caller's without preloads or a shim.
std::vector<std::string> clean_environment() {
  std::vector<std::string> out;
  for (char **e = environ; *e; ++e) {
    const std::string_view v = *e;
    if (!v.starts_with("LD_PRELOAD=") && !v.starts_with("LD_AUDIT=")) out.emplace_back(v);
  }
  out.emplace_back("CUDNN_COMPAT_DISABLE=1");
  return out;
}

std::string seconds(int ms) {
  return std::to_string((ms + 999) / 1000) + " s";
}

// Why GPUs and a driver cannot both be so (a GPU the driver is too old to know: compute capability
// 12.0 needs CUDA 12.8), in the words of where each came from; nullopt when they agree.
std::optional<std::string> contradiction(const NodeFacts &f, const std::string &gpus_from,
                                         const std::string &driver_from) {
  for (int gpu : f.gpus) {
    const std::optional<Version> first = first_cuda_for(gpu);
    if (f.driver_cuda && first && compare(*f.driver_cuda, *first) < 0)
      return gpus_from + " and " + driver_from +
             " contradict each other: a GPU of compute capability " + arch_name(gpu) +
             " needs a driver of CUDA " + to_string(*first) + " or newer";
  }
  return std::nullopt;
}

// NVML, then nvidia-smi, then the kernel module's version; no facts when none is there (a login
// node), which is remembered too.
NodeFacts ask_the_driver(const NodeSources &s) {
  SpawnOptions how;
  how.env = clean_environment();
  how.timeout_ms = s.timeout_ms;
  how.default_signals = true;
  how.max_output = 65536;
  const SpawnResult nvml = spawn_process({s.helper, "--nvml"}, how);
  // No process left (ulimit -u, a noexec mount): nothing is known and nothing remembered - the
  // node is not judged, as one without GPUs, and the next load asks again.
  if (!nvml.started) return NodeFacts{{}, {}, std::string(kNotStarted) + nvml.error, ""};
  if (nvml.timed_out)
    return NodeFacts{{}, {}, "NVML", "NVML did not answer within " + seconds(s.timeout_ms)};
  if (std::optional<NodeFacts> f = parse_nvml_answer(nvml.out)) return *f;
  how.search_path = true;
  how.env.reset();
  const SpawnResult smi = spawn_process(
      {s.nvidia_smi, "--query-gpu=compute_cap,driver_version", "--format=csv,noheader"}, how);
  if (smi.timed_out)
    return NodeFacts{
        {}, {}, "nvidia-smi", "nvidia-smi did not answer within " + seconds(s.timeout_ms)};
  if (smi.started && (smi.exit_code != 0 || !smi.out.empty())) return parse_nvidia_smi(smi.out);
  if (const std::optional<Version> cuda = parse_proc_driver(read_file(s.proc_version)))
    return NodeFacts{{}, cuda, s.proc_version, ""};
  return NodeFacts{{}, {}, "no NVML, nvidia-smi or NVIDIA driver", ""};
}

}  // namespace

Parsed<std::optional<NodeFacts>> node_overrides(std::string_view gpu_arch,
                                                std::string_view driver_cuda) {
  using Result = Parsed<std::optional<NodeFacts>>;
  if (gpu_arch.empty() && driver_cuda.empty()) return {std::optional<NodeFacts>(), {}};
  NodeFacts f;
  f.source = !gpu_arch.empty() ? "CUDNN_COMPAT_GPU_ARCH" : "CUDNN_COMPAT_DRIVER_CUDA";
  for (std::string_view item :
       gpu_arch.empty() ? std::vector<std::string_view>{} : split(gpu_arch, ',')) {
    // As every reader of the node file and the overrides takes X.Y: no space, no 'v'.
    const std::optional<int> arch = parse_arch(item);
    if (!arch)
      return Result::fail("CUDNN_COMPAT_GPU_ARCH=\"" + printable(gpu_arch) + "\": \"" +
                          printable(item) +
                          "\" is not a compute capability; give X.Y or a list "
                          "(7.5,9.0)");
    // Each architecture once: a list of one item per GPU names a few kinds (and says them once).
    if (std::find(f.gpus.begin(), f.gpus.end(), *arch) == f.gpus.end()) f.gpus.push_back(*arch);
  }
  if (!driver_cuda.empty()) {
    const std::optional<Version> v = x_dot_y(driver_cuda);
    if (!v)
      return Result::fail("CUDNN_COMPAT_DRIVER_CUDA=\"" + printable(driver_cuda) +
                          "\" is not a CUDA version; give X.Y (12.2)");
    f.driver_cuda = v;
  }
  if (std::optional<std::string> why =
          contradiction(f, "CUDNN_COMPAT_GPU_ARCH=" + std::string(gpu_arch),
                        "CUDNN_COMPAT_DRIVER_CUDA=" + std::string(driver_cuda)))
    return Result::fail(*why);
  return {std::optional<NodeFacts>(f), {}};
}

std::optional<NodeFacts> parse_nvml_answer(std::string_view out) {
  NodeFacts f{{}, {}, "NVML", ""};
  std::optional<Version> forward;  // libcuda's own CUDA: cuda-compat's, when it is on the path
  for (std::string_view line : split(out, '\n')) {
    if (line.starts_with("absent ")) return std::nullopt;
    if (line.starts_with("error ")) f.problem = "NVML: " + std::string(line.substr(6));
    if (line.starts_with("gpu "))
      if (const std::optional<int> a = parse_arch(line.substr(4))) f.gpus.push_back(*a);
    if (line.starts_with("driver "))
      if (const std::optional<std::int64_t> n = parse_uint(line.substr(7)))
        f.driver_cuda = cuda_of_number(*n);
    if (line.starts_with("libcuda "))
      if (const std::optional<std::int64_t> n = parse_uint(line.substr(8)))
        forward = cuda_of_number(*n);
  }
  if (forward && (!f.driver_cuda || compare(*forward, *f.driver_cuda) > 0)) {
    f.driver_cuda = forward;
    f.source = "NVML, CUDA " + to_string(*forward) + " from the libcuda on the library path";
  }
  if (f.problem.empty() && (f.gpus.empty() || !f.driver_cuda))
    f.problem = "NVML gave no GPUs or no driver version";
  return f;
}

NodeFacts parse_nvidia_smi(std::string_view out) {
  NodeFacts f{{}, {}, "nvidia-smi", ""};
  for (std::string_view line : split(out, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    const std::vector<std::string_view> cells = split(line, ',');
    const std::optional<int> arch = cells.size() == 2 ? parse_arch(trim(cells[0])) : std::nullopt;
    const std::optional<Version> driver = arch ? parse_dotted(trim(cells[1])).value : std::nullopt;
    const std::optional<Version> cuda =
        driver && driver->minor ? driver_cuda_for(driver->major, *driver->minor) : std::nullopt;
    if (!cuda) {
      f.problem = "nvidia-smi said \"" + std::string(line) + "\"";
      return f;
    }
    f.gpus.push_back(*arch);
    f.driver_cuda = cuda;
  }
  if (f.gpus.empty()) f.problem = "nvidia-smi listed no GPU";
  return f;
}

std::optional<Version> parse_proc_driver(std::string_view text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023"
  const std::size_t at = text.find("Kernel Module");
  if (at == std::string_view::npos) return std::nullopt;
  for (std::string_view word : split(text.substr(at + 13, 64), ' ')) {
    const std::optional<Version> v = parse_dotted(trim(word)).value;
    if (v && v->minor) return driver_cuda_for(v->major, *v->minor);
  }
  return std::nullopt;
}

std::string format_node_file(const NodeFacts &f, std::string_view boot) {
  std::string value[CUDNN_COMPAT_NODE_LINES];
  value[CUDNN_COMPAT_NODE_BOOT] = boot;
  // Each architecture once: a node of 32 GPUs of one kind is "8.0", which every reader takes (the
  // shim holds at most 16 entries, and passed over the file of a larger node on every load).
  std::vector<int> kinds = f.gpus;
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  value[CUDNN_COMPAT_NODE_GPUS] = gpu_list(kinds);
  value[CUDNN_COMPAT_NODE_DRIVER] = f.driver_cuda ? to_string(*f.driver_cuda) : "";
  value[CUDNN_COMPAT_NODE_SOURCE] = one_line(f.source);
  value[CUDNN_COMPAT_NODE_PROBLEM] = one_line(f.problem);
  std::string text;
  for (int i = 0; i < CUDNN_COMPAT_NODE_LINES; ++i)
    text += cudnn_compat_node_key(i) + ("\t" + value[i]) + "\n";
  return text + SITE_END_LINE "\n";
}

std::optional<NodeFacts> parse_node_file(std::string_view text, std::string_view boot) {
  // The grammar every reader applies (shim/shared/node_file.h): anything else is not believed.
  cudnn_compat_node_lines l{};
  if (!cudnn_compat_node_file_parse(text.data(), long(text.size()), &l)) return std::nullopt;
  const auto value = [&](int i) { return std::string_view(l.value[i], std::size_t(l.len[i])); };
  if (boot.empty() || value(CUDNN_COMPAT_NODE_BOOT) != boot) return std::nullopt;
  NodeFacts f{{},
              {},
              std::string(value(CUDNN_COMPAT_NODE_SOURCE)),
              std::string(value(CUDNN_COMPAT_NODE_PROBLEM))};
  const std::string_view gpus = value(CUDNN_COMPAT_NODE_GPUS);
  for (std::string_view g : gpus.empty() ? std::vector<std::string_view>{} : split(gpus, ','))
    if (const std::optional<int> a = parse_arch(g))
      f.gpus.push_back(*a);
    else
      return std::nullopt;
  const std::string_view driver = value(CUDNN_COMPAT_NODE_DRIVER);
  if (!driver.empty() && !(f.driver_cuda = x_dot_y(driver))) return std::nullopt;
  return f;
}

std::string node_file_path(const std::string &dir, std::string_view node) {
  // Only a directory of this user's own that nobody else may write: a node file planted by
  // another user would choose the releases of this user's jobs.
  mkdir(dir.c_str(), 0700);
  struct stat st {};
  if (dir.empty() || lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
      st.st_uid != geteuid() || (st.st_mode & 022) != 0)
    return "";
  if (!cudnn_compat_node_name_usable(std::string(node).c_str())) return "";
  return dir + "/" CUDNN_COMPAT_NODE_FILE_PREFIX + std::string(node);
}

Parsed<std::optional<NodeFacts>> node_entry_facts(std::string_view gpu_arch,
                                                  std::string_view driver_cuda) {
  Parsed<std::optional<NodeFacts>> f = node_overrides(gpu_arch, driver_cuda);
  for (const auto &[from, to] : {std::pair{"CUDNN_COMPAT_GPU_ARCH", "gpu_arch"},
                                 {"CUDNN_COMPAT_DRIVER_CUDA", "driver_cuda"}})
    for (std::size_t at; (at = f.error.find(from)) != std::string::npos;)
      f.error.replace(at, std::string_view(from).size(), to);
  return f;
}

namespace {

std::uint64_t clock_ns(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return std::uint64_t(t.tv_sec) * 1000000000u + std::uint64_t(t.tv_nsec);
}

// At most CUDNN_COMPAT_NODE_FILE_MAX + 1 bytes of the file (a FIFO opened without blocking).
std::string read_node_text(const std::string &file) {
  std::string text(CUDNN_COMPAT_NODE_FILE_MAX + 1, '\0');
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  ssize_t n = -1;
  if (fd >= 0) {
    while ((n = read(fd, text.data(), text.size())) < 0 && errno == EINTR) {
    }
    close(fd);
  }
  text.resize(n < 0 ? 0 : std::size_t(n));
  return text;
}

// The node file's facts when it is of this boot by both of the rule's checks (its mtime and its
// boot line, shim/shared/node_file.h); else nullopt, and the caller learns the node anew.
std::optional<NodeFacts> remembered(const std::string &file, std::string_view boot) {
  struct stat st {};
  // lstat: a link, a FIFO or a file others may write is no file of the engine's; nor one larger
  // than any the engine writes, judged by its size, never read (a file of GBs held every load).
  if (lstat(file.c_str(), &st) != 0 || st.st_size > CUDNN_COMPAT_NODE_FILE_MAX ||
      !cudnn_compat_node_file_trusted(st.st_uid, st.st_mode, geteuid()) ||
      !cudnn_compat_node_file_of_this_boot(
          std::uint64_t(st.st_mtim.tv_sec) * 1000000000u + std::uint64_t(st.st_mtim.tv_nsec),
          clock_ns(CLOCK_REALTIME), clock_ns(CLOCK_BOOTTIME)))
    return std::nullopt;
  return parse_node_file(read_node_text(file), boot);
}

// The map's [[node]] entry as overrides of its own, its words in place of the variables'.
Parsed<std::optional<NodeFacts>> map_entry_facts(const NodeSources &s) {
  Parsed<std::optional<NodeFacts>> f = node_entry_facts(s.map_gpu_arch, s.map_driver_cuda);
  if (!f.error.empty()) f.error = s.map_entry + ": " + f.error;
  if (f.value && *f.value) (*f.value)->source = s.map_entry;
  return f;
}

}  // namespace

std::optional<std::string> node_unknown(const NodeFacts &f) {
  if (!f.problem.empty()) return f.problem;
  if (f.source.starts_with(kNotStarted))
    return f.source.substr(std::string_view("nothing: ").size());
  return std::nullopt;
}

namespace {

// facts completed from other (the fact they lack), the pair then checked as two overrides are:
// nullopt when other gives nothing they lack.
std::optional<NodeFacts> completed(const NodeFacts &facts, const NodeFacts &other) {
  NodeFacts f = facts;
  const bool gpus_given = !f.gpus.empty();
  if (!gpus_given) f.gpus = other.gpus;
  if (!f.driver_cuda) f.driver_cuda = other.driver_cuda;
  const bool adds = (!gpus_given && !f.gpus.empty()) || (!facts.driver_cuda && f.driver_cuda);
  if (!adds) return std::nullopt;
  const std::string gpus = "compute capability " + gpu_list(f.gpus),
                    driver = "CUDA " + (f.driver_cuda ? to_string(*f.driver_cuda) : "");
  if (std::optional<std::string> why =
          gpus_given ? contradiction(f, f.source + " (" + gpus + ")",
                                     "the driver " + other.source + " names (" + driver + ")")
                     : contradiction(f, "the GPUs " + other.source + " names (" + gpus + ")",
                                     f.source + " (" + driver + ")"))
    return NodeFacts{{}, {}, f.source, *why};
  return f;
}

}  // namespace

std::optional<NodeFacts> learn_node_facts(const NodeSources &s) {
  const bool from_map = s.gpu_arch.empty() && s.driver_cuda.empty() && !s.map_entry.empty();
  const Parsed<std::optional<NodeFacts>> over =
      from_map ? map_entry_facts(s) : node_overrides(s.gpu_arch, s.driver_cuda);
  if (!over) return NodeFacts{{}, {}, from_map ? s.map_entry : "the overrides", over.error};
  std::optional<NodeFacts> given = *over;
  // One override: the other fact from the map's [[node]] entry for this node, when it says it.
  if (given && !from_map && !s.map_entry.empty())
    if (const Parsed<std::optional<NodeFacts>> entry = map_entry_facts(s); entry && *entry)
      if (std::optional<NodeFacts> f = completed(*given, **entry)) given = f;
  if (given && ((!given->gpus.empty() && given->driver_cuda) || !given->problem.empty()))
    return given;
  // Without a boot id nothing is remembered: a file could not be told from an earlier boot's.
  const std::string boot = std::string(trim(read_file(CUDNN_COMPAT_BOOT_ID)));
  const std::string file = boot.empty() ? "" : node_file_path(s.memo_dir, s.node);
  std::optional<NodeFacts> learnt = file.empty() ? std::nullopt : remembered(file, boot);
  if (!learnt) {
    learnt = ask_the_driver(s);
    if (!file.empty() && !learnt->source.starts_with(kNotStarted)) {
      write_own_file_atomically(file, format_node_file(*learnt, boot), 0600);
    }
  }
  if (!given) return learnt;
  // One override (or an entry of one fact), the other fact learnt.
  if (!learnt || !learnt->problem.empty()) return given;
  return completed(*given, *learnt).value_or(*given);
}

}  // namespace cudnn_compat
