// What ld.so takes from LD_AUDIT and LD_PRELOAD before the program runs: doctor and resolve judged
// the shim "on" by a file's name that ld.so had ignored, and missed a cuDNN that LD_PRELOAD had
// loaded before anything asked (helper 99). Reads ELF files: I/O at the edge.
#include "system.h"
#include "text.h"

#include "shared/ld_system.h"
#include "shared/protocol.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace cudnn_compat {
namespace {

constexpr std::string_view kShimSoname = "libcudnn-compat.so";

// The file an entry loads: itself when it holds a '/' (its $ORIGIN, $LIB and $PLATFORM expanded
// as ld.so does, $ORIGIN being the program's directory), else the search's hit as the program
// asks; "" when none.
std::string entry_file(const std::string &entry, const LoaderContext &lc) {
  if (entry.find('$') != std::string::npos) {
    const std::string origin =
        lc.executable.empty() ? "" : std::filesystem::path(lc.executable).parent_path().string();
    const std::string_view lib =
        lc.default_dirs.empty() ? std::string_view("/lib") : lc.default_dirs.front();
    const std::vector<std::string> dirs =
        expand_search_path(entry, origin, lib.substr(1), CUDNN_COMPAT_RUNPATH_SEPARATORS);
    return dirs.empty() ? "" : dirs.front();
  }
  if (entry.find('/') != std::string::npos) return entry;
  LoaderContext plain = lc;
  plain.preloaded.clear();
  plain.requester = plain.executable;  // ld.so searches a preload for the program itself
  const std::optional<LoaderHit> hit = loader_search(entry, plain);
  return hit ? hit->path : "";
}

// Why ld.so cannot load file (entry, as the list gives it), which is no ELF object it reads, in
// words.
std::string unloadable(std::string_view var, const std::string &entry, const std::string &file) {
  if (file.empty())
    return entry.find('$') != std::string::npos
               ? "whose $ORIGIN is the program's directory, unknown here (give it with --for)"
               : "which the loader's search does not find (a name without a '/' is searched as "
                 "a library is)";
  struct stat st {};
  std::string why = stat(file.c_str(), &st) != 0      ? "which is not there"
                    : S_ISDIR(st.st_mode)             ? "which is a directory"
                    : access(file.c_str(), R_OK) != 0 ? "which this user cannot read"
                                                      : "which is no shared object this loader "
                                                        "takes (empty, not ELF, or not 64-bit)";
  if (var == "LD_AUDIT" && entry.find(' ') != std::string::npos)
    why += " (LD_AUDIT splits at colons alone: the space is part of the name)";
  return why;
}

// Why an entry that names the shim, or is a file of its SONAME, does nothing ("" where it works):
// ld.so ignores what it cannot load, and loads another library as that library; the shim finds
// its engine in its own file's directory, links resolved (it reads /proc/self/maps).
std::string not_working(std::string_view var, const std::string &entry, const std::string &file,
                        const Parsed<ElfDynamic> &elf) {
  const std::string head = std::string(var) + " names " + entry + ", ";
  const std::string tail = " and every load goes on as usual";
  if (!elf)
    return head + unloadable(var, entry, file) + ": ld.so ignores it (\"cannot be " +
           (var == "LD_AUDIT" ? "loaded as audit interface" : "preloaded") + " ... ignored\")" +
           tail;
  if (elf->soname != kShimSoname)
    return head + "which is another library (SONAME " +
           (elf->soname.empty() ? std::string("none") : elf->soname) + "), not the shim" +
           (var == "LD_AUDIT" ? ": ld.so takes no audit module from it," : ",") + tail;
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(file, ec);
  const std::string engine =
      ((ec ? std::filesystem::path(file) : real).parent_path() / CUDNN_COMPAT_ENGINE_NAME).string();
  struct stat st {};
  if (stat(engine.c_str(), &st) != 0)
    return head + "the shim without its engine " + engine + " beside it: it decides nothing," +
           tail;
  if (access(engine.c_str(), X_OK) != 0)
    return head + "the shim, whose engine " + engine + " cannot be run (not executable):" + tail;
  return "";
}

}  // namespace

std::vector<std::string> loader_list(std::string_view var, std::string_view value) {
  const std::string_view separators =
      var == "LD_AUDIT" ? CUDNN_COMPAT_AUDIT_SEPARATORS : CUDNN_COMPAT_PRELOAD_SEPARATORS;
  std::vector<std::string> out;
  for (std::size_t at = 0; at < value.size();) {
    const std::size_t end = std::min(value.size(), value.find_first_of(separators, at));
    if (end > at) out.emplace_back(value.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::vector<Preloaded> preloaded_objects(std::string_view ld_preload, const LoaderContext &lc) {
  std::vector<Preloaded> out;
  for (const std::string &entry : loader_list("LD_PRELOAD", ld_preload))
    if (const std::string file = entry_file(entry, lc); !file.empty())
      if (const Parsed<ElfDynamic> elf = read_elf_dynamic(file); elf && !elf->soname.empty())
        out.push_back({file, elf->soname, entry});
  return out;
}

std::optional<LoaderHit> preloaded_family(const LoaderContext &lc, const LibraryName &requested,
                                          int major) {
  for (const Preloaded &p : lc.preloaded)
    if (const Parsed<LibraryName> n = parse_library_name(p.soname);
        n && n->version && n->version->major == major) {
      const std::string dir = std::filesystem::path(p.file).parent_path().string();
      return LoaderHit{
          *n == requested ? p.file : find_library_file(dir, requested, major).value_or(p.file),
          "LD_PRELOAD", p.entry};
    }
  return std::nullopt;
}

ShimInEnv shim_in_env(std::string_view ld_audit, std::string_view ld_preload,
                      const LoaderContext &lc) {
  ShimInEnv out;
  for (const auto &[var, value] : {std::pair{"LD_AUDIT", ld_audit}, {"LD_PRELOAD", ld_preload}})
    for (const std::string &entry : loader_list(var, value)) {
      const std::string file = entry_file(entry, lc);
      const Parsed<ElfDynamic> elf =
          file.empty() ? Parsed<ElfDynamic>::fail("") : read_elf_dynamic(file);
      const bool shim = elf && elf->soname == kShimSoname;
      if (!shim && entry.find("libcudnn-compat") == std::string::npos) continue;
      const std::string why = not_working(var, entry, file, elf);
      if (why.empty()) return {var, file, ""};
      if (out.ignored.empty()) out.ignored = why;
    }
  return out;
}

}  // namespace cudnn_compat
