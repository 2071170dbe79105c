// cudnn-compat: the admin's and the user's view of cuDNN compatibility on a cluster.
#include "cli.h"
#include "diagnostics.h"

#include <algorithm>
#include <iostream>
#include <iterator>
#include <string_view>
#include <utility>

namespace {

// The module hooks run `module-check` on every misfit, where building the other subcommands'
// options was 60% of the process's instructions (callgrind): a subcommand named on the command
// line is registered alone; otherwise (--help, a typo) all are, for CLI11's listing.
void add_subcommands(CLI::App &app, cudnn_compat::cli::Globals &g, int argc, char **argv) {
  using namespace cudnn_compat::cli;
  const std::pair<std::string_view, void (*)(CLI::App &, Globals &)> subcommands[] = {
      {"decode", add_decode},
      {"check", add_check},
      {"map", add_map},
      {"probe", add_probe},
      {"resolve", add_resolve},
      {"shim-path", add_shim_path},
      {"module-check", add_module_check},
      {"modulefiles", add_modulefiles},
      {"scan", add_scan},
      {"explain", add_explain},
      {"doctor", add_doctor}};
  std::string_view named;
  for (int i = 1; i < argc && named.empty(); ++i)
    if (argv[i][0] != '-') named = argv[i];
  const bool known = std::any_of(std::begin(subcommands), std::end(subcommands),
                                 [&](const auto &c) { return c.first == named; });
  for (const auto &[name, add] : subcommands)
    if (!known || name == named) add(app, g);
}

}  // namespace

int main(int argc, char **argv) {
  using namespace cudnn_compat::cli;
  CLI::App app{"cudnn-compat - find, check and hand out compatible cuDNN releases on a cluster\n",
               "cudnn-compat"};
  app.set_version_flag("--version", std::string("cudnn-compat ") + CUDNN_COMPAT_VERSION +
                                        "\nLicensed under the MIT licence.");
  app.require_subcommand(1, 1);
  app.fallthrough();  // --json may follow the subcommand
  Globals g;
  app.add_flag("--json", g.json, "Print one JSON document on stdout instead of text");
  add_subcommands(app, g, argc, argv);
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
