// Loading: cuDNN's own status codes and loader ("Could not load library ...", "Unable to load any
// of {...}"), the dynamic loader (dlerror, ldd, symbol versions), Windows' loader (126: not found;
// 127: found, but a function is missing - mixed releases) and cuDNN's own dependencies.
#include "explain_read.h"
#include "text.h"

namespace cudnn_compat::explain {
namespace {

// The loader's words after a file it could not open.
constexpr std::string_view kUnopened[] = {": cannot open shared object file", "'; dlerror",
                                          " => not found", ": No such file or directory"};

bool mentions(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}

// The missing symbol belongs to one of cuDNN's dependencies (libnvrtc, cuBLAS, the CUDA runtime):
// that dependency came from another CUDA release, cuDNN's own family is fine.
std::optional<std::string> dependency_symbol(std::string_view s) {
  auto r = after(s, "undefined symbol: ");
  if (!r) return std::nullopt;
  for (std::string_view p : {"nvrtc", "cublas", "cuda", "cuGet", "cuLaunch", "cuModule", "z"})
    if (r->starts_with(p)) return std::string(r->substr(0, r->find_first_of(", \t")));
  return std::nullopt;
}

// A symbol the loader could not bind: the library was found, but from another release.
bool symbol_trouble(std::string_view s) {
  return mentions(s, "undefined symbol") || mentions(s, "not defined in file") ||
         mentions(s, "symbol lookup error") || mentions(s, "' not found (required by") ||
         mentions(s, "procedure could not be found") || mentions(s, "WinError 127") ||
         mentions(s, "error 127") || mentions(s, "Error 127") || mentions(s, "0x8007007F");
}

std::optional<Finding> read_status(std::string_view line) {
  // Only the codes that are about versions or loading; the others (EXECUTION_FAILED behind an out
  // of memory, ARCH_MISMATCH, BAD_PARAM, ...) are not a cuDNN release problem.
  struct Code {
    std::string_view name;
    FindingKind kind;
  };
  for (const Code &c :
       {Code{"CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", FindingKind::sublibrary_mismatch},
        Code{"CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", FindingKind::library_not_found},
        Code{"CUDNN_STATUS_VERSION_MISMATCH", FindingKind::version_mismatch}})
    if (mentions(line, c.name)) {
      Finding f = found(c.kind);
      f.status = std::string(c.name);
      return f;
    }
  return std::nullopt;
}

// The loader's reason is that the file is not there ("No such file or directory", or no reason
// given), not that it is there and cannot be loaded (permissions, a 32-bit file, a noexec mount).
bool sibling_missing(std::string_view error) {
  const std::optional<std::string_view> why = after(error, "cannot open shared object file");
  if (!why) return false;
  const std::string_view rest = trim(*why);
  return rest.empty() || says_no_such_file(folded(rest));
}

// The loader's words when the file is there and it could not load it: glibc's reasons after the
// file's name ("libx.so: wrong ELF class: ELFCLASS32"), or after "cannot open shared object file:"
// for an open that failed on a file that exists (EACCES).
// Windows says the same by its error's number (126, not found, and 127 are not among them).
std::optional<std::string> windows_reason(std::string_view error) {
  struct Code {
    std::string_view number, reason;
  };
  for (const Code &c :
       {Code{"1455", "Windows error 1455: the paging file is too small to map it"},
        Code{"193", "Windows error 193: not a valid Win32 application (a 32-bit or damaged DLL)"},
        Code{"1114", "Windows error 1114: its initialisation routine failed"},
        Code{"5", "Windows error 5: access is denied"},
        Code{"8", "Windows error 8: not enough memory"},
        Code{"14", "Windows error 14: not enough memory"}})
    for (std::string_view form : {"WinError ", "Error code ", "error code ", "Error code: "})
      if (const std::size_t at = error.find(std::string(form) + std::string(c.number));
          at != std::string_view::npos) {
        const std::size_t end = at + form.size() + c.number.size();
        if (end == error.size() || !is_digit(error[end])) return std::string(c.reason);
      }
  // Any other number but 126 (not found) and 127 (a function missing: mixed releases) is a file
  // the loader found and could not load (998, 87, 1450, 206: an outside tester's near misses).
  for (std::string_view form : {"WinError ", "Error code ", "error code ", "Error code: "})
    if (const std::size_t at = error.find(form); at != std::string_view::npos) {
      std::string_view n = error.substr(at + form.size());
      n = n.substr(0, std::min(n.size(), n.find_first_not_of("0123456789")));
      if (!n.empty() && n.size() <= 5 && n != "126" && n != "127")
        return "Windows error " + std::string(n);
    }
  return std::nullopt;
}

// The reason glibc gives after a file's name that is not "No such file or directory": after
// "cannot open shared object file:" (EMFILE, ENOMEM, ESTALE, ELOOP, EPERM: found, not opened), or
// a "cannot ..." of its own ("cannot allocate memory in static TLS block", "cannot enable
// executable stack ..."): the file is there (an outside tester's near misses).
std::optional<std::string> glibc_reason(std::string_view error) {
  auto cut = [](std::string_view said) {
    said = said.substr(0, said.find_first_of("\"'\n"));
    while (!said.empty() && (said.back() == '.' || said.back() == ' ')) said.remove_suffix(1);
    return said.empty() ? std::nullopt : std::optional<std::string>(said);
  };
  if (const std::optional<std::string_view> why = after(error, "cannot open shared object file")) {
    const std::string_view rest = trim(*why).substr(trim(*why).starts_with(":") ? 1 : 0);
    return rest.empty() || says_no_such_file(folded(rest)) ? std::nullopt : cut(trim(rest));
  }
  for (std::size_t at = error.find(": cannot "); at != std::string_view::npos;
       at = error.find(": cannot ", at + 1)) {
    const std::string word = word_before(error, at);
    const std::string_view file = basename_of(word);
    if (mentions(file, ".so") || mentions(file, ".dll")) return cut(error.substr(at + 2));
  }
  return std::nullopt;
}

std::optional<std::string> unloadable_reason(std::string_view error) {
  if (std::optional<std::string> why = windows_reason(error)) return why;
  if (std::optional<std::string> why = glibc_reason(error)) return why;
  for (std::string_view reason :
       {"Permission denied", "wrong ELF class", "invalid ELF header", "file too short",
        "failed to map segment from shared object", "ELF file's phentsize not the expected size",
        "Input/output error", "paging file is too small", "not a valid Win32 application",
        "Access is denied", "页面文件太小", "内存不足", "内存资源不足",
        // open(2)'s errors other than ENOENT, as strerror says them: the file is there.
        "Too many open files", "Cannot allocate memory", "Stale file handle",
        "Operation not permitted", "Too many levels of symbolic links",
        "Resource temporarily unavailable", "Text file busy",
        "Value too large for defined data type", "No such device",
        "Transport endpoint is not connected", "Bad address"})
    if (const std::size_t at = error.find(reason); at != std::string_view::npos) {
      std::string_view said = error.substr(at);
      said = said.substr(0, said.find_first_of("\"'\n"));
      while (!said.empty() && (said.back() == '.' || said.back() == ' ')) said.remove_suffix(1);
      return std::string(said);
    }
  return std::nullopt;
}

// "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object
// file" and its kin: the sub-library, its missing dependency, or a symbol of another release.
std::optional<Finding> read_could_not_load(std::string_view line) {
  auto r = after(line, "Could not load library ");
  if (!r) return std::nullopt;
  Finding f = found(FindingKind::library_not_found);
  f.library = library_at(*r);
  if (auto e = after(*r, "Error")) {
    // "Error: out of memory" is no file that is missing.
    if (about_something_else(folded(*e))) return std::nullopt;
    const std::string dep = library_at(e->substr(std::min(e->size(), e->find_first_not_of(": "))));
    const bool a_library = mentions(dep, ".so") || mentions(dep, ".dll");
    if (dependency_symbol(*e) && a_library && !names_cudnn_library(dep)) {
      f.kind = FindingKind::dependency_not_found;  // found, but of another CUDA release
      f.missing = std::string(basename_of(dep));
      f.note = f.missing + " was found but lacks " + *dependency_symbol(*e) +
               ": it belongs to another CUDA release than this cuDNN was built for";
    } else if (symbol_trouble(*e))
      f.kind = FindingKind::sublibrary_mismatch;  // it loaded, but from another release
    else if (a_library && !names_cudnn_library(dep)) {
      f.kind = FindingKind::dependency_not_found;
      f.missing = std::string(basename_of(dep));
      f.unloadable = unloadable_reason(*e).value_or("");  // there, but refused
    } else if (const std::string named(basename_of(dep)); names_cudnn_library(named)) {
      if (std::optional<std::string> why = unloadable_reason(*e)) {
        f.library = named;  // the one asked for, or the sibling that failed it
        f.unloadable = std::move(*why);
      } else if (named != basename_of(f.library) && sibling_missing(*e)) {
        // "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot
        // open": the one asked for is there; the family lacks the sibling it needs.
        f.note = f.library + " was found, but not " + named + ", which it loads: the family in " +
                 "that place is incomplete";
        f.library = named;
      }
    }
    if (mentions(*e, "126")) f.windows_error = 126;
    if (mentions(*e, "127")) f.windows_error = 127, f.kind = FindingKind::sublibrary_mismatch;
    // The one asked for is there and the loader gave its reason ("Error code 1455", "Error code
    // 193"): found, not missing.
    if (f.kind == FindingKind::library_not_found && f.missing.empty() && f.unloadable.empty())
      f.unloadable = unloadable_reason(*r).value_or("");
  }
  if (names_cudnn_library(f.library)) return f;
  // cuDNN names its own dependency: "Could not load library zlibwapi.dll. Error code 193".
  if (!cudnn_dependency(f.library)) return std::nullopt;
  Finding d = found(FindingKind::dependency_not_found);
  d.missing = std::string(basename_of(f.library));
  if (auto e = after(*r, "Error")) d.unloadable = unloadable_reason(*e).value_or("");
  if (mentions(*r, "193"))
    d.note = d.missing + " is there but built for another architecture (32-bit against 64-bit)";
  return d;
}

// cuDNN's own loader and its other messages: a symbol of another release, the list of names it
// tried, the dependencies it names.
std::optional<Finding> read_cudnn_loader(std::string_view line) {
  if (std::optional<Finding> f = read_could_not_load(line)) return f;
  if (auto r = after(line, "Could not load symbol ")) {
    if (auto e = after(*r, "Error: "); e && after(*e, "undefined symbol")) {
      Finding f = found(FindingKind::sublibrary_mismatch);
      f.library = std::string(basename_of(e->substr(0, e->find(':'))));
      if (names_cudnn_library(f.library)) return f;
    }
  }
  if (auto r = after(line, "Unable to load any of {")) {
    Finding f = found(FindingKind::library_not_found);
    const std::string_view list = r->substr(0, r->find('}'));
    for (std::string_view name : split(list, ',')) f.library = std::string(trim(name));
    if (names_cudnn_library(f.library)) return f;
  }
  // PyTorch, when cuDNN's runtime compilation lacks libnvrtc: "Applied workaround for CuDNN
  // issue, install nvrtc.so".
  if (after(line, "workaround for CuDNN issue, install nvrtc.so")) {
    Finding f = found(FindingKind::dependency_not_found);
    f.framework = "pytorch";
    f.missing = "nvrtc.so";
    return f;
  }
  // cuDNN 8's Windows loader names each file it cannot find in its own words, its dependencies
  // too: zlibwapi.dll (8.3 and later), cublasLt64_10.dll (8.0 for CUDA 10.2, held-out-16).
  if (auto r = after(line, "Could not locate ")) {
    const std::vector<std::string> names = file_names(*r);
    if (!names.empty() && !names_cudnn_library(names.front()) &&
        (names.front() == "zlibwapi.dll" || after(*r, "make sure it is in your library path"))) {
      Finding f = found(FindingKind::dependency_not_found);
      f.missing = names.front();
      return f;
    }
  }
  // CUDA.jl's forerunner CuArrays defines libcudnn only where it found the library (Flux.jl#918).
  if (after(line, "UndefVarError: libcudnn not defined")) {
    Finding f = found(FindingKind::library_not_found);
    f.library = "libcudnn";
    f.framework = "julia";
    return f;
  }
  if (after(line, "Invalid handle. Cannot load symbol cudnn")) {
    // The line before it may share its line (a Python repr of both): "Could not locate
    // cudnn_graph64_9.dll. ...\n#> Invalid handle. ..." names the file that was not found.
    Finding f = found(FindingKind::library_not_found);
    for (const std::string &name : file_names(line))
      if (names_cudnn_library(name)) {
        f.library = name;
        break;
      }
    return f;
  }
  return std::nullopt;
}

// TensorFlow 0.x-1.x: "could not find cudnnCreate in cudnn DSO; dlerror: <why>". Where the
// dlerror names a cuDNN file, that file was opened but lacks the function (another release than
// the build's, or a broken copy); where it names only another file (TensorFlow's own
// _pywrap_tensorflow.so), no cuDNN was opened at all and the lookup fell back to the process's own
// symbols.
std::optional<Finding> read_tensorflow_dso(std::string_view line) {
  if (!after(line, " in cudnn DSO") || !after(line, "undefined symbol")) return std::nullopt;
  std::string library;
  for (const std::string &name : file_names(line))
    if (names_cudnn_library(name)) library = name;
  if (library.empty() && !file_names(line).empty())
    return found(FindingKind::library_not_found, "tensorflow",
                 "TensorFlow opened no cuDNN library (the lookup fell back to its own module): "
                 "none was found where the loader looks");
  Finding f = found(FindingKind::version_mismatch, "tensorflow",
                    "the cuDNN file TensorFlow opened lacks a function it was built to call");
  f.library = library;
  return f;
}

// The loader's "X: version `GLIBCXX_3.4.20' not found (required by U)": the file X, which lacks
// the symbol version U was built against, and that version; or nothing.
struct LackedVersion {
  std::string file, version;
};
std::optional<LackedVersion> lacked_version(std::string_view line) {
  const std::size_t at = line.find(": version `");
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view v = line.substr(at + 11);
  return LackedVersion{std::string(basename_of(word_before(line, at))),
                       std::string(v.substr(0, v.find('\'')))};
}

// The object a symbol error is about, as the loader names it: "/x/libfoo.so: undefined symbol",
// "/x/libfoo.so: symbol cudnnX version libcudnn.so.7 not defined in file libcudnn.so.7",
// "libcudnn.so.8: version `libcudnn.so.8' not found (required by /x/app)".
std::optional<Finding> read_symbol_error(std::string_view line) {
  if (!symbol_trouble(line)) return std::nullopt;
  std::string user, provider;
  if (auto r = after(line, "(required by ")) user = library_at(*r);
  if (auto r = after(line, "not defined in file ")) provider = library_at(*r);
  for (const std::string &name : file_names(line)) {
    if (user.empty() && name != provider) user = name;
    if (provider.empty() && name != user && names_cudnn_library(name)) provider = name;
  }
  const bool cudnn_symbol = mentions(line, "symbol: cudnn") || mentions(line, "symbol cudnn") ||
                            mentions(line, "Cannot load symbol cudnn");
  if (names_cudnn_library(user) && dependency_symbol(line)) {
    Finding f = found(FindingKind::dependency_not_found);
    f.library = std::string(basename_of(user));
    f.note = "it was found with a dependency of another CUDA release: the symbol " +
             *dependency_symbol(line) + " is missing";
    for (const std::string &name : file_names(line))
      if (name != user && !names_cudnn_library(name)) f.missing = name;
    if (!f.missing.empty()) return f;
  }
  // A system library older than the one this cuDNN was built against (libstdc++'s GLIBCXX_3.4.21,
  // glibc's GLIBC_2.27): its family is whole; the node's system is too old for it.
  if (const std::optional<LackedVersion> lacked = lacked_version(line);
      lacked && names_cudnn_library(user) && !names_cudnn_library(lacked->file)) {
    Finding f = found(FindingKind::dependency_not_found);
    f.library = std::string(basename_of(user));
    f.missing = lacked->file;
    f.note = lacked->file + " is older than the one this cuDNN was built against: it lacks " +
             lacked->version;
    return f;
  }
  if (names_cudnn_library(user)) {
    Finding f = found(FindingKind::sublibrary_mismatch);
    f.library = std::string(basename_of(user));
    return f;
  }
  if (!names_cudnn_library(provider) && !cudnn_symbol) return std::nullopt;
  // A program or module built against a newer cuDNN than the one it was given.
  Finding f = found(FindingKind::version_mismatch);
  f.library = provider;
  f.note = (user.empty() ? std::string("the program") : user) +
           " asks cuDNN for a function that the loaded release does not have: it was built "
           "against another (usually newer) cuDNN";
  return f;
}

// Windows' dialog when a DLL lacks a function its caller imports (error 127 in words): "The
// procedure entry point cudnnSetPoolingDescriptor could not be located in the dynamic link library
// cudnn64_65.dll", its translations ("Der Prozedureinsprungpunkt ... wurde in der DLL ... nicht
// gefunden", "Le point d'entree de procedure ..."), and people's own "Failed to locate the entry
// point for the procedure ... in the dynamic link library ...". A public cudnn* function missing
// from the main DLL: the program was built against another release; a sub-library's DLL, or one
// of cuDNN's internal (decorated) functions: the family is mixed.
std::optional<Finding> read_entry_point(std::string_view line) {
  const std::string low = folded(line);
  std::size_t at = std::string::npos;
  for (std::string_view words :
       {"entry point", "einsprungpunkt", "point d'entr", "point d\u2019entr", "punto de entrada",
        "ponto de entrada", "\u5165\u53e3\u70b9"})
    if (at = low.find(words); at != std::string::npos) break;
  if (at == std::string::npos) return std::nullopt;
  std::string dll;
  for (const std::string &name : file_names(line))
    if (names_cudnn_library(name)) dll = name;
  const std::size_t symbol = low.find("cudnn", at);
  if (dll.empty() && symbol == std::string::npos) return std::nullopt;
  const std::string dll_low = folded(dll);
  const bool sub_library = dll_low.find("cudnn_") != std::string::npos;
  const bool internal = mentions(line.substr(at), "@@");
  Finding f = found(sub_library || internal ? FindingKind::sublibrary_mismatch
                                            : FindingKind::version_mismatch);
  f.library = dll;
  f.windows_error = 127;
  if (f.kind == FindingKind::version_mismatch)
    f.note = (dll.empty() ? std::string("the cuDNN DLL") : dll) +
             " lacks a function the program imports: it is of another cuDNN release than the "
             "one the program was built against";
  return f;
}

// Some loggers squeeze the spaces out of dlerror: "Libtorch_cuda_cpp.so:Libcudnn.so.8:cannotopen:
// sharedobjectfile:Nosuchfileordirectory".
std::optional<Finding> read_squeezed(std::string_view line) {
  const std::string low = folded(line);
  const std::size_t at = low.find(":cannotopen:sharedobjectfile");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t from = low.rfind(':', at - 1);
  return not_found(low.substr(from == std::string::npos ? 0 : from + 1,
                              at - (from == std::string::npos ? 0 : from + 1)));
}

// The dynamic loader and Windows' loader naming a cuDNN file they could not open.
std::optional<Finding> read_dynamic_loader(std::string_view said) {
  const std::string english = loader_words_in_english(said);
  const std::string_view line = english;
  if (std::optional<Finding> f = read_squeezed(line)) return f;
  // A file that is there but cannot be loaded (unreadable, an empty or truncated copy, another
  // architecture, a noexec mount): the loader's reason comes after the file's name.
  if (const std::optional<std::string> why = unloadable_reason(line)) {
    const std::size_t at = line.find(*why);
    const std::size_t colon = line.rfind(": ", at);
    std::string_view before = line.substr(0, colon == std::string_view::npos ? at : colon);
    if (const std::size_t open = before.rfind(": cannot open shared object file");
        open != std::string_view::npos)
      before = before.substr(0, open);
    if (std::optional<Finding> f = not_found(word_before(before, before.size()))) {
      f->unloadable = *why;
      return f;
    }
  }
  for (std::string_view marker : kUnopened)
    if (const std::size_t at = line.find(marker); at != std::string_view::npos)
      if (std::optional<Finding> f = not_found(word_before(line, at))) return f;
  for (std::string_view marker : {"Could not load dynamic library '", "Couldn't open CUDA library ",
                                  "Failed to load library "})
    if (auto r = after(line, marker))
      if (std::optional<Finding> f = not_found(library_at(*r))) return f;
  // Windows: "Could not locate cudnn_ops_infer64_8.dll", "Error loading "...\cudnn64_8.dll"".
  for (std::string_view marker : {"Could not locate ", "Error loading "}) {
    if (auto r = after(line, marker)) {
      std::string_view w = trim(*r);
      if (!w.empty() && w[0] == '"') w.remove_prefix(1);
      w = w.substr(0, w.find('"'));
      if (std::optional<Finding> f = not_found(library_at(basename_of(w)))) {
        if (mentions(line, "126")) f->windows_error = 126;
        // "[WinError 1455] The paging file is too small ... Error loading "...cudnn64_8.dll"".
        f->unloadable = unloadable_reason(line).value_or("");
        return f;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string unopened_file(std::string_view line) {
  for (std::string_view marker : kUnopened)
    if (const std::size_t at = line.find(marker); at != std::string_view::npos) {
      const std::string word = word_before(line, at);
      if (file_names(word).size() == 1) return std::string(basename_of(word));
    }
  // ONNX Runtime on Windows: '... which depends on "cudart64_12.dll" which is missing.'
  if (auto r = after(line, "which depends on "); r && after(*r, "which is missing"))
    return library_at(r->substr(std::min(r->size(), r->find_first_not_of("\" '"))));
  return {};
}

std::optional<Finding> bare_windows_error(std::string_view line) {
  const bool load_failed = mentions(line, "DLL load failed") || mentions(line, "dll load failed");
  const std::optional<int> code = windows_code(line);
  if (code != 126 && !load_failed) return std::nullopt;
  if (!file_names(line).empty()) return std::nullopt;  // a file of its own: the readers' business
  Finding f = found(FindingKind::library_not_found);
  f.windows_error = 126;
  return f;
}

std::optional<Finding> read_loader(std::string_view line) {
  if (std::optional<Finding> f = read_status(line)) return f;
  if (std::optional<Finding> f = read_cudnn_loader(line)) return f;
  if (std::optional<Finding> f = read_tensorflow_dso(line)) return f;
  if (std::optional<Finding> f = read_entry_point(line)) return f;
  if (std::optional<Finding> f = read_symbol_error(line)) {
    // 0x8007007F is .NET's HRESULT for the same Windows error.
    if (mentions(line, "127") || mentions(line, "0x8007007F") || mentions(line, "0x8007007f"))
      f->windows_error = 127;
    return f;
  }
  return read_dynamic_loader(line);
}

}  // namespace cudnn_compat::explain
