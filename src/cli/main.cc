// cudnn-compat: the admin's and the user's view of cuDNN compatibility on a cluster.
#include "cli.h"
#include "diagnostics.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>

namespace {

using namespace cudnn_compat::cli;

// --json anywhere before "--", also where parsing stopped before reaching it.
bool json_asked(int argc, char **argv) {
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i)
    if (std::string_view(argv[i]) == "--json") return true;
  return false;
}

// --json promises one document on stdout: a failure that printed none gets one saying why (the
// same lines went to stderr as text).
int failed_as_json(int exit_code, bool json, const std::string &usage_error = "") {
  if (json && exit_code != kYes && !printed_json()) {
    std::vector<std::string> errors = errors_said();
    if (!usage_error.empty()) errors.push_back(usage_error);
    print_json({{"error", errors.empty() ? "failed (exit " + std::to_string(exit_code) + ")"
                                         : errors.front()},
                {"errors", errors},
                {"exit", exit_code}});
  }
  return exit_code;
}

int run(int argc, char **argv) {
  CLI::App app{kSummary, "cudnn-compat"};
  Globals g;
  build_app(app, g, argc, argv);
  const bool json = json_asked(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // CLI11 says "A subcommand is required" of `resolv` and `map valdate`: the word typed is
    // the news. (--help and --version are answered as asked.)
    std::string typo = dynamic_cast<const CLI::Success *>(&e) == nullptr
                           ? unknown_subcommand(app, argc, argv)
                           : std::string();
    if (typo.empty() && dynamic_cast<const CLI::ExtrasError *>(&e) != nullptr)
      typo = unknown_option(app, argc, argv);
    if (!typo.empty()) {
      Error() << typo;
      std::cerr << "Run with --help for more information.\n";
      return failed_as_json(kUsage, json);
    }
    const int rc = app.exit(e);
    if (rc == 0) return kYes;  // --help, --version
    return failed_as_json(kUsage, json, e.what());
  } catch (const std::exception &e) {
    // Out of memory or a library's surprise: one line, never an abort with a core dump.
    Error() << std::string("internal error: ") + e.what();
    return failed_as_json(kUsage, json);
  }
  const int rc = failed_as_json(g.exit_code, json);
  // An answer that could not be written is no answer: `resolve > /dev/full` said 0 (helper 92).
  if (std::fflush(stdout) != 0 || !std::cout.flush()) {
    Error() << std::string("cannot write the output: ") + std::strerror(errno);
    return kUsage;
  }
  return rc;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (...) {  // building the application itself: out of memory
    std::fputs("cudnn-compat: internal error\n", stderr);
    return kUsage;
  }
}
