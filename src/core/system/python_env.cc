// cuDNN installed by pip and conda, and the distributions that ask for it, read where pip and
// conda leave them: a wheel's files under site-packages with its <name>-<version>.dist-info
// (METADATA, RECORD, top_level.txt), a conda package's files under its prefix with
// conda-meta/<name>-<version>-<build>.json.
#include "read_file.h"
#include "shim_text.h"
#include "system.h"

#include "text.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

// Environments are found within this many directories of a root or above a file.
constexpr int kDepth = 8;

// A package's record as pip or conda wrote it; a FIFO or device in its place is none (a FIFO
// held every process that asked for cuDNN until the deadline: an outside tester's finding).
// torch's RECORD is a few hundred KiB; a conda record with every file of a large package a few
// MiB.
std::optional<std::string> read_text(const fs::path &file, std::string *why = nullptr) {
  return read_regular_file(file.string(), std::size_t(64) << 20, why);
}

std::vector<fs::path> entries(const fs::path &dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

bool is_dir(const fs::path &p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool is_dist_info(const fs::path &p) {
  return p.extension() == ".dist-info";
}

// The dist-info name's stem before its one '-': "nvidia_cudnn_cu12-9.1.0.70" -> nvidia-cudnn-cu12.
std::string dist_of(const fs::path &dist_info) {
  const std::string stem = dist_info.stem().string();
  return normalize_dist_name(stem.substr(0, stem.find('-')));
}

// A package's version as a place's: x.y.z[.b], else none and a note naming the record.
std::optional<Version> package_version(const std::string &text, const fs::path &record,
                                       std::string &note) {
  // The release part (9.20.0.48.post1, 9.20.0.48+cu124: 9.20.0.48), as a pin's is read.
  std::optional<Version> v = package_release(text);
  if (v && v->patch) return v;
  note = record.string() + (text.empty()
                                ? std::string(": names no version")
                                : ": its version \"" + text + "\" is no cuDNN release (x.y.z)");
  return std::nullopt;
}

// `file` relative to `dir` when it lies below it ("torch/lib/libtorch_cuda.so"), else "".
std::string relative_below(const fs::path &file, const fs::path &dir) {
  const fs::path rel = file.lexically_relative(dir);
  const std::string s = rel.string();
  return s.empty() || s.starts_with("..") ? "" : s;
}

// The file as given and as its real path: pip recorded the one it wrote.
std::vector<fs::path> spellings(const std::string &file) {
  std::vector<fs::path> out{fs::path(file).lexically_normal()};
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec);
  if (!ec && real != out.front()) out.push_back(real);
  return out;
}

bool lists(const std::vector<std::string> &paths, const std::string &rel) {
  for (const std::string &p : paths)
    if (fs::path(p).lexically_normal() == fs::path(rel)) return true;
  return false;
}

bool record_lists(const fs::path &dist_info, const std::string &rel) {
  const std::optional<std::string> record = read_text(dist_info / "RECORD");
  return record && lists(parse_record(*record), rel);
}

// The dist-info whose RECORD lists rel. The one named like rel's first component is read first
// (torch-2.6.0.dist-info for torch/lib/...: no other file read), then those whose top_level.txt
// names it (jax_plugins/ is two distributions'), then the rest.
std::optional<fs::path> owner_dist_info(const fs::path &site, const std::string &rel) {
  const std::string top = rel.substr(0, rel.find('/'));
  std::vector<fs::path> infos;
  for (const fs::path &p : entries(site))
    if (is_dist_info(p)) infos.push_back(p);
  for (const fs::path &p : infos)
    if (dist_of(p) == normalize_dist_name(top) && record_lists(p, rel)) return p;
  std::vector<fs::path> first, rest;
  for (const fs::path &p : infos) {
    bool named = false;
    // Held: split's views must not outlive the text (a range-for keeps only its own temporary).
    const std::string listed = read_text(p / "top_level.txt").value_or("");
    for (std::string_view t : split(listed, '\n')) named = named || trim(t) == top;
    (named ? first : rest).push_back(p);
  }
  first.insert(first.end(), rest.begin(), rest.end());
  for (const fs::path &p : first)
    if (dist_of(p) != normalize_dist_name(top) && record_lists(p, rel)) return p;
  return std::nullopt;
}

// What the wheel whose files include `file` requires of cuDNN.
std::vector<CudnnPin> wheel_pins(const fs::path &site, const std::string &rel) {
  std::vector<CudnnPin> out;
  const std::optional<fs::path> owner = owner_dist_info(site, rel);
  if (!owner) return out;
  const std::optional<std::string> text = read_text(*owner / "METADATA");
  if (!text) return out;
  const DistMetadata meta = parse_dist_metadata(*text);
  for (const std::string &r : meta.requires_dist)
    if (std::optional<CudnnPin> pin = cudnn_requirement(r)) {
      pin->consumer = normalize_dist_name(meta.name.empty() ? dist_of(*owner) : meta.name);
      pin->consumer_version = meta.version;
      pin->file = (*owner / "METADATA").string();
      out.push_back(std::move(*pin));
    }
  return out;
}

// What a conda package's record requires of cuDNN: its `depends` on cudnn, for the CUDA its
// `cuda-version` (or `cudatoolkit`) names (helper 105 r04: a cuda126 build of pytorch was handed
// a cuDNN for CUDA 13, its CUDA need unread).
std::vector<CudnnPin> conda_record_pins(const CondaRecord &r, const std::string &file) {
  std::vector<CudnnPin> out;
  for (const std::string &d : r.depends)
    if (std::optional<CudnnPin> pin = cudnn_depend(d)) {
      pin->consumer = r.name, pin->consumer_version = r.version, pin->file = file;
      pin->cuda_major = conda_cuda_major(r);
      out.push_back(std::move(*pin));
    }
  return out;
}

// What the conda package whose files include `file` requires of cuDNN. Only records that name
// cudnn and the file are parsed: a conda environment holds hundreds of large ones.
std::vector<CudnnPin> conda_pins(const fs::path &prefix, const std::string &rel) {
  for (const fs::path &p : entries(prefix / "conda-meta")) {
    if (p.extension() != ".json") continue;
    const std::optional<std::string> text = read_text(p);
    if (!text || text->find("cudnn") == std::string::npos ||
        text->find("\"" + rel + "\"") == std::string::npos)
      continue;
    const std::optional<CondaRecord> r = parse_conda_record(*text);
    if (!r || !lists(r->files, rel)) continue;
    return conda_record_pins(*r, p.string());
  }
  return {};
}

// Walks below root for site-packages and conda prefixes; each directory once (by inode).
void walk(const fs::path &dir, int depth, std::set<std::pair<dev_t, ino_t>> &seen,
          std::vector<PythonPlace> &out) {
  struct stat st {};
  if (depth > kDepth || stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
      !seen.insert({st.st_dev, st.st_ino}).second)
    return;
  const std::string name = dir.filename().string();
  if (name == "site-packages" || name == "dist-packages") {
    if (std::optional<PythonPlace> p = wheel_place(dir.string())) out.push_back(std::move(*p));
    return;  // nothing below is an environment
  }
  if (is_dir(dir / "conda-meta"))
    if (std::optional<PythonPlace> p = conda_place(dir.string())) out.push_back(std::move(*p));
  for (const fs::path &sub : entries(dir)) {
    const std::string n = sub.filename().string();
    // A conda installation's package cache holds unpacked packages, not environments; of hidden
    // directories, only those that hold environments by convention (`python -m venv .venv`, uv
    // and poetry; pip's user site ~/.local; ~/.conda/envs; pixi's .pixi/envs; tox and nox).
    static const std::set<std::string> kHiddenEnvironments = {".venv", ".local", ".conda",
                                                              ".pixi", ".tox",   ".nox"};
    if (n == "pkgs" || n == "__pycache__" ||
        (n.starts_with(".") && !kHiddenEnvironments.count(n)) || !is_dir(sub))
      continue;
    walk(sub, depth + 1, seen, out);
  }
}

}  // namespace

