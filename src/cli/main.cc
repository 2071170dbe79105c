// cudnn-compat: the admin's and the user's view of cuDNN compatibility on a cluster.
#include "cli.h"
#include "diagnostics.h"

#include <iostream>

int main(int argc, char **argv) {
  using namespace cudnn_compat::cli;
  CLI::App app{"cudnn-compat - find, check and hand out compatible cuDNN releases on a cluster\n",
               "cudnn-compat"};
  app.set_version_flag("--version", std::string("cudnn-compat ") + CUDNN_COMPAT_VERSION);
  app.require_subcommand(1, 1);
  app.fallthrough();  // --json may follow the subcommand
  Globals g;
  app.add_flag("--json", g.json, "Print one JSON document on stdout instead of text");
  add_decode(app, g);
  add_check(app, g);
  add_map(app, g);
  add_probe(app, g);
  add_resolve(app, g);
  add_shim_path(app, g);
  add_module_check(app, g);
  add_modulefiles(app, g);
  add_scan(app, g);
  add_explain(app, g);
  add_doctor(app, g);
  app.footer(R"(
A cluster carries several cuDNN releases side by side; a program built against one dies when the
loader hands it another. cudnn-compat knows every cuDNN version encoding and every framework's
compatibility rule, keeps a version map of what the site has installed, and says - or, through its
shim, decides - which release a program should get.

Run `cudnn-compat SUBCOMMAND --help` for each subcommand's options and examples.

Environment:
  CUDNN_COMPAT_MAP      the version map (default: <prefix>/etc/cudnn-compat/map.toml, then
                        /etc/cudnn-compat/map.toml)
  CUDNN_COMPAT_REQUIRE  the cuDNN a program was built with (5.1 or 5.1.3)
  CUDNN_COMPAT_CUDA     the CUDA major it needs
  Ignored in setuid programs.

Exit status: 0 success or a positive answer, 1 a negative answer (incompatible, nothing found,
invalid map), 2 bad usage or input.)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    const int rc = app.exit(e);
    return rc == 0 ? kYes : kUsage;
  } catch (const std::exception &e) {
    // Out of memory or a library's surprise: one line, never an abort with a core dump.
    Error() << std::string("internal error: ") + e.what();
    return kUsage;
  }
  return g.exit_code;
}
