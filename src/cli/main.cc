// cudnn-compat: the admin's and the user's view of cuDNN compatibility on a cluster.
#include "cli.h"
#include "diagnostics.h"

int main(int argc, char **argv) {
  using namespace cudnn_compat::cli;
  CLI::App app{kSummary, "cudnn-compat"};
  Globals g;
  build_app(app, g, argc, argv);
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