std::optional<PythonPlace> wheel_place(const std::string &site_packages) {
  const fs::path lib = fs::path(site_packages) / "nvidia" / "cudnn" / "lib";
  if (!dir_holds_cudnn(lib.string())) return std::nullopt;
  for (const fs::path &p : entries(site_packages)) {
    if (!is_dist_info(p) || !dist_of(p).starts_with("nvidia-cudnn-cu")) continue;
    std::string why;
    const std::optional<std::string> text = read_text(p / "METADATA", &why);
    const DistMetadata meta = parse_dist_metadata(text.value_or(""));
    PythonPlace place{lib.string(),
                      std::nullopt,
                      std::nullopt,
                      Source::wheel,
                      dist_of(p) + " " + meta.version,
                      (p / "METADATA").string()};
    place.version = package_version(meta.version, p / "METADATA", place.note);
    if (!text) place.note = (p / "METADATA").string() + " " + why;
    if (const std::optional<CudnnPin> self = cudnn_requirement(dist_of(p)))
      if (self->cuda_major) place.cuda = Version{*self->cuda_major, {}, {}, {}};
    return place;
  }
  return std::nullopt;
}

std::optional<PythonPlace> conda_place(const std::string &prefix) {
  const fs::path lib = fs::path(prefix) / "lib";
  if (!dir_holds_cudnn(lib.string())) return std::nullopt;
  for (const fs::path &p : entries(fs::path(prefix) / "conda-meta")) {
    if (!p.filename().string().starts_with("cudnn-") || p.extension() != ".json") continue;
    const std::optional<std::string> text = read_text(p);
    const std::optional<CondaRecord> r = parse_conda_record(text.value_or(""));
    if (!r || r->name != "cudnn") continue;
    PythonPlace place{
        lib.string(), std::nullopt, std::nullopt, Source::conda, "cudnn " + r->version + " (conda)",
        p.string()};
    place.version = package_version(r->version, p, place.note);
    if (const std::optional<int> cuda = conda_cuda_major(*r))
      place.cuda = Version{*cuda, {}, {}, {}};
    return place;
  }
  return std::nullopt;
}

