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

// The file an entry loads: itself when it holds a '/', else the search's hit; "" when none.
std::string entry_file(const std::string &entry, const LoaderContext &lc) {
  if (entry.find('/') != std::string::npos) return entry;
  LoaderContext plain = lc;
  plain.preloaded.clear();
  const std::optional<LoaderHit> hit = loader_search(entry, plain);
  return hit ? hit->path : "";
}

// Why ld.so cannot load file (entry, as the list gives it), in words; "" when it is an ELF object.
std::string unloadable(std::string_view var, const std::string &entry, const std::string &file) {
  if (file.empty())
    return "which the loader's search does not find (a name without a '/' is searched as a "
           "library is)";
  struct stat st {};
  std::string why = stat(file.c_str(), &st) != 0 ? "which is not there"
                    : S_ISDIR(st.st_mode)        ? "which is a directory"
                    : !read_elf_dynamic(file)    ? "which is no shared object (empty, or not ELF)"
                                                 : "";
  if (!why.empty() && var == "LD_AUDIT" && entry.find(' ') != std::string::npos)
    why += " (LD_AUDIT splits at colons alone: the space is part of the name)";
  return why;
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
        out.push_back({file, elf->soname});
  return out;
}

ShimInEnv shim_in_env(std::string_view ld_audit, std::string_view ld_preload,
                      const LoaderContext &lc) {
  ShimInEnv out;
  for (const auto &[var, value] : {std::pair{"LD_AUDIT", ld_audit}, {"LD_PRELOAD", ld_preload}})
    for (const std::string &entry : loader_list(var, value)) {
      const std::string file = entry_file(entry, lc);
      const Parsed<ElfDynamic> elf =
          file.empty() ? Parsed<ElfDynamic>::fail("") : read_elf_dynamic(file);
      if (!(elf && elf->soname == kShimSoname)) {
        if (entry.find("libcudnn-compat") != std::string::npos && out.ignored.empty())
          out.ignored = std::string(var) + " names " + entry + ", " + unloadable(var, entry, file) +
                        ": ld.so ignores it (\"cannot be " +
                        (var[3] == 'A' ? "loaded as audit interface" : "preloaded") +
                        " ... ignored\") and every load goes on as usual";
        continue;
      }
      const std::string engine =
          (std::filesystem::path(file).parent_path() / CUDNN_COMPAT_ENGINE_NAME).string();
      if (access(engine.c_str(), X_OK) == 0) return {var, file, ""};
      if (out.ignored.empty())
        out.ignored = std::string(var) + " names " + file + ", the shim without its engine " +
                      engine + " beside it: it decides nothing and every load goes on as usual";
    }
  return out;
}

}  // namespace cudnn_compat
