// Where the engine reads the environment: nowhere else.
#include "system.h"

#include "site_contract.h"
#include "text.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace cudnn_compat {

// secure_getenv: in a setuid process the environment belongs to someone else.
std::optional<std::string> env(const char *name) {
  const char *v = secure_getenv(name);
  std::optional<std::string> value = v && *v ? std::optional<std::string>(v) : std::nullopt;
  note_env_read(name, value);
  return value;
}

std::optional<std::string> prefix_of_program_dir(std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  for (std::string_view sub : {"/" SITE_BINDIR, "/" SITE_PKGLIBDIR})
    if (dir.ends_with(sub)) {
      dir.remove_suffix(sub.size());
      return std::string(dir.empty() ? "/" : dir);
    }
  return std::nullopt;
}

std::optional<std::string> program_path() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self.string();
  // No /proc: the path it was run by, when that names a file (a slash in it) rather than a search
  // of PATH, made absolute with its links resolved as /proc/self/exe would be.
  const std::string run_as = program_invocation_name;
  if (run_as.find('/') == std::string::npos) return std::nullopt;
  const std::filesystem::path real = std::filesystem::canonical(run_as, ec);
  return ec ? std::nullopt : std::optional<std::string>(real.string());
}

namespace {
// The main program is the first object dl_iterate_phdr reports, static or not.
int build_id_of_first(dl_phdr_info *info, std::size_t, void *data) {
  auto *out = static_cast<std::string *>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    // A note segment left at address 0 (objcopy --remove-section of the note) is no note.
    if (ph.p_type != PT_NOTE || ph.p_vaddr == 0 || ph.p_memsz == 0) continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *const end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto *n = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof *n;
      const char *desc = name + ((n->n_namesz + 3) & ~3u);
      if (desc + n->n_descsz > end) break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
          std::string_view(name, 4) == std::string_view("GNU\0", 4)) {
        static constexpr char kHex[] = "0123456789abcdef";
        for (std::uint32_t k = 0; k < n->n_descsz; ++k) {
          const auto byte = static_cast<unsigned char>(desc[k]);
          *out += kHex[byte >> 4];
          *out += kHex[byte & 15];
        }
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}
}  // namespace

std::string program_build_id() {
  std::string id;
  dl_iterate_phdr(build_id_of_first, &id);
  return id;
}

std::optional<std::string> install_prefix() {
  // The running program's own file: an installed tree that was moved finds itself where it is now.
  const std::optional<std::string> self = program_path();
  if (!self) return std::nullopt;
  return prefix_of_program_dir(std::filesystem::path(*self).parent_path().string());
}

namespace {
// The prefix /usr, where the FHS has no etc/ (a trailing '/' allowed).
bool fhs_prefix(std::string_view prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.remove_suffix(1);
  return prefix == SITE_FHS_PREFIX;
}
constexpr bool absolute_sysconfdir = SITE_SYSCONFDIR[0] == '/';
}  // namespace

std::string installed_map_path(const std::string &prefix) {
  if (!absolute_sysconfdir && fhs_prefix(prefix)) return SITE_SYSTEM_MAP;
  // An absolute sysconfdir (-DCMAKE_INSTALL_SYSCONFDIR=/etc) replaces the prefix here.
  return (std::filesystem::path(prefix) / SITE_SYSCONFDIR / "cudnn-compat" / SITE_MAP_NAME)
      .lexically_normal()
      .string();
}

std::string example_map_path(const std::string &prefix) {
  const auto under = [&](const char *rel) {
    return (std::filesystem::path(prefix) / rel).lexically_normal().string();
  };
  if (fhs_prefix(prefix)) return under(SITE_EXAMPLE_MAP_SHARED);
  // A tree laid out for /usr but found elsewhere (a .deb unpacked into another root) has its
  // example under share/.
  std::error_code ec;
  if (!std::filesystem::exists(under(SITE_EXAMPLE_MAP), ec) &&
      std::filesystem::exists(under(SITE_EXAMPLE_MAP_SHARED), ec))
    return under(SITE_EXAMPLE_MAP_SHARED);
  return under(SITE_EXAMPLE_MAP);
}