std::vector<std::string> site_packages_of(const std::string &prefix) {
  std::vector<std::string> out;
  for (const char *lib : {"lib", "lib64"})
    for (const fs::path &p : entries(fs::path(prefix) / lib))
      if (p.filename().string().starts_with("python") && is_dir(p / "site-packages"))
        out.push_back((p / "site-packages").string());
  return out;
}

std::vector<PythonPlace> find_python_places(const std::string &root) {
  std::vector<PythonPlace> out;
  std::set<std::pair<dev_t, ino_t>> seen;
  walk(fs::path(root), 0, seen, out);
  return out;
}

FileEnvironment environment_of(const std::string &file) {
  FileEnvironment env;
  fs::path dir = fs::path(file).lexically_normal().parent_path();
  for (int i = 0; i < kDepth && !dir.empty() && dir != dir.root_path(); ++i) {
    const std::string name = dir.filename().string();
    if (env.site_packages.empty() && (name == "site-packages" || name == "dist-packages"))
      env.site_packages = dir.string();
    if (env.conda_prefix.empty() && is_dir(dir / "conda-meta")) env.conda_prefix = dir.string();
    dir = dir.parent_path();
  }
  return env;
}

bool is_conda_lib_dir(const std::string &dir) {
  char meta[4096];
  return conda_meta_beside(dir.c_str(), meta, sizeof meta) && is_dir(meta);
}

std::vector<CudnnPin> pins_of_files(const std::vector<std::string> &files) {
  std::vector<CudnnPin> out;
  std::set<std::string> asked, said;       // a package directory is asked once; a pin is said once
  std::map<std::string, bool> conda_libs;  // lib/ directories: in a conda prefix or not
  for (const std::string &file : files) {
    // One file of a package directory stands for all (torch/lib/*.so are all torch's); a conda
    // prefix's lib/ holds many packages' files, so there each file counts.
    const fs::path dir = fs::path(file).parent_path();
    const python_path kind = python_path_kind(file.c_str());
    const bool wheel = kind == PYTHON_WHEEL;
    bool conda_lib = false;
    if (kind == PYTHON_LIB_DIR) {
      const auto [it, fresh] = conda_libs.try_emplace(dir.string(), false);
      if (fresh) it->second = is_conda_lib_dir(dir.string());
      conda_lib = it->second;
    }
    if ((!conda_lib && !wheel) || !asked.insert(conda_lib ? file : dir.string()).second) continue;
    for (CudnnPin &p : pins_of_file(file))
      if (said.insert(p.consumer + "\t" + p.text).second) out.push_back(std::move(p));
  }
  return out;
}

std::vector<CudnnPin> pins_of_file(const std::string &file) {
  std::vector<CudnnPin> out;
  for (const fs::path &f : spellings(file)) {
    const FileEnvironment env = environment_of(f.string());
    if (!env.site_packages.empty())
      if (const std::string rel = relative_below(f, env.site_packages); !rel.empty())
        out = wheel_pins(env.site_packages, rel);
    if (out.empty() && !env.conda_prefix.empty())
      if (const std::string rel = relative_below(f, env.conda_prefix); !rel.empty())
        out = conda_pins(env.conda_prefix, rel);
    if (!out.empty()) break;
  }
  return out;
}

