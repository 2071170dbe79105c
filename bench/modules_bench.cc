// What the module-system hooks and scan cost, against the same work without them, interleaved in
// one run: `module load cudnn/5.1 tensorflow/1.0` on the real Lmod and the real Environment
// Modules with and without cudnn-compat's site code, and `scan` of a generated tree of 1,000
// modules against Lmod's `spider -o spider-json` alone.
//
//   modules_bench CUDNN_COMPAT FAKES SHARE MODULECMD [BENCHMARKS.md]
#include "process.h"
#include "report.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

const std::string kLmod = "/usr/share/lmod/lmod/libexec/lmod";
const std::string kSpider = "/usr/share/lmod/lmod/libexec/spider";

struct Pair {
  double without = 0, with = 0;
};

// Median wall times of a and b, spawned alternately n times.
Pair interleaved(int n, const std::vector<std::string> &a, const std::vector<std::string> &a_env,
                 const std::vector<std::string> &b, const std::vector<std::string> &b_env) {
  std::vector<double> ta, tb;
  for (int i = 0; i < n; ++i) {
    ta.push_back(spawn(a, a_env).us);
    tb.push_back(spawn(b, b_env).us);
  }
  return {median(ta), median(tb)};
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: modules_bench CUDNN_COMPAT FAKES SHARE MODULECMD [BENCHMARKS.md]\n");
    return 2;
  }
  const std::string cc = argv[1], fakes = argv[2], share = argv[3], modulecmd = argv[4];
  char tmpl[] = "/tmp/cudnn-compat-modules-bench.XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const fs::path t = tmpl;

  // The site: two FAKE releases with their modules, and an application built with cuDNN 5.1.
  const std::string map = (t / "map.toml").string();
  std::ofstream(map) << "schema = 1\n[[cudnn]]\nversion = \"5.0.5\"\nlib = \"" << fakes
                     << "/5.0.5/lib64\"\nmodule = \"cudnn/5.0\"\n[[cudnn]]\nversion = \"5.1.10\"\n"
                     << "lib = \"" << fakes << "/5.1.10/lib64\"\nmodule = \"cudnn/5.1\"\n";
  spawn({cc, "map", "validate", map}, {});
  for (const char *format : {"lua", "tcl"})
    spawn({cc, "modulefiles", "--map", map, "--format", format, "-o", (t / format).string()}, {});
  // The baseline: the application module sets the variable itself, as a site without
  // cudnn-compat's helper would; its modulefile must load cleanly in both runs.
  const fs::path plain = t / "plain";
  for (const char *format : {"lua", "tcl"}) {
    spawn({cc, "modulefiles", "--map", map, "--format", format, "-o", (plain / format).string()},
          {});
    fs::create_directories(t / format / "tensorflow");
    fs::create_directories(plain / format / "tensorflow");
  }
  std::ofstream(t / "lua/tensorflow/1.0.lua") << "cudnn_requires(\"5.1\")\n";
  std::ofstream(t / "tcl/tensorflow/1.0") << "#%Module1.0\ncudnn-requires 5.1\n";
  std::ofstream(plain / "lua/tensorflow/1.0.lua") << "setenv(\"CUDNN_COMPAT_REQUIRE\", \"5.1\")\n";
  std::ofstream(plain / "tcl/tensorflow/1.0") << "#%Module1.0\nsetenv CUDNN_COMPAT_REQUIRE 5.1\n";
  const std::vector<std::string> common{"CUDNN_COMPAT_MAP=" + map, "CUDNN_COMPAT_BIN=" + cc,
                                        "LMOD_IGNORE_CACHE=1", "HOME=" + t.string()};
  auto with = [&](std::vector<std::string> env, const std::string &extra) {
    env.insert(env.end(), common.begin(), common.end());
    if (!extra.empty()) env.insert(env.begin(), extra);
    return env;
  };

  const std::vector<std::string> lmod_load{kLmod, "bash", "load", "cudnn/5.1", "tensorflow/1.0"};
  const Pair lmod = interleaved(
      40, lmod_load, with({"MODULEPATH=" + (plain / "lua").string()}, ""), lmod_load,
      with({"MODULEPATH=" + (t / "lua").string()}, "LMOD_PACKAGE_PATH=" + share + "/lmod"));
  const std::vector<std::string> tcl_load{modulecmd, "bash", "load", "cudnn/5.1", "tensorflow/1.0"};
  const Pair envmod =
      interleaved(40, tcl_load, with({"MODULEPATH=" + (plain / "tcl").string()}, ""), tcl_load,
                  with({"MODULEPATH=" + (t / "tcl").string()},
                       "MODULES_SITECONFIG=" + share + "/envmodules/siteconfig.tcl"));
  // The misfit: cudnn/5.0 beside tensorflow/1.0, and the warning printed (from map.toml.misfits
  // under Environment Modules, from module-check under Lmod).
  std::vector<std::string> lmod_misfit(lmod_load), tcl_misfit(tcl_load);
  lmod_misfit[3] = tcl_misfit[3] = "cudnn/5.0";
  const Pair lmod_warn = interleaved(
      40, lmod_misfit, with({"MODULEPATH=" + (plain / "lua").string()}, ""), lmod_misfit,
      with({"MODULEPATH=" + (t / "lua").string()}, "LMOD_PACKAGE_PATH=" + share + "/lmod"));
  const Pair envmod_warn =
      interleaved(40, tcl_misfit, with({"MODULEPATH=" + (plain / "tcl").string()}, ""), tcl_misfit,
                  with({"MODULEPATH=" + (t / "tcl").string()},
                       "MODULES_SITECONFIG=" + share + "/envmodules/siteconfig.tcl"));

  // A user's own cuDNN module, which the map does not list, beside tensorflow/1.0: the table cannot
  // clear it, so the engine runs and probes the library it put on LD_LIBRARY_PATH (it fits: no
  // warning).
  const fs::path own = t / "own";
  fs::create_directories(own / "lua/mycudnn");
  fs::create_directories(own / "tcl/mycudnn");
  fs::copy(fakes + "/5.1.10", t / "own-5.1.10", fs::copy_options::recursive);
  const std::string own_lib = (t / "own-5.1.10/lib64").string();
  std::ofstream(own / "lua/mycudnn/5.1.lua")
      << "prepend_path(\"LD_LIBRARY_PATH\", \"" << own_lib << "\")\n";
  std::ofstream(own / "tcl/mycudnn/5.1")
      << "#%Module1.0\nprepend-path LD_LIBRARY_PATH " << own_lib << "\n";
  std::vector<std::string> lmod_own(lmod_load), tcl_own(tcl_load);
  lmod_own[3] = tcl_own[3] = "mycudnn/5.1";
  const Pair lmod_probe = interleaved(
      40, lmod_own,
      with({"MODULEPATH=" + (plain / "lua").string() + ":" + (own / "lua").string()}, ""), lmod_own,
      with({"MODULEPATH=" + (t / "lua").string() + ":" + (own / "lua").string()},
           "LMOD_PACKAGE_PATH=" + share + "/lmod"));
  const Pair envmod_probe = interleaved(
      40, tcl_own,
      with({"MODULEPATH=" + (plain / "tcl").string() + ":" + (own / "tcl").string()}, ""), tcl_own,
      with({"MODULEPATH=" + (t / "tcl").string() + ":" + (own / "tcl").string()},
           "MODULES_SITECONFIG=" + share + "/envmodules/siteconfig.tcl"));

  // 1,000 modules: 900 of other software, 100 cuDNN modules over the six FAKE releases.
  const fs::path big = t / "big";
  const char *releases[] = {"5.0.5", "5.1.10", "7.6.5", "8.9.7", "9.0.0", "9.1.0"};
  for (int i = 0; i < 1000; ++i) {
    const bool cudnn = i % 10 == 0;
    const fs::path dir = big / (cudnn ? "cudnn" : "app" + std::to_string(i % 90));
    fs::create_directories(dir);
    std::ofstream(dir / (std::to_string(i) + ".lua"))
        << "whatis(\"module " << i << "\")\nprepend_path(\"LD_LIBRARY_PATH\", \""
        << (cudnn ? fakes + "/" + releases[i / 10 % 6] + "/lib64"
                  : "/opt/software/" + std::to_string(i) + "/lib")
        << "\")\n";
  }
  const Pair scan = interleaved(5, {kSpider, "-o", "spider-json", big.string()}, {},
                                {cc, "scan", "--modules", "lmod", "--modulepath", big.string()},
                                {"LMOD_DIR=/usr/share/lmod/lmod/libexec"});
  // The real-site layout: the same tree, but each cuDNN module with its own install directory (a
  // copy of its FAKE release), as EasyBuild and Spack install them: 100 directories to probe.
  const fs::path site = t / "site";
  for (int i = 0; i < 1000; ++i) {
    const bool cudnn = i % 10 == 0;
    const fs::path dir = site / (cudnn ? "cudnn" : "app" + std::to_string(i % 90));
    const fs::path install = t / "software" / std::to_string(i) / "lib64";
    fs::create_directories(dir);
    if (cudnn) {
      fs::create_directories(install.parent_path());
      fs::copy(fakes + "/" + releases[i / 10 % 6] + "/lib64", install,
               fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    }
    std::ofstream(dir / (std::to_string(i) + ".lua"))
        << "whatis(\"module " << i << "\")\nprepend_path(\"LD_LIBRARY_PATH\", \""
        << (cudnn ? install.string() : "/opt/software/" + std::to_string(i) + "/lib") << "\")\n";
  }
  const Pair site_scan =
      interleaved(11, {kSpider, "-o", "spider-json", site.string()}, {},
                  {cc, "scan", "--modules", "lmod", "--modulepath", site.string()},
                  {"LMOD_DIR=/usr/share/lmod/lmod/libexec"});
  fs::remove_all(t);

  const auto row = [](std::ostringstream &s, const char *what, const Pair &p, const char *target) {
    s << "| " << what << " | " << fmt(p.without / 1000) << " ms | " << fmt(p.with / 1000)
      << " ms | " << fmt(p.with / p.without) << "x | " << target << " |\n";
  };
  std::ostringstream s;
  s << "## Module systems (issue 4)\n\n"
    << "`bench/modules_bench`: medians of 40 interleaved runs of `module load` (the modulecmd "
       "process alone,\nas the shell's `module` function runs it) without and with cudnn-compat's "
       "site code. Without it,\nthe application's modulefile sets CUDNN_COMPAT_REQUIRE itself "
       "(it must load cleanly in both runs);\nwith it, it calls the helper. When everything "
       "fits, the check finds its pairs in `map.toml.fits`\n(written with the map) and starts no "
       "process; for a misfit, the Environment Modules hook finds its warning in\n"
       "`map.toml.misfits` (also written with the map) and Lmod's runs `cudnn-compat "
       "module-check`;\na user's own cuDNN module, which the map does not list, runs it to probe "
       "the\nlibrary it put on "
       "LD_LIBRARY_PATH. Then 5 runs each of\n"
       "`scan` over a generated tree of 1,000 modules (900 other software,\n100 cuDNN modules over "
       "six FAKE releases: six probes) against Lmod's `spider -o spider-json`\nalone on the same "
       "tree; then the real-site layout, each cuDNN module with its own install\ndirectory "
       "(100 copies of the six releases; a library byte for byte the same as one already\n"
       "probed is not loaded again), 11 runs each.\n\n"
    << "| case | without | with | ratio | target |\n|---|---:|---:|---:|---|\n";
  row(s, "Lmod 8.6: module load cudnn/5.1 tensorflow/1.0", lmod, "at most 1.10x");
  row(s, "Environment Modules 5.2: the same", envmod, "at most 1.10x");
  row(s, "Lmod 8.6: module load cudnn/5.0 tensorflow/1.0 (misfit: the warning)", lmod_warn,
      "measured");
  row(s, "Environment Modules 5.2: the same misfit", envmod_warn, "at most 1.10x");
  row(s,
      "Lmod 8.6: module load mycudnn/5.1 tensorflow/1.0 (a user's module, not in the map: probed)",
      lmod_probe, "measured");
  row(s, "Environment Modules 5.2: the same user's module", envmod_probe, "measured");
  row(s, "scan of 1,000 modules (Lmod) vs spider alone", scan, "measured");
  row(s, "scan of 1,000 modules, each cuDNN module in its own directory (Lmod) vs spider alone",
      site_scan, "at most 1.2x");
  std::fputs(s.str().c_str(), stdout);
  if (argc > 5) write_benchmarks_section(argv[5], "modules", s.str());
  return 0;
}