std::vector<std::string> default_map_search(const std::optional<std::string> &prefix) {
  std::vector<std::string> path;
  if (prefix) {
    std::string installed = installed_map_path(*prefix);
    if (installed != SITE_SYSTEM_MAP) path.push_back(std::move(installed));
  }
  path.push_back(SITE_SYSTEM_MAP);
  return path;
}

std::vector<std::string> map_search_path() {
  std::vector<std::string> path;
  if (std::optional<std::string> m = env("CUDNN_COMPAT_MAP")) path.push_back(*m);
  for (std::string &p : default_map_search(install_prefix())) path.push_back(std::move(p));
  return path;
}

std::string default_map_search_text(const std::optional<std::string> &prefix) {
  const auto words = [](const std::vector<std::string> &paths) {
    std::string out;
    for (const std::string &p : paths) out += (out.empty() ? "" : ", then ") + p;
    return out;
  };
  if (prefix) return words(default_map_search(*prefix));
  // Every installation: a tree under <prefix>, and the prefix /usr where that rule differs.
  const std::string any = words(default_map_search("<prefix>")),
                    fhs = words(default_map_search(SITE_FHS_PREFIX));
  return fhs == any
             ? any
             : any + " (installed under " SITE_FHS_PREFIX ", as by the .deb: " + fhs + " only)";
}

const std::vector<std::string> &container_marker_files() {
  static const std::vector<std::string> files = {"/.singularity.d"};  // every Apptainer image's
  return files;
}

// Only a runtime that passes the host's environment on by default counts: Apptainer and
// Singularity, which also set these variables in every container. Docker (/.dockerenv) and
// Podman (/run/.containerenv, container=podman) start from the image's environment, so a host's
// LD_AUDIT or module does not come in unless it is passed on purpose (-e): there the shim behaves
// as on any host (the machines these tests run on are such Docker containers).
std::optional<std::string> container_evidence() {
  for (const char *var : {"APPTAINER_CONTAINER", "SINGULARITY_CONTAINER"})
    if (env(var)) return std::string(var) + " is set";
  for (const std::string &file : container_marker_files()) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) return file + " exists";
  }
  return std::nullopt;
}

std::optional<std::string> find_map_path() {
  // A map named explicitly is taken even when missing, so its absence is reported, not skipped.
  if (std::optional<std::string> m = env("CUDNN_COMPAT_MAP")) return m;
  for (const std::string &p : map_search_path()) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) return p;
  }
  return std::nullopt;
}

ModuleSystemKind shell_module_system() {
  if (env("LMOD_CMD") || env("LMOD_VERSION")) return ModuleSystemKind::lmod;
  if (env("MODULES_CMD")) return ModuleSystemKind::envmodules;
  for (const char *var : {"BASH_FUNC_module%%", "BASH_FUNC_module()", "MODULESHOME"})
    if (const std::optional<std::string> v = env(var)) {
      if (v->find("lmod") != std::string::npos) return ModuleSystemKind::lmod;
      if (v->find("modulecmd") != std::string::npos || v->find("modules") != std::string::npos)
        return ModuleSystemKind::envmodules;
    }
  return ModuleSystemKind::unknown;
}

ModuleScene module_scene_from_environment() {
  ModuleScene s;
  s.system = shell_module_system();
  // Both systems keep LOADEDMODULES and _LMFILES_ in step, one entry per loaded module.
  const std::string names = env("LOADEDMODULES").value_or(""),
                    files = env("_LMFILES_").value_or("");
  const std::vector<std::string_view> file_list = split(files, ':');
  std::size_t i = 0;
  for (std::string_view n : split(names, ':')) {
    if (!n.empty())
      s.loaded.push_back({std::string(n), i < file_list.size() ? std::string(file_list[i]) : ""});
    ++i;
  }
  for (char **e = environ; *e; ++e)
    if (std::string_view v(*e); v.starts_with("EBROOT") && v.find('=') != std::string_view::npos)
      s.ebroots.emplace_back(v.substr(0, v.find('=')));
  // The application: the first loaded one that says what it needs.
  const std::string needs = env("CUDNN_COMPAT_NEEDS").value_or("");
  for (std::string_view entry : split(needs, ':'))
    if (const std::size_t eq = entry.find('='); eq != 0 && eq != std::string_view::npos) {
      s.app = std::string(entry.substr(0, eq));
      break;
    }
  return s;
}

}  // namespace cudnn_compat