namespace {

bool is_shared_object(const std::string &path) {
  const std::string base = fs::path(path).filename().string();
  return base.ends_with(".so") || base.find(".so.") != std::string::npos;
}

// The consumer's library among files that loads cuDNN, and the major it links.
void find_cudnn_library(const fs::path &root, const std::vector<std::string> &files,
                        CudnnConsumer &c) {
  for (const std::string &rel : files) {
    if (!is_shared_object(rel) || rel.starts_with("nvidia/") || rel.starts_with("..")) continue;
    const std::string file = (root / rel).lexically_normal().string();
    const Parsed<ElfDynamic> elf = read_elf_dynamic(file);
    if (!elf) continue;
    const std::vector<std::string> linked = cudnn_linked(elf->needed);
    const std::optional<int> major =
        linked.empty() ? std::nullopt
                       : std::optional(parse_library_name(linked.front())->version->major);
    const bool runpath = (elf->runpath + elf->rpath).find("nvidia/cudnn/lib") != std::string::npos;
    if (!major && !runpath) continue;
    c.library = file;
    c.major = major;
    c.wheel_runpath = runpath;
    return;
  }
}

}  // namespace

std::vector<CudnnConsumer> cudnn_consumers(const std::string &site_packages,
                                           const std::string &conda_prefix) {
  std::vector<CudnnConsumer> out;
  for (const fs::path &p :
       site_packages.empty() ? std::vector<fs::path>{} : entries(site_packages)) {
    if (!is_dist_info(p)) continue;
    const DistMetadata meta = parse_dist_metadata(read_text(p / "METADATA").value_or(""));
    CudnnConsumer c{normalize_dist_name(meta.name), meta.version, {}, "", std::nullopt, false};
    for (const std::string &r : meta.requires_dist)
      if (std::optional<CudnnPin> pin = cudnn_requirement(r)) {
        pin->consumer = c.name, pin->consumer_version = c.version;
        pin->file = (p / "METADATA").string();
        c.pins.push_back(std::move(*pin));
      }
    // One that pins none is a consumer too where a library of it links cuDNN or finds a wheel's
    // through its RUNPATH (a torch built against the system's cuDNN): it still decides what
    // the process loads (helper 92). Its every shared object is read, once per answer.
    find_cudnn_library(site_packages, parse_record(read_text(p / "RECORD").value_or("")), c);
    if (!c.pins.empty() || !c.library.empty()) out.push_back(std::move(c));
  }
  for (const fs::path &p : conda_prefix.empty() ? std::vector<fs::path>{}
                                                : entries(fs::path(conda_prefix) / "conda-meta")) {
    const std::optional<std::string> text = read_text(p);
    if (p.extension() != ".json" || !text || text->find("cudnn") == std::string::npos) continue;
    const std::optional<CondaRecord> r = parse_conda_record(*text);
    if (!r) continue;
    CudnnConsumer c{r->name, r->version,   conda_record_pins(*r, p.string()),
                    "",      std::nullopt, false};
    if (c.pins.empty()) continue;
    find_cudnn_library(conda_prefix, r->files, c);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> mapped_files(const std::string &maps) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::ifstream in(maps);
  for (std::string line; std::getline(in, line);) {
    const std::size_t slash = line.find('/');
    if (slash == std::string::npos || line.ends_with(" (deleted)")) continue;
    if (std::string path = line.substr(slash); seen.insert(path).second)
      out.push_back(std::move(path));
  }
  return out;
}

namespace {

// The site-packages directories and conda prefixes of the active environment, each once.
struct Environments {
  std::vector<std::string> sites, prefixes;
};
Environments active_environments(const std::optional<std::string> &virtual_env,
                                 const std::optional<std::string> &conda_prefix,
                                 const std::vector<std::string> &files) {
  Environments e;
  if (virtual_env) e.sites = site_packages_of(*virtual_env);
  if (conda_prefix) {
    e.prefixes.push_back(*conda_prefix);
    for (const std::string &s : site_packages_of(*conda_prefix)) e.sites.push_back(s);
  }
  for (const std::string &f : files) {
    if (f.empty()) continue;
    // A virtualenv's interpreter is of that env (a conda env's: environment_of finds it).
    if (const std::string prefix = interpreter_environment(f); !prefix.empty())
      for (const std::string &s : site_packages_of(prefix)) e.sites.push_back(s);
    const FileEnvironment env = environment_of(f);
    if (!env.site_packages.empty()) e.sites.push_back(env.site_packages);
    if (!env.conda_prefix.empty()) e.prefixes.push_back(env.conda_prefix);
  }
  for (std::vector<std::string> *list : {&e.sites, &e.prefixes}) {
    std::set<std::string> seen;
    std::erase_if(*list, [&](const std::string &d) {
      std::error_code ec;
      return !seen.insert(fs::weakly_canonical(d, ec).string()).second;
    });
  }
  return e;
}

}  // namespace

std::string interpreter_environment(const std::string &program) {
  const fs::path prefix = fs::path(program).parent_path().parent_path();
  std::error_code ec;
  const bool env =
      fs::exists(prefix / "pyvenv.cfg", ec) || fs::is_directory(prefix / "conda-meta", ec);
  return env && !prefix.empty() ? prefix.string() : "";
}

bool is_python_interpreter(const std::string &program) {
  return fs::path(program).filename().string().starts_with("python");
}

std::vector<std::string> interpreter_search_sites(const std::string &program,
                                                  const PythonSearch &search) {
  std::vector<std::string> out;
  if (!is_python_interpreter(program)) return out;
  // An empty entry is the working directory to Python, a relative one relative to it.
  const std::string pythonpath = search.pythonpath.value_or("");
  std::error_code ec;
  for (std::string_view d :
       pythonpath.empty() ? std::vector<std::string_view>{} : split(pythonpath, ':'))
    if (const fs::path dir = fs::absolute(d.empty() ? "." : d, ec).lexically_normal(); is_dir(dir))
      out.push_back(dir.string());
  // site.py: no user site inside a virtualenv or conda env, nor under PYTHONNOUSERSITE.
  if (search.no_user_site || !interpreter_environment(program).empty()) return out;
  const std::optional<std::string> base = search.user_base ? search.user_base
                                          : search.home    ? std::optional(*search.home + "/.local")
                                                           : std::nullopt;
  if (!base) return out;
  // Its own version's (python3 -> python3.11), else every version's.
  const std::string real = fs::canonical(program, ec).filename().string();
  const fs::path own = fs::path(*base) / "lib" / real / "site-packages";
  if (!ec && real.find('.') != std::string::npos) {
    if (is_dir(own)) out.push_back(own.string());
  } else {
    for (std::string &s : site_packages_of(*base)) out.push_back(std::move(s));
  }
  return out;
}

std::vector<CudnnConsumer> active_consumers(const std::optional<std::string> &virtual_env,
                                            const std::optional<std::string> &conda_prefix,
                                            const std::vector<std::string> &files,
                                            const PythonSearch &search) {
  Environments e = active_environments(virtual_env, conda_prefix, files);
  // Python's own order: PYTHONPATH, the user site, then the environment's site-packages.
  std::vector<std::string> first;
  for (const std::string &f : files)
    for (std::string &s : interpreter_search_sites(f, search)) first.push_back(std::move(s));
  e.sites.insert(e.sites.begin(), first.begin(), first.end());
  std::vector<CudnnConsumer> out;
  for (const std::string &s : e.sites)
    for (CudnnConsumer &c : cudnn_consumers(s, "")) out.push_back(std::move(c));
  for (const std::string &p : e.prefixes)
    for (CudnnConsumer &c : cudnn_consumers("", p)) out.push_back(std::move(c));
  return out;
}

std::vector<PythonPlace> active_places(const std::optional<std::string> &virtual_env,
                                       const std::optional<std::string> &conda_prefix,
                                       const std::vector<std::string> &files) {
  const Environments e = active_environments(virtual_env, conda_prefix, files);
  const std::vector<std::string> &sites = e.sites, &prefixes = e.prefixes;
  std::vector<PythonPlace> out;
  std::set<std::string> seen;
  const auto add = [&](std::optional<PythonPlace> p) {
    std::error_code ec;
    if (p && seen.insert(fs::weakly_canonical(p->lib, ec).string()).second) out.push_back(*p);
  };
  for (const std::string &s : sites) add(wheel_place(s));
  for (const std::string &p : prefixes) add(conda_place(p));
  return out;
}

}  // namespace cudnn_compat
