// cudnn-compat modulefiles: a cudnn/<version> modulefile per map entry, and the shim's module.
#include "cli.h"
#include "diagnostics.h"
#include "text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace cudnn_compat::cli {
namespace {

// Whether the file at path is one this command may replace: none there yet, or one it wrote.
bool replaceable(const std::filesystem::path &path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return true;
  std::ifstream in(path);
  std::string head(512, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return written_by_modulefiles(head);
}

// The files that are the module f.name in the tree out: the one to write, and its twin in the
// other format (cudnn/9.1 beside cudnn/9.1.lua), which Lmod reads as the same module - a .lua
// first, so a generated cudnn/9.1.lua beside a site's Tcl cudnn/9.1 took its place.
std::vector<std::filesystem::path> module_files(const Modulefile &f, const std::string &out) {
  const std::filesystem::path path = std::filesystem::path(out) / f.path;
  const std::filesystem::path twin = std::filesystem::path(out) / f.name;
  return twin == path ? std::vector{path, std::filesystem::path(path.string() + ".lua")}
                      : std::vector{path, twin};
}

// Writes f into the tree out, unless a file of that module that this command did not write is in
// the way (then only with force); records it in written or kept.
void write_one(const Modulefile &f, const std::string &out, bool force, Globals &g,
               nlohmann::json &written, nlohmann::json &kept) {
  // Within the tree: a module named by an absolute path or with ".." would be written elsewhere.
  const std::filesystem::path name = std::filesystem::path(f.path).lexically_normal();
  if (name.is_absolute() || name.begin() == name.end() || *name.begin() == "..") {
    Error() << "module " + cudnn_compat::quoted(f.name) +
                   " is no name within the module tree (an absolute path, or one with ..); not "
                   "written";
    g.exit_code = kNo;
    return;
  }
  const std::vector<std::filesystem::path> files = module_files(f, out);
  const std::filesystem::path &path = files.front();
  const auto theirs = std::find_if(files.begin(), files.end(),
                                   [](const std::filesystem::path &p) { return !replaceable(p); });
  if (!force && theirs != files.end()) {
    // Our own file beside the site's twin (an earlier run's .lua, which Lmod read instead of the
    // site's Tcl module) goes: the site's is the module.
    std::error_code ec;
    if (theirs != files.begin() && std::filesystem::remove(path, ec))
      Note() << "removed " + path.string() + ", written by an earlier run, which " +
                    "module systems read instead of " + theirs->string();
    Error() << theirs->string() + " was not written by `cudnn-compat modulefiles`; kept it (use " +
                   "--force to replace it, or -o another directory)";
    kept.push_back({{"module", f.name}, {"file", theirs->string()}});
    g.exit_code = kNo;
    return;
  }
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (const std::string why = write_file_atomically(path.string(), f.text); !why.empty()) {
    Error() << why;
    g.exit_code = kNo;
    return;
  }
  written.push_back({{"module", f.name}, {"file", path.string()}});
  if (!g.json) std::cout << f.name << ": " << path.string() << '\n';
}

struct Options {
  std::string format = "lua", out, map, cuda_module = "cuda/{cuda}", built_with, cuda;
  bool force = false, no_cuda_module = false;
};

// -o DIR: a modulefile per map entry, and the shim's module.
void write_modulefiles(const Options &o, ModuleFormat format, Globals &g) {
  if (std::ranges::any_of(o.cuda_module,
                          [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; })) {
    Error() << "--cuda-module " + cudnn_compat::quoted(o.cuda_module) +
                   ": a module name holds no control character (a newline, a tab)";
    g.exit_code = kUsage;
    return;
  }
  // {cuda} is the one placeholder: a misspelt one ({CUDA}, {cuda) would name a module that never
  // exists, and the dependency would never apply.
  std::string rest = o.cuda_module;
  for (std::size_t at; (at = rest.find("{cuda}")) != std::string::npos;) rest.erase(at, 6);
  if (rest.find_first_of("{}") != std::string::npos) {
    Error() << "--cuda-module " + cudnn_compat::quoted(o.cuda_module) +
                   ": a brace outside {cuda}, the one placeholder (the map's CUDA version)";
    g.exit_code = kUsage;
    return;
  }
  const LoadedMap m = load_site_map(o.map);
  if (!m.map) {
    report_unusable_map(m);
    g.exit_code = kNo;
    return;
  }
  // Each release written as its library reports it (a module's whatis and help name the release
  // users get, as every other reader of the map does), said once where the map misnames it.
  MapCorrections said;
  const Map map = as_their_libraries_report(
      *m.map, [](const Installed &) { return true; }, probe_options(), said);
  for (const std::string &c : said.corrected)
    std::cerr << "cudnn-compat: modulefiles: " << c << "; written as its library reports it\n";
  std::vector<Modulefile> files;
  std::error_code ec;
  for (const Installed &e : map.cudnn) {
    Modulefile f = cudnn_modulefile(
        e, format, std::filesystem::is_directory(cudnn_root(e.lib) + "/include", ec),
        o.no_cuda_module ? "" : cuda_module_name(e, o.cuda_module));
    // A release's later place under a name already written (one module, two directories): the
    // first place is the module.
    if (std::ranges::none_of(files, [&](const Modulefile &w) { return w.path == f.path; }))
      files.push_back(std::move(f));
  }
  const std::string map_path = std::filesystem::absolute(m.path, ec).string();
  files.push_back(shim_modulefile(pkglib_dir() + "/libcudnn-compat.so", map_path, format));
  nlohmann::json written = nlohmann::json::array(), kept = nlohmann::json::array();
  for (const Modulefile &f : files) write_one(f, o.out, o.force, g, written, kept);
  if (g.json) print_json({{"format", o.format}, {"written", written}, {"kept", kept}});
}

// --requires: the application's lines, on stdout.
int print_need_lines(const std::string &built_with, const std::string &cuda, ModuleFormat format,
                     const Globals &g) {
  const Parsed<Version> v = parse_required(built_with);
  const Parsed<Version> c = cuda.empty() ? Parsed<Version>{} : parse_cuda(cuda);
  if (!v || (!cuda.empty() && !c)) {
    Error() << (!v ? v.error : c.error);
    return kUsage;
  }
  const std::optional<int> major = c ? std::optional<int>(c->major) : std::nullopt;
  const std::string text = need_lines(*v, major, format);
  if (g.json)
    print_json({{"format", format == ModuleFormat::lua ? "lua" : "tcl"}, {"lines", text}});
  else
    std::cout << text;
  return kYes;
}

// What `modulefiles --help` says below its options.
constexpr const char *kModulefilesFooter = R"(
For each [[cudnn]] entry: a modulefile named by its `module` field (else cudnn/<version>) with
family("cudnn"), LD_LIBRARY_PATH, LIBRARY_PATH, CMAKE_PREFIX_PATH, CPATH when an include directory
sits beside the libraries, CUDNN_ROOT, help and whatis with a description, the homepage and the
exact version, as EasyBuild writes its cuDNN modules, and the CUDA module it was built for
(--cuda-module; none with --no-cuda-module) as a dependency (depends_on in Lua, prereq in Tcl)
where that module is available and no CUDA is loaded yet, so a tree without it still loads. Also
`cudnn-compat`, which switches the shim on (LD_AUDIT) for the session and the jobs it submits. A file this command wrote before (marked
"Written by `cudnn-compat modulefiles`" in its first lines) is replaced atomically; any other file
of the same name, such as a site's EasyBuild module, is kept and reported unless --force is given.
Nothing else in the tree is touched.

With --requires VERSION, nothing is written: it prints the lines an application's modulefile
carries to say which cuDNN it was built with, in standard commands only (prepend_path of
CUDNN_COMPAT_NEEDS, setenv of CUDNN_COMPAT_REQUIRE and CUDNN_COMPAT_CUDA). This is the form to
use: unlike cudnn_requires("5.1") (Lua) or cudnn-requires 5.1 (Tcl), which the site package
defines, it loads where that package is absent (another site, a spider cache built without it),
and the hooks and the shim read it the same way.

Examples:
  cudnn-compat modulefiles --format lua -o /opt/modulefiles
  cudnn-compat modulefiles --format tcl -o /etc/environment-modules/modulefiles
  cudnn-compat modulefiles --format lua --requires 8.9 --cuda 12   # lines for pytorch/2.1.lua

Exit status: 0 written (or printed), 1 no map or a file could not be written or was kept, 2 bad
usage.)";

}  // namespace

