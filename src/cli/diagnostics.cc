#include "diagnostics.h"

#include <unistd.h>

#include <iostream>

namespace cudnn_compat::cli {
namespace {

bool colour() {
  static const bool on = isatty(STDERR_FILENO) && !env("NO_COLOR");
  return on;
}

// `text` in the colour of `kind` when stderr takes colour.
std::string paint(Said::Kind kind, std::string_view text) {
  if (!colour()) return std::string(text);
  const char *code = kind == Said::Kind::error     ? "\033[1;31m"
                     : kind == Said::Kind::warning ? "\033[1;35m"
                                                   : "\033[1;36m";
  return code + std::string(text) + "\033[0m";
}

std::vector<std::string> &said() {
  static std::vector<std::string> errors;
  return errors;
}

}  // namespace

const std::vector<std::string> &errors_said() {
  return said();
}

Said::~Said() {
  if (kind_ == Kind::error) said().push_back(text_.str());
  const std::string prefix = kind_ == Kind::note ? "cudnn-compat: " + paint(kind_, "note:") + " "
                                                 : paint(kind_, "cudnn-compat:") + " ";
  std::cerr << prefix << text_.str() << '\n';
}

void print_diagnostic(const Diagnostic &d) {
  // to_string(d) is "<where>: <severity>: <message>"; only the severity word takes colour.
  const std::string line = to_string(d);
  if (d.severity == Severity::error) said().push_back(line);
  const std::string_view word = d.severity == Severity::error ? "error:" : "warning:";
  const std::size_t at = line.size() - d.message.size() - word.size() - 1;
  const Said::Kind kind = d.severity == Severity::error ? Said::Kind::error : Said::Kind::warning;
  std::cerr << line.substr(0, at) << paint(kind, word) << line.substr(at + word.size()) << '\n';
}

}  // namespace cudnn_compat::cli
