// The dynamic loader's search for a bare library name, as glibc's ld.so does it: the shim keeps
// what the loader would take when that fits, and `doctor` shows it. Reads ELF files and
// /etc/ld.so.cache (elf_dynamic.cc, ld_cache.cc); everything here is I/O at the edge.
#include "system.h"
#include "text.h"

#include "shared/ld_system.h"
#include "shared/loadable.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace cudnn_compat {
namespace {

bool exists_file(const std::string &path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

// A file the loader's search opens: one this process may not read it passes over (EACCES), as
// the shim's walk does (shared/loadable.h).
bool opened_in_search(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         cudnn_compat_may_read(path.c_str(), &st);
}

// After the requester's own directories: ld.so.cache, then the default directories.
void add_system_steps(const LoaderContext &in, std::vector<SearchStep> &steps) {
  steps.push_back({in.ld_cache, "ld.so.cache"});
  for (const std::string &d : in.default_dirs) steps.push_back({d, "the default directories"});
}

}  // namespace

std::vector<std::string> expand_search_path(std::string_view list, const std::string &origin,
                                            std::string_view lib, std::string_view separators) {
  std::vector<std::string> dirs;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t to = std::min(list.find_first_of(separators, from), list.size());
    const std::string_view entry = list.substr(from, to - from);
    from = to + 1;
    std::string dir;
    bool usable = true;
    for (std::size_t i = 0; i < entry.size(); ++i) {
      const std::string_view rest = entry.substr(i);
      const auto token = [&](const char *name) {
        return std::size_t(cudnn_compat_token_length(rest.data(), rest.size(), name));
      };
      std::size_t n = 0;
      if (rest[0] != '$') {
        dir += rest[0];
      } else if ((n = token("ORIGIN"))) {
        // An origin the loader cannot tell discards the entry (glibc's _dl_dst_substitute).
        usable = usable && !origin.empty();
        dir += origin;
      } else if ((n = token("LIB"))) {
        dir += lib;
      } else if ((n = token("PLATFORM"))) {
        dir += "x86_64";
      } else {
        dir += '$';
      }
      if (n) i += n - 1;
    }
    // An empty entry means the working directory, as the loader reads it.
    if (usable) dirs.push_back(dir.empty() ? "." : dir);
  }
  return dirs;
}

std::vector<std::string> default_directories(std::string_view loader_dir) {
  // The directories glibc is built with (SYSTEM_DIRS), told by where the loader lives: the shim's
  // rule (shim/shared/ld_system.c), so that both search the same places.
  std::vector<std::string> dirs;
  for (const char *const *d = cudnn_compat_default_dirs(std::string(loader_dir).c_str()); *d; ++d)
    dirs.emplace_back(*d);
  return dirs;
}

std::vector<std::string> loader_default_dirs() {
  std::error_code ec;
  const std::filesystem::path ld =
      std::filesystem::canonical("/lib64/ld-linux-x86-64.so.2", ec).parent_path();
  return default_directories(ec ? "/lib/x86_64-linux-gnu" : ld.string());
}

std::vector<SearchStep> loader_search_path(const LoaderContext &in) {
  std::vector<SearchStep> steps;
  const auto add = [&](std::string_view list, const std::string &origin, const std::string &from,
                       std::string_view separators = CUDNN_COMPAT_RUNPATH_SEPARATORS) {
    // $LIB is the loader's own directory: the first default directory without its leading '/'.
    const std::string_view lib =
        in.default_dirs.empty() ? std::string_view("/lib") : in.default_dirs.front();
    for (std::string &d : expand_search_path(list, origin, lib.substr(1), separators))
      steps.push_back({std::move(d), from});
  };
  if (in.before_cache) {
    steps = *in.before_cache;
    add_system_steps(in, steps);
    return steps;
  }
  const auto origin_of = [](const std::string &file) {
    return std::filesystem::path(file).parent_path().string();
  };
  std::optional<ElfDynamic> requester;
  if (!in.requester.empty())
    if (Parsed<ElfDynamic> d = read_elf_dynamic(in.requester)) requester = *d;
  // DT_RPATH counts only where the requester has no DT_RUNPATH; the executable's RPATH is
  // inherited by every object it loads.
  if (requester && requester->runpath.empty()) {
    if (!requester->rpath.empty())
      add(requester->rpath, origin_of(in.requester), "RPATH of " + in.requester);
    if (!in.executable.empty() && in.executable != in.requester)
      if (Parsed<ElfDynamic> exe = read_elf_dynamic(in.executable);
          exe && exe->runpath.empty() && !exe->rpath.empty())
        add(exe->rpath, origin_of(in.executable), "RPATH of " + in.executable);
  }
  // LD_LIBRARY_PATH splits at ';' too, and its $ORIGIN is the main program's directory.
  if (!in.secure && !in.ld_library_path.empty())
    add(in.ld_library_path, in.executable.empty() ? "" : origin_of(in.executable),
        "LD_LIBRARY_PATH", CUDNN_COMPAT_LIBRARY_PATH_SEPARATORS);
  if (requester && !requester->runpath.empty())
    add(requester->runpath, origin_of(in.requester), "RUNPATH of " + in.requester);
  add_system_steps(in, steps);
  return steps;
}

std::optional<LoaderHit> loader_search(const std::string &name, const LoaderContext &in) {
  if (name.find('/') != std::string::npos)
    return exists_file(name) ? std::optional<LoaderHit>({name, "the path asked for"})
                             : std::nullopt;
  // ld.so matches a bare name against the SONAMEs of what it has loaded before it searches.
  for (const Preloaded &p : in.preloaded)
    if (p.soname == name) return LoaderHit{p.file, "LD_PRELOAD", p.entry};
  for (const SearchStep &s : loader_search_path(in)) {
    if (s.from == "ld.so.cache") {
      if (std::optional<std::string> hit = ld_cache_lookup(name, s.dir, in.hwcaps);
          hit && opened_in_search(*hit))
        return LoaderHit{*hit, s.from};
      continue;
    }
    // glibc >= 2.33 tries each directory's glibc-hwcaps subdirectories first, best first.
    for (const std::string &sub : in.hwcaps)
      if (const std::string c = s.dir + "/glibc-hwcaps/" + sub + "/" + name; opened_in_search(c))
        return LoaderHit{c, s.from};
    const std::string candidate = s.dir + "/" + name;
    if (opened_in_search(candidate)) return LoaderHit{candidate, s.from};
  }
  return std::nullopt;
}

bool dir_holds_cudnn(const std::string &dir) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const Parsed<LibraryName> n = parse_library_name(it->path().filename().string());
    if (n && n->sub.empty() && n->version && !n->windows) return true;
  }
  return false;
}

}  // namespace cudnn_compat