void add_modulefiles(CLI::App &app, Globals &g) {
  auto o = std::make_shared<Options>();
  CLI::App *cmd =
      app.add_subcommand("modulefiles", "Write a modulefile per map entry and the shim's module");
  cmd->add_option("--format", o->format, "lua (Lmod) or tcl (Environment Modules)")
      ->check(CLI::IsMember({"lua", "tcl"}));
  cmd->add_option("-o,--output", o->out, "The module tree to write into")->type_name("DIR");
  cmd->add_option("--requires", o->built_with,
                  "Instead: print the lines an application's modulefile needs to say it was built "
                  "with this cuDNN (5.1, 8.9.7, or a major alone: 9)")
      ->type_name("VERSION");
  cmd->add_option("--cuda", o->cuda, "With --requires: the CUDA major it was built for")
      ->type_name("N");
  add_map_option(cmd, o->map);
  cmd->add_flag("--force", o->force, "Also replace modulefiles this command did not write");
  CLI::Option *cuda_module =
      cmd->add_option(
             "--cuda-module", o->cuda_module,
             "The CUDA module each cuDNN module depends on, {cuda} standing for the CUDA "
             "version the map gives it, each {cuda} replaced and any other brace refused (default "
             "cuda/{cuda}; EasyBuild: CUDA/{cuda})")
          ->type_name("NAME");
  cmd->add_flag("--no-cuda-module", o->no_cuda_module,
                "No CUDA module dependency (a site whose CUDA comes with the driver or the system)")
      ->excludes(cuda_module);
  cmd->footer(kModulefilesFooter);
  cmd->callback([o, &g] {
    const ModuleFormat format = o->format == "lua" ? ModuleFormat::lua : ModuleFormat::tcl;
    if (!o->built_with.empty()) {
      g.exit_code = print_need_lines(o->built_with, o->cuda, format, g);
    } else if (o->out.empty()) {
      Error() << "modulefiles needs -o DIR (the module tree to write into), or --requires VERSION";
      g.exit_code = kUsage;
    } else {
      write_modulefiles(*o, format, g);
    }
  });
}

}  // namespace cudnn_compat::cli
