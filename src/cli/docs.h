// The documentation of cudnn-compat rendered from the application itself (app.cc): the man page
// and the shell completions. Used by the build-time generator, cudnn-compat-docgen.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace cudnn_compat::cli {

// A subcommand with the words that name it ("map validate"), in the order --help lists them.
struct Command {
  std::string path;
  const CLI::App *app;
};
std::vector<Command> commands(const CLI::App &app);  // the application itself first, path ""
// Whether an option's value (or a positional) is a file system path: its type name says so.
bool takes_path(const CLI::Option &o);

// Text as roff reads it (no requests, no escapes, hyphens typed as minus signs).
std::string roff(std::string_view text);
std::string man_page(const CLI::App &app, const std::string &version);  // roff, section 1
// cudnn-compat-map(5): the example map and the derived files' specification (docs/contract.md).
std::string map_page(const std::string &example_map, const std::string &contract,
                     const std::string &version);
std::string bash_completion(const CLI::App &app);
std::string zsh_completion(const CLI::App &app);

}  // namespace cudnn_compat::cli
